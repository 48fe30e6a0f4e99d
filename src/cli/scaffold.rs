//! `grade new DIR --reference PROGRAM`: the directory of an assignment of the instructor's own,
//! laid out as docs/new-assignment.md describes, ready for `grade bless` and `grade verify`.

use std::path::Path;

use anyhow::{bail, Context};

/// Creates `dir` holding assignment.yaml, handout.md, solution/ (a copy of `reference`),
/// cases/start.yaml and submissions/ (the reference again, as a correct program); prints what
/// was written and what comes next.
pub fn new_assignment(dir: &Path, reference: &Path, title: Option<&str>) -> anyhow::Result<u8> {
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !plain {
        bail!(
            "{}: the directory's name is the assignment's: lower-case letters, digits and '_', \
             starting with a letter (such as {})",
            dir.display(),
            suggested_name(&name)
        );
    }
    if crate::assignments::ASSIGNMENTS
        .iter()
        .any(|a| a.name() == name)
    {
        bail!(
            "{}: '{name}' is a built-in assignment; give yours another name",
            dir.display()
        );
    }
    if dir.exists()
        && std::fs::read_dir(dir)
            .map(|mut entries| entries.next().is_some())
            .unwrap_or(true)
    {
        bail!(
            "{}: the directory exists and is not empty; give a new one",
            dir.display()
        );
    }
    let program = reference
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--reference {}: give the reference program's file or folder",
                reference.display()
            )
        })?;
    if std::fs::symlink_metadata(reference).is_err() {
        bail!(
            "--reference {}: no such file or folder",
            reference.display()
        );
    }
    let title = title.map_or_else(|| name.clone(), str::to_string);
    let write = |relative: &str, text: &str| -> anyhow::Result<()> {
        let path = dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    };
    write("assignment.yaml", &assignment_yaml(&name, &title, &program))?;
    write("handout.md", &handout(&title))?;
    write("cases/start.yaml", START_CASE)?;
    write(
        &format!("{}/README.md", crate::selftest::SUBMISSIONS),
        SUBMISSIONS_README,
    )?;
    copy(reference, &dir.join("solution").join(&program))?;
    let correct = dir.join(crate::selftest::SUBMISSIONS).join("correct");
    copy(reference, &correct.join(&program))?;
    let buggy = dir.join(crate::selftest::SUBMISSIONS).join("buggy");
    std::fs::create_dir_all(&buggy)
        .with_context(|| format!("cannot create {}", buggy.display()))?;
    println!(
        "created {}: assignment.yaml, handout.md, solution/{program}, cases/start.yaml, \
         submissions/correct/{program} (the reference: a correct program), submissions/buggy/",
        dir.display()
    );
    println!("next (docs/new-assignment.md):");
    println!("  write handout.md, and a case per rule in cases/ (start.yaml shows the layout)");
    println!("  put programs in submissions/correct/ and submissions/buggy/");
    println!("  grade bless --root {}", dir.display());
    println!("  grade verify --root {}", dir.display());
    Ok(0)
}

/// A name that would do for `name`: lower case, other characters as '_'.
fn suggested_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if !out.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
        out.insert_str(0, "game_");
    }
    out
}

/// Copies a file or a folder (hidden entries and build output left behind), keeping an
/// executable file executable.
fn copy(from: &Path, to: &Path) -> anyhow::Result<()> {
    if from.is_dir() {
        for entry in walkdir::WalkDir::new(from)
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.'))
        {
            let entry = entry.with_context(|| format!("cannot read {}", from.display()))?;
            let relative = entry.path().strip_prefix(from).unwrap_or(entry.path());
            let target = to.join(relative);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target)
                    .with_context(|| format!("cannot create {}", target.display()))?;
            } else if entry.file_type().is_file() {
                std::fs::copy(entry.path(), &target)
                    .with_context(|| format!("cannot copy {}", entry.path().display()))?;
            }
        }
        return Ok(());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::copy(from, to).with_context(|| format!("cannot copy {}", from.display()))?;
    Ok(())
}

/// assignment.yaml of a new assignment: the reference, limits, and checks to start from.
fn assignment_yaml(name: &str, title: &str, program: &str) -> String {
    let title = title.replace('\'', "''");
    format!(
        "# {name}: an assignment of your own (docs/new-assignment.md, docs/case-format.md).\n\
# Next: write handout.md and a case per rule in cases/, then grade bless and grade verify.\n\
assignment: {name}\n\
title: '{title}'\n\
reference:\n\
\x20 program: solution/{program}     # a file, a folder or an executable\n\
\x20 # main: Game                    # when the folder holds several programs\n\
# args: [--seed, \"7\"]              # arguments for students' programs and the reference\n\
# files: {{words.txt: {{from: words.txt}}}}   # files in every run's working directory (from cases/)\n\
# vocabulary:                      # what random games type (step 7), for an `explore:` case\n\
#   lines: [\"1\", \"2\", \"3\", \"x\"]\n\
#   integers: [{{from: 0, to: 10}}]\n\
#   max_lines: 16\n\
limits:\n\
\x20 wall_seconds: 10\n\
\x20 cpu_seconds: 5\n\
checks:                            # what every case compares, unless it lists its own\n\
\x20 # A start: the whole output, spacing free. Replace it with one check per rule of the\n\
\x20 # handout, comparing only what it fixes, for example:\n\
\x20 # - kind: board                 # the boards, cell by cell, drawn any way\n\
\x20 #   cell: '[XO]'\n\
\x20 #   empty: '[.]'\n\
\x20 #   game: true\n\
\x20 #   weight: 3\n\
\x20 # - kind: lines                 # a message the handout fixes, where it must appear\n\
\x20 #   name: \"Invalid move.\"\n\
\x20 #   item: message\n\
\x20 #   pattern: 'invalid\\W+move'\n\
\x20 #   at_inputs: true\n\
\x20 #   compare: presence\n\
\x20 - kind: transcript\n\
\x20   level: whitespace\n\
\x20   weight: 2\n\
\x20 - kind: exit                    # the program ends when the reference does\n\
\x20   weight: 1\n"
    )
}

/// handout.md of a new assignment: what to write.
fn handout(title: &str) -> String {
    format!(
        "# {title}\n\n\
<!-- The handout students read. grade can only be fair where it is precise: say which \
messages are fixed word for word and what is free (the prompt's wording, blank lines, how \
the board is drawn). Number the rules: each case's description names the rule it tests. -->\n\n\
## The program\n\n\
Reads its moves from standard input, one per line, and prints to standard output.\n\n\
## Rules\n\n\
1. …\n"
    )
}

/// The first case: the program's first screen.
const START_CASE: &str = "\
# A case tests one rule of the handout (docs/new-assignment.md, step 4). This one types
# nothing: the program's first screen, until it first asks for input. Add a case per rule:
# input: [\"1\", \"4\", \"2\"] with the lines a player types.
name: start
description: 'The first screen: what the program prints before its first move.'
points: 1
input: []
";

/// submissions/README.md: what the folders beside it are for.
const SUBMISSIONS_README: &str = "\
# Programs of known verdict

`grade verify --root DIR` grades every program here (a file or a folder, in any language
grade builds) against the assignment's cases:

- each one in `correct/` must keep every point (write them in other styles and languages
  than the reference: other prompts, blank lines, board drawings);
- each one in `buggy/` (one bug each) must lose some point, and a point of every case it names
  in a comment of its own: `# grade: loses win-diagonal` (several: `grade: loses draw, win-row`).

`correct/` starts with a copy of the reference program.
";
