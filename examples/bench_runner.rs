//! Benchmark: the runner against the floor (the same program, all input piped at once).
//!
//! `cargo run --release --example bench_runner [RUNS] [LABEL]` compiles a C++, a Python and a Java
//! ten-prompt echo loop, runs each RUNS times (default 30) both ways, and prints a markdown
//! table of medians. See docs/performance.md.
//!
//! `BENCH_WITHOUT=rootfs` (any `GRADE_DISABLE` list) adds a column: the runner with those
//! layers off, interleaved with the other two in the same process (the per-run cost of a layer
//! measured under the same load). `BENCH_ENV=NAME=VALUE` does the same with that variable set
//! (`GRADE_PREPARED_ETC=0`: the run's `/etc` mounted entry by entry, as before).
//!
//! Every figure is given as wall time and as CPU time (user + system of the process and of its
//! reaped children, over the run): CPU time moves much less with the machine's load. The load
//! average is printed before and after.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grade::run::{run, EndOfInput, Ending, Limits, RunSpec};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// User + system time of this process and its reaped children so far.
fn cpu_now() -> Duration {
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    let mut total = Duration::ZERO;
    for who in [libc::RUSAGE_SELF, libc::RUSAGE_CHILDREN] {
        // SAFETY: getrusage fills the struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(who, &mut usage) };
        total += tv(usage.ru_utime) + tv(usage.ru_stime);
    }
    total
}

/// Wall and CPU time of `f`.
fn timed(f: impl FnOnce() -> Duration) -> (Duration, Duration) {
    let cpu = cpu_now();
    let wall = f();
    (wall, cpu_now().saturating_sub(cpu))
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
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
    let variant_env = std::env::var("BENCH_ENV").ok().and_then(|v| {
        v.split_once('=')
            .map(|(k, v)| (k.to_string(), v.to_string()))
    });
    let variant = match (&without, &variant_env) {
        (Some(off), _) => Some(format!("GRADE_DISABLE={off}")),
        (None, Some((k, v))) => Some(format!("{k}={v}")),
        (None, None) => None,
    };
    let set_variant = |on: bool| match (&without, &variant_env) {
        (Some(off), _) if on => std::env::set_var("GRADE_DISABLE", off),
        (Some(_), _) => std::env::remove_var("GRADE_DISABLE"),
        (None, Some((k, v))) if on => std::env::set_var(k, v),
        (None, Some((k, _))) => std::env::remove_var(k),
        (None, None) => {}
    };
    println!("load average before: {}", load_average());
    match &variant {
        Some(variant) => {
            println!(
                "| program | floor wall | floor CPU | runner wall | runner CPU | ratio (wall) | runner, {variant}: wall | CPU |"
            );
            println!("|---|---|---|---|---|---|---|---|");
        }
        None => {
            println!(
                "| program | floor wall | floor CPU | runner wall | runner CPU | ratio (wall) |"
            );
            println!("|---|---|---|---|---|---|");
        }
    }
    // A second argument runs only the programs whose label contains it (`C++`, `Python`).
    let only = std::env::args().nth(2);
    for (name, cmd) in programs {
        if only.as_deref().is_some_and(|o| !name.contains(o)) {
            continue;
        }
        // Warm up caches once each.
        floor_once(&cmd, &input);
        runner_once(&cmd, &lines, &dir);
        if variant.is_some() {
            set_variant(true);
            runner_once(&cmd, &lines, &dir);
            set_variant(false);
        }
        let (mut floor, mut floor_cpu) = (Vec::new(), Vec::new());
        let (mut runner, mut runner_cpu) = (Vec::new(), Vec::new());
        let (mut other, mut other_cpu) = (Vec::new(), Vec::new());
        for _ in 0..runs {
            let (w, c) = timed(|| floor_once(&cmd, &input));
            floor.push(w);
            floor_cpu.push(c);
            let (w, c) = timed(|| runner_once(&cmd, &lines, &dir));
            runner.push(w);
            runner_cpu.push(c);
            if variant.is_some() {
                set_variant(true);
                let (w, c) = timed(|| runner_once(&cmd, &lines, &dir));
                set_variant(false);
                other.push(w);
                other_cpu.push(c);
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
            if !other.is_empty() {
                eprintln!("{name} variant: {}", ms(&other));
            }
        }
        let ms = |d: Duration| format!("{:.2} ms", d.as_secs_f64() * 1e3);
        let (f, r) = (median(floor), median(runner));
        let extra = if other.is_empty() {
            String::new()
        } else {
            format!(" {} | {} |", ms(median(other)), ms(median(other_cpu)))
        };
        println!(
            "| {name} | {} | {} | {} | {} | {:.2}× |{extra}",
            ms(f),
            ms(median(floor_cpu)),
            ms(r),
            ms(median(runner_cpu)),
            r.as_secs_f64() / f.as_secs_f64()
        );
    }
    println!("load average after: {}", load_average());
    let _ = std::fs::remove_dir_all(&dir);
}
