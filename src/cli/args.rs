//! The command-line definition: every argument, subcommand and help text, and how each
//! becomes the library's own option types. Only this module knows clap.

use std::path::PathBuf;
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{Args, Parser, Subcommand, ValueEnum};

use crate::assignments::ASSIGNMENTS;
use crate::grade::GradeOptions;
use crate::report::audience::Audience;
use crate::report::gradescope::HiddenVisibility;
use crate::report::lms::Lms;
use crate::report::Format;
use crate::run::limits::parse_seconds;
use crate::run::LimitOverrides;

const ABOUT: &str = "Grade console-game assignments against reference transcripts.";

const LONG_ABOUT: &str = "\
Grade console-game assignments against reference transcripts.

grade runs a student's program on scripted input, exactly as a person at a terminal would
type it, compares what it printed with the reference implementation of the assignment, and
reports a score per test case with feedback the student can act on.

The assignments: `grade list` (and the values of --assignment below).";

const EXAMPLES: &str = "\
Examples:
  grade ./nim.cpp --assignment nim          grade a C++ submission with the built-in cases
  grade submission/ -a collect --format json
  grade class/*/ -a m --output-dir reports/      grade a whole class: one report each + gradebook.csv
  grade play nim                            play the reference game yourself
  grade record nim --input moves.txt        print the reference transcript for scripted input
  grade list nim                            list the cases and their points
  grade gradebook export reports/ --to canvas --column Nim -o canvas.csv
                                            the class's gradebook for Canvas, Moodle or Blackboard
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
pub struct Cli {
    /// The subcommand; none means grading.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Options of grading (the default command).
    #[command(flatten)]
    pub grade: GradeArgs,
}

/// Options for grading a submission (the default command).
#[derive(Args, Debug)]
pub struct GradeArgs {
    /// The submission: an executable, a .py/.c/.cpp/.cc/.java file, or a directory holding
    /// one. Several submissions grade a whole class (see --output-dir).
    #[arg(required = true, value_name = "SUBMISSION")]
    pub submissions: Vec<PathBuf>,

    /// The assignment (`grade list` lists them); may be left out when --cases is an
    /// assignment of your own (a directory holding assignment.yaml).
    #[arg(short, long)]
    pub assignment: Option<AssignmentName>,

    #[command(flatten)]
    pub options: GradeOptionArgs,
}

/// Options of `grade explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// The submission, as for grading.
    pub submission: PathBuf,
    /// The assignment (one with random games: `grade list` lists them); may be left out when
    /// --cases is an assignment of your own.
    #[arg(short, long)]
    pub assignment: Option<AssignmentName>,
    /// Seed of the first game; the same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games to play at most.
    #[arg(long, default_value_t = 200)]
    pub games: usize,
    /// Stop starting games after this long (e.g. 30s, 2m).
    #[arg(long, value_name = "DURATION")]
    pub time: Option<String>,
    /// Write the shrunk input as a ready case (with its reference transcript) under DIR.
    #[arg(long, value_name = "DIR")]
    pub save_case: Option<PathBuf>,
    /// Report format: text or json.
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Time spent shrinking a difference at most (e.g. 10s).
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    pub shrink_time: String,
    /// Take limits, arguments and checks from an instructor's case directory.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
    /// Play the games as the case NAME runs its programs: its arguments, files, limits, end
    /// of input, terminal and reference (a random-games case's checks too). Default, for an
    /// assignment of your own: its random-games case, when it has one.
    #[arg(long = "case", value_name = "NAME")]
    pub case: Option<String>,
    /// Run the program under a pseudo-terminal, exactly as in a student's terminal.
    #[arg(long)]
    pub terminal: bool,
    /// Programs run at once (default: the number of CPU cores); the grader prepares the next
    /// game beside them.
    #[arg(short, long)]
    pub jobs: Option<usize>,
}

/// `grade gradescope`: options of the run inside the autograder, or `package`.
#[derive(Args, Debug)]
pub struct GradescopeArgs {
    #[command(subcommand)]
    pub package: Option<GradescopeCommand>,
    /// The assignment.
    #[arg(short, long, required = false)]
    pub assignment: Option<AssignmentName>,
    /// The uploaded submission.
    #[arg(long, default_value = "/autograder/submission")]
    pub submission: PathBuf,
    /// Where results.json is written.
    #[arg(long, default_value = "/autograder/results/results.json")]
    pub results: PathBuf,
    /// What students see of hidden cases; the default keeps their total visible.
    #[arg(long, value_enum, default_value_t = HiddenVisibility::Visible)]
    pub hidden_visibility: HiddenVisibility,
    /// An instructor's case directory instead of the built-in cases.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,
}

/// `grade gradescope package`.
#[derive(Subcommand, Debug)]
pub enum GradescopeCommand {
    /// Write autograder.zip: setup.sh, run_autograder, this grade binary, and the cases.
    #[command(after_help = "Example:\n  grade gradescope package -a nim -o autograder.zip")]
    Package {
        /// The assignment; may be left out when --cases is an assignment of your own.
        #[arg(short, long)]
        assignment: Option<AssignmentName>,
        /// An instructor's case directory to ship instead of the built-in cases.
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
        /// The zip to write.
        #[arg(short, long, default_value = "autograder.zip")]
        output: PathBuf,
        /// What students see of hidden cases; the default keeps their total visible.
        #[arg(long, value_enum, default_value_t = HiddenVisibility::Visible)]
        hidden_visibility: HiddenVisibility,
        /// The languages the course accepts, whose toolchains setup.sh installs from Ubuntu's
        /// packages (comma-separated; `all` for the eleven of docs/languages.md).
        #[arg(
            long,
            value_delimiter = ',',
            value_name = "LANGUAGES",
            default_value = "c,cpp,python,java"
        )]
        languages: Vec<crate::cli::gradescope::CourseLanguage>,
    },
}

/// What to do with gradebooks.
#[derive(Subcommand, Debug)]
pub enum GradebookAction {
    /// Combine the gradebook.csv of several shards' output directories into one.
    #[command(
        after_help = "Example:\n  grade gradebook merge out/part-* --expect 3 -o gradebook.csv\n\n\
        Refuses, naming the part, a missing part, students left ungraded by an interruption,\n\
        and parts graded with other options, another course seed or a weaker sandbox; each\n\
        --allow-... option turns its refusal into a warning."
    )]
    Merge {
        /// The shards' output directories (or gradebook.csv files).
        #[arg(required = true)]
        parts: Vec<PathBuf>,
        /// The merged gradebook to write.
        #[arg(short, long)]
        output: PathBuf,
        /// What the merge refuses, and which refusals are only warnings.
        #[command(flatten)]
        checks: MergeChecks,
    },
    /// Write gradebook.csv in the import layout of Canvas, Moodle or Blackboard (docs/lms.md).
    #[command(after_help = "Examples:\n  \
        grade gradebook export reports/ --to canvas --column \"Nim\" --ids roster.csv -o canvas.csv\n  \
        grade gradebook export reports/gradebook.csv --to moodle --column \"Nim\" -o moodle.csv")]
    Export {
        /// The class's output directory or its gradebook.csv.
        gradebook: PathBuf,
        /// The system to import into.
        #[arg(long, value_enum)]
        to: Lms,
        /// The assignment's column in the system (the assignment's or grade item's name).
        #[arg(long, value_name = "TITLE")]
        column: String,
        /// A CSV mapping each student of the gradebook to the system's identifier: a header
        /// naming `student` and `id` (SIS user ID for Canvas, ID number for Moodle, username
        /// for Blackboard). Without it the gradebook's student names are the identifiers.
        #[arg(long, value_name = "FILE")]
        ids: Option<PathBuf>,
        /// Blackboard: the Column ID of the Grade Center column to fill (else a new column).
        #[arg(long, value_name = "ID")]
        column_id: Option<String>,
        /// The file to write.
        #[arg(short, long)]
        output: PathBuf,
    },
}

/// The subcommands; without one, `grade` grades.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Play the reference game in this terminal.
    #[command(
        long_about = "Play the reference implementation of an assignment in this terminal.\n\n\
        It behaves exactly as a student's program should: same text, prompts flushed before \
        each read. At end of input (Ctrl-D) it exits quietly with status 0. An instructor's \
        reference program that fails (a usage error, a crash, a limit) has its standard error \
        shown and how it ended said, and the status is its own (1 for a crash or a limit).",
        after_help = "Game arguments:\n  \
        collect BOARD_FILE                       the board file, rows of digits separated by spaces\n  \
        silver_dollar [--seed N]                 a random strip drawn from seed N (default: a fresh seed, printed on stderr)\n  \
        silver_dollar --board \"_ _ 0 _ 1\"        a given strip: _ empty, coins numbered from 0\n  \
        connect6 [--size N]                      an N×N board (default 19)\n  \
        nim [--matches N]                        N matches a round (default 21)\n\n\
        A variant (docs/variants.md):\n  \
        --variant NAME=VALUE                     e.g. --variant matches=25\n  \
        --student NAME --cases DIR               the variant the course's DIR gives NAME\n  \
        --course-seed N                          the course seed, when DIR does not hold it\n\n\
        An assignment of your own (docs/new-assignment.md), options before its name:\n  \
        --cases DIR NAME ARGS...                 its reference program, run with ARGS\n  \
        --file NAME[=PATH]                       a file of this folder in its working directory\n\n\
        Examples:\n  grade play nim\n  grade play collect board.txt\n  grade play silver_dollar --seed 7\n  \
        grade play nim --student alice --cases course/"
    )]
    Play {
        /// An assignment of your own: its directory (give it before the name).
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
        /// An assignment of your own: a file of the current directory its reference program
        /// gets in its working directory, as NAME or NAME=PATH (repeatable; give it before
        /// the name).
        #[arg(long = "file", value_name = "NAME[=PATH]")]
        files: Vec<String>,
        /// The assignment to play.
        assignment: AssignmentName,
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
        /// An assignment of your own: its directory (give it before the name).
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
        /// The assignment.
        assignment: AssignmentName,
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
        assignment: Option<AssignmentName>,
        /// Use the cases in DIR instead of the built-in ones.
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
    },

    /// Print a visible case's input and reference transcript.
    Show {
        /// The assignment.
        assignment: AssignmentName,
        /// The case name.
        case: String,
        /// Use the cases in DIR instead of the built-in ones.
        #[arg(long, value_name = "DIR")]
        cases: Option<PathBuf>,
    },

    /// Write reference transcripts for the cases in cases/ (maintainers).
    Bless {
        /// Only this assignment.
        assignment: Option<AssignmentName>,
        /// The repository root holding cases/ and reference/.
        #[arg(long, default_value = ".")]
        root: PathBuf,
    },

    /// Check that every stored reference transcript matches what the reference produces now;
    /// for an assignment of your own, also grade its submissions/correct and submissions/buggy
    /// programs and warn about settings that grade unfairly.
    #[command(
        long_about = "Check that every stored reference transcript matches what the reference \
        produces now. For an assignment of your own (--root DIR holding assignment.yaml), also \
        grade the programs of known verdict beside its cases: each of submissions/correct/* must \
        keep every point, each of submissions/buggy/* must lose some (and a point of every case \
        it names in a `grade: loses CASE` comment); and warn about settings that grade without \
        an error but not as meant (docs/new-assignment.md).\n\n\
        Exit status: 0 all as expected, 1 a transcript differs or a program's verdict is not \
        the expected one, 2 an error.",
        after_help = "Example:\n  grade verify --root tictactoe"
    )]
    Verify {
        /// Only this assignment.
        assignment: Option<AssignmentName>,
        /// The repository root holding cases/ and reference/ (or an assignment of your own).
        #[arg(long, default_value = ".")]
        root: PathBuf,
        /// Check the transcripts only: do not grade the programs in submissions/.
        #[arg(long)]
        no_submissions: bool,
    },

    /// Start an assignment of your own: a directory holding your reference program,
    /// assignment.yaml with checks to start from, a handout stub, a first case and submissions/.
    #[command(
        long_about = "Start an assignment of your own (docs/new-assignment.md): DIR is created \
        holding assignment.yaml (its name is DIR's, its checks a start), handout.md to write, \
        solution/ with a copy of your reference program, cases/start.yaml (the program's first \
        screen), and submissions/correct/ (a copy of the reference: a correct program) and \
        submissions/buggy/ for programs of known verdict that `grade verify` grades. Then: \
        write the handout and a case per rule, `grade bless --root DIR`, `grade verify --root DIR`.",
        after_help = "Example:\n  grade new tictactoe --reference tictactoe.py"
    )]
    New {
        /// The directory to create; its name is the assignment's (lower-case letters, digits, _).
        dir: PathBuf,
        /// Your reference program: a file or a folder, copied into DIR/solution/.
        #[arg(long, value_name = "PROGRAM")]
        reference: PathBuf,
        /// The assignment's title (default: its name).
        #[arg(long)]
        title: Option<String>,
    },

    /// Play random games against the reference and show the shortest input that differs.
    #[command(
        long_about = "Play random games on a submission and on the reference in lockstep, compare \
        them after every game with the assignment's checks (style free), and on the first \
        difference shrink the input to a minimal one that still shows it.\n\n\
        Exit status: 0 nothing found, 1 a difference found, 2 an error.",
        after_help = "Examples:\n  grade explore nim.cpp -a nim\n  \
        grade explore board.py -a collect --seed 7 --time 30s --save-case my-cases/\n  \
        grade explore guess.py --cases codebreaker/ --case random-games --terminal"
    )]
    Explore(ExploreArgs),

    /// Print a shell completion script (bash, zsh, fish, elvish, powershell) to standard output.
    #[command(
        after_help = "Example (the folder may not exist yet on a new account):\n  \
                      mkdir -p ~/.local/share/bash-completion/completions\n  \
                      grade completions bash > ~/.local/share/bash-completion/completions/grade"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },

    /// Grade inside Gradescope's autograder (always writes results.json), or build the
    /// autograder.zip that does it (`grade gradescope package`).
    #[command(args_conflicts_with_subcommands = true)]
    Gradescope(GradescopeArgs),

    /// Gradebooks: export one for Canvas, Moodle or Blackboard (`gradebook export`), or merge
    /// a class graded in parts (`gradebook merge`, --shard K/N).
    Gradebook {
        #[command(subcommand)]
        action: GradebookAction,
    },

    /// Print the manual page (roff) to standard output, or write one page per command into a
    /// directory (`--dir`).
    #[command(after_help = "Examples:\n  grade man > grade.1 && man ./grade.1\n  \
                      grade man --dir /usr/local/share/man/man1   # grade.1, grade-play.1, …")]
    Man {
        /// Write grade.1 and a page for every command (grade-play.1, grade-gradescope-package.1,
        /// …) into DIR instead of printing the one page.
        #[arg(long, value_name = "DIR", value_hint = clap::ValueHint::DirPath)]
        dir: Option<PathBuf>,
    },

    /// Show which containment layers and which input-detection method work on this machine.
    Doctor,

    /// Run any command with scripted input under the sandbox and print its transcript.
    Run(RunArgs),

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
    Similarity(SimilarityArgs),
}

/// Options of grading one submission or a class (flattened into the default command).
#[derive(Args, Debug, Default, Clone)]
pub struct GradeOptionArgs {
    /// Grade against the cases in DIR (holding cases/ and reference/) instead of the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub cases: Option<PathBuf>,

    /// Only run the case named PATTERN, or else the cases whose names contain it (`*` matches
    /// anything).
    #[arg(long = "case", value_name = "PATTERN")]
    pub case_filter: Option<String>,

    /// Report format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE", conflicts_with = "output_dir")]
    pub output: Option<PathBuf>,

    /// Write one report per submission into DIR (named after the student), plus
    /// gradebook.csv; for grading a whole class. A re-run skips students whose submission,
    /// cases and grader are unchanged (see --force).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,

    /// Grade again the students whose stored result in --output-dir is still valid.
    #[arg(long)]
    pub force: bool,

    /// Grade only part K of N of the class (a stable split by student name), for a batch
    /// engine; combine the parts with `grade gradebook merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::class::Shard>,

    /// Require the whole transcript to match the reference exactly (trailing spaces and the
    /// final newline forgiven), for courses that publish the reference transcripts.
    #[arg(long)]
    pub strict: bool,

    /// Run the program under a pseudo-terminal, exactly as in a student's terminal.
    #[arg(long)]
    pub terminal: bool,

    /// The program's entry point when a submission has several: a file in it (`main.py`,
    /// `src/game.js`) or a Java class (`PlayGame`).
    #[arg(long, value_name = "FILE|CLASS")]
    pub main: Option<String>,

    /// Also run the robustness cases: input where programs that follow the handout may
    /// legitimately differ ("yes" for Y, blank lines, two numbers on one line).
    #[arg(long)]
    pub robustness: bool,

    /// Limits per case (override the cases').
    #[command(flatten)]
    pub limits: LimitArgs,

    /// Refuse to grade (exit 2) when a required sandbox layer (Landlock, namespaces) cannot
    /// be set up here, instead of grading with a warning at the top of the report.
    #[arg(long)]
    pub require_sandbox: bool,

    /// Programs run at once (default: the number of CPU cores); the grader scores and sets up
    /// the next run beside them.
    #[arg(short, long, value_name = "N")]
    pub jobs: Option<usize>,

    /// Build the submission even when the build cache holds the same build (same files,
    /// compiler and flags) from an earlier grading.
    #[arg(long)]
    pub no_cache: bool,

    /// Who the report is for: `instructor` shows hidden cases in full (input, first
    /// difference, rule). With --output-dir an instructor report, instructor/NAME.EXT, is
    /// always written alongside each student's students/NAME.EXT; student reports never show
    /// hidden details.
    #[arg(long, value_enum, default_value_t = Audience::Student)]
    pub audience: Audience,

    /// With --output-dir: grade (reusing every stored result still valid) and print what
    /// changed since the earlier run there (changes.csv's rows), writing nothing into it.
    #[arg(long, requires = "output_dir")]
    pub dry_run: bool,
    /// How much each random-games case plays: a number of games (the same games for every
    /// submission) or a time such as 30s (as many games as fit; no longer reproducible).
    #[arg(long, value_name = "GAMES|DURATION", value_parser = crate::explore::parse_budget)]
    pub explore_budget: Option<crate::explore::Budget>,

    /// Leave out the random-games cases: grade with the fixed cases only.
    #[arg(long, conflicts_with = "explore_budget")]
    pub no_explore: bool,

    /// C and C++: skip the sanitizer pass (the program built again with AddressSanitizer
    /// and UBSan and run on the fixed cases; docs/sanitizers.md).
    #[arg(long)]
    pub no_sanitize: bool,

    /// The course seed of the random-games cases (default: $GRADE_COURSE_SEED, else the
    /// `seed` of the cases' assignment.yaml, else none): the same for the whole class.
    #[arg(long, value_name = "N")]
    pub course_seed: Option<u64>,

    /// The student this submission is from, for a per-student variant (`variants:` in the
    /// cases' assignment.yaml); default: the submission's folder or file name.
    #[arg(long, value_name = "NAME")]
    pub student: Option<String>,

    /// Grade against this variant (`matches=25`, `size=15`, `handout`) instead of the
    /// course's or the student's (docs/variants.md).
    #[arg(long, value_name = "NAME=VALUE,...")]
    pub variant: Option<String>,
}

impl From<&GradeOptionArgs> for GradeOptions {
    fn from(args: &GradeOptionArgs) -> GradeOptions {
        GradeOptions {
            cases: args.cases.clone(),
            case_filter: args.case_filter.clone(),
            format: args.format,
            output: args.output.clone(),
            strict: args.strict,
            terminal: args.terminal,
            main: args.main.clone(),
            robustness: args.robustness,
            limits: LimitOverrides::from(&args.limits),
            require_sandbox: args.require_sandbox,
            jobs: args.jobs,
            no_cache: args.no_cache,
            audience: args.audience,
            explore_budget: args.explore_budget,
            no_explore: args.no_explore,
            no_sanitize: args.no_sanitize,
            course_seed: args.course_seed,
        }
    }
}

impl From<&GradeOptionArgs> for crate::class::ClassOptions {
    fn from(args: &GradeOptionArgs) -> crate::class::ClassOptions {
        crate::class::ClassOptions {
            output_dir: args.output_dir.clone(),
            force: args.force,
            shard: args.shard,
            dry_run: args.dry_run,
        }
    }
}

/// Limit options, the same for `grade` and `grade run`, in the units case files use.
#[derive(Args, Debug, Default, Clone, PartialEq)]
pub struct LimitArgs {
    /// Wall-clock limit per run in seconds.
    #[arg(long = "wall-limit", visible_alias = "wall", value_name = "SECONDS", value_parser = parse_seconds)]
    pub wall: Option<Duration>,
    /// CPU-time limit per run in seconds.
    #[arg(long = "cpu-limit", visible_alias = "cpu", value_name = "SECONDS", value_parser = parse_seconds)]
    pub cpu: Option<Duration>,
    /// Memory limit per run in MiB.
    #[arg(long = "memory-limit", visible_alias = "memory", value_name = "MIB", value_parser = crate::run::limits::parse_memory_mib)]
    pub memory_mib: Option<u64>,
    /// Output kept per run in KiB; beyond it the program is stopped and the cut marked.
    #[arg(long = "output-limit", value_name = "KIB", value_parser = crate::run::limits::parse_output_kib)]
    pub output_kib: Option<u64>,
    /// Processes and threads a run may have at once.
    #[arg(long = "process-limit", visible_alias = "processes", value_name = "N", value_parser = crate::run::limits::parse_processes)]
    pub processes: Option<u32>,
}

impl From<&LimitArgs> for LimitOverrides {
    fn from(args: &LimitArgs) -> LimitOverrides {
        LimitOverrides {
            wall: args.wall,
            cpu: args.cpu,
            memory_mib: args.memory_mib,
            output_kib: args.output_kib,
            processes: args.processes,
        }
    }
}

/// An assignment's name as typed, resolved after parsing against the command's
/// [`crate::assignments::Registry`] (the built-in assignments and the instructor's own that
/// --cases or --root names): clap lists and completes the built-in names, and takes any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssignmentName(pub String);

impl clap::builder::ValueParserFactory for AssignmentName {
    type Parser = AssignmentNameParser;

    fn value_parser() -> Self::Parser {
        AssignmentNameParser
    }
}

/// Parses an [`AssignmentName`]: `--assignment <TAB>` completes the built-in names in bash,
/// zsh and fish, and `--help` lists them with their titles.
#[derive(Clone, Copy, Debug)]
pub struct AssignmentNameParser;

impl clap::builder::TypedValueParser for AssignmentNameParser {
    type Value = AssignmentName;

    fn parse_ref(
        &self,
        command: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<AssignmentName, clap::Error> {
        match value.to_str() {
            Some(name) if !name.is_empty() => Ok(AssignmentName(name.to_string())),
            _ => Err(clap::Error::new(clap::error::ErrorKind::InvalidValue).with_cmd(command)),
        }
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            ASSIGNMENTS
                .iter()
                .map(|a| PossibleValue::new(a.name()).help(a.title())),
        ))
    }
}

impl ValueEnum for Format {
    fn value_variants<'a>() -> &'a [Self] {
        &Format::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.description()))
    }
}

impl ValueEnum for HiddenVisibility {
    fn value_variants<'a>() -> &'a [Self] {
        &HiddenVisibility::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        // Gradescope's own spelling, and the dashed one clap users expect.
        let name = self.name();
        let dashed: &'static str = match self {
            HiddenVisibility::AfterDueDate => "after-due-date",
            HiddenVisibility::AfterPublished => "after-published",
            _ => name,
        };
        let value = PossibleValue::new(name).help(self.description());
        Some(if dashed == name {
            value
        } else {
            value.alias(dashed)
        })
    }
}

impl ValueEnum for Audience {
    fn value_variants<'a>() -> &'a [Self] {
        &Audience::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.description()))
    }
}

impl ValueEnum for Lms {
    fn value_variants<'a>() -> &'a [Self] {
        &Lms::ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.name()).help(self.description()))
    }
}

/// `grade gradebook merge`'s checks: the parts expected and the `--allow-…` flags that turn a
/// refusal into a warning (read into [`crate::class::MergeOptions`]).
#[derive(Args, Debug)]
pub struct MergeChecks {
    /// How many parts there must be (the N of --shard K/N): fewer is refused, naming
    /// the shards missing.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub expect: Option<u64>,
    /// Merge even when a part is missing (no gradebook, or fewer than --expect): warn.
    #[arg(long)]
    pub allow_missing: bool,
    /// Merge even when a part has students an interruption left ungraded: warn.
    #[arg(long)]
    pub allow_interrupted: bool,
    /// Merge even when parts were graded with other options (--strict, --case, limits),
    /// cases or grader versions, or without a record of how: warn.
    #[arg(long)]
    pub allow_different_options: bool,
    /// Merge even when parts were graded with another course seed: warn.
    #[arg(long)]
    pub allow_different_seed: bool,
    /// Merge even when a part was graded with a sandbox layer off that another had on:
    /// warn.
    #[arg(long)]
    pub allow_weaker_sandbox: bool,
}

impl From<MergeChecks> for crate::class::MergeOptions {
    fn from(checks: MergeChecks) -> Self {
        Self {
            expect: checks.expect,
            allow_missing: checks.allow_missing,
            allow_interrupted: checks.allow_interrupted,
            allow_different_options: checks.allow_different_options,
            allow_different_seed: checks.allow_different_seed,
            allow_weaker_sandbox: checks.allow_weaker_sandbox,
        }
    }
}

/// Options of `grade run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// A file of input lines to send, one per line.
    #[arg(short, long)]
    pub input: Option<PathBuf>,
    /// Run under a pseudo-terminal (stdin, stdout and stderr), as in a student's terminal.
    #[arg(long)]
    pub terminal: bool,
    /// Close stdin when the input runs out instead of stopping the program.
    #[arg(long)]
    pub close_stdin: bool,
    /// Limits (the same options and units as `grade`).
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Copy a file into the working directory: NAME=PATH (repeatable).
    #[arg(
        long = "file",
        visible_alias = "workdir-file",
        value_name = "NAME=PATH"
    )]
    pub files: Vec<String>,
    /// A path outside the working directory the program may read (repeatable).
    #[arg(long, value_name = "PATH")]
    pub readable: Vec<PathBuf>,
    /// An extra environment variable: KEY=VALUE (repeatable).
    #[arg(long = "env", value_name = "KEY=VALUE")]
    pub env: Vec<String>,
    /// Print the outcome as JSON.
    #[arg(long)]
    pub json: bool,
    /// The command to run and its arguments.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, required = true)]
    pub command: Vec<String>,
}

/// The report formats of `grade similarity`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SimilarityFormat {
    /// Ranked pairs with the longest shared runs.
    #[default]
    Text,
    /// Every pair and shared run.
    Json,
    /// A page with each pair's shared code side by side.
    Html,
}

/// Options of `grade similarity`.
#[derive(Args, Debug)]
pub struct SimilarityArgs {
    /// The submissions (files, directories or .zip/.tar.gz archives), at least two.
    #[arg(required = true, num_args = 2.., value_name = "SUBMISSION")]
    pub submissions: Vec<PathBuf>,
    /// The assignment.
    #[arg(short, long)]
    pub assignment: AssignmentName,
    /// Starter code (a file or a directory) or the handout's text: code found in it is not
    /// counted (repeatable).
    #[arg(long, value_name = "FILE")]
    pub base: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = SimilarityFormat::Text)]
    pub format: SimilarityFormat,
    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignments::ASSIGNMENTS;
    use clap::CommandFactory;

    /// Every `--assignment`/`ASSIGNMENT` argument of every subcommand, with its possible values.
    fn assignment_arguments(
        command: &clap::Command,
        path: &str,
        found: &mut Vec<(String, Vec<String>)>,
    ) {
        for arg in command.get_arguments() {
            if arg.get_id() == "assignment" {
                let values = arg
                    .get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_string())
                    .collect();
                found.push((path.to_string(), values));
            }
        }
        for sub in command.get_subcommands() {
            assignment_arguments(sub, &format!("{path} {}", sub.get_name()), found);
        }
    }

    #[test]
    fn every_assignment_argument_lists_exactly_the_registry() {
        let registry: Vec<String> = ASSIGNMENTS.iter().map(|a| a.name().to_string()).collect();
        let mut found = Vec::new();
        assignment_arguments(&Cli::command(), "grade", &mut found);
        assert!(found.len() >= 8, "assignment arguments found: {found:?}");
        for (path, values) in found {
            assert_eq!(values, registry, "{path}");
        }
    }
}
