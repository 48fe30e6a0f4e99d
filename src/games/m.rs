//! The Game of M (CS118). Skeleton: filled in by the games work.

use crate::console::Console;

/// Plays one game of M until the board is full or input ends.
pub fn play(console: &mut dyn Console) {
    let _ = console;
}
