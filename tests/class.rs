//! A whole class through the real binary: reports named after students, the gradebook, a
//! re-run that keeps unchanged students, and shards that merge into the same gradebook.

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// A class of `names.len()` students, each handing in `nim.cpp` (correct or buggy in turn).
fn class(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    let sources = [
        program("nim/correct_getline.cpp"),
        program("nim/buggy_accepts_four.cpp"),
    ];
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let folder = dir.join(name);
            std::fs::create_dir_all(&folder).expect("mkdir");
            let file = folder.join("nim.cpp");
            std::fs::copy(&sources[i % 2], &file).expect("copy");
            file
        })
        .collect()
}

fn grade_class(files: &[PathBuf], out: &Path, extra: &[&str]) -> (i32, String, String) {
    let output = grade()
        .args(files)
        .args([
            "-a",
            "nim",
            "--case",
            "error-more-than-three",
            "--output-dir",
        ])
        .arg(out)
        .args(extra)
        .logged_output()
        .expect("grade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn sorted_rows(gradebook: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(gradebook).expect("gradebook");
    let mut rows: Vec<String> = text.lines().skip(1).map(String::from).collect();
    rows.sort();
    rows
}

#[test]
fn reports_and_gradebook_rows_are_named_after_students() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (code, table, progress) = grade_class(&files, &out, &[]);
    assert_eq!(code, 1, "bo loses points\n{table}");
    assert!(out.join("students/ana.txt").is_file() && out.join("students/bo.txt").is_file());
    assert!(progress.contains("[1/2] ana: full marks"), "{progress}");
    assert!(progress.contains("[2/2] bo: lost points"), "{progress}");
    let rows = sorted_rows(&out.join("gradebook.csv"));
    assert!(rows[0].starts_with("ana,"), "{rows:?}");
    assert!(rows[1].starts_with("bo,"), "{rows:?}");
}

#[test]
fn a_rerun_keeps_unchanged_students_and_regrades_changed_ones() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (_, _, _) = grade_class(&files, &out, &[]);
    let first = sorted_rows(&out.join("gradebook.csv"));
    let (code, _, progress) = grade_class(&files, &out, &[]);
    assert_eq!(code, 1);
    assert!(
        progress.contains("ana: full marks (unchanged, kept)"),
        "{progress}"
    );
    assert!(
        progress.contains("bo: lost points (unchanged, kept)"),
        "{progress}"
    );
    assert_eq!(sorted_rows(&out.join("gradebook.csv")), first);
    // bo resubmits a correct program: only bo is graded again.
    std::fs::copy(program("nim/correct_getline.cpp"), &files[1]).expect("resubmit");
    let (code, _, progress) = grade_class(&files, &out, &[]);
    assert_eq!(code, 0, "{progress}");
    assert!(
        progress.contains("ana: full marks (unchanged, kept)"),
        "{progress}"
    );
    assert!(progress.contains("[2/2] bo: full marks\n"), "{progress}");
    let (_, _, progress) = grade_class(&files, &out, &["--force"]);
    assert!(!progress.contains("unchanged"), "{progress}");
}

#[test]
fn three_shards_merged_equal_one_run() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let names = ["ana", "bo", "cy", "dee", "eli", "fay"];
    let files = class(dir.path(), &names);
    let whole = dir.path().join("whole");
    grade_class(&files, &whole, &[]);
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.path().join(format!("part{k}"));
        grade_class(&files, &part, &["--shard", &format!("{k}/3")]);
        parts.push(part);
    }
    let merged = dir.path().join("merged.csv");
    grade()
        .args(["gradebook", "merge"])
        .args(&parts)
        .arg("-o")
        .arg(&merged)
        .assert()
        .success()
        .stdout(predicates::str::contains("6 student(s)"));
    assert_eq!(
        sorted_rows(&merged),
        sorted_rows(&whole.join("gradebook.csv"))
    );
    let header = |p: &Path| {
        std::fs::read_to_string(p)
            .expect("csv")
            .lines()
            .next()
            .map(String::from)
    };
    assert_eq!(header(&merged), header(&whole.join("gradebook.csv")));
    grade()
        .args(["gradebook", "merge"])
        .arg(&parts[0])
        .arg(&parts[0])
        .arg("-o")
        .arg(dir.path().join("twice.csv"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("appears in two shards"));
}

/// The DOM after a headless browser loaded the page (what a person's browser would show).
fn rendered(page: &Path) -> String {
    let output = std::process::Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .logged_output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn html_reports_and_the_class_page_render_in_a_browser() {
    if !(have("g++") && have("chromium")) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (code, _, _) = grade_class(&files, &out, &["--format", "html"]);
    assert_eq!(code, 1);
    let bo = rendered(&out.join("students/bo.html"));
    assert!(bo.contains("id=\"score\""), "{bo}");
    assert!(bo.contains("error-more-than-three"), "{bo}");
    // The difference keeps whitespace visible, as in the text report.
    assert!(bo.contains("expected:"), "{bo}");
    let class_page = rendered(&out.join("index.html"));
    for id in [
        "histogram",
        "per-case",
        "build-failures",
        "slowest",
        "students",
    ] {
        assert!(
            class_page.contains(&format!("id=\"{id}\"")),
            "{id}: {class_page}"
        );
    }
    assert!(
        class_page.contains("<a href=\"students/bo.html\">bo</a>"),
        "{class_page}"
    );
    assert!(
        class_page.contains("1/2"),
        "one of two passed: {class_page}"
    );
}

/// A class handed in as one folder (`grade class/` for `grade class/*/`): each student's folder
/// is graded on its own — the buggy one loses points, the correct one does not — never one
/// student's `main.cpp` built as the whole folder's program.
#[test]
fn a_class_folder_given_as_one_submission_grades_each_student() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let classroom = dir.path().join("class");
    for (name, file, source) in [
        ("ana", "nim.cpp", "nim/correct_getline.cpp"),
        ("bo", "main.cpp", "nim/buggy_accepts_four.cpp"),
    ] {
        std::fs::create_dir_all(classroom.join(name)).expect("mkdir");
        std::fs::copy(program(source), classroom.join(name).join(file)).expect("copy");
    }
    let out = dir.path().join("out");
    let (code, _, progress) = grade_class(std::slice::from_ref(&classroom), &out, &[]);
    assert_eq!(code, 1, "bo loses points\n{progress}");
    assert!(progress.contains("2 student folders"), "{progress}");
    assert!(progress.contains("[1/2] ana: full marks"), "{progress}");
    assert!(progress.contains("[2/2] bo: lost points"), "{progress}");
    let rows = sorted_rows(&out.join("gradebook.csv"));
    assert_eq!(rows.len(), 2, "{rows:?}");
}
