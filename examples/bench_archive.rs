//! Benchmark: how fast an archive bomb of folders is refused (issue 21, attack 8).
//!
//! `cargo run --release --example bench_archive [RUNS]` writes a zip of 50 000 empty folders
//! (4.4 MB) in a temporary directory, then times `grade BOMB.zip -a nim` end to end (default 5
//! runs; set `BENCH_GRADE` to time another build of grade) and the library's unpack alone.
//! Prints medians; see docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::process::Command;
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let dir = tempfile::tempdir().expect("tempdir");
    let bomb = dir.path().join("bomb.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&bomb).expect("create"));
    for i in 0..50_000 {
        zip.add_directory(format!("d{i}/"), zip::write::SimpleFileOptions::default())
            .expect("folder");
    }
    zip.finish().expect("zip");
    let size = std::fs::metadata(&bomb).map_or(0, |m| m.len());
    println!("bomb: 50000 folders, {:.1} MB", size as f64 / 1e6);

    let grade = std::env::var_os("BENCH_GRADE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            let exe = std::env::current_exe().expect("exe");
            exe.parent()
                .and_then(|p| p.parent())
                .expect("target dir")
                .join("grade")
        });
    let mut whole = Vec::new();
    for _ in 0..runs {
        let start = Instant::now();
        let out = Command::new(&grade)
            .arg(&bomb)
            .args(["-a", "nim"])
            .output()
            .expect("grade runs");
        whole.push(start.elapsed());
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut unpack = Vec::new();
    for _ in 0..runs {
        let into = tempfile::tempdir().expect("tempdir");
        let start = Instant::now();
        let refused = grade::submission::archive::unpack(
            &bomb,
            grade::submission::archive::Format::Zip,
            into.path(),
            grade::submission::ARCHIVE_CAPS,
        );
        unpack.push(start.elapsed());
        assert!(refused.is_err(), "the bomb must be refused");
    }
    println!(
        "grade BOMB.zip -a nim: {:.0} ms (median of {runs}); unpack alone: {:.0} ms",
        median(whole).as_secs_f64() * 1000.0,
        median(unpack).as_secs_f64() * 1000.0
    );
}
