//! A finding as commands a person runs: its input typed into the student's program (built as
//! grade built it) and into the reference, and a finding saved as a case file.

use anyhow::Context;

use crate::shell::{printf_pieces, write_file, REPLAY_INLINE_CHARS};

use super::*;

/// The shell commands that replay a finding, each runnable as printed from the student's
/// folder (`sh -c`), in order: every file the program's working directory held written out
/// (`printf '…' > NAME`, a long one in pieces), then the input typed into the student's program
/// run as `program` (its own command, [`crate::submission::Submission::replay_command`]) with
/// its arguments, and into the reference (`grade play`, with its game arguments, and for an
/// instructor's own assignment `--cases DIR` and the case's files as `--file`). A long input
/// is written to a file first. What a command is for follows it as a shell comment.
pub fn replay_commands(
    assignment: Assignment,
    finding: &Finding,
    program: &str,
    build: Option<&str>,
) -> Vec<String> {
    let replay = &finding.replay;
    // An instructor's own assignment is played from its directory, wherever the command runs.
    let kind = assignment.kind();
    let mut play = String::from("grade play");
    if let Some(dir) = kind.directory() {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        play.push_str(&format!(
            " --cases {}",
            crate::shell::word(&dir.display().to_string())
        ));
    }
    let mut commands = Vec::new();
    if let Some(build) = build {
        // A build of several steps (a project file written first) is one command a line.
        let steps: Vec<&str> = build.lines().collect();
        if let Some((last, before)) = steps.split_last() {
            commands.extend(before.iter().map(|step| step.to_string()));
            commands.push(format!("{last}   # build your program as grade did"));
        }
    }
    let mut written: Vec<&str> = Vec::new();
    for (name, content) in replay.files.iter().chain(&replay.reference_files) {
        if !written.contains(&name.as_str()) {
            commands.extend(write_file(name, content));
            written.push(name);
        }
    }
    // `grade play` gives the reference its assignment's own files: the others are named.
    for (name, content) in &replay.reference_files {
        let the_assignments = kind.files().iter().any(|(n, c)| n == name && c == content);
        if !the_assignments {
            play.push_str(&format!(" --file {}", crate::shell::word(name)));
        }
    }
    play.push(' ');
    play.push_str(assignment.name());
    for arg in &replay.reference_args {
        play.push(' ');
        play.push_str(&crate::shell::word(arg));
    }
    let mut run = program.to_string();
    for arg in &replay.args {
        run.push(' ');
        run.push_str(&crate::shell::word(arg));
    }
    // A program that draws its own start (Silver Dollar's strip) cannot be made to draw it
    // again: the reference starts where the program did, the program wherever it draws.
    let yours = if finding.start_args.is_empty() {
        "your program"
    } else {
        "your program: the moves replay as they were only when it draws the same strip again"
    };
    let typed: String = finding.input.iter().map(|l| format!("{l}\n")).collect();
    let inline: String = printf_pieces(typed.as_bytes()).concat();
    if inline.len() <= REPLAY_INLINE_CHARS {
        commands.push(format!("printf '{inline}' | {run}   # {yours}"));
        commands.push(format!("printf '{inline}' | {play}   # the reference"));
    } else {
        // Too long for one line of a report: written to a file first.
        let mut moves = "moves.txt".to_string();
        let mut n = 1;
        while written.contains(&moves.as_str()) {
            n += 1;
            moves = format!("moves{n}.txt");
        }
        commands.extend(write_file(&moves, typed.as_bytes()));
        commands.push(format!("{run} < {moves}   # {yours}"));
        commands.push(format!("{play} < {moves}   # the reference"));
    }
    commands
}

/// The keys of a case file that say how its programs are run: a case saved from a finding
/// copies them from the case the games were played as.
pub(super) const RUN_KEYS: [&str; 7] = [
    "args",
    "reference_args",
    "files",
    "limits",
    "end_of_input",
    "terminal",
    "board_size",
];

/// Writes a finding as a ready case (and its reference transcript) under `root`, which then
/// holds `cases/NAME/` and `reference/NAME/` like any instructor's case directory; returns the
/// case file written.
pub fn save_case(
    exploration: &Exploration,
    assignment: Assignment,
    root: &Path,
) -> anyhow::Result<Option<PathBuf>> {
    let Some(finding) = &exploration.finding else {
        return Ok(None);
    };
    if finding.plan.is_some() {
        bail!(
            "--save-case: this finding was played from the program's own random start, which \
             a case of fixed input cannot repeat; the moves and the start are listed above"
        );
    }
    // An instructor's own assignment keeps its cases in its own layout: DIR/cases/CASE.yaml,
    // DIR/reference/CASE.txt, beside DIR/assignment.yaml.
    let external = assignment.kind().directory().is_some();
    if external && !crate::cases::own::is_own_dir(root) {
        bail!(
            "--save-case {}: give the directory of the assignment (the one holding its \
             assignment.yaml), where the case is saved beside the others",
            root.display()
        );
    }
    let (cases_dir, reference_dir) = if external {
        (root.join("cases"), root.join("reference"))
    } else {
        (
            root.join("cases").join(assignment.name()),
            root.join("reference").join(assignment.name()),
        )
    };
    for dir in [&cases_dir, &reference_dir] {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let header = cases_dir.join("assignment.yaml");
    if !external && !header.exists() {
        let built_in = CaseTree::built_in();
        let text = built_in
            .file(&format!("cases/{assignment}/assignment.yaml"))
            .context("no built-in assignment.yaml")?;
        std::fs::write(&header, text)
            .with_context(|| format!("cannot write {}", header.display()))?;
    }
    let name = format!("explore-{}-game-{}", exploration.seed, finding.game);
    let mut case = serde_json::json!({
        "name": name,
        "description": format!(
            "Found by grade explore (seed {}, game {}): {}",
            exploration.seed, finding.game, finding.check.detail
        ),
        "points": 1,
        "input": finding.input,
    });
    // Run as the case the games were played as: its arguments, files, limits, end of input
    // and terminal (a file `from:` another file of the directory still finds it there).
    if let Some(text) = &exploration.case_file {
        let played_as: serde_json::Value = yaml_serde::from_str(text)
            .context("the case the games were played as no longer reads")?;
        for key in RUN_KEYS {
            if let Some(value) = played_as.get(key) {
                case[key] = value.clone();
            }
        }
    }
    if let (Some(board), Some(board_name)) = (&finding.board_file, &finding.board_name) {
        if !case["files"].is_object() {
            case["files"] = serde_json::json!({});
        }
        case["files"][board_name] = serde_json::json!(board);
    }
    let path = cases_dir.join(format!("{name}.yaml"));
    std::fs::write(&path, yaml_serde::to_string(&case)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let transcript = reference_dir.join(format!("{name}.txt"));
    std::fs::write(&transcript, &finding.reference)
        .with_context(|| format!("cannot write {}", transcript.display()))?;
    Ok(Some(path))
}
