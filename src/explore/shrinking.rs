//! Shrinking a game that differs: fewer lines, smaller numbers, a smaller board (or, for a
//! driven game, a smaller plan), kept while the same check still fails.

use std::time::{Duration, Instant};

use super::judging::Played;
use super::{ExploreOptions, Explorer, Finding, FirstDifference};
use crate::drive::generate::{Driven, Game};
use crate::games;
use crate::results::CheckResult;

impl Explorer<'_> {
    /// The first difference found (`found`: the game's index, the game, its first failing
    /// check and, for a driven game, how it was played), shrunk, with what replays it.
    pub(super) fn shrunk_finding(
        &self,
        found: FirstDifference,
        options: &ExploreOptions,
    ) -> anyhow::Result<Finding> {
        Ok(match found {
            (index, game, first, Some(played)) => {
                // A driven game: its plan shrunk, reported as its last failing run played it.
                let original_lines = played.lines.len();
                let (shrunk, played, check, shrink_runs) =
                    self.shrink_driven(game, played, first, options.shrink_time);
                let reference = games::record(&played.setup, &played.lines)?
                    .transcript
                    .terminal_text();
                let replay = self.replay_setup(&shrunk, &played.start_args, options);
                Finding {
                    game: index,
                    original_lines,
                    input: played.lines,
                    board_file: None,
                    board_name: None,
                    start_args: played.start_args,
                    plan: shrunk.driver.map(|Driven(strategy)| strategy.describe()),
                    shrink_runs,
                    check,
                    reference,
                    replay,
                }
            }
            (index, game, first, None) => {
                let original_lines = game.lines.len();
                let (shrunk, shrink_runs) = self.shrink(game, &first.name, options.shrink_time);
                let check = self
                    .judge(&shrunk)?
                    .failing
                    .into_iter()
                    .find(|c| c.name == first.name)
                    .unwrap_or(first);
                let reference = self
                    .setup_for(&shrunk)
                    .map(|(setup, _)| games::record(&setup, &shrunk.lines))
                    .transpose()?
                    .map(|recording| recording.transcript.terminal_text())
                    .unwrap_or_default();
                let replay = self.replay_setup(&shrunk, &[], options);
                Finding {
                    game: index,
                    original_lines,
                    input: shrunk.lines,
                    board_name: shrunk
                        .board_file
                        .as_ref()
                        .and_then(|_| self.runs.args.first().cloned()),
                    board_file: shrunk.board_file,
                    start_args: Vec::new(),
                    plan: None,
                    shrink_runs,
                    check,
                    reference,
                    replay,
                }
            }
        })
    }

    /// Shrinks a driven game: smaller plans (fewer moves, fewer illegal moves, fewer coins),
    /// each played on a strip the program draws afresh, kept while the same check fails.
    /// Returns the smallest failing plan, the last failing run of it, its check and the runs
    /// made.
    pub(super) fn shrink_driven(
        &self,
        mut game: Game,
        mut played: Played,
        mut failed: CheckResult,
        budget: Duration,
    ) -> (Game, Played, CheckResult, usize) {
        let started = Instant::now();
        let mut runs = 0;
        let mut progress = true;
        while progress && started.elapsed() < budget {
            progress = false;
            let Some(Driven(strategy)) = game.driver.clone() else {
                break;
            };
            for smaller in strategy.smaller() {
                if started.elapsed() >= budget {
                    break;
                }
                let mut candidate = game.clone();
                candidate.driver = Some(Driven(smaller));
                runs += 1;
                let Ok(verdict) = self.judge(&candidate) else {
                    continue;
                };
                let same = verdict.failing.into_iter().find(|c| c.name == failed.name);
                if let (Some(check), Some(run)) = (same, verdict.played) {
                    game = candidate;
                    played = run;
                    failed = check;
                    progress = true;
                    break;
                }
            }
        }
        (game, played, failed, runs)
    }

    /// Shrinks `game` while the same check keeps failing; returns it and the runs made.
    pub(super) fn shrink(&self, mut game: Game, check: &str, budget: Duration) -> (Game, usize) {
        let started = Instant::now();
        let mut runs = 0;
        let still_fails = |candidate: &Game, runs: &mut usize| -> bool {
            // A candidate that repeats a run stopped for time is not run again.
            if self.stopped.find(candidate).is_none() {
                *runs += 1;
            }
            self.judge(candidate)
                .ok()
                .is_some_and(|v| v.failing.iter().any(|c| c.name == check))
        };
        // Drops chunks of lines from line `from` on, from halves down to single lines, while
        // the check still fails; true when any was dropped.
        let drop_chunks = |game: &mut Game, from: usize, runs: &mut usize| -> bool {
            let mut dropped = false;
            let mut chunk = game.lines.len().saturating_sub(from).div_ceil(2).max(1);
            while started.elapsed() < budget {
                let mut start = from;
                while start < game.lines.len() && started.elapsed() < budget {
                    let mut candidate = game.clone();
                    let end = (start + chunk).min(candidate.lines.len());
                    candidate.lines.drain(start..end);
                    if still_fails(&candidate, runs) {
                        *game = candidate;
                        dropped = true;
                    } else {
                        start += chunk;
                    }
                }
                if chunk == 1 {
                    break;
                }
                chunk /= 2;
            }
            dropped
        };
        // A run stopped for time never read past the lines it read: the lines after them go
        // first, each candidate a replay of the stopped run (a hanging program's time-out is
        // paid once, not at every candidate).
        if let Some(outcome) = self.stopped.find(&game) {
            let read = game.lines.len() - outcome.unread_inputs;
            drop_chunks(&mut game, read, &mut runs);
        }
        let mut progress = true;
        while progress && started.elapsed() < budget {
            // Fewer lines: drop chunks, from halves down to single lines.
            progress = drop_chunks(&mut game, 0, &mut runs);
            // Smaller numbers.
            for index in 0..game.lines.len() {
                for smaller in smaller_lines(&game.lines[index]) {
                    if started.elapsed() >= budget {
                        break;
                    }
                    let mut candidate = game.clone();
                    candidate.lines[index] = smaller;
                    if still_fails(&candidate, &mut runs) {
                        game = candidate;
                        progress = true;
                        break;
                    }
                }
            }
            // A smaller board: drop a row or a column.
            if let Some(text) = game.board_file.clone() {
                for smaller in smaller_boards(&text) {
                    if started.elapsed() >= budget {
                        break;
                    }
                    let mut candidate = game.clone();
                    candidate.board_file = Some(smaller);
                    if still_fails(&candidate, &mut runs) {
                        game = candidate;
                        progress = true;
                        break;
                    }
                }
            }
        }
        (game, runs)
    }
}

/// The line with one of its numbers made smaller (toward 1, then 0), most reduced first.
fn smaller_lines(line: &str) -> Vec<String> {
    let tokens: Vec<&str> = line.split(' ').collect();
    let mut out = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let Ok(value) = token.parse::<i64>() else {
            continue;
        };
        for target in [1, value / 2, value - 1] {
            if target >= 1 && target < value {
                let mut changed = tokens.clone();
                let text = target.to_string();
                changed[i] = &text;
                let candidate = changed.join(" ");
                if !out.contains(&candidate) {
                    out.push(candidate);
                }
            }
        }
    }
    out
}

/// The board with its last row, or its last column, removed.
fn smaller_boards(text: &str) -> Vec<String> {
    let rows: Vec<Vec<&str>> = text
        .lines()
        .map(|l| l.split_whitespace().collect())
        .filter(|r: &Vec<&str>| !r.is_empty())
        .collect();
    let mut out = Vec::new();
    if rows.len() > 1 {
        out.push(
            rows[..rows.len() - 1]
                .iter()
                .map(|r| r.join(" "))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    if rows.first().is_some_and(|r| r.len() > 1) {
        out.push(
            rows.iter()
                .map(|r| r[..r.len() - 1].join(" "))
                .collect::<Vec<_>>()
                .join("\n"),
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_shrink_toward_one() {
        assert_eq!(
            smaller_lines("8 3"),
            vec!["1 3", "4 3", "7 3", "8 1", "8 2"]
        );
        assert_eq!(smaller_lines("1"), Vec::<String>::new());
        assert_eq!(smaller_lines("H14"), Vec::<String>::new());
    }

    #[test]
    fn boards_shrink_by_a_row_or_a_column() {
        assert_eq!(smaller_boards("1 2\n3 4"), vec!["1 2", "1\n3"]);
        assert_eq!(smaller_boards("5"), Vec::<String>::new());
    }
}
