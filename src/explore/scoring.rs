//! Scoring a random-games case: the games played become the case's result, by the share of
//! games that agree with the reference, all or nothing, or each check by its own weight, as
//! the case file says; the first difference, shrunk, with what replays it, is its feedback.

use std::time::Duration;

use super::{replay_commands, GamesPlayed};
use crate::cases::schema::ExploreScoring;
use crate::cases::Case;
use crate::check::CheckKind;
use crate::results::{round_points, CaseResult, CaseStatus, CheckResult, Ended, RunSummary};
use crate::submission::Submission;

/// The result of random-games case `case` from the games `played` on `submission` (with
/// `seed`, in `wall` time), scored as `scoring` says.
pub fn random_games_result(
    case: &Case,
    scoring: ExploreScoring,
    played: &GamesPlayed,
    seed: u64,
    submission: &Submission,
    wall: Duration,
) -> CaseResult {
    let checks = match scoring {
        ExploreScoring::Share | ExploreScoring::All => {
            share_or_all(case, scoring, played, &summary(played, seed))
        }
        ExploreScoring::PerCheck => per_check(case, played),
    };
    let score = round_points(checks.iter().map(|c| c.score).sum());
    let passed = checks.iter().all(|c| c.passed || c.max_score <= 0.0);
    let mut notes = Vec::new();
    let mut input = Vec::new();
    if let Some(finding) = &played.finding {
        if let (Some(board), Some(name)) = (&finding.board_file, &finding.board_name) {
            notes.push(format!("the board file {name} of that game:\n{board}"));
        }
        for command in replay_commands(
            case.assignment,
            finding,
            &submission.replay_command(),
            submission.replay_build(),
        ) {
            notes.push(format!("replay it: {command}"));
        }
        input = finding.input.clone();
    }
    let mut run = RunSummary::not_run(Ended::Exit, 0);
    run.wall_ms = u64::try_from(wall.as_millis()).unwrap_or(u64::MAX);
    CaseResult {
        name: case.name.clone(),
        description: case.description.clone(),
        visibility: case.visibility,
        score,
        max_score: case.points,
        status: if passed {
            CaseStatus::Passed
        } else {
            CaseStatus::Failed
        },
        checks,
        run,
        input,
        notes,
        stderr: String::new(),
        first_difference: None,
    }
}

/// The games that count toward a share: those that left something to play.
fn counted(played: &GamesPlayed) -> usize {
    played.games - played.start_only
}

/// "N of M random game(s) agree with the reference (…)".
fn summary(played: &GamesPlayed, seed: u64) -> String {
    let counted = counted(played);
    let agreeing = counted - played.differing;
    let left_out = match played.start_only {
        0 => String::new(),
        n => format!("; {n} more left nothing to play (a finished start) and count for nothing"),
    };
    format!(
        "{agreeing} of {counted} random game(s) agree with the reference ({} line(s) typed, seed \
         {seed}{left_out})",
        played.steps
    )
}

/// What the shrunk first difference shows: its game, its input's length, its check.
fn finding_detail(played: &GamesPlayed) -> Option<String> {
    played.finding.as_ref().map(|f| {
        format!(
            "; game {} differs, shrunk to the {} input line(s) listed: {} {}",
            f.game,
            f.input.len(),
            f.check.name,
            f.check.detail
        )
    })
}

/// `share` and `all` scoring: one "explore" check with the case's points (the share of games
/// that agree, or all or nothing), and one informational line per check that differed.
fn share_or_all(
    case: &Case,
    scoring: ExploreScoring,
    played: &GamesPlayed,
    summary: &str,
) -> Vec<CheckResult> {
    let counted = counted(played);
    let share = if counted == 0 {
        0.0
    } else {
        (counted - played.differing) as f64 / counted as f64
    };
    let passed = played.differing == 0 && counted > 0;
    let score = match scoring {
        ExploreScoring::Share => round_points(case.points * share),
        _ if passed => case.points,
        _ => 0.0,
    };
    let mut checks = vec![CheckResult {
        // The rule the shrunk game breaks is its failing check's.
        rule: played.finding.as_ref().and_then(|f| f.check.rule.clone()),
        name: "explore".into(),
        kind: "explore".into(),
        passed,
        score,
        max_score: case.points,
        detail: match finding_detail(played) {
            Some(detail) => format!("{summary}{detail}"),
            None => summary.to_string(),
        },
        difference: played
            .finding
            .as_ref()
            .and_then(|f| f.check.difference.clone()),
    }];
    // Which checks differed, and in how many games (informational: no points).
    for (name, differing) in &played.failed_checks {
        checks.push(CheckResult {
            rule: case
                .checks
                .iter()
                .find(|c| c.name == *name)
                .and_then(|c| c.rule.clone()),
            name: name.clone(),
            kind: "explore".into(),
            passed: false,
            score: 0.0,
            max_score: 0.0,
            detail: format!("differs in {differing} of {counted} random game(s)"),
            difference: None,
        });
    }
    checks
}

/// `per_check` scoring: each weighted check earns its share of the case's points when it
/// agrees in every game. A game that ended abnormally though every check agreed counts
/// against the exit check (or, without one, against every check).
fn per_check(case: &Case, played: &GamesPlayed) -> Vec<CheckResult> {
    let counted = counted(played);
    let weights: f64 = case.checks.iter().map(|c| c.weight.max(0.0)).sum();
    let has_exit = case
        .checks
        .iter()
        .any(|c| matches!(c.kind, CheckKind::Exit { .. }));
    let abnormal = played.failed_checks.get("run").copied().unwrap_or(0);
    let finding_detail = finding_detail(played);
    case.checks
        .iter()
        .filter(|c| c.weight > 0.0)
        .map(|check| {
            let mut differing = played.failed_checks.get(&check.name).copied().unwrap_or(0);
            if !has_exit || matches!(check.kind, CheckKind::Exit { .. }) {
                differing += abnormal;
            }
            let max_score =
                round_points(case.points * check.weight / weights.max(f64::MIN_POSITIVE));
            let passed = differing == 0 && counted > 0;
            let first = played
                .finding
                .as_ref()
                .filter(|f| f.check.name == check.name);
            CheckResult {
                rule: check.rule.clone(),
                name: check.name.clone(),
                kind: "explore".into(),
                passed,
                score: if passed { max_score } else { 0.0 },
                max_score,
                detail: if passed {
                    format!("agrees in all {counted} random game(s)")
                } else if counted == 0 {
                    // Nothing was played past a start: there is nothing to agree with.
                    format!(
                        "none of the {} random game(s) left anything to play (each start was \
                         already over), so none counts",
                        played.games
                    )
                } else {
                    format!(
                        "differs in {differing} of {counted} random game(s){}",
                        match (&finding_detail, first) {
                            (Some(detail), Some(_)) => detail.clone(),
                            _ => String::new(),
                        }
                    )
                },
                difference: first.and_then(|f| f.check.difference.clone()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::{self, CaseTree};
    use crate::check::{Check, Level};
    use crate::explore::{Finding, ReplaySetup};

    /// nim's random-games case (6 points) with three checks of weights 1, 2 and 1, the last
    /// an exit check when `exit` says so.
    fn case(exit: bool) -> Case {
        let tree = CaseTree::built_in();
        let set = cases::load(&tree, crate::assignments::nim::ASSIGNMENT).expect("nim loads");
        let mut case = set
            .cases
            .into_iter()
            .find(|c| c.name == "random-games")
            .expect("nim has a random-games case");
        let transcript = CheckKind::Transcript {
            level: Level::Whitespace,
        };
        let check = |name: &str, weight: f64, kind: CheckKind| Check {
            name: name.into(),
            weight,
            kind,
            rule: Some(format!("the {name} rule")),
        };
        case.checks = vec![
            check("moves", 1.0, transcript.clone()),
            check("board", 2.0, transcript.clone()),
            if exit {
                check("ending", 1.0, CheckKind::Exit { code: true })
            } else {
                check("ending", 1.0, transcript)
            },
        ];
        assert_eq!(case.points, 6.0);
        case
    }

    /// 10 games, 2 of them start-only (8 counted), 3 differing: "board" in 2 of them (the
    /// first shrunk to 2 lines in game 4), one ended abnormally with every check agreeing.
    fn played() -> GamesPlayed {
        GamesPlayed {
            games: 10,
            steps: 57,
            differing: 3,
            start_only: 2,
            failed_checks: [("board".to_string(), 2), ("run".to_string(), 1)]
                .into_iter()
                .collect(),
            finding: Some(Finding {
                game: 4,
                original_lines: 9,
                input: vec!["1 2".into(), "3 1".into()],
                board_file: None,
                board_name: None,
                start_args: Vec::new(),
                plan: None,
                shrink_runs: 5,
                check: CheckResult {
                    rule: Some("the board rule".into()),
                    name: "board".into(),
                    kind: "transcript".into(),
                    passed: false,
                    score: 0.0,
                    max_score: 2.0,
                    detail: "row 2 differs".into(),
                    difference: None,
                },
                reference: String::new(),
                replay: ReplaySetup::default(),
            }),
            coverage: Vec::new(),
        }
    }

    fn scores(checks: &[CheckResult]) -> Vec<(&str, bool, f64, f64)> {
        checks
            .iter()
            .map(|c| (c.name.as_str(), c.passed, c.score, c.max_score))
            .collect()
    }

    #[test]
    fn per_check_gives_each_check_its_weights_share_when_it_agrees_in_every_game() {
        // Weights 1 + 2 + 1 = 4 of 6 points: 1.5, 3 and 1.5. The abnormal game counts
        // against the exit check alone.
        let checks = per_check(&case(true), &played());
        assert_eq!(
            scores(&checks),
            vec![
                ("moves", true, 1.5, 1.5),
                ("board", false, 0.0, 3.0),
                ("ending", false, 0.0, 1.5),
            ]
        );
        assert_eq!(checks[0].detail, "agrees in all 8 random game(s)");
        assert_eq!(
            checks[1].detail,
            "differs in 2 of 8 random game(s); game 4 differs, shrunk to the 2 input line(s) \
             listed: board row 2 differs"
        );
        assert_eq!(checks[2].detail, "differs in 1 of 8 random game(s)");
        assert_eq!(checks[1].rule.as_deref(), Some("the board rule"));
    }

    #[test]
    fn without_an_exit_check_an_abnormal_game_counts_against_every_check() {
        let checks = per_check(&case(false), &played());
        assert_eq!(
            scores(&checks),
            vec![
                ("moves", false, 0.0, 1.5),
                ("board", false, 0.0, 3.0),
                ("ending", false, 0.0, 1.5),
            ]
        );
        assert_eq!(
            checks[1].detail.split(';').next(),
            Some("differs in 3 of 8 random game(s)")
        );
    }

    #[test]
    fn a_check_of_no_weight_earns_and_shows_nothing() {
        let mut case = case(true);
        case.checks[0].weight = 0.0;
        let checks = per_check(&case, &played());
        // Weights 2 + 1 = 3 of 6 points: 4 and 2.
        assert_eq!(
            scores(&checks),
            vec![("board", false, 0.0, 4.0), ("ending", false, 0.0, 2.0)]
        );
    }

    #[test]
    fn share_gives_the_points_times_the_share_of_counted_games_that_agree() {
        let played = played();
        let summary = summary(&played, 99);
        assert_eq!(
            summary,
            "5 of 8 random game(s) agree with the reference (57 line(s) typed, seed 99; 2 more \
             left nothing to play (a finished start) and count for nothing)"
        );
        let checks = share_or_all(&case(true), ExploreScoring::Share, &played, &summary);
        // 6 points × 5/8.
        assert_eq!(
            scores(&checks),
            vec![
                ("explore", false, 3.75, 6.0),
                ("board", false, 0.0, 0.0),
                ("run", false, 0.0, 0.0),
            ]
        );
        assert!(
            checks[0].detail.starts_with(&summary),
            "{}",
            checks[0].detail
        );
        assert!(checks[0].detail.ends_with("listed: board row 2 differs"));
        assert_eq!(checks[0].rule.as_deref(), Some("the board rule"));
        assert_eq!(checks[1].detail, "differs in 2 of 8 random game(s)");
        // An informational line keeps the rule of the check it names; "run" is no check.
        assert_eq!(checks[1].rule.as_deref(), Some("the board rule"));
        assert_eq!(checks[2].rule, None);
    }

    #[test]
    fn a_summary_without_start_only_games_says_nothing_of_them() {
        let mut played = played();
        played.games = 8;
        played.start_only = 0;
        assert_eq!(
            summary(&played, 7),
            "5 of 8 random game(s) agree with the reference (57 line(s) typed, seed 7)"
        );
    }

    #[test]
    fn per_check_gives_nothing_when_every_game_left_nothing_to_play() {
        let mut played = played();
        played.start_only = played.games;
        played.differing = 0;
        played.failed_checks.clear();
        played.finding = None;
        let checks = per_check(&case(true), &played);
        assert_eq!(
            scores(&checks),
            vec![
                ("moves", false, 0.0, 1.5),
                ("board", false, 0.0, 3.0),
                ("ending", false, 0.0, 1.5),
            ]
        );
        assert_eq!(
            checks[0].detail,
            "none of the 10 random game(s) left anything to play (each start was already over), \
             so none counts"
        );
    }

    /// A ready-made program, `play.sh`, prepared as grading prepares it.
    fn script() -> (tempfile::TempDir, Submission) {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("dir");
        let path = dir.path().join("play.sh");
        std::fs::write(&path, "#!/bin/sh\necho 1\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        let submission = crate::submission::prepare(&path, &Default::default()).expect("prepared");
        (dir, submission)
    }

    #[test]
    fn the_case_result_adds_the_checks_and_shows_the_replay_of_the_shrunk_game() {
        let (_dir, submission) = script();
        let case = case(true);
        let mut played = played();
        if let Some(finding) = played.finding.as_mut() {
            finding.board_file = Some("#..\n".into());
            finding.board_name = Some("board.txt".into());
        }
        let wall = Duration::from_millis(1500);
        let result =
            random_games_result(&case, ExploreScoring::Share, &played, 3, &submission, wall);
        // 6 points × 5 of 8 counted games.
        assert_eq!((result.score, result.max_score), (3.75, 6.0));
        assert_eq!(result.status, CaseStatus::Failed);
        assert_eq!(result.name, "random-games");
        assert_eq!(result.input, ["1 2", "3 1"]);
        assert_eq!(result.run.wall_ms, 1500);
        assert_eq!(
            result.notes,
            [
                "the board file board.txt of that game:\n#..\n",
                "replay it: printf '1 2\\n3 1\\n' | ./play.sh   # your program",
                "replay it: printf '1 2\\n3 1\\n' | grade play nim   # the reference",
            ]
        );
        // per_check: the moves check alone agrees in every game, 1.5 of its points.
        let result = random_games_result(
            &case,
            ExploreScoring::PerCheck,
            &played,
            3,
            &submission,
            wall,
        );
        assert_eq!((result.score, result.status), (1.5, CaseStatus::Failed));
    }

    #[test]
    fn a_case_whose_games_all_agree_passes_with_its_points_and_no_notes() {
        let (_dir, submission) = script();
        let case = case(true);
        let mut played = played();
        played.differing = 0;
        played.failed_checks.clear();
        played.finding = None;
        for scoring in [
            ExploreScoring::Share,
            ExploreScoring::All,
            ExploreScoring::PerCheck,
        ] {
            let result =
                random_games_result(&case, scoring, &played, 3, &submission, Duration::ZERO);
            assert_eq!(
                (result.score, result.status),
                (6.0, CaseStatus::Passed),
                "{scoring:?}"
            );
            assert!(result.notes.is_empty() && result.input.is_empty());
        }
    }

    #[test]
    fn all_gives_the_points_only_when_every_counted_game_agrees() {
        let case = case(true);
        let mut played = played();
        let checks = share_or_all(&case, ExploreScoring::All, &played, "");
        assert_eq!(checks[0].score, 0.0);
        played.differing = 0;
        played.failed_checks.clear();
        played.finding = None;
        let checks = share_or_all(&case, ExploreScoring::All, &played, "");
        assert_eq!(scores(&checks), vec![("explore", true, 6.0, 6.0)]);
        // Games that all left nothing to play agree with nothing: no points.
        played.start_only = played.games;
        for scoring in [ExploreScoring::All, ExploreScoring::Share] {
            let checks = share_or_all(&case, scoring, &played, "");
            assert_eq!(scores(&checks), vec![("explore", false, 0.0, 6.0)]);
        }
    }
}
