//! The sanitizer pass (issue 35, docs/sanitizers.md): C and C++ submissions are also built
//! with AddressSanitizer and UBSan and run on the fixed cases; the `sanitizer` check (weight 0
//! in the built-in assignments) reports each finding with its kind, the student's file and
//! line, and the input after which it happened. Expected lines are worked out from the
//! sources by hand (the line of the bug, marked `BUG` in each program).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;
use support::LoggedOutput;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::Value;

/// `grade PROGRAM -a ASSIGNMENT --case CASE --format json` (fixed cases only), parsed.
fn graded(program: &str, assignment: &str, case: &str, extra: &[&str]) -> Value {
    let out = support::grade()
        .arg(program)
        .args([
            "-a",
            assignment,
            "--no-explore",
            "--no-cache",
            "--case",
            case,
        ])
        .args(["--format", "json"])
        .args(extra)
        .logged_output()
        .expect("grade runs");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The `sanitizer` check of the one case graded.
fn sanitizer_check(report: &Value) -> Value {
    let case = &report["cases"][0];
    case["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["kind"] == "sanitizer")
        .unwrap_or_else(|| panic!("no sanitizer check in {case}"))
        .clone()
}

fn full_marks(report: &Value) {
    let case = &report["cases"][0];
    assert_eq!(case["score"], case["max_score"], "{case}");
}

#[test]
fn connect6_reading_past_the_right_edge_is_an_out_of_bounds_index_at_its_line() {
    if !support::have("g++") {
        return;
    }
    let report = graded(
        "tests/programs/connect6/sanitizer_edge_read.cpp",
        "connect6",
        "edge-corner-win",
        &[],
    );
    full_marks(&report); // its output is right: only the sanitizer sees the bug
    let check = sanitizer_check(&report);
    let detail = check["detail"].as_str().unwrap_or_default();
    assert_eq!(check["passed"], false, "{detail}");
    assert_eq!(check["max_score"], 0.0, "weight 0: a warning only");
    // Line 52: `c <= N` in countDirection; the first input, S13, is already on column S (18),
    // whose right-hand neighbour is column 19.
    assert!(
        detail.contains(
            "- out-of-bounds index: uses index 19 of an array of 19 elements (valid: 0 to 18): \
             one past its last element (line 52 of sanitizer_edge_read.cpp), after input 'S13' \
             (input 1)"
        ),
        "{detail}"
    );
    assert!(!detail.contains("/tmp"), "no grader path: {detail}");
}

#[test]
fn nim_in_c_overflowing_an_int_on_a_huge_answer_is_a_signed_overflow_at_its_line() {
    if !support::have("gcc") {
        return;
    }
    let report = graded(
        "tests/programs/nim/sanitizer_overflow.c",
        "nim",
        "boundary-huge-numbers",
        &[],
    );
    full_marks(&report);
    let check = sanitizer_check(&report);
    let detail = check["detail"].as_str().unwrap_or_default();
    assert_eq!(check["passed"], false, "{detail}");
    // Line 69: `v = v * 10 + (*p - '0')`; input 2 is 4294967298 (input 1 is "y"); the tenth
    // digit overflows: 429496729 * 10.
    assert!(
        detail.contains("- signed integer overflow: ")
            && detail.contains("429496729 * 10 cannot be represented in type 'int'")
            && detail
                .contains("(line 69 of sanitizer_overflow.c), after input '4294967298' (input 2)"),
        "{detail}"
    );
}

#[test]
fn the_same_programs_fixed_are_clean() {
    for (program, assignment, case, tool) in [
        (
            "tests/programs/connect6/correct_getline.cpp",
            "connect6",
            "edge-corner-win",
            "g++",
        ),
        (
            "tests/programs/nim/correct_c.c",
            "nim",
            "boundary-huge-numbers",
            "gcc",
        ),
    ] {
        if !support::have(tool) {
            continue;
        }
        let report = graded(program, assignment, case, &[]);
        let check = sanitizer_check(&report);
        assert_eq!(check["passed"], true, "{program}: {check}");
        assert!(
            check["detail"]
                .as_str()
                .unwrap_or_default()
                .starts_with("no memory error"),
            "{program}: applicable, and clean: {check}"
        );
    }
}

#[test]
fn no_sanitize_leaves_the_check_out_and_other_languages_never_have_it() {
    if !support::have("g++") || !support::have("python3") {
        return;
    }
    let report = graded(
        "tests/programs/connect6/sanitizer_edge_read.cpp",
        "connect6",
        "edge-corner-win",
        &["--no-sanitize"],
    );
    let check = sanitizer_check(&report);
    assert_eq!(check["passed"], true, "{check}");
    assert_eq!(check["detail"], "nothing to compare", "not applicable");
    let text = support::grade()
        .args([
            "tests/programs/m/correct_boxes.py",
            "-a",
            "m",
            "--no-explore",
        ])
        .logged_output()
        .expect("grade runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(!text.contains("Sanitizer check"), "{text}");
}

#[test]
fn the_text_report_shows_a_finding_of_a_case_with_full_marks() {
    if !support::have("g++") {
        return;
    }
    let out = support::grade()
        .arg("tests/programs/connect6/sanitizer_edge_read.cpp")
        .args([
            "-a",
            "connect6",
            "--no-explore",
            "--case",
            "edge-corner-win",
        ])
        .logged_output()
        .expect("grade runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "Sanitizer check (no points taken): 1 problem found by AddressSanitizer/UBSan"
        ) && text.contains("(line 52 of sanitizer_edge_read.cpp)"),
        "{text}"
    );
}

/// As an unprivileged user there is no memory cgroup and the runs' memory is limited by
/// RLIMIT_DATA, which ASan's shadow memory cannot live under: the sanitized run must still
/// start and report.
#[test]
fn as_nobody_the_finding_is_the_same() {
    // SAFETY: geteuid cannot fail.
    let root = unsafe { libc::geteuid() } == 0;
    if !root || !Path::new("/usr/bin/setpriv").exists() || !support::have("g++") {
        eprintln!("skipped: not root, or no setpriv or g++");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    let program = dir.path().join("sanitizer_edge_read.cpp");
    std::fs::copy("tests/programs/connect6/sanitizer_edge_read.cpp", &program).expect("copy");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    let out = std::process::Command::new("setpriv")
        .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        .arg(assert_cmd::cargo::cargo_bin("grade"))
        .arg(&program)
        .args([
            "-a",
            "connect6",
            "--no-explore",
            "--case",
            "edge-corner-win",
        ])
        .args(["--format", "json"])
        .env("HOME", dir.path())
        .env("TMPDIR", dir.path())
        .env_remove("XDG_CACHE_HOME")
        .logged_output()
        .expect("grade runs as nobody");
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    let check = sanitizer_check(&report);
    let detail = check["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("- out-of-bounds index: uses index 19 of an array of 19 elements")
            && detail.contains("(line 52 of sanitizer_edge_read.cpp), after input 'S13' (input 1)"),
        "{detail}"
    );
}

#[test]
fn without_a_memory_cgroup_the_instrumented_run_is_held_to_the_memory_limit() {
    if !support::have("gcc") || !support::have("python3") {
        return;
    }
    // The largest descendant's peak memory, from a wrapper whose only child is this grading
    // (the test process's own children include other tests' programs).
    let grade = assert_cmd::cargo::cargo_bin("grade");
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import resource, subprocess, sys\n\
             subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n\
             print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
        ])
        .arg(&grade)
        .arg("tests/programs/nim/sanitizer_memory_hog.c")
        .args([
            "-a",
            "nim",
            "--no-explore",
            "--no-cache",
            "--case",
            "computer-first",
        ])
        .args(["--memory-limit", "64"])
        .env("GRADE_NO_CGROUP", "1")
        .logged_output()
        .expect("python3 runs grade");
    let peak_kib: u64 = String::from_utf8_lossy(&out.stdout)
        .trim()
        .parse()
        .unwrap_or_else(|e| panic!("no peak ({e}): {}", String::from_utf8_lossy(&out.stderr)));
    // The program touches 400 MiB; held to 64 MiB (checked every 20 ms, so a little more
    // gets through) the largest process of the grading — the compiler included — stays far
    // below it.
    assert!(
        peak_kib < 250 * 1024,
        "a process of the grading reached {} MiB under --memory-limit 64",
        peak_kib / 1024
    );
}
