//! The command line: the only part of `grade` that knows clap ([`args`]), and the front-ends
//! that turn arguments into the library's options and print what the library returns (the
//! stages below return data; only `cli/` and `report/` print).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "the command line is where grade talks to its user"
)]

pub mod args;
pub mod commands;
pub mod doctor;
pub mod grade;
pub mod gradescope;
pub mod run;
pub mod scaffold;
pub mod scrub;
pub mod similarity;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

use crate::assignments::{Assignment, Registry};
use crate::grade::GradeOptions;
use args::{AssignmentName, Cli, Command, ExploreArgs, GradebookAction, GradescopeCommand};

/// The whole command line: parse, run the command, turn errors into one line and an exit
/// status (0 full marks or nothing found, 1 points lost or a difference, 2 an error, 130
/// interrupted).
pub fn main() -> ExitCode {
    // A student's program that found a copy of the grader (its reference games and cases)
    // must not be able to use it: every copy refuses to run inside a grading.
    if crate::run::seccomp::inside_grade_sandbox() {
        eprintln!("grade: refusing to run inside a grade sandbox");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    // Parsed: the course seed is taken out of what /proc shows of this process.
    scrub::hide_secrets();
    // A bug in grade must still end in one clear line and status 2, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
        // A reader that stopped early (`grade list | head`): end as Unix tools do on SIGPIPE,
        // quietly with status 141, instead of reporting a bug. (SIGPIPE itself stays ignored:
        // the runner writes to programs that may have exited.)
        if message.starts_with("failed printing to std") && message.contains("Broken pipe") {
            std::process::exit(i32::from(EXIT_BROKEN_PIPE));
        }
        let place = info
            .location()
            .map_or(String::new(), |l| format!(" at {}:{}", l.file(), l.line()));
        eprintln!("grade: internal error{place}: {message} (please report this)");
    }));
    match std::panic::catch_unwind(move || dispatch(cli)) {
        Ok(code) => code,
        Err(_) => ExitCode::from(2),
    }
}

/// The directory a command names with `--cases DIR` or `--root DIR`, where an assignment of
/// the instructor's own may be (docs/new-assignment.md).
fn command_dir(cli: &Cli) -> Option<&std::path::Path> {
    let dir = match &cli.command {
        Some(
            Command::Play { cases, .. }
            | Command::Record { cases, .. }
            | Command::List { cases, .. }
            | Command::Show { cases, .. },
        ) => cases.as_ref(),
        Some(Command::Bless { root, .. } | Command::Verify { root, .. }) => Some(root),
        Some(Command::Explore(args)) => args.cases.as_ref(),
        Some(Command::Gradescope(args)) => match &args.package {
            Some(GradescopeCommand::Package { cases, .. }) => cases.as_ref(),
            None => args.cases.as_ref(),
        },
        Some(_) => None,
        None => cli.grade.options.cases.as_ref(),
    };
    dir.map(std::path::PathBuf::as_path)
}

/// The assignments a command knows: the built-in ones and, when `dir` (or the directory
/// above it, for its `cases/`) is an assignment of the instructor's own, that one, loaded.
fn registry_for(dir: Option<&std::path::Path>) -> Result<Registry, crate::cases::CaseError> {
    use crate::cases::own;
    let Some(dir) = dir else {
        return Ok(Registry::built_in());
    };
    let dir = if dir.file_name().is_some_and(|n| n == "cases") && !own::is_own_dir(dir) {
        dir.parent().unwrap_or(dir)
    } else {
        dir
    };
    if !own::is_own_dir(dir) {
        return Ok(Registry::built_in());
    }
    Ok(Registry::with_own(own::load(dir)?.assignment()))
}

/// The assignment `name` of `registry`.
fn resolve(registry: &Registry, name: &AssignmentName) -> anyhow::Result<Assignment> {
    Ok(registry.find(&name.0)?)
}

/// The assignment named by `--assignment`, or else the instructor's own that the command's
/// directory is; both given, they must agree.
fn assignment_or_own(
    registry: &Registry,
    named: Option<&AssignmentName>,
    usage: &str,
) -> anyhow::Result<Assignment> {
    let own = registry
        .all()
        .iter()
        .copied()
        .find(|a| a.kind().directory().is_some());
    match (named, own) {
        (Some(named), Some(own)) if named.0 != own.name() => Err(anyhow::anyhow!(
            "--assignment {}: the directory {} is the assignment '{own}'",
            named.0,
            own.kind()
                .directory()
                .unwrap_or(std::path::Path::new("."))
                .display(),
        )),
        (Some(named), _) => resolve(registry, named),
        (None, Some(own)) => Ok(own),
        (None, None) => Err(anyhow::anyhow!("usage: {usage}")),
    }
}

/// Draws an exploration's progress on one line of the terminal.
fn show_exploring(progress: crate::explore::ExploreProgress) {
    if progress.done {
        eprintln!();
    } else {
        eprint!(
            "\rexplored {} game(s), {} line(s) typed",
            progress.games, progress.lines
        );
    }
}

/// `grade explore`: turns the arguments into the library's options and prints the result.
fn explore(args: &ExploreArgs, registry: &Registry) -> anyhow::Result<u8> {
    use std::io::IsTerminal;
    let json = match args.format.as_str() {
        "text" => false,
        "json" => true,
        other => anyhow::bail!("--format {other}: expected text or json"),
    };
    let time = args
        .time
        .as_deref()
        .map(crate::explore::parse_duration)
        .transpose()?;
    let options = crate::explore::ExploreOptions {
        seed: args.seed,
        games: args.games,
        time,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        cases: args.cases.clone(),
        case: args.case.clone(),
        terminal: args.terminal,
        progress: (!json && std::io::stderr().is_terminal()).then_some(show_exploring),
        shrink_time: crate::explore::parse_duration(&args.shrink_time)?,
        play_all: false,
        setup: None,
        reference_args: Vec::new(),
    };
    let assignment = assignment_or_own(
        registry,
        args.assignment.as_ref(),
        "grade explore SUBMISSION --assignment NAME (or --cases DIR of your own assignment)",
    )?;
    let exploration = crate::explore::explore(&args.submission, assignment, &options)?;
    let saved = match &args.save_case {
        Some(dir) => crate::explore::save_case(&exploration, assignment, dir)?,
        None => None,
    };
    // What the program printed is quoted: under GitHub Actions, escaped or fenced.
    if json {
        let text = format!("{}\n", serde_json::to_string_pretty(&exploration)?);
        let safe =
            crate::report::github::structured(text.into_bytes(), crate::report::Format::Json);
        print!("{}", String::from_utf8_lossy(&safe));
    } else {
        let mut text = crate::report::explore::render(&exploration);
        if let Some(path) = saved {
            text.push_str(&format!("Saved as {}\n", path.display()));
        }
        print!("{}", crate::report::github::fence(&text));
    }
    Ok(if exploration.finding.is_some() { 1 } else { 0 })
}

/// `grade gradebook export`: a class's gradebook in an LMS's import layout.
fn export_gradebook(
    gradebook: &std::path::Path,
    to: crate::report::lms::Lms,
    column: String,
    ids: Option<&std::path::Path>,
    column_id: Option<String>,
    output: &std::path::Path,
) -> anyhow::Result<u8> {
    use crate::report::lms;
    let path = if gradebook.is_dir() {
        gradebook.join("gradebook.csv")
    } else {
        gradebook.to_path_buf()
    };
    let (_, rows) = crate::class::read_gradebook(&path)?;
    let options = lms::ExportOptions {
        column,
        ids: ids.map(lms::read_ids).transpose()?.unwrap_or_default(),
        column_id,
    };
    let students = lms::export(to, &rows, &options, output)?;
    let blank = rows.iter().filter(|r| r.score.is_none()).count();
    println!(
        "{students} student(s) out of {} points in {} for {}{}",
        crate::report::points(lms::points_possible(&rows)?),
        output.display(),
        to.name(),
        if blank > 0 {
            format!(" ({blank} without a score: left blank, not 0)")
        } else {
            String::new()
        }
    );
    Ok(0)
}

/// Runs the chosen command; errors become one line on stderr and exit status 2.
fn dispatch(cli: Cli) -> ExitCode {
    let result = registry_for(command_dir(&cli))
        .map_err(anyhow::Error::from)
        .and_then(|registry| {
            let result = run_command(cli, &registry);
            registry.release();
            result
        });
    if crate::run::interrupt::interrupted() {
        // Running programs were killed and cleaned up by their runs; finished work is kept.
        eprintln!("grade: {}", crate::run::interrupt::Interrupted);
        return ExitCode::from(crate::run::interrupt::EXIT_INTERRUPTED);
    }
    match result {
        Ok(code) => ExitCode::from(code),
        // A reader that stopped early (`grade completions bash | head`): end quietly with the
        // status of a process SIGPIPE ended, as Unix tools do; it is not an error of grade's.
        Err(error) if broken_pipe(&error) => ExitCode::from(EXIT_BROKEN_PIPE),
        Err(error) => {
            // Errors quote paths and messages a student may control: escaped.
            // Under GitHub Actions, fenced: a quoted name could read as a workflow command.
            let line = format!("grade: {}\n", crate::escape::visible(&format!("{error:#}")));
            eprint!("{}", crate::report::github::fence(&line));
            ExitCode::from(2)
        }
    }
}

/// Runs the chosen command with the assignments it knows.
fn run_command(cli: Cli, registry: &Registry) -> anyhow::Result<u8> {
    match cli.command {
        Some(Command::Play {
            cases,
            files,
            assignment,
            game_args,
        }) => play(registry, &assignment, cases, &files, game_args),
        Some(Command::Record {
            cases: _,
            assignment,
            input,
            game_args,
        }) => commands::record(resolve(registry, &assignment)?, &input, &game_args),
        Some(Command::List { assignment, cases }) => {
            let assignment = assignment.map(|a| resolve(registry, &a)).transpose()?;
            commands::list(assignment, cases.as_deref(), registry)
        }
        Some(Command::Show {
            assignment,
            case,
            cases,
        }) => commands::show(resolve(registry, &assignment)?, &case, cases.as_deref()),
        Some(Command::Bless { assignment, root }) => {
            let assignment = assignment.map(|a| resolve(registry, &a)).transpose()?;
            commands::bless(assignment, &root, registry)
        }
        Some(Command::Verify {
            assignment,
            root,
            no_submissions,
        }) => {
            let assignment = assignment.map(|a| resolve(registry, &a)).transpose()?;
            commands::verify(assignment, &root, !no_submissions, registry)
        }
        Some(Command::New {
            dir,
            reference,
            title,
        }) => scaffold::new_assignment(&dir, &reference, title.as_deref()),
        Some(Command::Explore(args)) => {
            crate::run::interrupt::install();
            explore(&args, registry)
        }
        Some(Command::Completions { shell }) => completions(shell),
        Some(Command::Gradescope(args)) => gradescope_command(args, registry),
        Some(Command::Gradebook {
            action:
                GradebookAction::Merge {
                    parts,
                    output,
                    checks,
                },
        }) => merge(&parts, &output, checks),
        Some(Command::Gradebook {
            action:
                GradebookAction::Export {
                    gradebook,
                    to,
                    column,
                    ids,
                    column_id,
                    output,
                },
        }) => export_gradebook(&gradebook, to, column, ids.as_deref(), column_id, &output),
        Some(Command::Man { dir }) => man(dir.as_deref()),
        Some(Command::Doctor) => doctor::print(),
        Some(Command::Similarity(args)) => similarity::similarity_command(&args),
        Some(Command::Run(args)) => {
            // Before any thread exists: Ctrl-C and SIGTERM stop the run cleanly (exit 130).
            crate::run::interrupt::install();
            run::run_command(&args)
        }
        None => grade_submissions(&cli.grade, registry),
    }
}

/// `grade play`: the reference game of `name` on this terminal.
fn play(
    registry: &Registry,
    name: &AssignmentName,
    cases: Option<std::path::PathBuf>,
    files: &[String],
    game_args: Vec<String>,
) -> anyhow::Result<u8> {
    let assignment = resolve(registry, name)?;
    // `--cases DIR` of a built-in assignment is a course whose variant the game is
    // played in, wherever it was given.
    let mut args = Vec::new();
    if let Some(dir) = cases.filter(|_| assignment.kind().directory().is_none()) {
        args.push("--cases".to_string());
        args.push(dir.to_string_lossy().into_owned());
    }
    args.extend(game_args);
    commands::play(assignment, &args, files)
}

/// `grade completions SHELL`: the completion script on standard output.
fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    // Into memory first: clap_complete panics on a failed write (`| head`), and a
    // write error of our own ends as any other (quietly for a closed pipe).
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "grade", &mut script);
    std::io::Write::write_all(&mut std::io::stdout(), &script)
        .map(|()| 0)
        .map_err(anyhow::Error::from)
}

/// `grade gradescope`: package an autograder, or grade one upload inside one.
fn gradescope_command(args: args::GradescopeArgs, registry: &Registry) -> anyhow::Result<u8> {
    match args.package {
        Some(GradescopeCommand::Package {
            assignment,
            cases,
            output,
            hidden_visibility,
            languages,
        }) => assignment_or_own(
            registry,
            assignment.as_ref(),
            "grade gradescope package --assignment NAME (or --cases DIR of your own assignment)",
        )
        .and_then(|assignment| {
            gradescope::package(&gradescope::Package {
                assignment,
                cases,
                output,
                hidden: hidden_visibility,
                languages,
            })
        }),
        None => match assignment_or_own(
            registry,
            args.assignment.as_ref(),
            "grade gradescope --assignment NAME (see grade gradescope --help)",
        ) {
            Ok(assignment) => {
                crate::run::interrupt::install();
                gradescope::run(&gradescope::GradescopeRun {
                    assignment,
                    submission: args.submission,
                    results: args.results,
                    hidden: args.hidden_visibility,
                    cases: args.cases,
                })
            }
            Err(error) => Err(error),
        },
    }
}

/// `grade gradebook merge`: the parts of a sharded class run as one gradebook.
fn merge(
    parts: &[std::path::PathBuf],
    output: &std::path::Path,
    checks: args::MergeChecks,
) -> anyhow::Result<u8> {
    let options = crate::class::MergeOptions::from(checks);
    let merged = crate::class::merge_gradebooks(parts, output, &options);
    if let Some(refused) = merged
        .as_ref()
        .err()
        .and_then(|e| e.downcast_ref::<crate::class::MergeRefused>())
    {
        for problem in &refused.problems {
            eprintln!("grade: {}", crate::escape::visible(problem));
        }
    }
    merged.map(|merged| {
        for warning in &merged.warnings {
            eprintln!("grade: warning: {}", crate::escape::visible(warning));
        }
        println!("{} student(s) in {}", merged.rows, output.display());
        0
    })
}

/// `grade SUBMISSION…`: grades one submission or a class.
fn grade_submissions(grade_args: &args::GradeArgs, registry: &Registry) -> anyhow::Result<u8> {
    match (
        grade_args.submissions.is_empty(),
        assignment_or_own(
            registry,
            grade_args.assignment.as_ref(),
            "grade SUBMISSION --assignment NAME (see grade --help)",
        ),
    ) {
        (false, Ok(assignment)) => {
            crate::run::interrupt::install();
            let mut options = GradeOptions::from(&grade_args.options);
            match crate::cli::scrub::course_seed_from_env() {
                Ok(seed) => {
                    options.course_seed = options.course_seed.or(seed);
                    let class = crate::class::ClassOptions::from(&grade_args.options);
                    let choice = grade::VariantChoice::from(&grade_args.options);
                    grade::grade_command(
                        &grade_args.submissions,
                        assignment,
                        &options,
                        &class,
                        &choice,
                    )
                }
                Err(error) => Err(error),
            }
        }
        (false, Err(error)) => Err(error),
        (true, _) => Err(anyhow::anyhow!(
            "usage: grade SUBMISSION --assignment NAME (see grade --help)"
        )),
    }
}

/// The exit status of a process ended by SIGPIPE (128 + 13), which a closed pipe on standard
/// output ends `grade` with.
pub const EXIT_BROKEN_PIPE: u8 = 141;

/// Whether `error` is a write to a pipe whose reader has gone.
fn broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `grade man`: the manual page on standard output — the commands listed in it, not as pages
/// of their own, which would not exist — or, with `--dir`, a page per command written there.
fn man(dir: Option<&std::path::Path>) -> anyhow::Result<u8> {
    use std::io::Write;
    let command = Cli::command();
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        clap_mangen::generate_to(command, dir)
            .map_err(|e| anyhow::anyhow!("cannot write the pages into {}: {e}", dir.display()))?;
        println!("manual pages written to {}", dir.display());
        return Ok(0);
    }
    let page = clap_mangen::Man::new(command.clone());
    let mut out = Vec::new();
    page.render_title(&mut out)?;
    page.render_name_section(&mut out)?;
    page.render_synopsis_section(&mut out)?;
    page.render_description_section(&mut out)?;
    page.render_options_section(&mut out)?;
    out.extend_from_slice(b".SH COMMANDS\n");
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        if sub.get_name() == "help" {
            continue;
        }
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        writeln!(
            out,
            ".TP\n\\fBgrade {}\\fR\n{}",
            roff_text(sub.get_name()),
            roff_text(&about)
        )?;
    }
    writeln!(
        out,
        ".PP\n{}",
        roff_text(
            "Each command's options: grade COMMAND --help. grade man --dir DIR writes a page \
             for every command (grade-play.1, grade-gradescope-package.1, …)."
        )
    )?;
    page.render_extra_section(&mut out)?;
    page.render_version_section(&mut out)?;
    // Each section comes with roff's quote-string preamble; the page needs it once.
    let text = String::from_utf8_lossy(&out);
    let preamble = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    let text = match text.split_once(preamble) {
        Some((before, after)) => format!("{before}{preamble}{}", after.replace(preamble, "")),
        None => text.into_owned(),
    };
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(0)
}

/// `text` as roff running text: backslashes and hyphens escaped, no line starting a request.
fn roff_text(text: &str) -> String {
    text.lines()
        .map(|line| {
            let escaped = line.replace('\\', "\\e").replace('-', "\\-");
            if escaped.starts_with('.') || escaped.starts_with('\'') {
                format!("\\&{escaped}")
            } else {
                escaped
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}
