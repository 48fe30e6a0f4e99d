//! The subcommands other than grading itself: play, record, list, show, bless, verify.

use std::io::Read;
use std::path::Path;

use anyhow::{anyhow, bail, Context};

use crate::cases::{self, Case, CaseSet, CaseTree};
use crate::results::Visibility;

use crate::assignments::{Assignment, Registry};
use crate::console::TerminalConsole;
use crate::games;

/// `grade play`: the reference game on this terminal. An instructor's own reference program
/// also gets `files` (`NAME` or `NAME=PATH`, read from the current directory) in its working
/// directory besides its assignment's; when it fails (a usage error, a crash, a limit) its
/// standard error and how it ended are said, and the status is not 0.
pub fn play(assignment: Assignment, game_args: &[String], files: &[String]) -> anyhow::Result<u8> {
    let game_args = variant_game_args(assignment, game_args)?;
    let files = if files.is_empty() {
        Vec::new()
    } else {
        play_files(files)?
    };
    let (setup, note) = assignment
        .kind()
        .play_setup(&game_args, Path::new("."), &files)?;
    if let Some(note) = note {
        eprintln!("grade: {note}");
    }
    let mut ended = ProgramEnd::default();
    let played = {
        let stdin = std::io::stdin();
        let mut console = ReportingConsole {
            inner: TerminalConsole::new(stdin.lock(), std::io::stdout().lock()),
            ended: &mut ended,
        };
        games::play(&setup, &mut console)
    };
    let stderr = String::from_utf8_lossy(&ended.stderr);
    if !stderr.is_empty() {
        eprint!("{}", crate::escape::visible(&stderr));
        if !stderr.ends_with('\n') {
            eprintln!();
        }
    }
    if let Err(failure) = played {
        eprintln!("grade: {}", crate::escape::visible(&failure.0));
        return Ok(1);
    }
    match (ended.status, assignment.kind().reference_program()) {
        (Some(status), Some(program)) if status != 0 => {
            eprintln!("grade: the reference program {program} exited with status {status}");
            Ok(u8::try_from(status).ok().filter(|s| *s != 0).unwrap_or(1))
        }
        _ => Ok(0),
    }
}

/// How a reference program ended, as its run told the console: `grade play` shows a reference
/// that failed (its usage error on standard error, its status).
#[derive(Debug, Default)]
struct ProgramEnd {
    status: Option<i32>,
    stderr: Vec<u8>,
}

/// A terminal console that keeps how a reference program ended.
struct ReportingConsole<'a, C> {
    inner: C,
    ended: &'a mut ProgramEnd,
}

impl<C: crate::console::Console> crate::console::Console for ReportingConsole<'_, C> {
    fn write(&mut self, text: &str) {
        self.inner.write(text);
    }

    fn read_line(&mut self) -> Option<String> {
        self.inner.read_line()
    }

    fn ended_after_end_of_input(&mut self) {
        self.inner.ended_after_end_of_input();
    }

    fn program_ended(&mut self, status: Option<i32>, stderr: &[u8]) {
        self.ended.status = status;
        self.ended.stderr = stderr.to_vec();
    }
}

/// `grade play --file` values read from the current directory: `NAME` (the file NAME) or
/// `NAME=PATH`, placed as NAME in the reference program's working directory.
fn play_files(files: &[String]) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    files
        .iter()
        .map(|spec| {
            let (name, path) = spec
                .split_once('=')
                .unwrap_or((spec.as_str(), spec.as_str()));
            let inside = !name.is_empty()
                && Path::new(name)
                    .components()
                    .all(|c| matches!(c, std::path::Component::Normal(_)));
            if !inside {
                bail!("--file {spec}: the name must stay inside the working directory");
            }
            let content = std::fs::read(path)
                .with_context(|| format!("--file {spec}: cannot read {path}"))?;
            Ok((name.to_string(), content))
        })
        .collect()
}

/// The options `grade play` takes besides game arguments, for playing a variant
/// (docs/variants.md): `--variant matches=25`, or `--student NAME` with the course's
/// `--cases DIR` (and `--course-seed N` when the seed is not in its assignment.yaml).
#[derive(Default)]
struct PlayVariant {
    cases: Option<std::path::PathBuf>,
    student: Option<String>,
    variant: Option<String>,
    course_seed: Option<u64>,
}

/// The game arguments `grade play` passes to the reference: the variant's (as the
/// student's cases play it, said on standard error) followed by the other arguments.
fn variant_game_args(assignment: Assignment, args: &[String]) -> anyhow::Result<Vec<String>> {
    let mut asked = PlayVariant::default();
    let mut rest = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = |flag: &str| {
            args.next()
                .cloned()
                .ok_or_else(|| anyhow!("{flag} needs a value"))
        };
        match arg.as_str() {
            "--cases" => asked.cases = Some(value("--cases")?.into()),
            "--student" => asked.student = Some(value("--student")?),
            "--variant" => asked.variant = Some(value("--variant")?),
            "--course-seed" => {
                let text = value("--course-seed")?;
                asked.course_seed =
                    Some(text.parse().map_err(|_| {
                        anyhow!("--course-seed needs a whole number, got '{text}'")
                    })?);
            }
            _ => rest.push(arg.clone()),
        }
    }
    if asked.cases.is_none() && asked.student.is_none() && asked.variant.is_none() {
        return Ok(rest);
    }
    let tree = CaseTree::open(asked.cases.as_deref())?;
    let set = cases::load(&tree, assignment)?;
    let choice = super::grade::VariantChoice {
        student: asked.student.clone(),
        variant: asked.variant.clone(),
    };
    let seed = asked
        .course_seed
        .or(crate::cli::scrub::course_seed_from_env()?);
    let student = asked.student.as_deref().unwrap_or("");
    if asked.variant.is_none() && asked.student.is_none() && !set.variants.is_empty() {
        bail!(
            "{assignment}: the course gives each student a variant; say whose with --student NAME"
        );
    }
    let chosen = super::grade::cases_for(&tree, &set, student, &choice, seed)?;
    match &chosen.variant_info {
        Some(info) => eprintln!("grade: playing {assignment}, {}", info.describe()),
        None => eprintln!("grade: playing {assignment} as the handout has it"),
    }
    let mut game_args = chosen.variant.reference_args(assignment, &[]);
    game_args.extend(rest);
    Ok(game_args)
}

/// `grade record`: the canonical transcript of the reference on scripted input.
pub fn record(assignment: Assignment, input: &Path, game_args: &[String]) -> anyhow::Result<u8> {
    let setup = assignment.setup(game_args, Path::new("."))?;
    let lines = read_input_lines(input)?;
    let recording = games::record(&setup, &lines)?;
    print!("{}", recording.transcript.terminal_text());
    if recording.wanted_more_input {
        eprintln!(
            "grade: note: the game wanted more input than {} holds; the transcript ends there",
            input.display()
        );
    } else if recording.unread_lines > 0 {
        eprintln!(
            "grade: note: the game ended with {} input line(s) of {} unread",
            recording.unread_lines,
            input.display()
        );
    }
    Ok(0)
}

/// Reads an input script: one line per input, `-` meaning standard input.
fn read_input_lines(path: &Path) -> anyhow::Result<Vec<String>> {
    let text = if path == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read input lines from standard input")?;
        text
    } else {
        std::fs::read_to_string(path)
            .with_context(|| format!("cannot read input file {}", path.display()))?
    };
    Ok(text
        .lines()
        .map(|l| l.trim_end_matches('\r').to_string())
        .collect())
}

/// `grade list`: the assignments, or one assignment's cases with points. The total is the
/// one every report and the gradebook state ([`CaseSet::total`]).
pub fn list(
    assignment: Option<Assignment>,
    cases: Option<&Path>,
    registry: &Registry,
) -> anyhow::Result<u8> {
    let tree = CaseTree::open(cases)?;
    let points = crate::report::points;
    match assignment {
        None => {
            for assignment in tree.assignments(registry) {
                let set = cases::load(&tree, assignment)?;
                let (robust, regular): (Vec<&Case>, Vec<&Case>) =
                    set.cases.iter().partition(|c| c.robustness);
                let sum = |cases: &[&Case]| cases.iter().map(|c| c.points).sum::<f64>();
                println!(
                    "{:<14} {:>3} cases {:>4} points  ({}; +{} robustness, {} points)  {}",
                    assignment.name(),
                    regular.len(),
                    points(set.total()),
                    breakdown(&set),
                    robust.len(),
                    points(sum(&robust)),
                    set.title
                );
            }
        }
        Some(assignment) => {
            let set = cases::load(&tree, assignment)?;
            println!(
                "{} ({}): {} points ({}); robustness cases run only with --robustness",
                set.title,
                assignment,
                points(set.total()),
                breakdown(&set)
            );
            let names: Vec<String> = set
                .cases
                .iter()
                .map(|c| c.name.clone())
                .chain(
                    set.requirements()
                        .iter()
                        .map(|(n, _)| format!("requirement: {n}")),
                )
                .chain(set.rubric.iter().map(|(n, _, _)| format!("rubric: {n}")))
                .collect();
            let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            for case in &set.cases {
                let mut tags = Vec::new();
                if case.visibility == Visibility::Hidden {
                    tags.push("hidden");
                }
                if case.robustness {
                    tags.push("robustness");
                }
                let mut summary: String = case.description.chars().take(70).collect();
                if case.description.chars().count() > 70 {
                    summary.push('…');
                }
                println!(
                    "  {:<width$} {:>5}  {:<18} {}",
                    case.name,
                    points(case.points),
                    tags.join(","),
                    summary
                );
            }
            for (name, requirement_points) in set.requirements() {
                println!(
                    "  {:<width$} {:>5}  {:<18} code requirement (another language: the cases' share of it)",
                    format!("requirement: {name}"),
                    points(requirement_points),
                    ""
                );
            }
            for (name, part, line_points) in &set.rubric {
                println!(
                    "  {:<width$} {:>5}  {:<18} rubric line counting {}",
                    format!("rubric: {name}"),
                    points(*line_points),
                    "",
                    part.name()
                );
            }
        }
    }
    Ok(0)
}

/// How an assignment's total is made: "cases 90 + code requirements 6", or its rubric's lines.
fn breakdown(set: &CaseSet) -> String {
    let points = crate::report::points;
    if !set.rubric.is_empty() {
        let lines: Vec<String> = set
            .rubric
            .iter()
            .map(|(name, _, line_points)| format!("{name} {}", points(*line_points)))
            .collect();
        return format!("rubric: {}", lines.join(" + "));
    }
    let cases: f64 = set
        .cases
        .iter()
        .filter(|c| !c.robustness)
        .map(|c| c.points)
        .sum();
    let requirements: f64 = set.requirements().iter().map(|(_, p)| p).sum();
    if requirements > 0.0 {
        format!(
            "cases {} + code requirements {}",
            points(cases),
            points(requirements)
        )
    } else {
        format!("cases {}", points(cases))
    }
}

/// `grade show`: a visible case's input, files and reference transcript.
pub fn show(assignment: Assignment, case_name: &str, cases: Option<&Path>) -> anyhow::Result<u8> {
    let tree = CaseTree::open(cases)?;
    let set = cases::load(&tree, assignment)?;
    let case = find_case(&set, case_name)?;
    if case.visibility == Visibility::Hidden {
        bail!("case '{case_name}' of {assignment} is hidden: its input and expected output are not shown");
    }
    println!(
        "{} — {} points",
        case.name,
        crate::report::points(case.points)
    );
    println!("{}\n", case.description);
    if !case.args.is_empty() {
        println!("Arguments: {}", case.args.join(" "));
    }
    for (name, bytes) in &case.files {
        println!(
            "File {name}:\n{}",
            String::from_utf8_lossy(bytes).trim_end()
        );
    }
    if let Some(driven) = case.driver.describe() {
        println!("Input: {driven}");
        println!(
            "(each run's moves depend on the strip the program draws; the transcript below is \
             the driver playing the reference on its own strip)"
        );
    } else {
        println!("Input ({} lines):", case.input.len());
        for (number, line) in case.input.iter().enumerate() {
            println!("{:>4}  {line}", number + 1);
        }
    }
    if case.samples > 1 {
        println!("The program is run {} times.", case.samples);
    }
    let transcript = match &case.reference {
        Some(text) => text.clone(),
        None => recorded_reference(case)?,
    };
    println!("\nReference transcript:\n{transcript}");
    Ok(0)
}

fn find_case<'a>(set: &'a CaseSet, name: &str) -> anyhow::Result<&'a Case> {
    set.cases.iter().find(|c| c.name == name).ok_or_else(|| {
        let names: Vec<&str> = set.cases.iter().map(|c| c.name.as_str()).collect();
        anyhow!(
            "{} has no case '{name}' (cases: {})",
            set.assignment,
            names.join(", ")
        )
    })
}

fn selected(
    tree: &CaseTree,
    assignment: Option<Assignment>,
    registry: &Registry,
) -> Vec<Assignment> {
    assignment.map_or_else(|| tree.assignments(registry), |a| vec![a])
}

/// `grade bless`: writes the reference transcript of every case under `root`.
pub fn bless(
    assignment: Option<Assignment>,
    root: &Path,
    registry: &Registry,
) -> anyhow::Result<u8> {
    let tree = CaseTree::from_dir(root)?;
    let mut written = 0;
    for assignment in selected(&tree, assignment, registry) {
        let set = cases::load(&tree, assignment)?;
        for case in &set.cases {
            let text = recorded_reference(case)?;
            let path = tree
                .disk_path(&case.reference_path)
                .unwrap_or_else(|| root.join(&case.reference_path));
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .with_context(|| format!("cannot create {}", dir.display()))?;
            }
            if case.reference.as_deref() != Some(text.as_str()) {
                std::fs::write(&path, &text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                println!("wrote {}", path.display());
                written += 1;
            }
        }
        for orphan in orphans(&tree, &set) {
            println!(
                "note: {} has no case any more; remove it",
                tree.display(&orphan)
            );
        }
        if !set.short_scripts.is_empty() {
            println!(
                "note: with {} the input of these {assignment} cases ends before the game does, \
                 so their endings are not tested (rewrite them for it): {}",
                set.variant.label(assignment),
                set.short_scripts.join(", ")
            );
        }
    }
    println!("{written} reference transcript(s) written");
    Ok(0)
}

/// The reference's transcript of a case; for an instructor's own reference program, an error
/// naming the case when the program failed (crashed, ran out of a limit, did not build).
fn recorded_reference(case: &cases::Case) -> anyhow::Result<String> {
    Ok(recorded(case)?.transcript.terminal_text())
}

/// The reference's recording of a case, or the error of [`recorded_reference`].
fn recorded(case: &cases::Case) -> anyhow::Result<crate::games::Recording> {
    case.record_reference()
        .map_err(|failure| anyhow!("{}: {failure}", case.source))
}

/// Stored transcripts of an assignment that belong to no case.
fn orphans(tree: &CaseTree, set: &CaseSet) -> Vec<String> {
    let prefix = format!("reference/{}/", set.assignment);
    tree.paths()
        .filter(|p| p.starts_with(&prefix) && p.ends_with(".txt"))
        .filter(|p| !set.cases.iter().any(|c| c.reference_path == **p))
        .cloned()
        .collect()
}

/// `grade verify`: every stored transcript equals what the reference produces now; for an
/// instructor's own assignment, its programs of known verdict (`submissions/`) get the
/// verdicts they must (with `submissions`), and settings that grade unfairly are warned about.
pub fn verify(
    assignment: Option<Assignment>,
    root: &Path,
    submissions: bool,
    registry: &Registry,
) -> anyhow::Result<u8> {
    let tree = CaseTree::from_dir(root)?;
    let mut problems = 0;
    let mut checked = 0;
    let mut sets = Vec::new();
    for assignment in selected(&tree, assignment, registry) {
        let set = cases::load(&tree, assignment)?;
        let mut recordings = std::collections::BTreeMap::new();
        for case in &set.cases {
            checked += 1;
            let recording = recorded(case)?;
            let now = recording.transcript.terminal_text();
            recordings.insert(case.name.clone(), recording);
            match &case.reference {
                None => {
                    problems += 1;
                    println!(
                        "{}: missing (run grade bless)",
                        tree.display(&case.reference_path)
                    );
                }
                Some(stored) if *stored != now => {
                    problems += 1;
                    println!(
                        "{}: differs from the reference game:",
                        tree.display(&case.reference_path)
                    );
                    let diff = similar::TextDiff::from_lines(stored.as_str(), now.as_str());
                    print!(
                        "{}",
                        diff.unified_diff()
                            .context_radius(2)
                            .header("stored", "reference now")
                    );
                }
                Some(_) => {}
            }
        }
        for orphan in orphans(&tree, &set) {
            problems += 1;
            println!("{}: belongs to no case", tree.display(&orphan));
        }
        for warning in crate::selftest::lint::warnings(&set, &recordings) {
            println!("{warning}");
        }
        sets.push(set);
    }
    let transcripts = if problems > 0 {
        format!(
            "{problems} problem(s) in {checked} case(s); run `grade bless` after checking the diff"
        )
    } else {
        format!("{checked} reference transcript(s) verified")
    };
    // The programs of known verdict beside an instructor's own assignment.
    let dir = tree.root().filter(|_| {
        sets.first()
            .is_some_and(|set| set.assignment.kind().directory().is_some())
    });
    let known = match (dir, submissions) {
        (Some(dir), true) => crate::selftest::find(dir)?,
        _ => Vec::new(),
    };
    let (Some(dir), [set], false) = (dir, sets.as_slice(), known.is_empty()) else {
        println!("{transcripts}");
        return Ok(u8::from(problems > 0));
    };
    if problems > 0 {
        println!("{transcripts}");
        println!(
            "the {} program(s) in {} are graded once the transcripts are right",
            known.len(),
            dir.join(crate::selftest::SUBMISSIONS).display()
        );
        return Ok(1);
    }
    // As in any grading, the assignment's files stay out of the programs' reach.
    crate::run::sandbox::protect(dir);
    let (mut wrong, mut skipped) = (0, 0);
    for verdict in crate::selftest::check(&known, set, dir) {
        let name = verdict.known.path.display();
        if let Some(why) = &verdict.skipped {
            skipped += 1;
            println!("{name}: not graded on this machine: {why}");
            continue;
        }
        // A check's detail quotes what the program printed: escaped, as in every report.
        let visible = crate::escape::visible;
        if verdict.problems.is_empty() {
            println!("{name}: {}", visible(&verdict.summary));
        }
        for problem in &verdict.problems {
            println!("{name}: {}", visible(problem));
        }
        wrong += usize::from(!verdict.problems.is_empty());
    }
    let graded = known.len() - skipped;
    println!(
        "{transcripts}; {} of {graded} program(s) in {} graded as expected{}",
        graded - wrong,
        dir.join(crate::selftest::SUBMISSIONS).display(),
        match skipped {
            0 => String::new(),
            n => format!(" ({n} not graded here: a toolchain is missing)"),
        }
    );
    Ok(u8::from(wrong > 0))
}
