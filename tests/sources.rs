//! Students' habits (issue 30), through the real binary on programs written for the test
//! suite (tests/programs/README.md, "Student habits"):
//!
//! * sources saved by Windows Notepad, with a UTF-8 byte order mark and CRLF line ends, in
//!   Java, C++, Python, JavaScript and Perl: full marks for the correct ones, points lost in
//!   the case of their rule for the buggy ones, and the student's files left as they were;
//! * one file of a program of several (`grade PlayGame.java` beside `CoinStrip.java`,
//!   `main.py` importing `nim_helpers.py`, `main.cpp` including `nim_helpers.h`,
//!   `tictactoe.js` requiring `./board`): graded with the files it uses, with a note naming
//!   them and the folder to give;
//! * Node programs that close their readline interface after the last answer (line events,
//!   `rl.question` callbacks, `for await`): they end by themselves in fixed cases and random
//!   games, over pipes and under `--terminal`, and read no line ahead.

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// The test suite's own assignment with no Rust (tests/assignments/tictactoe).
fn tictactoe() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assignments/tictactoe")
}

/// The scripted cases of tictactoe (its random-games case aside).
const TICTACTOE_SCRIPTED: [&str; 6] = [
    "cell-taken",
    "draw",
    "invalid-cell",
    "win-column",
    "win-diagonal",
    "win-row",
];

/// Grades `program` for `assignment` (a built-in name, or "tictactoe" for the test suite's
/// own) with the JSON report.
fn graded(program: &Path, assignment: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    if assignment != "tictactoe" {
        return grade_json(program, assignment, extra);
    }
    let output = grade()
        .arg(program)
        .arg("--cases")
        .arg(tictactoe())
        .args(["--format", "json"])
        .args(extra)
        .logged_output()
        .expect("grade runs");
    let code = output.status.code().unwrap_or(-1);
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report for {} ({e}); exit {code}\nstderr: {}",
            program.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (code, report)
}

/// Grades with the text report (where notes are shown); returns the exit code and the text.
fn graded_text(program: &Path, assignment: &str) -> (i32, String) {
    let mut command = grade();
    command.arg(program).env("NO_COLOR", "1");
    if assignment == "tictactoe" {
        command.arg("--cases").arg(tictactoe());
    } else {
        command.args(["--assignment", assignment]);
    }
    let output = command.logged_output().expect("grade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

fn case<'a>(report: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    report["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no case {name} in {report:#}"))
}

fn available(program: &Path) -> bool {
    tools_for(program).iter().all(|tool| have(tool))
}

/// Asserts full marks and exit 0.
fn assert_full_marks(relative: &str, code: i32, report: &serde_json::Value) {
    assert_eq!(
        report["score"],
        report["max_score"],
        "{relative} follows the handout but lost points: {:#?}",
        lost_points(report)
    );
    assert_eq!(code, 0, "{relative}");
}

/// Asserts that `rule_case` lost points (and the report's exit code says so), while the
/// program, built and run, kept most of its points: a buggy copy loses where its rule is
/// tested, not everywhere as a program that does not build does.
fn assert_loses_in(relative: &str, code: i32, report: &serde_json::Value, rule_case: &str) {
    let lost = case(report, rule_case);
    assert!(
        lost["score"].as_f64() < lost["max_score"].as_f64(),
        "{relative} keeps full marks in {rule_case}: {:#?}",
        lost_points(report)
    );
    assert_eq!(code, 1, "{relative}");
    let score = report["score"].as_f64().unwrap_or(0.0);
    let max = report["max_score"].as_f64().unwrap_or(0.0);
    assert!(
        score > max * 0.75,
        "{relative} lost more than its bug costs ({score}/{max}): {:#?}",
        lost_points(report)
    );
}

/// Every source file under `path` (a file or a folder) of the given extensions.
fn sources(path: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    walkdir::WalkDir::new(path)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && e.path()
                    .extension()
                    .is_some_and(|x| extensions.iter().any(|want| x == *want))
        })
        .map(|e| e.into_path())
        .collect()
}

/// The Notepad programs: (assignment, program).
const NOTEPAD_CORRECT: [(&str, &str); 5] = [
    ("silver_dollar", "silver_dollar/correct_notepad"),
    ("nim", "nim/correct_notepad.cpp"),
    ("m", "m/correct_notepad.py"),
    ("nim", "nim/correct_notepad.js"),
    ("nim", "nim/correct_notepad.pl"),
];

#[test]
fn sources_saved_by_notepad_get_full_marks_and_stay_as_saved() {
    for (assignment, relative) in NOTEPAD_CORRECT {
        let path = program(relative);
        if !available(&path) {
            continue;
        }
        let files = sources(&path, &["java", "cpp", "py", "js", "pl"]);
        assert!(!files.is_empty(), "{relative}");
        let before: Vec<Vec<u8>> = files
            .iter()
            .map(|f| std::fs::read(f).expect("read"))
            .collect();
        // As Notepad saved them (a checkout that rewrote line ends would test nothing).
        for (file, bytes) in files.iter().zip(&before) {
            assert!(bytes.starts_with(b"\xef\xbb\xbf"), "{}", file.display());
            assert!(bytes.windows(2).any(|w| w == b"\r\n"), "{}", file.display());
        }
        let (code, report) = graded(&path, assignment, &[]);
        assert_full_marks(relative, code, &report);
        // Only the private copy lost its byte order mark.
        for (file, bytes) in files.iter().zip(&before) {
            assert_eq!(
                &std::fs::read(file).expect("read"),
                bytes,
                "{} was changed",
                file.display()
            );
        }
    }
}

#[test]
fn buggy_sources_saved_by_notepad_lose_points_in_the_case_of_their_rule() {
    for (assignment, relative, rule_case) in [
        (
            "silver_dollar",
            "silver_dollar/buggy_notepad_land_on_coin",
            "land-on-neighbour",
        ),
        (
            "nim",
            "nim/buggy_notepad_accepts_four.cpp",
            "error-more-than-three",
        ),
        (
            "nim",
            "nim/buggy_notepad_accepts_four.js",
            "error-more-than-three",
        ),
        ("m", "m/buggy_notepad_reuse_number.py", "used-number"),
    ] {
        let path = program(relative);
        if !available(&path) {
            continue;
        }
        let (code, report) = graded(&path, assignment, &[]);
        assert_loses_in(relative, code, &report, rule_case);
    }
}

/// Grades one file of a program of several with the text report: full marks, and a note
/// naming what it uses from its folder and the folder to give.
fn check_one_file(assignment: &str, relative: &str, uses: &str) {
    let path = program(relative);
    if !available(&path) {
        return;
    }
    let (code, text) = graded_text(&path, assignment);
    let score = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("Score: "))
        .unwrap_or_else(|| panic!("{relative}: no score in\n{text}"));
    let (got, max) = score.split_once('/').expect("a score");
    assert_eq!(got, max, "{relative} lost points:\n{text}");
    assert_eq!(code, 0, "{relative}:\n{text}");
    let name = path.file_name().expect("a name").to_string_lossy();
    let folder = path.parent().expect("a folder").display().to_string();
    let note = text
        .lines()
        .find(|l| l.starts_with(&format!("Note: {name} uses ")))
        .unwrap_or_else(|| panic!("{relative}: no note on the files it uses:\n{text}"));
    assert!(
        note.contains(&format!("uses {uses} from its folder")),
        "{relative}: {note}"
    );
    assert!(
        note.ends_with(&format!("grade {folder})")),
        "{relative}: {note}"
    );
}

#[test]
fn one_java_file_of_two_is_compiled_with_the_classes_it_uses_beside_it() {
    check_one_file(
        "silver_dollar",
        "silver_dollar/correct_plain/PlayGame.java",
        "CoinStrip.java",
    );
    // Saved by Notepad too.
    check_one_file(
        "silver_dollar",
        "silver_dollar/correct_notepad/PlayGame.java",
        "CoinStrip.java",
    );
    // Eclipse's layout: src/lab1/ holding `package lab1;` files.
    check_one_file(
        "silver_dollar",
        "silver_dollar/correct_package/src/lab1/PlayGame.java",
        "CoinStrip.java",
    );
}

#[test]
fn one_file_of_a_program_in_another_language_is_graded_with_the_files_it_uses() {
    check_one_file("nim", "nim/split_python/main.py", "nim_helpers.py");
    check_one_file(
        "nim",
        "nim/split_cpp/main.cpp",
        "nim_helpers.h, nim_helpers.cpp",
    );
    check_one_file("tictactoe", "tictactoe/split_js/tictactoe.js", "board.js");
}

#[test]
fn a_package_folder_and_a_split_folder_are_graded_whole() {
    for (assignment, relative) in [
        ("silver_dollar", "silver_dollar/correct_package"),
        // Its entry point is the only file no other one requires.
        ("tictactoe", "tictactoe/split_js"),
    ] {
        let path = program(relative);
        if !available(&path) {
            continue;
        }
        let (code, report) = graded(&path, assignment, &[]);
        assert_full_marks(relative, code, &report);
    }
}

#[test]
fn buggy_one_file_of_several_loses_points_in_the_case_of_its_rule() {
    for (assignment, relative, rule_case) in [
        (
            "silver_dollar",
            "silver_dollar/buggy_land_on_coin/PlayGame.java",
            "land-on-neighbour",
        ),
        ("tictactoe", "tictactoe/buggy_split_js/tictactoe.js", "draw"),
    ] {
        let path = program(relative);
        if !available(&path) {
            continue;
        }
        let (code, report) = graded(&path, assignment, &[]);
        assert_loses_in(relative, code, &report, rule_case);
    }
}

/// Node programs that close their readline interface once the game is over.
const NODE_CLOSING: [(&str, &str); 5] = [
    ("tictactoe", "tictactoe/correct_readline_close.js"),
    ("tictactoe", "tictactoe/correct_question_close.js"),
    ("tictactoe", "tictactoe/correct_for_await.mjs"),
    ("tictactoe", "tictactoe/split_js/tictactoe.js"),
    ("nim", "nim/correct_question_close.js"),
];

#[test]
fn node_programs_that_close_readline_end_by_themselves() {
    if !have("node") {
        return;
    }
    for (assignment, relative) in NODE_CLOSING {
        let path = program(relative);
        let (code, report) = graded(&path, assignment, &[]);
        assert_full_marks(relative, code, &report);
    }
    // Under a terminal too, where readline puts the terminal in raw mode and echoes what is
    // typed itself: every case ends when the reference's game does, and the random games
    // (played over pipes) all agree.
    for (assignment, relative) in NODE_CLOSING.iter().filter(|(a, _)| *a == "tictactoe") {
        let path = program(relative);
        let (code, report) = graded(&path, assignment, &["--terminal"]);
        for name in TICTACTOE_SCRIPTED {
            let checks = case(&report, name)["checks"].as_array().expect("checks");
            let exit = checks
                .iter()
                .find(|c| c["name"] == "exit")
                .unwrap_or_else(|| panic!("{relative} {name}: no exit check"));
            assert_eq!(
                exit["passed"], true,
                "{relative} --terminal {name}: {exit:#}"
            );
        }
        assert_full_marks(&format!("{relative} --terminal"), code, &report);
    }
}

#[test]
fn buggy_node_programs_that_close_readline_lose_points_in_the_case_of_their_rule() {
    if !have("node") {
        return;
    }
    let relative = "tictactoe/buggy_readline_no_antidiagonal.js";
    let (code, report) = graded(&program(relative), "tictactoe", &[]);
    assert_loses_in(relative, code, &report, "win-diagonal");
    for other in TICTACTOE_SCRIPTED.iter().filter(|c| **c != "win-diagonal") {
        let kept = case(&report, other);
        assert_eq!(
            kept["score"],
            kept["max_score"],
            "{relative} lost points in {other}: {:#?}",
            lost_points(&report)
        );
    }
    let relative = "nim/buggy_question_close_silent_zero.js";
    let (code, report) = graded(&program(relative), "nim", &[]);
    assert_loses_in(relative, code, &report, "error-less-than-one");
}

#[test]
fn a_closed_readline_interface_reads_no_line_ahead() {
    if !have("node") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    // X wins on the fifth line (1 2 3 across the top); three more lines follow.
    let input = dir.path().join("input.txt");
    std::fs::write(&input, "1\n4\n2\n5\n3\n9\n8\n7\n").expect("write");
    for relative in [
        "tictactoe/correct_readline_close.js",
        "tictactoe/correct_question_close.js",
    ] {
        for terminal in [false, true] {
            let mut command = grade();
            command
                .args(["run", "--json", "--input"])
                .arg(&input)
                .arg("--file")
                .arg(format!("prog.js={}", program(relative).display()));
            if terminal {
                command.arg("--terminal");
            }
            let output = command
                .args(["--", "node", "prog.js"])
                .logged_output()
                .expect("grade run");
            let run: serde_json::Value = serde_json::from_slice(&output.stdout)
                .unwrap_or_else(|e| panic!("{relative}: no JSON ({e})"));
            let shown = format!("{relative} terminal={terminal}: {}", run["terminal_text"]);
            assert_eq!(run["ending"], "exited", "{shown}");
            assert_eq!(run["code"], 0, "{shown}");
            // The three lines after the win were never typed: nobody asked for them.
            assert_eq!(run["unread_inputs"], 3, "{shown}");
            let text = run["terminal_text"].as_str().expect("text");
            assert!(text.contains("Player X wins!"), "{shown}");
        }
    }
}
