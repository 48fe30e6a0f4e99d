//! The handouts' requirements on the code, graded through the real binary on programs written
//! for the test suite: ones that break each requirement (found at the file and line where the
//! handout's rule is broken), ones that follow them, and ones in another language (counted as
//! the cases: one total per assignment). Also the rubric a case directory states (collect's "Submitted 1 / Compiled 9 /
//! Output 90") and reweighting from a case directory.

mod support;

use serde_json::Value;
use support::{grade, grade_json, have, program, tools_for, LoggedOutput};

/// The requirement `name` of a JSON report.
fn requirement<'r>(report: &'r Value, name: &str) -> &'r Value {
    report["requirements"]
        .as_array()
        .and_then(|all| all.iter().find(|r| r["name"] == name))
        .unwrap_or_else(|| panic!("no requirement {name} in {:#}", report["requirements"]))
}

/// "file:line message" of each finding of a requirement.
fn findings(requirement: &Value) -> Vec<String> {
    requirement["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            format!(
                "{}:{} {}",
                f["file"].as_str().unwrap_or(""),
                f["line"],
                f["message"].as_str().unwrap_or("")
            )
        })
        .collect()
}

fn graded(relative: &str, assignment: &str, case: &str) -> Option<Value> {
    let path = program(relative);
    if !tools_for(&path).iter().all(|t| have(t)) {
        return None;
    }
    let (_, report) = grade_json(&path, assignment, &["--case", case]);
    Some(report)
}

fn assert_status(report: &Value, name: &str, status: &str) {
    let r = requirement(report, name);
    assert_eq!(r["status"], status, "{name}: {r:#}");
}

#[test]
fn connect6_with_globals_and_hard_coded_size_loses_each_requirement_where_it_is_broken() {
    let Some(report) = graded(
        "requirements/connect6_globals.cpp",
        "connect6",
        "turn-order",
    ) else {
        return;
    };
    assert_eq!(
        findings(requirement(&report, "const-globals")),
        [
            "connect6_globals.cpp:5 non-const global `char board[19][19]`",
            "connect6_globals.cpp:6 non-const global `int turn`",
            "connect6_globals.cpp:7 non-const global `string line`",
        ]
    );
    let warnings = findings(requirement(&report, "warnings"));
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("connect6_globals.cpp:38 warning: unused variable")),
        "{warnings:?}"
    );
    for name in [
        "const-globals",
        "warnings",
        "four-functions",
        "array-params",
        "comments",
        "board-size-constant",
    ] {
        assert_status(&report, name, "failed");
        assert_eq!(requirement(&report, name)["score"], 0.0, "{name}");
    }
    assert_eq!(
        requirement(&report, "four-functions")["detail"],
        "only 3 function(s) (including main); the handout asks for four"
    );
    // The warnings are shown, and the build still succeeded: the case ran and passed.
    assert!(report["warnings"]
        .as_str()
        .is_some_and(|w| w.contains("-Wunused-variable")));
    assert!(report.get("build_failure").is_none());
    assert_eq!(
        report["cases"][0]["status"], "passed",
        "{:#}",
        report["cases"][0]
    );
    // The size written out instead of a constant: every place is named.
    let spelled = findings(requirement(&report, "board-size-constant"));
    assert!(
        spelled.contains(&"connect6_globals.cpp:5 the board size written out as 19".to_string()),
        "{spelled:?}"
    );
    // The text report says the same, file:line first.
    let output = grade()
        .arg(program("requirements/connect6_globals.cpp"))
        .args(["-a", "connect6", "--case", "turn-order"])
        .env("NO_COLOR", "1")
        .logged_output()
        .expect("grade runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Code requirements"), "{text}");
    assert!(
        text.contains("connect6_globals.cpp:6: non-const global `int turn`"),
        "{text}"
    );
    assert!(
        text.contains("\"Only constant global variables allowed;\""),
        "{text}"
    );
}

#[test]
fn nim_with_while_loops_loses_both_loop_requirements() {
    let Some(report) = graded(
        "requirements/nim_while_loops.cpp",
        "nim",
        "example-execution",
    ) else {
        return;
    };
    assert_status(&report, "do-while-input", "failed");
    assert_eq!(
        findings(requirement(&report, "do-while-input")),
        [
            "nim_while_loops.cpp:11 `cin >> first` is read in a while loop, not a do-while loop",
            "nim_while_loops.cpp:15 `cin >> first` is read in a while loop, not a do-while loop",
            "nim_while_loops.cpp:31 `cin >> take` is read in a while loop, not a do-while loop",
            "nim_while_loops.cpp:48 `cin >> again` is read in a while loop, not a do-while loop",
        ]
    );
    assert_status(&report, "for-loop-matches", "failed");
    assert_eq!(
        findings(requirement(&report, "for-loop-matches")),
        [
            "nim_while_loops.cpp:23 \"|\" printed outside a for loop",
            "nim_while_loops.cpp:45 \" Turn - Matches: |\\n\" printed outside a for loop",
        ]
    );
}

#[test]
fn silver_dollar_with_statics_and_printing_board_loses_those_requirements_only() {
    let Some(report) = graded(
        "requirements/silver_dollar_static",
        "silver_dollar",
        "off-edge",
    ) else {
        return;
    };
    assert_status(&report, "two-classes", "passed");
    assert_status(&report, "scanner", "passed");
    assert_eq!(
        findings(requirement(&report, "playgame-only-main")),
        ["PlayGame.java:12 PlayGame declares method `play`"]
    );
    assert_eq!(
        findings(requirement(&report, "output-in-playgame")),
        ["CoinStrip.java:42 System.out.println in class `CoinStrip`"]
    );
    assert_eq!(
        findings(requirement(&report, "static-main-and-constants")),
        [
            "CoinStrip.java:2 static variable `positions` (not a constant: no final)",
            "PlayGame.java:4 static variable `in` (not a constant: no final)",
            "PlayGame.java:12 static method `play`",
        ]
    );
    assert_eq!(
        findings(requirement(&report, "random")),
        ["CoinStrip.java:8 Math.random() instead of a Random object"]
    );
    assert_status(&report, "tostring", "failed");
}

#[test]
fn m_without_a_list_or_a_loop_loses_both() {
    let Some(report) = graded("requirements/m_no_list.py", "m", "used-number") else {
        return;
    };
    assert_status(&report, "list-board", "failed");
    assert_status(&report, "loop-turns", "failed");
}

/// Every correct test program in the handout's language, with a short case to grade it on.
const CORRECT_PROGRAMS: &[(&str, &str, &str)] = &[
    ("connect6/correct_getline.cpp", "connect6", "turn-order"),
    ("connect6/correct_tokens.cpp", "connect6", "turn-order"),
    ("connect6/correct_boxed.cpp", "connect6", "turn-order"),
    ("connect6/correct_recursive.cpp", "connect6", "turn-order"),
    ("nim/correct_getline.cpp", "nim", "replay"),
    ("nim/correct_cin_loop.cpp", "nim", "replay"),
    ("nim/correct_fastio.cpp", "nim", "replay"),
    ("nim/correct_scanf_classes.cpp", "nim", "replay"),
    ("nim/split_cpp", "nim", "replay"),
    ("silver_dollar/correct_plain", "silver_dollar", "off-edge"),
    ("silver_dollar/correct_boxes", "silver_dollar", "off-edge"),
    ("silver_dollar/correct_padded", "silver_dollar", "off-edge"),
    (
        "silver_dollar/correct_shrinking",
        "silver_dollar",
        "off-edge",
    ),
    (
        "silver_dollar/correct_test_main",
        "silver_dollar",
        "off-edge",
    ),
    (
        "silver_dollar/correct_bonus_class",
        "silver_dollar",
        "off-edge",
    ),
    (
        "silver_dollar/correct_list_blank_cells",
        "silver_dollar",
        "off-edge",
    ),
    (
        "silver_dollar/correct_recursive_strip",
        "silver_dollar",
        "off-edge",
    ),
    ("m/correct_plain.py", "m", "used-number"),
    ("m/correct_boxes.py", "m", "used-number"),
    ("m/correct_token_stream.py", "m", "used-number"),
    ("nim/split_python", "nim", "replay"),
];

#[test]
fn programs_that_follow_the_handouts_meet_every_requirement() {
    // Issue 20: no false finding against any correct program, in any style (helpers,
    // token streams, generators, line-clearing loops, a class per concept, recursion).
    for (relative, assignment, case) in CORRECT_PROGRAMS {
        let Some(report) = graded(relative, assignment, case) else {
            continue;
        };
        let requirements = report["requirements"].as_array().expect("requirements");
        assert!(!requirements.is_empty(), "{relative}");
        for r in requirements {
            if r["status"] == "not_applicable" {
                continue; // split_python: nim's rules are on C++ code
            }
            assert_eq!(r["status"], "passed", "{relative}: {r:#}");
            assert_eq!(r["score"], r["max_score"], "{relative}: {r:#}");
        }
    }
}

#[test]
fn turns_in_a_for_loop_reading_through_a_token_helper_are_a_loop() {
    // Issue 20: "no loop asks for the players' moves" was reported for this program.
    let Some(report) = graded("m/correct_token_stream.py", "m", "used-number") else {
        return;
    };
    assert_status(&report, "loop-turns", "passed");
    assert!(
        findings(requirement(&report, "loop-turns"))
            .contains(&"correct_token_stream.py:82 for loop asking for moves".to_string()),
        "{:#}",
        requirement(&report, "loop-turns")
    );
}

#[test]
fn a_loop_that_clears_the_rest_of_a_line_is_not_asking_for_input() {
    // Issue 20: `while ((c = getchar()) != '\n' && c != EOF);` was reported as asking for
    // input in a while loop.
    let Some(report) = graded("nim/correct_scanf_classes.cpp", "nim", "replay") else {
        return;
    };
    assert_status(&report, "do-while-input", "passed");
    assert!(
        findings(requirement(&report, "do-while-input")).contains(
            &"correct_scanf_classes.cpp:34 `getchar()` only clears the rest of a line (not asking for input)"
                .to_string()
        ),
        "{:#}",
        requirement(&report, "do-while-input")
    );
}

#[test]
fn a_program_in_another_language_keeps_the_same_total() {
    for (relative, assignment, case) in [
        ("nim/correct_c.c", "nim", "replay"),
        (
            "silver_dollar/correct_python.py",
            "silver_dollar",
            "off-edge",
        ),
    ] {
        let Some(report) = graded(relative, assignment, case) else {
            continue;
        };
        for r in report["requirements"].as_array().expect("requirements") {
            assert_eq!(r["status"], "not_applicable", "{relative}: {r:#}");
            // Every requirement of nim and silver_dollar is worth 1 to 3 points
            // (docs/requirements.md); with every case passed, the cases' share is all of it.
            assert!(r["max_score"].as_f64() >= Some(1.0), "{relative}: {r:#}");
            assert_eq!(r["score"], r["max_score"], "{relative}: {r:#}");
        }
        assert_eq!(report["score"], report["max_score"], "{relative}");
    }
}

#[test]
fn collect_totals_100_by_its_handouts_grading_policy() {
    if !have("python3") {
        return;
    }
    // Submitted 1 / Compiled 9 / Output 90 / Total 100.
    let (code, correct) = grade_json(&program("collect/correct_plain.py"), "collect", &[]);
    assert_eq!(
        (correct["score"].as_f64(), correct["max_score"].as_f64()),
        (Some(100.0), Some(100.0))
    );
    assert_eq!(code, 0);
    let parts: Vec<(String, f64)> = correct["rubric"]
        .as_array()
        .expect("rubric")
        .iter()
        .map(|l| {
            (
                l["name"].as_str().unwrap_or("").to_string(),
                l["max_score"].as_f64().unwrap_or(0.0),
            )
        })
        .collect();
    assert_eq!(
        parts,
        [
            ("Submitted".to_string(), 1.0),
            ("Compiled".to_string(), 9.0),
            ("Output".to_string(), 90.0)
        ]
    );
    // Does not parse: submitted, nothing else.
    let (_, broken) = grade_json(&program("misc/syntax_error.py"), "collect", &[]);
    assert_eq!(
        broken["score"].as_f64(),
        Some(1.0),
        "{:#}",
        broken["rubric"]
    );
    assert_eq!(broken["max_score"].as_f64(), Some(100.0));
    // A logic bug: 1 + 9 + 90 × the share of the cases' points earned.
    let (_, buggy) = grade_json(&program("collect/buggy_diagonal.py"), "collect", &[]);
    let cases = buggy["cases"].as_array().expect("cases");
    let earned: f64 = cases.iter().filter_map(|c| c["score"].as_f64()).sum();
    let possible: f64 = cases.iter().filter_map(|c| c["max_score"].as_f64()).sum();
    assert!(earned < possible);
    let expected = 10.0 + 90.0 * earned / possible;
    let score = buggy["score"].as_f64().expect("score");
    assert!((score - expected).abs() < 0.01, "{score} vs {expected}");
}

/// A case directory holding a copy of the built-in nim cases with `extra` appended to
/// assignment.yaml.
fn nim_cases_with(extra: &str) -> tempfile::TempDir {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().expect("tempdir");
    for top in ["cases", "reference"] {
        let from = root.join(top).join("nim");
        let to = dir.path().join(top).join("nim");
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in std::fs::read_dir(&from).expect("read the built-in cases") {
            let entry = entry.expect("entry");
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
    let header = dir.path().join("cases/nim/assignment.yaml");
    let mut text = std::fs::read_to_string(&header).expect("read");
    text.push_str(extra);
    std::fs::write(&header, text).expect("write");
    dir
}

#[test]
fn a_case_directory_reweights_or_switches_off_requirements() {
    let path = program("requirements/nim_while_loops.cpp");
    if !have("g++") {
        return;
    }
    let cases = nim_cases_with("requirements:\n  do-while-input: false\n  for-loop-matches: 5\n");
    let dir = cases.path().to_string_lossy().into_owned();
    let (_, report) = grade_json(&path, "nim", &["--cases", &dir, "--case", "replay"]);
    let names: Vec<&str> = report["requirements"]
        .as_array()
        .expect("requirements")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["for-loop-matches"]);
    assert_eq!(requirement(&report, "for-loop-matches")["max_score"], 5.0);

    let typo = nim_cases_with("requirements:\n  do-while-inputs: 2\n");
    let output = grade()
        .arg(&path)
        .args(["-a", "nim", "--cases", &typo.path().to_string_lossy()])
        .logged_output()
        .expect("grade runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "no requirement 'do-while-inputs' for nim; known: do-while-input, for-loop-matches"
        ),
        "{stderr}"
    );
}

/// The case of `report` named `name`.
fn case<'r>(report: &'r Value, name: &str) -> &'r Value {
    report["cases"]
        .as_array()
        .and_then(|all| all.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no case {name}"))
}

#[test]
fn connect6_is_rebuilt_with_another_n_and_played_on_the_smaller_board() {
    // Follows the handout: N changed to 10, the program plays a 10×10 board like the reference.
    if let Some(report) = graded("connect6/correct_getline.cpp", "connect6", "smaller-board") {
        let smaller = case(&report, "smaller-board");
        assert_eq!(smaller["score"], smaller["max_score"], "{smaller:#}");
        let notes: Vec<&str> = report["notes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n.as_str())
            .collect();
        assert!(
            notes.contains(&"rebuilt for the 10×10 board case(s): `N = 19` at correct_getline.cpp:10 set to 10"),
            "{notes:?}"
        );
    }
    // N is there, but the move check still says 'S' and 18: on the smaller board S0 is taken.
    if let Some(report) = graded(
        "requirements/connect6_size_hardcoded.cpp",
        "connect6",
        "smaller-board",
    ) {
        let smaller = case(&report, "smaller-board");
        assert!(
            smaller["score"].as_f64() < smaller["max_score"].as_f64(),
            "{smaller:#}"
        );
        let invalid = smaller["checks"]
            .as_array()
            .and_then(|c| c.iter().find(|k| k["name"] == "Invalid Enter again!"))
            .expect("the invalid-move check");
        assert_eq!(invalid["passed"], false, "{invalid:#}");
        let spelled = findings(requirement(&report, "board-size-constant"));
        assert_eq!(
            spelled,
            [
                "connect6_size_hardcoded.cpp:12 board size constant `N = 19`",
                "connect6_size_hardcoded.cpp:38 the board size written out as 'S'",
                "connect6_size_hardcoded.cpp:44 the board size written out as 18",
            ]
        );
    }
    // No constant at all: the case is lost, with the reason.
    if let Some(report) = graded(
        "requirements/connect6_globals.cpp",
        "connect6",
        "smaller-board",
    ) {
        let smaller = case(&report, "smaller-board");
        assert_eq!(smaller["score"], 0.0);
        assert_eq!(
            smaller["checks"][0]["detail"],
            "the board size could not be changed: no constant holds the board size 19, so the \
             board cannot be resized by changing one variable"
        );
    }
}
