//! `grade explore` through the real binary: it finds a shrunk counterexample for every buggy
//! program in the test suite, reports nothing for the correct ones, is deterministic, and
//! saves a case that `grade verify` accepts.

mod support;

use support::*;

/// (assignment, program, games to play at most).
const BUGGY: [(&str, &str); 20] = [
    ("nim", "nim/buggy_accepts_four.cpp"),
    ("nim", "nim/buggy_missing_error.cpp"),
    ("nim", "nim/buggy_no_reset.cpp"),
    ("nim", "nim/buggy_strategy_rem0.cpp"),
    ("nim", "nim/buggy_winner_swapped.cpp"),
    ("m", "m/buggy_one_neighbour.py"),
    ("m", "m/buggy_position_off_by_one.py"),
    ("m", "m/buggy_reuse_number.py"),
    ("m", "m/buggy_tie_wrong.py"),
    ("m", "m/buggy_zero_division.py"),
    ("connect6", "connect6/buggy_exactly_six.cpp"),
    ("connect6", "connect6/buggy_five_wins.cpp"),
    ("connect6", "connect6/buggy_lowercase.cpp"),
    ("connect6", "connect6/buggy_no_antidiagonal.cpp"),
    ("connect6", "connect6/buggy_occupied.cpp"),
    ("connect6", "connect6/buggy_one_piece_turns.cpp"),
    ("collect", "collect/buggy_column_kept.py"),
    ("collect", "collect/buggy_diagonal.py"),
    ("collect", "collect/buggy_no_gravity.py"),
    ("collect", "collect/buggy_score_count.py"),
];

const CORRECT: [(&str, &str, &str); 9] = [
    ("nim", "nim/correct_getline.cpp", "60"),
    ("nim", "nim/correct_cin_loop.cpp", "60"),
    ("nim", "nim/correct_fastio.cpp", "60"),
    ("nim", "nim/correct_c.c", "60"),
    ("m", "m/correct_plain.py", "40"),
    ("m", "m/correct_boxes.py", "40"),
    ("connect6", "connect6/correct_getline.cpp", "12"),
    ("collect", "collect/correct_plain.py", "60"),
    ("collect", "collect/correct_recursive.py", "60"),
];

fn explore_json(
    path: &std::path::Path,
    assignment: &str,
    extra: &[&str],
) -> (i32, serde_json::Value) {
    let output = grade()
        .arg("explore")
        .arg(path)
        .args(["-a", assignment, "--format", "json"])
        .args(extra)
        .logged_output()
        .expect("grade explore runs");
    let code = output.status.code().unwrap_or(-1);
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: not JSON ({e}): {}{}",
            path.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (code, json)
}

#[test]
fn every_buggy_program_gets_a_shrunk_counterexample() {
    for (assignment, relative) in BUGGY {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let (code, json) =
            explore_json(&path, assignment, &["--games", "40", "--shrink-time", "3s"]);
        assert_eq!(code, 1, "{relative}: {json:#}");
        let finding = &json["finding"];
        let shrunk = finding["input"].as_array().map_or(0, Vec::len);
        let original = finding["original_lines"].as_u64().unwrap_or(0) as usize;
        assert!(shrunk <= original, "{relative}: {finding:#}");
        assert!(
            finding["check"]["passed"] == false,
            "{relative}: the reported check fails: {finding:#}"
        );
    }
}

#[test]
fn correct_programs_show_no_difference() {
    for (assignment, relative, games) in CORRECT {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let (code, json) = explore_json(&path, assignment, &["--games", games, "--seed", "3"]);
        assert_eq!(code, 0, "{relative} follows the handout: {json:#}");
        assert!(json["finding"].is_null());
        assert!(json["games"].as_u64() > Some(0));
    }
}

#[test]
fn the_same_seed_gives_the_same_result() {
    let path = program("nim/buggy_no_reset.cpp");
    if !have("g++") {
        return;
    }
    let (_, first) = explore_json(&path, "nim", &["--seed", "11", "--games", "40"]);
    let (_, second) = explore_json(
        &path,
        "nim",
        &["--seed", "11", "--games", "40", "--jobs", "1"],
    );
    assert_eq!(first["finding"]["input"], second["finding"]["input"]);
    assert_eq!(first["finding"]["game"], second["finding"]["game"]);
    assert!(!first["finding"]["input"].is_null());
}

#[test]
fn a_saved_case_passes_verify_and_catches_the_bug() {
    let path = program("collect/buggy_score_count.py");
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let output = grade()
        .arg("explore")
        .arg(&path)
        .args(["-a", "collect", "--games", "40", "--save-case"])
        .arg(dir.path())
        .logged_output()
        .expect("grade explore runs");
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Saved as"), "{text}");
    assert!(text.contains("Input:"), "{text}");
    grade()
        .args(["verify", "collect", "--root"])
        .arg(dir.path())
        .assert()
        .success();
    // The saved case, graded with the instructor's directory, costs the buggy program points
    // and not the correct one.
    let saved: Vec<String> = std::fs::read_dir(dir.path().join("cases/collect"))
        .expect("cases written")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("explore-"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let case = saved[0].trim_end_matches(".yaml").to_string();
    let cases_dir = dir.path().display().to_string();
    let (code, _) = grade_json(&path, "collect", &["--cases", &cases_dir, "--case", &case]);
    assert_eq!(code, 1);
    let (code, report) = grade_json(
        &program("collect/correct_plain.py"),
        "collect",
        &["--cases", &cases_dir, "--case", &case],
    );
    assert_eq!(code, 0, "{report:#}");
}

#[test]
fn silver_dollar_is_explored_from_the_programs_own_strips_without_a_false_alarm() {
    if !have("python3") {
        return;
    }
    let output = grade()
        .arg("explore")
        .arg(program("silver_dollar/correct_python.py"))
        .args(["-a", "silver_dollar", "--games", "8", "--format", "json"])
        .logged_output()
        .expect("grade explore runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(report["games"], 8, "{report:#}");
    assert!(report["finding"].is_null(), "{report:#}");
    // Coverage is of the games as played on the program's own strips: what the plans fix
    // (the coin counts, a long game, each illegal move: a start without room for one is
    // drawn again) is reached in the default budget's 8 games; which player wins each game
    // depends on the strips, so that part is not asserted.
    let coverage = report["coverage"].as_array().expect("coverage");
    assert_eq!(coverage.len(), 15, "{report:#}");
    let reached = |name: &str| {
        coverage
            .iter()
            .any(|rule| rule["rule"] == name && rule["games"].as_u64() > Some(0))
    };
    for rule in [
        "one coin",
        "10 or more coins (two-digit coin numbers)",
        "20 or more coins",
        "illegal: missing coin",
        "illegal: distance 0",
        "illegal: negative distance",
        "illegal: off the edge",
        "a long game (40 moves or more)",
    ] {
        assert!(reached(rule), "{rule}: {report:#}");
    }
}

#[test]
fn an_explore_case_in_an_instructors_directory_grades_pass_or_fail() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = dir.path().join("cases/nim");
    std::fs::create_dir_all(&cases).expect("mkdir");
    let header = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/nim/assignment.yaml"),
    )
    .expect("built-in header");
    std::fs::write(cases.join("assignment.yaml"), header).expect("write header");
    std::fs::write(
        cases.join("random-games.yaml"),
        "name: random-games\ndescription: 30 random games against the reference.\npoints: 5\n\
         explore: {games: 30, seed: 4}\n",
    )
    .expect("write case");
    grade()
        .args(["bless", "nim", "--root"])
        .arg(dir.path())
        .assert()
        .success();
    let root = dir.path().display().to_string();
    let (code, report) = grade_json(
        &program("nim/buggy_accepts_four.cpp"),
        "nim",
        &["--cases", &root],
    );
    assert_eq!(code, 1, "{report:#}");
    let check = &report["cases"][0]["checks"][0];
    assert_eq!(check["name"], "explore");
    assert!(
        report["cases"][0]["input"]
            .as_array()
            .is_some_and(|i| !i.is_empty()),
        "the shrunk input is shown: {report:#}"
    );
    let (code, report) = grade_json(
        &program("nim/correct_getline.cpp"),
        "nim",
        &["--cases", &root],
    );
    assert_eq!(code, 0, "{report:#}");
}
