//! The `grade` command line: parses arguments and hands each command to the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use grade::games::Assignment;

const ABOUT: &str = "Grade console-game assignments against reference transcripts.";

const LONG_ABOUT: &str = "\
Grade console-game assignments against reference transcripts.

grade runs a student's program on scripted input, exactly as a person at a terminal would
type it, compares what it printed with the reference implementation of the assignment, and
reports a score per test case with feedback the student can act on.

Assignments: m, silver_dollar, connect6, collect, nim.";

const EXAMPLES: &str = "\
Examples:
  grade ./nim.cpp --assignment nim          grade a C++ submission with the built-in cases
  grade submission/ -a collect --format json
  grade class/*/ -a m --output-dir reports/      grade a whole class: one report each + gradebook.csv
  grade play nim                            play the reference game yourself
  grade record nim --input moves.txt        print the reference transcript for scripted input
  grade list nim                            list the cases and their points
  grade doctor                              show which sandbox layers work on this machine";

#[derive(Parser, Debug)]
#[command(
    name = "grade",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    grade: GradeArgs,
}

/// Options for grading a submission (the default command).
#[derive(Args, Debug)]
struct GradeArgs {
    /// The submission: an executable, a .py/.c/.cpp/.cc/.java file, or a directory holding
    /// one. Several submissions grade a whole class (see --output-dir).
    #[arg(required = true, value_name = "SUBMISSION")]
    submissions: Vec<PathBuf>,

    /// The assignment: m, silver_dollar, connect6, collect or nim.
    #[arg(short, long, required = true)]
    assignment: Option<Assignment>,

    #[command(flatten)]
    options: grade::grade::GradeOptions,
}

/// Options of `grade explore`.
#[derive(Args, Debug)]
struct ExploreArgs {
    /// The submission, as for grading.
    submission: PathBuf,
    /// The assignment: m, connect6, collect or nim.
    #[arg(short, long)]
    assignment: Assignment,
    /// Seed of the first game; the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games to play at most.
    #[arg(long, default_value_t = 200)]
    games: usize,
    /// Stop starting games after this long (e.g. 30s, 2m).
    #[arg(long, value_name = "DURATION")]
    time: Option<String>,
    /// Write the shrunk input as a ready case (with its reference transcript) under DIR.
    #[arg(long, value_name = "DIR")]
    save_case: Option<PathBuf>,
    /// Report format: text or json.
    #[arg(long, default_value = "text")]
    format: String,
    /// Time spent shrinking a difference at most (e.g. 10s).
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    shrink_time: String,
    /// Take limits, arguments and checks from an instructor's case directory.
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
    /// Games played at once (default: the number of CPU cores).
    #[arg(short, long)]
    jobs: Option<usize>,
}

/// `grade gradescope`: options of the run inside the autograder, or `package`.
#[derive(Args, Debug)]
struct GradescopeArgs {
    #[command(subcommand)]
    package: Option<GradescopeCommand>,
    /// The assignment.
    #[arg(short, long, required = false)]
    assignment: Option<Assignment>,
    /// The uploaded submission.
    #[arg(long, default_value = "/autograder/submission")]
    submission: PathBuf,
    /// Where results.json is written.
    #[arg(long, default_value = "/autograder/results/results.json")]
    results: PathBuf,
    /// What students see of hidden cases; the default keeps their total visible.
    #[arg(long, value_enum, default_value_t = grade::report::gradescope::HiddenVisibility::Visible)]
    hidden_visibility: grade::report::gradescope::HiddenVisibility,
    /// An instructor's case directory instead of the built-in cases.
    #[arg(long, value_name = "DIR")]
    cases: Option<PathBuf>,
}

/// `grade gradescope package`.
#[derive(Subcommand, Debug)]
enum GradescopeCommand {
    /// Write autograder.zip: setup.sh, run_autograder, this grade binary, and the cases.
    #[command(after_help = "Example:\n  grade gradescope package -a nim -o autograder.zip")]
    Package {
        /// The assignment.
        #[arg(short, long)]
        assignment: Assignment,
        /// An instructor's case directory to ship instead of the built-in cases.
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
        /// The zip to write.
        #[arg(short, long, default_value = "autograder.zip")]
        output: PathBuf,
    },
}

/// What to do with gradebooks.
#[derive(Subcommand, Debug)]
enum GradebookAction {
    /// Combine the gradebook.csv of several shards' output directories into one.
    #[command(after_help = "Example:\n  grade gradebook merge out-1 out-2 out-3 -o gradebook.csv")]
    Merge {
        /// The shards' output directories (or gradebook.csv files).
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// The merged gradebook to write.
        #[arg(short, long)]
        output: PathBuf,
    },
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play the reference game in this terminal.
    #[command(
        long_about = "Play the reference implementation of an assignment in this terminal.\n\n\
        It behaves exactly as a student's program should: same text, prompts flushed before \
        each read. At end of input (Ctrl-D) it exits quietly with status 0.",
        after_help = "Game arguments:\n  \
        collect BOARD_FILE                       the board file, rows of digits separated by spaces\n  \
        silver_dollar [--seed N]                 a random strip drawn from seed N (default 0)\n  \
        silver_dollar --board \"_ _ 0 _ 1\"        a given strip: _ empty, coins numbered from 0\n  \
        connect6 [--size N]                      an N×N board (default 19)\n\n\
        Examples:\n  grade play nim\n  grade play collect board.txt\n  grade play silver_dollar --seed 7"
    )]
    Play {
        /// The assignment to play.
        assignment: Assignment,
        /// Game arguments (see below).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        game_args: Vec<String>,
    },

    /// Print the reference transcript for scripted input.
    #[command(
        long_about = "Run the reference game on the input lines in FILE and print the canonical \
        transcript: the game's output with each input line echoed where the game asked for it, \
        as a terminal would show it. If the game ends before the input does, or wants more \
        input than FILE holds, the transcript ends there and a note goes to stderr."
    )]
    Record {
        /// The assignment.
        assignment: Assignment,
        /// A file of input lines, one per line ("-" for standard input).
        #[arg(short, long)]
        input: PathBuf,
        /// Game arguments, as for `grade play`.
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        game_args: Vec<String>,
    },

    /// List the assignments, or one assignment's cases with their points.
    List {
        /// Only this assignment.
        assignment: Option<Assignment>,
        /// Use the cases in DIR instead of the built-in ones.
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
    },

    /// Print a visible case's input and reference transcript.
    Show {
        /// The assignment.
        assignment: Assignment,
        /// The case name.
        case: String,
        /// Use the cases in DIR instead of the built-in ones.
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
    },

    /// Write reference transcripts for the cases in cases/ (maintainers).
    Bless {
        /// Only this assignment.
        assignment: Option<Assignment>,
        /// The repository root holding cases/ and reference/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },

    /// Check that every stored reference transcript matches what the reference produces now.
    Verify {
        /// Only this assignment.
        assignment: Option<Assignment>,
        /// The repository root holding cases/ and reference/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },

    /// Play random games against the reference and show the shortest input that differs.
    #[command(
        long_about = "Play random games on a submission and on the reference in lockstep, compare \
        them after every game with the assignment's checks (style free), and on the first \
        difference shrink the input to a minimal one that still shows it.\n\n\
        Exit status: 0 nothing found, 1 a difference found, 2 an error.",
        after_help = "Examples:\n  grade explore nim.cpp -a nim\n  \
        grade explore board.py -a collect --seed 7 --time 30s --save-case my-cases/"
    )]
    Explore(ExploreArgs),

    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    #[command(
        after_help = "Example:\n  grade completions bash > ~/.local/share/bash-completion/completions/grade"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },

    /// Grade inside Gradescope's autograder (always writes results.json), or build the
    /// autograder.zip that does it (`grade gradescope package`).
    #[command(args_conflicts_with_subcommands = true)]
    Gradescope(GradescopeArgs),

    /// Gradebooks of a class graded in parts (--shard K/N).
    Gradebook {
        #[command(subcommand)]
        action: GradebookAction,
    },

    /// Print the manual page (roff) to standard output.
    #[command(after_help = "Example:\n  grade man > grade.1 && man ./grade.1")]
    Man,

    /// Show which containment layers and which input-detection method work on this machine.
    Doctor,

    /// Run any command with scripted input under the sandbox and print its transcript.
    Run(grade::cli::run::RunArgs),

    /// Rank pairs of submissions by shared code (MOSS-style), as evidence for a person.
    #[command(
        long_about = "Compare submissions for shared code: each is parsed, its tokens normalised \
        (names, literals, comments and layout set aside) and fingerprinted by winnowing; every \
        pair is ranked by the share of each program that the other shares. Renaming, \
        reformatting, reordering functions and adding dead code do not hide shared code. A high \
        share is a reason to read both programs, not a finding. See docs/similarity.md.",
        after_help = "Examples:\n  grade similarity class/*/ -a nim\n  \
        grade similarity class/*/ -a silver_dollar --base starter/ --format html -o similarity.html"
    )]
    Similarity(grade::cli::similarity::SimilarityArgs),
}

fn main() -> ExitCode {
    // A student's program that found a copy of the grader (its reference games and cases)
    // must not be able to use it: every copy refuses to run inside a grading.
    if grade::run::seccomp::inside_grade_sandbox() {
        eprintln!("grade: refusing to run inside a grade sandbox");
        return ExitCode::from(2);
    }
    let cli = Cli::parse();
    // A bug in grade must still end in one clear line and status 2, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".to_string());
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

/// `grade explore`: turns the arguments into the library's options and prints the result.
fn explore(args: &ExploreArgs) -> anyhow::Result<u8> {
    use std::io::IsTerminal;
    let json = match args.format.as_str() {
        "text" => false,
        "json" => true,
        other => anyhow::bail!("--format {other}: expected text or json"),
    };
    let time = args
        .time
        .as_deref()
        .map(grade::explore::parse_duration)
        .transpose()?;
    let options = grade::explore::ExploreOptions {
        seed: args.seed,
        games: args.games,
        time,
        jobs: args
            .jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        cases: args.cases.clone(),
        progress: !json && std::io::stderr().is_terminal(),
        shrink_time: grade::explore::parse_duration(&args.shrink_time)?,
    };
    let exploration = grade::explore::explore(&args.submission, args.assignment, &options)?;
    let saved = match &args.save_case {
        Some(dir) => grade::explore::save_case(&exploration, args.assignment, dir)?,
        None => None,
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&exploration)?);
    } else {
        print!("{}", grade::report::explore::render(&exploration));
        if let Some(path) = saved {
            println!("Saved as {}", path.display());
        }
    }
    Ok(if exploration.finding.is_some() { 1 } else { 0 })
}

/// Runs the chosen command; errors become one line on stderr and exit status 2.
fn dispatch(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Play {
            assignment,
            game_args,
        }) => grade::commands::play(assignment, &game_args),
        Some(Command::Record {
            assignment,
            input,
            game_args,
        }) => grade::commands::record(assignment, &input, &game_args),
        Some(Command::List { assignment, cases }) => {
            grade::commands::list(assignment, cases.as_deref())
        }
        Some(Command::Show {
            assignment,
            case,
            cases,
        }) => grade::commands::show(assignment, &case, cases.as_deref()),
        Some(Command::Bless { assignment, root }) => grade::commands::bless(assignment, &root),
        Some(Command::Verify { assignment, root }) => grade::commands::verify(assignment, &root),
        Some(Command::Explore(args)) => {
            grade::run::interrupt::install();
            explore(&args)
        }
        Some(Command::Completions { shell }) => {
            use clap::CommandFactory;
            let mut command = Cli::command();
            clap_complete::generate(shell, &mut command, "grade", &mut std::io::stdout());
            Ok(0)
        }
        Some(Command::Gradescope(args)) => match args.package {
            Some(GradescopeCommand::Package {
                assignment,
                cases,
                output,
            }) => grade::cli::gradescope::package(assignment, cases.as_deref(), &output),
            None => match args.assignment {
                Some(assignment) => {
                    grade::run::interrupt::install();
                    grade::cli::gradescope::run(&grade::cli::gradescope::GradescopeRun {
                        assignment,
                        submission: args.submission,
                        results: args.results,
                        hidden: args.hidden_visibility,
                        cases: args.cases,
                    })
                }
                None => Err(anyhow::anyhow!(
                    "usage: grade gradescope --assignment NAME (see grade gradescope --help)"
                )),
            },
        },
        Some(Command::Gradebook {
            action: GradebookAction::Merge { parts, output },
        }) => grade::class::merge_gradebooks(&parts, &output).map(|rows| {
            println!("{rows} student(s) in {}", output.display());
            0
        }),
        Some(Command::Man) => {
            use clap::CommandFactory;
            let mut page = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut page)
                .map_err(anyhow::Error::from)
                .and_then(|()| {
                    use std::io::Write;
                    std::io::stdout()
                        .write_all(&page)
                        .map_err(anyhow::Error::from)
                })
                .map(|()| 0)
        }
        Some(Command::Doctor) => grade::cli::doctor::print(),
        Some(Command::Similarity(args)) => grade::cli::similarity::similarity_command(&args),
        Some(Command::Run(args)) => {
            // Before any thread exists: Ctrl-C and SIGTERM stop the run cleanly (exit 130).
            grade::run::interrupt::install();
            grade::cli::run::run_command(&args)
        }
        None => match (cli.grade.submissions.is_empty(), cli.grade.assignment) {
            (false, Some(assignment)) => {
                grade::run::interrupt::install();
                grade::grade::grade_command(&cli.grade.submissions, assignment, &cli.grade.options)
            }
            _ => Err(anyhow::anyhow!(
                "usage: grade SUBMISSION --assignment NAME (see grade --help)"
            )),
        },
    };
    if grade::run::interrupt::interrupted() {
        // Running programs were killed and cleaned up by their runs; finished work is kept.
        eprintln!("grade: {}", grade::run::interrupt::Interrupted);
        return ExitCode::from(grade::run::interrupt::EXIT_INTERRUPTED);
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) => {
            // Errors quote paths and messages a student may control: escaped.
            eprintln!(
                "grade: {}",
                grade::report::escape::visible(&format!("{error:#}"))
            );
            ExitCode::from(2)
        }
    }
}
