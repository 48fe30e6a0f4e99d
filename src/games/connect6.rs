//! Connect6 on an N×N board. Skeleton: filled in by the games work.

use super::SetupError;
use crate::console::Console;

/// The board size the handout fixes (N = 19).
pub const DEFAULT_SIZE: usize = 19;

/// Parses `[--size N]`.
pub fn size_from_args(args: &[String]) -> Result<usize, SetupError> {
    match args {
        [] => Ok(DEFAULT_SIZE),
        _ => Err(SetupError::Usage("usage: connect6 [--size N]".into())),
    }
}

/// Plays one game of Connect6 on a `size`×`size` board until it ends or input ends.
pub fn play(size: usize, console: &mut dyn Console) {
    let _ = (size, console);
}
