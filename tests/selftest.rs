//! Issue 32, items 6 and 7, through the real binary: an instructor's assignment tests itself.
//! `grade verify --root DIR` grades DIR/submissions/correct (every point kept) and
//! DIR/submissions/buggy (points lost, in the cases each names with `grade: loses CASE`), on
//! temporary copies of tests/assignments/tictactoe; `grade new` scaffolds an assignment that
//! verifies once blessed; and verify's warnings (random games typed on after the game is
//! over, a game gate over refusals, the same files in every case) fire on a crafted
//! assignment and not on tic-tac-toe.

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// The assignment as committed.
fn tictactoe() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/assignments/tictactoe")
}

/// A copy of the committed assignment (its transcripts too) in `dir`; with `submissions`
/// false, without its submissions/ folder.
fn copy_of_tictactoe(dir: &Path, submissions: bool) -> PathBuf {
    let root = dir.join("tictactoe");
    for entry in walkdir::WalkDir::new(tictactoe()) {
        let entry = entry.expect("walk");
        let relative = entry.path().strip_prefix(tictactoe()).expect("inside");
        if !submissions && relative.starts_with("submissions") {
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

/// `grade verify --root root`: exit status and standard output.
fn verify(root: &Path) -> (Option<i32>, String) {
    let output = grade()
        .args(["verify", "--root"])
        .arg(root)
        .logged_output()
        .expect("verify runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

/// Plants a test-suite program in the copy's submissions/KIND/ as NAME, with `first_line`
/// (a `grade: loses` comment) put before its text.
fn plant(root: &Path, kind: &str, from: &str, name: &str, first_line: &str) -> PathBuf {
    let folder = root.join("submissions").join(kind);
    std::fs::create_dir_all(&folder).expect("mkdir");
    let text = std::fs::read_to_string(program(from)).expect("program");
    let path = folder.join(name);
    std::fs::write(&path, format!("{first_line}{text}")).expect("plant");
    path
}

#[test]
fn verify_passes_with_the_assignments_own_programs_and_warns_of_nothing() {
    if !(have("python3") && have("gcc")) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = copy_of_tictactoe(dir.path(), true);
    let (code, stdout) = verify(&root);
    assert_eq!(code, Some(0), "{stdout}");
    // Each program by name, with its expected verdict (worked out in tests/external.rs: the
    // buggy ones lose points in the case of their rule).
    for (name, verdict) in [
        (
            "correct/plain.py",
            "14/14, full marks as a correct program must",
        ),
        (
            "correct/pipes.c",
            "14/14, full marks as a correct program must",
        ),
        ("buggy/no_diagonal.py", "win-diagonal"),
        ("buggy/taken.c", "cell-taken"),
    ] {
        let line = stdout
            .lines()
            .find(|l| l.contains(&format!("submissions/{name}: ")))
            .unwrap_or_else(|| panic!("no line for {name}: {stdout}"));
        assert!(line.contains(verdict), "{line}");
    }
    assert!(
        stdout.contains("7 reference transcript(s) verified; 4 of 4 program(s) in"),
        "{stdout}"
    );
    assert!(!stdout.contains("warning:"), "{stdout}");
    // --no-submissions: the transcripts alone.
    let output = grade()
        .args(["verify", "--no-submissions", "--root"])
        .arg(&root)
        .logged_output()
        .expect("verify runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("submissions/"), "{stdout}");
}

#[test]
fn a_correct_program_that_loses_a_point_fails_verify_naming_it_and_the_case() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = copy_of_tictactoe(dir.path(), false);
    // A diagonal never wins: filed as correct, it loses points in win-diagonal (and the
    // other cases keep theirs, tests/external.rs).
    let planted = plant(
        &root,
        "correct",
        "tictactoe/buggy_no_diagonal.py",
        "diagonal.py",
        "",
    );
    let (code, stdout) = verify(&root);
    assert_eq!(code, Some(1), "{stdout}");
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with(&format!("{}: ", planted.display())))
        .collect();
    assert!(!lines.is_empty(), "{stdout}");
    assert!(
        lines
            .iter()
            .any(|l| l.contains("a correct program lost points in case win-diagonal")),
        "{stdout}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("case win-row")),
        "{stdout}"
    );
    assert!(stdout.contains("0 of 1 program(s) in"), "{stdout}");
}

#[test]
fn a_buggy_program_that_keeps_its_points_fails_verify_naming_it() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = copy_of_tictactoe(dir.path(), false);
    // A correct program filed as buggy keeps all 14 points (7 cases of 2).
    let keeps = plant(&root, "buggy", "tictactoe/correct_plain.py", "keeps.py", "");
    // A real bug (a diagonal never wins) that names a case it does not lose: draw.
    let wrong_case = plant(
        &root,
        "buggy",
        "tictactoe/buggy_no_diagonal.py",
        "wrong_case.py",
        "# grade: loses draw\n",
    );
    // ... and one naming its own case, which holds.
    let right_case = plant(
        &root,
        "buggy",
        "tictactoe/buggy_no_diagonal.py",
        "right_case.py",
        "# grade: loses win-diagonal\n",
    );
    let (code, stdout) = verify(&root);
    assert_eq!(code, Some(1), "{stdout}");
    let line_of = |path: &Path| -> Vec<&str> {
        stdout
            .lines()
            .filter(|l| l.starts_with(&format!("{}: ", path.display())))
            .collect()
    };
    assert_eq!(
        line_of(&keeps),
        [format!(
            "{}: a buggy program kept all 14 points: add a case (or a check) that its bug fails",
            keeps.display()
        )],
        "{stdout}"
    );
    let wrong = line_of(&wrong_case);
    assert_eq!(wrong.len(), 1, "{stdout}");
    assert!(
        wrong[0].contains("kept all 2 points of case draw, which it names (grade: loses draw)"),
        "{stdout}"
    );
    let right = line_of(&right_case);
    assert_eq!(right.len(), 1, "{stdout}");
    assert!(
        right[0].contains("loses points in ")
            && right[0].contains("win-diagonal")
            && right[0].contains("as a buggy program must"),
        "{stdout}"
    );
    assert!(stdout.contains("1 of 3 program(s) in"), "{stdout}");
}

/// A guessing game's reference in Python: the secret is 3; "Too low."/"Too high."; "Correct!"
/// ends it.
const GUESS: &str = r#"print("Guess my number (1-5).")
while True:
    answer = input("Your guess: ").strip()
    if answer == "3":
        print("Correct!")
        break
    print("Too low." if answer < "3" else "Too high.")
"#;

#[test]
fn grade_new_scaffolds_an_assignment_that_verifies_once_blessed() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let reference = dir.path().join("guess.py");
    std::fs::write(&reference, GUESS).expect("reference");
    let root = dir.path().join("guess_game");
    let output = grade()
        .args(["new"])
        .arg(&root)
        .arg("--reference")
        .arg(&reference)
        .logged_output()
        .expect("new runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    for file in [
        "assignment.yaml",
        "handout.md",
        "solution/guess.py",
        "cases/start.yaml",
        "submissions/correct/guess.py",
    ] {
        assert!(root.join(file).is_file(), "{file}: {stdout}");
    }
    assert!(root.join("submissions/buggy").is_dir());
    assert!(stdout.contains("grade bless --root"), "{stdout}");
    // Not blessed yet: verify says which transcript is missing.
    let (code, stdout) = verify(&root);
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("start.txt: missing"), "{stdout}");
    grade()
        .args(["bless", "--root"])
        .arg(&root)
        .assert()
        .success();
    let start = std::fs::read_to_string(root.join("reference/start.txt")).expect("blessed");
    assert_eq!(start, "Guess my number (1-5).\nYour guess: ");
    let (code, stdout) = verify(&root);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(
        stdout.contains("submissions/correct/guess.py: 1/1, full marks"),
        "{stdout}"
    );
    // A case of the instructor's and a buggy program that names it: still all as expected.
    std::fs::write(
        root.join("cases/low-then-right.yaml"),
        "name: low-then-right\ndescription: 'Rule 1: 1 is too low, 3 is right.'\npoints: 2\n\
         input: [\"1\", \"3\"]\n",
    )
    .expect("case");
    std::fs::write(
        root.join("submissions/buggy/always_high.py"),
        format!(
            "# grade: loses low-then-right\n{}",
            GUESS.replace("Too low.", "Too high.")
        ),
    )
    .expect("buggy");
    grade()
        .args(["bless", "--root"])
        .arg(&root)
        .assert()
        .success();
    let (code, stdout) = verify(&root);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("2 of 2 program(s)"), "{stdout}");

    // Refusals, each one line: a directory that is not empty, a name that is not one.
    for (target, what) in [
        (root.clone(), "not empty"),
        (dir.path().join("Guess-Game"), "lower-case letters"),
        (dir.path().join("nim"), "built-in"),
    ] {
        let output = grade()
            .args(["new"])
            .arg(&target)
            .arg("--reference")
            .arg(&reference)
            .logged_output()
            .expect("new runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(what), "{stderr}");
    }
    assert!(!dir.path().join("Guess-Game").exists());
}

/// A counting game: add 1 to 3 each turn, "q" quits, 10 or more ends it.
const COUNTER: &str = r#"total = 0
print("Add 1, 2 or 3 each turn; q quits.")
while True:
    answer = input("Add: ").strip()
    if answer == "q":
        print("Bye.")
        break
    if answer not in ("1", "2", "3"):
        print("Invalid number.")
        continue
    total += int(answer)
    print(f"Total: {total}")
    if total >= 10:
        print("Done!")
        break
"#;

/// The counting game as an assignment that earns each warning: a vocabulary whose games mostly
/// end at a "q" long before their lines do, `game: true` on a message ("Bye.") and on the
/// totals of a case that opens with a refused input, and the same notes.txt in every case.
fn counter_assignment(dir: &Path) -> PathBuf {
    let root = dir.join("counter");
    std::fs::create_dir_all(root.join("solution")).expect("mkdir");
    std::fs::create_dir_all(root.join("cases")).expect("mkdir");
    std::fs::write(root.join("solution/counter.py"), COUNTER).expect("reference");
    std::fs::write(
        root.join("assignment.yaml"),
        r#"assignment: counter
reference: {program: solution/counter.py}
vocabulary: {lines: ["q", "1", "x"], max_lines: 20}
checks:
  - {kind: lines, name: totals, item: total, pattern: 'total\D*(\d+)', game: true, weight: 3}
  - {kind: lines, name: "Invalid number.", item: message, pattern: 'invalid', at_inputs: true, compare: presence}
  - {kind: lines, name: "Bye.", item: message, pattern: '\bbye\b', at_inputs: true, compare: presence, game: true}
  - {kind: exit}
"#,
    )
    .expect("assignment.yaml");
    let files = "files: {notes.txt: \"add up to ten\\n\"}\n";
    std::fs::write(
        root.join("cases/refused-first.yaml"),
        format!(
            "name: refused-first\ndescription: 'x is refused, then 2 and 3 add up.'\npoints: 2\n\
             input: [\"x\", \"2\", \"3\"]\n{files}"
        ),
    )
    .expect("case");
    std::fs::write(
        root.join("cases/adds.yaml"),
        format!(
            "name: adds\ndescription: '1 and 2 add up, q quits.'\npoints: 2\n\
             input: [\"1\", \"2\", \"q\"]\n{files}"
        ),
    )
    .expect("case");
    std::fs::write(
        root.join("cases/random-games.yaml"),
        "name: random-games\ndescription: Random games.\npoints: 2\n\
         explore: {games: 12, seed: 1}\n",
    )
    .expect("case");
    root
}

#[test]
fn each_warning_fires_on_a_crafted_assignment_naming_its_file() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = counter_assignment(dir.path());
    grade()
        .args(["bless", "--root"])
        .arg(&root)
        .assert()
        .success();
    let (code, stdout) = verify(&root);
    // Warnings do not fail verify.
    assert_eq!(code, Some(0), "{stdout}");
    let warning = |file: &str, what: &str| {
        let prefix = format!("{}: warning: ", root.join(file).display());
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&prefix) && l.contains(what)),
            "no warning on {file} saying {what:?}:\n{stdout}"
        );
    };
    // Each game ends at its first "q" (a third of the lines drawn), the rest typed after it.
    warning(
        "cases/random-games.yaml",
        "random games the reference's game is over before their input is (the line \"q\" ended",
    );
    warning("cases/adds.yaml", "check 'Bye.' has `game: true`");
    warning(
        "cases/refused-first.yaml",
        "the reference refuses input 1 (\"x\": check 'Invalid number.') before the first total \
         of check 'totals' (game: true), printed after input 2",
    );
    warning(
        "assignment.yaml",
        "all 2 cases give the file 'notes.txt' with the same content",
    );
    assert_eq!(stdout.matches("warning:").count(), 4, "{stdout}");
}

#[test]
fn the_programs_of_known_verdict_stay_out_of_the_gradescope_package() {
    // Packaging loads the cases, which builds the Python reference.
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let zip_path = dir.path().join("autograder.zip");
    grade()
        .args(["gradescope", "package", "--cases"])
        .arg(tictactoe())
        .arg("-o")
        .arg(&zip_path)
        .assert()
        .success();
    let archive =
        zip::ZipArchive::new(std::fs::File::open(&zip_path).expect("zip")).expect("a zip");
    let names: Vec<&str> = archive.file_names().collect();
    assert!(names.contains(&"cases/solution/tictactoe.py"), "{names:?}");
    assert!(
        !names.iter().any(|n| n.contains("submissions")),
        "{names:?}"
    );
}
