//! One total per assignment, whatever the language and wherever it is read: `grade list`,
//! every report format, the gradebook and Gradescope's results.json (docs/requirements.md,
//! "One total per assignment"). Through the real binary on the test programs.
//!
//! The totals are worked by hand from the case files and docs/requirements.md's tables:
//! m 104 + 3 + 3 = 110, silver_dollar 71 + 2 + 1 + 2 + 1 + 1 + 1 + 1 = 80,
//! connect6 126 + 2 + 2 + 2 + 2 + 1 + 1 = 136, collect's rubric 1 + 9 + 90 = 100 (its cases,
//! scaled to 90), nim 100 + 3 + 3 = 106. The cases include each assignment's boundary cases
//! (m 4, connect6 4, nim 4) and random-games case (m 6, connect6 8, nim 6, collect 6, silver_dollar 6).

mod support;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use support::{grade, grade_json, have, program, tools_for, LoggedOutput};

/// The hand-worked total of each assignment (see the module documentation).
const TOTALS: [(&str, f64); 5] = [
    ("m", 110.0),
    ("silver_dollar", 80.0),
    ("connect6", 136.0),
    ("collect", 100.0),
    ("nim", 106.0),
];

fn ready(path: &Path) -> bool {
    tools_for(path).iter().all(|t| have(t))
}

/// Runs `grade SUBMISSION -a nim --format FORMAT` and returns the exit code and the report.
fn report(submission: &Path, assignment: &str, format: &str) -> (i32, String) {
    let output = grade()
        .arg(submission)
        .args(["-a", assignment, "--format", format])
        .logged_output()
        .expect("grade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// The (score, max_score) a report of `format` states.
fn total_in(format: &str, text: &str) -> (String, String) {
    let split = |pair: &str| {
        let (a, b) = pair.split_once('/').expect("score/max");
        (a.to_string(), b.to_string())
    };
    match format {
        "text" => {
            let line = text
                .lines()
                .rev()
                .find(|l| l.starts_with("Score: "))
                .unwrap_or_else(|| panic!("no Score line: {text}"));
            split(line.trim_start_matches("Score: ").trim())
        }
        "json" => {
            let value: Value = serde_json::from_str(text).expect("JSON");
            (value["score"].to_string(), value["max_score"].to_string())
        }
        "junit" => {
            let property = |name: &str| {
                let key = format!("<property name=\"{name}\" value=\"");
                let start = text
                    .find(&key)
                    .unwrap_or_else(|| panic!("no {name}: {text}"));
                let rest = &text[start + key.len()..];
                rest[..rest.find('"').expect("closing quote")].to_string()
            };
            (property("score"), property("max_score"))
        }
        "gradescope" => {
            let value: Value = serde_json::from_str(text).expect("results.json");
            let tests = value["tests"].as_array().expect("tests");
            let sum = |key: &str| tests.iter().filter_map(|t| t[key].as_f64()).sum::<f64>();
            // The tests add up to the score Gradescope shows.
            assert_eq!(
                Some(sum("score")),
                value["score"].as_f64(),
                "tests sum to the score"
            );
            (value["score"].to_string(), sum("max_score").to_string())
        }
        "classroom50" => {
            let value: Value = serde_json::from_str(text).expect("result.json");
            let tests = value["tests"].as_array().expect("tests");
            let sum = |key: &str| tests.iter().filter_map(|t| t[key].as_u64()).sum::<u64>();
            // Whole points (the contract's integers) that add up to the total.
            assert_eq!(Some(sum("score")), value["score"].as_u64(), "{text}");
            assert_eq!(
                Some(sum("max-score")),
                value["max-score"].as_u64(),
                "{text}"
            );
            (value["score"].to_string(), value["max-score"].to_string())
        }
        "html" => {
            let start = text.find("Score: <b>").expect("score paragraph") + "Score: <b>".len();
            let rest = &text[start..];
            split(&rest[..rest.find("</b>").expect("</b>")])
        }
        other => panic!("unknown format {other}"),
    }
}

/// "106" and "106.0" alike.
fn number(text: &str) -> f64 {
    text.parse()
        .unwrap_or_else(|_| panic!("{text:?} is not a number"))
}

#[test]
fn a_correct_nim_in_cpp_and_in_python_gets_106_of_106_in_every_format() {
    for relative in ["nim/correct_getline.cpp", "nim/split_python"] {
        let path = program(relative);
        if !ready(&path) {
            continue;
        }
        for format in ["text", "json", "junit", "gradescope", "html", "classroom50"] {
            let (code, text) = report(&path, "nim", format);
            assert_eq!(code, 0, "{relative} {format}: full marks exit 0\n{text}");
            let (score, max) = total_in(format, &text);
            assert_eq!(
                (number(&score), number(&max)),
                (106.0, 106.0),
                "{relative} {format}"
            );
        }
    }
}

/// `grade list`'s total per assignment.
fn listed_totals() -> BTreeMap<String, f64> {
    let output = grade()
        .arg("list")
        .logged_output()
        .expect("grade list runs");
    assert!(output.status.success());
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            // "nim  13 cases  106 points  (…)"
            assert_eq!((words[2], words[4]), ("cases", "points"), "{line}");
            (words[0].to_string(), number(words[3]))
        })
        .collect()
}

#[test]
fn grade_list_states_each_assignments_total_as_the_reports_do() {
    let listed = listed_totals();
    let expected: BTreeMap<String, f64> = TOTALS.iter().map(|(a, t)| (a.to_string(), *t)).collect();
    assert_eq!(listed, expected);
    // A correct program of each, one of them in a language other than the handout's.
    for (relative, assignment) in [
        ("m/correct_plain.py", "m"),
        ("silver_dollar/correct_python.py", "silver_dollar"),
        ("connect6/correct_getline.cpp", "connect6"),
        ("collect/correct_plain.py", "collect"),
        ("nim/correct_readline.js", "nim"),
    ] {
        let path = program(relative);
        if !ready(&path) {
            continue;
        }
        let (code, report) = grade_json(&path, assignment, &[]);
        assert_eq!(
            report["max_score"].as_f64(),
            Some(listed[assignment]),
            "{relative}"
        );
        assert_eq!(report["score"], report["max_score"], "{relative}");
        assert_eq!(code, 0, "{relative}");
    }
}

/// The gradebook's rows by student: every column by name.
fn gradebook(path: &Path) -> (Vec<String>, BTreeMap<String, BTreeMap<String, String>>) {
    let mut reader = csv::Reader::from_path(path).expect("gradebook.csv");
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let rows = reader
        .records()
        .map(|record| {
            let record = record.expect("row");
            let row: BTreeMap<String, String> = header
                .iter()
                .cloned()
                .zip(record.iter().map(String::from))
                .collect();
            (row["student"].clone(), row)
        })
        .collect();
    (header, rows)
}

/// The point columns of a gradebook: between `status` and `notes`.
fn point_columns(header: &[String]) -> Vec<String> {
    let from = header.iter().position(|c| c == "status").expect("status") + 1;
    header[from..header.len() - 1].to_vec()
}

fn grade_class(assignment: &str, submissions: &[&Path], out: &Path) {
    let output = grade()
        .args(submissions)
        .args(["-a", assignment, "--output-dir"])
        .arg(out)
        .logged_output()
        .expect("grade runs");
    assert!(
        matches!(output.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn collects_gradebook_columns_add_up_to_the_rubrics_score() {
    let correct = program("collect/correct_plain.py");
    if !ready(&correct) {
        return;
    }
    let broken = program("misc/syntax_error.py");
    let buggy = program("collect/buggy_diagonal.py");
    let out = tempfile::tempdir().expect("tempdir");
    grade_class("collect", &[&correct, &broken, &buggy], out.path());
    let (header, rows) = gradebook(&out.path().join("gradebook.csv"));
    assert_eq!(
        header[..6],
        [
            "student",
            "submission",
            "score",
            "max_score",
            "percent",
            "status"
        ]
    );
    let columns = point_columns(&header);
    // 15 cases, then the rubric's lines that count neither cases nor requirements.
    assert_eq!(columns.len(), 17, "{columns:?}");
    assert_eq!(
        columns[15..],
        [
            "rubric: Submitted".to_string(),
            "rubric: Compiled".to_string()
        ]
    );
    let value = |student: &str, column: &str| number(&rows[student][column]);
    // By hand: the correct program earns every case's points (scaled to Output's 90),
    // Submitted 1 and Compiled 9.
    let correct_cases: f64 = columns[..15]
        .iter()
        .map(|c| value("correct_plain.py", c))
        .sum();
    // (each column rounded to 0.01: 96 points of cases scaled to 90)
    assert!((correct_cases - 90.0).abs() < 0.015, "{correct_cases}");
    assert_eq!(value("correct_plain.py", "rubric: Submitted"), 1.0);
    assert_eq!(value("correct_plain.py", "rubric: Compiled"), 9.0);
    assert_eq!(value("correct_plain.py", "score"), 100.0);
    assert_eq!(value("correct_plain.py", "percent"), 100.0);
    // By hand: a file that does not parse earns Submitted's 1 point and nothing else.
    for column in &columns {
        let expected = if column == "rubric: Submitted" {
            1.0
        } else {
            0.0
        };
        assert_eq!(value("syntax_error.py", column), expected, "{column}");
    }
    assert_eq!(value("syntax_error.py", "score"), 1.0);
    assert_eq!(value("syntax_error.py", "percent"), 1.0);
    // Every row: the columns add up to the score, out of the same 100.
    for (student, row) in &rows {
        let sum: f64 = columns.iter().map(|c| number(&row[c])).sum();
        let score = number(&row["score"]);
        assert!((sum - score).abs() < 0.015, "{student}: {sum} vs {score}");
        assert_eq!(number(&row["max_score"]), 100.0, "{student}");
    }
    assert!(value("buggy_diagonal.py", "score") < 100.0);
}

#[test]
fn nims_gradebook_has_requirement_columns_and_one_total_for_cpp_and_python() {
    let cpp = program("nim/correct_getline.cpp");
    let python = program("nim/split_python");
    let buggy = program("nim/buggy_accepts_four.cpp");
    if !(ready(&cpp) && ready(&python)) {
        return;
    }
    let out = tempfile::tempdir().expect("tempdir");
    grade_class("nim", &[&cpp, &python, &buggy], out.path());
    let (header, rows) = gradebook(&out.path().join("gradebook.csv"));
    let columns = point_columns(&header);
    assert_eq!(
        columns[columns.len() - 2..],
        [
            "requirement: do-while-input".to_string(),
            "requirement: for-loop-matches".to_string()
        ]
    );
    for student in ["correct_getline.cpp", "split_python"] {
        let row = &rows[student];
        assert_eq!(
            (number(&row["score"]), number(&row["max_score"])),
            (106.0, 106.0),
            "{student}"
        );
        assert_eq!(number(&row["percent"]), 100.0);
        assert_eq!(number(&row["requirement: do-while-input"]), 3.0);
        assert_eq!(number(&row["requirement: for-loop-matches"]), 3.0);
    }
    for (student, row) in &rows {
        let sum: f64 = columns.iter().map(|c| number(&row[c])).sum();
        assert!(
            (sum - number(&row["score"])).abs() < 0.015,
            "{student}: {sum} vs {}",
            row["score"]
        );
        let percent = number(&row["score"]) / 106.0 * 100.0;
        assert!(
            (number(&row["percent"]) - percent).abs() < 0.01,
            "{student}"
        );
    }
    assert!(number(&rows["buggy_accepts_four.cpp"]["score"]) < 106.0);
}

#[test]
fn in_another_language_the_requirements_count_as_the_cases_do() {
    // A program that plays nothing earns nothing, in any language: no requirement's points
    // come for free.
    let dir = tempfile::tempdir().expect("tempdir");
    let silent = dir.path().join("nim");
    std::fs::write(&silent, "#!/bin/sh\ncat >/dev/null\n").expect("write");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&silent, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let (_, report) = grade_json(&silent, "nim", &[]);
    assert_eq!(
        (report["score"].as_f64(), report["max_score"].as_f64()),
        (Some(0.0), Some(106.0))
    );
    // A buggy JavaScript nim: each requirement earns the share of the cases' points it earned,
    // so its percentage is its cases' percentage.
    let buggy = program("nim/buggy_accepts_four.js");
    if !ready(&buggy) {
        return;
    }
    let (_, report) = grade_json(&buggy, "nim", &[]);
    let cases = report["cases"].as_array().expect("cases");
    let earned: f64 = cases.iter().filter_map(|c| c["score"].as_f64()).sum();
    let possible: f64 = cases.iter().filter_map(|c| c["max_score"].as_f64()).sum();
    assert_eq!(possible, 100.0);
    assert!(earned < 100.0, "the bug costs points");
    for r in report["requirements"].as_array().expect("requirements") {
        assert_eq!(r["status"], "not_applicable");
        let expected = 3.0 * earned / 100.0;
        let score = r["score"].as_f64().expect("score");
        assert!((score - expected).abs() < 0.001, "{score} vs {expected}");
    }
    let score = report["score"].as_f64().expect("score");
    assert!(
        (score / 106.0 - earned / 100.0).abs() < 0.0001,
        "{score}/106 vs {earned}/100"
    );
}
