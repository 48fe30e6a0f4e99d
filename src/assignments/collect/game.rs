//! The number-board collect game (Programming Assignment 3).
//!
//! The player picks a cell; its connected group of equal digits (4-neighbourhood, at least
//! two cells) disappears, scoring value × count; columns fall, emptied columns close up, and
//! rows that become empty at the top are dropped. See docs/assignments/collect.md.

use std::path::Path;

use crate::console::Console;
use crate::games::SetupError;

/// The prompt for a move.
pub const PROMPT: &str = "Please enter a row and a column number: ";
/// Shown for a blank cell or a cell with no equal neighbour.
pub const NO_MOVEMENT: &str = "No movement happened try again";
/// Shown for coordinates out of range or a line that is not two positive integers.
pub const BAD_SIZE: &str = "Please enter a correct size!";
/// Shown when no cell has an equal neighbour.
pub const GAME_OVER: &str = "Game over";

/// A board of digits; `None` is a blank cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Rows from top to bottom.
    pub rows: Vec<Vec<Option<u8>>>,
}

impl Board {
    /// Reads the board file named by the single game argument (relative to `base_dir`).
    pub fn from_args(args: &[String], base_dir: &Path) -> Result<Board, SetupError> {
        let [file] = args else {
            return Err(SetupError::Usage(
                "usage: collect BOARD_FILE (exactly one argument: the board file)".into(),
            ));
        };
        let path = base_dir.join(file);
        let text = std::fs::read_to_string(&path).map_err(|source| SetupError::Io {
            path: path.clone(),
            source,
        })?;
        Board::parse(&path, &text)
    }

    /// Parses board-file text: rows of single digits separated by whitespace, all rows the
    /// same length; trailing blank lines are allowed. Errors name `path` and the 1-based line.
    pub fn parse(path: &Path, text: &str) -> Result<Board, SetupError> {
        let invalid = |line: usize, problem: String| SetupError::Invalid {
            path: path.to_path_buf(),
            line: Some(line),
            problem,
        };
        let lines: Vec<&str> = text.lines().collect();
        let used = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map_or(0, |last| last + 1);
        if used == 0 {
            return Err(invalid(1, "the board file is empty".into()));
        }
        let mut rows: Vec<Vec<Option<u8>>> = Vec::new();
        for (index, line) in lines.iter().take(used).enumerate() {
            let number = index + 1;
            let mut row = Vec::new();
            for token in line.split_whitespace() {
                match token.as_bytes() {
                    [digit @ b'0'..=b'9'] => row.push(Some(digit - b'0')),
                    _ => {
                        return Err(invalid(
                            number,
                            format!("'{token}' is not a digit from 0 to 9"),
                        ))
                    }
                }
            }
            if row.is_empty() {
                return Err(invalid(number, "blank line inside the board".into()));
            }
            if let Some(first) = rows.first() {
                if first.len() != row.len() {
                    return Err(invalid(
                        number,
                        format!(
                            "this row has {} cells but the first row has {}",
                            row.len(),
                            first.len()
                        ),
                    ));
                }
            }
            rows.push(row);
        }
        Ok(Board { rows })
    }

    /// The number of rows.
    pub fn height(&self) -> usize {
        self.rows.len()
    }

    /// The number of columns.
    pub fn width(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    /// The cell at 0-based `row`, `col`; `None` when blank or outside the board.
    pub fn get(&self, row: usize, col: usize) -> Option<u8> {
        self.rows
            .get(row)
            .and_then(|r| r.get(col))
            .copied()
            .flatten()
    }

    /// The board as printed: a blank cell is a space, cells joined by one space, trailing
    /// spaces trimmed; one line per row, each ending in a newline.
    pub fn render(&self) -> String {
        let mut text = String::new();
        for row in &self.rows {
            let cells: Vec<String> = row
                .iter()
                .map(|cell| cell.map_or(" ".to_string(), |d| d.to_string()))
                .collect();
            text.push_str(cells.join(" ").trim_end());
            text.push('\n');
        }
        text
    }

    /// The 0-based cells of the connected group of equal digits containing `row`, `col`
    /// (4-neighbourhood); empty for a blank cell.
    pub fn group(&self, row: usize, col: usize) -> Vec<(usize, usize)> {
        let Some(value) = self.get(row, col) else {
            return Vec::new();
        };
        let mut seen = vec![vec![false; self.width()]; self.height()];
        let mut stack = vec![(row, col)];
        let mut group = Vec::new();
        while let Some((r, c)) = stack.pop() {
            let Some(slot) = seen.get_mut(r).and_then(|s| s.get_mut(c)) else {
                continue;
            };
            if *slot || self.get(r, c) != Some(value) {
                continue;
            }
            *slot = true;
            group.push((r, c));
            stack.push((r + 1, c));
            stack.push((r, c + 1));
            if let Some(up) = r.checked_sub(1) {
                stack.push((up, c));
            }
            if let Some(left) = c.checked_sub(1) {
                stack.push((r, left));
            }
        }
        group
    }

    /// True when some cell has an equal neighbour, i.e. a move is possible.
    pub fn has_move(&self) -> bool {
        (0..self.height()).any(|r| {
            (0..self.width()).any(|c| {
                self.get(r, c)
                    .is_some_and(|v| self.get(r + 1, c) == Some(v) || self.get(r, c + 1) == Some(v))
            })
        })
    }

    /// Removes the group at 0-based `row`, `col` if it has at least two cells, applies
    /// gravity, closes emptied columns and drops empty top rows; returns the points scored.
    pub fn collect(&mut self, row: usize, col: usize) -> Option<u32> {
        let value = self.get(row, col)?;
        let group = self.group(row, col);
        if group.len() < 2 {
            return None;
        }
        for (r, c) in &group {
            if let Some(cell) = self.rows.get_mut(*r).and_then(|cells| cells.get_mut(*c)) {
                *cell = None;
            }
        }
        self.settle();
        Some(u32::from(value) * group.len() as u32)
    }

    /// Gravity, column removal and dropping of empty top rows.
    fn settle(&mut self) {
        let height = self.height();
        let mut columns: Vec<Vec<u8>> = (0..self.width())
            .map(|c| (0..height).filter_map(|r| self.get(r, c)).collect())
            .filter(|column: &Vec<u8>| !column.is_empty())
            .collect();
        let new_height = columns.iter().map(Vec::len).max().unwrap_or(0);
        let mut rows = vec![vec![None; columns.len()]; new_height];
        for (c, column) in columns.iter_mut().enumerate() {
            let offset = new_height - column.len();
            for (i, value) in column.iter().enumerate() {
                if let Some(cell) = rows.get_mut(offset + i).and_then(|row| row.get_mut(c)) {
                    *cell = Some(*value);
                }
            }
        }
        self.rows = rows;
    }
}

/// What a line typed at the prompt asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A cell inside the board, 0-based.
    Cell(usize, usize),
    /// Anything else: not two integers, below one, or out of range.
    BadSize,
}

/// Reads "row column" (1-based) against the board's current size.
pub fn parse_selection(line: &str, board: &Board) -> Selection {
    let numbers: Vec<Option<usize>> = line.split_whitespace().map(|t| t.parse().ok()).collect();
    match numbers.as_slice() {
        [Some(row), Some(col)]
            if (1..=board.height()).contains(row) && (1..=board.width()).contains(col) =>
        {
            Selection::Cell(row - 1, col - 1)
        }
        _ => Selection::BadSize,
    }
}

fn show(console: &mut dyn Console, board: &Board, score: u32) {
    console.write(&format!("{}\nYour score is: {score}\n\n", board.render()));
}

/// Plays the collect game on `board` until no move is left or input ends.
pub fn play(board: &Board, console: &mut dyn Console) {
    let mut board = board.clone();
    let mut score = 0u32;
    show(console, &board, score);
    loop {
        if !board.has_move() {
            console.write(&format!("{GAME_OVER}\n"));
            return;
        }
        console.write(PROMPT);
        let Some(line) = console.read_line() else {
            return;
        };
        console.write("\n");
        match parse_selection(&line, &board) {
            Selection::BadSize => console.write(&format!("{BAD_SIZE}\n\n")),
            Selection::Cell(row, col) => match board.collect(row, col) {
                Some(points) => {
                    score = score.saturating_add(points);
                    show(console, &board, score);
                }
                None => {
                    console.write(&format!("{NO_MOVEMENT}\n\n"));
                    show(console, &board, score);
                }
            },
        }
    }
}

crate::reference_game!(Board, |board, console| play(board, console));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{record, Setup};

    fn board(text: &str) -> Board {
        Board::parse(Path::new("b.txt"), text).expect("test board")
    }

    const FIGURE_4: &str = "1 0 4 7 6 8\n0 5 4 4 5 5\n2 1 4 4 4 6\n4 1 3 7 4 4";

    #[test]
    fn handout_figure_4() {
        let expected = "\
1 0 4 7 6 8
0 5 4 4 5 5
2 1 4 4 4 6
4 1 3 7 4 4

Your score is: 0

Please enter a row and a column number: 1 3

1 0
0 5       8
2 1   7 6 5
4 1 3 7 5 6

Your score is: 32

Please enter a row and a column number: 1 1

No movement happened try again

1 0
0 5       8
2 1   7 6 5
4 1 3 7 5 6

Your score is: 32

Please enter a row and a column number: 7 1

Please enter a correct size!

Please enter a row and a column number: 3 4

1 0
0 5     8
2 1   6 5
4 1 3 5 6

Your score is: 46

Please enter a row and a column number: 3 2

1
0       8
2 0   6 5
4 5 3 5 6

Your score is: 48

Game over
";
        let setup = Setup::new(board(FIGURE_4));
        let recording = record(&setup, &["1 3", "1 1", "7 1", "3 4", "3 2"]).expect("the reference plays");
        assert_eq!(recording.transcript.terminal_text(), expected);
        assert!(!recording.wanted_more_input);
        assert_eq!(recording.unread_lines, 0);
    }

    #[test]
    fn parse_accepts_trailing_newlines_and_reports_errors_by_line() {
        assert_eq!(board("1 2\n3 4\n\n\n").rows.len(), 2);
        assert_eq!(board("1 2\r\n3 4\r\n").width(), 2);
        let err = |text: &str| match Board::parse(Path::new("in.txt"), text) {
            Err(SetupError::Invalid { line, path, .. }) => {
                assert_eq!(path, Path::new("in.txt"));
                line
            }
            other => panic!("expected Invalid, got {other:?}"),
        };
        assert_eq!(err(""), Some(1));
        assert_eq!(err("\n \n"), Some(1));
        assert_eq!(err("1 2\n3"), Some(2));
        assert_eq!(err("1 2\n3 x\n"), Some(2));
        assert_eq!(err("1 12\n"), Some(1));
        assert_eq!(err("1 2\n\n3 4\n"), Some(2));
    }

    #[test]
    fn from_args_reads_relative_to_base_and_reports_io_errors() {
        let dir = std::env::temp_dir().join(format!("grade-collect-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("input.txt"), "1 1\n2 3").expect("write");
        let b = Board::from_args(&["input.txt".to_string()], &dir).expect("board");
        assert_eq!(b.rows, vec![vec![Some(1), Some(1)], vec![Some(2), Some(3)]]);
        assert!(matches!(
            Board::from_args(&["missing.txt".to_string()], &dir),
            Err(SetupError::Io { .. })
        ));
        assert!(matches!(
            Board::from_args(&[], &dir),
            Err(SetupError::Usage(_))
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn gravity_and_scoring() {
        let mut b = board("1 2\n3 2\n3 4");
        assert_eq!(b.collect(1, 0), Some(6));
        assert_eq!(b.render(), "  2\n  2\n1 4\n");
        assert_eq!(b.collect(0, 1), Some(4));
        assert_eq!(b.render(), "1 4\n");
    }

    #[test]
    fn emptied_column_is_removed_and_right_columns_shift_left() {
        let mut b = board("1 5 2\n3 5 4");
        assert_eq!(b.collect(0, 1), Some(10));
        assert_eq!(b.rows, vec![vec![Some(1), Some(2)], vec![Some(3), Some(4)]]);
    }

    #[test]
    fn empty_top_rows_are_dropped_and_rows_renumbered() {
        let mut b = board("7 7\n1 2\n3 4");
        assert_eq!(b.collect(0, 0), Some(14));
        assert_eq!(b.height(), 2);
        // Row 1 is now "1 2": selecting "2 1" addresses the 3 in the new numbering.
        assert_eq!(parse_selection("2 1", &b), Selection::Cell(1, 0));
        assert_eq!(parse_selection("3 1", &b), Selection::BadSize);
        assert_eq!(b.get(1, 0), Some(3));
    }

    #[test]
    fn blank_or_lonely_cells_do_not_move() {
        let mut b = board("1 2\n3 4\n3 5");
        assert_eq!(b.collect(0, 0), None);
        assert_eq!(b.collect(1, 0), Some(6));
        assert_eq!(b.get(0, 0), None);
        assert_eq!(b.collect(0, 0), None);
    }

    #[test]
    fn bad_selections() {
        let b = board("1 1\n2 2");
        for line in [
            "0 1", "1 0", "3 1", "1 3", "-1 1", "1", "1 1 1", "a b", "", "1,1",
        ] {
            assert_eq!(parse_selection(line, &b), Selection::BadSize, "{line:?}");
        }
        assert_eq!(parse_selection(" 2  2 ", &b), Selection::Cell(1, 1));
    }

    #[test]
    fn game_over_detection_including_at_start() {
        assert!(!board("1 2\n3 4").has_move());
        assert!(board("1 2\n1 4").has_move());
        assert!(board("1 2 2").has_move());
        let text = record(&Setup::new(board("1 2\n3 4")), &["1 1"]).expect("the reference plays")
            .transcript
            .terminal_text();
        assert_eq!(text, "1 2\n3 4\n\nYour score is: 0\n\nGame over\n");
    }

    #[test]
    fn clearing_the_whole_board_ends_the_game() {
        let text = record(&Setup::new(board("5 5")), &["1 2"]).expect("the reference plays")
            .transcript
            .terminal_text();
        assert_eq!(
            text,
            "5 5\n\nYour score is: 0\n\nPlease enter a row and a column number: 1 2\n\n\nYour score is: 10\n\nGame over\n"
        );
    }
}
