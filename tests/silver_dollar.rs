//! Silver Dollar graded move by move from the program's own random strip, through the real
//! `grade` binary: correct programs in every drawing style get full marks on every grading,
//! and each buggy program loses points in the case aimed at its rule (a program that plays no
//! game earns nothing in a game case: tests/fairness.rs, `printing_the_start_and_stopping…`).

mod support;

use support::*;

/// Handout-following programs: CoinStrip + PlayGame in Java (and one in Python), differing
/// where the handout is silent (tests/programs/README.md).
const CORRECT: [&str; 10] = [
    "silver_dollar/correct_plain",
    "silver_dollar/correct_boxes",
    "silver_dollar/correct_padded",
    "silver_dollar/correct_shrinking",
    "silver_dollar/correct_list_blank_cells",
    "silver_dollar/correct_test_main",
    "silver_dollar/correct_bonus_class",
    "silver_dollar/correct_recursive_strip",
    "silver_dollar/correct_python.py",
    // Its illegal-move message in Spanish: the handout's wording is an example.
    "silver_dollar/correct_spanish.py",
];

fn runnable(path: &std::path::Path) -> bool {
    tools_for(path).iter().all(|t| have(t))
}

/// A third of the programs per commit in CI (support::in_this_part), each graded in full;
/// every one of them is graded on some cases in every run by tests/fairness.rs's style grid
/// and tests/shapes.rs.
#[test]
fn correct_programs_in_every_drawing_style_get_full_marks() {
    for (row, relative) in CORRECT.iter().enumerate() {
        if !in_this_part(row, 0) {
            continue;
        }
        let path = program(relative);
        if !runnable(&path) {
            continue;
        }
        let (code, report) = grade_json(&path, "silver_dollar", &[]);
        assert_eq!(
            report["score"],
            report["max_score"],
            "{relative} follows the handout but lost points: {:#?}",
            lost_points(&report)
        );
        assert_eq!(code, 0, "{relative}");
    }
}

#[test]
fn strict_mode_takes_points_for_a_different_drawing() {
    let path = program("silver_dollar/correct_boxes");
    if !runnable(&path) {
        return;
    }
    let (code, report) = grade_json(&path, "silver_dollar", &["--strict", "--case", "off-edge"]);
    assert_eq!(code, 1, "{report:#}");
}

#[test]
fn a_correct_program_never_loses_a_point_over_twenty_gradings() {
    // Each grading draws new random strips (and may meet a start that is already finished);
    // none may cost a point, nor may a random-games case. Twenty gradings are some 1,400 runs
    // on random strips (random-start alone starts the program 60 times). Python keeps them quick;
    // the Java programs are graded the same way in examples/bench_silver_dollar.rs.
    let path = program("silver_dollar/correct_python.py");
    if !runnable(&path) {
        return;
    }
    // A third of the twenty per commit in CI (support::in_this_part): seven gradings, all
    // twenty in three commits.
    let gradings: Vec<usize> = (1..=20).filter(|&g| in_this_part(g, 0)).collect();
    for &grading in &gradings {
        // The last grading with the random-games case (8 more runs; its fairness over seeds
        // is tests/random_games.rs's), the others without, to keep the test quick.
        let extra: &[&str] = if Some(&grading) == gradings.last() {
            &[]
        } else {
            &["--no-explore"]
        };
        let (code, report) = grade_json(&path, "silver_dollar", extra);
        assert_eq!(
            code,
            0,
            "grading {grading} lost points: {:#?}",
            lost_points(&report)
        );
    }
}

#[test]
fn a_bad_start_shows_the_strip_and_the_rule_it_breaks() {
    let path = program("silver_dollar/buggy_coins_from_one");
    if !runnable(&path) {
        return;
    }
    let (code, text) = grade_text(&path, "silver_dollar", &["--case", "off-edge"]);
    assert_eq!(code, 1);
    assert!(text.contains("start-strip"), "{text}");
    assert!(
        text.contains("numbered sequentially starting from zero"),
        "the rule is quoted\n{text}"
    );
    assert!(
        text.contains("the game was not compared"),
        "the other checks say why they could not run\n{text}"
    );
}

#[test]
fn the_moves_typed_are_listed_and_the_first_differing_strip_shown() {
    let path = program("silver_dollar/buggy_land_on_coin");
    if !runnable(&path) {
        return;
    }
    let (code, text) = grade_text(&path, "silver_dollar", &["--case", "land-on-neighbour"]);
    assert_eq!(code, 1);
    assert!(text.contains("Input sent:"), "{text}");
    assert!(text.contains("check strips"), "{text}");
    assert!(text.contains("expected") && text.contains("got"), "{text}");
}

#[test]
fn the_list_shows_the_driven_cases() {
    let output = grade()
        .args(["list", "silver_dollar"])
        .logged_output()
        .expect("grade list runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let cases = [
        "smallest-moves",
        "largest-moves",
        "winning-strategy",
        "random-game",
        "missing-coin",
        "zero-distance",
        "negative-distance",
        "pass-neighbour",
        "land-on-neighbour",
        "off-edge",
        "all-illegal-moves",
        "random-start",
    ];
    for case in cases {
        assert!(text.contains(case), "{case} missing from\n{text}");
    }
}

/// A start with no move left tests nothing the case is about (3 coins: once in 216 draws),
/// so the case runs the program again for a new start, up to four runs in all: the finished
/// start is the only one of its coin count, so a random program draws it twice in a row once
/// in 216² gradings — stopping there would give a buggy program the case's points. The
/// report says how many runs were made.
#[test]
fn a_finished_start_is_drawn_again_and_the_report_says_so() {
    let path = program("silver_dollar/finished_start_only.py");
    if !runnable(&path) {
        return;
    }
    let (_, report) = grade_json(&path, "silver_dollar", &["--case", "off-edge"]);
    let notes = report["cases"][0]["notes"].to_string();
    assert!(notes.contains("run 4 times"), "{report:#}");

    // A program whose start always leaves moves is run once.
    let correct = program("silver_dollar/correct_python.py");
    let (_, report) = grade_json(&correct, "silver_dollar", &["--case", "off-edge"]);
    let notes = report["cases"][0]["notes"].to_string();
    assert!(!notes.contains("times"), "{report:#}");
}
