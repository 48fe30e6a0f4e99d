//! Benchmark: the whole `grade` command against the floor of grading by hand.
//!
//! `cargo run --release --example bench_grade [RUNS]` grades three submissions from
//! tests/programs/ with the built-in cases (default 10 runs each, `--jobs 1` so both sides use
//! one core) and compares with the floor: the same build command once, then every case's
//! input piped at once to the program in a plain loop, one case after another (a case of many
//! runs as many times; a driven case with the stored reference game's lines), with the case's
//! files in a temporary directory. Prints a markdown table of medians; see
//! docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grade::assignments::Assignment;
use grade::cases::{self, CaseTree};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// Builds the submission by hand the way `grade` does; returns the command to run it.
fn build(source: &Path, out: &Path) -> Vec<String> {
    let ext = source.extension().and_then(|e| e.to_str()).unwrap_or("");
    let status = |cmd: &mut Command| {
        let s = cmd.status().expect("build tool runs");
        assert!(s.success(), "build failed");
    };
    match ext {
        "cpp" => {
            let bin = out.join("program");
            status(
                Command::new("g++")
                    .arg("-O2")
                    .arg("-o")
                    .arg(&bin)
                    .arg(source),
            );
            vec![bin.display().to_string()]
        }
        "py" => vec!["/usr/bin/python3".into(), source.display().to_string()],
        _ => {
            let classes = out.join("classes");
            let sources: Vec<PathBuf> = std::fs::read_dir(source)
                .expect("java dir")
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "java"))
                .collect();
            status(Command::new("javac").arg("-d").arg(&classes).args(&sources));
            let main = sources
                .iter()
                .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("static void main")))
                .and_then(|p| p.file_stem())
                .map(|s| s.to_string_lossy().into_owned())
                .expect("a main class");
            vec![
                "java".into(),
                "-XX:+UseSerialGC".into(),
                "-XX:TieredStopAtLevel=1".into(),
                "-cp".into(),
                classes.display().to_string(),
                main,
            ]
        }
    }
}

/// The floor: build once, then pipe each case's input to the program, one case at a time.
fn floor_once(source: &Path, assignment: Assignment) -> Duration {
    let set = cases::load(&CaseTree::built_in(), assignment).expect("built-in cases");
    let start = Instant::now();
    let out = tempfile::tempdir().expect("tempdir");
    let command = build(source, out.path());
    for case in set.cases.iter().filter(|c| !c.robustness) {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, bytes) in &case.files {
            std::fs::write(dir.path().join(name), bytes).expect("write case file");
        }
        // A driven case's lines depend on the program's strip: pipe the lines of the stored
        // reference game instead (a game of the same kind and length).
        let lines: Vec<String> = if case.input.is_empty() {
            case.record_reference()
                .expect("a built-in reference plays")
                .transcript
                .inputs()
                .map(String::from)
                .collect()
        } else {
            case.input.clone()
        };
        let mut input = lines.join("\n");
        input.push('\n');
        for _ in 0..case.samples {
            let mut child = Command::new(&command[0])
                .args(&command[1..])
                .args(&case.args)
                .current_dir(dir.path())
                .env_clear()
                .env("PATH", "/usr/local/bin:/usr/bin:/bin")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn");
            if let Some(mut stdin) = child.stdin.take() {
                let _ = stdin.write_all(input.as_bytes());
            }
            let _ = child.wait_with_output();
        }
    }
    start.elapsed()
}

fn grade_once(grade: &Path, source: &Path, assignment: Assignment) -> Duration {
    let start = Instant::now();
    let out = Command::new(grade)
        .arg(source)
        .args(["-a", assignment.name(), "--jobs", "1", "--format", "json"])
        .output()
        .expect("grade runs");
    let took = start.elapsed();
    assert!(
        out.status.code() == Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    took
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let grade = root.join("target/release/grade");
    assert!(
        grade.exists(),
        "build the grader first: cargo build --release"
    );
    let subjects = [
        (
            "C++ nim",
            "tests/programs/nim/correct_getline.cpp",
            grade::assignments::nim::ASSIGNMENT,
        ),
        (
            "Python collect",
            "tests/programs/collect/correct_plain.py",
            grade::assignments::collect::ASSIGNMENT,
        ),
        (
            "Java silver_dollar",
            "tests/programs/silver_dollar/correct_plain",
            grade::assignments::silver_dollar::ASSIGNMENT,
        ),
    ];
    println!("| submission | cases | floor (build + piped runs) | grade --jobs 1 | ratio |");
    println!("|---|---|---|---|---|");
    for (label, relative, assignment) in subjects {
        let source = root.join(relative);
        let set = cases::load(&CaseTree::built_in(), assignment).expect("cases");
        let count = set.cases.iter().filter(|c| !c.robustness).count();
        let mut floor = Vec::new();
        let mut graded = Vec::new();
        for _ in 0..runs {
            floor.push(floor_once(&source, assignment));
            graded.push(grade_once(&grade, &source, assignment));
        }
        let (f, g) = (median(floor), median(graded));
        println!(
            "| {label} | {count} | {} | {} | {:.2}× |",
            ms(f),
            ms(g),
            g.as_secs_f64() / f.as_secs_f64()
        );
    }
}
