//! Stress: input ordering for programs that wait for stdin in select/poll/epoll, under CPU
//! contention.
//!
//! `cargo run --release --example stress_waits [RUNS] [PROMPTS]` runs each echo program of
//! tests/programs/runner/ (Node readline, Python asyncio, C select and poll with and without
//! timeouts, C epoll, and plain blocking reads for comparison) RUNS times (default 10) with PROMPTS lines (default 1000)
//! while two busy threads per core compete for the CPU, and counts misplaced echoes: an
//! input whose preceding output does not end with its own prompt, or a transcript that
//! differs from the expected one. Prints a markdown table; see docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use grade::run::{run, EndOfInput, Ending, Limits, RunSpec};
use grade::transcript::Event;

/// Inputs whose preceding output does not end with their prompt (`Line i? `).
fn misplaced(events: &[Event]) -> usize {
    let mut since_input = Vec::new();
    let mut index = 0;
    let mut bad = 0;
    for event in events {
        match event {
            Event::Output { bytes, .. } => since_input.extend_from_slice(bytes),
            Event::Input { .. } => {
                if !since_input.ends_with(format!("Line {index}? ").as_bytes()) {
                    bad += 1;
                }
                index += 1;
                since_input.clear();
            }
            Event::InputClosed => {}
        }
    }
    bad
}

/// The echo programs' transcript for `lines`.
fn expected(lines: &[String]) -> String {
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        text += &format!("Line {i}? {line}\nYou said {line}\n");
    }
    text + &format!("Line {}? Bye\n", lines.len())
}

struct Sample {
    wall: Duration,
    misplaced: usize,
}

fn run_once(cmd: &[String], lines: &[String], readable: &Path) -> Sample {
    let spec = RunSpec {
        command: cmd.to_vec(),
        files: Vec::new(),
        readable: vec![readable.to_path_buf()],
        env: Vec::new(),
        input: lines.to_vec(),
        end_of_input: EndOfInput::Close,
        limits: Limits {
            wall: Duration::from_secs(120),
            cpu: Duration::from_secs(120),
            ..Limits::default()
        },
        terminal: false,
        workdir: None,
    };
    let start = Instant::now();
    let outcome = run(&spec).expect("run");
    let wall = start.elapsed();
    assert_eq!(outcome.ending, Ending::Exited(0), "{:?}", cmd);
    let mut bad = misplaced(outcome.transcript.events());
    if outcome.transcript.terminal_text() != expected(lines) || outcome.unread_inputs != 0 {
        bad = bad.max(1);
    }
    Sample {
        wall,
        misplaced: bad,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    let prompts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/runner");
    let dir: PathBuf = tempfile::Builder::new()
        .prefix("grade-stress-")
        .tempdir()
        .expect("tempdir")
        .keep();
    std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let ok = Command::new("gcc")
        .args(["-O2", "-o"])
        .arg(dir.join("wait_echo"))
        .arg(src.join("wait_echo.c"))
        .status()
        .expect("gcc")
        .success();
    assert!(ok);
    for file in ["echo_readline.js", "echo_asyncio.py"] {
        std::fs::copy(src.join(file), dir.join(file)).expect("copy");
    }
    let d = dir.display().to_string();
    let programs: Vec<(&str, Vec<String>)> = vec![
        (
            "Node readline (epoll_wait)",
            vec!["node".into(), format!("{d}/echo_readline.js")],
        ),
        (
            "Python asyncio (epoll_wait)",
            vec!["/usr/bin/python3".into(), format!("{d}/echo_asyncio.py")],
        ),
        (
            "C select, no timeout",
            vec![format!("{d}/wait_echo"), "select".into(), "-1".into()],
        ),
        (
            "C select, 100 ms timeouts",
            vec![format!("{d}/wait_echo"), "select".into(), "100".into()],
        ),
        (
            "C epoll_wait, no timeout",
            vec![format!("{d}/wait_echo"), "epoll_wait".into(), "-1".into()],
        ),
        (
            "C blocking read (for comparison)",
            vec![format!("{d}/wait_echo"), "read".into(), "-1".into()],
        ),
        (
            "C poll, 100 ms timeouts",
            vec![format!("{d}/wait_echo"), "poll".into(), "100".into()],
        ),
    ];
    let lines: Vec<String> = (0..prompts).map(|i| format!("line {i}")).collect();

    // Contention: two spinning threads per core for the whole measurement.
    let stop = Arc::new(AtomicBool::new(false));
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let hogs: Vec<_> = (0..2 * cores)
        .map(|_| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut n = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    n = std::hint::black_box(n.wrapping_add(1));
                }
            })
        })
        .collect();

    println!("| program | runs × prompts | misplaced echoes | median run | per input line |");
    println!("|---|---|---|---|---|");
    for (name, cmd) in programs {
        let samples: Vec<Sample> = (0..runs).map(|_| run_once(&cmd, &lines, &dir)).collect();
        let bad: usize = samples.iter().map(|s| s.misplaced).sum();
        let mut walls: Vec<Duration> = samples.iter().map(|s| s.wall).collect();
        walls.sort();
        let median = walls[walls.len() / 2];
        println!(
            "| {name} | {runs} × {prompts} | {bad} | {:.0} ms | {:.0} µs |",
            median.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e6 / prompts as f64
        );
    }
    stop.store(true, Ordering::Relaxed);
    for hog in hogs {
        let _ = hog.join();
    }
    let _ = std::fs::remove_dir_all(&dir);
}
