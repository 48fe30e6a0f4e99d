//! Benchmark: the runner against the floor (the same program, all input piped at once).
//!
//! `cargo run --release --example bench_runner [RUNS]` compiles a C++, a Python and a Java
//! ten-prompt echo loop, runs each RUNS times (default 30) both ways, and prints a markdown
//! table of medians. See docs/performance.md.
//!
//! `BENCH_WITHOUT=rootfs` (any `GRADE_DISABLE` list) adds a column: the runner with those
//! layers off, interleaved with the other two in the same process (the per-run cost of a layer
//! measured under the same load).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grade::run::{run, EndOfInput, Ending, Limits, RunSpec};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn floor_once(cmd: &[String], input: &str) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(&cmd[0])
        .args(&cmd[1..])
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    start.elapsed()
}

fn runner_once(cmd: &[String], lines: &[String], readable: &Path) -> Duration {
    let spec = RunSpec {
        command: cmd.to_vec(),
        files: Vec::new(),
        readable: vec![readable.to_path_buf()],
        env: Vec::new(),
        input: lines.to_vec(),
        end_of_input: EndOfInput::Stop,
        limits: Limits::default(),
        terminal: false,
        workdir: None,
    };
    let start = Instant::now();
    let outcome = run(&spec).expect("run");
    let took = start.elapsed();
    assert_eq!(
        outcome.ending,
        Ending::Exited(0),
        "{:?}",
        outcome.transcript
    );
    assert_eq!(outcome.transcript.input_count(), 10);
    took
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(30);
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs/runner");
    let dir: PathBuf = tempfile::Builder::new()
        .prefix("grade-bench-")
        .tempdir()
        .expect("tempdir")
        .keep();
    std::fs::set_permissions(&dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let ok = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(dir.join("echo_loop"))
        .arg(src.join("echo_loop.cpp"))
        .status()
        .expect("g++")
        .success();
    assert!(ok);
    std::fs::copy(src.join("echo_loop.py"), dir.join("echo_loop.py")).expect("copy");
    let ok = Command::new("javac")
        .arg("-d")
        .arg(&dir)
        .arg(src.join("EchoLoop.java"))
        .status()
        .expect("javac")
        .success();
    assert!(ok);
    let d = dir.display().to_string();
    let programs: Vec<(&str, Vec<String>)> = vec![
        ("C++ (g++ -O2)", vec![format!("{d}/echo_loop")]),
        (
            "Python 3.11",
            vec!["/usr/bin/python3".into(), format!("{d}/echo_loop.py")],
        ),
        (
            "Java 17",
            vec![
                "java".into(),
                "-XX:+UseSerialGC".into(),
                "-XX:TieredStopAtLevel=1".into(),
                "-cp".into(),
                d.clone(),
                "EchoLoop".into(),
            ],
        ),
    ];
    let lines: Vec<String> = (0..10).map(|i| format!("line {i}")).collect();
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let without = std::env::var("BENCH_WITHOUT").ok();
    match &without {
        Some(off) => {
            println!(
                "| program | floor (piped at once) | runner (seccomp, sandboxed) | ratio | runner, GRADE_DISABLE={off} |"
            );
            println!("|---|---|---|---|---|");
        }
        None => {
            println!("| program | floor (piped at once) | runner (seccomp, sandboxed) | ratio |");
            println!("|---|---|---|---|");
        }
    }
    for (name, cmd) in programs {
        // Warm up caches once each.
        floor_once(&cmd, &input);
        runner_once(&cmd, &lines, &dir);
        let mut floor = Vec::new();
        let mut runner = Vec::new();
        let mut runner_without = Vec::new();
        for _ in 0..runs {
            floor.push(floor_once(&cmd, &input));
            runner.push(runner_once(&cmd, &lines, &dir));
            if let Some(off) = &without {
                std::env::set_var("GRADE_DISABLE", off);
                runner_without.push(runner_once(&cmd, &lines, &dir));
                std::env::remove_var("GRADE_DISABLE");
            }
        }
        if std::env::var_os("BENCH_VERBOSE").is_some() {
            let ms = |v: &[Duration]| {
                let mut v: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
                v.sort_by(f64::total_cmp);
                v.iter()
                    .map(|x| format!("{x:.1}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            eprintln!("{name} floor: {}", ms(&floor));
            eprintln!("{name} runner: {}", ms(&runner));
        }
        let (f, r) = (median(floor), median(runner));
        let extra = if runner_without.is_empty() {
            String::new()
        } else {
            format!(" {:.2} ms |", median(runner_without).as_secs_f64() * 1e3)
        };
        println!(
            "| {name} | {:.2} ms | {:.2} ms | {:.2}× |{extra}",
            f.as_secs_f64() * 1e3,
            r.as_secs_f64() * 1e3,
            r.as_secs_f64() / f.as_secs_f64()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
