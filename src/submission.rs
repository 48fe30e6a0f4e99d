//! Turning what a student handed in into a command the runner can start.
//!
//! A submission is a file, a folder or an archive of a folder (`.zip`, `.tar.gz`, unpacked
//! safely: [`archive`]). Its language or build system comes from [`languages::LANGUAGES`]: a
//! top-level executable `run` (or `run.sh`) is always the entry point; else a build file
//! (`Makefile`, `CMakeLists.txt`, `build.sh`) or project file (`Cargo.toml`, `go.mod`,
//! `*.csproj`); else the sources' extensions, in the table's order; else the one executable.
//! Compiled languages build every source as one program; script languages run one file (see
//! [`languages::choose_entry`]); `--main` settles any ambiguity. Everything is copied into a
//! private build directory first, so the program only ever sees its own files, never its
//! neighbours (such as an instructor's cases), and every build runs inside the sandbox,
//! bounded in time. The copy is where students' habits are undone ([`habits`]): a byte order
//! mark is removed, and one file of a program of several gets the files it uses beside it.

pub mod archive;
pub mod cache;
pub mod class_folder;
pub mod habits;
pub mod imports;
pub mod languages;

use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use crate::results::BuildFailure;
use crate::run::{self, EndOfInput, Ending, Limits, RunSpec};
use crate::transcript::Stream;

pub use languages::Language;

/// A submission ready to run: the command, and the files it may read.
#[derive(Debug)]
pub struct Submission {
    /// What kind of program it is.
    pub language: &'static Language,
    /// The command line (the case's arguments are appended).
    pub command: Vec<String>,
    /// Paths outside the working directory the program needs to read.
    pub readable: Vec<PathBuf>,
    /// Extra environment for the run (e.g. the JVM's options).
    pub env: Vec<(String, String)>,
    /// What the student should know about how the submission was run (e.g. which of several
    /// `main` classes), shown at the top of the report.
    pub notes: Vec<String>,
    /// What the compiler warned about (`-Wall -Wextra`, `-Xlint`) in a build that succeeded.
    pub warnings: String,
    /// The command of the build instrumented with AddressSanitizer and UBSan (C and C++,
    /// when asked for and when it built): the sanitizer pass runs it.
    pub sanitized: Option<Vec<String>>,
    /// Where the program's code is read for the checks on the code when it is not the path
    /// given: one file graded with the files of its folder that it uses.
    pub read_code_from: Option<PathBuf>,
    /// How its student builds it in their folder, for a report's replay commands
    /// ([`Submission::replay_build`]).
    replay_build: Option<String>,
    /// Private copies of the sources and the build outputs; removed when dropped.
    build_dir: tempfile::TempDir,
}

impl Submission {
    /// The private directory holding the submission's files.
    pub fn dir(&self) -> &Path {
        self.build_dir.path()
    }

    /// How the student runs their own program from its folder, for a report's replay line:
    /// the interpreter and the file that starts it (`python3 main.py`, `node main.js`),
    /// `java -cp . Main` after `javac`, `./prog` after the C or C++ compiler, or the program
    /// their Makefile, Cargo or `go build` made (`./guess`).
    pub fn replay_command(&self) -> String {
        student_command(self.language.name, &self.command, self.dir())
    }

    /// The command that builds the program in its student's folder as `grade` built it, run
    /// before [`Submission::replay_command`] in a report's replay (`gcc -O2 -o prog main.c
    /// -lm`, `javac -encoding UTF-8 -d . Main.java`), one command a line when it is several (a
    /// C# project file written out, then `dotnet build`); none for a program run as it is.
    pub fn replay_build(&self) -> Option<&str> {
        self.replay_build.as_deref()
    }
}

/// [`Submission::replay_command`] for `language` run as `command` from the private copy `dir`.
fn student_command(language: &str, command: &[String], dir: &Path) -> String {
    let entry = || {
        let last = command.last().map_or("", String::as_str);
        let relative = Path::new(last)
            .strip_prefix(dir)
            .map_or_else(|_| last.to_string(), |p| p.display().to_string());
        crate::shell::word(&relative)
    };
    match language {
        "Python" => format!("python3 {}", entry()),
        "JavaScript" => format!("node {}", entry()),
        "Ruby" => format!("ruby {}", entry()),
        "Perl" => format!("perl {}", entry()),
        "Java" => format!("java -cp . {}", entry()),
        // After its build line: the jar kotlinc made, the assembly `dotnet build` put in out/.
        "Kotlin" => format!("java -jar {}", entry()),
        "C#" => format!("dotnet {}", entry()),
        // Built by the student's own build (its replay line): the program it made, where it
        // made it (`./guess`, `./target/release/guess`, `./program`).
        // A ready-made program (an executable, a shebang script): itself, where it is.
        "Makefile" | "CMake" | "build.sh" | "Rust crate" | "Go" | "Rust" | "executable" => {
            format!("./{}", entry())
        }
        // C and C++: the program their replay's build line names `prog`.
        _ => "./prog".to_string(),
    }
}

/// Why a submission cannot be run.
#[derive(Debug)]
pub enum PrepareError {
    /// The path does not exist or cannot be read.
    Unreadable { path: PathBuf, reason: String },
    /// The path exists but is not something `grade` knows how to run.
    Unrecognised { path: PathBuf, reason: String },
    /// A compiler or interpreter needed for it is not installed.
    MissingTool {
        tool: String,
        language: &'static str,
        install: &'static str,
    },
    /// The compiler rejected the program: every case scores 0, and the report shows why.
    BuildFailed(BuildFailure),
    /// The grading machine could not make the private directory a submission is built in
    /// (no space, no writable temporary directory): not the student's doing.
    NoBuildDirectory(String),
    /// A build step could not be run for the machine's or the grader's reasons (its spawn or
    /// a step of its sandbox failed: no descriptors or processes left, a mount refused): not
    /// the student's doing, never "did not build".
    BuildNotRun(String),
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepareError::Unreadable { path, reason } => {
                write!(f, "cannot read submission {}: {reason}", path.display())
            }
            PrepareError::Unrecognised { path, reason } => {
                write!(f, "cannot run submission {}: {reason}", path.display())
            }
            PrepareError::MissingTool {
                tool,
                language,
                install,
            } => write!(f, "{language} submissions need `{tool}`; install {install}"),
            PrepareError::BuildFailed(failure) => {
                write!(f, "the submission did not build: {}", failure.command)
            }
            PrepareError::NoBuildDirectory(reason) => {
                write!(f, "cannot create a build directory: {reason}")
            }
            PrepareError::BuildNotRun(reason) => write!(f, "the build could not be run: {reason}"),
        }
    }
}

impl std::error::Error for PrepareError {}

/// How long a compiler (or a whole Makefile's or CMake's build) may run before the build
/// counts as failed.
const BUILD_TIMEOUT: Duration = Duration::from_secs(120);

/// How deep below a submission's top its sources are looked for (as deep as it is copied).
const SOURCE_DEPTH: usize = 4;

/// What an archive may unpack to: as much as a folder may hold.
pub const ARCHIVE_CAPS: archive::Caps = archive::Caps {
    files: 2_000,
    bytes: 512 << 20,
    depth: SOURCE_DEPTH,
};

/// Options for javac's own JVM (`-J…`, a build step's `tool_options`, which a report does
/// not show): a
/// student's sources compile in under a second, mostly the compiler's start-up, where the C2
/// compiler and the parallel collector cost CPU they never pay back (javac of a 149-line game:
/// 0.80 s and 1.36 CPU s → 0.61 s and 0.84 CPU s; docs/performance.md). The classes written
/// are the same.
pub const JAVAC_JVM_OPTIONS: [&str; 3] = [
    "-J-XX:TieredStopAtLevel=1",
    "-J-XX:+UseSerialGC",
    "-J-XX:-UsePerfData",
];

/// JVM options that keep a student's Java program small and quick to start under the limits.
/// `CompileThresholdScaling=10` leaves a method to the interpreter for ten times as many calls
/// before the JIT compiles it: a console game's run is mostly start-up, whose JIT work was a
/// quarter of its CPU (docs/performance.md), while a long computation is still compiled.
pub const JVM_OPTIONS: &str = "-Xmx256m -Xss8m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -XX:CompileThresholdScaling=10 -XX:CompressedClassSpaceSize=64m \
    -XX:ReservedCodeCacheSize=64m -XX:-UsePerfData";

/// What the assignment and the user say about how submissions are built.
#[derive(Clone, Debug, Default)]
pub struct PrepareOptions {
    /// The Java class whose `main` runs the program, as the handout names it (`PlayGame`).
    pub java_main: Option<String>,
    /// The file that starts the program, as the handout names it (`assignment3.py`).
    pub main_file: Option<String>,
    /// The user's choice (`--main`): a file of the submission (a path in it or a file name)
    /// or a Java class; it settles which of several candidates runs.
    pub main: Option<String>,
    /// Build again even when the build cache holds this very build (`--no-cache`).
    pub no_cache: bool,
    /// C and C++: also build the program with AddressSanitizer and UBSan (the sanitizer
    /// pass, docs/sanitizers.md); `--no-sanitize` turns it off.
    pub sanitize: bool,
}

/// The note on a submission whose build came from the build cache.
pub const CACHED_BUILD_NOTE: &str = "built earlier from the same files with the same tools \
    and options: the cached build was used (--no-cache builds again)";

/// Prepares `path` for running: copies (or unpacks) it into a private directory, chooses its
/// language and entry point and builds it.
pub fn prepare(path: &Path, options: &PrepareOptions) -> Result<Submission, PrepareError> {
    let unreadable = |reason: String| PrepareError::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    // Never follow a link the student (or an archive) put there: as root it could point at
    // an instructor's hidden case.
    let metadata = std::fs::symlink_metadata(path).map_err(|e| unreadable(e.to_string()))?;
    if metadata.file_type().is_symlink() {
        return Err(unreadable(
            "is a symbolic link (not followed: give the file or directory itself)".into(),
        ));
    }
    let build_dir = tempfile::Builder::new()
        .prefix("grade-submission-")
        .tempdir()
        .map_err(|e| PrepareError::NoBuildDirectory(e.to_string()))?;
    // The run may use another uid: let it read (not write) the build directory.
    let _ = std::fs::set_permissions(build_dir.path(), std::fs::Permissions::from_mode(0o755));
    let mut notes = Vec::new();
    let mut adjusted = options.clone();
    let mut folder_graded = false;
    let (root, single_file) = if metadata.is_dir() {
        copy_dir(path, build_dir.path()).map_err(|e| unreadable(e.to_string()))?;
        (build_dir.path().to_path_buf(), None)
    } else if let Some(format) = archive::format_of(path) {
        archive::unpack(path, format, build_dir.path(), ARCHIVE_CAPS).map_err(|e| {
            PrepareError::Unrecognised {
                path: path.to_path_buf(),
                reason: e.to_string(),
            }
        })?;
        (archive::top_folder(build_dir.path()), None)
    } else {
        let name = path
            .file_name()
            .ok_or_else(|| unreadable("not a file name".into()))?;
        let copy = build_dir.path().join(name);
        crate::run::workdir::copy_file(path, &copy).map_err(|e| unreadable(e.to_string()))?;
        // One file of a program that uses files beside it: with them, that file starting the
        // program (as `--main` says); one file of a Java program: javac finds the classes it
        // uses beside it, as it does there.
        let uses = match options.main {
            None => habits::stage_files_it_uses(path, build_dir.path())
                .map_err(|e| unreadable(format!("cannot copy what it uses beside it: {e}")))?,
            Some(_) => Vec::new(),
        };
        if uses.is_empty() {
            let copy = if extension(path) == "java" {
                habits::stage_java_folder(path, build_dir.path(), &copy)
                    .map_err(|e| PrepareError::NoBuildDirectory(e.to_string()))?
            } else {
                copy
            };
            (build_dir.path().to_path_buf(), Some(copy))
        } else {
            let how = format!(
                "graded with {{with}}, {} starting the program",
                name.to_string_lossy()
            );
            notes.push(habits::graded_with_note(path, &uses, &how));
            adjusted.main = Some(name.to_string_lossy().into_owned());
            folder_graded = true;
            (build_dir.path().to_path_buf(), None)
        }
    };
    let options = &adjusted;
    // Only the private copy changes: the student's files keep their byte order marks.
    habits::strip_byte_order_marks(build_dir.path())
        .map_err(|e| PrepareError::NoBuildDirectory(e.to_string()))?;
    let plan = plan(path, &root, single_file.as_deref(), options)?;
    for tool in plan.language.tools {
        if find_tool(tool).is_none() {
            return Err(PrepareError::MissingTool {
                tool: tool.to_string(),
                language: plan.language.name,
                install: plan.language.install,
            });
        }
    }
    let build = languages::Build {
        original: path,
        dir: &root,
        entry: plan.entry.as_deref(),
        sources: &plan.sources,
        options,
        language: plan.language,
    };
    let built = cache::build(&build, || (plan.language.build)(&build))?;
    let mut readable = vec![root.clone()];
    readable.extend(built.readable);
    // A single Java file built with sources of its folder: of those, javac compiled the ones
    // it uses; the others go, so only the program's files are read.
    let java_single = single_file
        .as_deref()
        .filter(|_| plan.language.name == "Java");
    let used = java_single.map_or_else(Vec::new, |entry| {
        habits::prune_unused_java(&root, entry, &root.join("classes"))
    });
    if let Some(entry) = java_single.filter(|_| !used.is_empty()) {
        // Shown as in the folder: beside the file, without its package's folders.
        let package = entry.parent().and_then(|p| p.strip_prefix(&root).ok());
        let package = package.unwrap_or(Path::new(""));
        let shown: Vec<String> = used
            .iter()
            .map(|u| {
                let u = Path::new(u);
                u.strip_prefix(package).unwrap_or(u).display().to_string()
            })
            .collect();
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        notes.push(habits::graded_with_note(
            path,
            &shown,
            &format!("compiled with {{with}}, as `javac {name}` does there"),
        ));
    }
    let read_code_from = (!used.is_empty() || folder_graded).then(|| root.clone());
    notes.extend(built.notes);
    Ok(Submission {
        read_code_from,
        language: plan.language,
        command: built.command,
        sanitized: (!built.sanitized.is_empty()).then_some(built.sanitized),
        readable,
        env: built.env,
        notes,
        warnings: built.warnings,
        replay_build: built.replay_build,
        build_dir,
    })
}

/// Copies the regular files of a submission directory (recursively, skipping hidden ones),
/// never following a symbolic link (see [`crate::run::workdir::copy_tree`]).
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    crate::run::workdir::copy_tree(
        from,
        to,
        crate::run::workdir::CopyLimits {
            // Files at most SOURCE_DEPTH levels down.
            depth: SOURCE_DEPTH - 1,
            files: 2_000,
            bytes: 512 << 20,
        },
    )
}

fn extension(path: &Path) -> String {
    path.extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

/// Whether `path` is a regular file with an execute bit (as a PATH lookup would run it).
pub(crate) fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// What a submission is: its language, the file that starts it and its sources.
#[derive(Debug)]
struct Plan {
    language: &'static Language,
    entry: Option<PathBuf>,
    sources: Vec<PathBuf>,
}

/// Every extension a language is recognised by, for messages.
fn known_extensions() -> String {
    languages::LANGUAGES
        .iter()
        .flat_map(|l| l.extensions.iter())
        .map(|e| format!(".{e}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Chooses the language and entry point of the copied submission at `root` (`single_file`:
/// it was one file).
fn plan(
    original: &Path,
    root: &Path,
    single_file: Option<&Path>,
    options: &PrepareOptions,
) -> Result<Plan, PrepareError> {
    let unrecognised = |reason: String| PrepareError::Unrecognised {
        path: original.to_path_buf(),
        reason,
    };
    if let Some(file) = single_file {
        return match languages::by_extension(&extension(file)) {
            Some(language) => Ok(Plan {
                language,
                entry: Some(file.to_path_buf()),
                sources: vec![file.to_path_buf()],
            }),
            None if is_executable(file) => Ok(Plan {
                language: &languages::EXECUTABLE,
                entry: Some(file.to_path_buf()),
                sources: Vec::new(),
            }),
            None => Err(unrecognised(format!(
                "not executable, and not a source file grade knows ({})",
                known_extensions()
            ))),
        };
    }
    // An explicit entry point wins: a top-level executable `run` (or `run.sh`).
    for name in ["run", "run.sh"] {
        let candidate = root.join(name);
        if is_executable(&candidate) {
            return Ok(Plan {
                language: &languages::EXECUTABLE,
                entry: Some(candidate),
                sources: Vec::new(),
            });
        }
    }
    let chosen_by_main = options.main.as_deref().and_then(|main| {
        let path = root.join(main);
        path.is_file().then_some(path)
    });
    let language = match &chosen_by_main {
        Some(file) => languages::by_extension(&extension(file)),
        None => None,
    }
    .or_else(|| {
        languages::LANGUAGES
            .iter()
            .find(|l| languages::has_project_file(l, root))
    })
    .or_else(|| {
        languages::LANGUAGES.iter().find(|l| {
            !l.extensions.is_empty() && !languages::sources_with(root, l.extensions).is_empty()
        })
    });
    let Some(language) = language else {
        return executable_plan(root, options).map_err(unrecognised);
    };
    let sources = languages::sources_with(root, language.extensions);
    let entry = match language.entry {
        languages::Entry::Whole => None,
        languages::Entry::Script {
            conventional,
            guards,
        } => {
            let candidates: Vec<&PathBuf> = sources.iter().collect();
            Some(
                languages::choose_entry(language, root, &candidates, conventional, guards, options)
                    .map_err(unrecognised)?,
            )
        }
    };
    Ok(Plan {
        language,
        entry,
        sources,
    })
}

/// A folder without sources of a known language: its one executable.
fn executable_plan(root: &Path, options: &PrepareOptions) -> Result<Plan, String> {
    let executables: Vec<PathBuf> = walkdir::WalkDir::new(root)
        .max_depth(SOURCE_DEPTH)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_executable(e.path()))
        .map(|e| e.into_path())
        .collect();
    if executables.is_empty() {
        return Err(format!(
            "it holds no source file grade knows ({}) and no executable",
            known_extensions()
        ));
    }
    let refs: Vec<&PathBuf> = executables.iter().collect();
    let entry =
        languages::choose_entry(&languages::EXECUTABLE, root, &refs, &["run"], &[], options)?;
    Ok(Plan {
        language: &languages::EXECUTABLE,
        entry: Some(entry),
        sources: Vec::new(),
    })
}

/// One command of a build, run inside the sandbox in the submission's directory.
pub struct BuildStep {
    /// The tool as shown in messages and looked up on PATH (`g++`).
    pub tool: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Options for the tool itself, before its arguments and left out of the command a
    /// report shows, as no student types them (javac's own JVM: [`JAVAC_JVM_OPTIONS`]).
    pub tool_options: Vec<String>,
    /// The program to run when not the tool found on PATH (a resolved interpreter).
    pub program: Option<PathBuf>,
    /// Directories outside the system ones the tool reads (an interpreter's prefix, a
    /// toolchain's sysroot).
    pub readable: Vec<PathBuf>,
    /// Environment the tool needs (caches inside the build directory, offline switches).
    pub env: Vec<(String, String)>,
}

impl BuildStep {
    /// A step running `tool` from PATH with `args`.
    pub fn new(tool: &str, args: Vec<String>) -> BuildStep {
        BuildStep {
            tool: tool.to_string(),
            args,
            tool_options: Vec::new(),
            program: None,
            readable: Vec::new(),
            env: Vec::new(),
        }
    }
}

/// Runs one build step of `build` (see [`run_build_with`]); returns what it printed.
fn run_build_in(build: &languages::Build<'_>, step: &BuildStep) -> Result<String, PrepareError> {
    let program = match &step.program {
        Some(p) => p.clone(),
        None => find_tool(&step.tool).ok_or_else(|| PrepareError::MissingTool {
            tool: step.tool.clone(),
            language: build.language.name,
            install: build.language.install,
        })?,
    };
    run_build_with(step, &program, build.dir)
}

/// A build's command as a report shows it: as the student would type it in their folder
/// (paths relative to `dir`, `dir` itself as `.`).
fn shown_command(tool: &str, args: &[String], dir: &Path) -> String {
    let folder = dir.display().to_string();
    let typed: Vec<&str> = args
        .iter()
        .map(|a| if *a == folder { "." } else { a.as_str() })
        .collect();
    format!("{tool} {}", typed.join(" ")).replace(&format!("{folder}/"), "")
}

/// Runs `step` with `program` (its tool found, or its own) in `dir`, inside the same sandbox
/// as the student's program: a compiler reads the student's sources, and `#include` or
/// `.incbin` of a case or reference file must fail just as reading it at run time does.
/// Returns what the tool printed (a compiler's warnings), paths relative to `dir`.
fn run_build_with(step: &BuildStep, program: &Path, dir: &Path) -> Result<String, PrepareError> {
    let tool = step.tool.as_str();
    let shown = shown_command(tool, &step.args, dir);
    let mut command = vec![program.display().to_string()];
    command.extend(step.tool_options.iter().cloned());
    command.extend(step.args.iter().cloned());
    let spec = RunSpec {
        command,
        files: Vec::new(),
        readable: step.readable.clone(),
        env: step.env.clone(),
        input: Vec::new(),
        end_of_input: EndOfInput::Close,
        limits: Limits {
            wall: BUILD_TIMEOUT,
            cpu: BUILD_TIMEOUT,
            memory_bytes: 2 << 30,
            output_bytes: 256 << 10,
            processes: 256,
            sanitized: false,
        },
        terminal: false,
        workdir: Some(dir.to_path_buf()),
    };
    let failed = |messages: String| {
        PrepareError::BuildFailed(BuildFailure {
            command: shown.clone(),
            messages: messages.replace(&format!("{}/", dir.display()), ""),
        })
    };
    // The tool was found: a run that cannot be made is the machine's (or an interruption),
    // whatever the errno.
    let outcome = run::run(&spec).map_err(|e| PrepareError::BuildNotRun(format!("{tool}: {e}")))?;
    let mut messages = outcome.transcript.output_text(Stream::Stdout);
    messages.push_str(&outcome.transcript.output_text(Stream::Stderr));
    match outcome.ending {
        Ending::Exited(0) => Ok(messages.replace(&format!("{}/", dir.display()), "")),
        Ending::Exited(_) => Err(failed(messages)),
        Ending::WallTimeout | Ending::CpuLimit => Err(failed(format!(
            "{messages}\nthe build took longer than {} s and was stopped",
            BUILD_TIMEOUT.as_secs()
        ))),
        Ending::Blocked(_) => Err(failed(format!(
            "{messages}\nthe build was stopped: it was neither computing nor printing for {} s",
            crate::run::pace::blocked_after(BUILD_TIMEOUT).as_secs_f64()
        ))),
        other => Err(failed(format!(
            "{messages}\nthe build was stopped: {other:?}"
        ))),
    }
}

/// Which class with `main` runs a Java program: the one the handout names, else the only
/// one; with several and none named, the first by name, with a note listing them all.
fn choose_java_main(
    mains: &[String],
    preferred: Option<&str>,
) -> Result<(String, Option<String>), String> {
    let simple = |name: &str| name.rsplit('.').next().unwrap_or(name).to_string();
    if let Some(wanted) = preferred {
        if let Some(found) = mains.iter().find(|m| simple(m) == wanted) {
            return Ok((found.clone(), None));
        }
    }
    match mains {
        [] => Err("no Java class declares `public static void main`".into()),
        [one] => Ok((one.clone(), None)),
        many => {
            let mut sorted = many.to_vec();
            sorted.sort();
            let chosen = sorted[0].clone();
            let named = preferred.map_or(String::new(), |p| {
                format!(" (the handout names `{p}`, which has no `main` here)")
            });
            Ok((
                chosen.clone(),
                Some(format!(
                    "several classes declare main: {}{named}; `{chosen}` was run",
                    sorted.join(", ")
                )),
            ))
        }
    }
}

/// Compiles Java sources into `classes/` (with `-Xlint`: its warnings are shown, never fatal;
/// with `sourcepath`, the classes they use are found there) and chooses the class whose
/// `main` runs (the one `--main` names, else the handout's). Returns the command, a note on
/// the choice and the compiler's warnings.
fn build_java(
    build: &languages::Build<'_>,
    sources: Vec<String>,
    sourcepath: Option<&Path>,
) -> Result<(Vec<String>, Option<String>, String), PrepareError> {
    let classes = build.dir.join("classes");
    std::fs::create_dir_all(&classes).map_err(|e| PrepareError::Unreadable {
        path: build.original.to_path_buf(),
        reason: format!("cannot create the class directory: {e}"),
    })?;
    let mains: Vec<String> = sources
        .iter()
        .filter_map(|s| java_main_class(Path::new(s)))
        .collect();
    let wanted = build
        .options
        .main
        .as_deref()
        .map(|m| {
            let file = m.rsplit('/').next().unwrap_or(m);
            file.strip_suffix(".java").unwrap_or(file).to_string()
        })
        .or_else(|| build.options.java_main.clone());
    let (main, note) = choose_java_main(&mains, wanted.as_deref()).map_err(|reason| {
        PrepareError::Unrecognised {
            path: build.original.to_path_buf(),
            reason,
        }
    })?;
    let mut args = vec![
        "-Xlint".to_string(),
        "-encoding".to_string(),
        "UTF-8".to_string(),
        "-d".to_string(),
        classes.display().to_string(),
    ];
    if let Some(path) = sourcepath {
        args.extend(["-sourcepath".to_string(), path.display().to_string()]);
    }
    args.extend(sources);
    let mut step = BuildStep::new("javac", args);
    step.tool_options = JAVAC_JVM_OPTIONS.iter().map(|o| o.to_string()).collect();
    let warnings = run_build_in(build, &step)?;
    let java = find_tool("java").ok_or(PrepareError::MissingTool {
        tool: "java".into(),
        language: build.language.name,
        install: build.language.install,
    })?;
    let mut command = vec![java.display().to_string()];
    command.extend(JVM_OPTIONS.split_whitespace().map(String::from));
    command.extend(["-cp".to_string(), classes.display().to_string(), main]);
    Ok((command, note, warnings))
}

/// The fully qualified name of the class with `main` in a Java source, if it has one.
fn java_main_class(source: &Path) -> Option<String> {
    let text = std::fs::read_to_string(source).ok()?;
    let compact: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if !(compact.contains("static void main(") || compact.contains("static void main (")) {
        return None;
    }
    let class = source.file_stem()?.to_string_lossy().into_owned();
    Some(match habits::java_package(&text) {
        Some(package) => format!("{package}.{class}"),
        None => class,
    })
}

/// Finds a program on PATH (without running anything).
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    which::which(program).ok()
}

/// The tool a build or run uses: on PATH or in the system folders, and when the grader runs as
/// root (programs then run as an unprivileged user) one that user can reach, so a toolchain
/// under /root (rustup's) is passed over for the system one. `python3` is the resolved
/// interpreter ([`python_interpreter`]).
pub fn find_tool(tool: &str) -> Option<PathBuf> {
    if tool == "python3" {
        return python_interpreter().map(|p| p.executable.clone());
    }
    let as_root = unsafe { libc::geteuid() } == 0;
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    dirs.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from));
    let dirs = std::env::join_paths(dirs).ok()?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    which::which_in_all(tool, Some(dirs), cwd)
        .ok()?
        .find(|candidate| {
            !as_root
                || std::fs::canonicalize(candidate).is_ok_and(|real| usable_by_others(&real))
                    && usable_by_others(candidate)
        })
}

/// A real Python interpreter and the directories it reads its standard library from.
#[derive(Clone, Debug)]
pub struct Python {
    /// The interpreter binary itself (not a pyenv shim or wrapper script).
    pub executable: PathBuf,
    /// Directories outside the system ones that it must read (its prefix).
    pub readable: Vec<PathBuf>,
}

/// True when a user other than the owner can reach and run `path` (every parent searchable).
fn usable_by_others(path: &Path) -> bool {
    let mut current = Some(path);
    while let Some(p) = current {
        let Ok(meta) = std::fs::metadata(p) else {
            return false;
        };
        let needed = if p == path { 0o005 } else { 0o001 };
        if meta.permissions().mode() & needed != needed {
            return false;
        }
        current = p.parent();
    }
    true
}

/// Why the executable at `path` is not a program Linux runs — neither an ELF binary nor a
/// script starting with `#!` — naming what it looks like ("a Windows executable (MZ/PE)"), or
/// None when it is one. Such a file would otherwise be handed to `/bin/sh` (as `execvp`
/// does), and its bytes read as shell commands.
pub fn not_a_program(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut start = Vec::with_capacity(512);
    std::fs::File::open(path)
        .and_then(|f| f.take(512).read_to_end(&mut start))
        .ok()?;
    let looks_like = describe_non_program(&start)?;
    Some(format!(
        "not a program: it looks like {looks_like}; grade runs Linux (ELF) executables and \
         scripts starting with #! (or a source file of a language in docs/languages.md)"
    ))
}

/// What the first bytes of a file look like when they are not an ELF binary or a `#!` script.
fn describe_non_program(start: &[u8]) -> Option<String> {
    let at = |offset: usize, magic: &[u8]| start.get(offset..offset + magic.len()) == Some(magic);
    if at(0, b"\x7fELF") || at(0, b"#!") {
        return None;
    }
    let word = |offset: usize| {
        start
            .get(offset..offset + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    let described = match word(0) {
        _ if start.is_empty() => "an empty file",
        Some(0xfeed_face | 0xfeed_facf | 0xcefa_edfe | 0xcffa_edfe) => {
            "a macOS executable (Mach-O)"
        }
        // 0xCAFEBABE opens both: a Mach-O universal binary counts its architectures (a few),
        // a Java class file has its version there (major 45 and up).
        Some(0xcafe_babe) if word(4).is_some_and(|n| n < 30) => {
            "a macOS universal executable (Mach-O)"
        }
        Some(0xcafe_babe) => {
            "a compiled Java class file (run it with java, or submit the .java source)"
        }
        _ if at(0, b"MZ") => "a Windows executable (MZ/PE)",
        _ if at(0, b"PK\x03\x04") => {
            "a zip archive or a Java .jar (submit the .zip itself, or the sources)"
        }
        _ if at(0, &[0x1f, 0x8b]) => "a gzip-compressed file",
        _ if at(0, b"%PDF") => "a PDF document",
        _ if at(0, b"\0asm") => "a WebAssembly module",
        _ => {
            let text = std::str::from_utf8(start).is_ok_and(|t| {
                !t.contains('\0')
                    && t.chars()
                        .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
            });
            // A cut inside a multibyte character at the 512th byte is still text.
            let text = text
                || (start.len() == 512
                    && std::str::from_utf8(&start[..start.len() - 3]).is_ok_and(|t| {
                        t.chars()
                            .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
                    }));
            if text {
                "a text file without a #! line (start it with the interpreter it needs, such as #!/bin/sh)"
            } else {
                "random bytes (no known executable format)"
            }
        }
    };
    Some(described.to_string())
}

/// True when `path` is a script (starts with `#!`) rather than a binary.
fn is_script(path: &Path) -> bool {
    use std::io::Read;
    let mut start = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| start == *b"#!")
}

/// Asks an interpreter for its real executable and prefixes. The answer of an interpreter
/// binary (not a wrapper script, whose answer depends on its environment) is kept in the
/// build cache under the binary's identity and `PYTHONHOME`: starting Python to ask costs
/// more than a short grading's runs.
fn probe_python(candidate: &Path) -> Option<Python> {
    const QUESTION: &str =
        "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)";
    let ask = || {
        let output = Command::new(candidate)
            .args(["-c", QUESTION])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .ok()?;
        output.status.success().then_some(output.stdout)
    };
    let answer = if is_script(candidate) {
        ask()?
    } else {
        let home = std::env::var_os("PYTHONHOME").unwrap_or_default();
        let key = cache::Key::default()
            .tool(candidate)
            .ok()?
            .with("question", QUESTION.as_bytes())
            .with("PYTHONHOME", home.as_encoded_bytes());
        cache::remembered(cache::directory(false).as_deref(), &key, ask)?
    };
    let text = String::from_utf8(answer).ok()?;
    let mut lines = text.lines().map(PathBuf::from);
    let executable = std::fs::canonicalize(lines.next()?).ok()?;
    let mut readable: Vec<PathBuf> = lines.filter(|p| p.is_dir()).collect();
    readable.dedup();
    Some(Python {
        executable,
        readable,
    })
}

/// The python3 to run students' scripts with, resolved once per process.
///
/// The `python3` on PATH is followed through shims (pyenv) to the real binary. When the grader
/// runs as root the program runs as an unprivileged user, so an interpreter that user cannot
/// reach (e.g. under /root) is passed over for the system one.
pub fn python_interpreter() -> Option<&'static Python> {
    static PYTHON: OnceLock<Option<Python>> = OnceLock::new();
    PYTHON
        .get_or_init(|| {
            let as_root = unsafe { libc::geteuid() } == 0;
            let mut candidates: Vec<PathBuf> = find_on_path("python3").into_iter().collect();
            candidates.extend(["/usr/bin/python3", "/usr/local/bin/python3"].map(PathBuf::from));
            let mut seen: Vec<PathBuf> = Vec::new();
            let probed: Vec<Python> = candidates
                .iter()
                .filter_map(|c| c.canonicalize().ok())
                .filter(|real| {
                    let fresh = !seen.contains(real);
                    seen.push(real.clone());
                    fresh
                })
                // A wrapper script (a pyenv shim) the run user cannot even execute leads to an
                // interpreter it cannot reach either; resolving it costs a shell start.
                .filter(|real| !(as_root && is_script(real) && !usable_by_others(real)))
                .filter_map(|real| probe_python(&real))
                .collect();
            probed
                .iter()
                .find(|p| !as_root || usable_by_others(&p.executable))
                .or(probed.first())
                .cloned()
        })
        .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_command_is_shown_as_the_student_types_it() {
        let dir = Path::new("/tmp/grade-build-x");
        let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let javac = args(&[
            "-Xlint",
            "-d",
            "/tmp/grade-build-x/classes",
            "-sourcepath",
            "/tmp/grade-build-x",
            "/tmp/grade-build-x/Main.java",
        ]);
        assert_eq!(
            shown_command("javac", &javac, dir),
            "javac -Xlint -d classes -sourcepath . Main.java"
        );
        assert_eq!(
            shown_command("gcc", &args(&["-J", "/tmp/grade-build-x/main.c"]), dir),
            "gcc -J main.c"
        );
    }

    /// The replay line runs the program as its student does, from their folder.
    #[test]
    fn a_replay_runs_the_students_own_command() {
        let dir = Path::new("/tmp/grade-private-x");
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            student_command(
                "Python",
                &words(&["/usr/bin/python3", "/tmp/grade-private-x/game/main.py"]),
                dir
            ),
            "python3 game/main.py"
        );
        assert_eq!(
            student_command(
                "JavaScript",
                &words(&["/usr/bin/node", "/tmp/grade-private-x/my nim.js"]),
                dir
            ),
            "node 'my nim.js'"
        );
        assert_eq!(
            student_command(
                "Java",
                &words(&[
                    "/usr/bin/java",
                    "-Xmx256m",
                    "-cp",
                    "/tmp/grade-private-x/classes",
                    "Main"
                ]),
                dir
            ),
            "java -cp . Main"
        );
        assert_eq!(
            student_command("C++", &words(&["/tmp/grade-private-x/prog"]), dir),
            "./prog"
        );
        // Kotlin and C#: the jar and the assembly their build lines make, run as grade runs
        // them (java -jar, dotnet); a ready-made program as itself.
        assert_eq!(
            student_command(
                "Kotlin",
                &words(&[
                    "/usr/bin/java",
                    "-Xmx256m",
                    "-jar",
                    "/tmp/grade-private-x/program.jar"
                ]),
                dir
            ),
            "java -jar program.jar"
        );
        assert_eq!(
            student_command(
                "C#",
                &words(&["/usr/bin/dotnet", "/tmp/grade-private-x/out/Guess.dll"]),
                dir
            ),
            "dotnet out/Guess.dll"
        );
        assert_eq!(
            student_command("executable", &words(&["/tmp/grade-private-x/run.sh"]), dir),
            "./run.sh"
        );
    }

    /// Each interpreter as docs/explore.md lists it (`ruby nim.rb`, `perl nim.pl`), and a
    /// built program where the student's own build made it.
    #[test]
    fn every_language_replays_as_its_student_runs_it() {
        let dir = Path::new("/tmp/grade-private-x");
        let run = |language: &str, command: &[&str]| {
            let command: Vec<String> = command.iter().map(|s| s.to_string()).collect();
            student_command(language, &command, dir)
        };
        let cases = [
            (
                "Ruby",
                vec!["/usr/bin/ruby", "/tmp/grade-private-x/nim.rb"],
                "ruby nim.rb",
            ),
            (
                "Perl",
                vec!["/usr/bin/perl", "/tmp/grade-private-x/nim.pl"],
                "perl nim.pl",
            ),
            (
                "Python",
                vec!["/usr/bin/python3", "/tmp/grade-private-x/nim.py"],
                "python3 nim.py",
            ),
            ("C", vec!["/tmp/grade-private-x/prog"], "./prog"),
            (
                "Rust crate",
                vec!["/tmp/grade-private-x/target/release/guess"],
                "./target/release/guess",
            ),
            ("Go", vec!["/tmp/grade-private-x/program"], "./program"),
            ("Makefile", vec!["/tmp/grade-private-x/guess"], "./guess"),
        ];
        for (language, command, expected) in cases {
            assert_eq!(run(language, &command), expected, "{language}");
        }
    }

    #[test]
    fn java_main_class_reads_package_and_name() {
        let dir = tempfile::tempdir().expect("tempdir");
        let source = dir.path().join("PlayGame.java");
        std::fs::write(
            &source,
            "package lab1;\npublic class PlayGame {\n  public static void main(String[] args) {}\n}\n",
        )
        .expect("write");
        assert_eq!(java_main_class(&source).as_deref(), Some("lab1.PlayGame"));
        let other = dir.path().join("CoinStrip.java");
        std::fs::write(&other, "public class CoinStrip {}\n").expect("write");
        assert_eq!(java_main_class(&other), None);
    }

    #[test]
    fn the_handouts_main_class_wins_else_the_only_one_else_a_note() {
        let mains = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let two = mains(&["CoinStrip", "PlayGame"]);
        assert_eq!(
            choose_java_main(&two, Some("PlayGame")),
            Ok(("PlayGame".to_string(), None))
        );
        assert_eq!(
            choose_java_main(
                &mains(&["lab1.PlayGame", "lab1.BonusPlayGame"]),
                Some("PlayGame")
            ),
            Ok(("lab1.PlayGame".to_string(), None))
        );
        assert_eq!(
            choose_java_main(&mains(&["Game"]), Some("PlayGame")),
            Ok(("Game".to_string(), None))
        );
        let (chosen, note) = choose_java_main(&mains(&["Zeta", "Alpha"]), None).expect("chosen");
        assert_eq!(chosen, "Alpha");
        assert_eq!(
            note.as_deref(),
            Some("several classes declare main: Alpha, Zeta; `Alpha` was run")
        );
        assert!(choose_java_main(&[], Some("PlayGame")).is_err());
    }

    #[test]
    fn a_directory_with_two_unclear_python_files_is_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.py"), "print(1)\n").expect("write");
        std::fs::write(dir.path().join("b.py"), "print(2)\n").expect("write");
        let e =
            plan(dir.path(), dir.path(), None, &PrepareOptions::default()).expect_err("ambiguous");
        assert!(
            e.to_string().ends_with(
                ": it holds several Python files that could start the program (a.py, b.py); \
                 choose one with --main FILE"
            ),
            "{e}"
        );
    }

    #[test]
    fn folders_choose_their_language_by_build_file_then_extension() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("nim.cpp"), "int main() {}\n").expect("write");
        std::fs::write(dir.path().join("notes.py"), "print(1)\n").expect("write");
        let none = PrepareOptions::default();
        let chosen = plan(dir.path(), dir.path(), None, &none).expect("plan");
        assert_eq!(chosen.language.name, "C++");
        let main = PrepareOptions {
            main: Some("notes.py".into()),
            ..PrepareOptions::default()
        };
        let chosen = plan(dir.path(), dir.path(), None, &main).expect("plan");
        assert_eq!(chosen.language.name, "Python");
        std::fs::write(dir.path().join("Makefile"), "all:\n").expect("write");
        let chosen = plan(dir.path(), dir.path(), None, &none).expect("plan");
        assert_eq!(chosen.language.name, "Makefile");
    }

    #[test]
    fn a_missing_submission_names_the_path() {
        let e = prepare(
            Path::new("/nonexistent/nim.cpp"),
            &PrepareOptions::default(),
        )
        .expect_err("missing");
        assert!(e.to_string().contains("/nonexistent/nim.cpp"), "{e}");
    }
}
