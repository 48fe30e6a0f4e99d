//! Issue 30, "student habits": correct programs written with the habits of home machines —
//! colour codes, Windows line ends, a screen cleared between turns, a final "Press Enter to
//! exit", reading all the input at once — keep full marks, and each with ONE logic bug loses
//! points in the cases of its rule and nowhere else: a colour code never hides a wrong number.
//! The programs are tests/programs/*/habit_* (tests/programs/README.md); the wrapper styles
//! for the same habits, tried on every correct program, are in tests/fairness.rs.

mod support;

use support::*;

/// A habit a program has (what the assertions beyond full marks look at).
#[derive(Clone, Copy, PartialEq)]
enum Habit {
    /// ANSI colour codes (SGR) around numbers, cells or whole lines.
    Colours,
    /// "\r\n" line ends.
    Crlf,
    /// The screen cleared between turns (escape codes or `clear`).
    ClearScreen,
    /// One more read after the game is over ("Press Enter to exit...").
    FinalPause,
    /// All the input read before anything is printed.
    ReadAll,
}

use Habit::*;

/// The correct habit programs: (assignment, program, habits).
const CORRECT: &[(&str, &str, &[Habit])] = &[
    ("nim", "nim/habit_colours.cpp", &[Colours, FinalPause]),
    (
        "nim",
        "nim/habit_crlf_clear.c",
        &[Crlf, ClearScreen, FinalPause],
    ),
    ("nim", "nim/habit_read_all.js", &[ReadAll, Colours]),
    ("m", "m/habit_colours_pause.py", &[Colours, FinalPause]),
    ("m", "m/habit_read_all.py", &[ReadAll]),
    (
        "collect",
        "collect/habit_colours_clear.py",
        &[Colours, ClearScreen, FinalPause],
    ),
    ("collect", "collect/habit_read_all.js", &[ReadAll]),
    (
        "connect6",
        "connect6/habit_clear_colours.cpp",
        &[ClearScreen, Colours, FinalPause],
    ),
    (
        "connect6",
        "connect6/habit_crlf_read_all.cpp",
        &[Crlf, ReadAll],
    ),
    (
        "silver_dollar",
        "silver_dollar/habit_colours_crlf",
        &[Colours, Crlf],
    ),
    (
        "silver_dollar",
        "silver_dollar/habit_clear_pause",
        &[ClearScreen, FinalPause],
    ),
];

/// The buggy habit programs: (assignment, program, the case aimed at its bug, a check that
/// must fail there, the cases its bug may cost points in). The last list was worked out by
/// running the buggy program and its correct twin directly on each fixed case's input (pipe
/// in, compare stdout): the cases where the two print something different, plus
/// `random-games` (and connect6's `smaller-board`, read from its input by hand). Silver
/// Dollar's strips are random: its lists come from the rule (a landing is tried only in the
/// cases that slip one in); `None`: every case (coins numbered from 1 break every start).
type Buggy = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Option<&'static [&'static str]>,
);

const BUGGY: &[Buggy] = &[
    (
        "nim",
        "nim/habit_colours_buggy_strategy_rem0.cpp",
        "computer-first-computer-wins",
        "computer-moves",
        Some(&[
            "computer-first-computer-wins",
            "error-yes-no",
            "errors-mixed-hidden",
            "example-execution",
            "player-first-remove-one",
            "replay",
            "random-games",
        ]),
    ),
    (
        "nim",
        "nim/habit_colours_buggy_accepts_four.cpp",
        "error-more-than-three",
        "Cannot remove more than three matches.",
        Some(&["error-more-than-three", "random-games"]),
    ),
    (
        "nim",
        "nim/habit_crlf_clear_buggy_missing_error.c",
        "error-less-than-one",
        "Must remove at least one match.",
        Some(&[
            "error-less-than-one",
            "errors-mixed-hidden",
            "boundary-huge-numbers",
            "random-games",
        ]),
    ),
    (
        "nim",
        "nim/habit_read_all_buggy_winner_swapped.js",
        "example-execution",
        "computer-wins",
        Some(&[
            "computer-first-computer-wins",
            "computer-first-player-wins",
            "error-yes-no",
            "errors-mixed-hidden",
            "example-execution",
            "player-first-remove-one",
            "replay-twice-hidden",
            "replay",
            "random-games",
        ]),
    ),
    (
        "m",
        "m/habit_colours_pause_buggy_one_neighbour.py",
        "three-points-and-zero",
        "scores",
        Some(&[
            "errors-hidden",
            "full-game-player1-wins",
            "full-game-player2-wins",
            "full-game-tie",
            "handout-scoring-example",
            "three-points-and-zero",
            "random-games",
        ]),
    ),
    (
        "m",
        "m/habit_read_all_buggy_reuse_number.py",
        "used-number",
        "board",
        Some(&["errors-hidden", "used-number", "random-games"]),
    ),
    (
        "collect",
        "collect/habit_colours_clear_buggy_score_count.py",
        "figure-4",
        "scores",
        Some(&[
            "adjacent-columns-removal",
            "blank-cell",
            "board-file-argument",
            "clear-board",
            "column-removal",
            "figure-4-hidden",
            "figure-4",
            "full-game-hidden",
            "full-game",
            "gravity",
            "negative-coordinates",
            "no-neighbour",
            "out-of-bounds-zero",
            "out-of-bounds",
            "random-games",
        ]),
    ),
    (
        "collect",
        "collect/habit_read_all_buggy_column_kept.js",
        "column-removal",
        "boards",
        Some(&[
            "adjacent-columns-removal",
            "board-file-argument",
            "column-removal",
            "figure-4",
            "full-game-hidden",
            "no-neighbour",
            "random-games",
        ]),
    ),
    (
        "connect6",
        "connect6/habit_clear_colours_buggy_five_wins.cpp",
        "horizontal-win-first-of-pair",
        "boards",
        Some(&[
            "diagonal-down-right-win",
            "diagonal-up-right-win",
            "diagonal-win-hidden",
            "edge-corner-win",
            "horizontal-win-first-of-pair",
            "long-game-hidden",
            "vertical-win-white",
            // Rebuilt with N = 10: Black's A0 … E0 is five in a row before F0 makes six.
            "smaller-board",
            "random-games",
        ]),
    ),
    (
        "connect6",
        "connect6/habit_crlf_read_all_buggy_occupied.cpp",
        "handout-invalid-examples",
        "Invalid Enter again!",
        Some(&[
            "diagonal-win-hidden",
            "handout-invalid-examples",
            "lowercase-and-occupied",
            "random-games",
        ]),
    ),
    (
        "silver_dollar",
        "silver_dollar/habit_colours_crlf_buggy_coins_from_one",
        "smallest-moves",
        "start-strip",
        None,
    ),
    (
        "silver_dollar",
        "silver_dollar/habit_clear_pause_buggy_land_on_coin",
        "land-on-neighbour",
        "strips",
        Some(&[
            "land-on-neighbour",
            "all-illegal-moves",
            "illegal-moves-hidden",
            "random-games",
        ]),
    ),
];

/// Course seeds beside the default one: the random games (the only cases a seed changes)
/// are played again with each.
const COURSE_SEEDS: [&str; 2] = ["7", "20240"];

fn runnable(relative: &str) -> bool {
    tools_for(&program(relative)).iter().all(|t| have(t))
}

/// Every string under a key named `notes` (or ending in `note`), anywhere in the report.
fn notes(report: &serde_json::Value) -> Vec<String> {
    fn walk(value: &serde_json::Value, noted: bool, found: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text) if noted => found.push(text.clone()),
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, noted, found);
                }
            }
            serde_json::Value::Object(map) => {
                for (key, item) in map {
                    walk(item, key == "notes" || key.ends_with("note"), found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(report, false, &mut found);
    found
}

/// Every check of every case: (case name, check).
fn checks(report: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|case| {
            let name = case["name"].as_str().unwrap_or_default().to_string();
            case["checks"]
                .as_array()
                .into_iter()
                .flatten()
                .map(move |check| (name.clone(), check.clone()))
        })
        .collect()
}

/// The failed checks (anywhere in the report: a case's or the report's own) that say the
/// program cannot be played at a terminal — the check of a program that reads all its input
/// before printing: named or explained with "terminal" or "interactive". (where, check)
fn not_playable_at_a_terminal(report: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    fn walk(value: &serde_json::Value, at: &str, found: &mut Vec<(String, serde_json::Value)>) {
        match value {
            serde_json::Value::Array(items) => {
                for item in items {
                    walk(item, at, found);
                }
            }
            serde_json::Value::Object(map) => {
                let text = format!("{} {}", value["name"], value["detail"]).to_lowercase();
                if value["passed"] == false
                    && (text.contains("terminal") || text.contains("interactive"))
                {
                    found.push((at.to_string(), value.clone()));
                }
                let here = match (map.get("checks"), value["name"].as_str()) {
                    (Some(_), Some(name)) => name,
                    _ => at,
                };
                for item in map.values() {
                    walk(item, here, found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    walk(report, "report", &mut found);
    found
}

/// The case names a report lost points in.
fn cases_lost(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["score"].as_f64() < c["max_score"].as_f64())
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect()
}

fn assert_full_marks(relative: &str, extra: &[&str], code: i32, report: &serde_json::Value) {
    assert_eq!(
        report["score"],
        report["max_score"],
        "{relative} {extra:?} follows the handout with a student's habits but lost points: {:#?}",
        lost_points(report)
    );
    assert_eq!(code, 0, "{relative} {extra:?}");
}

/// Every correct habit program of `assignment`: full marks by default (code requirements
/// included) and on the random games of two more course seeds; the colour programs' report
/// notes what was set aside; the final pause costs no `exit` check; a program that reads
/// all its input says, in a check worth nothing, that it cannot be played at a terminal,
/// and no other program gets that check failed.
fn correct_habit_programs_of(assignment: &str) {
    for (_, relative, habits) in CORRECT.iter().filter(|(a, _, _)| *a == assignment) {
        if !runnable(relative) {
            continue;
        }
        let path = program(relative);
        let (code, report) = grade_json(&path, assignment, &[]);
        assert_full_marks(relative, &[], code, &report);
        for seed in COURSE_SEEDS {
            let extra = ["--case", "random-games", "--course-seed", seed];
            let (code, seeded) = grade_json(&path, assignment, &extra);
            assert_eq!(seeded["cases"][0]["name"], "random-games", "{seeded:#}");
            assert_full_marks(relative, &extra, code, &seeded);
        }
        if habits.contains(&Colours) {
            let notes = notes(&report);
            assert!(
                notes.iter().any(|n| {
                    let n = n.to_lowercase();
                    ["colour", "color", "control", "escape"]
                        .iter()
                        .any(|w| n.contains(w))
                }),
                "{relative}: no note says what was set aside (colour or control codes): {notes:#?}"
            );
        }
        if habits.contains(&FinalPause) {
            for (case, check) in checks(&report) {
                if check["name"] == "exit" {
                    assert_ne!(
                        check["passed"], false,
                        "{relative}: a final pause failed the exit check in {case}: {check:#}"
                    );
                }
            }
        }
        let terminal = not_playable_at_a_terminal(&report);
        if habits.contains(&ReadAll) {
            assert!(
                !terminal.is_empty(),
                "{relative} reads all its input first: a check must say it cannot be played at a terminal"
            );
            for (at, check) in &terminal {
                assert!(
                    check["max_score"]
                        .as_f64()
                        .is_none_or(|points| points == 0.0),
                    "{relative}: the terminal check is worth nothing ({at}): {check:#}"
                );
            }
        } else {
            assert!(
                terminal.is_empty(),
                "{relative} can be played at a terminal: {terminal:#?}"
            );
        }
    }
}

#[test]
fn nim_habit_programs_get_full_marks() {
    correct_habit_programs_of("nim");
}

#[test]
fn m_habit_programs_get_full_marks() {
    correct_habit_programs_of("m");
}

#[test]
fn collect_habit_programs_get_full_marks() {
    correct_habit_programs_of("collect");
}

#[test]
fn connect6_habit_programs_get_full_marks() {
    correct_habit_programs_of("connect6");
}

#[test]
fn silver_dollar_habit_programs_get_full_marks() {
    correct_habit_programs_of("silver_dollar");
}

/// Every buggy habit program of `assignment` loses points: in the case aimed at its bug,
/// with the named check failing there, and only in the cases its bug shows in.
fn buggy_habit_programs_of(assignment: &str) {
    for (_, relative, target, check, allowed) in BUGGY.iter().filter(|b| b.0 == assignment) {
        if !runnable(relative) {
            continue;
        }
        // Where no list says which cases may lose points, only the target case is read:
        // that case alone is graded.
        let only_the_target = ["--case", target];
        let extra: &[&str] = if allowed.is_none() {
            &only_the_target
        } else {
            &[]
        };
        let (code, report) = grade_json(&program(relative), assignment, extra);
        assert_eq!(code, 1, "{relative} must lose points");
        let lost = cases_lost(&report);
        assert!(
            lost.iter().any(|c| c == target),
            "{relative} must lose points in {target}; lost: {:#?}",
            lost_points(&report)
        );
        let case = report["cases"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["name"] == *target)
            .expect("the target case is graded");
        let failed: Vec<&str> = case["checks"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|c| c["passed"] == false && c["max_score"].as_f64() > Some(0.0))
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert!(
            failed.contains(check),
            "{relative}: expected check '{check}' to fail in {target}; failed: {failed:?}"
        );
        if let Some(allowed) = allowed {
            let elsewhere: Vec<&String> = lost
                .iter()
                .filter(|c| !allowed.contains(&c.as_str()))
                .collect();
            assert!(
                elsewhere.is_empty(),
                "{relative} lost points where its bug does not show (its habits cost them): {elsewhere:?}\n{:#?}",
                lost_points(&report)
            );
        }
    }
}

#[test]
fn buggy_nim_habit_programs_lose_points_where_their_rule_is_tested() {
    buggy_habit_programs_of("nim");
}

#[test]
fn buggy_m_habit_programs_lose_points_where_their_rule_is_tested() {
    buggy_habit_programs_of("m");
}

#[test]
fn buggy_collect_habit_programs_lose_points_where_their_rule_is_tested() {
    buggy_habit_programs_of("collect");
}

#[test]
fn buggy_connect6_habit_programs_lose_points_where_their_rule_is_tested() {
    buggy_habit_programs_of("connect6");
}

#[test]
fn buggy_silver_dollar_habit_programs_lose_points_where_their_rule_is_tested() {
    buggy_habit_programs_of("silver_dollar");
}

/// A wrong number printed inside colour codes is still wrong, and read as the number the
/// terminal shows (not a digit of a code, as `\033[1m` would give): in
/// `computer-first-computer-wins` the computer removes 1, 2, 2, 1, 3, 2 (the case's
/// remainder table); the buggy program takes 1 instead of the fifth move's 3, printed in
/// bold red like the others.
#[test]
fn a_wrong_number_in_colour_is_read_as_the_terminal_shows_it() {
    let relative = "nim/habit_colours_buggy_strategy_rem0.cpp";
    if !runnable(relative) {
        return;
    }
    let (_, report) = grade_json(
        &program(relative),
        "nim",
        &["--case", "computer-first-computer-wins"],
    );
    let moves = checks(&report)
        .into_iter()
        .find(|(_, check)| check["name"] == "computer-moves")
        .map(|(_, check)| check)
        .expect("a computer-moves check");
    assert_eq!(moves["passed"], false, "{moves:#}");
    let detail = moves["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains(r#"computer move 5 is "1", expected "3""#)
            && detail.contains("4 of 6 computer moves agree"),
        "{detail}"
    );
}

/// A score painted digit by digit (a code between its two digits) is one number: Figure 4's
/// first move destroys eight 4s, 32 points (the handout's c × n); the buggy program adds the
/// count, 8, and paints it the same way. The difference names both numbers whole.
#[test]
fn a_score_painted_digit_by_digit_is_one_number() {
    let relative = "collect/habit_colours_clear_buggy_score_count.py";
    if !runnable(relative) {
        return;
    }
    let (_, report) = grade_json(&program(relative), "collect", &["--case", "figure-4"]);
    let scores = checks(&report)
        .into_iter()
        .find(|(_, check)| check["name"] == "scores")
        .map(|(_, check)| check)
        .expect("a scores check");
    assert_eq!(scores["passed"], false, "{scores:#}");
    let detail = scores["detail"].as_str().unwrap_or_default();
    assert!(detail.contains(r#"is "8", expected "32""#), "{detail}");
}

/// Under a pseudo-terminal (`--terminal`) the same programs keep full marks: `clear` then
/// really prints its codes (TERM=xterm), and the final pause is a read on the terminal. One
/// case that ends with the game over and one that ends mid-game per program.
#[test]
fn habit_programs_keep_full_marks_under_a_terminal() {
    for (assignment, relative, cases) in [
        (
            "nim",
            "nim/habit_colours.cpp",
            ["computer-first-player-wins", "error-less-than-one"],
        ),
        (
            "nim",
            "nim/habit_crlf_clear.c",
            ["replay", "error-non-numeric"],
        ),
        (
            "m",
            "m/habit_colours_pause.py",
            ["full-game-tie", "used-number"],
        ),
        (
            "collect",
            "collect/habit_colours_clear.py",
            ["figure-4", "column-removal"],
        ),
        (
            "connect6",
            "connect6/habit_clear_colours.cpp",
            ["vertical-win-white", "handout-invalid-examples"],
        ),
    ] {
        if !runnable(relative) {
            continue;
        }
        for case in cases {
            let extra = ["--terminal", "--case", case];
            let (code, report) = grade_json(&program(relative), assignment, &extra);
            assert_eq!(report["cases"][0]["name"], case, "{report:#}");
            assert_full_marks(relative, &extra, code, &report);
        }
    }
}
