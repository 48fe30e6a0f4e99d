//! An instructor's own assignment with no Rust, through the real binary: tic-tac-toe
//! (tests/assignments/tictactoe: handout.md, a Python reference program written for these
//! tests, assignment.yaml and cases/) blessed, verified, graded in every report format for
//! correct and buggy students in Python and C, explored with shrinking, graded as a class and
//! packaged for Gradescope; and the instructor's mistakes each reported in one line naming
//! the file.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::io::Read as _;
use std::path::{Path, PathBuf};

use support::*;

/// The assignment as committed (assignment.yaml, solution/, cases/, blessed reference/).
fn assignment_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assignments/tictactoe")
}

/// A copy of the assignment without its reference transcripts, in `dir`.
fn fresh_copy(dir: &Path) -> PathBuf {
    let root = dir.join("tictactoe");
    for entry in walkdir::WalkDir::new(assignment_dir()) {
        let entry = entry.expect("walk");
        let relative = entry.path().strip_prefix(assignment_dir()).expect("inside");
        if relative.starts_with("reference") {
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

/// The cases of the handout's rules, with their points (the random-games case aside).
const SCRIPTED_CASES: [&str; 6] = [
    "cell-taken",
    "draw",
    "invalid-cell",
    "win-column",
    "win-diagonal",
    "win-row",
];

/// Every case is worth 2 points: 7 cases.
const TOTAL: f64 = 14.0;

/// Grades `program` against the committed assignment with the JSON report.
fn grade_tictactoe(program: &Path, extra: &[&str]) -> (i32, serde_json::Value) {
    grade_json_with_cases(program, &assignment_dir(), extra)
}

fn available(program: &Path) -> bool {
    tools_for(program).iter().all(|tool| have(tool)) && have("python3")
}

#[test]
fn bless_records_the_reference_programs_transcripts_and_verify_checks_them() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = fresh_copy(dir.path());
    let bless = grade()
        .args(["bless", "--root"])
        .arg(&root)
        .logged_output()
        .expect("bless runs");
    let stdout = String::from_utf8_lossy(&bless.stdout);
    assert!(
        bless.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&bless.stderr)
    );
    assert!(
        stdout.contains("7 reference transcript(s) written"),
        "{stdout}"
    );
    // Worked by hand from handout.md and the reference's prompt: X takes 1, 2, 3 while O
    // takes 4 and 5; the board before the first move and after each, then the winner.
    let win_row = std::fs::read_to_string(root.join("reference/win-row.txt")).expect("written");
    let boards = [
        ". . .\n. . .\n. . .\n",
        "X . .\n. . .\n. . .\n",
        "X . .\nO . .\n. . .\n",
        "X X .\nO . .\n. . .\n",
        "X X .\nO O .\n. . .\n",
        "X X X\nO O .\n. . .\n",
    ];
    let moves = [("X", "1"), ("O", "4"), ("X", "2"), ("O", "5"), ("X", "3")];
    let mut expected = boards[0].to_string();
    for ((player, cell), board) in moves.iter().zip(&boards[1..]) {
        expected.push_str(&format!(
            "Player {player}, choose a cell (1-9): {cell}\n{board}"
        ));
    }
    expected.push_str("Player X wins!\n");
    assert_eq!(win_row, expected);
    // What bless wrote is what the committed assignment holds.
    for case in SCRIPTED_CASES {
        let path = format!("reference/{case}.txt");
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
    // A transcript edited by hand is caught, by name.
    let edited = root.join("reference/draw.txt");
    let text = std::fs::read_to_string(&edited).expect("draw");
    std::fs::write(&edited, text.replace("It's a draw!", "Draw.")).expect("edit");
    let verify = grade()
        .args(["verify", "--root"])
        .arg(&root)
        .logged_output()
        .expect("verify runs");
    assert_eq!(verify.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&verify.stdout);
    assert!(
        stdout.contains(&edited.display().to_string()) && stdout.contains("differs"),
        "{stdout}"
    );
}

#[test]
fn correct_programs_in_python_and_c_get_full_marks_whatever_the_handout_leaves_free() {
    for name in ["correct_plain.py", "correct_styled.py", "correct.c"] {
        let program = program(&format!("tictactoe/{name}"));
        if !available(&program) {
            continue;
        }
        let (code, report) = grade_tictactoe(&program, &[]);
        assert_eq!(report["score"], TOTAL, "{name}: {:?}", lost_points(&report));
        assert_eq!(report["max_score"], TOTAL, "{name}");
        assert_eq!(code, 0, "{name}");
        assert_eq!(report["assignment"], "tictactoe", "{name}");
    }
    // `--assignment NAME` names the same assignment when --cases is its directory.
    let program = program("tictactoe/correct_plain.py");
    if available(&program) {
        let (code, report) = grade_tictactoe(&program, &["--assignment", "tictactoe"]);
        assert_eq!((code, report["score"].as_f64()), (0, Some(TOTAL)));
    }
}

#[test]
fn each_buggy_program_loses_points_in_the_case_of_its_rule() {
    for (name, rule_case) in [
        ("buggy_no_diagonal.py", "win-diagonal"),
        ("buggy_zero_cell.py", "invalid-cell"),
        ("buggy_taken.c", "cell-taken"),
        ("buggy_no_draw.c", "draw"),
    ] {
        let program = program(&format!("tictactoe/{name}"));
        if !available(&program) {
            continue;
        }
        let (code, report) = grade_tictactoe(&program, &[]);
        assert_eq!(code, 1, "{name}");
        let lost = case_in(&report, rule_case);
        assert!(
            lost["score"].as_f64() < lost["max_score"].as_f64(),
            "{name} keeps full marks in {rule_case}"
        );
        // The other rules' cases keep their points: each bug costs where its rule is tested.
        for other in SCRIPTED_CASES.iter().filter(|c| **c != rule_case) {
            let kept = case_in(&report, other);
            assert_eq!(
                kept["score"],
                kept["max_score"],
                "{name} lost points in {other}: {:?}",
                lost_points(&report)
            );
        }
    }
}

#[test]
fn every_report_format_grades_the_external_assignment() {
    let program = program("tictactoe/buggy_no_diagonal.py");
    if !available(&program) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for format in ["text", "json", "junit", "gradescope", "html"] {
        let output = dir.path().join(format!("report.{format}"));
        let run = grade()
            .arg(&program)
            .arg("--cases")
            .arg(assignment_dir())
            .args(["--format", format, "--output"])
            .arg(&output)
            .logged_output()
            .expect("grade runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{format}: {stderr}");
        let text = std::fs::read_to_string(&output).expect("report written");
        assert!(text.contains("win-diagonal"), "{format}: {text}");
        if format == "gradescope" {
            let results: serde_json::Value = serde_json::from_str(&text).expect("json");
            assert_eq!(results["score"], TOTAL - 1.0, "{results:#}");
        }
    }
}

#[test]
fn explore_finds_a_difference_and_shrinks_it_to_one_line() {
    let buggy = program("tictactoe/buggy_zero_cell.py");
    if !available(&buggy) {
        return;
    }
    let run = grade()
        .args(["explore"])
        .arg(&buggy)
        .arg("--cases")
        .arg(assignment_dir())
        .args(["--games", "30", "--format", "json"])
        .logged_output()
        .expect("explore runs");
    assert_eq!(
        run.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let found: serde_json::Value = serde_json::from_slice(&run.stdout).expect("json");
    let finding = &found["finding"];
    let input: Vec<&str> = finding["input"]
        .as_array()
        .expect("input")
        .iter()
        .filter_map(|l| l.as_str())
        .collect();
    // The bug takes "0" (and anything not a number) for cell 9: one such line shows it.
    assert_eq!(input.len(), 1, "{finding:#}");
    assert!(
        input[0] == "0" || input[0].parse::<i64>().is_err(),
        "{input:?}"
    );
    assert!(finding["original_lines"].as_u64() > Some(1), "{finding:#}");
    assert!(
        finding["reference"]
            .as_str()
            .is_some_and(|r| r.contains("Invalid cell.")),
        "{finding:#}"
    );

    // --save-case adds the shrunk game as a case of the assignment, with its transcript.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = fresh_copy(dir.path());
    grade()
        .args(["bless", "--root"])
        .arg(&root)
        .assert()
        .success();
    let saved = grade()
        .args(["explore"])
        .arg(&buggy)
        .arg("--cases")
        .arg(&root)
        .args(["--games", "10", "--save-case"])
        .arg(&root)
        .logged_output()
        .expect("explore runs");
    assert_eq!(saved.status.code(), Some(1));
    let cases = std::fs::read_dir(root.join("cases"))
        .expect("cases")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("explore-"))
        .count();
    assert_eq!(cases, 1);
    grade()
        .args(["verify", "--root"])
        .arg(&root)
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "8 reference transcript(s) verified",
        ));

    // A correct program: nothing found in the same games.
    let correct = program("tictactoe/correct.c");
    if available(&correct) {
        grade()
            .args(["explore"])
            .arg(&correct)
            .arg("--cases")
            .arg(assignment_dir())
            .args(["--games", "30", "--assignment", "tictactoe"])
            .assert()
            .code(0);
    }
}

#[test]
fn a_class_is_graded_into_a_gradebook() {
    let programs = [
        program("tictactoe/correct_styled.py"),
        program("tictactoe/buggy_taken.c"),
    ];
    if !programs.iter().all(|p| available(p)) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("reports");
    let run = grade()
        .args(&programs)
        .arg("--cases")
        .arg(assignment_dir())
        .arg("--output-dir")
        .arg(&out)
        .logged_output()
        .expect("grade runs");
    assert_eq!(
        run.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let gradebook = std::fs::read_to_string(out.join("gradebook.csv")).expect("gradebook");
    let rows: Vec<&str> = gradebook.lines().collect();
    assert_eq!(rows.len(), 3, "{gradebook}");
    assert!(
        rows[0].starts_with("student,submission,score,max_score"),
        "{gradebook}"
    );
    let score_of = |student: &str| -> f64 {
        let row = rows
            .iter()
            .find(|r| r.starts_with(student))
            .unwrap_or_else(|| panic!("{student} in {gradebook}"));
        row.split(',')
            .nth(2)
            .and_then(|s| s.parse().ok())
            .expect("a score")
    };
    assert_eq!(score_of("correct_styled"), TOTAL, "{gradebook}");
    let buggy = score_of("buggy_taken");
    assert!(buggy < TOTAL && buggy > 0.0, "{gradebook}");
    for report in [
        "students/correct_styled.py.txt",
        "students/buggy_taken.c.txt",
        "instructor/buggy_taken.c.txt",
        "index.html",
    ] {
        assert!(out.join(report).is_file(), "{report} in {}", out.display());
    }
}

#[test]
fn the_gradescope_package_ships_the_assignment_and_grades_with_it() {
    let program = program("tictactoe/buggy_no_draw.c");
    if !available(&program) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let zip_path = dir.path().join("autograder.zip");
    grade()
        .args(["gradescope", "package", "--cases"])
        .arg(assignment_dir())
        .arg("-o")
        .arg(&zip_path)
        .assert()
        .success();
    let root = dir.path().join("autograder");
    let source = root.join("source");
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(&zip_path).expect("zip")).expect("a zip");
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("entry");
        let path = source.join(entry.name());
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("read");
        std::fs::write(&path, bytes).expect("write");
        if let Some(mode) = entry.unix_mode() {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        }
    }
    for file in [
        "cases/assignment.yaml",
        "cases/solution/tictactoe.py",
        "cases/cases/win-row.yaml",
        "cases/reference/win-row.txt",
    ] {
        assert!(source.join(file).is_file(), "{file} in the zip");
    }
    let run_autograder = std::fs::read_to_string(source.join("run_autograder")).expect("script");
    assert!(run_autograder.contains("-a tictactoe"), "{run_autograder}");
    let submission = root.join("submission");
    std::fs::create_dir_all(&submission).expect("mkdir");
    std::fs::copy(&program, submission.join("tictactoe.c")).expect("upload");
    std::fs::create_dir_all(root.join("results")).expect("mkdir");
    let status = std::process::Command::new("bash")
        .arg(source.join("run_autograder"))
        .env("AUTOGRADER", &root)
        .status()
        .expect("run_autograder runs");
    assert_eq!(status.code(), Some(0));
    let results: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("results/results.json")).expect("results.json"),
    )
    .expect("json");
    let score = results["score"].as_f64().expect("a score");
    assert!((TOTAL - 4.0..TOTAL).contains(&score), "{results:#}");
    // The same score as grading here.
    let (_, report) = grade_tictactoe(&program, &[]);
    assert_eq!(report["score"].as_f64(), Some(score), "{results:#}");
}

/// Runs grade with `args`; the exit status must be 2 and stderr one line naming `file`.
fn one_line_error(args: &[&std::ffi::OsStr], file: &Path, what: &str) {
    let run = grade().args(args).logged_output().expect("grade runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{what}: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{what}: {stderr}");
    assert!(
        stderr.contains(&file.display().to_string()),
        "{what}: {stderr} should name {}",
        file.display()
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
}

#[test]
fn an_instructors_mistakes_are_one_line_naming_the_file() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let student = program("tictactoe/correct_plain.py");
    let os = |s: &str| std::ffi::OsString::from(s);

    // A case with no reference transcript (bless not run for it).
    let root = fresh_copy(&dir.path().join("unblessed"));
    let args = [
        student.clone().into_os_string(),
        os("--cases"),
        root.clone().into_os_string(),
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    one_line_error(&args, &root.join("cases"), "no reference transcript");

    // A reference program that is not there.
    let root = fresh_copy(&dir.path().join("missing"));
    std::fs::remove_file(root.join("solution/tictactoe.py")).expect("remove");
    let bless = [os("bless"), os("--root"), root.clone().into_os_string()];
    let bless: Vec<&std::ffi::OsStr> = bless.iter().map(|a| a.as_os_str()).collect();
    one_line_error(&bless, &root.join("assignment.yaml"), "missing reference");

    // A reference program that does not build.
    if have("gcc") {
        let root = fresh_copy(&dir.path().join("broken"));
        std::fs::write(
            root.join("solution/tictactoe.c"),
            "int main( { return 0; }\n",
        )
        .expect("write");
        let header = root.join("assignment.yaml");
        let text = std::fs::read_to_string(&header).expect("header");
        std::fs::write(
            &header,
            text.replace("solution/tictactoe.py", "solution/tictactoe.c"),
        )
        .expect("edit");
        let bless = [os("bless"), os("--root"), root.clone().into_os_string()];
        let bless: Vec<&std::ffi::OsStr> = bless.iter().map(|a| a.as_os_str()).collect();
        one_line_error(&bless, &header, "reference does not build");
        // Grading says it once, before any student is graded.
        let args = [
            student.clone().into_os_string(),
            os("--cases"),
            root.clone().into_os_string(),
        ];
        let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
        one_line_error(
            &args,
            &header,
            "grading with a reference that does not build",
        );
        // Listing the cases builds nothing: the reference is built when it is first played.
        grade()
            .args(["list", "--cases"])
            .arg(&root)
            .assert()
            .success()
            .stdout(predicates::str::contains("tictactoe"));
    }

    // A reference program that crashes on a case.
    let root = fresh_copy(&dir.path().join("crashing"));
    let reference = root.join("solution/tictactoe.py");
    let text = std::fs::read_to_string(&reference).expect("reference");
    std::fs::write(
        &reference,
        text.replace(
            "            print(\"It's a draw!\")",
            // A segmentation fault (the program is pid 1 of its namespace: a signal it sends
            // itself would be ignored).
            "            import ctypes; ctypes.string_at(0)",
        ),
    )
    .expect("edit");
    let bless = [os("bless"), os("--root"), root.clone().into_os_string()];
    let bless: Vec<&std::ffi::OsStr> = bless.iter().map(|a| a.as_os_str()).collect();
    one_line_error(&bless, &root.join("cases/draw.yaml"), "reference crashes");

    // Another assignment's name with the directory of this one.
    let args = [
        student.clone().into_os_string(),
        os("--assignment"),
        os("nim"),
        os("--cases"),
        assignment_dir().into_os_string(),
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    one_line_error(&args, &assignment_dir(), "another assignment's name");

    // A typo in assignment.yaml.
    let root = fresh_copy(&dir.path().join("typo"));
    let header = root.join("assignment.yaml");
    let text = std::fs::read_to_string(&header).expect("header");
    std::fs::write(&header, text.replace("  program:", "  programme:")).expect("edit");
    let args = [
        student.into_os_string(),
        os("--cases"),
        root.clone().into_os_string(),
    ];
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    one_line_error(&args, &header, "unknown key");
}

/// A small assignment of the test's own whose program needs its command-line argument and a
/// file: `codeword CODE_FILE` reads the code word from CODE_FILE (and `words/letters.txt`
/// must exist), then answers each guess with "right", "wrong" or "invalid" (not three
/// letters), one line each, until the code is guessed.
const CODEWORD_REFERENCE: &str = r#"import sys

def main():
    if len(sys.argv) != 2:
        print("usage: codeword.py CODE_FILE", file=sys.stderr)
        sys.exit(2)
    code = open(sys.argv[1]).read().strip()
    open("words/letters.txt").read()
    while True:
        print("Guess:")
        try:
            guess = input()
        except EOFError:
            return
        if len(guess) != len(code) or not guess.isalpha():
            print("invalid")
        elif guess == code:
            print("right")
            return
        else:
            print("wrong")

main()
"#;

/// The codeword assignment's directory: its assignment.yaml (the argument and both files for
/// every run, a check that quotes its rule, a vocabulary), a fixed case and a random-games
/// case, blessed.
fn codeword_assignment(dir: &Path) -> PathBuf {
    let root = dir.join("codeword");
    std::fs::create_dir_all(root.join("cases")).expect("mkdir");
    std::fs::create_dir_all(root.join("solution")).expect("mkdir");
    std::fs::write(root.join("solution/codeword.py"), CODEWORD_REFERENCE).expect("reference");
    std::fs::write(
        root.join("assignment.yaml"),
        r#"assignment: codeword
args: [code.txt]
files:
  code.txt: "cab\n"
  "words/letters.txt": "abc: it's 100% \\ letters\n"
reference:
  program: solution/codeword.py
vocabulary:
  lines: ["abc", "cab", "bca", "x", "ab c"]
  max_lines: 6
checks:
  - kind: lines
    name: verdict
    item: verdict
    pattern: '\b(right|wrong|invalid)\b'
    rule: 'Rule 2: a guess that is not three letters is answered "invalid".'
    weight: 2
  - kind: exit
    weight: 1
"#,
    )
    .expect("assignment.yaml");
    std::fs::write(
        root.join("cases/right-first.yaml"),
        "name: right-first\ndescription: 'Rule 1: the code guessed first ends the game.'\n\
         points: 1\ninput: [cab]\n",
    )
    .expect("case");
    std::fs::write(
        root.join("cases/random-games.yaml"),
        "name: random-games\ndescription: Random games drawn from the vocabulary.\npoints: 2\n\
         explore: {games: 12, seed: 5}\n",
    )
    .expect("case");
    let bless = grade()
        .args(["bless", "--root"])
        .arg(&root)
        .logged_output()
        .expect("bless runs");
    assert!(bless.status.success(), "{bless:?}");
    root
}

/// A student's program with one bug (a guess that is not three letters is "wrong"), in
/// Python or JavaScript, alone in its folder under `dir`.
fn codeword_student(dir: &Path, language: &str) -> PathBuf {
    let folder = dir.join(format!("student-{language}"));
    std::fs::create_dir_all(&folder).expect("mkdir");
    let (name, source) = match language {
        "python" => (
            "guess.py",
            CODEWORD_REFERENCE.replace("print(\"invalid\")", "print(\"wrong\")"),
        ),
        _ => (
            "guess.js",
            r#"const fs = require("fs");
const code = fs.readFileSync(process.argv[2], "utf8").trim();
fs.readFileSync("words/letters.txt");
const rl = require("readline").createInterface({ input: process.stdin });
console.log("Guess:");
rl.on("line", (guess) => {
  if (guess === code) { console.log("right"); rl.close(); return; }
  console.log("wrong");
  console.log("Guess:");
});
"#
            .to_string(),
        ),
    };
    let path = folder.join(name);
    std::fs::write(&path, source).expect("student");
    path
}

/// Runs replay `commands` as printed, one `sh -c` each, in a copy of the student's folder
/// with `grade` on PATH; returns the standard output of the one marked `# your program` (with
/// or without a caveat after it) and of the one marked `# the reference`.
fn replay(commands: &[String], student: &Path) -> (String, String) {
    let folder = tempfile::tempdir().expect("tempdir");
    let from = student.parent().expect("folder");
    for entry in walkdir::WalkDir::new(from).min_depth(1) {
        let entry = entry.expect("entry");
        let target = folder
            .path()
            .join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    let grade_dir = assert_cmd::cargo::cargo_bin("grade")
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        grade_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (mut program, mut reference) = (None, None);
    for command in commands {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(folder.path())
            .env("PATH", &path)
            // A student's shell may send Cargo's builds elsewhere: the replay must not care.
            .env("CARGO_TARGET_DIR", folder.path().join("elsewhere"))
            .logged_output()
            .expect("sh runs");
        assert!(output.status.success(), "{command}: {output:?}");
        let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
        if command.ends_with("# your program") || command.contains("   # your program: ") {
            program = Some(stdout);
        } else if command.ends_with("# the reference") {
            reference = Some(stdout);
        }
    }
    (
        program.unwrap_or_else(|| panic!("no command for the program: {commands:?}")),
        reference.unwrap_or_else(|| panic!("no command for the reference: {commands:?}")),
    )
}

/// The lines of a report's excerpt (the terminal's view: each input shown on its own line
/// after the prompt that asked for it) that the program printed: without the typed input
/// lines and the excerpt's own markers.
fn printed_lines(excerpt: &str, input: &[String]) -> Vec<String> {
    excerpt
        .lines()
        .filter(|l| !input.iter().any(|i| i == l) && !l.starts_with('('))
        .map(str::to_string)
        .collect()
}

/// Whether `part` is a run of consecutive lines of `whole`.
fn contains_lines(whole: &str, part: &[String]) -> bool {
    let lines: Vec<&str> = whole.lines().collect();
    part.is_empty() || lines.windows(part.len()).any(|w| w == part)
}

/// Every replay command a report prints runs as printed: graded in JSON and text and explored
/// in JSON and text, a Python and a JavaScript student's replays write the argument's file and
/// the other, run the program as its student does with its argument, and print what the
/// report says the program printed; the reference's replay prints the reference transcript.
/// The rule the report quotes is the failing check's.
#[test]
fn every_printed_replay_runs_as_printed_and_prints_what_the_report_says() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = codeword_assignment(dir.path());
    for (language, run) in [
        ("python", "python3 guess.py"),
        ("javascript", "node guess.js"),
    ] {
        if language == "javascript" && !have("node") {
            continue;
        }
        let student = codeword_student(dir.path(), language);
        // The JSON report.
        let output = grade()
            .arg(&student)
            .arg("--cases")
            .arg(&root)
            .args(["--format", "json"])
            .logged_output()
            .expect("grade runs");
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
        let case = case_in(&report, "random-games");
        let commands: Vec<String> = case["notes"]
            .as_array()
            .expect("notes")
            .iter()
            .filter_map(|n| n.as_str()?.strip_prefix("replay it: ").map(str::to_string))
            .collect();
        assert_eq!(
            commands[..2],
            [
                "printf 'cab\\n' > code.txt".to_string(),
                "mkdir -p words".to_string()
            ],
            "{language}: {commands:#?}"
        );
        assert!(
            commands
                .iter()
                .any(|c| c.contains(&format!("| {run} code.txt   # your program"))),
            "{language}: {commands:#?}"
        );
        replays_show_the_difference(case, &commands, &student, language);

        // The text report prints the same commands, and the rule of the check that failed.
        let output = grade()
            .arg(&student)
            .arg("--cases")
            .arg(&root)
            .logged_output()
            .expect("grade runs");
        let text = String::from_utf8_lossy(&output.stdout);
        let printed: Vec<String> = text
            .lines()
            .filter_map(|l| {
                l.trim()
                    .strip_prefix("Note: replay it: ")
                    .map(str::to_string)
            })
            .collect();
        assert_eq!(printed, commands, "{text}");
        assert!(
            text.contains("Rule it breaks: Rule 2: a guess that is not three letters is answered \"invalid\"."),
            "{text}"
        );
        // The HTML page shows them too: copied from a browser, they are the same commands.
        let output = grade()
            .arg(&student)
            .arg("--cases")
            .arg(&root)
            .args(["--format", "html"])
            .logged_output()
            .expect("grade runs");
        let html = String::from_utf8_lossy(&output.stdout);
        let shown: Vec<String> = html
            .lines()
            .filter_map(|l| l.trim().strip_prefix("Note: replay it: "))
            .map(|l| {
                l.replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&quot;", "\"")
                    .replace("&#39;", "'")
                    .replace("&amp;", "&")
            })
            .collect();
        assert_eq!(shown, commands, "{html}");

        // grade explore: its JSON replay and its text's, run as printed.
        let output = grade()
            .arg("explore")
            .arg(&student)
            .arg("--cases")
            .arg(&root)
            .args(["--games", "20", "--format", "json"])
            .logged_output()
            .expect("explore runs");
        assert_eq!(output.status.code(), Some(1), "{output:?}");
        let found: serde_json::Value = serde_json::from_slice(&output.stdout).expect("json");
        let commands: Vec<String> = found["replay"]
            .as_array()
            .expect("replay")
            .iter()
            .filter_map(|c| c.as_str().map(str::to_string))
            .collect();
        let input: Vec<String> = found["finding"]["input"]
            .as_array()
            .expect("input")
            .iter()
            .filter_map(|l| l.as_str().map(str::to_string))
            .collect();
        let (program, reference) = replay(&commands, &student);
        // The whole reference transcript, its typed lines left out.
        let transcript = printed_lines(
            found["finding"]["reference"].as_str().expect("reference"),
            &input,
        );
        assert_eq!(
            reference.lines().collect::<Vec<_>>(),
            transcript,
            "{language}: {found:#}"
        );
        let actual = printed_lines(
            found["finding"]["check"]["difference"]["actual"]
                .as_str()
                .expect("actual"),
            &input,
        );
        assert!(
            contains_lines(&program, &actual),
            "{language}: {program:?} vs {actual:?}"
        );
        let output = grade()
            .arg("explore")
            .arg(&student)
            .arg("--cases")
            .arg(&root)
            .args(["--games", "20"])
            .logged_output()
            .expect("explore runs");
        let text = String::from_utf8_lossy(&output.stdout);
        let listed: Vec<String> = text
            .split("Replay it (each line a shell command, from your program's folder):\n")
            .nth(1)
            .expect("the replay")
            .lines()
            .map_while(|l| l.strip_prefix("    ").map(str::to_string))
            .collect();
        assert_eq!(listed, commands, "{text}");
    }
}

/// `grade play` on an instructor's reference program that fails says so: its usage error and
/// its status, instead of printing nothing and exiting 0; with its argument and a file of the
/// current directory (`--file`) it plays.
#[test]
fn grade_play_reports_a_reference_that_failed_and_takes_files() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = codeword_assignment(dir.path());
    let output = grade()
        .args(["play", "--cases"])
        .arg(&root)
        .arg("codeword")
        .write_stdin("abc\n")
        .logged_output()
        .expect("play runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("usage: codeword.py CODE_FILE"), "{stderr}");
    assert!(
        stderr.contains("the reference program solution/codeword.py exited with status 2"),
        "{stderr}"
    );
    // The file of the current directory replaces the assignment's code.txt ("cab").
    let here = tempfile::tempdir().expect("tempdir");
    std::fs::write(here.path().join("mine.txt"), "abc\n").expect("write");
    let output = grade()
        .current_dir(here.path())
        .args(["play", "--cases"])
        .arg(&root)
        .args(["--file", "code.txt=mine.txt", "codeword", "code.txt"])
        .write_stdin("abc\n")
        .logged_output()
        .expect("play runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "Guess:\nright\n");
    // A built-in assignment reads no --file.
    let output = grade()
        .args(["play", "--file", "x.txt", "nim"])
        .logged_output()
        .expect("play runs");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
}

/// The codeword student with its bug in C built by a Makefile, a Rust crate and a Go module,
/// each in its own folder under `dir` with the file that starts the build; the program each
/// build makes and where (`guess`, `target/release/guess`, `program`).
const BUILT_STUDENTS: &[(&str, &[(&str, &str)])] = &[
    (
        "make",
        &[
            ("Makefile", "guess: guess.c\n\tcc -O2 -o guess guess.c\n"),
            (
                "guess.c",
                r#"#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    char code[64] = "", guess[256];
    FILE *f = argc == 2 ? fopen(argv[1], "r") : NULL;
    if (!f || !fgets(code, sizeof code, f)) {
        fprintf(stderr, "usage: guess CODE_FILE\n");
        return 2;
    }
    fclose(f);
    code[strcspn(code, "\r\n")] = 0;
    f = fopen("words/letters.txt", "r");
    if (f) fclose(f);
    for (;;) {
        printf("Guess:\n");
        if (!fgets(guess, sizeof guess, stdin)) return 0;
        guess[strcspn(guess, "\r\n")] = 0;
        if (strcmp(guess, code) == 0) { printf("right\n"); return 0; }
        printf("wrong\n");
    }
}
"#,
            ),
        ],
    ),
    (
        "cargo",
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"guess\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
            ),
            (
                "src/main.rs",
                r#"use std::io::BufRead;

fn main() {
    let path = std::env::args().nth(1).expect("usage: guess CODE_FILE");
    let code = std::fs::read_to_string(path).expect("code file");
    let code = code.trim();
    let _ = std::fs::read_to_string("words/letters.txt");
    println!("Guess:");
    for line in std::io::stdin().lock().lines() {
        let guess = line.expect("line");
        if guess == code {
            println!("right");
            return;
        }
        println!("wrong");
        println!("Guess:");
    }
}
"#,
            ),
        ],
    ),
    (
        "go",
        &[
            ("go.mod", "module guess\n\ngo 1.18\n"),
            (
                "main.go",
                r#"package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		os.Exit(2)
	}
	code := strings.TrimSpace(string(data))
	os.ReadFile("words/letters.txt")
	in := bufio.NewScanner(os.Stdin)
	for {
		fmt.Println("Guess:")
		if !in.Scan() {
			return
		}
		if in.Text() == code {
			fmt.Println("right")
			return
		}
		fmt.Println("wrong")
	}
}
"#,
            ),
        ],
    ),
];

/// The codeword assignment of [`codeword_assignment`] with a fixed case the bug shows in
/// ("x" is answered "wrong", not "invalid"), blessed.
fn codeword_with_a_fixed_case(dir: &Path) -> PathBuf {
    let root = codeword_assignment(dir);
    std::fs::write(
        root.join("cases/invalid-first.yaml"),
        "name: invalid-first\ndescription: 'Rule 2: x is no guess.'\npoints: 1\n\
         input: [x, cab]\n",
    )
    .expect("case");
    let bless = grade()
        .args(["bless", "--root"])
        .arg(&root)
        .logged_output()
        .expect("bless runs");
    assert!(bless.status.success(), "{bless:?}");
    root
}

/// The JSON report of `folder` graded against the assignment at `root` (it loses points).
fn graded_json(folder: &Path, root: &Path) -> serde_json::Value {
    let output = grade()
        .arg(folder)
        .arg("--cases")
        .arg(root)
        .args(["--format", "json", "--no-cache"])
        .logged_output()
        .expect("grade runs");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}: {output:?}",
        folder.display()
    );
    serde_json::from_slice(&output.stdout).expect("json")
}

/// The replay commands a case's notes print ("replay it: …"), in order.
fn replay_notes(case: &serde_json::Value) -> Vec<String> {
    case["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str()?.strip_prefix("replay it: ").map(str::to_string))
        .collect()
}

/// Runs `commands` in a copy of the student's folder (`student`: its first file) and checks
/// that the program's replay prints what the report says it printed, the reference's what the
/// report expected, and that the two differ.
fn replays_show_the_difference(
    case: &serde_json::Value,
    commands: &[String],
    student: &Path,
    label: &str,
) {
    let input: Vec<String> = case["input"]
        .as_array()
        .expect("input")
        .iter()
        .filter_map(|l| l.as_str().map(str::to_string))
        .collect();
    let check = case["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["difference"].is_object())
        .expect("a check with its difference");
    let (program, reference) = replay(commands, student);
    let actual = printed_lines(
        check["difference"]["actual"].as_str().expect("actual"),
        &input,
    );
    let expected = printed_lines(
        check["difference"]["expected"].as_str().expect("expected"),
        &input,
    );
    assert!(!actual.is_empty() && !expected.is_empty(), "{check:#}");
    assert!(
        contains_lines(&program, &actual),
        "{label}: {program:?} vs {actual:?}"
    );
    assert!(
        contains_lines(&reference, &expected),
        "{label}: {reference:?} vs {expected:?}"
    );
    assert_ne!(
        program, reference,
        "{label}: the replays show the difference"
    );
}

/// Issue 32 item 4 for built programs: a C program built by its Makefile, a Rust crate and a
/// Go module (each where its toolchain is installed) replay as printed: the report prints the
/// build step grade ran, as the student types it in their folder, before the run line, which
/// runs the program that build made; run in a copy of the folder, the replay prints what the
/// report says the program printed. A fixed case's failure prints the same replay.
#[test]
fn replays_of_programs_built_by_make_cargo_and_go_build_them_first() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = codeword_with_a_fixed_case(dir.path());
    for (tool, files) in BUILT_STUDENTS {
        // Make is required (under CI=true, `have` fails the test without it); Cargo and Go
        // are tried where this user can run them (rustup's cargo under /root is out of an
        // unprivileged user's reach, and of the grader's as that user).
        let reachable = *tool == "make"
            || std::env::var_os("PATH").is_some_and(|path| {
                std::env::split_paths(&path).any(|dir| dir.join(tool).is_file())
            });
        if !reachable || !have(tool) {
            eprintln!("{tool} is not installed: its replay is not tried");
            continue;
        }
        let (build, run) = match *tool {
            "make" => ("make", "./guess code.txt"),
            "cargo" => (
                "cargo build --release --offline --quiet --target-dir target",
                "./target/release/guess code.txt",
            ),
            _ => ("go build -o program .", "./program code.txt"),
        };
        let folder = dir.path().join(format!("student-{tool}"));
        for (name, text) in *files {
            let path = folder.join(name);
            std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
        }
        let report = graded_json(&folder, &root);
        // A random game's finding, and a fixed case, replay alike.
        for name in ["random-games", "invalid-first"] {
            let case = case_in(&report, name);
            let commands = replay_notes(case);
            assert_eq!(
                commands.first().map(String::as_str),
                Some(format!("{build}   # build your program as grade did").as_str()),
                "{tool} {name}: {commands:#?}"
            );
            assert!(
                commands
                    .iter()
                    .any(|c| c.contains(&format!("| {run}   # your program"))),
                "{tool} {name}: {commands:#?}"
            );
            replays_show_the_difference(
                case,
                &commands,
                &folder.join(files[0].0),
                &format!("{tool} {name}"),
            );
        }
    }
}

/// A student's folder: each file's name and text.
type Files = &'static [(&'static str, &'static str)];

/// A Kotlin, a C# and a ready-made program (a shell script), each with the codeword bug: the
/// language, the tools it needs, its files.
const OTHER_STUDENTS: &[(&str, &[&str], Files)] = &[
    (
        "executable",
        &["sh"],
        &[(
            "guess",
            r#"#!/bin/sh
code=$(cat "$1")
cat words/letters.txt > /dev/null
while :; do
    echo "Guess:"
    IFS= read -r guess || exit 0
    if [ "$guess" = "$code" ]; then echo right; exit 0; fi
    echo wrong
done
"#,
        )],
    ),
    (
        "kotlin",
        &["kotlinc", "java"],
        &[(
            "guess.kt",
            r#"import java.io.File

fun main(args: Array<String>) {
    val code = File(args[0]).readText().trim()
    File("words/letters.txt").readText()
    while (true) {
        println("Guess:")
        val guess = readLine() ?: return
        if (guess == code) { println("right"); return }
        println("wrong")
    }
}
"#,
        )],
    ),
    (
        "csharp",
        &["dotnet"],
        &[(
            "Guess.cs",
            r#"using System;
using System.IO;

class Guess {
    static void Main(string[] args) {
        string code = File.ReadAllText(args[0]).Trim();
        File.ReadAllText("words/letters.txt");
        while (true) {
            Console.WriteLine("Guess:");
            string guess = Console.ReadLine();
            if (guess == null) return;
            if (guess == code) { Console.WriteLine("right"); return; }
            Console.WriteLine("wrong");
        }
    }
}
"#,
        )],
    ),
];

/// Issue 32 item 4 for the other languages: a Kotlin program, a C# program and a ready-made
/// one (a shell script) replay as printed, never as `./prog`: Kotlin built as grade builds it
/// (`kotlinc guess.kt -include-runtime -d program.jar`) and run as `java -jar program.jar`;
/// C# with the project file grade wrote written out first, `dotnet build -c Release -o out
/// --nologo`, then `dotnet out/program.dll`; the script as itself, `./guess`. Each where its
/// toolchain is installed (skipped, and said so, where not: neither is among CI's
/// toolchains); run in a copy of the folder, the replay prints what the report says the
/// program printed.
#[test]
fn replays_of_kotlin_csharp_and_ready_made_programs_run_as_printed() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = codeword_with_a_fixed_case(dir.path());
    for (language, tools, files) in OTHER_STUDENTS {
        // Kotlin and the .NET SDK are not among CI's toolchains (the distribution packages no
        // dotnet, and .ci/run installs neither): where they are missing the replay is not
        // run, and said so, under CI=true too; their printed commands are pinned by
        // src/submission.rs's unit tests. The ready-made program needs no toolchain.
        let missing: Vec<&str> = tools
            .iter()
            .copied()
            .filter(|tool| {
                !std::env::var_os("PATH").is_some_and(|path| {
                    std::env::split_paths(&path).any(|dir| dir.join(tool).is_file())
                })
            })
            .collect();
        if !missing.is_empty() {
            eprintln!(
                "skipped: the {language} replay is not tried ({} not installed)",
                missing.join(", ")
            );
            continue;
        }
        // The build lines as printed, worked by hand (C#'s project-file lines before its
        // build are checked to write program.csproj), and the run line.
        let (build, run): (Option<&str>, &str) = match *language {
            "executable" => (None, "./guess code.txt"),
            "kotlin" => (
                Some("kotlinc guess.kt -include-runtime -d program.jar"),
                "java -jar program.jar code.txt",
            ),
            _ => (
                Some("dotnet build -c Release -o out --nologo"),
                "dotnet out/program.dll code.txt",
            ),
        };
        let folder = dir.path().join(format!("student-{language}"));
        for (name, text) in *files {
            let path = folder.join(name);
            std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
            std::fs::write(&path, text).expect("write");
            if *language == "executable" {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                    .expect("chmod");
            }
        }
        let report = graded_json(&folder, &root);
        for name in ["random-games", "invalid-first"] {
            let case = case_in(&report, name);
            let commands = replay_notes(case);
            assert!(
                !commands.iter().any(|c| c.contains("./prog")),
                "{language} {name}: {commands:#?}"
            );
            match build {
                Some(build) => {
                    let built = commands
                        .iter()
                        .position(|c| *c == format!("{build}   # build your program as grade did"))
                        .unwrap_or_else(|| panic!("{language} {name}: {commands:#?}"));
                    // Before the build, only the C# project file is written.
                    assert!(
                        commands[..built]
                            .iter()
                            .all(|c| c.starts_with("printf '<Project ")
                                && c.ends_with("> program.csproj")
                                || c.starts_with("printf '") && c.ends_with(">> program.csproj")),
                        "{language} {name}: {commands:#?}"
                    );
                    assert_eq!(built > 0, *language == "csharp", "{commands:#?}");
                }
                None => assert_eq!(
                    commands.first().map(String::as_str),
                    Some("printf 'cab\\n' > code.txt"),
                    "{language} {name}: {commands:#?}"
                ),
            }
            assert!(
                commands
                    .iter()
                    .any(|c| c.contains(&format!("| {run}   # your program"))),
                "{language} {name}: {commands:#?}"
            );
            replays_show_the_difference(
                case,
                &commands,
                &folder.join(files[0].0),
                &format!("{language} {name}"),
            );
        }
    }
}

/// Whether every line of a report's excerpt `lines` appears in `output`, in order, without
/// the input the excerpt shows after a prompt ("Player 1: Enter your move: 0 4"): the output
/// of a replay piped, where nothing typed is echoed and a prompt runs into the next line.
fn contains_in_order(output: &str, lines: &[String], input: &[String]) -> bool {
    let mut from = 0;
    lines.iter().all(|line| {
        let shown = input
            .iter()
            .find_map(|typed| {
                line.strip_suffix(typed.as_str())
                    .filter(|p| p.ends_with(' '))
            })
            .unwrap_or(line)
            .trim();
        match output[from..].find(shown) {
            Some(at) => {
                from += at + shown.len();
                true
            }
            None => false,
        }
    })
}

/// Issue 32: a driven case that loses points prints a replay too. A Silver Dollar program
/// that refuses an illegal move silently, and draws the same strip every run (a fixed seed,
/// so that the run replays), loses off-edge, whose moves its driver computes move by move from
/// the program's own strip: the report prints the lines the driver sent, piped into the
/// student's own command, and into the reference started on the program's strip (`--board`);
/// run as printed, the program's replay prints what the report quotes it printing, and the
/// reference's what it quotes the reference printing.
#[test]
fn a_driven_case_that_loses_points_prints_a_replay_that_runs_as_printed() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("student");
    std::fs::create_dir_all(&folder).expect("mkdir");
    let source = std::fs::read_to_string(program("silver_dollar/buggy_silent_illegal.py"))
        .expect("program")
        .replace(
            "import random\n",
            "import random\nrandom.seed(2024)  # the same strip every run\n",
        );
    assert!(source.contains("random.seed(2024)"));
    let student = folder.join("coins.py");
    std::fs::write(&student, source).expect("write");
    let (code, report) = grade_json(&student, "silver_dollar", &["--case", "off-edge"]);
    assert_eq!(code, 1, "{report:#}");
    let case = case_in(&report, "off-edge");
    let commands: Vec<String> = case["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str()?.strip_prefix("replay it: ").map(str::to_string))
        .collect();
    let input: Vec<String> = case["input"]
        .as_array()
        .expect("input")
        .iter()
        .filter_map(|l| l.as_str().map(str::to_string))
        .collect();
    // The lines the driver sent, as the report lists them, typed into both.
    assert_eq!(input.first().map(String::as_str), Some("3"), "{case:#}");
    let typed: String = input.iter().map(|l| format!("{l}\\n")).collect();
    assert!(
        commands.iter().any(|c| c.starts_with(&format!(
            "printf '{typed}' | python3 coins.py   # your program"
        ))),
        "{commands:#?}"
    );
    assert!(
        commands.iter().any(|c| c.starts_with(&format!(
            "printf '{typed}' | grade play silver_dollar --board '"
        )) && c.ends_with("   # the reference")),
        "{commands:#?}"
    );
    let check = case["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["difference"].is_object())
        .expect("a check with its difference");
    let (program, reference) = replay(&commands, &student);
    let actual = printed_lines(
        check["difference"]["actual"].as_str().expect("actual"),
        &input,
    );
    let expected = printed_lines(
        check["difference"]["expected"].as_str().expect("expected"),
        &input,
    );
    assert!(!actual.is_empty() && !expected.is_empty(), "{check:#}");
    assert!(
        contains_in_order(&program, &actual, &input),
        "{program:?} vs {actual:?}"
    );
    assert!(
        contains_in_order(&reference, &expected, &input),
        "{reference:?} vs {expected:?}"
    );
    assert_ne!(program, reference, "the replays show the difference");
}
