//! An instructor's term through the real binary: a class graded with the instructor's own
//! cases (one of them hidden), the instructor's reports beside the students', a case's weight
//! changed and the class regraded (changes.csv, the class page, --dry-run), the gradebook
//! exported to Canvas, Moodle and Blackboard; and submissions that are not gradable for
//! reasons that are not the student's (a toolchain missing here, no temporary directory, a
//! stale reference transcript) kept apart from the student's own faults.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// The hidden case's input: its one distinctive line must never reach a student's file.
const HIDDEN_INPUT: &str = "zebra42";

/// An instructor's case directory: nim's `assignment.yaml`, the visible case
/// `error-more-than-three` (6 points) and a hidden case of the instructor's own,
/// `secret-errors` (8 points), blessed with the real binary.
fn course(dir: &Path) -> PathBuf {
    let root = dir.join("course");
    let cases = root.join("cases/nim");
    std::fs::create_dir_all(&cases).expect("mkdir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in ["assignment.yaml", "error-more-than-three.yaml"] {
        std::fs::copy(repo.join("cases/nim").join(file), cases.join(file)).expect("copy case");
    }
    // The player answers a word, then 4 (rejected), then 2 and 3; the computer went first.
    std::fs::write(
        cases.join("secret-errors.yaml"),
        format!(
            "name: secret-errors\n\
             description: Error Checking, kept hidden by the instructor.\n\
             points: 8\n\
             visibility: hidden\n\
             input: [n, \"{HIDDEN_INPUT}\", \"4\", \"2\", \"3\"]\n"
        ),
    )
    .expect("write the hidden case");
    let bless = grade()
        .args(["bless", "nim", "--root"])
        .arg(&root)
        .logged_output()
        .expect("bless runs");
    assert!(
        bless.status.success(),
        "{}",
        String::from_utf8_lossy(&bless.stderr)
    );
    root
}

/// Sets a case's `points:` in the instructor's case directory.
fn set_points(root: &Path, case: &str, points: u32) {
    let path = root.join(format!("cases/nim/{case}.yaml"));
    let text = std::fs::read_to_string(&path).expect("case");
    let changed: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("points:") {
                format!("points: {points}")
            } else {
                l.to_string()
            }
        })
        .collect();
    std::fs::write(&path, changed.join("\n") + "\n").expect("write case");
}

/// A class folder: each student's `nim.cpp` copied from `tests/programs/nim/`.
fn class(dir: &Path, students: &[(&str, &str)]) -> Vec<PathBuf> {
    students
        .iter()
        .map(|(name, program_name)| {
            let folder = dir.join("class").join(name);
            std::fs::create_dir_all(&folder).expect("mkdir");
            let file = folder.join("nim.cpp");
            std::fs::copy(program(&format!("nim/{program_name}")), &file).expect("copy");
            file
        })
        .collect()
}

fn run_grade(args: &[&std::ffi::OsStr]) -> (i32, String, String) {
    let output = grade().args(args).logged_output().expect("grade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Grades `files` with the course's cases into `out`, in `format`, with `extra` arguments.
fn grade_into(
    files: &[PathBuf],
    root: &Path,
    out: &Path,
    format: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let mut args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    args.extend(
        ["-a", "nim", "--format", format, "--cases"]
            .into_iter()
            .map(std::ffi::OsStr::new),
    );
    args.push(root.as_os_str());
    args.push("--output-dir".as_ref());
    args.push(out.as_os_str());
    args.extend(extra.iter().map(std::ffi::OsStr::new));
    run_grade(&args)
}

/// gradebook.csv's rows by student: (score cell, max_score cell, status, the named column).
fn gradebook(out: &Path, column: &str) -> Vec<(String, String, String, String, String)> {
    let mut reader = csv::Reader::from_path(out.join("gradebook.csv")).expect("gradebook");
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let at = |name: &str| header.iter().position(|h| h == name).expect(name);
    let (score, max, status, col) = (at("score"), at("max_score"), at("status"), at(column));
    reader
        .records()
        .map(|r| {
            let r = r.expect("row");
            (
                r[0].to_string(),
                r[score].to_string(),
                r[max].to_string(),
                r[status].to_string(),
                r[col].to_string(),
            )
        })
        .collect()
}

/// Every file under `out` a student may be shown: the reports named after students, the class
/// page, the gradebook and changes.csv — everything but the instructor's reports
/// (`instructor/`) and the grader's own state in `.grade/`.
fn student_facing(out: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(out)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .filter(|p| {
            !p.strip_prefix(out)
                .is_ok_and(|r| r.starts_with(".grade") || r.starts_with("instructor"))
        })
        .collect()
}

#[test]
fn hidden_cases_reach_the_instructors_reports_and_no_student_facing_file() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = course(dir.path());
    // buggy_accepts_four takes the 4 the hidden case types: it loses points there.
    let files = class(
        dir.path(),
        &[
            ("ana", "correct_getline.cpp"),
            ("bo", "buggy_accepts_four.cpp"),
        ],
    );
    for format in ["text", "html", "json", "junit", "gradescope"] {
        let out = dir.path().join(format!("out-{format}"));
        let (code, stdout, stderr) = grade_into(&files, &root, &out, format, &[]);
        assert_eq!(code, 1, "bo loses points\n{stdout}{stderr}");
        let files = student_facing(&out);
        assert!(files.len() >= 4, "{files:?}");
        for file in &files {
            let bytes = std::fs::read(file).expect("read");
            let text = String::from_utf8_lossy(&bytes);
            assert!(
                !text.contains(HIDDEN_INPUT),
                "{} shows the hidden case's input:\n{text}",
                file.display()
            );
        }
        let ext = match format {
            "text" => "txt",
            "junit" => "xml",
            "gradescope" => "json",
            other => other,
        };
        // The instructor's report shows the hidden case in full: the input sent and what
        // differed, marked as hidden from students.
        let instructor = std::fs::read_to_string(out.join(format!("instructor/bo.{ext}")))
            .expect("bo's instructor report");
        assert!(
            instructor.contains("[hidden from students]"),
            "{format}: {instructor}"
        );
        if matches!(format, "text" | "html" | "json") {
            assert!(instructor.contains(HIDDEN_INPUT), "{format}: {instructor}");
        }
        // Linked from the class page.
        let page = std::fs::read_to_string(out.join("index.html")).expect("class page");
        assert!(
            page.contains(&format!("href=\"instructor/bo.{ext}\"")),
            "{page}"
        );
    }
    // --audience instructor on one submission shows the hidden case; the default does not.
    let mut args: Vec<&std::ffi::OsStr> = vec![files[1].as_os_str()];
    args.extend(["-a", "nim", "--cases"].iter().map(std::ffi::OsStr::new));
    args.push(root.as_os_str());
    let (_, student, _) = run_grade(&args);
    assert!(!student.contains(HIDDEN_INPUT), "{student}");
    args.extend(
        ["--audience", "instructor"]
            .iter()
            .map(std::ffi::OsStr::new),
    );
    let (code, instructor, _) = run_grade(&args);
    assert_eq!(code, 1);
    assert!(instructor.contains(HIDDEN_INPUT), "{instructor}");
    assert!(
        instructor.contains("[hidden from students]"),
        "{instructor}"
    );
}

#[test]
fn an_instructors_term_grade_reweigh_regrade_and_export() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = course(dir.path());
    let files = class(
        dir.path(),
        &[
            ("ana", "correct_getline.cpp"),
            ("bo", "buggy_accepts_four.cpp"),
        ],
    );
    let out = dir.path().join("out");
    let case = "error-more-than-three";

    // Week 1: the class is graded; no earlier run, so no changes.csv.
    let (code, stdout, stderr) = grade_into(&files, &root, &out, "text", &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(!out.join("changes.csv").exists());
    let first = gradebook(&out, case);
    let (ana, bo) = (&first[0], &first[1]);
    assert_eq!((ana.0.as_str(), bo.0.as_str()), ("ana", "bo"));
    // ana's program is correct: every point of the 6 + 8 (and the code requirements).
    assert_eq!(ana.4, "6", "{first:?}");
    let bo_case: f64 = bo.4.parse().expect("bo's points on the case");
    assert!(bo_case < 6.0, "bo accepts 4: {first:?}");

    // The instructor doubles the case's weight (6 → 12 points).
    set_points(&root, case, 12);

    // A dry run says what would change and writes nothing.
    let gradebook_before = std::fs::read(out.join("gradebook.csv")).expect("gradebook");
    let (_, stdout, stderr) = grade_into(&files, &root, &out, "text", &["--dry-run"]);
    assert!(
        stdout.contains("2 grade(s) changed since the earlier run"),
        "{stdout}{stderr}"
    );
    assert!(stdout.contains("dry run: nothing was written"), "{stdout}");
    assert!(
        stdout.contains(&format!("{case}: 6/6 → 12/12 (weight changed)")),
        "{stdout}"
    );
    assert!(
        !out.join("changes.csv").exists(),
        "a dry run writes nothing"
    );
    assert_eq!(
        std::fs::read(out.join("gradebook.csv")).expect("gradebook"),
        gradebook_before
    );

    // The regrade: each student's points on the case doubled, and changes.csv says so.
    let (code, stdout, stderr) = grade_into(&files, &root, &out, "text", &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let second = gradebook(&out, case);
    assert_eq!(second[0].4, "12");
    let bo_new: f64 = second[1].4.parse().expect("bo's new points");
    assert!(
        (bo_new - 2.0 * bo_case).abs() < 0.011,
        "{first:?} {second:?}"
    );
    let changes = read_csv(&out.join("changes.csv"));
    assert_eq!(
        changes[0],
        [
            "student",
            "old_score",
            "new_score",
            "difference",
            "cases",
            "why"
        ]
    );
    let total =
        |row: &(String, String, String, String, String)| -> f64 { row.1.parse().expect("a score") };
    let ana_row = &changes[1];
    assert_eq!(ana_row[0], "ana");
    assert_eq!(ana_row[1].parse::<f64>().ok(), Some(total(&first[0])));
    assert_eq!(ana_row[2].parse::<f64>().ok(), Some(total(&first[0]) + 6.0));
    assert_eq!(ana_row[3], "+6");
    assert_eq!(ana_row[4], format!("{case}: 6/6 → 12/12 (weight changed)"));
    assert_eq!(ana_row[5], "weight changed");
    let bo_row = &changes[2];
    assert_eq!(bo_row[0], "bo");
    assert!(
        bo_row[4].starts_with(&format!("{case}: ")) && bo_row[4].ends_with("/12 (weight changed)"),
        "{bo_row:?}"
    );
    assert_eq!(changes.len(), 3, "{changes:?}");
    let page = std::fs::read_to_string(out.join("index.html")).expect("class page");
    assert!(page.contains("Changes since the earlier run"), "{page}");
    assert!(page.contains("weight changed"), "{page}");

    // bo hands in a correct program: graded again, the submission changed.
    std::fs::copy(program("nim/correct_getline.cpp"), &files[1]).expect("resubmit");
    let (code, stdout, _) = grade_into(&files, &root, &out, "text", &[]);
    assert_eq!(code, 0, "{stdout}");
    let changes = read_csv(&out.join("changes.csv"));
    assert_eq!(changes.len(), 2, "only bo changed: {changes:?}");
    assert_eq!(changes[1][0], "bo");
    assert!(changes[1][5].contains("submission changed"), "{changes:?}");
    assert!(
        changes[1][4].contains(&format!("{case}: ")) && changes[1][4].contains("→ 12/12"),
        "{changes:?}"
    );

    // The gradebook into each learning management system, identifiers mapped.
    let final_rows = gradebook(&out, case);
    let ids = dir.path().join("roster.csv");
    std::fs::write(&ids, "student,id\nana,S001\nbo,S002\n").expect("roster");
    let points_possible = final_rows[0].2.clone();
    for (lms, expected) in [
        (
            "canvas",
            vec![
                vec![
                    "Student",
                    "ID",
                    "SIS User ID",
                    "SIS Login ID",
                    "Section",
                    "Nim",
                ],
                vec!["    Points Possible", "", "", "", "", &points_possible],
                vec!["ana", "", "S001", "", "", &final_rows[0].1],
                vec!["bo", "", "S002", "", "", &final_rows[1].1],
            ],
        ),
        (
            "moodle",
            vec![
                vec!["ID number", "Nim"],
                vec!["S001", &final_rows[0].1],
                vec!["S002", &final_rows[1].1],
            ],
        ),
        (
            "blackboard",
            vec![
                vec![
                    "Username",
                    &format!("Nim [Total Pts: {points_possible} Score]"),
                ],
                vec!["S001", &final_rows[0].1],
                vec!["S002", &final_rows[1].1],
            ],
        ),
    ] {
        let file = dir.path().join(format!("{lms}.csv"));
        let export = grade()
            .args(["gradebook", "export"])
            .arg(&out)
            .args(["--to", lms, "--column", "Nim", "--ids"])
            .arg(&ids)
            .arg("-o")
            .arg(&file)
            .logged_output()
            .expect("export runs");
        assert!(
            export.status.success(),
            "{}",
            String::from_utf8_lossy(&export.stderr)
        );
        let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_path(&file)
            .expect("export")
            .records()
            .map(|r| r.expect("row").iter().map(String::from).collect())
            .collect();
        let expected: Vec<Vec<String>> = expected
            .iter()
            .map(|r| r.iter().map(|c| c.to_string()).collect())
            .collect();
        assert_eq!(rows, expected, "{lms}");
        if lms == "blackboard" {
            // Blackboard: "Data in each column of comma-delimited files must be contained
            // within a quote character".
            let text = std::fs::read_to_string(&file).expect("export");
            assert!(
                text.starts_with("\"Username\",\"Nim [Total Pts: "),
                "{text}"
            );
        }
    }
}

/// Reweighs a check of nim's default checks in the course's assignment.yaml: the `weight:`
/// line under `name: CHECK` becomes `weight: WEIGHT`.
fn set_check_weight(root: &Path, check: &str, weight: u32) {
    let path = root.join("cases/nim/assignment.yaml");
    let text = std::fs::read_to_string(&path).expect("assignment.yaml");
    let mut in_check = false;
    let mut changed = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("name:") {
            in_check = line.trim_start() == format!("name: {check}");
        }
        if in_check && line.trim_start().starts_with("weight:") {
            let indent = &line[..line.len() - line.trim_start().len()];
            changed.push(format!("{indent}weight: {weight}"));
            in_check = false;
        } else {
            changed.push(line.to_string());
        }
    }
    assert_ne!(
        changed.join("\n") + "\n",
        text,
        "no weight of {check} in {text}"
    );
    std::fs::write(&path, changed.join("\n") + "\n").expect("write assignment.yaml");
}

#[test]
fn a_reweighing_is_a_weight_change_never_a_case_change() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = course(dir.path());
    let files = class(
        dir.path(),
        &[
            ("ana", "correct_getline.cpp"),
            ("bo", "buggy_accepts_four.cpp"),
        ],
    );
    let out = dir.path().join("out");
    let case = "error-more-than-three";
    let (code, stdout, stderr) = grade_into(&files, &root, &out, "text", &[]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let first = gradebook(&out, case);
    let bo_case: f64 = first[1].4.parse().expect("bo's points on the case");
    assert!(
        bo_case > 0.0 && bo_case < 6.0,
        "bo loses part of the case: {first:?}"
    );

    // The checks' shares of a case's points change (turn-order weighs 4 instead of 1): the
    // case sends, runs and checks the same; only how its points are shared changed.
    set_check_weight(&root, "turn-order", 4);
    let (_, stdout, stderr) = grade_into(&files, &root, &out, "text", &[]);
    let second = gradebook(&out, case);
    assert_ne!(
        second[1].4, first[1].4,
        "bo's points moved: {first:?} {second:?}"
    );
    let changes = read_csv(&out.join("changes.csv"));
    let bo = changes
        .iter()
        .find(|r| r[0] == "bo")
        .unwrap_or_else(|| panic!("bo changed: {changes:?}\n{stdout}{stderr}"));
    assert_eq!(bo[5], "weight changed", "{changes:?}");
    assert!(
        bo[4].starts_with(&format!("{case}: {}/6 → {}/6", first[1].4, second[1].4)),
        "{changes:?}"
    );
    // Each case that moved (the hidden one too), for the same reason.
    assert!(
        bo[4].split("; ").all(|c| c.ends_with(" (weight changed)")),
        "{changes:?}"
    );
    assert!(!bo[4].contains("case changed"), "{changes:?}");
    // Full marks stay full marks: ana did not change.
    assert!(changes.iter().all(|r| r[0] != "ana"), "{changes:?}");
}

/// The blocks of docs/lms.md that show a file `grade gradebook export` writes: the unlabelled
/// fenced blocks, in the page's order (Canvas, Moodle, Blackboard).
fn documented_layouts() -> Vec<String> {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/lms.md"))
        .expect("docs/lms.md");
    let mut blocks = Vec::new();
    let mut rest = doc.as_str();
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let (label, body) = after.split_once('\n').expect("a fence line");
        let end = body.find("```").expect("the block ends");
        if label.trim().is_empty() {
            blocks.push(body[..end].to_string());
        }
        rest = &body[end + 3..];
    }
    blocks
}

#[test]
fn the_lms_pages_layouts_are_what_export_writes_for_nim() {
    let Some((file, source)) = missing_toolchain() else {
        return;
    };
    if !have("g++") {
        return;
    }
    // As on the page: ana's program earns all of nim's points (100 for the default cases, 3
    // for each of the two code requirements: 106), bo is not gradable (blank, never 0).
    let dir = tempfile::tempdir().expect("tempdir");
    let ana = dir.path().join("class/ana");
    let bo = dir.path().join("class/bo");
    std::fs::create_dir_all(&ana).expect("mkdir");
    std::fs::create_dir_all(&bo).expect("mkdir");
    std::fs::copy(program("nim/correct_getline.cpp"), ana.join("nim.cpp")).expect("copy");
    std::fs::write(bo.join(file), source).expect("write");
    let out = dir.path().join("reports");
    let graded = grade()
        .arg(&ana)
        .arg(&bo)
        .args(["-a", "nim", "--output-dir"])
        .arg(&out)
        .logged_output()
        .expect("grade runs");
    assert_eq!(graded.status.code(), Some(2), "bo is not gradable");
    let ids = dir.path().join("roster.csv");
    std::fs::write(&ids, "student,id\nana,S001\nbo,S002\n").expect("roster");
    let documented = documented_layouts();
    assert_eq!(documented.len(), 3, "{documented:?}");
    for (lms, layout) in ["canvas", "moodle", "blackboard"].iter().zip(&documented) {
        let path = dir.path().join(format!("{lms}.csv"));
        let export = grade()
            .args(["gradebook", "export"])
            .arg(&out)
            .args(["--to", lms, "--column", "Nim", "--ids"])
            .arg(&ids)
            .arg("-o")
            .arg(&path)
            .logged_output()
            .expect("export runs");
        assert!(
            export.status.success(),
            "{}",
            String::from_utf8_lossy(&export.stderr)
        );
        let written = std::fs::read_to_string(&path).expect("export");
        assert_eq!(&written, layout, "docs/lms.md's {lms} layout");
    }
}

/// changes.csv (or any CSV) as rows of cells, header included.
fn read_csv(path: &Path) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .expect("csv")
        .records()
        .map(|r| r.expect("row").iter().map(String::from).collect())
        .collect()
}

/// A toolchain CI does not install, for a submission whose language needs it: its absence on
/// this machine is a real cause of "not gradable". None where both are installed.
fn missing_toolchain() -> Option<(&'static str, &'static str)> {
    let installed = |tool: &str| {
        ["/usr/bin", "/usr/local/bin", "/bin"]
            .iter()
            .any(|d| Path::new(d).join(tool).exists())
            || std::env::var_os("PATH")
                .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).exists()))
    };
    [
        ("Nim.kt", "fun main() { println(\"Nim\") }\n", "kotlinc"),
        ("Nim.cs", "class Nim { static void Main() {} }\n", "dotnet"),
    ]
    .into_iter()
    .find(|(_, _, tool)| !installed(tool))
    .map(|(file, source, _)| (file, source))
    .or_else(|| {
        eprintln!("skipped: kotlinc and dotnet are both installed");
        None
    })
}

#[test]
fn a_toolchain_missing_here_is_not_gradable_never_a_zero() {
    let Some((file, source)) = missing_toolchain() else {
        return;
    };
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // Each student hands in a folder.
    let mut files: Vec<PathBuf> = class(dir.path(), &[("ana", "correct_getline.cpp")])
        .iter()
        .map(|f| f.parent().expect("folder").to_path_buf())
        .collect();
    let cy = dir.path().join("class/cy");
    std::fs::create_dir_all(&cy).expect("mkdir");
    std::fs::write(cy.join(file), source).expect("write");
    files.push(cy.clone());
    let out = dir.path().join("out");
    let mut args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    args.extend(
        [
            "-a",
            "nim",
            "--case",
            "error-more-than-three",
            "--output-dir",
        ]
        .iter()
        .map(std::ffi::OsStr::new),
    );
    args.push(out.as_os_str());
    let (code, stdout, stderr) = run_grade(&args);
    assert_eq!(code, 2, "not gradable is exit 2\n{stdout}{stderr}");
    let rows = gradebook(&out, "error-more-than-three");
    assert_eq!(rows[0].0, "ana");
    assert_eq!(rows[0].1, "12", "ana is graded as ever: {rows:?}");
    assert_eq!(rows[1].0, "cy");
    assert_eq!(rows[1].1, "", "blank, not 0: {rows:?}");
    assert!(
        rows[1]
            .3
            .starts_with("not gradable: toolchain missing on the grading machine: "),
        "{rows:?}"
    );
    assert_eq!(rows[1].4, "", "{rows:?}");
    let page = std::fs::read_to_string(out.join("index.html")).expect("class page");
    assert!(page.contains("id=\"not-gradable\""), "{page}");
    // Exported, the blank stays blank.
    let export = dir.path().join("moodle.csv");
    let status = grade()
        .args(["gradebook", "export"])
        .arg(&out)
        .args(["--to", "moodle", "--column", "Nim", "-o"])
        .arg(&export)
        .logged_output()
        .expect("export");
    assert!(status.status.success());
    let text = std::fs::read_to_string(&export).expect("export");
    assert!(text.lines().any(|l| l == "cy,"), "{text}");

    // On Gradescope: results.json says it is not a grade and flags it for the instructor.
    let results = dir.path().join("results/results.json");
    let output = grade()
        .args(["gradescope", "-a", "nim", "--submission"])
        .arg(&cy)
        .arg("--results")
        .arg(&results)
        .logged_output()
        .expect("grade gradescope runs");
    assert_eq!(output.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("NOT GRADABLE"), "{stdout}");
    let value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&results).expect("results.json")).expect("json");
    let shown = value["output"].as_str().expect("output");
    assert!(shown.starts_with("NOT GRADED: "), "{shown}");
    assert!(shown.contains("not because of your program"), "{shown}");
    assert_eq!(value["extra_data"]["grade_status"], "not_gradable");
    assert_eq!(value["extra_data"]["cause"], "toolchain");
}

#[test]
fn a_machine_without_a_temporary_directory_is_not_gradable() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &[("ana", "correct_getline.cpp")]);
    let output = grade()
        .arg(&files[0])
        .args(["-a", "nim", "--case", "error-more-than-three", "--no-cache"])
        .env("TMPDIR", dir.path().join("no-such-directory"))
        .logged_output()
        .expect("grade runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("not gradable (the grading machine's limits; not the student's fault)"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_stale_reference_transcript_is_the_graders_fault_not_the_students() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = course(dir.path());
    let reference = root.join("reference/nim/error-more-than-three.txt");
    let mut text = std::fs::read_to_string(&reference).expect("reference");
    text.push_str("edited by hand\n");
    std::fs::write(&reference, text).expect("write");
    let files = class(dir.path(), &[("ana", "correct_getline.cpp")]);
    let out = dir.path().join("out");
    let (code, stdout, stderr) = grade_into(&files, &root, &out, "text", &[]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    let rows = gradebook(&out, "error-more-than-three");
    assert_eq!(rows[0].1, "", "{rows:?}");
    assert!(
        rows[0]
            .3
            .starts_with("not gradable: grader or case error: "),
        "{rows:?}"
    );
}

#[test]
fn a_students_own_faults_stay_scores() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    for (name, source) in [
        ("dee", "misc/no_compile.c"),
        ("eve", "misc/infinite_loop.c"),
    ] {
        let folder = dir.path().join("class").join(name);
        std::fs::create_dir_all(&folder).expect("mkdir");
        let file = folder.join("nim.c");
        std::fs::copy(program(source), &file).expect("copy");
        files.push(file);
    }
    let out = dir.path().join("out");
    let mut args: Vec<&std::ffi::OsStr> = files.iter().map(|f| f.as_os_str()).collect();
    args.extend(
        [
            "-a",
            "nim",
            "--case",
            "error-more-than-three",
            "--wall-limit",
            "1",
            "--output-dir",
        ]
        .iter()
        .map(std::ffi::OsStr::new),
    );
    args.push(out.as_os_str());
    let (code, stdout, stderr) = run_grade(&args);
    assert_eq!(code, 1, "lost points, not an error\n{stdout}{stderr}");
    let rows = gradebook(&out, "error-more-than-three");
    assert_eq!(rows[0].0, "dee");
    assert_eq!(rows[0].3, "build failed");
    assert_eq!(rows[0].4, "0", "{rows:?}");
    assert_eq!(rows[1].0, "eve");
    assert_eq!(rows[1].3, "lost points");
    assert_eq!(rows[1].4, "0", "{rows:?}");
    // eve's report says what the run cost and which limit stopped it.
    let report = std::fs::read_to_string(out.join("students/eve.txt")).expect("eve's report");
    assert!(report.contains("Resources: wall "), "{report}");
    assert!(report.contains("timed out (wall-clock limit)"), "{report}");
}
