//! `grade explore`: random games against the reference, and the shortest input that shows a
//! difference.
//!
//! Each game is generated against the reference alone (`drive::generate`), replayed on the
//! student's program, and compared with the assignment's own default checks — the same
//! style-tolerant comparisons grading uses, never the exact text. On the first game that
//! differs, its input is shrunk (fewer lines, smaller numbers, a smaller board) to a minimal
//! one that still fails the same check.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use serde::Serialize;

use crate::assignments::collect::game as collect;
use crate::assignments::{Assignment, Explore};
use crate::cases::{self, CaseTree};
use crate::check::{self, Check, StudentRun};
use crate::drive::generate::{self, Game};
use crate::games::{self, Setup};
use crate::results::CheckResult;
use crate::run::{self, EndOfInput, Ending, Limits, RunSpec};
use crate::submission::{self, PrepareOptions, Submission};

/// What to explore and for how long.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The first game's seed; game `i` uses a seed derived from it.
    pub seed: u64,
    /// Games to play at most.
    pub games: usize,
    /// Stop starting new games after this long.
    pub time: Option<Duration>,
    /// Games played at once.
    pub jobs: usize,
    /// An instructor's case directory (for its limits, arguments and checks).
    pub cases: Option<PathBuf>,
    /// Show progress on standard error.
    pub progress: bool,
    /// Time spent shrinking a difference at most.
    pub shrink_time: Duration,
}

/// A difference found and shrunk.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// Which game (0-based) first showed it.
    pub game: usize,
    /// Lines typed in that game before shrinking.
    pub original_lines: usize,
    /// The shrunk input.
    pub input: Vec<String>,
    /// The board file (collect), shrunk too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_file: Option<String>,
    /// The name the program gets the board file under (its argument).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_name: Option<String>,
    /// Runs made while shrinking.
    pub shrink_runs: usize,
    /// The check that fails on the shrunk input, with its first difference.
    pub check: CheckResult,
    /// The reference transcript on the shrunk input.
    pub reference: String,
}

/// The result of an exploration.
#[derive(Clone, Debug, Serialize)]
pub struct Exploration {
    /// The assignment.
    pub assignment: String,
    /// The submission as given.
    pub submission: String,
    /// The seed.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// Lines typed over all games.
    pub steps: usize,
    /// Wall time in milliseconds.
    pub wall_ms: u64,
    /// The difference found, if any.
    pub finding: Option<Finding>,
}

/// Reads a duration such as `30s`, `2m` or `45` (seconds).
pub fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let text = text.trim();
    let (number, unit) = match text.strip_suffix('m') {
        Some(n) => (n, 60.0),
        None => (text.strip_suffix('s').unwrap_or(text), 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(Duration::from_secs_f64(v * unit)),
        _ => bail!("--time {text}: expected a duration such as 30s or 2m"),
    }
}

/// Seed of game `index`: distinct for every (seed, index) pair.
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut rng = crate::games::SplitMix64::new(seed ^ (index as u64).rotate_left(32));
    rng.next_u64()
}

/// One replay of a game on the student's program and its first failing check.
struct Verdict {
    failing: Option<CheckResult>,
}

/// Files for a run's working directory: (name, content).
type Files = Vec<(String, Vec<u8>)>;

/// What every replay needs: the checks to compare with, the program's arguments and limits,
/// and the prepared submission.
struct Explorer<'a> {
    checks: &'a [Check],
    args: &'a [String],
    limits: &'a Limits,
    submission: &'a Submission,
}

impl Explorer<'_> {
    /// The setup and files of a game whose board file may have been shrunk.
    fn setup_for(&self, game: &Game) -> Option<(Setup, Files)> {
        match &game.board_file {
            None => Some((game.setup.clone(), Vec::new())),
            Some(text) => {
                let name = self.args.first()?.clone();
                let board = collect::Board::parse(Path::new(&name), text).ok()?;
                Some((Setup::new(board), vec![(name, text.clone().into_bytes())]))
            }
        }
    }

    /// Replays `game` on the student's program and compares it with the reference.
    fn judge(&self, game: &Game) -> anyhow::Result<Verdict> {
        let Some((setup, files)) = self.setup_for(game) else {
            return Ok(Verdict { failing: None });
        };
        let mut command = self.submission.command.clone();
        command.extend(self.args.iter().cloned());
        let spec = RunSpec {
            command,
            files,
            readable: self.submission.readable.clone(),
            env: self.submission.env.clone(),
            input: game.lines.clone(),
            end_of_input: EndOfInput::Stop,
            limits: self.limits.clone(),
            terminal: false,
            workdir: None,
        };
        let outcome = run::run(&spec).context("the program could not be run")?;
        let reference = games::record(&setup, &game.lines);
        let student = StudentRun {
            transcript: &outcome.transcript,
            exited: match outcome.ending {
                Ending::Exited(code) => Some(code),
                _ => None,
            },
            waiting_for_input: outcome.ending == Ending::WaitingForInput,
            prompts_late: outcome.prompts_late,
            unread_inputs: outcome.unread_inputs,
            samples: &[],
        };
        let results = check::score(self.checks, &student, &reference, 1.0);
        let mut failing = results.into_iter().find(|c| !c.passed && c.max_score > 0.0);
        if failing.is_none()
            && !matches!(outcome.ending, Ending::Exited(_) | Ending::WaitingForInput)
        {
            // A crash, a timeout or a limit is a difference of its own.
            failing = Some(CheckResult {
                name: "run".into(),
                kind: "run".into(),
                passed: false,
                score: 0.0,
                max_score: 1.0,
                detail: format!("the program did not end normally: {:?}", outcome.ending),
                difference: None,
            });
        }
        Ok(Verdict { failing })
    }

    /// Shrinks `game` while the same check keeps failing; returns it and the runs made.
    fn shrink(&self, mut game: Game, check: &str, budget: Duration) -> (Game, usize) {
        let started = Instant::now();
        let mut runs = 0;
        let still_fails = |candidate: &Game, runs: &mut usize| -> bool {
            *runs += 1;
            self.judge(candidate)
                .ok()
                .and_then(|v| v.failing)
                .is_some_and(|c| c.name == check)
        };
        let mut progress = true;
        while progress && started.elapsed() < budget {
            progress = false;
            // Fewer lines: drop chunks, from halves down to single lines.
            let mut chunk = game.lines.len().div_ceil(2).max(1);
            while chunk >= 1 && started.elapsed() < budget {
                let mut start = 0;
                while start < game.lines.len() && started.elapsed() < budget {
                    let mut candidate = game.clone();
                    let end = (start + chunk).min(candidate.lines.len());
                    candidate.lines.drain(start..end);
                    if still_fails(&candidate, &mut runs) {
                        game = candidate;
                        progress = true;
                    } else {
                        start += chunk;
                    }
                }
                if chunk == 1 {
                    break;
                }
                chunk /= 2;
            }
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

/// Explores `submission` for `assignment`.
pub fn explore(
    submission_path: &Path,
    assignment: Assignment,
    options: &ExploreOptions,
) -> anyhow::Result<Exploration> {
    if let Explore::Unavailable(why) = assignment.def().explore {
        bail!("{why}");
    }
    let started = Instant::now();
    let tree = CaseTree::open(options.cases.as_deref())?;
    if let Some(root) = tree.root() {
        run::sandbox::protect(root);
    }
    let set = cases::load(&tree, assignment)?;
    let prepared = submission::prepare(
        submission_path,
        &PrepareOptions {
            java_main: set.java_main.clone(),
            main_file: set.main_file.clone(),
            main: None,
            ..PrepareOptions::default()
        },
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let outcome = run_games(
        assignment,
        &set.default_checks,
        &set.args,
        &set.limits,
        &prepared,
        options,
    )?;
    Ok(Exploration {
        assignment: assignment.name().to_string(),
        submission: submission_path.display().to_string(),
        seed: options.seed,
        games: outcome.games,
        steps: outcome.steps,
        wall_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        finding: outcome.finding,
    })
}

/// What a batch of games found.
#[derive(Clone, Debug)]
pub struct GamesPlayed {
    /// Games played.
    pub games: usize,
    /// Lines typed over all games.
    pub steps: usize,
    /// The first difference, shrunk.
    pub finding: Option<Finding>,
}

/// Plays up to `options.games` generated games of `assignment` on a prepared submission,
/// comparing each with `checks`; shrinks the first difference.
pub fn run_games(
    assignment: Assignment,
    checks: &[Check],
    args: &[String],
    limits: &Limits,
    prepared: &Submission,
    options: &ExploreOptions,
) -> anyhow::Result<GamesPlayed> {
    let started = Instant::now();
    let explorer = Explorer {
        checks,
        args,
        limits,
        submission: prepared,
    };
    let jobs = options.jobs.clamp(1, 64);
    let deadline = options.time.map(|t| started + t);
    let mut played = 0;
    let mut steps = 0;
    let mut found: Option<(usize, Game, CheckResult)> = None;
    // Games run in batches of `jobs`; the lowest failing game of a batch is the one reported,
    // so the same seed gives the same result however the threads are scheduled.
    while played < options.games && found.is_none() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let batch: Vec<usize> = (played..(played + jobs).min(options.games)).collect();
        let games: Vec<Option<Game>> = batch
            .iter()
            .map(|&i| generate::game(assignment, game_seed(options.seed, i)))
            .collect();
        let verdicts = crate::parallel::in_parallel(games.len(), games.len(), |slot| {
            games[slot].as_ref().map(|game| explorer.judge(game))
        });
        for ((index, game), verdict) in batch.iter().zip(games).zip(verdicts) {
            let (Some(game), Some(verdict)) = (game, verdict) else {
                continue;
            };
            played += 1;
            steps += game.lines.len();
            if found.is_none() {
                if let Some(check) = verdict?.failing {
                    found = Some((*index, game, check));
                }
            }
        }
        if options.progress {
            eprint!("\rexplored {played} game(s), {steps} line(s) typed");
        }
    }
    if options.progress {
        eprintln!();
    }
    let finding = match found {
        None => None,
        Some((index, game, first)) => {
            let original_lines = game.lines.len();
            let (shrunk, shrink_runs) = explorer.shrink(game, &first.name, options.shrink_time);
            let check = explorer.judge(&shrunk)?.failing.unwrap_or(first);
            let reference = explorer
                .setup_for(&shrunk)
                .map(|(setup, _)| {
                    games::record(&setup, &shrunk.lines)
                        .transcript
                        .terminal_text()
                })
                .unwrap_or_default();
            Some(Finding {
                game: index,
                original_lines,
                input: shrunk.lines,
                board_name: shrunk
                    .board_file
                    .as_ref()
                    .and_then(|_| args.first().cloned()),
                board_file: shrunk.board_file,
                shrink_runs,
                check,
                reference,
            })
        }
    };
    Ok(GamesPlayed {
        games: played,
        steps,
        finding,
    })
}

/// Writes a finding as a ready case (and its reference transcript) under `root`, which then
/// holds `cases/NAME/` and `reference/NAME/` like any instructor's case directory; returns the
/// case file written.
pub fn save_case(
    exploration: &Exploration,
    assignment: Assignment,
    root: &Path,
) -> anyhow::Result<Option<PathBuf>> {
    let Some(finding) = &exploration.finding else {
        return Ok(None);
    };
    let cases_dir = root.join("cases").join(assignment.name());
    let reference_dir = root.join("reference").join(assignment.name());
    for dir in [&cases_dir, &reference_dir] {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let header = cases_dir.join("assignment.yaml");
    if !header.exists() {
        let built_in = CaseTree::built_in();
        let text = built_in
            .file(&format!("cases/{assignment}/assignment.yaml"))
            .context("no built-in assignment.yaml")?;
        std::fs::write(&header, text)
            .with_context(|| format!("cannot write {}", header.display()))?;
    }
    let name = format!("explore-{}-game-{}", exploration.seed, finding.game);
    let mut case = serde_json::json!({
        "name": name,
        "description": format!(
            "Found by grade explore (seed {}, game {}): {}",
            exploration.seed, finding.game, finding.check.detail
        ),
        "points": 1,
        "input": finding.input,
    });
    if let (Some(board), Some(board_name)) = (&finding.board_file, &finding.board_name) {
        case["files"] = serde_json::json!({ board_name.clone(): board });
    }
    let path = cases_dir.join(format!("{name}.yaml"));
    std::fs::write(&path, serde_yaml::to_string(&case)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    let transcript = reference_dir.join(format!("{name}.txt"));
    std::fs::write(&transcript, &finding.reference)
        .with_context(|| format!("cannot write {}", transcript.display()))?;
    Ok(Some(path))
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

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s").ok(), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("2m").ok(), Some(Duration::from_secs(120)));
        assert_eq!(
            parse_duration("1.5").ok(),
            Some(Duration::from_millis(1500))
        );
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
