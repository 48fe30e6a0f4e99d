//! Grading real programs end to end through the `grade` binary: the reference run as a
//! student, handout-following programs that differ where the handout allows, buggy programs,
//! and programs that fail to build, crash, hang or attack the grader.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use support::*;

#[test]
fn the_reference_run_as_a_student_scores_full_marks_default_and_strict() {
    // Every registered assignment. One whose reference draws at random (silver_dollar's
    // strip) gets a new seed every run, as a student's program draws afresh; the seed is
    // given so `grade play` prints no note on stderr (--strict compares stderr too).
    const FRESH_SEED: &[&str] = &["--seed", "$(od -An -N4 -tu4 /dev/urandom)"];
    for assignment in grade::assignments::ASSIGNMENTS {
        let game_args = if assignment.args_usage().contains("--seed") {
            FRESH_SEED
        } else {
            &[]
        };
        let assignment = assignment.name();
        let student = reference_as_student(assignment, game_args);
        // The grader refuses to run inside a grading unless the grading allows it.
        for mode in [&["--strict"][..], &[][..]] {
            let (code, report) = grade_json_env(
                student.path(),
                assignment,
                mode,
                &[("GRADE_DISABLE", "grader-lock")],
            );
            assert_eq!(
                report["score"],
                report["max_score"],
                "{assignment} {mode:?} lost points: {:#?}",
                lost_points(&report)
            );
            assert_eq!(code, 0, "{assignment} {mode:?}");
        }
    }
}

fn correct_programs_of(assignment: &str) {
    for (name, relative) in FULLY_GRADED_CORRECT
        .iter()
        .filter(|(a, _)| *a == assignment)
    {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let (code, report) = grade_json(&path, name, &[]);
        assert_eq!(
            report["score"],
            report["max_score"],
            "{relative} follows the handout but lost points: {:#?}",
            lost_points(&report)
        );
        assert_eq!(code, 0, "{relative}");
        // The fixed cases show the differences --strict counts; the random games played
        // above are left out here (they would only be played again).
        let (code, strict) = grade_json(&path, name, &["--strict", "--no-explore"]);
        assert!(
            strict["score"].as_f64() < strict["max_score"].as_f64(),
            "{relative} differs from the reference where the handout allows, so --strict must take points"
        );
        assert_eq!(code, 1, "{relative} --strict");
    }
}

#[test]
fn correct_nim_programs_get_full_marks_and_lose_points_under_strict() {
    correct_programs_of("nim");
}

#[test]
fn correct_m_programs_get_full_marks_and_lose_points_under_strict() {
    correct_programs_of("m");
}

#[test]
fn correct_collect_programs_get_full_marks_and_lose_points_under_strict() {
    correct_programs_of("collect");
}

#[test]
fn correct_connect6_programs_get_full_marks_and_lose_points_under_strict() {
    correct_programs_of("connect6");
}

/// (assignment, program, the case that targets its bug, the check that must fail there).
/// Silver Dollar's are in tests/silver_dollar.rs.
const BUGGY: [(&str, &str, &str, &str); 30] = [
    (
        "nim",
        "nim/buggy_strategy_always_one.rs",
        "computer-first-computer-wins",
        "computer-moves",
    ),
    (
        "collect",
        "collect/buggy_no_gravity_go",
        "gravity",
        "boards",
    ),
    (
        "nim",
        "nim/buggy_accepts_four.cpp",
        "error-more-than-three",
        "Cannot remove more than three matches.",
    ),
    (
        "nim",
        "nim/buggy_accepts_four.js",
        "error-more-than-three",
        "Cannot remove more than three matches.",
    ),
    (
        "nim",
        "nim/buggy_missing_error.cpp",
        "error-less-than-one",
        "Must remove at least one match.",
    ),
    ("nim", "nim/buggy_no_reset.cpp", "replay", "matches-shown"),
    (
        "nim",
        "nim/buggy_no_space_after_five.cpp",
        "example-execution",
        "groups-of-five",
    ),
    (
        "nim",
        "nim/buggy_strategy_rem0.cpp",
        "computer-first-computer-wins",
        "computer-moves",
    ),
    (
        "nim",
        "nim/buggy_winner_swapped.cpp",
        "example-execution",
        "computer-wins",
    ),
    (
        "m",
        "m/buggy_one_neighbour.py",
        "three-points-and-zero",
        "scores",
    ),
    (
        "m",
        "m/buggy_position_off_by_one.py",
        "full-game-player1-wins",
        "board",
    ),
    ("m", "m/buggy_reuse_number.py", "used-number", "board"),
    ("m", "m/buggy_tie_wrong.py", "full-game-tie", "winner"),
    // An invalid choice refused by asking again, with no message at all.
    (
        "m",
        "m/buggy_silent_reprompt.py",
        "out-of-range",
        "error-reported",
    ),
    (
        "collect",
        "collect/buggy_silent_negative.py",
        "negative-coordinates",
        "error-reported",
    ),
    (
        "m",
        "m/buggy_zero_division.py",
        "three-points-and-zero",
        "exit",
    ),
    (
        "collect",
        "collect/buggy_adjacent_columns.py",
        "adjacent-columns-removal",
        "boards",
    ),
    (
        "collect",
        "collect/buggy_column_kept.py",
        "column-removal",
        "boards",
    ),
    (
        "collect",
        "collect/buggy_diagonal.py",
        "no-neighbour",
        "boards",
    ),
    (
        "collect",
        "collect/buggy_negative_index.py",
        "out-of-bounds-zero",
        "Please enter a correct size!",
    ),
    (
        "collect",
        "collect/buggy_fixed_filename.py",
        "board-file-argument",
        "boards",
    ),
    (
        "collect",
        "collect/buggy_no_gravity.py",
        "gravity",
        "boards",
    ),
    (
        "collect",
        "collect/buggy_no_initial_gameover.py",
        "game-over-at-start",
        "Game over",
    ),
    (
        "collect",
        "collect/buggy_score_count.py",
        "figure-4",
        "scores",
    ),
    (
        "connect6",
        "connect6/buggy_exactly_six.cpp",
        "seven-in-a-row",
        "result",
    ),
    (
        "connect6",
        "connect6/buggy_five_wins.cpp",
        "horizontal-win-first-of-pair",
        "boards",
    ),
    (
        "connect6",
        "connect6/buggy_lowercase.cpp",
        "lowercase-and-occupied",
        "Invalid Enter again!",
    ),
    (
        "connect6",
        "connect6/buggy_no_antidiagonal.cpp",
        "diagonal-up-right-win",
        "result",
    ),
    (
        "connect6",
        "connect6/buggy_occupied.cpp",
        "handout-invalid-examples",
        "Invalid Enter again!",
    ),
    (
        "connect6",
        "connect6/buggy_one_piece_turns.cpp",
        "turn-order",
        "boards",
    ),
];

fn buggy_programs_of(assignment: &str) {
    for (name, relative, target, check) in BUGGY.iter().filter(|b| b.0 == assignment) {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        // --robustness: a bug may be caught only by a robustness case (collect's game over at
        // the start, where the handout is ambiguous).
        let (code, report) = grade_json(&path, name, &["--case", target, "--robustness"]);
        assert_eq!(code, 1, "{relative} must lose points in {target}");
        let case = &report["cases"][0];
        assert_eq!(case["name"], *target);
        assert!(
            case["score"].as_f64() < case["max_score"].as_f64(),
            "{relative} must lose points in {target}"
        );
        let failed: Vec<&str> = case["checks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["passed"] == false && c["max_score"].as_f64() > Some(0.0))
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert!(
            failed.contains(check),
            "{relative}: expected check '{check}' to fail in {target}; failed: {failed:?}"
        );
        // The text report shows the student what differs and where.
        let (_, text) = grade_text(&path, name, &["--case", target, "--robustness"]);
        assert!(text.contains(&format!("✗ {target}")), "{text}");
        assert!(
            text.contains(check),
            "{relative}: the report names the check\n{text}"
        );
        if case["input"].as_array().is_some_and(|i| !i.is_empty()) {
            assert!(
                text.contains("Input sent:"),
                "{relative}: the report lists the input\n{text}"
            );
        }
        assert!(
            text.contains("expected") && text.contains("got"),
            "{relative}: the report shows the difference\n{text}"
        );
    }
}

#[test]
fn buggy_nim_programs_lose_points_where_their_rule_is_tested() {
    buggy_programs_of("nim");
}

#[test]
fn buggy_m_programs_lose_points_where_their_rule_is_tested() {
    buggy_programs_of("m");
}

#[test]
fn buggy_collect_programs_lose_points_where_their_rule_is_tested() {
    buggy_programs_of("collect");
}

#[test]
fn buggy_connect6_programs_lose_points_where_their_rule_is_tested() {
    buggy_programs_of("connect6");
}

/// Every report format is produced, valid, for programs that never get to play properly.
fn every_format_is_valid(
    submission: &std::path::Path,
    assignment: &str,
    expect_build_failure: bool,
) {
    let case = if assignment == "silver_dollar" {
        "missing-coin"
    } else {
        "example"
    };
    let (code, json) = grade_json(submission, assignment, &["--case", case]);
    assert_eq!(code, 1, "{}", submission.display());
    assert_eq!(json["score"].as_f64(), Some(0.0), "{json:#}");
    assert_eq!(
        json["build_failure"].is_object(),
        expect_build_failure,
        "{json:#}"
    );
    for format in ["text", "junit", "gradescope"] {
        let output = grade()
            .arg(submission)
            .args(["-a", assignment, "--case", case, "--format", format])
            .env("NO_COLOR", "1")
            .logged_output()
            .expect("grade runs");
        assert_eq!(output.status.code(), Some(1), "{format}");
        let text = String::from_utf8(output.stdout).expect("reports are UTF-8");
        match format {
            "junit" => {
                assert!(text.starts_with("<?xml"), "{text}");
                assert!(text.contains("<testcase"), "{text}");
            }
            "gradescope" => {
                let value: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
                assert!(value["score"].is_number() && value["execution_time"].is_number());
                assert!(value["tests"].as_array().is_some_and(|t| !t.is_empty()));
            }
            _ => assert!(text.contains("Score: 0/"), "{text}"),
        }
        assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
    }
}

#[test]
fn a_build_failure_is_reported_with_the_compilers_messages() {
    if have("gcc") {
        let path = program("misc/no_compile.c");
        every_format_is_valid(&path, "nim", true);
        let (code, text) = grade_text(&path, "nim", &[]);
        assert_eq!(code, 1);
        assert!(text.contains("gcc"), "{text}");
        assert!(
            text.contains("error"),
            "the compiler's message is shown\n{text}"
        );
    }
    if have("javac") {
        let path = program("misc/CompileError.java");
        every_format_is_valid(&path, "silver_dollar", true);
        let (code, text) = grade_text(&path, "silver_dollar", &[]);
        assert_eq!(code, 1);
        assert!(text.contains("error"), "javac's message is shown\n{text}");
        // The command as a student types it, without the options of javac's own JVM.
        assert!(text.contains("javac -Xlint -encoding UTF-8"), "{text}");
        assert!(!text.contains("-J-XX"), "{text}");
    }
    if have("python3") {
        // A Python syntax error is found before any case runs: one build failure, not a
        // traceback under every case.
        let path = program("misc/syntax_error.py");
        every_format_is_valid(&path, "nim", true);
        let (code, text) = grade_text(&path, "nim", &[]);
        assert_eq!(code, 1);
        assert!(text.contains("Build failed"), "{text}");
        assert_eq!(text.matches("SyntaxError").count(), 1, "{text}");
        assert!(
            text.contains("syntax_error.py"),
            "the file is named\n{text}"
        );
    }
}

#[test]
fn crashes_timeouts_floods_and_hostile_programs_get_valid_reports() {
    if have("python3") {
        let crash = program("misc/crash_first_input.py");
        every_format_is_valid(&crash, "nim", false);
        let (_, text) = grade_text(&crash, "nim", &["--case", "example"]);
        assert!(
            text.contains("Traceback"),
            "stderr is shown to the student\n{text}"
        );
        every_format_is_valid(&program("runner/snoop.py"), "nim", false);
    }
    if have("gcc") {
        let (code, json) = grade_json(
            &program("misc/infinite_loop.c"),
            "nim",
            &["--case", "example", "--cpu-limit", "1", "--wall-limit", "2"],
        );
        assert_eq!(code, 1);
        let ended = json["cases"][0]["run"]["ended"].as_str();
        assert!(
            matches!(ended, Some("cpu_limit") | Some("timeout")),
            "{json:#}"
        );
        let (code, json) = grade_json(
            &program("misc/output_flood.c"),
            "nim",
            &["--case", "example"],
        );
        assert_eq!(code, 1);
        assert_eq!(json["cases"][0]["run"]["ended"], "output_limit", "{json:#}");
        every_format_is_valid(&program("runner/kill_parent.c"), "nim", false);
    }
}

#[test]
fn hidden_cases_are_scored_but_never_shown() {
    let path = program("nim/buggy_strategy_rem0.cpp");
    if !have("g++") {
        return;
    }
    let (code, text) = grade_text(&path, "nim", &["--case", "errors-mixed-hidden"]);
    assert_eq!(code, 1);
    assert!(text.contains("✗ errors-mixed-hidden"), "{text}");
    assert!(text.contains("hidden"), "{text}");
    assert!(!text.contains("Input sent"), "{text}");
    assert!(!text.contains("Computer removes"), "{text}");
    grade()
        .args(["show", "nim", "errors-mixed-hidden"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("hidden"));
}

#[test]
fn options_select_cases_write_files_and_run_robustness_and_terminal_modes() {
    if !have("python3") {
        return;
    }
    let path = program("collect/correct_plain.py");
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("report.json");
    grade()
        .arg(&path)
        .args([
            "-a",
            "collect",
            "--case",
            "figure-4*",
            "--format",
            "json",
            "--output",
        ])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).expect("report written")).expect("JSON");
    let names: Vec<&str> = report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, ["figure-4-hidden", "figure-4"]);

    let (_, without) = grade_json(&path, "collect", &[]);
    let (_, with) = grade_json(&path, "collect", &["--robustness"]);
    let count = |r: &serde_json::Value| r["cases"].as_array().map_or(0, Vec::len);
    assert!(
        count(&with) > count(&without),
        "--robustness adds the robustness cases"
    );

    let (code, terminal) = grade_json(&path, "collect", &["--terminal"]);
    assert_eq!(code, 0, "{:#?}", lost_points(&terminal));

    grade()
        .arg(&path)
        .args(["-a", "collect", "--case", "no-such-case"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no case of collect matches"));
    grade()
        .args(["missing.py", "-a", "collect"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("missing.py"));
}

#[test]
fn a_build_cannot_embed_the_reference_transcripts() {
    if !have("gcc") {
        return;
    }
    let reference = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("reference/nim/example-execution.txt");
    let secret = std::fs::read_to_string(&reference).expect("the reference transcript exists");
    let dir = tempfile::tempdir().expect("tempdir");
    // Prints the reference transcript it embedded at compile time: without the build sandbox
    // this scores most of the case's points.
    let source = format!(
        "#include <stdio.h>\n\
         __asm__(\".section .rodata\\n.global leaked\\nleaked:\\n.incbin \\\"{path}\\\"\\n.byte 0\\n.text\");\n\
         extern const char leaked[];\n\
         int main(void) {{ fputs(leaked, stdout); return 0; }}\n",
        path = reference.display()
    );
    let program = dir.path().join("leak.c");
    std::fs::write(&program, source).expect("write");
    let (code, text) = grade_text(&program, "nim", &["--case", "example-execution"]);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("Build failed"),
        "the compiler may not read the file\n{text}"
    );
    for line in secret.lines().filter(|l| l.contains("Computer removes")) {
        assert!(
            !text.contains(line),
            "the report leaks the reference: {line}\n{text}"
        );
    }
}

#[test]
fn an_installed_grader_binary_is_unreadable_to_submissions_even_under_opt() {
    // The binary embeds every reference transcript. Installed under a system directory that
    // programs may read (/opt, /usr/local), it must still be out of their reach.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: installing under /opt needs root");
        return;
    }
    let base = std::path::PathBuf::from(format!("/opt/grade-test-{}", std::process::id()));
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).expect("mkdir under /opt");
    let installed = bin.join("grade");
    std::fs::copy(assert_cmd::cargo::cargo_bin("grade"), &installed).expect("install");
    std::fs::write(bin.join("neighbour.txt"), "readable\n").expect("write");
    let script = format!(
        "cat {0}/grade > /dev/null 2>&1 && echo GRADER-READ || echo GRADER-DENIED; \
         cat {0}/neighbour.txt 2>/dev/null || echo OPT-ABSENT; head -c 5 /etc/passwd",
        bin.display()
    );
    let output = std::process::Command::new(&installed)
        .args(["run", "--", "/bin/sh", "-c", &script])
        .logged_output()
        .expect("the installed grade runs");
    let _ = std::fs::remove_dir_all(&base);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("GRADER-DENIED"), "{text}");
    // /opt is not part of a run's root at all (issue 21); the system still is.
    assert!(text.contains("OPT-ABSENT"), "{text}");
    assert!(text.contains("root:"), "the system stays readable\n{text}");
}

#[test]
fn a_whole_class_is_graded_into_one_report_each_and_a_summary() {
    if !(have("gcc") && have("g++")) {
        return;
    }
    let out = tempfile::tempdir().expect("tempdir");
    let output = grade()
        .arg(program("nim/correct_c.c"))
        .arg(program("nim/buggy_accepts_four.cpp"))
        .arg(program("misc/no_compile.c"))
        .args(["-a", "nim", "--format", "junit", "--output-dir"])
        .arg(out.path())
        .logged_output()
        .expect("grade runs");
    assert_eq!(output.status.code(), Some(1), "some submission lost points");
    let table = String::from_utf8_lossy(&output.stdout);
    assert!(table.contains("3 submissions of nim"), "{table}");
    for name in [
        "correct_c.c.xml",
        "buggy_accepts_four.cpp.xml",
        "no_compile.c.xml",
    ] {
        let report = std::fs::read_to_string(out.path().join("students").join(name))
            .expect("one report each, under students/");
        assert!(report.starts_with("<?xml"), "{name}");
    }
    let gradebook = std::fs::read_to_string(out.path().join("gradebook.csv")).expect("gradebook");
    let lines: Vec<&str> = gradebook.lines().collect();
    assert!(
        lines[0].starts_with(
            "student,submission,score,max_score,percent,status,boundary-huge-numbers,computer-first"
        ),
        "one column per case: {gradebook}"
    );
    assert!(lines[0].ends_with(",notes"), "{gradebook}");
    assert!(lines[1].starts_with("correct_c.c,"), "{gradebook}");
    // nim's total: cases 100 + requirements 6 (credited to a C program: docs/requirements.md).
    assert!(lines[1].contains(",106,106,100,full marks,"), "{gradebook}");
    assert!(lines[2].contains("lost points"), "{gradebook}");
    assert!(lines[3].contains("build failed"), "{gradebook}");
    // Several submissions in a machine format need a directory to go to.
    grade()
        .arg(program("nim/correct_c.c"))
        .arg(program("nim/correct_c.c"))
        .args(["-a", "nim", "--format", "json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--output-dir"));
}

/// A JSON report, the student's and the instructor's, reads back as the typed result it was
/// written from (`GradeResult` derives `Deserialize`: what a class's stored results and the
/// class page read) and writes the very same bytes again.
#[test]
fn a_json_report_reads_back_typed_and_writes_the_same_bytes() {
    for audience in ["student", "instructor"] {
        let output = grade()
            .arg(program("nim/buggy_accepts_four.cpp"))
            .args(["-a", "nim", "--format", "json", "--no-explore"])
            .args(["--audience", audience])
            .logged_output()
            .expect("grade runs");
        let result: grade::results::GradeResult =
            serde_json::from_slice(&output.stdout).expect("reads back typed");
        assert!(
            result.cases.iter().any(|c| c.score < c.max_score) && !result.cases.is_empty(),
            "{audience}: a lost case"
        );
        let mut again = serde_json::to_vec_pretty(&result).expect("json");
        again.push(b'\n');
        // The first place they differ, with what is around it.
        let at = again
            .iter()
            .zip(&output.stdout)
            .position(|(a, b)| a != b)
            .unwrap_or(again.len().min(output.stdout.len()));
        let around = |bytes: &[u8]| {
            String::from_utf8_lossy(&bytes[at.saturating_sub(200)..(at + 200).min(bytes.len())])
                .into_owned()
        };
        assert!(
            again == output.stdout,
            "{audience}: written\n{}\nread back and written again\n{}",
            around(&output.stdout),
            around(&again)
        );
    }
}
