//! `grade explore` against every buggy program in tests/programs/ (nim, m, connect6, collect):
//! the time to find and shrink each bug, and the length of the shrunk input.
//!
//! `cargo run --release --example bench_explore [SEED]` (default seed 1) prints a markdown
//! table and the median shrunk length; results in docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::path::Path;
use std::process::Command;
use std::time::Instant;

fn main() {
    let seed = std::env::args().nth(1).unwrap_or_else(|| "1".into());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let grade = root.join("target/release/grade");
    assert!(
        grade.exists(),
        "build the grader first: cargo build --release"
    );
    let mut shrunk_lengths = Vec::new();
    println!("| program | found in game | lines before → after shrinking | time |");
    println!("|---|---|---|---|");
    for assignment in ["nim", "m", "connect6", "collect", "silver_dollar"] {
        let dir = root.join("tests/programs").join(assignment);
        let mut programs: Vec<_> = std::fs::read_dir(&dir)
            .expect("programs")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("buggy_"))
            })
            .collect();
        programs.sort();
        for program in programs {
            let start = Instant::now();
            let out = Command::new(&grade)
                .arg("explore")
                .arg(&program)
                .args(["-a", assignment, "--seed", &seed, "--format", "json"])
                .args(["--shrink-time", "8s"])
                .output()
                .expect("grade explore runs");
            let took = start.elapsed();
            let json: serde_json::Value =
                serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
            let name = program
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let finding = &json["finding"];
            if finding.is_null() {
                println!(
                    "| {assignment}/{name} | not found | — | {:.1} s |",
                    took.as_secs_f64()
                );
                continue;
            }
            let after = finding["input"].as_array().map_or(0, Vec::len);
            shrunk_lengths.push(after);
            println!(
                "| {assignment}/{name} | {} | {} → {after} | {:.1} s |",
                finding["game"],
                finding["original_lines"],
                took.as_secs_f64()
            );
        }
    }
    shrunk_lengths.sort();
    if let Some(median) = shrunk_lengths.get(shrunk_lengths.len() / 2) {
        println!(
            "\nmedian shrunk input: {median} line(s) over {} bugs",
            shrunk_lengths.len()
        );
    }
}
