//! Feedback reads cause first (issue 24): for every buggy program under tests/programs/, graded
//! by the real `grade` binary on the case aimed at its bug, the line of the text report that
//! names its real cause comes within the first lines of the lost case.
//!
//! What counts as "its real cause" is written here by hand, from each program's `BUG:` comment
//! (tests/programs/README.md): the check that tests the rule it breaks, or, for a program that
//! crashes, the error it dies with.
//!
//! `CAUSE_LINES_GRADE=/path/to/grade cargo test --test feedback -- --nocapture` measures another
//! build of `grade` (e.g. an older one) and prints the same table.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::path::Path;
use std::process::Command;

use support::*;

/// How far into a lost case (its header is line 0) the cause may first appear.
const WITHIN: usize = 15;

/// What names a program's bug in its report.
#[derive(Clone, Copy, Debug)]
enum Cause {
    /// A failing check that tests the rule the bug breaks, by name (shown as "check NAME
    /// (kind)"); several when more than one tests that rule (an illegal move refused: the
    /// message and the unchanged strip).
    Check(&'static [&'static str]),
    /// A phrase of what the program printed that shows its bug (its exception when it dies,
    /// a refusal where it should accept), whitespace made visible as the report shows it.
    Said(&'static str),
}

/// Silver Dollar's checks of "an illegal move is refused": the message, and the strip left as
/// it was.
const ILLEGAL_MOVE_REFUSED: &[&str] = &["illegal-move-message", "strips", "turns"];

/// (assignment, program, the case aimed at its bug, what names the bug there).
const BUGGY: &[(&str, &str, &str, Cause)] = &[
    (
        "nim",
        "nim/buggy_accepts_four.cpp",
        "error-more-than-three",
        Cause::Check(&["Cannot remove more than three matches."]),
    ),
    (
        "nim",
        "nim/buggy_accepts_four.js",
        "error-more-than-three",
        Cause::Check(&["Cannot remove more than three matches."]),
    ),
    (
        "nim",
        "nim/buggy_missing_error.cpp",
        "error-less-than-one",
        Cause::Check(&["Must remove at least one match."]),
    ),
    // Matches not reset to 21 on replay: the piles shown.
    (
        "nim",
        "nim/buggy_no_reset.cpp",
        "replay",
        Cause::Check(&["matches-shown"]),
    ),
    (
        "nim",
        "nim/buggy_no_space_after_five.cpp",
        "example-execution",
        Cause::Check(&["groups-of-five"]),
    ),
    (
        "nim",
        "nim/buggy_strategy_always_one.rs",
        "computer-first-computer-wins",
        Cause::Check(&["computer-moves"]),
    ),
    (
        "nim",
        "nim/buggy_strategy_rem0.cpp",
        "computer-first-computer-wins",
        Cause::Check(&["computer-moves"]),
    ),
    // The computer wins the handout's example: its win is missing where it belongs.
    (
        "nim",
        "nim/buggy_winner_swapped.cpp",
        "example-execution",
        Cause::Check(&["computer-wins"]),
    ),
    (
        "m",
        "m/buggy_one_neighbour.py",
        "three-points-and-zero",
        Cause::Check(&["scores"]),
    ),
    // Position 10 refused: the refusal it prints where the reference places the number.
    (
        "m",
        "m/buggy_position_off_by_one.py",
        "full-game-player1-wins",
        Cause::Said("must·be·between·0·and·9"),
    ),
    (
        "m",
        "m/buggy_reuse_number.py",
        "used-number",
        Cause::Check(&["error-reported"]),
    ),
    (
        "m",
        "m/buggy_silent_reprompt.py",
        "out-of-range",
        Cause::Check(&["error-reported"]),
    ),
    (
        "m",
        "m/buggy_tie_wrong.py",
        "full-game-tie",
        Cause::Check(&["winner"]),
    ),
    (
        "m",
        "m/buggy_zero_division.py",
        "three-points-and-zero",
        Cause::Said("ZeroDivisionError"),
    ),
    (
        "collect",
        "collect/buggy_adjacent_columns.py",
        "adjacent-columns-removal",
        Cause::Check(&["boards"]),
    ),
    (
        "collect",
        "collect/buggy_column_kept.py",
        "column-removal",
        Cause::Check(&["boards"]),
    ),
    // A cell whose equal numbers touch it only diagonally is taken instead of refused.
    (
        "collect",
        "collect/buggy_diagonal.py",
        "no-neighbour",
        Cause::Check(&["No movement happened try again"]),
    ),
    (
        "collect",
        "collect/buggy_negative_index.py",
        "out-of-bounds-zero",
        Cause::Check(&["Please enter a correct size!"]),
    ),
    (
        "collect",
        "collect/buggy_silent_negative.py",
        "negative-coordinates",
        Cause::Check(&["error-reported"]),
    ),
    (
        "collect",
        "collect/buggy_fixed_filename.py",
        "board-file-argument",
        Cause::Said("input.txt"),
    ),
    (
        "collect",
        "collect/buggy_no_gravity.py",
        "gravity",
        Cause::Check(&["boards"]),
    ),
    (
        "collect",
        "collect/buggy_no_gravity_go",
        "gravity",
        Cause::Check(&["boards"]),
    ),
    (
        "collect",
        "collect/buggy_no_initial_gameover.py",
        "game-over-at-start",
        Cause::Check(&["Game over"]),
    ),
    (
        "collect",
        "collect/buggy_score_count.py",
        "figure-4",
        Cause::Check(&["scores"]),
    ),
    (
        "connect6",
        "connect6/buggy_exactly_six.cpp",
        "seven-in-a-row",
        Cause::Check(&["result"]),
    ),
    // Five in a row declared a win.
    (
        "connect6",
        "connect6/buggy_five_wins.cpp",
        "horizontal-win-first-of-pair",
        Cause::Check(&["result"]),
    ),
    (
        "connect6",
        "connect6/buggy_lowercase.cpp",
        "lowercase-and-occupied",
        Cause::Check(&["Invalid Enter again!"]),
    ),
    (
        "connect6",
        "connect6/buggy_no_antidiagonal.cpp",
        "diagonal-up-right-win",
        Cause::Check(&["result"]),
    ),
    (
        "connect6",
        "connect6/buggy_occupied.cpp",
        "handout-invalid-examples",
        Cause::Check(&["Invalid Enter again!"]),
    ),
    (
        "connect6",
        "connect6/buggy_one_piece_turns.cpp",
        "turn-order",
        Cause::Check(&["boards"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_coins_pass",
        "pass-neighbour",
        Cause::Check(ILLEGAL_MOVE_REFUSED),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_land_on_coin",
        "land-on-neighbour",
        Cause::Check(ILLEGAL_MOVE_REFUSED),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_distance_zero",
        "zero-distance",
        Cause::Check(ILLEGAL_MOVE_REFUSED),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_off_edge",
        "off-edge",
        Cause::Check(ILLEGAL_MOVE_REFUSED),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_negative_distance",
        "negative-distance",
        Cause::Check(ILLEGAL_MOVE_REFUSED),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_silent_illegal.py",
        "all-illegal-moves",
        Cause::Check(&["illegal-move-message"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_illegal_passes_turn",
        "missing-coin",
        Cause::Check(&["turns"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_crash_missing_coin",
        "missing-coin",
        Cause::Said("ArrayIndexOutOfBoundsException"),
    ),
    // The loser announced: its line where the reference names the other player.
    (
        "silver_dollar",
        "silver_dollar/buggy_wrong_winner",
        "smallest-moves",
        Cause::Said("Player·1·wins!"),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_gap_zero",
        "random-start",
        Cause::Check(&["legal"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_gaps_one_to_seven",
        "random-start",
        Cause::Check(&["legal"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_fixed_seed",
        "random-start",
        Cause::Check(&["varied"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_coins_from_one",
        "smallest-moves",
        Cause::Check(&["start-strip"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_trailing_squares",
        "random-start",
        Cause::Check(&["legal"]),
    ),
    (
        "silver_dollar",
        "silver_dollar/buggy_coin_count",
        "smallest-moves",
        Cause::Check(&["start-strip"]),
    ),
];

/// What one grading printed: the text report, and how `grade` ended and what it said on stderr
/// (shown when the case is missing from the report).
struct Graded {
    report: String,
    status: std::process::ExitStatus,
    stderr: String,
}

/// The text report of `program` on one case, from the binary under test or the one named by
/// `CAUSE_LINES_GRADE`.
fn report(program: &Path, assignment: &str, case: &str) -> Option<Graded> {
    let args = [
        "--assignment",
        assignment,
        "--case",
        case,
        "--robustness",
        "--format",
        "text",
    ];
    let output = match std::env::var_os("CAUSE_LINES_GRADE") {
        Some(binary) => Command::new(binary)
            .arg(program)
            .args(args)
            .env("NO_COLOR", "1")
            .logged_output(),
        None => grade()
            .arg(program)
            .args(args)
            .env("NO_COLOR", "1")
            .logged_output(),
    }
    .expect("grade runs");
    if output.status.code() == Some(2) {
        // The grader could not run it here (a toolchain it cannot reach).
        let why = String::from_utf8_lossy(&output.stderr);
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "{} could not be graded under CI=true: {why}",
            program.display()
        );
        eprintln!("skipped: {}: {why}", program.display());
        return None;
    }
    Some(Graded {
        report: String::from_utf8_lossy(&output.stdout).into_owned(),
        status: output.status,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    })
}

/// The lines of case `case` in `report`: from its header ("✗ NAME  points") up to the next
/// case or section.
fn case_lines<'r>(report: &'r str, case: &str) -> Vec<&'r str> {
    let mut lines = report.lines().skip_while(|line| {
        let name = line
            .strip_prefix("✗ ")
            .or_else(|| line.strip_prefix("! "))
            .and_then(|rest| rest.split_whitespace().next());
        name != Some(case)
    });
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    std::iter::once(header)
        .chain(lines.take_while(|line| line.starts_with(' ') || line.is_empty()))
        .collect()
}

/// The index (header = 0) of the first line of the case that names `cause`.
fn cause_line(lines: &[&str], cause: Cause) -> Option<usize> {
    lines.iter().position(|line| match cause {
        Cause::Check(names) => names
            .iter()
            .any(|name| line.contains(&format!("check {name} ("))),
        Cause::Said(phrase) => line.contains(phrase),
    })
}

/// Silver Dollar's buggy programs (all in [`BUGGY`]): besides the cause shown first, the check
/// that scores the rule each one breaks must fail in its case ("✗ check NAME (", a check with
/// points). One grading per program checks both.
const MUST_FAIL: [(&str, &str); 15] = [
    ("silver_dollar/buggy_coins_pass", "strips"),
    ("silver_dollar/buggy_land_on_coin", "strips"),
    ("silver_dollar/buggy_distance_zero", "turns"),
    ("silver_dollar/buggy_off_edge", "strips"),
    ("silver_dollar/buggy_negative_distance", "strips"),
    ("silver_dollar/buggy_illegal_passes_turn", "turns"),
    ("silver_dollar/buggy_crash_missing_coin", "exit"),
    ("silver_dollar/buggy_wrong_winner", "winner"),
    ("silver_dollar/buggy_gap_zero", "legal"),
    ("silver_dollar/buggy_gaps_one_to_seven", "legal"),
    ("silver_dollar/buggy_fixed_seed", "varied"),
    ("silver_dollar/buggy_coins_from_one", "start-strip"),
    ("silver_dollar/buggy_trailing_squares", "legal"),
    ("silver_dollar/buggy_coin_count", "start-strip"),
    // An illegal move refused by asking again, with no message.
    (
        "silver_dollar/buggy_silent_illegal.py",
        "illegal-move-message",
    ),
];

fn measure(assignment: &str) {
    let mut failures = Vec::new();
    for &(game, relative, case, cause) in BUGGY.iter().filter(|b| b.0 == assignment) {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let Some(graded) = report(&path, game, case) else {
            continue;
        };
        let lines = case_lines(&graded.report, case);
        if let Some((_, check)) = MUST_FAIL.iter().find(|m| m.0 == relative) {
            let failed = format!("✗ check {check} (");
            if !lines.iter().any(|line| line.contains(&failed)) {
                failures.push(format!(
                    "{relative} ({case}): check {check} did not fail:\n{}",
                    lines.join("\n")
                ));
            }
        }
        let at = cause_line(&lines, cause);
        println!(
            "cause line: {relative:<44} {case:<30} {:>5} of {} lines",
            at.map_or("never".to_string(), |n| n.to_string()),
            lines.len()
        );
        match at {
            Some(n) if n <= WITHIN => {}
            // A case that kept its points (or never appeared) shows the whole grading.
            _ if lines.is_empty() => failures.push(format!(
                "{relative} ({case}): the case did not lose points; grade ended with {}:\n{}\n\
                 stderr:\n{}",
                graded.status, graded.report, graded.stderr
            )),
            _ => failures.push(format!(
                "{relative} ({case}): {cause:?} at line {at:?} of the case, not within {WITHIN}:\n{}",
                lines.join("\n")
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn nim_causes_come_first() {
    measure("nim");
}

#[test]
fn m_causes_come_first() {
    measure("m");
}

#[test]
fn collect_causes_come_first() {
    measure("collect");
}

#[test]
fn connect6_causes_come_first() {
    measure("connect6");
}

#[test]
fn silver_dollar_causes_come_first() {
    for (relative, _) in MUST_FAIL {
        assert!(
            BUGGY.iter().any(|b| b.1 == relative),
            "{relative} is not in BUGGY"
        );
    }
    measure("silver_dollar");
}

/// A limit hit is the first line of its case: an endless loop (time) and a flood (output).
#[test]
fn a_limit_hit_is_the_first_line_of_its_case() {
    if !have("gcc") {
        return;
    }
    for (relative, says) in [
        // Stopped at the wall-clock or the CPU limit, whichever the machine reaches first.
        ("misc/infinite_loop.c", "The program was stopped after"),
        (
            "misc/output_flood.c",
            "The program was stopped after printing more than",
        ),
    ] {
        let (_, text) = grade_text(
            &program(relative),
            "nim",
            &[
                "--case",
                "example-execution",
                "--wall-limit",
                "1",
                "--cpu-limit",
                "1",
            ],
        );
        let lines = case_lines(&text, "example-execution");
        assert!(lines.len() > 1, "{relative}:\n{text}");
        assert!(
            lines[1].trim_start().starts_with(says),
            "{relative}: the case does not open with its limit:\n{}",
            lines.join("\n")
        );
        assert!(
            lines[1].contains("time") || lines[1].contains("printing"),
            "{}",
            lines[1]
        );
    }
}
