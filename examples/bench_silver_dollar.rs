//! Silver Dollar's grades are deterministic: every correct Java program in tests/programs/ is
//! graded many times and must never lose a point, whatever random strips it draws.
//!
//! `cargo run --release --example bench_silver_dollar [GRADINGS]` (default 50 per program)
//! prints, per program, the gradings with full marks and the median time of a grading; it
//! exits 1 if any grading lost a point. Results in docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn main() {
    let gradings: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(50);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let grade = root.join("target/release/grade");
    assert!(
        grade.exists(),
        "build the grader first: cargo build --release"
    );
    let programs = [
        "correct_plain",
        "correct_boxes",
        "correct_padded",
        "correct_shrinking",
        "correct_list_blank_cells",
        "correct_test_main",
        "correct_bonus_class",
    ];
    let mut all_full = true;
    println!("| program | gradings with full marks | median time per grading |");
    println!("|---|---|---|");
    for name in programs {
        let path = root.join("tests/programs/silver_dollar").join(name);
        let mut times: Vec<Duration> = Vec::new();
        let mut full = 0;
        for _ in 0..gradings {
            let start = Instant::now();
            let out = Command::new(&grade)
                .arg(&path)
                .args(["-a", "silver_dollar", "--format", "json"])
                .output()
                .expect("grade runs");
            times.push(start.elapsed());
            if out.status.code() == Some(0) {
                full += 1;
            } else {
                all_full = false;
                eprintln!(
                    "{name} lost points:\n{}",
                    String::from_utf8_lossy(&out.stdout)
                );
            }
        }
        times.sort();
        println!(
            "| {name} | {full}/{gradings} | {:.2} s |",
            times[times.len() / 2].as_secs_f64()
        );
    }
    std::process::exit(if all_full { 0 } else { 1 });
}
