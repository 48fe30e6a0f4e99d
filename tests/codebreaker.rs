//! The test suite's second assignment of its own, codebreaker (tests/assignments/codebreaker:
//! handout.md, a Python reference, cases that give their program a code file as argv[1]),
//! through the real binary: blessed and verified; correct programs in Python, Java, C++ and
//! JavaScript get full marks, random games included; buggy ones lose points where their rule
//! is tested. And issue 32's "every key means the same everywhere": every key of a case
//! (docs/case-schema.json) either applies in a random-games case, to the student's program
//! and the reference alike, or is refused naming the key and the file; `terminal` (a case's,
//! assignment.yaml's or `--terminal`) reaches random games; `grade explore --case NAME`
//! plays as that case runs its programs.

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// The assignment as committed (assignment.yaml, solution/, cases/, blessed reference/).
fn assignment_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assignments/codebreaker")
}

/// A copy of the assignment in `dir`: its reference transcripts only when `with_reference`,
/// and of its cases only those `keep` names (all when `None`).
fn copy_assignment(dir: &Path, with_reference: bool, keep: Option<&[&str]>) -> PathBuf {
    let root = dir.join("codebreaker");
    for entry in walkdir::WalkDir::new(assignment_dir()) {
        let entry = entry.expect("walk");
        let relative = entry.path().strip_prefix(assignment_dir()).expect("inside");
        let top = relative.components().next().map(|c| c.as_os_str());
        if !with_reference && top == Some(std::ffi::OsStr::new("reference")) {
            continue;
        }
        let stem = relative
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned());
        let kept_case = |stem: &Option<String>| {
            keep.is_none_or(|keep| stem.as_deref().is_some_and(|s| keep.contains(&s)))
        };
        let is_case_file = matches!(top, Some(t) if t == "cases" || t == "reference")
            && entry.file_type().is_file();
        if is_case_file && !kept_case(&stem) {
            continue;
        }
        let target = root.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    root
}

/// The cases and their points (handout.md's rules; the random-games case 3 points).
const CASES: [(&str, f64); 6] = [
    ("duplicates", 2.0),
    ("invalid-guesses", 2.0),
    ("lose", 2.0),
    ("missing-file", 1.0),
    ("random-games", 3.0),
    ("win-in-three", 2.0),
];

/// Every case's points.
const TOTAL: f64 = 12.0;

/// Grades `program` against the assignment in `root` with the JSON report.
fn grade_codebreaker(program: &Path, root: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    grade_json_with_cases(program, root, extra)
}

fn score(case: &serde_json::Value) -> (f64, f64) {
    (
        case["score"].as_f64().unwrap_or(-1.0),
        case["max_score"].as_f64().unwrap_or(-1.0),
    )
}

fn student(name: &str) -> PathBuf {
    program(&format!("codebreaker/{name}"))
}

fn available(program: &Path) -> bool {
    tools_for(program).iter().all(|tool| have(tool)) && have("python3")
}

#[test]
fn bless_records_the_transcripts_worked_by_hand_and_verify_checks_them() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = copy_assignment(dir.path(), false, None);
    let bless = grade()
        .args(["bless", "--root"])
        .arg(&root)
        .logged_output()
        .expect("bless runs");
    let stdout = String::from_utf8_lossy(&bless.stdout);
    assert!(bless.status.success(), "{stdout}");
    assert!(
        stdout.contains("6 reference transcript(s) written"),
        "{stdout}"
    );
    // Worked by hand from handout.md (rule 4) and the reference's prompt: the code 1234;
    // 1111 has one 1 in place and no other digit of the code; 1243 has 1 and 2 in place, 4
    // and 3 elsewhere.
    let win = std::fs::read_to_string(root.join("reference/win-in-three.txt")).expect("written");
    assert_eq!(
        win,
        "Guess 1 of 10: 1111\nBlack: 1 White: 0\n\
         Guess 2 of 10: 1243\nBlack: 2 White: 2\n\
         Guess 3 of 10: 1234\nBlack: 4 White: 0\nYou win! Guesses: 3\n"
    );
    // The handout's own examples for the code 1122: 2211 gets 0 and 4, 2222 gets 2 and 0;
    // 1212 has 1 and 2 at the ends in place and the middle 2 and 1 elsewhere.
    let duplicates = std::fs::read_to_string(root.join("reference/duplicates.txt")).expect("x");
    for line in [
        "2211\nBlack: 0 White: 4\n",
        "1212\nBlack: 2 White: 2\n",
        "2222\nBlack: 2 White: 0\n",
        "1122\nBlack: 4 White: 0\nYou win! Guesses: 4\n",
    ] {
        assert!(duplicates.contains(line), "{line:?} in {duplicates}");
    }
    // The random-games case's stored transcript is its start: the reference read the case's
    // own file (named by the case's own argument) and asks for the first guess.
    let start = std::fs::read_to_string(root.join("reference/random-games.txt")).expect("x");
    assert_eq!(start, "Guess 1 of 10: ");
    let missing = std::fs::read_to_string(root.join("reference/missing-file.txt")).expect("x");
    assert_eq!(missing, "Cannot read the code.\n");
    // What bless wrote is what the committed assignment holds.
    for (name, _) in CASES {
        let path = format!("reference/{name}.txt");
        assert_eq!(
            std::fs::read_to_string(root.join(&path)).expect("written"),
            std::fs::read_to_string(assignment_dir().join(&path)).expect("committed"),
            "{path}"
        );
    }
    grade()
        .args(["verify", "--root"])
        .arg(&root)
        .assert()
        .success();
}

#[test]
fn correct_programs_in_four_languages_get_full_marks_random_games_included() {
    for name in [
        "correct.py",
        "Codebreaker.java",
        "correct.cpp",
        "correct.js",
    ] {
        let program = student(name);
        if !available(&program) {
            continue;
        }
        let (code, report) = grade_codebreaker(&program, &assignment_dir(), &[]);
        // The random-games case first: its games give the program the case's own file.
        assert_eq!(
            score(case_in(&report, "random-games")),
            (3.0, 3.0),
            "{name}: {:?}",
            lost_points(&report)
        );
        for (case_name, points) in CASES {
            assert_eq!(
                score(case_in(&report, case_name)),
                (points, points),
                "{name}"
            );
        }
        assert_eq!(report["score"], TOTAL, "{name}: {:?}", lost_points(&report));
        assert_eq!(code, 0, "{name}");
    }
}

#[test]
fn each_buggy_program_loses_points_where_its_rule_is_tested() {
    // Rule 4's duplicates: the code 2461 and a guess 1111 of the vocabulary, or 6666, differ
    // in random games too.
    let program = student("buggy_duplicates.py");
    if available(&program) {
        let (code, report) = grade_codebreaker(&program, &assignment_dir(), &[]);
        assert_eq!(code, 1);
        for lost in ["duplicates", "random-games"] {
            let (got, of) = score(case_in(&report, lost));
            assert!(got < of, "buggy_duplicates keeps {lost}: {report:#}");
        }
        for kept in ["invalid-guesses", "missing-file"] {
            let (got, of) = score(case_in(&report, kept));
            assert_eq!(got, of, "buggy_duplicates loses {kept}");
        }
    }
    // A program that reads code.txt whatever its argument names loses the cases whose file
    // has another name, random games among them, and keeps the others.
    let program = student("buggy_fixed_name.py");
    if available(&program) {
        let (code, report) = grade_codebreaker(&program, &assignment_dir(), &[]);
        assert_eq!(code, 1);
        for lost in ["duplicates", "random-games"] {
            let (got, of) = score(case_in(&report, lost));
            assert!(got < of, "buggy_fixed_name keeps {lost}: {report:#}");
        }
        for kept in ["win-in-three", "invalid-guesses", "lose", "missing-file"] {
            let (got, of) = score(case_in(&report, kept));
            assert_eq!(got, of, "buggy_fixed_name loses {kept}");
        }
    }
}

/// What a variant of the random-games case must do.
enum Expect {
    /// Grading these programs (each with its expected random-games score: `Some(s)` exactly
    /// that, `None` less than the case's points) with these options.
    Graded(
        &'static [(&'static str, Option<f64>)],
        &'static [&'static str],
    ),
    /// Graded as expected, and this check of the student's report holds.
    Shows(&'static str, fn(&serde_json::Value)),
    /// The robustness case: run only with `--robustness`.
    OnlyWithRobustness,
    /// `grade bless` and grading refuse it, in one line naming the key and the case file.
    Refused,
}

/// The random-games case every variant starts from: the code 2461 in its own file, named by
/// its own argument; six games.
const BASE: &str = "name: random-games\n\
description: Random games with the code 2461.\n\
points: 3\n\
args: [random-code.txt]\n\
files:\n  random-code.txt: \"2461\\n\"\n\
explore: {games: 6, seed: 5}\n";

/// The random-games case with `key` set, and what must happen; `None` for a key this walk
/// does not know (a key added to the schema later).
fn variant(key: &str) -> Option<(String, Expect)> {
    let base = |extra: &str| format!("{BASE}{extra}");
    let replaced = |from: &str, to: &str| {
        assert!(BASE.contains(from), "{from}");
        BASE.replace(from, to)
    };
    Some(match key {
        // (loud_start.py prints 200 KB first: within the default limits, it plays.)
        "name" | "explore" => (
            BASE.into(),
            Expect::Graded(
                &[("correct.py", Some(3.0)), ("loud_start.py", Some(3.0))],
                &[],
            ),
        ),
        "description" => (
            BASE.into(),
            Expect::Shows("correct.py", |case| {
                assert_eq!(case["description"], "Random games with the code 2461.");
            }),
        ),
        "points" => (
            replaced("points: 3", "points: 5"),
            Expect::Graded(&[("correct.py", Some(5.0))], &[]),
        ),
        "visibility" => (
            base("visibility: hidden\n"),
            Expect::Shows("buggy_fixed_name.py", |case| {
                assert_eq!(case["visibility"], "hidden");
                assert!(
                    case["score"].as_f64() < case["max_score"].as_f64(),
                    "{case:#}"
                );
                // A student's report shows neither the games' input nor their replay.
                assert_eq!(case["input"], serde_json::json!([]), "{case:#}");
                assert_eq!(case["notes"], serde_json::json!([]), "{case:#}");
            }),
        ),
        // The case's own file, named by its own argument, reaches the student's program
        // (the correct program reads it) and the reference alike.
        "files" => (
            BASE.into(),
            Expect::Graded(&[("correct.py", Some(3.0))], &[]),
        ),
        // The argument picks the file: a.txt holds the code, code.txt another one.
        "args" => (
            replaced(
                "args: [random-code.txt]\nfiles:\n  random-code.txt: \"2461\\n\"\n",
                "args: [a.txt]\nfiles:\n  a.txt: \"2461\\n\"\n  code.txt: \"1111\\n\"\n",
            ),
            Expect::Graded(
                &[("correct.py", Some(3.0)), ("buggy_fixed_name.py", None)],
                &[],
            ),
        ),
        // The reference reads another code than the student's program: the games with a
        // guess differ.
        "reference_args" => (
            replaced(
                "files:\n",
                "reference_args: [other.txt]\nfiles:\n  other.txt: \"1111\\n\"\n",
            ),
            Expect::Graded(&[("correct.py", None)], &[]),
        ),
        // A program that prints 200 KB before it starts is cut off by the case's 64 KiB
        // (the default 1024 KiB lets it play: "name" above).
        "limits" => (
            base("limits: {output_kb: 64}\n"),
            Expect::Graded(
                &[("loud_start.py", Some(0.0)), ("correct.py", Some(3.0))],
                &[],
            ),
        ),
        // At end of input the reference and the program may react (rule 7): a program
        // that crashes there instead loses.
        "end_of_input" => (
            base("end_of_input: close\n"),
            Expect::Graded(
                &[("correct.py", Some(3.0)), ("buggy_no_quit.py", None)],
                &[],
            ),
        ),
        "terminal" => (
            base("terminal: true\n"),
            Expect::Graded(&[("only_at_a_terminal.py", Some(3.0))], &[]),
        ),
        // Only the exit is compared: the duplicates bug goes unseen.
        "checks" => (
            base("checks: [{kind: exit}]\n"),
            Expect::Graded(&[("buggy_duplicates.py", Some(3.0))], &[]),
        ),
        // Exact text: the correct program's own prompt differs.
        "extra_checks" => (
            base("extra_checks: [{kind: transcript, name: exact-text, level: exact}]\n"),
            Expect::Graded(&[("correct.py", None)], &[]),
        ),
        "robustness" => (base("robustness: true\n"), Expect::OnlyWithRobustness),
        "input" => (base("input: [\"1234\"]\n"), Expect::Refused),
        "input_file" => (base("input_file: moves.txt\n"), Expect::Refused),
        "drive" => (
            base("drive: {coins: 3, strategy: smallest}\n"),
            Expect::Refused,
        ),
        "samples" => (base("samples: 3\n"), Expect::Refused),
        "board_size" => (base("board_size: 10\n"), Expect::Refused),
        _ => return None,
    })
}

/// Every key a case file may hold (docs/case-schema.json, `$defs/case`).
fn case_keys() -> Vec<String> {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/case-schema.json"),
        )
        .expect("the schema"),
    )
    .expect("JSON");
    schema["$defs"]["case"]["properties"]
        .as_object()
        .expect("the case's properties")
        .keys()
        .cloned()
        .collect()
}

#[test]
fn every_key_of_a_case_applies_in_random_games_or_is_refused_naming_it() {
    if !have("python3") {
        return;
    }
    let keys = case_keys();
    assert!(keys.len() >= 19, "{keys:?}");
    let dir = tempfile::tempdir().expect("tempdir");
    for key in &keys {
        let Some((yaml, expect)) = variant(key) else {
            panic!(
                "the case key '{key}' of docs/case-schema.json is not walked here: make it \
                 apply in random-games cases (to the student's program and the reference \
                 alike) or refuse it there at load, and add it to `variant`"
            );
        };
        let root = copy_assignment(&dir.path().join(key), false, Some(&["random-games"]));
        let case_file = root.join("cases/random-games.yaml");
        std::fs::write(&case_file, &yaml).expect("write the case");
        std::fs::write(root.join("cases/moves.txt"), "1234\n").expect("write moves");
        let bless = grade()
            .args(["bless", "--root"])
            .arg(&root)
            .logged_output()
            .expect("bless runs");
        let stderr = String::from_utf8_lossy(&bless.stderr).into_owned();
        if let Expect::Refused = expect {
            assert_eq!(bless.status.code(), Some(2), "{key}: {stderr}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{key}: {stderr}");
            assert!(
                stderr.contains(&case_file.display().to_string())
                    && stderr.contains(&format!("{key}:")),
                "{key}: the refusal names the key and the file: {stderr}"
            );
            // Grading refuses it the same way.
            let graded = grade()
                .arg(student("correct.py"))
                .arg("--cases")
                .arg(&root)
                .logged_output()
                .expect("grade runs");
            let stderr = String::from_utf8_lossy(&graded.stderr);
            assert_eq!(graded.status.code(), Some(2), "{key}: {stderr}");
            assert!(
                stderr.contains(&case_file.display().to_string())
                    && stderr.contains(&format!("{key}:")),
                "{key}: {stderr}"
            );
            continue;
        }
        assert!(bless.status.success(), "{key}: bless failed: {stderr}");
        match expect {
            Expect::Graded(programs, extra) => {
                for (name, expected) in programs {
                    let (_, report) = grade_codebreaker(&student(name), &root, extra);
                    let (got, of) = score(case_in(&report, "random-games"));
                    match expected {
                        Some(expected) => assert_eq!(
                            got,
                            *expected,
                            "{key}: {name} out of {of}: {:?}",
                            lost_points(&report)
                        ),
                        None => assert!(got < of, "{key}: {name} keeps {got} of {of}"),
                    }
                }
            }
            Expect::Shows(name, check) => {
                let (_, report) = grade_codebreaker(&student(name), &root, &[]);
                check(case_in(&report, "random-games"));
            }
            Expect::OnlyWithRobustness => {
                let plain = grade()
                    .arg(student("correct.py"))
                    .arg("--cases")
                    .arg(&root)
                    .args(["--case", "random-games"])
                    .logged_output()
                    .expect("grade runs");
                let stderr = String::from_utf8_lossy(&plain.stderr);
                assert!(
                    plain.status.code() == Some(2) && stderr.contains("--robustness"),
                    "{key}: {stderr}"
                );
                let (_, report) =
                    grade_codebreaker(&student("correct.py"), &root, &["--robustness"]);
                assert_eq!(score(case_in(&report, "random-games")), (3.0, 3.0), "{key}");
            }
            Expect::Refused => unreachable!(),
        }
    }
}

/// The random-games case of the assignment.yaml walk: nothing of its own but its games.
const BARE: &str = "name: random-games\n\
description: Random games.\n\
points: 3\n\
explore: {games: 6, seed: 5}\n";

/// What assignment.yaml's `key` must do for a random-games case that inherits it: its
/// replacement of assignment.yaml's text and the programs graded with what each gets (as
/// [`Expect::Graded`]); `Err(why)` for a key that says nothing about how a run is made.
type AssignmentVariant = (fn(&str) -> String, &'static [(&'static str, Option<f64>)]);

/// An [`AssignmentVariant`] (its arguments coerced to its types).
fn v(
    edit: fn(&str) -> String,
    programs: &'static [(&'static str, Option<f64>)],
) -> AssignmentVariant {
    (edit, programs)
}

fn assignment_variant(key: &str) -> Option<Result<AssignmentVariant, &'static str>> {
    const CODE: &str = "args: [random-code.txt]\nfiles:\n  random-code.txt: \"2461\\n\"\n";
    Some(Ok(match key {
        "args" | "files" => v(
            |text: &str| format!("{text}{CODE}"),
            &[("correct.py", Some(3.0)), ("buggy_fixed_name.py", None)],
        ),
        "reference_args" => v(
            |text: &str| {
                format!("{text}{CODE}  other.txt: \"1111\\n\"\nreference_args: [other.txt]\n")
            },
            &[("correct.py", None)],
        ),
        "limits" => v(
            |text: &str| {
                let text =
                    text.replace("  cpu_seconds: 5\n", "  cpu_seconds: 5\n  output_kb: 64\n");
                format!("{text}{CODE}")
            },
            &[("loud_start.py", Some(0.0)), ("correct.py", Some(3.0))],
        ),
        "end_of_input" => v(
            |text: &str| format!("{text}{CODE}end_of_input: close\n"),
            &[("correct.py", Some(3.0)), ("buggy_no_quit.py", None)],
        ),
        "terminal" => v(
            |text: &str| format!("{text}{CODE}terminal: true\n"),
            &[("only_at_a_terminal.py", Some(3.0))],
        ),
        "assignment" | "title" => return Some(Err("names the assignment")),
        "checks" => return Some(Err("the checks every case compares (walked as the case's)")),
        "total_points" | "rubric" | "requirements" => return Some(Err("the total and its parts")),
        "java_main" | "main_file" => return Some(Err("which file or class starts a submission")),
        "seed" | "parameters" | "variants" => {
            return Some(Err(
                "which games and variant a course plays (docs/variants.md)",
            ))
        }
        "reference" => return Some(Err("the reference program itself")),
        "vocabulary" => return Some(Err("what random games type")),
        _ => return None,
    }))
}

#[test]
fn every_key_of_assignment_yaml_that_makes_a_run_reaches_random_games() {
    if !have("python3") {
        return;
    }
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/case-schema.json"),
        )
        .expect("the schema"),
    )
    .expect("JSON");
    let keys: Vec<String> = schema["$defs"]["assignment"]["properties"]
        .as_object()
        .expect("assignment.yaml's properties")
        .keys()
        .cloned()
        .collect();
    let dir = tempfile::tempdir().expect("tempdir");
    let mut walked = 0;
    for key in &keys {
        let Some(variant) = assignment_variant(key) else {
            panic!(
                "the assignment.yaml key '{key}' of docs/case-schema.json is not walked here: if \
                 it says how a program is run, make it reach random-games cases and add it to \
                 `assignment_variant`; else say why not there"
            );
        };
        let Ok((edit, programs)) = variant else {
            continue;
        };
        walked += 1;
        let root = copy_assignment(&dir.path().join(key), false, Some(&["random-games"]));
        std::fs::write(root.join("cases/random-games.yaml"), BARE).expect("write the case");
        let header = root.join("assignment.yaml");
        let text = std::fs::read_to_string(&header).expect("header");
        let edited = edit(&text);
        assert_ne!(edited, text, "{key}");
        std::fs::write(&header, edited).expect("edit");
        grade()
            .args(["bless", "--root"])
            .arg(&root)
            .assert()
            .success();
        for (name, expected) in programs {
            let (_, report) = grade_codebreaker(&student(name), &root, &[]);
            let (got, of) = score(case_in(&report, "random-games"));
            match expected {
                Some(expected) => assert_eq!(
                    got,
                    *expected,
                    "{key}: {name} out of {of}: {:?}",
                    lost_points(&report)
                ),
                None => assert!(got < of, "{key}: {name} keeps {got} of {of}"),
            }
        }
    }
    assert_eq!(walked, 6, "{keys:?}");
}

#[test]
fn the_terminal_setting_reaches_random_games_from_the_command_line_and_assignment_yaml() {
    let program = student("only_at_a_terminal.py");
    if !have("python3") {
        return;
    }
    // Over pipes it prints nothing and ends: every case lost.
    let (_, report) = grade_codebreaker(&program, &assignment_dir(), &[]);
    assert_eq!(score(case_in(&report, "random-games")), (0.0, 3.0));
    // --terminal: every case, random games included.
    let (code, report) = grade_codebreaker(&program, &assignment_dir(), &["--terminal"]);
    assert_eq!(
        report["score"],
        TOTAL,
        "--terminal: {:?}",
        lost_points(&report)
    );
    assert_eq!(code, 0);
    // assignment.yaml's `terminal: true` does the same without the option (the stored
    // transcripts stay valid: the reference's transcript is a terminal's view either way).
    let dir = tempfile::tempdir().expect("tempdir");
    let root = copy_assignment(dir.path(), true, None);
    let header = root.join("assignment.yaml");
    let text = std::fs::read_to_string(&header).expect("header");
    std::fs::write(&header, format!("{text}terminal: true\n")).expect("edit");
    let (code, report) = grade_codebreaker(&program, &root, &[]);
    assert_eq!(
        report["score"],
        TOTAL,
        "terminal: true: {:?}",
        lost_points(&report)
    );
    assert_eq!(code, 0);
    // And `grade explore`: a difference over pipes, none under --terminal.
    for (flags, expected) in [(&[][..], 1), (&["--terminal"][..], 0)] {
        let explore = grade()
            .arg("explore")
            .arg(&program)
            .arg("--cases")
            .arg(assignment_dir())
            .args(["--games", "4", "--shrink-time", "2s"])
            .args(flags)
            .logged_output()
            .expect("explore runs");
        assert_eq!(
            explore.status.code(),
            Some(expected),
            "{flags:?}: {}",
            String::from_utf8_lossy(&explore.stdout)
        );
    }
}

/// `grade explore` on the committed assignment with `extra`: the exit status and the JSON.
fn explore_json(program: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let output = grade()
        .arg("explore")
        .arg(student(program))
        .arg("--cases")
        .arg(assignment_dir())
        .args(["--games", "6", "--shrink-time", "2s", "--format", "json"])
        .args(extra)
        .logged_output()
        .expect("explore runs");
    let code = output.status.code().unwrap_or(-1);
    let json = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "{program} {extra:?}: no JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (code, json)
}

#[test]
fn explore_with_a_case_plays_with_its_arguments_and_files() {
    if !have("python3") {
        return;
    }
    // The random-games case's file and argument reach both programs: the correct program
    // agrees; the one that reads code.txt (not there) differs.
    let (code, json) = explore_json("correct.py", &["--case", "random-games"]);
    assert_eq!(
        (code, &json["case"]),
        (0, &serde_json::json!("random-games"))
    );
    let (code, json) = explore_json("buggy_fixed_name.py", &["--case", "random-games"]);
    assert_eq!(code, 1, "{json:#}");
    // The case lose gives the code in code.txt: the same program agrees there.
    let (code, json) = explore_json("buggy_fixed_name.py", &["--case", "lose"]);
    assert_eq!(code, 0, "{json:#}");
    assert_eq!(json["case"], "lose");
    // Without --case, the assignment's random-games case (its only one) is how games run.
    let (code, json) = explore_json("buggy_fixed_name.py", &[]);
    assert_eq!(
        (code, &json["case"]),
        (1, &serde_json::json!("random-games"))
    );
    // A case that does not exist is one line naming the cases.
    let output = grade()
        .arg("explore")
        .arg(student("correct.py"))
        .arg("--cases")
        .arg(assignment_dir())
        .args(["--case", "no-such-case"])
        .logged_output()
        .expect("explore runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no-such-case") && stderr.contains("random-games"),
        "{stderr}"
    );
    // --save-case keeps the case's argument and file with the shrunk game.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = copy_assignment(dir.path(), true, None);
    let saved = grade()
        .arg("explore")
        .arg(student("buggy_duplicates.py"))
        .arg("--cases")
        .arg(&root)
        .args(["--games", "10", "--shrink-time", "5s", "--save-case"])
        .arg(&root)
        .logged_output()
        .expect("explore runs");
    let stdout = String::from_utf8_lossy(&saved.stdout);
    assert_eq!(saved.status.code(), Some(1), "{stdout}");
    let file = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Saved as "))
        .unwrap_or_else(|| panic!("no case saved: {stdout}"));
    let text = std::fs::read_to_string(file.trim()).expect("the saved case");
    assert!(
        text.contains("random-code.txt") && text.contains("2461"),
        "{text}"
    );
    // The saved case grades: the buggy program loses it, the correct one keeps it.
    let name = Path::new(file.trim())
        .file_stem()
        .expect("a name")
        .to_string_lossy()
        .into_owned();
    let (_, report) = grade_codebreaker(&student("buggy_duplicates.py"), &root, &["--case", &name]);
    let (got, of) = score(case_in(&report, &name));
    assert!(got < of, "{report:#}");
    let (_, report) = grade_codebreaker(&student("correct.py"), &root, &["--case", &name]);
    let (got, of) = score(case_in(&report, &name));
    assert_eq!(got, of, "{report:#}");
}
