//! A class graded in parts on a batch engine (docs/scale.md): `grade gradebook merge` refuses,
//! naming the part, what would make the merged gradebook wrong — a missing part, students an
//! interruption left ungraded, other options, another course seed, a weaker sandbox — and
//! each `--allow-…` turns its refusal into a warning; a class resumed on another node says
//! "graded elsewhere; regrading", not that its results were edited; SIGTERM sent twice (as
//! Slurm's time limit does) still leaves the gradebook written. Last, the doc's Slurm array on
//! a one-node cluster (scripts/test-slurm), where Slurm is installed.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

use support::*;

/// Three students, one in each part of `--shard K/3` (the split is FNV-1a of the name mod 3,
/// worked by hand: cy → part 1, hal → part 2, ana → part 3), each with a file of their own.
fn class(dir: &Path) -> Vec<PathBuf> {
    ["cy", "hal", "ana"]
        .iter()
        .map(|name| {
            let folder = dir.join("class").join(name);
            std::fs::create_dir_all(&folder).expect("mkdir");
            let file = folder.join("nim.cpp");
            let source = std::fs::read_to_string(program("nim/correct_getline.cpp")).expect("read");
            std::fs::write(&file, format!("{source}\n// {name}\n")).expect("write");
            file
        })
        .collect()
}

/// Grades part `k` of 3 into `out` with `extra` options (and environment `env`).
fn part(files: &[PathBuf], out: &Path, k: u32, extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = grade();
    command
        .args(files)
        .args([
            "-a",
            "nim",
            "--case",
            "error-more-than-three",
            "--no-sanitize",
            "--shard",
        ])
        .arg(format!("{k}/3"))
        .arg("--output-dir")
        .arg(out)
        .args(extra);
    for (name, value) in env {
        command.env(name, value);
    }
    let output = command.logged_output().expect("grade runs");
    // 1 when --strict takes points for the transcript's blank lines.
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "part {k}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// `grade gradebook merge PARTS… -o OUT` with `extra` options.
fn merge(parts: &[&Path], out: &Path, extra: &[&str]) -> (Option<i32>, String, String) {
    let output = grade()
        .args(["gradebook", "merge"])
        .args(parts)
        .arg("-o")
        .arg(out)
        .args(extra)
        .logged_output()
        .expect("grade runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Asserts the merge of `parts` is refused with a message naming `named` and saying `says`,
/// writes nothing, and with `allow` merges `students` students with a warning saying the same.
fn refused_then_allowed(
    parts: &[&Path],
    dir: &Path,
    named: &str,
    says: &str,
    allow: &str,
    students: usize,
) {
    static MERGES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MERGES.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let out = dir.join(format!("merged-{n}{allow}.csv"));
    let (code, _, stderr) = merge(parts, &out, &[]);
    assert_eq!(code, Some(2), "{allow}: not refused\n{stderr}");
    assert!(
        stderr.contains(named) && stderr.contains(says) && stderr.contains(allow),
        "{allow}: the refusal does not name {named} / say {says}:\n{stderr}"
    );
    assert!(
        !out.exists(),
        "{allow}: a refused merge wrote {}",
        out.display()
    );
    let (code, stdout, stderr) = merge(parts, &out, &[allow]);
    assert_eq!(code, Some(0), "{allow}: still refused\n{stderr}");
    assert!(
        stderr.contains("grade: warning:") && stderr.contains(named) && stderr.contains(says),
        "{allow}: no warning naming {named}:\n{stderr}"
    );
    assert!(
        stdout.contains(&format!("{students} student(s)")),
        "{allow}: {stdout}"
    );
}

#[test]
fn merge_refuses_each_part_graded_wrong_and_allow_turns_it_into_a_warning() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path());
    let parts: Vec<PathBuf> = (1..=3)
        .map(|k| {
            let out = dir.path().join(format!("part-{k}"));
            part(&files, &out, k, &[], &[]);
            out
        })
        .collect();
    let [one, two, three] = [&parts[0], &parts[1], &parts[2]].map(PathBuf::as_path);
    // All three, graded alike: merged with no warning.
    let (code, stdout, stderr) = merge(
        &[one, two, three],
        &dir.path().join("all.csv"),
        &["--expect", "3"],
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert!(
        stdout.contains("3 student(s)") && !stderr.contains("warning"),
        "{stdout}{stderr}"
    );

    // A missing part: --expect 3 with two, naming the shard none of them graded.
    refused_then_allowed(
        &[one, three],
        dir.path(),
        "shard 2/3 missing",
        "3 parts expected, 2 found",
        "--allow-missing",
        2,
    );
    // ... also without --expect, from the parts' own shards (K/3).
    let (code, _, stderr) = merge(&[one, three], &dir.path().join("x.csv"), &[]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("shard 2/3 missing"), "{stderr}");
    // ... and a part directory without a gradebook (its task was killed before writing it).
    let empty = dir.path().join("part-killed");
    std::fs::create_dir_all(&empty).expect("mkdir");
    refused_then_allowed(
        &[one, &empty, three],
        dir.path(),
        "part-killed: no gradebook.csv",
        "did not finish",
        "--allow-missing",
        2,
    );

    // Students an interruption left ungraded: part 2 as a cancelled task writes it (the row
    // grade writes for a student it did not finish; scripts/test-slurm makes one for real).
    let interrupted = dir.path().join("part-2-interrupted");
    copy_dir(two, &interrupted);
    let book = interrupted.join("gradebook.csv");
    let text = std::fs::read_to_string(&book).expect("gradebook");
    let header = text.lines().next().expect("header");
    let blank = ",".repeat(header.matches(',').count() - 5);
    std::fs::write(
        &book,
        format!("{header}\nhal,class/hal/,,,,incomplete: interrupted{blank}\n"),
    )
    .expect("write");
    refused_then_allowed(
        &[one, &interrupted, three],
        dir.path(),
        "part-2-interrupted: 1 student(s) not graded (interrupted: hal)",
        "grade the part again",
        "--allow-interrupted",
        3,
    );

    // A part graded --strict.
    let strict = dir.path().join("part-2-strict");
    part(&files, &strict, 2, &["--strict"], &[]);
    refused_then_allowed(
        &[one, &strict, three],
        dir.path(),
        "part-2-strict: graded with --strict",
        "unlike",
        "--allow-different-options",
        3,
    );

    // A part graded with another course seed: compared by fingerprint, the seed never written.
    let seeded = dir.path().join("part-2-seed");
    part(&files, &seeded, 2, &["--course-seed", "987654321"], &[]);
    let record = std::fs::read_to_string(seeded.join("grading.json")).expect("grading.json");
    assert!(
        !record.contains("987654321"),
        "the course seed in clear: {record}"
    );
    // HMAC-SHA-256(key = the seed's 8 little-endian bytes, "grade course-seed fingerprint\0"),
    // first 8 bytes: worked with Python's hmac module.
    assert!(record.contains("hmac-sha256:e6a00cd5b42e2a6d"), "{record}");
    refused_then_allowed(
        &[one, &seeded, three],
        dir.path(),
        "part-2-seed: graded with another course seed",
        "fingerprints, not seeds",
        "--allow-different-seed",
        3,
    );

    // A part graded with a sandbox layer off that the others had on.
    let weak = dir.path().join("part-2-weak");
    part(&files, &weak, 2, &[], &[("GRADE_DISABLE", "landlock")]);
    refused_then_allowed(
        &[one, &weak, three],
        dir.path(),
        "part-2-weak: graded with a weaker sandbox: landlock off",
        "--require-sandbox",
        "--allow-weaker-sandbox",
        3,
    );

    // A part with no record of how it was graded (an older grade) cannot be compared.
    let bare = dir.path().join("part-2-bare");
    copy_dir(two, &bare);
    std::fs::remove_file(bare.join("grading.json")).expect("rm");
    refused_then_allowed(
        &[one, &bare, three],
        dir.path(),
        "part-2-bare: no grading.json",
        "cannot be compared",
        "--allow-different-options",
        3,
    );

    // Several problems: each named on a line of its own, nothing merged.
    let (code, _, stderr) = merge(&[one, &strict], &dir.path().join("y.csv"), &[]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("shard 3/3 missing")
            && stderr.contains("part-2-strict: graded with --strict")
            && stderr.contains("nothing merged: 2 problems above"),
        "{stderr}"
    );
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn a_class_resumed_on_another_node_is_graded_elsewhere_not_edited() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path());
    let out = dir.path().join("out");
    let node = |cache: &Path| -> String {
        let output = grade()
            .args(&files)
            .args([
                "-a",
                "nim",
                "--case",
                "error-more-than-three",
                "--no-sanitize",
                "--output-dir",
            ])
            .arg(&out)
            .env("XDG_CACHE_HOME", cache)
            .logged_output()
            .expect("grade runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let (a, b) = (dir.path().join("node-a"), dir.path().join("node-b"));
    node(&a);
    assert!(
        node(&a).contains("[1/3] cy: full marks (unchanged, kept)"),
        "the same node keeps"
    );
    // Another node: its own cache, so its own sealing key.
    let elsewhere = node(&b);
    assert!(
        elsewhere.contains("grade: cy: graded elsewhere; regrading"),
        "{elsewhere}"
    );
    assert!(
        elsewhere.contains("3 stored result(s) were graded elsewhere"),
        "{elsewhere}"
    );
    assert!(
        !elsewhere.contains("edited") && !elsewhere.contains("did not verify"),
        "{elsewhere}"
    );
    let book = std::fs::read_to_string(out.join("gradebook.csv")).expect("gradebook");
    assert!(
        !book.contains("elsewhere") && !book.contains("verify"),
        "{book}"
    );
    // No writable cache at all (a node without a home): nothing can be checked, nothing is
    // called edited.
    let nowhere = node(Path::new("/dev/null/cache"));
    assert!(
        nowhere.contains("grade: cy: graded elsewhere; regrading"),
        "{nowhere}"
    );
    assert!(nowhere.contains("no writable cache"), "{nowhere}");
    assert!(!nowhere.contains("did not verify"), "{nowhere}");
}

/// A batch engine's notice to stop can come twice: Slurm's time limit sends the step SIGTERM,
/// then SIGTERM again as it kills the job, and SIGKILL only after `KillWait`. A repeated
/// SIGTERM must not end grade before it writes the gradebook ("incomplete: interrupted" for
/// what it did not finish), as a second Ctrl-C does.
#[test]
fn sigterm_twice_still_writes_the_interrupted_rows() {
    if !have("g++") || !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = class(dir.path());
    let slow = dir.path().join("class/slow0");
    std::fs::create_dir_all(&slow).expect("mkdir");
    // Each case waits for its time limit: the grading of slow0 outlasts the signals.
    std::fs::write(slow.join("nim.py"), "import time\ntime.sleep(600)\n").expect("write");
    files.push(slow.clone());
    let out = dir.path().join("out");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_grade"))
        .args(&files)
        .args(["-a", "nim", "--no-sanitize", "--output-dir"])
        .arg(&out)
        .env_remove("GITHUB_ACTIONS")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("grade starts");
    let started = std::time::Instant::now();
    // cy, hal and ana come first (as given); slow0 is graded once ana's report is written.
    while !out.join("students/ana.txt").exists() {
        assert!(started.elapsed().as_secs() < 120, "ana never graded");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    std::thread::sleep(std::time::Duration::from_millis(1500));
    for _ in 0..2 {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let output = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stderr}");
    let book = std::fs::read_to_string(out.join("gradebook.csv"))
        .unwrap_or_else(|e| panic!("no gradebook after SIGTERM twice ({e}): {stderr}"));
    assert!(
        book.contains("\nslow0,") && book.contains("incomplete: interrupted"),
        "{book}"
    );
    assert!(
        book.contains("\nana,") && book.contains("full marks"),
        "{book}"
    );
}

#[test]
fn the_docs_slurm_array_runs_on_a_one_node_cluster() {
    // Slurm is no handout toolchain: missing, the test says so and passes, even under CI.
    let installed = ["sbatch", "slurmctld", "slurmd", "munged"]
        .iter()
        .all(|tool| {
            std::env::var_os("PATH")
                .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(tool).is_file()))
        });
    if !installed {
        eprintln!("skipped: Slurm (sbatch, slurmctld, slurmd, munged) is not installed; scripts/test-slurm runs the array where it is");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/test-slurm");
    let output = std::process::Command::new(script)
        .env("GRADE", env!("CARGO_BIN_EXE_grade"))
        .logged_output()
        .expect("scripts/test-slurm runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    if output.status.code() == Some(77) {
        eprintln!("{said}");
        return;
    }
    assert!(
        output.status.success(),
        "scripts/test-slurm: {:?}\n{said}",
        output.status
    );
    eprintln!("{said}");
}
