//! The number-board collect game (Programming Assignment 3). Skeleton: filled in by the games work.

use std::path::Path;

use super::SetupError;
use crate::console::Console;

/// A board of digits; `None` is a blank cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Rows from top to bottom.
    pub rows: Vec<Vec<Option<u8>>>,
}

impl Board {
    /// Reads the board file named by the single game argument.
    pub fn from_args(args: &[String], base_dir: &Path) -> Result<Board, SetupError> {
        let _ = (args, base_dir);
        Err(SetupError::Usage("usage: collect BOARD_FILE".into()))
    }
}

/// Plays the collect game on `board` until no move is left or input ends.
pub fn play(board: &Board, console: &mut dyn Console) {
    let _ = (board, console);
}
