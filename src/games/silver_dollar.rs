//! The Silver Dollar Game (CSCI 2101 Lab 1). Skeleton: filled in by the games work.

use super::SetupError;
use crate::console::Console;

/// How the strip is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A random strip drawn from a seed.
    Seeded(u64),
    /// A given strip: each square empty (`None`) or holding a coin.
    Strip(Vec<Option<usize>>),
}

impl Start {
    /// Parses `[--seed N] [--board "_ _ 0 _ 1"]`.
    pub fn from_args(args: &[String]) -> Result<Start, SetupError> {
        match args {
            [] => Ok(Start::Seeded(0)),
            _ => Err(SetupError::Usage(
                "usage: silver_dollar [--seed N] [--board STRIP]".into(),
            )),
        }
    }
}

/// Plays one game of Silver Dollar until it ends or input ends.
pub fn play(start: &Start, console: &mut dyn Console) {
    let _ = (start, console);
}
