//! Shared helpers for the integration tests that run real programs through `grade`.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    unreachable_pub,
    reason = "helpers shared by the test binaries: each uses some, and a skipped test says why on its output"
)]
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use assert_cmd::Command;

/// How many parts the suite's grids are cut into when a run covers one part of them.
pub const GRID_PARTS: usize = 3;

/// The part of the suite's grids this run covers: `GRADE_TESTS_PART=K` (0 to
/// [`GRID_PARTS`] − 1; `.ci/run` takes it from the commit) or none (unset, or `all`: every
/// cell). The grids are the cross products (program × style, program × shape …) and the
/// repetitions (gradings on many seeds) whose every row and column already runs in a part:
/// three commits in a row, or one `GRADE_TESTS_PART=all` run, cover all of them
/// (docs/ci.md, "A third of the grids per commit").
pub fn grid_part() -> Option<usize> {
    let part = std::env::var("GRADE_TESTS_PART").ok()?;
    if part == "all" {
        return None;
    }
    let k: usize = part
        .parse()
        .unwrap_or_else(|_| panic!("GRADE_TESTS_PART={part}: a number or `all`"));
    Some(k % GRID_PARTS)
}

/// True when the cell at (`row`, `column`) of a grid runs in this run: every cell without a
/// part, else one diagonal stripe (`(row + column) % GRID_PARTS == part`), so that every row
/// keeps a third of its cells, every column too, and the parts together are the grid.
pub fn in_this_part(row: usize, column: usize) -> bool {
    grid_part().is_none_or(|part| (row + column) % GRID_PARTS == part)
}

/// The `grade` binary under test.
pub fn grade() -> Command {
    let mut grade = Command::cargo_bin("grade").expect("the grade binary is built");
    // On a GitHub runner the tests' own `grade` must not write workflow commands.
    grade.env_remove("GITHUB_ACTIONS");
    grade
}

/// Runs a command for its output and remembers what it printed on stderr and how it ended, so
/// that a test failing later, on any assertion, shows why the run went as it did (CI logs
/// otherwise show only the assertion). Use in place of `.output()`.
pub trait LoggedOutput {
    /// `.output()`, remembered for this test's failure message.
    fn logged_output(&mut self) -> std::io::Result<std::process::Output>;
}

impl LoggedOutput for std::process::Command {
    fn logged_output(&mut self) -> std::io::Result<std::process::Output> {
        let output = self.output();
        remember_run(format!("{self:?}"), &output);
        output
    }
}

impl LoggedOutput for Command {
    fn logged_output(&mut self) -> std::io::Result<std::process::Output> {
        let output = self.output();
        remember_run(format!("{self:?}"), &output);
        output
    }
}

/// How many of a test's latest runs a failure shows, and how much of each one's stderr.
const RUNS_SHOWN: usize = 3;
const STDERR_SHOWN: usize = 4000;

thread_local! {
    /// This test's latest runs (each test has a thread of its own, under cargo test and nextest).
    static RECENT_RUNS: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn remember_run(command: String, output: &std::io::Result<std::process::Output>) {
    install_failure_hook();
    let entry = match output {
        Ok(output) => {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let start = stderr
                .char_indices()
                .map(|(i, _)| i)
                .find(|&i| stderr.len() - i <= STDERR_SHOWN)
                .unwrap_or(stderr.len());
            format!(
                "{command}\n  ended: {}\n  stderr{}:\n{}",
                output.status,
                if start > 0 { " (its end)" } else { "" },
                &stderr[start..]
            )
        }
        Err(e) => format!("{command}\n  did not start: {e}"),
    };
    RECENT_RUNS.with(|runs| {
        let mut runs = runs.borrow_mut();
        runs.push(entry);
        let excess = runs.len().saturating_sub(RUNS_SHOWN);
        runs.drain(..excess);
    });
}

/// What a failing test prints after its panic message: its latest runs, oldest first.
pub fn recent_runs_report() -> String {
    RECENT_RUNS.with(|runs| {
        runs.borrow()
            .iter()
            .map(|run| format!("--- a command this test ran: {run}\n"))
            .collect()
    })
}

/// Chains a panic hook, once per test binary, that prints the panicking test's latest runs.
fn install_failure_hook() {
    static INSTALL: std::sync::Once = std::sync::Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            let report = recent_runs_report();
            if !report.is_empty() {
                eprintln!("{report}");
            }
        }));
    });
}

/// A world-readable (0755) directory that lives as long as this test process and is removed
/// when it exits: for programs compiled once and shared by a binary's tests (under nextest
/// every test is a process of its own, so a kept directory per process would pile up in /tmp).
pub fn process_temp_dir(prefix: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    static DIRS: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
    extern "C" fn remove_dirs() {
        let dirs = DIRS.lock().map(|d| d.clone()).unwrap_or_default();
        for dir in dirs {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .expect("temp dir")
        .keep();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let mut dirs = DIRS.lock().unwrap_or_else(|e| e.into_inner());
    if dirs.is_empty() {
        // SAFETY: remove_dirs is an extern "C" fn with no arguments that does not unwind.
        unsafe { libc::atexit(remove_dirs) };
    }
    dirs.push(dir.clone());
    dir
}

/// True when `tool` is on PATH. Otherwise the test is skipped with a message, except under
/// `CI=true`, where a missing toolchain is a failure.
pub fn have(tool: &str) -> bool {
    let found = std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(tool).is_file()));
    if !found {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("{tool} is required under CI=true but was not found on PATH");
        }
        eprintln!("skipped: {tool} not found");
    }
    found
}

/// The toolchain a program needs, from its extension (a folder: from the sources in it).
pub fn tools_for(program: &Path) -> &'static [&'static str] {
    let by_extension = |ext: &str| -> &'static [&'static str] {
        match ext {
            "py" => &["python3"],
            "c" => &["gcc"],
            "cpp" | "cc" => &["g++"],
            "java" => &["javac", "java"],
            "js" => &["node"],
            "rs" => &["rustc"],
            "go" => &["go"],
            "rb" => &["ruby"],
            "pl" => &["perl"],
            _ => &[],
        }
    };
    if program.join("Cargo.toml").is_file() {
        return &["cargo", "rustc"];
    }
    if program.is_dir() {
        let mut extensions: Vec<String> = walkdir::WalkDir::new(program)
            .into_iter()
            .filter_map(Result::ok)
            .filter_map(|e| {
                e.path()
                    .extension()
                    .map(|x| x.to_string_lossy().into_owned())
            })
            .collect();
        extensions.sort();
        // A folder's language is its first known one in the grader's order.
        for ext in ["java", "cpp", "cc", "c", "go", "rs", "py", "js", "rb", "pl"] {
            if extensions.iter().any(|e| e == ext) {
                return by_extension(ext);
            }
        }
        return &[];
    }
    by_extension(
        &program
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default(),
    )
}

/// A test program under tests/programs/.
pub fn program(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs")
        .join(relative)
}

/// Grades `submission` with the JSON report; returns the exit code and the parsed report.
pub fn grade_json(submission: &Path, assignment: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    grade_json_env(submission, assignment, extra, &[])
}

/// Grades `submission` against the instructor's assignment in `cases_root` (`--cases`), with
/// the JSON report: the exit code and the report.
pub fn grade_json_with_cases(
    submission: &Path,
    cases_root: &Path,
    extra: &[&str],
) -> (i32, serde_json::Value) {
    let output = grade()
        .arg(submission)
        .arg("--cases")
        .arg(cases_root)
        .args(["--format", "json"])
        .args(extra)
        .logged_output()
        .expect("grade runs");
    let code = output.status.code().unwrap_or(-1);
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report for {} ({e}); exit {code}\nstderr: {}",
            submission.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (code, report)
}

/// The case called `name` in a JSON report.
pub fn case_in<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no case {name} in {report:#}"))
}

/// [`grade_json`] with extra environment variables for the grader.
pub fn grade_json_env(
    submission: &Path,
    assignment: &str,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (i32, serde_json::Value) {
    let output = grade()
        .envs(env.iter().copied())
        .arg(submission)
        .args(["--assignment", assignment, "--format", "json"])
        .args(extra)
        .logged_output()
        .expect("grade runs");
    let code = output.status.code().unwrap_or(-1);
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "grade {} -a {assignment} {extra:?} did not print a JSON report ({e}); exit {code}\nstdout: {}\nstderr: {}",
            submission.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (code, report)
}

/// Grades `submission` with the text report; returns the exit code, stdout and stderr.
pub fn grade_output(submission: &Path, assignment: &str, extra: &[&str]) -> (i32, String, String) {
    let output = grade()
        .arg(submission)
        .args(["--assignment", assignment])
        .args(extra)
        .env("NO_COLOR", "1")
        .logged_output()
        .expect("grade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Grades `submission` with the text report; returns the exit code and the report text
/// (stdout, then stderr).
pub fn grade_text(submission: &Path, assignment: &str, extra: &[&str]) -> (i32, String) {
    let (code, stdout, stderr) = grade_output(submission, assignment, extra);
    (code, stdout + &stderr)
}

/// Names and scores of the cases that lost points, for assertion messages.
pub fn lost_points(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["score"].as_f64() < c["max_score"].as_f64())
        .map(|c| {
            let failed: Vec<String> = c["checks"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|k| k["passed"] == false)
                .map(|k| format!("{}: {}", k["name"], k["detail"]))
                .collect();
            format!(
                "{} ({}/{}): {}",
                c["name"],
                c["score"],
                c["max_score"],
                failed.join("; ")
            )
        })
        .collect()
}

/// A submission directory that runs the reference itself: a copy of the grade binary and a
/// `run` script calling `grade play` — "the reference, run as a student".
pub fn reference_as_student(assignment: &str, game_args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let binary = assert_cmd::cargo::cargo_bin("grade");
    std::fs::copy(&binary, dir.path().join("grade")).expect("copy the grade binary");
    let script = format!(
        "#!/bin/sh\nexec \"$(dirname \"$0\")/grade\" play {assignment} {} \"$@\"\n",
        game_args.join(" ")
    );
    let run = dir.path().join("run");
    std::fs::write(&run, script).expect("write run");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    dir
}

/// The handout-following programs written for the test suite (tests/programs/README.md),
/// each graded in full (random games too) and under `--strict` by tests/grading.rs; tests
/// that need no more than that program's full marks by default rely on it rather than grading
/// it again (tests/shapes.rs). Silver Dollar's are in tests/silver_dollar.rs.
pub const FULLY_GRADED_CORRECT: [(&str, &str); 28] = [
    ("nim", "nim/correct_getline.cpp"),
    ("nim", "nim/correct_readline.js"),
    ("nim", "nim/correct.rs"),
    ("nim", "nim/rust_crate"),
    ("nim", "nim/correct.rb"),
    ("nim", "nim/correct.pl"),
    ("nim", "nim/split_cpp"),
    ("nim", "nim/split_python"),
    ("collect", "collect/correct_go"),
    ("collect", "collect/assignment3_folder"),
    ("nim", "nim/correct_cin_loop.cpp"),
    ("nim", "nim/correct_fastio.cpp"),
    ("nim", "nim/correct_c.c"),
    ("m", "m/correct_plain.py"),
    ("m", "m/correct_boxes.py"),
    // Error messages in their own words, terse ("11?!") or in German: the wording is free.
    ("m", "m/correct_own_words.py"),
    ("m", "m/correct_terse.py"),
    ("collect", "collect/correct_plain.py"),
    ("collect", "collect/correct_recursive.py"),
    ("collect", "collect/correct_java"),
    ("collect", "collect/correct_negative_message.py"),
    ("collect", "collect/correct_own_words.py"),
    ("connect6", "connect6/correct_getline.cpp"),
    ("connect6", "connect6/correct_tokens.cpp"),
    ("connect6", "connect6/correct_boxed.cpp"),
    // Issue 20: real students' styles (token streams, helpers, line-clearing loops, recursion).
    ("m", "m/correct_token_stream.py"),
    ("nim", "nim/correct_scanf_classes.cpp"),
    ("connect6", "connect6/correct_recursive.cpp"),
];
