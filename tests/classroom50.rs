//! docs/classroom50.md's autograder, run as written: its Python is read from the document and
//! run by `python3` from a bundle folder holding the `grade` under test, in a student's checkout,
//! with the environment Classroom 50's runner gives it; then `result.json` is checked field by
//! field against Classroom 50's contract (the collector's `validate_result`: integers, a test's
//! score at most its maximum) and against points worked out by hand.

mod support;
use support::LoggedOutput;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// The first ```python block of docs/classroom50.md.
fn documented_autograder() -> String {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/classroom50.md"))
            .expect("docs/classroom50.md");
    let start = doc.find("```python\n").expect("a python block") + "```python\n".len();
    let end = start + doc[start..].find("```").expect("the block ends");
    doc[start..end].to_string()
}

/// The runner's environment (Classroom 50's wiki, "Advanced Autograding" → "Contract").
const RUNNER: [(&str, &str); 6] = [
    ("CLASSROOM", "cs-principles"),
    ("ASSIGNMENT", "hw3-nim"),
    ("SUBMISSION_TAG", "submit/2026-06-01T14-32-05Z-a1b2c3d"),
    (
        "COMMIT_URL",
        "https://github.com/org/cs-principles-hw3-nim-ana/commit/a1b2c3d",
    ),
    (
        "RELEASE_URL",
        "https://github.com/org/cs-principles-hw3-nim-ana/releases/tag/submit%2F2026",
    ),
    (
        "REVIEW_URL",
        "https://github.com/org/cs-principles-hw3-nim-ana/compare/b...a",
    ),
];

/// Runs the documented autograder on `program` (a nim program under tests/programs) and
/// returns its exit status and result.json.
fn autograde(program: &str) -> (i32, Value, String) {
    let bundle = tempfile::tempdir().expect("tempdir");
    std::fs::write(bundle.path().join("autograder.py"), documented_autograder()).expect("write");
    std::fs::copy(
        assert_cmd::cargo::cargo_bin("grade"),
        bundle.path().join("grade"),
    )
    .expect("bundle grade");
    let checkout = tempfile::tempdir().expect("tempdir");
    std::fs::copy(support::program(program), checkout.path().join("nim.cpp")).expect("copy");
    std::fs::write(checkout.path().join("README.md"), "# Nim\n").expect("write");
    let home = tempfile::tempdir().expect("tempdir");
    let mut python = Command::new("python3");
    python
        .arg(bundle.path().join("autograder.py"))
        .current_dir(checkout.path())
        .env("HOME", home.path())
        .env("XDG_CACHE_HOME", home.path().join("cache"))
        // The runner is a GitHub Actions job.
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", home.path().join("summary.md"))
        .env("GITHUB_OUTPUT", home.path().join("output"));
    for (name, value) in RUNNER {
        python.env(name, value);
    }
    let out = python.logged_output().expect("python3 runs");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(checkout.path().join("result.json"))
        .unwrap_or_else(|e| panic!("no result.json ({e}):\n{log}"));
    let value = serde_json::from_str(&text).expect("result.json is JSON");
    let summary = std::fs::read_to_string(home.path().join("summary.md")).expect("the job summary");
    (out.status.code().unwrap_or(-1), value, summary)
}

/// Classroom 50's collector's checks (`validate_result`) on what a result holds: the schema,
/// non-negative integer points, a test's score at most its maximum, `passed` a boolean; and
/// the contract's rule that the totals are the tests' sums.
fn assert_contract(result: &Value) {
    assert_eq!(result["schema"], "classroom50/result/v1", "{result}");
    let integer = |v: &Value| v.as_u64().unwrap_or_else(|| panic!("not an integer: {v}"));
    let tests = result["tests"].as_array().expect("tests is a list");
    let mut sum = (0, 0);
    for test in tests {
        let keys: BTreeSet<&str> = test
            .as_object()
            .expect("a test is an object")
            .keys()
            .map(String::as_str)
            .collect();
        // Nothing but the contract's four: no run figures, input or output, hidden or not.
        assert_eq!(
            keys,
            BTreeSet::from(["test-name", "passed", "score", "max-score"]),
            "{test}"
        );
        assert!(test["test-name"].as_str().is_some_and(|n| !n.is_empty()));
        assert!(test["passed"].is_boolean());
        let (score, max) = (integer(&test["score"]), integer(&test["max-score"]));
        assert!(score <= max, "{test}");
        assert_eq!(test["passed"], score == max, "{test}");
        sum = (sum.0 + score, sum.1 + max);
    }
    assert_eq!(
        (integer(&result["score"]), integer(&result["max-score"])),
        sum,
        "{result}"
    );
    for (field, variable) in [
        ("classroom", "CLASSROOM"),
        ("assignment", "ASSIGNMENT"),
        ("submission", "SUBMISSION_TAG"),
        ("commit", "COMMIT_URL"),
        ("release", "RELEASE_URL"),
        ("review", "REVIEW_URL"),
    ] {
        let expected = RUNNER.iter().find(|(v, _)| *v == variable).expect("set").1;
        assert_eq!(result[field], expected, "{field}");
    }
    let datetime = result["datetime"].as_str().expect("datetime");
    assert!(
        datetime.len() == 20 && datetime.ends_with('Z') && datetime.as_bytes()[10] == b'T',
        "{datetime}"
    );
}

#[test]
fn the_documented_autograder_writes_the_contract_in_whole_points() {
    if !support::have("g++") || !support::have("python3") {
        return;
    }
    let (status, result, summary) = autograde("nim/buggy_accepts_four.cpp");
    assert_eq!(
        status, 0,
        "a grading that lost points is not a runner error"
    );
    assert_contract(&result);
    // Worked by hand. nim's default cases are worth 100 (robustness cases are off), its two
    // code requirements 3 each: 106. buggy_accepts_four takes 4 matches at once: it loses
    // only error-more-than-three (6 points). That case's 6 points are shared among the checks
    // that apply to it, by weight: turn-order 1, matches-shown 2, groups-of-five 1,
    // computer-moves 2, the "Cannot remove more than three matches." message 1, exit 1 — 8
    // shares of 0.75. The game goes wrong at the player's 4: 2 of the 8 turns, piles and
    // groups (the program plays 8 turns, the reference 6) agree before it, 1 of the 4
    // computer moves, the message is never printed, the exit is right:
    // 0.75 × (1·2/8 + 2·2/8 + 1·2/8 + 2·1/4 + 0 + 1) = 0.75 × 2.5 = 1.875.
    // Total 106 − 6 + 1.875 = 101.875, in whole points 102; every other test keeps its full
    // points (100 of them), so error-more-than-three gets the remaining 2.
    assert_eq!(result["score"], 102, "{result}");
    assert_eq!(result["max-score"], 106, "{result}");
    let tests = result["tests"].as_array().expect("tests");
    let lost: Vec<&Value> = tests.iter().filter(|t| t["passed"] == false).collect();
    assert_eq!(lost.len(), 1, "{result}");
    assert_eq!(lost[0]["test-name"], "error-more-than-three");
    assert_eq!(
        (&lost[0]["score"], &lost[0]["max-score"]),
        (&2.into(), &6.into())
    );
    for (name, max) in [
        ("errors-mixed-hidden", 8),
        ("replay-twice-hidden", 8),
        ("requirement: do-while-input", 3),
        ("requirement: for-loop-matches", 3),
    ] {
        let test = tests
            .iter()
            .find(|t| t["test-name"] == name)
            .unwrap_or_else(|| panic!("no test {name}: {result}"));
        assert_eq!(
            (&test["score"], &test["max-score"]),
            (&max.into(), &max.into())
        );
    }
    // The job summary, in two decimals, says the whole-point total the Release shows.
    assert!(summary.contains("### nim: 101.88/106"), "{summary}");
    assert!(summary.contains("count whole points: 102/106"), "{summary}");
}

#[test]
fn a_lost_hidden_case_is_its_name_points_and_failure_only() {
    if !support::have("g++") || !support::have("python3") {
        return;
    }
    // buggy_no_reset plays a second game from the first's end: it loses replay-twice-hidden.
    let (status, result, _) = autograde("nim/buggy_no_reset.cpp");
    assert_eq!(status, 0);
    assert_contract(&result);
    let hidden = result["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .find(|t| t["test-name"] == "replay-twice-hidden")
        .expect("the hidden case");
    assert_eq!(hidden["passed"], false, "{result}");
    assert_eq!(hidden["max-score"], 8, "{result}");
    // The whole file: no figure of a run, no quoted input or output, no check, anywhere
    // (assert_contract checked each test's keys; these are the JSON report's).
    let text = result.to_string();
    for key in [
        "\"run\"",
        "\"wall_ms\"",
        "\"cpu_ms\"",
        "\"peak_memory_kib\"",
        "\"exit_code\"",
        "\"input\"",
        "\"stderr\"",
        "\"checks\"",
        "\"detail\"",
        "\"difference\"",
        "\"message\"",
        "\"output\"",
    ] {
        assert!(!text.contains(key), "{key} in {text}");
    }
}
