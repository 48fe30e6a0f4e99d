//! Nim with 21 matches against the computer (CS 135 Assignment 4). Skeleton: filled in by the games work.

use crate::console::Console;

/// Plays Nim (with replays) until the player declines or input ends.
pub fn play(console: &mut dyn Console) {
    let _ = console;
}
