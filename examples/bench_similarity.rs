//! Benchmark: `grade similarity` on a class of 30 submissions.
//!
//! `cargo run --release --example bench_similarity [RUNS]` builds a class of 30 C++ submissions
//! in a temporary directory from the C++ test programs (tests/programs/nim, connect6,
//! requirements, similarity; past those, renamed copies of them, as a class with copies in it
//! would have), then times the whole comparison — reading, parsing, fingerprinting and every
//! pair — and the `grade similarity` command end to end (default 5 runs each). Prints medians;
//! see docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const CLASS: usize = 30;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

/// The C++ test programs, sorted.
fn sources(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in ["nim", "connect6", "requirements", "similarity"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else {
            continue;
        };
        found.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "cpp")),
        );
    }
    found.sort();
    found
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let pool = sources(&root);
    assert!(
        !pool.is_empty(),
        "no C++ test programs under {}",
        root.display()
    );
    let class = tempfile::tempdir().expect("tempdir");
    let mut submissions = Vec::new();
    let mut lines = 0;
    for index in 0..CLASS {
        let source = &pool[index % pool.len()];
        let mut text = std::fs::read_to_string(source).expect("read");
        if index >= pool.len() {
            // A copy with its names changed: what the comparison must see through.
            text = text
                .replace("board", "grid")
                .replace("matches", "sticks")
                .replace("move", "step");
        }
        lines += text.lines().count();
        let dir = class.path().join(format!("student{index:02}"));
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("main.cpp"), text).expect("write");
        submissions.push(dir);
    }
    println!("{CLASS} C++ submissions, {lines} lines in all, {runs} runs each\n");

    let mut library = Vec::new();
    let mut pairs = 0;
    for _ in 0..runs {
        let started = Instant::now();
        let result =
            grade::analyze::similarity::compare("nim", &submissions, &[]).expect("compares");
        library.push(started.elapsed());
        pairs = result.pairs.len();
    }
    let binary = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/release/grade");
    let binary = std::env::var_os("CARGO_TARGET_DIR")
        .map(|d| PathBuf::from(d).join("release/grade"))
        .filter(|p| p.exists())
        .unwrap_or(binary);
    let mut command_times = Vec::new();
    if binary.exists() {
        for _ in 0..runs {
            let started = Instant::now();
            let output = Command::new(&binary)
                .arg("similarity")
                .args(&submissions)
                .args(["-a", "nim", "--format", "json"])
                .output()
                .expect("grade runs");
            command_times.push(started.elapsed());
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }
    println!("| what | median |");
    println!("|---|---|");
    println!("| compare() ({pairs} pairs) | {} |", ms(median(library)));
    if command_times.is_empty() {
        println!("| grade similarity (JSON) | not measured: build it with cargo build --release |");
    } else {
        println!(
            "| grade similarity (JSON), end to end | {} |",
            ms(median(command_times))
        );
    }
}
