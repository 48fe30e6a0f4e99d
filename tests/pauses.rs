//! Student habits (issue 30): programs that pause for effect keep full marks, their buggy
//! copies lose points where their bug is, and programs that hang are stopped as blocked.
//! The programs are in tests/programs/pauses/ (see tests/programs/README.md). Speed is
//! measured by `examples/bench_pauses.rs` (docs/performance.md), never here.

mod support;

use serde_json::Value;
use support::{grade_json, have, lost_points, program, tools_for};

/// Course seeds the random games are played from: the public games and two others.
const SEEDS: &[&str] = &["0", "8812", "31337"];

/// Whether every tool `relative` needs is here (else the test says it skipped).
fn ready(relative: &str) -> bool {
    tools_for(&program(relative)).iter().all(|tool| have(tool))
}

/// The case named `name` of a JSON report.
fn case<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["name"] == name))
        .unwrap_or_else(|| panic!("no case {name} in {report:#}"))
}

fn full_marks(report: &Value) -> bool {
    report["score"].as_f64().is_some() && report["score"] == report["max_score"]
}

/// The C++ nim that sleeps 0.7 s before each computer move (`sleep_for`) and the Python m
/// that sleeps 0.4 s before each `input()` (`time.sleep`): full marks with every seed.
/// Before sleeps were cut short they lost points to the wall limit (99.21/106, 104.8/110).
#[test]
fn correct_programs_that_pause_for_effect_keep_full_marks() {
    for (relative, assignment) in [
        ("pauses/nim_correct_thinking.cpp", "nim"),
        ("pauses/m_correct_sleepy.py", "m"),
    ] {
        if !ready(relative) {
            continue;
        }
        for seed in SEEDS {
            let (code, report) =
                grade_json(&program(relative), assignment, &["--course-seed", seed]);
            assert!(
                full_marks(&report),
                "{relative}, seed {seed}: {:#?}",
                lost_points(&report)
            );
            assert_eq!(code, 0, "{relative}, seed {seed}");
        }
    }
}

/// The pauses were made, and reported as slept: the handout's nim example has the computer
/// move at least once, and each of m's `input()` calls comes after 0.4 s of sleep (the lines
/// of the case, and the read that found the script at its end).
#[test]
fn the_pauses_are_reported_as_slept() {
    if ready("pauses/nim_correct_thinking.cpp") {
        let (_, report) = grade_json(
            &program("pauses/nim_correct_thinking.cpp"),
            "nim",
            &["--case", "example-execution"],
        );
        let run = &case(&report, "example-execution")["run"];
        assert!(run["slept_ms"].as_u64() >= Some(700), "{run}");
    }
    if ready("pauses/m_correct_sleepy.py") {
        let (_, report) = grade_json(
            &program("pauses/m_correct_sleepy.py"),
            "m",
            &["--case", "used-number"],
        );
        let used = case(&report, "used-number");
        let lines = used["input"].as_array().map_or(0, Vec::len) as u64;
        assert!(lines > 0, "{used}");
        // Python sleeps until a time it computed just before: a little less than 0.4 s is
        // left when the supervisor reads its clock.
        assert!(
            used["run"]["slept_ms"].as_u64() >= Some(395 * (lines + 1)),
            "{used}"
        );
    }
}

/// A copy of each pausing program with one bug keeps the pause and loses points in the case
/// aimed at its rule (the same cases as the bug's copy without the pause, tests/feedback.rs).
#[test]
fn buggy_programs_that_pause_lose_points_where_their_bug_is() {
    for (relative, assignment, aimed) in [
        (
            "pauses/nim_buggy_thinking_accepts_four.cpp",
            "nim",
            "error-more-than-three",
        ),
        ("pauses/m_buggy_sleepy_reuse_number.py", "m", "used-number"),
    ] {
        if !ready(relative) {
            continue;
        }
        for seed in SEEDS {
            let (_, report) = grade_json(&program(relative), assignment, &["--course-seed", seed]);
            let aimed_case = case(&report, aimed);
            assert!(
                aimed_case["score"].as_f64() < aimed_case["max_score"].as_f64(),
                "{relative}, seed {seed}: {aimed} kept its points: {:#?}",
                lost_points(&report)
            );
            // The pause costs nothing: no case ends at a limit.
            for c in report["cases"].as_array().into_iter().flatten() {
                let ended = &c["run"]["ended"];
                assert!(
                    ended != "timeout" && ended != "blocked",
                    "{relative}: {} ended {ended}",
                    c["name"]
                );
            }
        }
    }
}

/// Java's `Thread.sleep` cannot be cut short (the JVM reads its clock and waits again): its
/// 0.5 s pauses run for real and do not count toward the wall limit. The correct copy keeps
/// its points in a case of 20 moves and more (over 10 s of pauses), the buggy copy
/// (a coin may land on its neighbour) loses them there.
#[test]
fn java_pauses_run_for_real_and_do_not_count() {
    for (relative, full) in [
        ("pauses/sd_correct_thread_sleep", true),
        ("pauses/sd_buggy_thread_sleep_land_on_coin", false),
    ] {
        if !ready(relative) {
            continue;
        }
        let (_, report) = grade_json(
            &program(relative),
            "silver_dollar",
            &["--case", "land-on-neighbour"],
        );
        let aimed = case(&report, "land-on-neighbour");
        assert_eq!(
            aimed["score"] == aimed["max_score"],
            full,
            "{relative}: {:#?}",
            lost_points(&report)
        );
        assert_eq!(aimed["run"]["ended"], "exit", "{relative}: {aimed}");
    }
    if ready("pauses/sd_correct_thread_sleep") {
        let (_, report) = grade_json(
            &program("pauses/sd_correct_thread_sleep"),
            "silver_dollar",
            &["--case", "pass-neighbour"],
        );
        let long = case(&report, "pass-neighbour");
        assert_eq!(
            long["score"],
            long["max_score"],
            "{:#?}",
            lost_points(&report)
        );
        // A pause of 500 ms before each move asked for (every input line after the number of
        // coins), slept for real (Thread.sleep is not cut short) and counted as sleep. The case
        // is driven on the program's own random strip, so the game's length varies (9 moves
        // and 57 were both seen); the machine's load moves the figure a little.
        let moves = long["input"]
            .as_array()
            .map_or(0, |lines| lines.len().saturating_sub(1));
        assert!(moves >= 1, "{long}");
        let least = 500 * moves as u64 * 3 / 4;
        assert!(
            long["run"]["slept_ms"].as_u64() >= Some(least),
            "{moves} moves: {long}"
        );
    }
}

/// A program that reads a line and then blocks (in `pause()`, or in a sleep longer than a
/// run may sleep) is stopped as blocked with a note saying so, in every case. The random
/// games' difference is shrunk to the line it read and what the reference needs to show
/// one: nim answers "Y" with a turn, m needs a number and a position to show a score.
#[test]
fn programs_that_hang_are_stopped_as_blocked() {
    for (relative, assignment, shrunk) in [
        (
            "pauses/nim_hang_pause.c",
            "nim",
            "shrunk to the 1 input line(s)",
        ),
        (
            "pauses/m_hang_after_first_line.py",
            "m",
            "shrunk to the 2 input line(s)",
        ),
    ] {
        if !ready(relative) {
            continue;
        }
        let (code, report) = grade_json(&program(relative), assignment, &[]);
        assert_eq!(code, 1);
        for c in report["cases"].as_array().into_iter().flatten() {
            if c["name"] == "random-games" {
                let explore = &c["checks"][0]["detail"];
                assert!(
                    explore.as_str().is_some_and(|d| d.contains(shrunk)),
                    "{relative}: {explore}"
                );
                continue;
            }
            // A hidden case's run is withheld from the student's report (docs/security.md).
            if c["visibility"] == "hidden" {
                assert!(c["run"].is_null(), "{relative}: {c}");
                continue;
            }
            assert_eq!(c["run"]["ended"], "blocked", "{relative}: {c}");
            {
                let notes = c["notes"].to_string();
                assert!(
                    notes.contains("was neither reading input nor computing for 3 s"),
                    "{relative}: {notes}"
                );
            }
        }
    }
}

/// A program that sleeps in an endless loop (each pause cut short) is stopped once its
/// pauses add up to what a run may sleep: blocked, not at the CPU or wall limit.
#[test]
fn a_program_sleeping_in_an_endless_loop_is_stopped_as_blocked() {
    let relative = "pauses/nim_sleep_loop.py";
    if !ready(relative) {
        return;
    }
    let (_, report) = grade_json(&program(relative), "nim", &["--case", "example-execution"]);
    let run = case(&report, "example-execution");
    assert_eq!(run["run"]["ended"], "blocked", "{run}");
    let notes = run["notes"].to_string();
    assert!(
        notes.contains("more than the 60 s a run may sleep"),
        "{notes}"
    );
}
