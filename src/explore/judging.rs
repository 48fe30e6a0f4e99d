//! Judging one game: the student's program run as the case runs it, compared with the
//! reference's transcript of the same game by the case's checks.

use std::path::Path;
use std::sync::{Mutex, PoisonError};

use anyhow::Context;

use super::{ExploreOptions, Explorer, ReplaySetup};
use crate::check::{self, Check, StudentRun};
use crate::drive::generate::{Driven, Game};
use crate::drive::{self, ReferenceStart};
use crate::games::{self, Setup};
use crate::results::CheckResult;
use crate::run::{self, Ending, RunSpec};

/// One replay of a game on the student's program: every check that failed, the first first.
pub(super) struct Verdict {
    pub(super) failing: Vec<CheckResult>,
    /// The program's start, drawn again as often as grading does, left no move to play (a
    /// finished strip): only the start and the ending were compared.
    pub(super) start_only: bool,
    /// A driven game as it was played: the reference's setup at the program's own start, the
    /// lines typed, and the reference's arguments for that start.
    pub(super) played: Option<Played>,
}

/// A driven game as one run played it.
#[derive(Clone)]
pub(super) struct Played {
    pub(super) setup: Setup,
    pub(super) lines: Vec<String>,
    pub(super) start_args: Vec<String>,
}

impl Verdict {
    /// The first failing check.
    pub(super) fn first(self) -> Option<CheckResult> {
        self.failing.into_iter().next()
    }
}

/// Files for a run's working directory: (name, content).
pub(super) type Files = Vec<(String, Vec<u8>)>;

/// Runs of scripted games that were stopped for time (the wall or CPU limit, or blocked): a
/// game that starts with the lines such a run read, on the same setup and board, is not run
/// again. The program never read past them, so it would do the same again, and wait as long
/// for it (shrinking a hanging program's game would otherwise pay its time-out at every
/// candidate).
#[derive(Default)]
pub(super) struct StoppedRuns(Mutex<Vec<StoppedRun>>);

/// A run stopped for time: the game's setup and board, the lines it read, how it went.
struct StoppedRun {
    setup: Setup,
    board: Option<String>,
    read: Vec<String>,
    outcome: run::RunOutcome,
}

impl StoppedRuns {
    /// A run stopped for time that `game` would repeat, as `game` would have ended it.
    pub(super) fn find(&self, game: &Game) -> Option<run::RunOutcome> {
        let runs = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        runs.iter()
            .find(|run| {
                run.setup == game.setup
                    && run.board == game.board_file
                    && game.lines.starts_with(&run.read)
            })
            .map(|run| run::RunOutcome {
                unread_inputs: game.lines.len() - run.read.len(),
                ..run.outcome.clone()
            })
    }

    /// Keeps `outcome` if `game`'s run was stopped for time.
    pub(super) fn keep(&self, game: &Game, outcome: &run::RunOutcome) {
        if !matches!(
            outcome.ending,
            Ending::WallTimeout | Ending::CpuLimit | Ending::Blocked(_)
        ) {
            return;
        }
        let read: Vec<String> = outcome.transcript.inputs().map(str::to_string).collect();
        if !game.lines.starts_with(&read) {
            return;
        }
        let mut runs = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        runs.push(StoppedRun {
            setup: game.setup.clone(),
            board: game.board_file.clone(),
            read,
            outcome: outcome.clone(),
        });
    }
}

impl Explorer<'_> {
    /// The setup and files of a game whose board file may have been shrunk: the case's files
    /// (assignment.yaml's and its own), and the game's board file under the name its first
    /// argument gives (replacing a file of that name).
    pub(super) fn setup_for(&self, game: &Game) -> Option<(Setup, Files)> {
        match &game.board_file {
            None => Some((game.setup.clone(), self.runs.files.clone())),
            Some(text) => {
                let name = self.runs.args.first()?.clone();
                let setup = (self.board_setup?)(Path::new(&name), text)?;
                let mut files = self.runs.files.clone();
                files.retain(|(file, _)| *file != name);
                files.push((name, text.clone().into_bytes()));
                Some((setup, files))
            }
        }
    }

    /// What the replay commands of a finding on `game` give the program and the reference:
    /// the program's arguments and files as [`Explorer::judge`] ran it; the reference's as its
    /// setup holds them (an instructor's own reference program), else the program's own
    /// start (`start_args`), else the board file the game brings, else the arguments that set
    /// the case's game up (`options.reference_args`).
    pub(super) fn replay_setup(
        &self,
        game: &Game,
        start_args: &[String],
        options: &ExploreOptions,
    ) -> ReplaySetup {
        let (setup, files) = self
            .setup_for(game)
            .unwrap_or_else(|| (game.setup.clone(), Vec::new()));
        let (reference_args, reference_files) =
            ReplaySetup::reference_side(&setup, start_args, || match game.board_file {
                Some(_) => self.runs.args.first().cloned().into_iter().collect(),
                None => options.reference_args.clone(),
            });
        ReplaySetup {
            args: self.runs.args.to_vec(),
            files,
            reference_args,
            reference_files,
        }
    }

    /// Replays `game` on the student's program and compares it with the reference.
    pub(super) fn judge(&self, game: &Game) -> anyhow::Result<Verdict> {
        let Some((setup, files)) = self.setup_for(game) else {
            return Ok(Verdict {
                failing: Vec::new(),
                played: None,
                start_only: false,
            });
        };
        let mut command = self.submission.command.clone();
        command.extend(self.runs.args.iter().cloned());
        let spec = RunSpec {
            command,
            files,
            readable: self.submission.readable.clone(),
            env: self.submission.env.clone(),
            input: game.lines.clone(),
            end_of_input: self.runs.end_of_input,
            limits: self.runs.limits.clone(),
            terminal: self.runs.terminal,
            workdir: None,
        };
        let mut played = None;
        let mut finished_start = false;
        let (outcome, reference) = match &game.driver {
            None => {
                let outcome = match self.stopped.find(game) {
                    Some(outcome) => outcome,
                    None => {
                        let outcome = run::run(&spec).context("the program could not be run")?;
                        self.stopped.keep(game, &outcome);
                        outcome
                    }
                };
                let reference = games::record(&setup, &game.lines)?;
                (outcome, reference)
            }
            Some(Driven(strategy)) => {
                // Driven from the program's own start; the reference from that start too
                // (from the game's own when the program's start breaks a rule, which the
                // start check reports).
                let run_once = || {
                    run::run_with(&spec, strategy.source().as_mut())
                        .context("the program could not be run")
                };
                // As in grading: a start that leaves the plan nothing to test (no move, or no
                // room for one of its illegal moves) is drawn again.
                let (outcome, _) = drive::redraw_until_the_rule_is_reached(
                    run_once()?,
                    |transcript| strategy.reference_start(transcript),
                    |start| strategy.reaches_its_rule(start),
                    || run_once().ok(),
                );
                let start = match strategy.reference_start(&outcome.transcript) {
                    ReferenceStart::Setup(start) => start,
                    ReferenceStart::Finished(start) => {
                        finished_start = true;
                        start
                    }
                    ReferenceStart::Unusable(_) => setup.clone(),
                };
                let reference = drive::record_driven(&start, strategy.source().as_mut())?;
                played = Some(Played {
                    setup: start,
                    lines: outcome.transcript.inputs().map(str::to_string).collect(),
                    start_args: strategy.start_args(&outcome.transcript),
                });
                (outcome, reference)
            }
        };
        let student = StudentRun::of(&outcome, &[]);
        let scoring = run::profile::span("random games: checks scored (a game)");
        let results = if finished_start {
            // A start with no move: redrawing or announcing a winner are both fair, so only
            // the start and the ending are compared (as in grading).
            let start_only: Vec<Check> = self
                .checks
                .iter()
                .filter(|c| {
                    c.kind.judges_the_start()
                        || matches!(c.kind, crate::check::CheckKind::Exit { .. })
                })
                .cloned()
                .collect();
            check::score(&start_only, &student, &reference, 1.0)
        } else if game.free_messages {
            // Where the handout leaves the message open, its fixed wordings are not compared.
            let fixed_only: Vec<Check> = self
                .checks
                .iter()
                .filter(|c| !is_fixed_message(c))
                .cloned()
                .collect();
            check::score(&fixed_only, &student, &reference, 1.0)
        } else {
            check::score(self.checks, &student, &reference, 1.0)
        };
        drop(scoring);
        let mut failing: Vec<CheckResult> = results
            .into_iter()
            .filter(|c| !c.passed && c.max_score > 0.0)
            .collect();
        // A program that played on after the game was over differs first there: its exit
        // check says so, and what it printed then follows from it.
        if check::played_on_after_the_game(&student, &reference).is_some() {
            if let Some(at) = failing.iter().position(|c| c.kind == "exit") {
                let exit = failing.remove(at);
                failing.insert(0, exit);
            }
        }
        if failing.is_empty()
            && !matches!(outcome.ending, Ending::Exited(_) | Ending::WaitingForInput)
        {
            // A crash, a timeout or a limit is a difference of its own.
            failing.push(CheckResult {
                rule: None,
                name: "run".into(),
                kind: "run".into(),
                passed: false,
                score: 0.0,
                max_score: 1.0,
                detail: format!("the program did not end normally: {:?}", outcome.ending),
                difference: None,
            });
        }
        Ok(Verdict {
            failing,
            played,
            start_only: finished_start,
        })
    }
}

/// Whether a check compares a message of fixed wording at its place (an `at_inputs` presence
/// check that does not accept any wording).
fn is_fixed_message(check: &Check) -> bool {
    matches!(
        &check.kind,
        crate::check::CheckKind::Lines {
            at_inputs: true,
            compare: crate::check::Compare::Presence,
            any_wording: false,
            ..
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::generated_games;
    use std::time::Duration;

    /// A run stopped for time after reading lines L stands for every game that starts with L
    /// on the same setup (as that game would have ended it); other runs are not kept.
    #[test]
    fn runs_stopped_for_time_stand_for_games_that_start_with_what_they_read() {
        use crate::transcript::Stream;
        let nim = crate::assignments::nim::ASSIGNMENT;
        let game = generated_games(nim, 1, 1).remove(0);
        assert!(game.lines.len() >= 3, "{:?}", game.lines);
        let outcome = |ending: Ending, read: &[String]| {
            let mut transcript = crate::transcript::Transcript::new();
            transcript.push_output(Stream::Stdout, b"Would you like to go first? (Y/N): ");
            for line in read {
                transcript.push_input(line.clone());
            }
            run::RunOutcome {
                transcript,
                ending,
                after_script: None,
                unread_inputs: game.lines.len() - read.len(),
                prompts_late: false,
                output_truncated: false,
                wall: Duration::from_secs(3),
                slept: Duration::from_secs(3),
                cpu: Duration::ZERO,
                peak_memory_bytes: None,
                peak_memory_of_run: false,
                detection: run::Detection::Seccomp,
            }
        };
        let stopped = StoppedRuns::default();
        let first = &game.lines[..1];
        stopped.keep(&game, &outcome(Ending::Exited(0), first));
        stopped.keep(&game, &outcome(Ending::WaitingForInput, first));
        assert!(
            stopped.find(&game).is_none(),
            "only runs stopped for time are kept"
        );
        let blocked = Ending::Blocked(run::pace::Stall::Idle);
        stopped.keep(&game, &outcome(blocked, first));
        let mut shorter = game.clone();
        shorter.lines.truncate(2);
        let found = stopped.find(&shorter).expect("the same first line");
        assert_eq!(found.ending, blocked);
        assert_eq!(found.unread_inputs, 1);
        assert_eq!(found.transcript.inputs().count(), 1);
        let mut other = game.clone();
        other.lines[0] = format!("{}x", other.lines[0]);
        assert!(stopped.find(&other).is_none(), "another first line");
        let mut none = game.clone();
        none.lines.clear();
        assert!(
            stopped.find(&none).is_none(),
            "it never typed the line that was read"
        );
        let mut elsewhere = game.clone();
        elsewhere.board_file = Some("1 2\n".into());
        assert!(stopped.find(&elsewhere).is_none(), "another board");
        // A wall or CPU time-out is kept too.
        let timed_out = StoppedRuns::default();
        timed_out.keep(&game, &outcome(Ending::WallTimeout, &game.lines[..2]));
        timed_out.keep(&game, &outcome(Ending::CpuLimit, &game.lines[..3]));
        assert_eq!(
            timed_out.find(&game).map(|o| o.ending),
            Some(Ending::WallTimeout)
        );
        assert!(timed_out.find(&shorter).is_some());
    }
}
