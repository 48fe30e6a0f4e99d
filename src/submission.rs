//! Turning what a student handed in into a command the runner can start.
//!
//! A submission is an executable, a `.py` file (run with a real python3 interpreter, resolved
//! once, never a shim), a `.c`/`.cpp`/`.cc` file (compiled with gcc/g++ -O2), a `.java` file or
//! a directory of `.java` files (javac; the class with `main` is found), or a directory holding
//! one of these (a top-level executable named `run` or `run.sh` is always its entry point). Everything is copied into a private build directory first, so the program
//! only ever sees its own files, never its neighbours (such as an instructor's cases).

use std::fmt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use crate::results::BuildFailure;
use crate::run::{self, EndOfInput, Ending, Limits, RunSpec};
use crate::transcript::Stream;

/// The kind of program a submission is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// A ready-made executable (any language).
    Executable,
    /// A Python 3 script.
    Python,
    /// A C source file.
    C,
    /// A C++ source file.
    Cpp,
    /// Java sources.
    Java,
}

impl Language {
    /// A short name for messages.
    pub fn name(self) -> &'static str {
        match self {
            Language::Executable => "executable",
            Language::Python => "Python",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Java => "Java",
        }
    }
}

/// A submission ready to run: the command, and the files it may read.
#[derive(Debug)]
pub struct Submission {
    /// What kind of program it is.
    pub language: Language,
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
    /// Private copies of the sources and the build outputs; removed when dropped.
    build_dir: tempfile::TempDir,
}

impl Submission {
    /// The private directory holding the submission's files.
    pub fn dir(&self) -> &Path {
        self.build_dir.path()
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
    MissingTool { tool: String, language: Language },
    /// The compiler rejected the program: every case scores 0, and the report shows why.
    BuildFailed(BuildFailure),
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
            PrepareError::MissingTool { tool, language } => write!(
                f,
                "{tool} is needed to run a {} submission but was not found on PATH",
                language.name()
            ),
            PrepareError::BuildFailed(failure) => {
                write!(f, "the submission did not build: {}", failure.command)
            }
        }
    }
}

impl std::error::Error for PrepareError {}

/// How long a compiler may run before the build counts as failed.
const BUILD_TIMEOUT: Duration = Duration::from_secs(120);

/// JVM options that keep a student's Java program small and quick to start under the limits.
const JVM_OPTIONS: &str = "-Xmx256m -Xss8m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
    -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m -XX:-UsePerfData";

/// What the assignment says about how submissions are built.
#[derive(Clone, Debug, Default)]
pub struct PrepareOptions {
    /// The Java class whose `main` runs the program, as the handout names it (`PlayGame`).
    pub java_main: Option<String>,
}

/// Prepares `path` for running: copies it into a private directory and builds it if needed.
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
        .map_err(|e| unreadable(format!("cannot create a build directory: {e}")))?;
    // The run may use another uid: let it read (not write) the build directory.
    let _ = std::fs::set_permissions(build_dir.path(), std::fs::Permissions::from_mode(0o755));
    if metadata.is_dir() {
        copy_dir(path, build_dir.path()).map_err(|e| unreadable(e.to_string()))?;
        let entry = find_entry(path, build_dir.path())?;
        build(path, entry, build_dir, options)
    } else {
        let name = path
            .file_name()
            .ok_or_else(|| unreadable("not a file name".into()))?;
        let copy = build_dir.path().join(name);
        crate::run::workdir::copy_file(path, &copy).map_err(|e| unreadable(e.to_string()))?;
        build(path, copy, build_dir, options)
    }
}

/// Copies the regular files of a submission directory (recursively, skipping hidden ones),
/// never following a symbolic link (see [`crate::run::workdir::copy_tree`]).
fn copy_dir(from: &Path, to: &Path) -> std::io::Result<()> {
    crate::run::workdir::copy_tree(
        from,
        to,
        crate::run::workdir::CopyLimits {
            // Files at most four levels down, as before.
            depth: 3,
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

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Chooses what to run in a submission directory (already copied to `copy`).
fn find_entry(original: &Path, copy: &Path) -> Result<PathBuf, PrepareError> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(copy)
        .max_depth(4)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    let with = |ext: &[&str]| -> Vec<&PathBuf> {
        files
            .iter()
            .filter(|f| ext.contains(&extension(f).as_str()))
            .collect()
    };
    let unrecognised = |reason: String| PrepareError::Unrecognised {
        path: original.to_path_buf(),
        reason,
    };
    // An explicit entry point wins: a top-level executable `run` (or `run.sh`).
    for name in ["run", "run.sh"] {
        let candidate = copy.join(name);
        if is_executable(&candidate) {
            return Ok(candidate);
        }
    }
    let java = with(&["java"]);
    if !java.is_empty() {
        // A directory of Java sources is built as a whole.
        return Ok(copy.to_path_buf());
    }
    for (kind, exts) in [
        ("C++", &["cpp", "cc", "cxx"][..]),
        ("C", &["c"][..]),
        ("Python", &["py"][..]),
    ] {
        let found = with(exts);
        match found.as_slice() {
            [] => continue,
            [one] => return Ok((*one).clone()),
            many => {
                // Prefer a file with the program's entry point.
                let needle = if kind == "Python" {
                    "__main__"
                } else {
                    "main("
                };
                let mains: Vec<&&PathBuf> = many
                    .iter()
                    .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains(needle)))
                    .collect();
                if let [one] = mains.as_slice() {
                    return Ok((**one).clone());
                }
                if kind != "Python" {
                    return Ok(copy.to_path_buf());
                }
                let names: Vec<String> = many
                    .iter()
                    .map(|f| f.strip_prefix(copy).unwrap_or(f).display().to_string())
                    .collect();
                return Err(unrecognised(format!(
                    "it holds several Python files ({}) and none is clearly the main one",
                    names.join(", ")
                )));
            }
        }
    }
    let executables: Vec<&PathBuf> = files.iter().filter(|f| is_executable(f)).collect();
    match executables.as_slice() {
        [one] => Ok((*one).clone()),
        [] => Err(unrecognised(
            "it holds no .py, .c, .cpp, .cc or .java file and no executable".into(),
        )),
        _ => Err(unrecognised(
            "it holds several executables; name the one to grade `run`".into(),
        )),
    }
}

/// Builds (if needed) the entry point `entry` inside `build_dir`.
fn build(
    original: &Path,
    entry: PathBuf,
    build_dir: tempfile::TempDir,
    options: &PrepareOptions,
) -> Result<Submission, PrepareError> {
    let dir = build_dir.path().to_path_buf();
    let ext = extension(&entry);
    let sources_in_dir = |exts: &[&str]| -> Vec<String> {
        let mut found: Vec<String> = walkdir::WalkDir::new(&dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && exts.contains(&extension(e.path()).as_str()))
            .map(|e| e.path().display().to_string())
            .collect();
        found.sort();
        found
    };
    let submission = |language, command: Vec<String>, readable: Vec<PathBuf>, env| Submission {
        language,
        command,
        readable,
        env,
        notes: Vec::new(),
        warnings: String::new(),
        build_dir,
    };
    let java_sources = if entry.is_dir() {
        sources_in_dir(&["java"])
    } else if ext == "java" {
        vec![entry.display().to_string()]
    } else {
        Vec::new()
    };
    if !java_sources.is_empty() {
        let (command, note, warnings) = build_java(original, &dir, java_sources, options)?;
        let mut built = submission(Language::Java, command, vec![dir.clone()], vec![]);
        built.notes.extend(note);
        built.warnings = warnings;
        return Ok(built);
    }
    if entry.is_dir() {
        let cpp = sources_in_dir(&["cpp", "cc", "cxx"]);
        let c = sources_in_dir(&["c"]);
        let (language, compiler, sources) = if cpp.is_empty() {
            (Language::C, "gcc", c)
        } else {
            (Language::Cpp, "g++", cpp)
        };
        let (binary, warnings) = compile_native(language, compiler, &dir, sources)?;
        let mut built = submission(language, vec![binary], vec![dir.clone()], vec![]);
        built.warnings = warnings;
        return Ok(built);
    }
    let entry_text = entry.display().to_string();
    match ext.as_str() {
        "py" => {
            let python = python_interpreter().ok_or(PrepareError::MissingTool {
                tool: "python3".into(),
                language: Language::Python,
            })?;
            let mut readable = vec![dir.clone()];
            readable.extend(python.readable.iter().cloned());
            // A syntax error is a build failure reported once, not a traceback in every case.
            let args = [
                "-m".to_string(),
                "py_compile".to_string(),
                entry_text.clone(),
            ];
            run_build_with(
                "python3",
                &python.executable,
                &args,
                &dir,
                python.readable.clone(),
            )?;
            Ok(submission(
                Language::Python,
                vec![python.executable.display().to_string(), entry_text],
                readable,
                vec![],
            ))
        }
        "c" | "cpp" | "cc" | "cxx" => {
            let (language, compiler) = if ext == "c" {
                (Language::C, "gcc")
            } else {
                (Language::Cpp, "g++")
            };
            let (binary, warnings) = compile_native(language, compiler, &dir, vec![entry_text])?;
            let mut built = submission(language, vec![binary], vec![dir.clone()], vec![]);
            built.warnings = warnings;
            Ok(built)
        }
        _ if is_executable(&entry) => Ok(submission(
            Language::Executable,
            vec![entry_text],
            vec![dir.clone()],
            vec![],
        )),
        _ => Err(PrepareError::Unrecognised {
            path: original.to_path_buf(),
            reason: "not executable, and not a .py, .c, .cpp, .cc or .java file".into(),
        }),
    }
}

/// Runs a build command in `dir`, inside the same sandbox as the student's program: a
/// compiler reads the student's sources, and `#include` or `.incbin` of a case or reference
/// file must fail just as reading it at run time does. Returns what it printed (warnings).
fn run_build(
    language: Language,
    tool: &str,
    args: &[String],
    dir: &Path,
) -> Result<String, PrepareError> {
    let program = find_on_path(tool).ok_or_else(|| PrepareError::MissingTool {
        tool: tool.to_string(),
        language,
    })?;
    run_build_with(tool, &program, args, dir, Vec::new())
}

/// Runs `program` (shown as `tool`) with `args` in `dir` as [`run_build`] does, with
/// `readable` directories outside the system ones (an interpreter's prefix).
fn run_build_with(
    tool: &str,
    program: &Path,
    args: &[String],
    dir: &Path,
    readable: Vec<PathBuf>,
) -> Result<String, PrepareError> {
    let shown = format!("{tool} {}", args.join(" ")).replace(&format!("{}/", dir.display()), "");
    let mut command = vec![program.display().to_string()];
    command.extend(args.iter().cloned());
    let spec = RunSpec {
        command,
        files: Vec::new(),
        readable,
        env: Vec::new(),
        input: Vec::new(),
        end_of_input: EndOfInput::Close,
        limits: Limits {
            wall: BUILD_TIMEOUT,
            cpu: BUILD_TIMEOUT,
            memory_bytes: 2 << 30,
            output_bytes: 256 << 10,
            processes: 256,
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
    let outcome = run::run(&spec).map_err(|e| failed(format!("cannot run {tool}: {e}")))?;
    let mut messages = outcome.transcript.output_text(Stream::Stdout);
    messages.push_str(&outcome.transcript.output_text(Stream::Stderr));
    match outcome.ending {
        Ending::Exited(0) => Ok(messages.replace(&format!("{}/", dir.display()), "")),
        Ending::Exited(_) => Err(failed(messages)),
        Ending::WallTimeout | Ending::CpuLimit => Err(failed(format!(
            "{messages}\nthe build took longer than {} s and was stopped",
            BUILD_TIMEOUT.as_secs()
        ))),
        other => Err(failed(format!(
            "{messages}\nthe build was stopped: {other:?}"
        ))),
    }
}

/// Compiles C or C++ sources with -O2 into `dir/program`, with every common warning on
/// (`-Wall -Wextra`: handouts grade "free of warnings"; warnings never fail the build).
/// Returns the binary and the compiler's warnings.
fn compile_native(
    language: Language,
    compiler: &str,
    dir: &Path,
    sources: Vec<String>,
) -> Result<(String, String), PrepareError> {
    let binary = dir.join("program").display().to_string();
    let mut args = vec![
        "-O2".to_string(),
        "-Wall".to_string(),
        "-Wextra".to_string(),
        "-o".to_string(),
        binary.clone(),
    ];
    args.extend(sources);
    if language == Language::C {
        args.push("-lm".into());
    }
    let warnings = run_build(language, compiler, &args, dir)?;
    Ok((binary, warnings))
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

/// Compiles Java sources into `dir/classes` (with `-Xlint`: its warnings are shown, never
/// fatal) and chooses the class whose `main` runs. Returns the command, a note on the choice
/// and the compiler's warnings.
fn build_java(
    original: &Path,
    dir: &Path,
    sources: Vec<String>,
    options: &PrepareOptions,
) -> Result<(Vec<String>, Option<String>, String), PrepareError> {
    let classes = dir.join("classes");
    std::fs::create_dir_all(&classes).map_err(|e| PrepareError::Unreadable {
        path: original.to_path_buf(),
        reason: format!("cannot create the class directory: {e}"),
    })?;
    let mains: Vec<String> = sources
        .iter()
        .filter_map(|s| java_main_class(Path::new(s)))
        .collect();
    let (main, note) =
        choose_java_main(&mains, options.java_main.as_deref()).map_err(|reason| {
            PrepareError::Unrecognised {
                path: original.to_path_buf(),
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
    args.extend(sources);
    let warnings = run_build(Language::Java, "javac", &args, dir)?;
    let java = find_on_path("java").ok_or(PrepareError::MissingTool {
        tool: "java".into(),
        language: Language::Java,
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
    let package = text.lines().find_map(|line| {
        line.trim()
            .strip_prefix("package ")
            .map(|p| p.trim_end_matches(';').trim().to_string())
    });
    Some(match package {
        Some(package) => format!("{package}.{class}"),
        None => class,
    })
}

/// Finds a program on PATH (without running anything).
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| is_executable(candidate))
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

/// True when `path` is a script (starts with `#!`) rather than a binary.
fn is_script(path: &Path) -> bool {
    use std::io::Read;
    let mut start = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| start == *b"#!")
}

/// Asks an interpreter for its real executable and prefixes.
fn probe_python(candidate: &Path) -> Option<Python> {
    let output = Command::new(candidate)
        .args([
            "-c",
            "import sys; print(sys.executable); print(sys.prefix); print(sys.base_prefix)",
        ])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    if !output.status.success() {
        return None;
    }
    let text = String::from_utf8(output.stdout).ok()?;
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
        let e = find_entry(dir.path(), dir.path()).expect_err("ambiguous");
        assert!(e.to_string().contains("several Python files"), "{e}");
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
