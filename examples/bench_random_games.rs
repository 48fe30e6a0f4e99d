//! Benchmark: what the random-games case adds to a grading (issue 19).
//!
//! `cargo build --release && cargo run --release --example bench_random_games [RUNS]` grades
//! a C++ and a Python submission of each assignment that has a random-games case with the
//! built-in cases, with the case (`grade SUB -a NAME`) and without it (`--no-explore`),
//! interleaved, RUNS times each (default 5), with a warm build cache (the first grading of each
//! workload fills it and is not counted), and prints a markdown table of medians and their
//! ratio. Both sides use all cores (the default `--jobs`), as a grading does.
//! `BENCH_GRADE=PATH` measures another `grade` binary. Results go into docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// One grading's wall time.
fn grade_once(grade: &Path, args: &[String], cache: &Path) -> Duration {
    let started = Instant::now();
    let status = Command::new(grade)
        .args(args)
        .env("XDG_CACHE_HOME", cache)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("grade runs");
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "grade {args:?} failed"
    );
    started.elapsed()
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5)
        .max(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let grade = std::env::var_os("BENCH_GRADE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/grade"));
    assert!(
        grade.exists(),
        "build the grader first: cargo build --release"
    );
    let cache = tempfile::tempdir().expect("a cache directory");
    let workloads = [
        ("C++ nim", "nim", "nim/correct_getline.cpp"),
        ("C++ connect6", "connect6", "connect6/correct_getline.cpp"),
        ("Python nim (folder)", "nim", "nim/split_python"),
        ("Python m", "m", "m/correct_plain.py"),
        ("Python collect", "collect", "collect/correct_plain.py"),
        (
            "Python silver_dollar",
            "silver_dollar",
            "silver_dollar/correct_python.py",
        ),
        (
            "Java silver_dollar",
            "silver_dollar",
            "silver_dollar/correct_plain",
        ),
    ];
    println!(
        "load average at start: {} ({} cores)",
        load_average(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    println!("| grading | without random games | with | ratio |");
    println!("|---|---|---|---|");
    for (label, assignment, relative) in &workloads {
        let submission = root.join("tests/programs").join(relative);
        let with: Vec<String> = vec![
            submission.display().to_string(),
            "-a".into(),
            (*assignment).into(),
            "--format".into(),
            "json".into(),
        ];
        let mut without = with.clone();
        without.push("--no-explore".into());
        // Warm-up: fills the build cache.
        grade_once(&grade, &with, cache.path());
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            a.push(grade_once(&grade, &without, cache.path()));
            b.push(grade_once(&grade, &with, cache.path()));
        }
        let (a, b) = (median(a), median(b));
        println!(
            "| {label} | {:.0} ms | {:.0} ms | {:.2}× |",
            a.as_secs_f64() * 1000.0,
            b.as_secs_f64() * 1000.0,
            b.as_secs_f64() / a.as_secs_f64()
        );
    }
    println!("load average at the end: {}", load_average());
}
