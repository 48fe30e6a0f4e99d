//! What to type next: a fixed script, or a strategy that computes each line from what the
//! program has printed so far and from the reference game's state.
//!
//! The runner stops the program at each read and asks an [`InputSource`]; this stage provides
//! them. A case's [`Driver`] makes a fresh source for every run, and says which reference
//! setup a finished run is to be compared with (Silver Dollar starts from the program's own
//! random strip). [`record_driven`] plays a driver against the reference game itself, which is
//! how driven cases get their stored reference transcripts.

pub mod generate;

use std::fmt;
use std::sync::Arc;

use crate::console::Console;
use crate::games::{self, Recording, Setup};
use crate::run::{InputSource, Script};
use crate::transcript::{Stream, Transcript};

/// How a case decides what to type.
#[derive(Clone, Debug)]
pub enum Driver {
    /// The same lines every run.
    Script(Vec<String>),
    /// An assignment's own strategy, computing each line from what the program printed
    /// (Silver Dollar: move by move from the program's own starting strip).
    Strategy(Arc<dyn InputStrategy>),
}

/// A strategy an assignment's driver compiles a case's `drive:` block into.
pub trait InputStrategy: fmt::Debug + Send + Sync {
    /// A fresh input source for one run.
    fn source(&self) -> Box<dyn InputSource + Send>;

    /// What the strategy types, in a line for listings.
    fn describe(&self) -> String;

    /// The reference setup to compare a finished run with (from what the program printed).
    fn reference_start(&self, student: &Transcript) -> ReferenceStart;

    /// Whether a run from `start` lets the plan type everything its case tests (a random
    /// start can leave no move at all, or no room for the illegal move the case is about);
    /// when it does not, the grader runs the program again for a new start. A start that
    /// breaks a rule is itself what gets graded, so it counts as reached.
    fn reaches_its_rule(&self, start: &ReferenceStart) -> bool {
        !matches!(start, ReferenceStart::Finished(_))
    }

    /// Smaller versions of this strategy (fewer moves, fewer illegal moves, fewer coins),
    /// most reduced first: how exploration shrinks a driven game it cannot replay line by
    /// line. None by default.
    fn smaller(&self) -> Vec<Arc<dyn InputStrategy>> {
        Vec::new()
    }

    /// The reference's game arguments that start it where the program started (Silver
    /// Dollar: `--board "…"` with the program's own strip), for a finding's replay command.
    fn start_args(&self, _student: &Transcript) -> Vec<String> {
        Vec::new()
    }
}

/// The reference setup a run is compared with, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub enum ReferenceStart {
    /// Compare with the reference game started this way.
    Setup(Setup),
    /// The program's own start is already finished (no move is possible): what a program
    /// does then is open (redraw, or announce a winner), so only its start and its ending
    /// are compared, against the reference started this way.
    Finished(Setup),
    /// The program's own start breaks a rule: the game cannot be compared (the message says
    /// which rule, for the checks that could not run).
    Unusable(String),
}

impl Driver {
    /// A fresh input source for one run.
    pub fn source(&self) -> Box<dyn InputSource + Send> {
        match self {
            Driver::Script(lines) => Box::new(Script::new(lines)),
            Driver::Strategy(strategy) => strategy.source(),
        }
    }

    /// What a strategy types, in a line for listings (`None` for a fixed script).
    pub fn describe(&self) -> Option<String> {
        match self {
            Driver::Script(_) => None,
            Driver::Strategy(strategy) => Some(strategy.describe()),
        }
    }

    /// Whether the input depends on what the program prints.
    pub fn is_scripted(&self) -> bool {
        matches!(self, Driver::Script(_))
    }

    /// The reference setup to compare a finished run with: the case's own for scripts; for
    /// Silver Dollar, the program's starting strip.
    pub fn reference_start(&self, case_setup: &Setup, student: &Transcript) -> ReferenceStart {
        match self {
            Driver::Script(_) => ReferenceStart::Setup(case_setup.clone()),
            Driver::Strategy(strategy) => strategy.reference_start(student),
        }
    }

    /// The reference's game arguments that start it where the program's run `student`
    /// started ([`InputStrategy::start_args`]; none for a script: the case's own start).
    pub fn start_args(&self, student: &Transcript) -> Vec<String> {
        match self {
            Driver::Script(_) => Vec::new(),
            Driver::Strategy(strategy) => strategy.start_args(student),
        }
    }

    /// Whether a run from `start` exercises what the case tests (always, for a script).
    pub fn reaches_its_rule(&self, start: &ReferenceStart) -> bool {
        match self {
            Driver::Script(_) => true,
            Driver::Strategy(strategy) => strategy.reaches_its_rule(start),
        }
    }
}

/// Runs of a driven game at most, each from the program's own new random start, until one
/// start lets the plan type what the game is to test. A Silver Dollar strip of 3 coins is
/// already finished once in 216 draws; four draws leave a case that tests nothing about once
/// in two billion gradings.
pub const DRAWS: usize = 4;

/// The run to grade a driven game on: `first` while its start lets the plan reach its rule,
/// else a run made again by `again` (for a new random start), up to [`DRAWS`] runs in all, and
/// how many were made again. A start that comes out the same again means a fixed seed and is
/// kept, unless it is a finished start: there is only one for a coin count, so a random
/// program draws it twice in a row once in 216² runs, which is no sign of a fixed seed. When
/// `again` cannot make a run, the last one stands.
pub fn redraw_until_the_rule_is_reached(
    first: crate::run::RunOutcome,
    start_of: impl Fn(&Transcript) -> ReferenceStart,
    reaches: impl Fn(&ReferenceStart) -> bool,
    mut again: impl FnMut() -> Option<crate::run::RunOutcome>,
) -> (crate::run::RunOutcome, usize) {
    let mut outcome = first;
    let mut redraws = 0;
    for _ in 1..DRAWS {
        let start = start_of(&outcome.transcript);
        if reaches(&start) {
            break;
        }
        let Some(next) = again() else {
            break;
        };
        let next_start = start_of(&next.transcript);
        redraws += 1;
        outcome = next;
        if next_start == start && !matches!(start, ReferenceStart::Finished(_)) {
            break;
        }
    }
    (outcome, redraws)
}

/// A console that asks an input source for each line and records the transcript, so a
/// driver can play the reference game exactly as it plays a student's program.
struct DrivenConsole<'a> {
    source: &'a mut dyn InputSource,
    transcript: Transcript,
    starved: bool,
}

impl Console for DrivenConsole<'_> {
    fn write(&mut self, text: &str) {
        self.transcript.push_output(Stream::Stdout, text.as_bytes());
    }

    fn read_line(&mut self) -> Option<String> {
        match self.source.next_line(&self.transcript) {
            Some(line) => {
                self.transcript.push_input(line.clone());
                Some(line)
            }
            None => {
                self.starved = true;
                None
            }
        }
    }

    fn ended_after_end_of_input(&mut self) {
        self.starved = false;
    }
}

/// Plays `source` against the reference game set up as `setup`, or says why the reference
/// could not play.
pub fn record_driven(
    setup: &Setup,
    source: &mut dyn InputSource,
) -> Result<Recording, games::ReferenceFailure> {
    let mut console = DrivenConsole {
        source,
        transcript: Transcript::new(),
        starved: false,
    };
    games::play(setup, &mut console)?;
    Ok(Recording {
        wanted_more_input: console.starved,
        unread_lines: console.source.remaining(),
        transcript: console.transcript,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_drives_the_reference_like_recording_does() {
        let lines: Vec<String> = ["3", "2", "1"].iter().map(|s| s.to_string()).collect();
        let driven = record_driven(
            &Setup::new(crate::assignments::nim::game::NewGame::HANDOUT),
            &mut Script::new(&lines),
        )
        .expect("the reference plays");
        assert_eq!(
            driven,
            games::record(
                &Setup::new(crate::assignments::nim::game::NewGame::HANDOUT),
                &lines
            )
            .expect("the reference plays")
        );
    }

    /// A run that printed `start`: "finished", "stuck" (a start with moves but no room for
    /// the case's rule) or "fine".
    fn run_from(start: &str) -> crate::run::RunOutcome {
        let mut transcript = Transcript::new();
        transcript.push_output(Stream::Stdout, start.as_bytes());
        crate::run::RunOutcome {
            transcript,
            ending: crate::run::Ending::Exited(0),
            after_script: None,
            unread_inputs: 0,
            prompts_late: false,
            output_truncated: false,
            wall: std::time::Duration::ZERO,
            slept: std::time::Duration::ZERO,
            cpu: std::time::Duration::ZERO,
            peak_memory_bytes: None,
            peak_memory_of_run: false,
            detection: crate::run::Detection::Seccomp,
        }
    }

    /// Draws `starts` in turn (the program's runs), and reports which start was graded and how
    /// many runs were made again.
    fn redraw(starts: &[&str]) -> (String, usize) {
        let setup = |text: &str| {
            Setup::new(crate::assignments::nim::game::NewGame {
                matches: text.len() as u32,
            })
        };
        let start_of = |t: &Transcript| match t.output_text(Stream::Stdout).as_str() {
            "finished" => ReferenceStart::Finished(setup("finished")),
            other => ReferenceStart::Setup(setup(other)),
        };
        let reaches = |start: &ReferenceStart| *start == ReferenceStart::Setup(setup("fine"));
        let mut rest = starts[1..].iter();
        let (outcome, made) =
            redraw_until_the_rule_is_reached(run_from(starts[0]), start_of, reaches, || {
                rest.next().map(|s| run_from(s))
            });
        (outcome.transcript.output_text(Stream::Stdout), made)
    }

    #[test]
    fn a_start_that_reaches_the_rule_is_graded_as_it_is() {
        assert_eq!(redraw(&["fine", "finished"]), ("fine".into(), 0));
    }

    #[test]
    fn a_start_that_misses_the_rule_is_drawn_again_until_one_reaches_it() {
        assert_eq!(redraw(&["finished", "fine"]), ("fine".into(), 1));
        assert_eq!(redraw(&["finished", "stuck", "fine"]), ("fine".into(), 2));
    }

    #[test]
    fn the_same_start_again_is_a_fixed_seed_unless_it_is_the_finished_one() {
        // "stuck" twice: a fixed seed, not run a third time.
        assert_eq!(redraw(&["stuck", "stuck", "fine"]), ("stuck".into(), 1));
        // The finished start twice (once in 216² for a random 3-coin program): drawn again,
        // up to DRAWS runs in all.
        assert_eq!(
            redraw(&["finished", "finished", "fine"]),
            ("fine".into(), 2)
        );
        assert_eq!(redraw(&["finished"; 6]), ("finished".into(), DRAWS - 1));
    }

    #[test]
    fn a_run_that_cannot_be_made_again_leaves_the_last() {
        assert_eq!(redraw(&["finished", "stuck"]), ("stuck".into(), 1));
        assert_eq!(redraw(&["stuck"]), ("stuck".into(), 0));
    }
}
