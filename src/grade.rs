//! Grading a submission: case → run → transcript → checks → report.
//!
//! For each case the reference game is recorded on the case's input (and must equal the stored
//! reference transcript), the student's program is run on the same input, and the case's
//! checks compare the two. Cases run in parallel; the result is one [`GradeResult`].

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::bail;

use crate::analyze;
use crate::cases::{Case, CaseSet};
use crate::check::Level;
use crate::check::{self, Check, CheckKind, StudentRun};
use crate::drive::{self, ReferenceStart};
use crate::games::Recording;
use crate::not_gradable::{Cause, NotGradable};
use crate::parallel::in_parallel;
use crate::report::Format;
use crate::results::{
    round_points, BuildFailure, CaseResult, CaseStatus, CheckResult, Ended, GradeResult,
    RunSummary, Visibility,
};
use crate::run::{self, Ending, RunOutcome, RunSpec};
use crate::submission::{self, PrepareError, Submission};
use crate::terminal::SetAside;
use crate::transcript::{Stream, Transcript};

/// What a grading is asked to do: the library's own options, filled in by the command line
/// (`cli/`), by `grade gradescope`, or by a program using the library.
#[derive(Debug, Default, Clone)]
pub struct GradeOptions {
    /// Grade against the cases in this directory (holding cases/ and reference/) instead of
    /// the built-in ones.
    pub cases: Option<PathBuf>,
    /// Only the case with this name, or else the cases whose names contain it (`*` matches
    /// anything).
    pub case_filter: Option<String>,
    /// Report format.
    pub format: Format,
    /// Write the report to this file instead of standard output.
    pub output: Option<PathBuf>,
    /// Require the whole transcript to match the reference exactly.
    pub strict: bool,
    /// Run the program under a pseudo-terminal.
    pub terminal: bool,
    /// The program's entry point when a submission has several: a file in it (`main.py`,
    /// `src/game.js`) or a Java class (`PlayGame`).
    pub main: Option<String>,
    /// Also run the robustness cases.
    pub robustness: bool,
    /// Limits per case that override the cases'.
    pub limits: run::LimitOverrides,
    /// Refuse to grade when a required sandbox layer cannot be set up here.
    pub require_sandbox: bool,
    /// Programs run at once (default: the number of CPU cores; see `run::slots`).
    pub jobs: Option<usize>,
    /// Build the submission even when the build cache holds the same build.
    pub no_cache: bool,
    /// Who the report is for (the instructor's shows hidden cases in full).
    pub audience: crate::report::audience::Audience,
    /// How much the random-games cases play, instead of their case files' number of games.
    pub explore_budget: Option<crate::explore::Budget>,
    /// Leave the random-games cases out (a course that wants only fixed cases).
    pub no_explore: bool,
    /// Skip the sanitizer pass of C and C++ submissions (`--no-sanitize`): no instrumented
    /// build, and the `sanitizer` checks are not applicable.
    pub no_sanitize: bool,
    /// The course seed of random-games cases (`--course-seed` or `GRADE_COURSE_SEED`), over
    /// the case directory's.
    pub course_seed: Option<u64>,
}

/// Turns a `--case` pattern into a matcher: a substring, or a wildcard pattern with `*`.
fn case_matcher(pattern: &str) -> anyhow::Result<regex::Regex> {
    let escaped: Vec<String> = pattern.split('*').map(regex::escape).collect();
    let anchored = if pattern.contains('*') {
        format!("^{}$", escaped.join(".*"))
    } else {
        escaped.join("")
    };
    Ok(regex::Regex::new(&anchored)?)
}

/// The cases a run grades: all but robustness ones (unless asked for), narrowed by `--case`.
pub fn select_cases<'a>(set: &'a CaseSet, options: &GradeOptions) -> anyhow::Result<Vec<&'a Case>> {
    let candidates = || {
        set.cases
            .iter()
            .filter(|c| options.robustness || !c.robustness)
            .filter(|c| !(options.no_explore && c.explore.is_some()))
    };
    let selected: Vec<&Case> = match &options.case_filter {
        None => candidates().collect(),
        Some(pattern) => {
            let matcher = case_matcher(pattern)?;
            // An exact name selects just that case; otherwise a substring or wildcard match.
            let exact: Vec<&Case> = candidates().filter(|c| c.name == *pattern).collect();
            let chosen: Vec<&Case> = if exact.is_empty() {
                candidates().filter(|c| matcher.is_match(&c.name)).collect()
            } else {
                exact
            };
            if chosen.is_empty() {
                let names: Vec<&str> = candidates().map(|c| c.name.as_str()).collect();
                let hint = if options.robustness {
                    ""
                } else {
                    " (robustness cases run only with --robustness)"
                };
                bail!(
                    "no case of {} matches '{pattern}'{hint}; cases: {}",
                    set.assignment,
                    names.join(", ")
                );
            }
            chosen
        }
    };
    Ok(selected)
}

/// Grades `submission` against the cases of `set`.
pub fn grade(
    submission: &Path,
    set: &CaseSet,
    options: &GradeOptions,
) -> anyhow::Result<GradeResult> {
    grade_built(
        submission,
        set,
        options,
        build_for_grading(submission, set, options),
    )
}

/// A submission built for its grading, maybe ahead of it: a class run builds the next
/// student while it grades this one ([`crate::class`]), so the builds, one process at a time,
/// no longer leave the other cores idle. What [`grade_built`] grades.
pub struct BuiltForGrading {
    /// How long the build took, counted in the grading's time.
    took: Duration,
    outcome: anyhow::Result<Prepared>,
}

/// Builds `submission` as [`grade`] would for `set` and `options` (the same cases, hence the
/// same sanitizer build), a failed build graded already.
pub fn build_for_grading(
    submission: &Path,
    set: &CaseSet,
    options: &GradeOptions,
) -> BuiltForGrading {
    let started = Instant::now();
    let preparing = run::profile::span("grading: submission prepared (build or cache)");
    let outcome = select_cases(set, options).and_then(|selected| {
        let prepare_options = prepare_options(set, &selected, options);
        prepare(submission, set, &selected, &prepare_options, started)
    });
    drop(preparing);
    BuiltForGrading {
        took: started.elapsed(),
        outcome,
    }
}

/// Grades `submission`, already built for `set` and `options` by [`build_for_grading`].
pub fn grade_built(
    submission: &Path,
    set: &CaseSet,
    options: &GradeOptions,
    built: BuiltForGrading,
) -> anyhow::Result<GradeResult> {
    // The grading's time: the build's and what follows, not a wait between them.
    let started = Instant::now()
        .checked_sub(built.took)
        .unwrap_or_else(Instant::now);
    let selected = select_cases(set, options)?;
    // A stale or missing reference transcript is the instructor's or the grader's to fix.
    let recording = run::profile::span("grading: reference games recorded");
    let references = selected
        .iter()
        .map(|case| reference_for(case))
        .collect::<anyhow::Result<Vec<Recording>>>()
        .map_err(|e| NotGradable::new(Cause::Grader, format!("{e:#}")))?;
    drop(recording);

    let prepare_options = prepare_options(set, &selected, options);
    let prepared = match built.outcome? {
        Prepared::Ready(prepared) => prepared,
        Prepared::BuildFailed(result) => return Ok(result),
    };
    let reading = run::profile::span("grading: code read, requirements, resized builds");
    let mut program = analyze::Program::load(submission);
    // An archive's sources are read where it was unpacked; a Java file's with the files of
    // its folder it was built with.
    let sources = match &prepared.read_code_from {
        Some(dir) => dir.as_path(),
        None if program.language.is_none() => prepared.dir(),
        None => submission,
    };
    if sources != submission {
        program = analyze::Program::load(sources);
    }
    program.warnings = analyze::compiler_findings(&prepared.warnings);
    let requirements = analyze::requirements::evaluate(
        set.assignment.def().requirements,
        &program,
        &set.requirement_weights,
    );
    let mut notes = prepared.notes.clone();
    let resized = resized_submissions(sources, set, &selected, &prepare_options);
    for (size, built) in &resized {
        match built {
            Resize::Built(_, change) => notes.push(format!(
                "rebuilt for the {size}×{size} board case(s): {change}"
            )),
            Resize::NoSource(why) => notes.push(format!(
                "the {size}×{size} board case(s) were not run: {why} (nothing lost)"
            )),
            Resize::Unchangeable(_) => {}
        }
    }
    drop(reading);
    // A program without source (an executable) cannot be rebuilt: those cases do not apply.
    let (selected, references): (Vec<&Case>, Vec<Recording>) = selected
        .into_iter()
        .zip(references)
        .filter(|(case, _)| {
            !matches!(
                case.board_size.and_then(|size| resized.get(&size)),
                Some(Resize::NoSource(_))
            )
        })
        .unzip();

    let jobs = options
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 64);
    // `jobs` programs at once, and one thread more than that: it scores a case, steers a
    // random game or prepares the next run while the others' programs run.
    run::slots::set_limit(jobs);
    let grade_one = |index: usize| {
        if run::interrupt::interrupted() {
            return None;
        }
        let case = selected[index];
        Some(match case.board_size.and_then(|size| resized.get(&size)) {
            None | Some(Resize::NoSource(_)) => {
                grade_case(case, &references[index], &prepared, options)
            }
            Some(Resize::Built(resized, _)) => {
                grade_case(case, &references[index], resized, options)
            }
            Some(Resize::Unchangeable(reason)) => Ok(not_resizable(case, reason).into()),
        })
    };
    // A hidden case never runs beside a visible one: programs running at once can always
    // signal to each other somehow (CPU load, timing), and a visible case's output is in the
    // student's report. So every visible case runs to its end first, then the hidden ones
    // (docs/security.md, "Concurrent runs").
    let mut slots: Vec<Option<_>> = (0..selected.len()).map(|_| None).collect();
    for hidden in [false, true] {
        let mut phase: Vec<usize> = (0..selected.len())
            .filter(|&i| (selected[i].visibility == Visibility::Hidden) == hidden)
            .collect();
        // Longest first, so that the phase's last case does not start while others idle.
        phase.sort_by_key(|&i| std::cmp::Reverse(expected_runs_and_inputs(selected[i])));
        let done = in_parallel(phase.len(), jobs + 1, |k| grade_one(phase[k]));
        for (&index, result) in phase.iter().zip(done) {
            slots[index] = result;
        }
    }
    run::interrupt::check()?;
    let cases = gather(slots, &mut notes)?;
    let mut result = GradeResult {
        assignment: set.assignment.name().to_string(),
        submission: submission.display().to_string(),
        score: 0.0,
        max_score: 0.0,
        cases,
        build_failure: None,
        notes,
        wall_ms: millis(started.elapsed()),
        sandbox: sandbox_layers(),
        requirements,
        warnings: prepared.warnings.trim_end().to_string(),
        rubric: Vec::new(),
        variant: set.variant_info.clone(),
    };
    result.total(&set.rubric);
    Ok(result)
}

/// How the submission is built for these cases: with the sanitizer build only when a selected
/// case has a `sanitizer` check and `--no-sanitize` is not given.
fn prepare_options(
    set: &CaseSet,
    selected: &[&Case],
    options: &GradeOptions,
) -> submission::PrepareOptions {
    submission::PrepareOptions {
        java_main: set.java_main.clone(),
        no_cache: options.no_cache,
        main_file: set.main_file.clone(),
        main: options.main.clone(),
        // Built only when a selected case has a `sanitizer` check (and for C and C++ only).
        sanitize: !options.no_sanitize
            && selected.iter().any(|c| {
                c.checks
                    .iter()
                    .any(|k| matches!(k.kind, CheckKind::Sanitizer))
            }),
    }
}

/// A submission built (or found in the cache) to be run, or the result of one that did not
/// build: every case lost, its code still read for the requirements.
#[allow(
    clippy::large_enum_variant,
    reason = "one value per grading, moved once"
)]
enum Prepared {
    Ready(Submission),
    BuildFailed(GradeResult),
}

/// Builds `submission`; a build that fails is graded here, a missing tool or a machine that
/// cannot build is "not gradable".
fn prepare(
    submission: &Path,
    set: &CaseSet,
    selected: &[&Case],
    prepare_options: &submission::PrepareOptions,
    started: Instant,
) -> anyhow::Result<Prepared> {
    // The code is read on its own parse, whether or not it builds, once `prepare` has
    // accepted the tree (its entry cap keeps a folder of 50 000 folders from being walked).
    Ok(match submission::prepare(submission, prepare_options) {
        Ok(prepared) => Prepared::Ready(prepared),
        Err(PrepareError::BuildFailed(failure)) => {
            let mut program = analyze::Program::load(submission);
            program.build_failed = true;
            program.warnings = analyze::compiler_findings(&failure.messages);
            let requirements = analyze::requirements::evaluate(
                set.assignment.def().requirements,
                &program,
                &set.requirement_weights,
            );
            let mut result = build_failed(submission, set, selected, failure, started);
            result.requirements = requirements;
            result.total(&set.rubric);
            Prepared::BuildFailed(result)
        }
        Err(error @ PrepareError::MissingTool { .. }) => {
            return Err(NotGradable::new(Cause::Toolchain, error.to_string()).into())
        }
        Err(error @ (PrepareError::NoBuildDirectory(_) | PrepareError::BuildNotRun(_))) => {
            return Err(NotGradable::new(Cause::Machine, error.to_string()).into())
        }
        Err(other) => return Err(other.into()),
    })
}

/// The graded cases in case order, and the submission's notes from what its visible runs did
/// (a hidden run's notes stay with its own case: counted in the submission's they would be a
/// channel for its input).
fn gather(
    slots: Vec<Option<anyhow::Result<GradedCase>>>,
    notes: &mut Vec<String>,
) -> anyhow::Result<Vec<CaseResult>> {
    let mut cases = Vec::with_capacity(slots.len());
    let mut set_aside = SetAside::default();
    let mut paused = 0;
    let mut read_first = 0;
    for slot in slots {
        let mut graded =
            slot.ok_or_else(|| NotGradable::new(Cause::Grader, "a case was not graded"))??;
        if graded.result.visibility == Visibility::Hidden {
            // What a hidden run did stays with the hidden case (its notes are the instructor's
            // alone): counted in the submission's notes it would be a channel for its input.
            let notes = &mut graded.result.notes;
            notes.extend(graded.set_aside.note());
            if graded.read_first {
                notes.push("the program read all of its input before printing anything".into());
            }
            if graded.paused {
                notes.push("after the game was over the program asked for more input".into());
            }
        } else {
            set_aside.add(&graded.set_aside);
            paused += usize::from(graded.paused);
            read_first += usize::from(graded.read_first);
        }
        cases.push(graded.result);
    }
    notes.extend(set_aside.note());
    if read_first > 0 {
        notes.push(format!(
            "the program read all of its input before printing anything (in {read_first} \
             case(s)): its output was compared in the order it was printed, each input placed \
             where the reference reads it; at a terminal it could not be played, since it waits \
             for all of the input first"
        ));
    }
    if paused > 0 {
        notes.push(format!(
            "after the game was over the program asked for more input (a final \"press \
             Enter\"?) in {paused} case(s): it was given end of input, as at a terminal, and \
             ended by itself — nothing lost"
        ));
    }
    Ok(cases)
}

/// A rough measure of how long a case takes to grade: its runs times the lines each one
/// reads (random games: every game; samples: every sample). Orders a phase longest first.
fn expected_runs_and_inputs(case: &Case) -> usize {
    let runs = match &case.explore {
        Some(spec) => spec.games.max(1),
        None => case.samples.max(1),
    };
    // A random game reads about as many lines as a long scripted game.
    let inputs = if case.explore.is_some() {
        40
    } else {
        case.input.len()
    };
    runs.saturating_mul(inputs.max(1))
}

/// A submission rebuilt for another board size, or why not.
enum Resize {
    /// Rebuilt, with what was changed.
    Built(Box<Submission>, String),
    /// The board size is not a single constant, or the changed program does not build: the
    /// case is lost with this reason.
    Unchangeable(String),
    /// No source to change (an executable): the case does not apply.
    NoSource(String),
}

/// A handout's "change a single variable N" (connect6): for each board size a selected case
/// asks for, the submission rebuilt with its board-size constant set to that size, or why it
/// cannot be.
fn resized_submissions(
    submission: &Path,
    set: &CaseSet,
    selected: &[&Case],
    options: &submission::PrepareOptions,
) -> std::collections::BTreeMap<usize, Resize> {
    let mut sizes: Vec<usize> = selected.iter().filter_map(|c| c.board_size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    sizes
        .into_iter()
        .map(|size| {
            let resized = if analyze::Program::load(submission).language.is_none() {
                Resize::NoSource("the submission has no source to rebuild with another size".into())
            } else {
                match resized_submission(submission, set, size, options) {
                    Ok((built, change)) => Resize::Built(Box::new(built), change),
                    Err(reason) => Resize::Unchangeable(reason),
                }
            };
            (size, resized)
        })
        .collect()
}

fn resized_submission(
    submission: &Path,
    set: &CaseSet,
    size: usize,
    options: &submission::PrepareOptions,
) -> Result<(Submission, String), String> {
    let assignment = set.assignment;
    let resize = assignment
        .def()
        .resize
        .ok_or_else(|| format!("{assignment} has no board size to change"))?;
    // The size the program was written for: the handout's, or the course's variant's.
    let written_for = (resize.size_of_args)(&set.variant.reference_args(assignment, &[]))
        .ok_or_else(|| format!("{assignment}: the variant's board size is not valid"))?;
    let edit = (resize.edit)(submission, written_for, size)?;
    let copy = tempfile::Builder::new()
        .prefix("grade-resized-")
        .tempdir()
        .map_err(|e| format!("cannot make a directory for the rebuilt program: {e}"))?;
    let name = submission.file_name().map_or_else(
        || std::ffi::OsString::from("submission"),
        |n| n.to_os_string(),
    );
    let root = copy.path().join(name);
    if submission.is_dir() {
        std::fs::create_dir(&root)
            .map_err(|e| format!("cannot make a directory for the rebuilt program: {e}"))?;
        run::workdir::copy_tree(
            submission,
            &root,
            run::workdir::CopyLimits {
                depth: 3,
                files: 2_000,
                bytes: 512 << 20,
            },
        )
        .map_err(|e| format!("cannot copy the submission to rebuild it: {e}"))?;
        std::fs::write(root.join(&edit.file), &edit.text)
    } else {
        std::fs::write(&root, &edit.text)
    }
    .map_err(|e| format!("cannot write the rebuilt program: {e}"))?;
    match submission::prepare(&root, options) {
        Ok(built) => Ok((built, edit.change)),
        Err(PrepareError::BuildFailed(failure)) => Err(format!(
            "the program with {} did not build: {}",
            edit.change,
            failure
                .messages
                .lines()
                .find(|l| l.contains("error"))
                .unwrap_or("")
                .trim()
        )),
        Err(other) => Err(format!(
            "the program with {} cannot run: {other}",
            edit.change
        )),
    }
}

/// A board-size case for a program whose board size is not a single constant: every point
/// lost, with the reason.
fn not_resizable(case: &Case, reason: &str) -> CaseResult {
    let detail = format!("the board size could not be changed: {reason}");
    CaseResult {
        checks: vec![CheckResult {
            rule: None,
            name: "board size".into(),
            kind: "rebuild".into(),
            passed: false,
            score: 0.0,
            max_score: case.points,
            detail: detail.clone(),
            difference: None,
        }],
        ..not_run(case, CaseStatus::Failed, Ended::Exit, 0)
    }
}

/// A case of this grading that was not run to the end of a game (see [`CaseResult::not_run`]).
fn not_run(case: &Case, status: CaseStatus, ended: Ended, inputs: usize) -> CaseResult {
    CaseResult::not_run(
        &case.name,
        &case.description,
        case.visibility,
        case.points,
        status,
        ended,
        inputs,
    )
}

/// The sandbox layers of this grader process, as the report records them.
pub fn sandbox_layers() -> Vec<crate::results::SandboxLayer> {
    run::layers::states()
        .into_iter()
        .map(|l| crate::results::SandboxLayer {
            name: l.name.to_string(),
            active: l.active,
            required: l.required,
            detail: l.detail,
        })
        .collect()
}

/// Records the reference on the case's input; it must equal the stored transcript.
fn reference_for(case: &Case) -> anyhow::Result<Recording> {
    let recording = case
        .recorded_reference()
        .map_err(|failure| anyhow::anyhow!("{}: {failure}", case.source))?;
    match &case.reference {
        None => bail!(
            "{}: the case has no reference transcript ({}); run `grade bless`",
            case.source,
            case.reference_path
        ),
        Some(stored) if *stored != recording.transcript.terminal_text() => bail!(
            "{}: the stored reference transcript {} differs from what the reference game \
             produces now; check it with `grade verify` and re-run `grade bless`",
            case.source,
            case.reference_path
        ),
        Some(_) => Ok(recording),
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// The checks a case is graded with: its own, or under `--strict` the whole transcript
/// (except for cases of many runs, whose random output no single transcript can match).
///
/// The case's own checks are borrowed, not cloned: a clone of a compiled pattern starts with
/// empty matching caches (its lazy DFA would be built again for every case).
fn checks_for(case: &Case, strict: bool) -> Cow<'_, [Check]> {
    if strict && case.samples <= 1 {
        Cow::Owned(vec![Check {
            rule: None,
            name: "transcript".into(),
            weight: 1.0,
            kind: CheckKind::Transcript {
                level: Level::TrailingWhitespace,
            },
        }])
    } else {
        Cow::Borrowed(&case.checks)
    }
}

/// The limits of a case with the command line's overrides applied.
fn limits_for(case: &Case, options: &GradeOptions) -> run::Limits {
    options.limits.apply(&case.limits)
}

/// Runs the program once for `case`, typing what the case's driver decides.
fn run_once(
    case: &Case,
    submission: &Submission,
    options: &GradeOptions,
) -> Result<RunOutcome, run::RunError> {
    let spec = case_run(case, submission, &submission.command, options);
    run::run_with(&spec, case.driver.source().as_mut())
}

/// The run of `case` with `program` (the submission's command, or its instrumented build):
/// the case's arguments, files, input and limits, the submission's environment.
fn case_run(
    case: &Case,
    submission: &Submission,
    program: &[String],
    options: &GradeOptions,
) -> RunSpec {
    let mut command = program.to_vec();
    command.extend(case.args.iter().cloned());
    RunSpec {
        command,
        files: case.files.clone(),
        readable: submission.readable.clone(),
        env: submission.env.clone(),
        input: case.input.clone(),
        end_of_input: case.end_of_input,
        limits: limits_for(case, options),
        terminal: options.terminal || case.terminal,
        workdir: None,
    }
}

/// The sanitizer pass of one case: the case run again with the build instrumented with
/// AddressSanitizer and UBSan, in the same sandbox and limits (docs/sanitizers.md), and the
/// verdict of its `sanitizer` check. None when the case has no such check, the submission no
/// instrumented build (another language, `--no-sanitize`) or the run could not be made.
fn sanitizer_verdict(
    case: &Case,
    submission: &Submission,
    options: &GradeOptions,
) -> Option<check::Evaluation> {
    if options.no_sanitize
        || case.samples > 1
        || !case
            .checks
            .iter()
            .any(|c| matches!(c.kind, CheckKind::Sanitizer))
    {
        return None;
    }
    let mut spec = case_run(case, submission, submission.sanitized.as_ref()?, options);
    spec.limits.sanitized = true;
    spec.env
        .extend(crate::sanitizer::env(spec.limits.memory_bytes));
    let outcome = run::run_with(&spec, case.driver.source().as_mut()).ok()?;
    Some(crate::sanitizer::evaluate(&crate::sanitizer::findings(
        &outcome.transcript,
    )))
}

/// Runs the program `case.samples` times (in parallel up to `jobs`); the first error wins.
fn run_samples(
    case: &Case,
    submission: &Submission,
    options: &GradeOptions,
) -> Result<Vec<RunOutcome>, run::RunError> {
    let threads = options
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, case.samples.max(1));
    // One thread more than the programs allowed at once (see `run::slots`).
    let slots = in_parallel(case.samples, threads + 1, |_| {
        Some(run_once(case, submission, options))
    });
    slots
        .into_iter()
        .map(|slot| {
            slot.unwrap_or_else(|| {
                Err(run::RunError::Setup(std::io::Error::other(
                    "a sample run was not made",
                )))
            })
        })
        .collect()
}

/// An `explore:` case (a random-games case): a seeded budget of generated games, scored by the
/// share that agree with the reference (or each check all or nothing, or the case all or
/// nothing, as the case file says); the first difference shrunk, with the commands that
/// replay it, as feedback.
fn explore_case(
    case: &Case,
    spec: crate::cases::schema::ExploreSpec,
    submission: &Submission,
    options: &GradeOptions,
) -> anyhow::Result<CaseResult> {
    use crate::explore::Budget;
    let (games, time) = match options.explore_budget {
        None => (spec.games, None),
        Some(Budget::Games(games)) => (games, None),
        Some(Budget::Time(time)) => (10_000, Some(time)),
    };
    let seed = crate::explore::case_seed(spec.seed, options.course_seed.or(spec.course_seed));
    let explore_options = crate::explore::ExploreOptions {
        seed,
        games,
        time,
        jobs: options
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        cases: None,
        case: None,
        terminal: options.terminal,
        progress: None,
        shrink_time: Duration::from_secs(3),
        play_all: true,
        setup: Some(case.setup.clone()),
        reference_args: case.reference_args.clone(),
    };
    let started = Instant::now();
    // Every game runs the program as a fixed case of this case file would: its arguments,
    // files, limits, end of input and terminal.
    let runs = crate::explore::Runs::of_case(case, limits_for(case, options), options.terminal);
    let played = crate::explore::run_games(
        case.assignment,
        &case.checks,
        &runs,
        submission,
        &explore_options,
    )?;
    Ok(crate::explore::scoring::random_games_result(
        case,
        spec.scoring,
        &played,
        seed,
        submission,
        started.elapsed(),
    ))
}

/// The runs to grade a driven case on: its one run while its start lets the plan reach the
/// case's rule, else runs made again for a new start (`drive::redraw_until_the_rule_is_reached`);
/// `redraws` counts the runs made again.
fn redraw_until_the_rule_is_reached(
    case: &Case,
    submission: &Submission,
    options: &GradeOptions,
    mut outcomes: Vec<RunOutcome>,
    redraws: &mut usize,
) -> Vec<RunOutcome> {
    if case.driver.is_scripted() || outcomes.len() != 1 {
        return outcomes;
    }
    let Some(first) = outcomes.pop() else {
        return outcomes;
    };
    let (outcome, made) = drive::redraw_until_the_rule_is_reached(
        first,
        |transcript| case.driver.reference_start(&case.setup, transcript),
        |start| case.driver.reaches_its_rule(start),
        || run_once(case, submission, options).ok(),
    );
    *redraws = made;
    vec![outcome]
}

/// A random-games case that could not be played to the end: a game the program could not be
/// started for (its own doing: the case lost, as a fixed case's), or a fault of the machine
/// (a run's spawn or sandbox) or of the reference — never the student's score.
fn explore_failure(case: &Case, error: anyhow::Error) -> anyhow::Result<GradedCase> {
    if crate::not_gradable::not_gradable(&error).is_some() || run::interrupt::interrupted() {
        return Err(error);
    }
    let run_error = error
        .chain()
        .find_map(|e| e.downcast_ref::<run::RunError>());
    match run_error {
        Some(run::RunError::Interrupted) => Err(error),
        Some(run_error) if !machine_fault(run_error) => Ok(CaseResult {
            notes: vec![format!("the program could not be run: {run_error}")],
            ..not_run(case, CaseStatus::Error, Ended::Signal, 0)
        }
        .into()),
        Some(_) => {
            Err(NotGradable::new(Cause::Machine, format!("{}: {error:#}", case.name)).into())
        }
        None => Err(NotGradable::new(Cause::Grader, format!("{}: {error:#}", case.name)).into()),
    }
}

/// One case graded, and what reading its output as a terminal shows it set aside (said once
/// for the whole submission, in [`GradeResult::notes`]).
struct GradedCase {
    result: CaseResult,
    set_aside: SetAside,
    /// The program paused after the game and ended at end of input
    /// ([`check::pause_after_the_game`]).
    paused: bool,
    /// The program read all its input before printing ([`check::read_all_input_first`]).
    read_first: bool,
}

impl From<CaseResult> for GradedCase {
    fn from(result: CaseResult) -> Self {
        GradedCase {
            result,
            set_aside: SetAside::default(),
            paused: false,
            read_first: false,
        }
    }
}

/// The runs a case is graded on (one, its samples, or a driven case's runs made again for a
/// start that reaches its rule) and how many were made again; `Err` is the case lost when
/// the program could not be run, and a machine's fault is "not gradable".
#[allow(
    clippy::type_complexity,
    reason = "the runs and their redraws, or the case lost: said once, here"
)]
fn case_runs(
    case: &Case,
    submission: &Submission,
    options: &GradeOptions,
) -> anyhow::Result<Result<(Vec<RunOutcome>, usize), CaseResult>> {
    let outcomes = if case.samples > 1 {
        run_samples(case, submission, options)
    } else {
        run_once(case, submission, options).map(|o| vec![o])
    };
    let mut redraws = 0;
    let outcomes = match outcomes {
        Ok(outcomes) if !outcomes.is_empty() && case.samples <= 1 => {
            redraw_until_the_rule_is_reached(case, submission, options, outcomes, &mut redraws)
        }
        Ok(outcomes) if !outcomes.is_empty() => outcomes,
        Ok(_) => {
            return Err(
                NotGradable::new(Cause::Grader, format!("{}: no run was made", case.name)).into(),
            )
        }
        Err(error) if machine_fault(&error) => {
            return Err(NotGradable::new(Cause::Machine, format!("{}: {error}", case.name)).into())
        }
        Err(error) => {
            return Ok(Err(CaseResult {
                input: case.input.clone(),
                notes: vec![format!("the program could not be run: {error}")],
                ..not_run(case, CaseStatus::Error, Ended::Signal, case.input.len())
            }))
        }
    };
    Ok(Ok((outcomes, redraws)))
}

/// How the program's own start (a driven case's random strip) stood: a game to play, a
/// game already over, or a start the reference cannot play (why).
#[derive(Debug, PartialEq, Eq)]
enum Start {
    Playable,
    Finished,
    Unusable(String),
}

/// The reference a driven case's run is compared with: the reference started where the
/// program started and driven by the same plan (a scripted case's, or a case of samples',
/// is `reference` itself), and how that start stood.
fn reference_from_the_programs_start<'r>(
    case: &Case,
    reference: &'r Recording,
    outcome: &RunOutcome,
) -> anyhow::Result<(Cow<'r, Recording>, Start)> {
    if case.driver.is_scripted() || case.samples > 1 {
        return Ok((Cow::Borrowed(reference), Start::Playable));
    }
    let (setup, start) = match case
        .driver
        .reference_start(&case.setup, &outcome.transcript)
    {
        ReferenceStart::Setup(setup) => (setup, Start::Playable),
        ReferenceStart::Finished(setup) => (setup, Start::Finished),
        ReferenceStart::Unusable(why) => {
            return Ok((Cow::Borrowed(reference), Start::Unusable(why)))
        }
    };
    let driven = drive::record_driven(&setup, case.driver.source().as_mut())
        .map_err(|failure| anyhow::anyhow!("{}: {failure}", case.source))?;
    Ok((Cow::Owned(driven), start))
}

/// Runs one case and checks it.
fn grade_case(
    case: &Case,
    reference: &Recording,
    submission: &Submission,
    options: &GradeOptions,
) -> anyhow::Result<GradedCase> {
    if let Some(spec) = case.explore {
        return match explore_case(case, spec, submission, options) {
            Ok(result) => Ok(result.into()),
            Err(error) => explore_failure(case, error),
        };
    }
    let (outcomes, redraws) = match case_runs(case, submission, options)? {
        Ok(runs) => runs,
        Err(lost) => return Ok(lost.into()),
    };
    let samples: Vec<Transcript> = if case.samples > 1 {
        outcomes.iter().map(|o| o.transcript.clone()).collect()
    } else {
        Vec::new()
    };
    let outcome = &outcomes[0];
    // A driven case is compared with the reference started where the program started (its
    // own random strip) and driven by the same plan to the end of its game: the lines it is
    // sent are the ones the program was sent, as far as the program read.
    let (compared_with, start) = reference_from_the_programs_start(case, reference, outcome)?;
    let reference: &Recording = &compared_with;
    let finished_start = start == Start::Finished;
    let unusable_start = match start {
        Start::Unusable(why) => Some(why),
        _ => None,
    };
    let mut case_checks = checks_for(case, options.strict);
    if finished_start {
        // Redrawing or announcing a winner are both fair answers to a finished start.
        case_checks
            .to_mut()
            .retain(|c| c.kind.judges_the_start() || matches!(c.kind, CheckKind::Exit { .. }));
    }
    let student = StudentRun::of(outcome, &samples);
    let sanitizer = sanitizer_verdict(case, submission, options);
    let scoring = run::profile::span("grading: checks scored (a fixed case)");
    let mut checks: Vec<CheckResult> = check::score_sanitized(
        &case_checks,
        &student,
        reference,
        case.points,
        sanitizer.as_ref(),
    );
    drop(scoring);
    if let Some(why) = &unusable_start {
        // Only the checks of the start itself say why it is unusable.
        let of_the_start: Vec<&str> = case_checks
            .iter()
            .filter(|c| c.kind.judges_the_start())
            .map(|c| c.name.as_str())
            .collect();
        for check in checks
            .iter_mut()
            .filter(|c| !of_the_start.contains(&c.name.as_str()))
        {
            check.passed = false;
            check.score = 0.0;
            check.detail = why.clone();
            check.difference = None;
        }
    }
    let score = round_points(checks.iter().map(|c| c.score).sum());
    let max_score: f64 = checks.iter().map(|c| c.max_score).sum();
    // Informational checks (no points) never fail a case.
    let passed = checks.iter().all(|c| c.passed || c.max_score <= 0.0);
    let input = if case.driver.is_scripted() {
        case.input.clone()
    } else {
        outcome.transcript.inputs().map(String::from).collect()
    };
    let replay = if passed || unusable_start.is_some() {
        Vec::new()
    } else {
        fixed_case_replay(case, submission, &checks, &outcome.transcript)
    };
    Ok(GradedCase {
        set_aside: outcome.transcript.set_aside(),
        paused: check::pause_after_the_game(&student, reference)
            && student.after_script.is_some_and(|a| a.prompt_shown),
        read_first: check::read_all_input_first(&student),
        result: CaseResult {
            name: case.name.clone(),
            description: case.description.clone(),
            visibility: case.visibility,
            score,
            max_score: round_points(max_score.max(case.points)),
            status: if passed {
                CaseStatus::Passed
            } else {
                CaseStatus::Failed
            },
            checks,
            run: summary(outcome),
            input,
            notes: {
                let mut notes = notes(outcome, case, options, finished_start);
                if check::read_all_input_first(&student) {
                    // Said once for the submission: it read everything before printing.
                    notes.retain(|n| !n.starts_with("prompts were not flushed"));
                }
                notes.extend(replay.into_iter().map(|c| format!("replay it: {c}")));
                if redraws > 0 {
                    notes.insert(
                        0,
                        format!(
                            "the program was run {} times: its random start left no room for what \
                         this case tests, so it was run again for a new start, and the last run \
                         was graded",
                            redraws + 1
                        ),
                    );
                }
                notes
            },
            stderr: capped(&outcome.transcript.output_text(Stream::Stderr), 2000),
            first_difference: None,
        },
    })
}

/// The commands that replay a visible fixed case's run as printed, from the student's folder
/// ([`crate::explore::replay_commands`], as a random game's finding is replayed): its files
/// written out, its input typed into the student's own run command with its arguments (after
/// the build grade ran, if any), and into the reference. A driven case's input is the lines
/// its driver sent in the graded run `transcript` (what the program printed decided them), the
/// reference started where the program started (Silver Dollar: `--board` with its strip).
/// None for a hidden case or one of many runs.
fn fixed_case_replay(
    case: &Case,
    submission: &Submission,
    checks: &[CheckResult],
    transcript: &Transcript,
) -> Vec<String> {
    let failed = checks.iter().find(|c| !c.passed);
    let Some(failed) =
        failed.filter(|_| case.visibility == Visibility::Visible && case.samples <= 1)
    else {
        return Vec::new();
    };
    let (input, start_args) = if case.driver.is_scripted() {
        (case.input.clone(), Vec::new())
    } else {
        (
            transcript.inputs().map(String::from).collect(),
            case.driver.start_args(transcript),
        )
    };
    let (reference_args, reference_files) =
        crate::explore::ReplaySetup::reference_side(&case.setup, &start_args, || {
            case.reference_args.clone()
        });
    let finding = crate::explore::Finding {
        game: 0,
        original_lines: input.len(),
        input,
        board_file: None,
        board_name: None,
        start_args,
        plan: None,
        shrink_runs: 0,
        check: failed.clone(),
        reference: String::new(),
        replay: crate::explore::ReplaySetup {
            args: case.args.clone(),
            files: case.files.clone(),
            reference_args,
            reference_files,
        },
    };
    crate::explore::replay_commands(
        case.assignment,
        &finding,
        &submission.replay_command(),
        submission.replay_build(),
    )
}

/// Whether a run that could not be made failed for the grading machine's reasons rather than
/// the program's own ([`run::RunError::is_machine_fault`]): the first make the submission not
/// gradable, the second lose the case.
fn machine_fault(error: &run::RunError) -> bool {
    error.is_machine_fault()
}

/// Keeps at most `limit` bytes of `text` (on a character boundary), marking the cut.
fn capped(text: &str, limit: usize) -> String {
    if text.len() <= limit {
        return text.to_string();
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n… ({} more bytes)", &text[..end], text.len() - end)
}

/// The report's view of how the run went.
fn summary(outcome: &RunOutcome) -> RunSummary {
    let (ended, exit_code, signal) = match outcome.ending {
        Ending::Exited(code) => (Ended::Exit, Some(code), None),
        Ending::Signaled(signal) => (Ended::Signal, None, Some(signal)),
        Ending::WallTimeout => (Ended::Timeout, None, None),
        Ending::CpuLimit => (Ended::CpuLimit, None, None),
        Ending::MemoryLimit => (Ended::MemoryLimit, None, None),
        Ending::OutputLimit | Ending::DiskLimit => (Ended::OutputLimit, None, None),
        Ending::WaitingForInput => (Ended::WaitingForInput, None, None),
        Ending::Blocked(_) => (Ended::Blocked, None, None),
    };
    RunSummary {
        ended,
        exit_code,
        signal,
        wall_ms: millis(outcome.wall),
        slept_ms: millis(outcome.slept),
        cpu_ms: millis(outcome.cpu),
        peak_memory_kib: outcome.peak_memory_bytes.map(|b| b >> 10),
        peak_memory_note: (outcome.peak_memory_bytes.is_some() && !outcome.peak_memory_of_run)
            .then(|| crate::report::resources::LARGEST_PROCESS.to_string()),
        unread_inputs: outcome.unread_inputs,
        prompts_late: outcome.prompts_late,
        output_truncated: outcome.output_truncated,
        detection: outcome.detection.name().to_string(),
        withheld: false,
    }
}

/// Things the student should know that are not check failures.
fn notes(
    outcome: &RunOutcome,
    case: &Case,
    options: &GradeOptions,
    finished_start: bool,
) -> Vec<String> {
    let limits = limits_for(case, options);
    let mut notes = Vec::new();
    if finished_start {
        notes.push(
            "the program's random start was already finished (no move possible): only the \
             start and the end of the run were graded"
                .to_string(),
        );
    }
    if outcome.prompts_late {
        notes.push(
            "prompts were not flushed before reading input: they appeared only later, so a \
             person at a terminal would not see them in time (flush output before reading, \
             e.g. `cout << flush`, `fflush(stdout)`, `print(..., flush=True)`)"
                .to_string(),
        );
    }
    match outcome.ending {
        Ending::WallTimeout => notes.push(format!(
            "the program was stopped after the time limit of {} s",
            limits.wall.as_secs_f64()
        )),
        Ending::CpuLimit => notes.push(format!(
            "the program was stopped after using {} s of CPU time (an endless loop?)",
            limits.cpu.as_secs_f64()
        )),
        Ending::MemoryLimit => notes.push(format!(
            "the program was stopped for using more than {} MiB of memory",
            limits.memory_bytes >> 20
        )),
        Ending::OutputLimit => notes.push(format!(
            "the program was stopped after printing more than {} KiB",
            limits.output_bytes >> 10
        )),
        Ending::DiskLimit => notes.push(format!(
            "the program was stopped for writing more than {} MiB or {} files",
            run::workdir::DISK_LIMIT_BYTES >> 20,
            run::workdir::DISK_LIMIT_ENTRIES
        )),
        Ending::Signaled(signal) => notes.push(format!(
            "the program crashed: killed by signal {signal}{}",
            signal_name(signal).map_or(String::new(), |n| format!(" ({n})"))
        )),
        Ending::Blocked(stall) => notes.push(blocked_note(stall, outcome, &limits)),
        Ending::Exited(_) | Ending::WaitingForInput => {}
    }
    if outcome.detection == run::Detection::Quiescence {
        notes.push(
            "input timing was estimated from output pauses on this machine; where each input \
             appears in the transcript may be approximate"
                .to_string(),
        );
    }
    notes
}

/// What a student reads when the program was stopped as blocked.
fn blocked_note(stall: run::pace::Stall, outcome: &RunOutcome, limits: &run::Limits) -> String {
    use run::pace;
    match stall {
        pace::Stall::Idle => format!(
            "the program was stopped: it was neither reading input nor computing for {} s \
             (waiting for something that never comes, or asleep)",
            pace::blocked_after(limits.wall).as_secs_f64()
        ),
        pace::Stall::Slept => format!(
            "the program was stopped: it slept {} s in all, more than the {} s a run may \
             sleep (pauses and waits, which do not count toward the time limit)",
            seconds(outcome.slept),
            pace::sleep_limit(limits.wall).as_secs_f64()
        ),
    }
}

/// Seconds as a student reads them: `0.7`, `8.4`, `1000000000` (whole from 1000 s on).
fn seconds(duration: Duration) -> String {
    let s = duration.as_secs_f64();
    if s >= 1000.0 {
        format!("{}", duration.as_secs())
    } else {
        format!("{s:.1}")
    }
}

fn signal_name(signal: i32) -> Option<&'static str> {
    Some(match signal {
        libc::SIGSEGV => "SIGSEGV, a memory access error",
        libc::SIGABRT => "SIGABRT, the program aborted",
        libc::SIGFPE => "SIGFPE, e.g. division by zero",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGTERM => "SIGTERM",
        _ => return None,
    })
}

/// The result when the submission does not build: every case scores 0.
fn build_failed(
    submission: &Path,
    set: &CaseSet,
    selected: &[&Case],
    failure: BuildFailure,
    started: Instant,
) -> GradeResult {
    let cases = selected
        .iter()
        .map(|case| CaseResult {
            notes: vec!["the submission did not build".to_string()],
            ..not_run(
                case,
                CaseStatus::Error,
                Ended::BuildFailed,
                case.input.len(),
            )
        })
        .collect::<Vec<_>>();
    GradeResult {
        assignment: set.assignment.name().to_string(),
        submission: submission.display().to_string(),
        score: 0.0,
        max_score: round_points(cases.iter().map(|c| c.max_score).sum()),
        cases,
        build_failure: Some(failure),
        notes: Vec::new(),
        wall_ms: millis(started.elapsed()),
        sandbox: sandbox_layers(),
        requirements: Vec::new(),
        warnings: String::new(),
        rubric: Vec::new(),
        variant: set.variant_info.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_patterns_are_substrings_or_wildcards() {
        let m = case_matcher("error").expect("pattern");
        assert!(m.is_match("error-too-many"));
        let w = case_matcher("error-*").expect("pattern");
        assert!(w.is_match("error-too-many"));
        assert!(!w.is_match("an-error-x"));
        assert!(case_matcher("a.b").expect("pattern").is_match("a.b"));
        assert!(!case_matcher("a.b").expect("pattern").is_match("axb"));
    }

    #[test]
    fn a_run_that_could_not_start_is_the_machines_fault_only_for_the_machines_reasons() {
        let spawn = |errno| run::RunError::Spawn {
            program: "./nim".into(),
            source: std::io::Error::from_raw_os_error(errno),
        };
        // The student's: not found, not executable, not a program.
        for errno in [libc::ENOENT, libc::EACCES, libc::ENOEXEC] {
            assert!(!machine_fault(&spawn(errno)), "errno {errno}");
        }
        // The machine's: no processes or memory left, the sandbox refused.
        for errno in [libc::EAGAIN, libc::ENOMEM, libc::EPERM] {
            assert!(machine_fault(&spawn(errno)), "errno {errno}");
        }
        assert!(machine_fault(&run::RunError::Setup(
            std::io::Error::from_raw_os_error(libc::ENOSPC)
        )));
        assert!(!machine_fault(&run::RunError::Interrupted));
    }

    #[test]
    fn capped_marks_the_cut() {
        assert_eq!(capped("abc", 10), "abc");
        assert_eq!(capped("ééé", 3), "é\n… (4 more bytes)");
    }
}
