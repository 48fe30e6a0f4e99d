//! The five reference games: faithful, deterministic implementations of the handouts.
//!
//! Each game is a state machine that talks only to a [`Console`], never to stdin/stdout, so
//! it serves `grade play`, `grade record` and grading alike. [`Setup`] holds everything a game
//! needs before the first prompt (board file, seed, size), parsed from the game arguments.

pub mod collect;
pub mod connect6;
pub mod m;
pub mod nim;
pub mod silver_dollar;

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use crate::console::{Console, ScriptedConsole};
use crate::transcript::Transcript;

/// One of the five assignments; its name is used on the command line, in cases/ and reference/.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Assignment {
    /// The Game of M (CS118, Python).
    M,
    /// The Silver Dollar Game (CSCI 2101, Java).
    SilverDollar,
    /// Connect6 on an N×N board (C++).
    Connect6,
    /// The number-board collect game (Programming Assignment 3, Python).
    Collect,
    /// Nim against the computer (CS 135, C++).
    Nim,
}

impl Assignment {
    /// All assignments, in the order the handouts are numbered.
    pub const ALL: [Assignment; 5] = [
        Assignment::M,
        Assignment::SilverDollar,
        Assignment::Connect6,
        Assignment::Collect,
        Assignment::Nim,
    ];

    /// The name used everywhere: CLI, cases/, reference/, docs.
    pub fn name(self) -> &'static str {
        match self {
            Assignment::M => "m",
            Assignment::SilverDollar => "silver_dollar",
            Assignment::Connect6 => "connect6",
            Assignment::Collect => "collect",
            Assignment::Nim => "nim",
        }
    }

    /// A short human title for listings.
    pub fn title(self) -> &'static str {
        match self {
            Assignment::M => "The Game of M",
            Assignment::SilverDollar => "Silver Dollar Game",
            Assignment::Connect6 => "Connect6",
            Assignment::Collect => "Number-board collect game",
            Assignment::Nim => "Nim against the computer",
        }
    }

    /// The game arguments this assignment accepts, for help texts.
    pub fn args_usage(self) -> &'static str {
        match self {
            Assignment::M | Assignment::Nim => "",
            Assignment::SilverDollar => "[--seed N] [--board \"_ _ 0 _ 1\"]",
            Assignment::Connect6 => "[--size N]",
            Assignment::Collect => "BOARD_FILE",
        }
    }
}

impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a name that is not one of the five assignments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAssignment(pub String);

impl fmt::Display for UnknownAssignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Assignment::ALL.iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown assignment '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAssignment {}

impl FromStr for Assignment {
    type Err = UnknownAssignment;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Assignment::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAssignment(s.to_string()))
    }
}

/// Why game arguments could not be turned into a [`Setup`].
#[derive(Debug)]
pub enum SetupError {
    /// The arguments themselves are wrong (unknown flag, missing value, bad number).
    Usage(String),
    /// A file named by the arguments could not be read.
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A file was read but its content is not valid for the game (board file errors).
    Invalid {
        path: PathBuf,
        line: Option<usize>,
        problem: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Usage(message) => f.write_str(message),
            SetupError::Io { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            SetupError::Invalid {
                path,
                line: Some(line),
                problem,
            } => write!(f, "{}:{line}: {problem}", path.display()),
            SetupError::Invalid {
                path,
                line: None,
                problem,
            } => write!(f, "{}: {problem}", path.display()),
        }
    }
}

impl std::error::Error for SetupError {}

/// Everything a game needs before its first prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// The Game of M takes no arguments.
    M,
    /// Silver Dollar starts from a random strip (seeded) or a given one.
    SilverDollar(silver_dollar::Start),
    /// Connect6 on a `size`×`size` board.
    Connect6 { size: usize },
    /// Collect starts from a board read from a file.
    Collect(collect::Board),
    /// Nim always starts at 21 matches.
    Nim,
}

impl Setup {
    /// Parses game arguments as typed after the assignment name (`grade play NAME ARGS…`).
    ///
    /// Relative file names are resolved against `base_dir`.
    pub fn from_args(
        assignment: Assignment,
        args: &[String],
        base_dir: &Path,
    ) -> Result<Setup, SetupError> {
        match assignment {
            Assignment::M => no_args(assignment, args).map(|()| Setup::M),
            Assignment::Nim => no_args(assignment, args).map(|()| Setup::Nim),
            Assignment::SilverDollar => {
                silver_dollar::Start::from_args(args).map(Setup::SilverDollar)
            }
            Assignment::Connect6 => {
                connect6::size_from_args(args).map(|size| Setup::Connect6 { size })
            }
            Assignment::Collect => collect::Board::from_args(args, base_dir).map(Setup::Collect),
        }
    }

    /// A setup for a person playing the reference (`grade play`): what the handout draws at
    /// random is drawn afresh unless the arguments fix it, so the reference a student plays
    /// does not repeat itself; the note says how to play the same game again.
    pub fn for_play(
        assignment: Assignment,
        args: &[String],
        base_dir: &Path,
    ) -> Result<(Setup, Option<String>), SetupError> {
        let setup = Setup::from_args(assignment, args, base_dir)?;
        Ok(match setup {
            Setup::SilverDollar(silver_dollar::Start::Seeded(_)) if args.is_empty() => {
                let seed = fresh_seed();
                let note = format!(
                    "the strip is drawn from seed {seed}; replay this game with \
                     `grade play silver_dollar --seed {seed}`"
                );
                (
                    Setup::SilverDollar(silver_dollar::Start::Seeded(seed)),
                    Some(note),
                )
            }
            other => (other, None),
        })
    }

    /// The assignment this setup belongs to.
    pub fn assignment(&self) -> Assignment {
        match self {
            Setup::M => Assignment::M,
            Setup::SilverDollar(_) => Assignment::SilverDollar,
            Setup::Connect6 { .. } => Assignment::Connect6,
            Setup::Collect(_) => Assignment::Collect,
            Setup::Nim => Assignment::Nim,
        }
    }
}

/// A seed no two plays share: the standard library's per-process random SipHash keys, mixed
/// with the time.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(now);
    // Seeds stay below 2^53 so that every tool reading the note (a spreadsheet, JSON) keeps
    // them exact.
    hasher.finish() >> 11
}

fn no_args(assignment: Assignment, args: &[String]) -> Result<(), SetupError> {
    match args.first() {
        None => Ok(()),
        Some(arg) => Err(SetupError::Usage(format!(
            "{assignment} takes no game arguments (got '{arg}')"
        ))),
    }
}

/// Plays one session of the game on `console` until the game ends or input runs out.
pub fn play(setup: &Setup, console: &mut dyn Console) {
    match setup {
        Setup::M => m::play(console),
        Setup::SilverDollar(start) => silver_dollar::play(start, console),
        Setup::Connect6 { size } => connect6::play(*size, console),
        Setup::Collect(board) => collect::play(board, console),
        Setup::Nim => nim::play(console),
    }
}

/// The result of running the reference on scripted input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording {
    /// What a terminal would show.
    pub transcript: Transcript,
    /// True when the game asked for more input than the script held.
    pub wanted_more_input: bool,
    /// Scripted lines left unread because the game ended first.
    pub unread_lines: usize,
}

/// Runs the reference game on scripted input lines and records its canonical transcript.
pub fn record<S: AsRef<str>>(setup: &Setup, input: &[S]) -> Recording {
    let mut console = ScriptedConsole::new(input.iter().map(|s| s.as_ref().to_string()));
    play(setup, &mut console);
    Recording {
        wanted_more_input: console.starved(),
        unread_lines: console.unread(),
        transcript: console.into_transcript(),
    }
}
