//! The reference games' plumbing: faithful, deterministic implementations of the handouts
//! live in their assignments' folders (`assignments/NAME/game.rs`); this module holds what
//! they share and names none of them.
//!
//! Each game is a state machine that talks only to a [`Console`], never to stdin/stdout, so
//! it serves `grade play`, `grade record` and grading alike. A [`Setup`] holds everything a
//! game needs before the first prompt (board file, seed, size), parsed from the game
//! arguments by the assignment's descriptor.

use std::any::Any;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

use crate::console::{Console, ScriptedConsole};
use crate::transcript::Transcript;

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

/// Why a reference game could not play to its end: an instructor's reference program crashed,
/// ran out of a limit, or could not be built or started. A built-in game never fails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReferenceFailure(pub String);

impl fmt::Display for ReferenceFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ReferenceFailure {}

/// How a reference program runs: its arguments, and the files (name, content) placed in its
/// working directory.
pub type ProgramRun<'a> = (&'a [String], &'a [(String, Vec<u8>)]);

/// A reference game ready to play: the state a game needs before its first prompt (board,
/// seed, size), behind one small trait so each assignment keeps its own setup type in its
/// folder and nothing here names an assignment.
pub trait ReferenceGame: fmt::Debug + Send + Sync + Any {
    /// Plays one session on `console` until the game ends or input runs out, or says why
    /// the reference could not.
    fn play(&self, console: &mut dyn Console) -> Result<(), ReferenceFailure>;

    /// Whether `other` is the same game set up the same way (for comparing setups).
    fn same_as(&self, other: &dyn ReferenceGame) -> bool;

    /// For a reference that is a program (an instructor's own): the arguments and files it
    /// runs with, so that a replay gives `grade play` the same. `None` for a built-in game,
    /// whose game arguments say everything.
    fn program_run(&self) -> Option<ProgramRun<'_>> {
        None
    }

    /// The setup as `Any`, so the assignment that made it can look inside.
    fn as_any(&self) -> &dyn Any;
}

/// Implements [`ReferenceGame`] for a setup type by naming the function that plays it.
#[macro_export]
macro_rules! reference_game {
    ($setup:ty, |$this:ident, $console:ident| $play:expr) => {
        impl $crate::games::ReferenceGame for $setup {
            fn play(
                &self,
                $console: &mut dyn $crate::console::Console,
            ) -> Result<(), $crate::games::ReferenceFailure> {
                let $this = self;
                $play;
                Ok(())
            }

            fn same_as(&self, other: &dyn $crate::games::ReferenceGame) -> bool {
                other.as_any().downcast_ref::<$setup>() == Some(self)
            }

            fn as_any(&self) -> &dyn std::any::Any {
                self
            }
        }
    };
}

/// Everything a game needs before its first prompt: one assignment's reference game, set up.
#[derive(Clone, Debug)]
pub struct Setup(Arc<dyn ReferenceGame>);

impl Setup {
    /// Wraps an assignment's own setup.
    pub fn new(game: impl ReferenceGame) -> Setup {
        Setup(Arc::new(game))
    }

    /// For a reference that is a program: the arguments and files it runs with.
    pub fn program_run(&self) -> Option<ProgramRun<'_>> {
        self.0.program_run()
    }

    /// The assignment's own setup, when it is of type `T`.
    pub fn get<T: ReferenceGame>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

impl PartialEq for Setup {
    fn eq(&self, other: &Setup) -> bool {
        self.0.same_as(other.0.as_ref())
    }
}

impl Eq for Setup {}

/// A seed no two plays share: the standard library's per-process random SipHash keys, mixed
/// with the time.
pub fn fresh_seed() -> u64 {
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

/// Checks that a game which takes no arguments got none.
pub fn no_args(name: &str, args: &[String]) -> Result<(), SetupError> {
    match args.first() {
        None => Ok(()),
        Some(arg) => Err(SetupError::Usage(format!(
            "{name} takes no game arguments (got '{arg}')"
        ))),
    }
}

/// Plays one session of the game on `console` until the game ends or input runs out, or says
/// why the reference could not.
pub fn play(setup: &Setup, console: &mut dyn Console) -> Result<(), ReferenceFailure> {
    setup.0.play(console)
}

/// A tiny deterministic generator (splitmix64), so a seed always gives the same game.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform draw from 1 to 6 (rejection sampling, no modulo bias).
    pub fn roll_die(&mut self) -> usize {
        let limit = u64::MAX - u64::MAX % 6;
        loop {
            let x = self.next_u64();
            if x < limit {
                return (x % 6) as usize + 1;
            }
        }
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

/// Runs the reference game on scripted input lines and records its canonical transcript, or
/// says why the reference could not play.
pub fn record<S: AsRef<str>>(setup: &Setup, input: &[S]) -> Result<Recording, ReferenceFailure> {
    let mut console = ScriptedConsole::new(input.iter().map(|s| s.as_ref().to_string()));
    play(setup, &mut console)?;
    Ok(Recording {
        wanted_more_input: console.starved(),
        unread_lines: console.unread(),
        transcript: console.into_transcript(),
    })
}
