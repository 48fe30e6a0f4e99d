//! `grade similarity` on the test programs and planted copies of them (tests/programs/
//! similarity/: renamed, reordered, reformatted, padded with dead code). Every planted pair
//! must rank above every pair of programs written independently.

mod support;

use serde_json::Value;
use support::{grade, program, LoggedOutput};

/// Runs `grade similarity` with JSON output.
fn similarity(assignment: &str, submissions: &[&str], extra: &[&str]) -> Value {
    let output = grade()
        .arg("similarity")
        .args(submissions.iter().map(|s| program(s)))
        .args(["-a", assignment, "--format", "json"])
        .args(extra)
        .logged_output()
        .expect("grade runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON")
}

/// (names of the pair, the larger share) of every pair, in rank order.
fn ranked(report: &Value) -> Vec<((String, String), f64)> {
    let names: Vec<String> = report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| s["name"].as_str().unwrap_or("").to_string())
        .collect();
    report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| {
            let a = names[p["a"].as_u64().unwrap_or(0) as usize].clone();
            let b = names[p["b"].as_u64().unwrap_or(0) as usize].clone();
            let share = p["share_a"]
                .as_f64()
                .unwrap_or(0.0)
                .max(p["share_b"].as_f64().unwrap_or(0.0));
            ((a, b), share)
        })
        .collect()
}

fn is_pair(pair: &(String, String), x: &str, y: &str) -> bool {
    (pair.0 == x && pair.1 == y) || (pair.0 == y && pair.1 == x)
}

/// Grades a set and checks that the planted pairs are exactly the top of the ranking, each
/// above every independent pair, with most of each side shared.
fn planted_pairs_rank_first(assignment: &str, submissions: &[&str], planted: &[(&str, &str)]) {
    let report = similarity(assignment, submissions, &[]);
    let pairs = ranked(&report);
    let n = submissions.len();
    assert_eq!(
        pairs.len(),
        n * (n - 1) / 2,
        "{assignment}: every pair is compared"
    );
    let (top, rest) = pairs.split_at(planted.len());
    for (x, y) in planted {
        let found = top.iter().find(|(pair, _)| is_pair(pair, x, y));
        let Some((_, share)) = found else {
            panic!("{assignment}: planted pair {x} / {y} is not at the top: {pairs:#?}");
        };
        assert!(*share >= 0.8, "{assignment}: {x} / {y} share only {share}");
        for (other, other_share) in rest {
            assert!(
                share > other_share,
                "{assignment}: {other:?} ({other_share}) ranks with {x} / {y} ({share})"
            );
        }
    }
}

#[test]
fn planted_copies_of_nim_rank_above_every_independent_pair() {
    planted_pairs_rank_first(
        "nim",
        &[
            "nim/correct_getline.cpp",
            "nim/correct_cin_loop.cpp",
            "nim/correct_fastio.cpp",
            "requirements/nim_while_loops.cpp",
            "similarity/nim_planted_renamed.cpp",
            "similarity/nim_planted_padded.cpp",
        ],
        &[
            ("correct_getline.cpp", "nim_planted_renamed.cpp"),
            ("correct_cin_loop.cpp", "nim_planted_padded.cpp"),
        ],
    );
}

#[test]
fn a_planted_copy_of_connect6_with_functions_reordered_ranks_first() {
    planted_pairs_rank_first(
        "connect6",
        &[
            "connect6/correct_getline.cpp",
            "connect6/correct_tokens.cpp",
            "requirements/connect6_globals.cpp",
            "similarity/connect6_planted_reordered.cpp",
        ],
        &[("correct_tokens.cpp", "connect6_planted_reordered.cpp")],
    );
}

#[test]
fn planted_copies_of_python_programs_rank_first() {
    planted_pairs_rank_first(
        "m",
        &[
            "m/correct_plain.py",
            "m/correct_boxes.py",
            "requirements/m_no_list.py",
            "similarity/m_planted_reformatted.py",
        ],
        &[("correct_boxes.py", "m_planted_reformatted.py")],
    );
    planted_pairs_rank_first(
        "collect",
        &[
            "collect/correct_plain.py",
            "collect/correct_recursive.py",
            "similarity/collect_planted_padded.py",
        ],
        &[("correct_recursive.py", "collect_planted_padded.py")],
    );
}

#[test]
fn a_planted_copy_of_a_java_program_ranks_first() {
    planted_pairs_rank_first(
        "silver_dollar",
        &[
            "silver_dollar/correct_plain",
            "silver_dollar/correct_boxes",
            "silver_dollar/correct_list_blank_cells",
            "silver_dollar/correct_padded",
            "silver_dollar/correct_shrinking",
            "silver_dollar/correct_test_main",
            "similarity/silver_dollar_planted",
        ],
        &[("correct_plain", "silver_dollar_planted")],
    );
}

#[test]
fn code_in_a_base_file_is_not_counted() {
    let pair = [
        "nim/correct_getline.cpp",
        "similarity/nim_planted_renamed.cpp",
    ];
    let before = ranked(&similarity("nim", &pair, &[]));
    assert!(before[0].1 > 0.99, "{before:?}");
    // As if the whole program had been handed out as starter code.
    let base = program("nim/correct_getline.cpp");
    let after = ranked(&similarity(
        "nim",
        &pair,
        &["--base", &base.to_string_lossy()],
    ));
    assert_eq!(after[0].1, 0.0, "{after:?}");
}

#[test]
fn text_and_html_are_worded_as_evidence_and_show_the_shared_code_side_by_side() {
    let pair = [
        program("nim/correct_getline.cpp"),
        program("similarity/nim_planted_renamed.cpp"),
    ];
    let text = grade()
        .arg("similarity")
        .args(&pair)
        .args(["-a", "nim"])
        .logged_output()
        .expect("grade runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("not a finding of plagiarism"), "{text}");
    assert!(
        text.contains("correct_getline.cpp <-> nim_planted_renamed.cpp"),
        "{text}"
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let page = dir.path().join("similarity.html");
    let status = grade()
        .arg("similarity")
        .args(&pair)
        .args(["-a", "nim", "--format", "html", "-o"])
        .arg(&page)
        .logged_output()
        .expect("grade runs");
    assert!(status.status.success());
    let html = std::fs::read_to_string(&page).expect("written");
    assert!(html.contains("class=\"side\""), "side by side");
    assert!(
        html.contains("Content-Security-Policy\" content=\"default-src 'none'"),
        "the page forbids scripts"
    );
    assert!(html.contains("<span class=\"m0\">"), "shared lines marked");
    // The source is shown escaped: the includes' angle brackets never reach the page raw.
    assert!(html.contains("#include &lt;iostream&gt;"));
    assert!(!html.contains("#include <iostream>"));
    assert!(
        html.contains("showSticks"),
        "the copy's own names are shown"
    );
}

#[test]
fn a_missing_submission_is_one_clear_line() {
    let output = grade()
        .args([
            "similarity",
            "/nonexistent/a.cpp",
            "/nonexistent/b.cpp",
            "-a",
            "nim",
        ])
        .logged_output()
        .expect("grade runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.trim(),
        "grade: cannot read submission /nonexistent/a.cpp"
    );
}

#[test]
fn a_base_directory_of_starter_code_is_excluded_too() {
    let pair = [
        "silver_dollar/correct_plain",
        "similarity/silver_dollar_planted",
    ];
    let before = ranked(&similarity("silver_dollar", &pair, &[]));
    assert!(before[0].1 > 0.9, "{before:?}");
    let base = program("silver_dollar/correct_plain");
    let after = ranked(&similarity(
        "silver_dollar",
        &pair,
        &["--base", &base.to_string_lossy()],
    ));
    assert!(after[0].1 < 0.1, "{after:?}");
}

#[test]
fn hostile_sources_nested_deep_or_repeated_end_in_a_report() {
    let dir = tempfile::tempdir().expect("tempdir");
    let deep = format!(
        "int main() {{ return {}1{}; }}\n",
        "(".repeat(50_000),
        ")".repeat(50_000)
    );
    let repeated = "int f() { return 1 + 2 + 3 + 4 + 5 + 6 + 7; }\n".repeat(5_000);
    let paths: Vec<std::path::PathBuf> = [
        ("deep.cpp", &deep),
        ("deep_too.cpp", &deep),
        ("a.cpp", &repeated),
        ("b.cpp", &repeated),
    ]
    .iter()
    .map(|(name, text)| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path
    })
    .collect();
    let output = grade()
        .arg("similarity")
        .args(&paths)
        .args(["-a", "nim", "--format", "json"])
        .logged_output()
        .expect("grade runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["pairs"].as_array().map(Vec::len), Some(6));
}

#[test]
fn a_zipped_submission_is_unpacked_and_named_without_its_suffix() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().expect("tempdir");
    let zip_path = dir.path().join("jdoe-lab1.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).expect("create"));
    let options = zip::write::SimpleFileOptions::default();
    for name in ["PlayGame.java", "CoinStrip.java"] {
        zip.start_file(format!("jdoe-lab1/{name}"), options)
            .expect("start");
        let text =
            std::fs::read(program("similarity/silver_dollar_planted").join(name)).expect("read");
        zip.write_all(&text).expect("write");
    }
    zip.finish().expect("finish");
    let output = grade()
        .arg("similarity")
        .arg(program("silver_dollar/correct_plain"))
        .arg(&zip_path)
        .args(["-a", "silver_dollar", "--format", "json"])
        .logged_output()
        .expect("grade runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let pairs = ranked(&report);
    assert_eq!(pairs[0].0 .1, "jdoe-lab1");
    assert!(pairs[0].1 > 0.9, "{pairs:?}");
    assert_eq!(
        report["submissions"][1]["path"],
        zip_path.to_string_lossy().as_ref()
    );
}
