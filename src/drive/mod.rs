//! What to type next: a fixed script, or a strategy that computes each line from what the
//! program has printed so far and from the reference game's state.
//!
//! The runner stops the program at each read and asks an [`InputSource`]; this stage provides
//! them. A case's [`Driver`] makes a fresh source for every run, and says which reference
//! setup a finished run is to be compared with (Silver Dollar starts from the program's own
//! random strip). [`record_driven`] plays a driver against the reference game itself, which is
//! how driven cases get their stored reference transcripts.

pub mod coverage;
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

    /// Whether a run from `start` exercises what the case tests (always, for a script).
    pub fn reaches_its_rule(&self, start: &ReferenceStart) -> bool {
        match self {
            Driver::Script(_) => true,
            Driver::Strategy(strategy) => strategy.reaches_its_rule(start),
        }
    }
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
}

/// Plays `source` against the reference game set up as `setup`.
pub fn record_driven(setup: &Setup, source: &mut dyn InputSource) -> Recording {
    let mut console = DrivenConsole {
        source,
        transcript: Transcript::new(),
        starved: false,
    };
    games::play(setup, &mut console);
    Recording {
        wanted_more_input: console.starved,
        unread_lines: console.source.remaining(),
        transcript: console.transcript,
    }
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
        );
        assert_eq!(
            driven,
            games::record(
                &Setup::new(crate::assignments::nim::game::NewGame::HANDOUT),
                &lines
            )
        );
    }
}
