//! Variants through the real binary (docs/variants.md): a course's nim with 25 matches and
//! connect6 on a 15×15 board, graded against the reference game played with those values;
//! and per-student variants picked by a stable hash of the course seed and the student's
//! name, in the reports and the gradebook.
//!
//! The programs are the handout's correct solutions with the one number changed
//! (tests/programs/variants/). Expected values come from the handouts and are worked by hand:
//! with 25 matches the computer going first sees 25 % 4 = 1 and removes 1 (the handout's
//! table), the pile drawn as five groups of five each followed by a space; the picks for
//! seed 7 are worked in docs/variants.md (alice: variant 2 of 2, bob: variant 1 of 2).

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// A course directory holding the built-in nim cases and their reference transcripts, with
/// `extra` appended to its assignment.yaml.
fn nim_course(dir: &Path, extra: &str) -> PathBuf {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = dir.join("course");
    for top in ["cases", "reference"] {
        let from = repo.join(top).join("nim");
        let to = root.join(top).join("nim");
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in std::fs::read_dir(&from).expect("read the built-in cases") {
            let path = entry.expect("entry").path();
            std::fs::copy(&path, to.join(path.file_name().expect("a name"))).expect("copy");
        }
    }
    let header = root.join("cases/nim/assignment.yaml");
    let mut text = std::fs::read_to_string(&header).expect("read assignment.yaml");
    text.push_str(extra);
    std::fs::write(&header, text).expect("write assignment.yaml");
    root
}

fn score(report: &serde_json::Value) -> (f64, f64) {
    (
        report["score"].as_f64().expect("score"),
        report["max_score"].as_f64().expect("max_score"),
    )
}

fn bless(root: &Path) -> String {
    let out = grade()
        .args(["bless", "--root"])
        .arg(root)
        .logged_output()
        .expect("grade bless runs");
    assert!(
        out.status.success(),
        "bless: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn nim_written_for_25_matches_earns_full_marks_on_the_25_variant_and_loses_on_21() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let course = nim_course(dir.path(), "\nparameters:\n  matches: 25\n");
    let course_arg = course.to_str().expect("utf-8 path");
    let for_25 = program("variants/nim_25_matches.cpp");
    let for_21 = program("nim/correct_getline.cpp");

    // The stored transcripts were recorded for 21: grading says so and grades nobody.
    let (code, stdout, stderr) = grade_output(&for_25, "nim", &["--cases", course_arg]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("re-run `grade bless`"), "{stderr}");

    // The handout's example (y 3 2 3 1 2 N) ends its game at 21; at 25 the script runs out
    // first: bless and every report name such cases to rewrite.
    let blessed = bless(&course);
    assert!(
        blessed.contains(
            "note: with matches=25 the input of these nim cases ends before the game does"
        ) && blessed.contains("example-execution"),
        "{blessed}"
    );
    // Worked from the handout's table: 25 % 4 = 1, the computer removes 1.
    let blessed =
        std::fs::read_to_string(course.join("reference/nim/computer-first-player-wins.txt"))
            .expect("blessed transcript");
    assert!(
        blessed.contains(
            "Computer Turn - Matches: ||||| ||||| ||||| ||||| ||||| \nComputer removes 1.\n"
        ),
        "{blessed}"
    );

    let (code, report) = grade_json(&for_25, "nim", &["--cases", course_arg]);
    let (got, max) = score(&report);
    assert_eq!(
        (code, got),
        (0, max),
        "the 25-match program on the 25 variant: {report}"
    );
    assert_eq!(report["variant"]["label"], "matches=25");
    assert_eq!(report["variant"]["parameters"]["matches"], 25);
    assert_eq!(report["variant"]["chosen_by"], "course");
    assert_eq!(report["variant"]["references"], "stored");
    assert!(
        report["variant"]["notes"][0]
            .as_str()
            .is_some_and(|n| n.contains("example-execution") && !n.contains("boundary")),
        "{}",
        report["variant"]
    );

    let (code, report) = grade_json(&for_21, "nim", &["--cases", course_arg]);
    let (got, max) = score(&report);
    assert_eq!(code, 1);
    assert!(
        got < max / 2.0,
        "the 21-match program on the 25 variant: {got}/{max}"
    );
    assert!(
        lost_points(&report)
            .iter()
            .any(|c| c.starts_with("\"computer-first-player-wins\"")),
        "{:?}",
        lost_points(&report)
    );

    // And the other way round: on the handout's 21 the 25-match program loses.
    let (code, report) = grade_json(&for_21, "nim", &[]);
    let (got, max) = score(&report);
    assert_eq!((code, got), (0, max));
    assert!(
        report.get("variant").is_none(),
        "the handout's game names no variant"
    );
    let (code, report) = grade_json(&for_25, "nim", &[]);
    let (got, max) = score(&report);
    assert_eq!(code, 1);
    assert!(got < max / 2.0, "the 25-match program on 21: {got}/{max}");

    // An asked-for variant records its references on the fly: the same verdicts.
    let (code, report) = grade_json(&for_25, "nim", &["--variant", "matches=25"]);
    let (got, max) = score(&report);
    assert_eq!((code, got), (0, max), "{report}");
    assert_eq!(report["variant"]["references"], "recorded");
    assert_eq!(report["variant"]["chosen_by"], "asked");

    // The text report names the variant.
    let (_, text) = grade_text(&for_25, "nim", &["--cases", course_arg]);
    assert!(
        text.contains("Variant: matches=25 (the course's; reference stored)"),
        "{text}"
    );
}

#[test]
fn connect6_on_a_15_board_is_graded_against_the_15_board_reference() {
    if !have("g++") {
        return;
    }
    let for_15 = program("variants/connect6_15.cpp");
    let for_19 = program("connect6/correct_getline.cpp");
    let (code, report) = grade_json(&for_15, "connect6", &["--variant", "size=15"]);
    let (got, max) = score(&report);
    assert_eq!((code, got), (0, max), "{report}");
    assert_eq!(report["variant"]["label"], "size=15");
    // The requirement that looks for the handout's 19 in the source is not graded, and the
    // report says so; the smaller-board case rebuilds the program from its N = 15.
    let requirements: Vec<&str> = report["requirements"]
        .as_array()
        .expect("requirements")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert!(
        !requirements.contains(&"board-size-constant"),
        "{requirements:?}"
    );
    assert!(
        report["variant"]["notes"][0]
            .as_str()
            .is_some_and(|n| n.contains("board-size-constant is not graded")),
        "{report}"
    );
    let smaller = report["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|c| c["name"] == "smaller-board")
        .expect("the smaller-board case");
    assert_eq!(smaller["score"], smaller["max_score"], "{smaller}");

    let (code, report) = grade_json(&for_19, "connect6", &["--variant", "size=15"]);
    let (got, max) = score(&report);
    assert_eq!(code, 1);
    assert!(got < max, "the 19 program on a 15 board: {got}/{max}");
    let (code, report) = grade_json(&for_15, "connect6", &[]);
    let (got, max) = score(&report);
    assert_eq!(code, 1);
    assert!(
        got < max,
        "the 15 program on the handout's 19 board: {got}/{max}"
    );
}

/// Reads gradebook.csv as (student, score, max_score, variant) rows.
fn gradebook(out: &Path) -> Vec<(String, String, String, String)> {
    let mut reader = csv::Reader::from_path(out.join("gradebook.csv")).expect("gradebook");
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h == name)
            .unwrap_or_else(|| panic!("no {name} column in {header:?}"))
    };
    let (student, score, max, variant) = (
        column("student"),
        column("score"),
        column("max_score"),
        column("variant"),
    );
    reader
        .records()
        .map(|r| {
            let r = r.expect("row");
            (
                r[student].to_string(),
                r[score].to_string(),
                r[max].to_string(),
                r[variant].to_string(),
            )
        })
        .collect()
}

#[test]
fn each_student_gets_a_stable_variant_from_the_course_seed_and_their_name() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let course = nim_course(
        dir.path(),
        "\nseed: 7\nvariants:\n  - {matches: 21}\n  - {matches: 25}\n",
    );
    let course_arg = course.to_str().expect("utf-8 path");
    // Both hand in the 25-match program: only the student given 25 earns full marks.
    let class = dir.path().join("class");
    for student in ["alice", "bob"] {
        std::fs::create_dir_all(class.join(student)).expect("mkdir");
        std::fs::copy(
            program("variants/nim_25_matches.cpp"),
            class.join(student).join("nim.cpp"),
        )
        .expect("copy");
    }
    let out = dir.path().join("out");
    let run = |extra: &[&str]| {
        let output = grade()
            .arg(class.join("alice"))
            .arg(class.join("bob"))
            .args(["-a", "nim", "--cases", course_arg, "--output-dir"])
            .arg(&out)
            .args(extra)
            .logged_output()
            .expect("grade runs");
        assert_eq!(
            output.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        gradebook(&out)
    };
    let first = run(&[]);
    // Worked by hand (docs/variants.md): seed 7 gives alice variant 2 (25), bob variant 1 (21).
    assert_eq!(first[0].0, "alice");
    assert_eq!(first[0].3, "matches=25");
    assert_eq!(first[0].1, first[0].2, "alice has full marks: {first:?}");
    assert_eq!(first[1].0, "bob");
    assert_eq!(first[1].3, "handout");
    assert_ne!(first[1].1, first[1].2, "bob was graded on 21: {first:?}");
    // The same on a fresh run.
    assert_eq!(run(&["--force"]), first);
    let alice = std::fs::read_to_string(out.join("students/alice.txt")).expect("alice's report");
    assert!(
        alice.contains("Variant: matches=25 (variant 2 of 2 for alice; reference recorded)"),
        "{alice}"
    );

    // One submission: the name is the folder's, or --student's.
    let (_, report) = grade_json(&class.join("alice"), "nim", &["--cases", course_arg]);
    assert_eq!(report["variant"]["student"], "alice");
    assert_eq!(report["variant"]["number"], 2);
    assert_eq!(report["variant"]["of"], 2);
    // The course seed is the instructor's secret: no report prints it.
    assert_eq!(report["variant"].get("seed"), None);
    let (_, report) = grade_json(
        &class.join("alice"),
        "nim",
        &["--cases", course_arg, "--student", "bob"],
    );
    assert_eq!(report["variant"]["label"], "handout");
    // Another course seed is another pick: seed 3 gives alice variant 1 (worked by hand).
    let (_, report) = grade_json(
        &class.join("alice"),
        "nim",
        &["--cases", course_arg, "--course-seed", "3"],
    );
    assert_eq!(report["variant"]["number"], 1, "{}", report["variant"]);

    // What a student runs to see their own game: the reference, with their variant.
    let played = grade()
        .args(["play", "nim", "--student", "alice", "--cases", course_arg])
        .write_stdin("n\n")
        .logged_output()
        .expect("grade play runs");
    let stderr = String::from_utf8_lossy(&played.stderr);
    let stdout = String::from_utf8_lossy(&played.stdout);
    assert!(
        stderr.contains("matches=25 (variant 2 of 2 for alice"),
        "{stderr}"
    );
    assert!(
        stdout.contains("Computer Turn - Matches: ||||| ||||| ||||| ||||| ||||| \n"),
        "{stdout}"
    );
    let unnamed = grade()
        .args(["play", "nim", "--cases", course_arg])
        .write_stdin("n\n")
        .logged_output()
        .expect("grade play runs");
    assert!(String::from_utf8_lossy(&unnamed.stderr).contains("say whose with --student NAME"));
}

#[test]
fn a_bad_variant_is_one_clear_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let course = nim_course(dir.path(), "\nvariants:\n  matches: {from: 30, to: 20}\n");
    let (code, _, stderr) = grade_output(
        &program("nim/correct_getline.cpp"),
        "nim",
        &["--cases", course.to_str().expect("utf-8 path")],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("variants: matches: from 30 is above to 20"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    let (code, _, stderr) = grade_output(
        &program("nim/correct_getline.cpp"),
        "nim",
        &["--variant", "matches=1"],
    );
    assert_eq!(code, 2);
    assert!(
        stderr.contains("matches: 1 is not from 2 to 200"),
        "{stderr}"
    );
}

#[test]
fn gradescope_refuses_per_student_variants_it_cannot_pick() {
    let dir = tempfile::tempdir().expect("tempdir");
    let course = nim_course(dir.path(), "\nseed: 7\nvariants:\n  matches: [21, 25]\n");
    let output = grade()
        .args(["gradescope", "package", "-a", "nim", "--cases"])
        .arg(&course)
        .arg("-o")
        .arg(dir.path().join("autograder.zip"))
        .logged_output()
        .expect("grade runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("per-student variants (variants:) cannot be picked on Gradescope"),
        "{stderr}"
    );
    assert!(!dir.path().join("autograder.zip").exists());
}
