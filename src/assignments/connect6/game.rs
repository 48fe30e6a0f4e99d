//! Connect6 on an N×N board.
//!
//! Black places one stone, then White two, Black two, and so on; six or more in a row after
//! any single placement wins at once, a full board without a winner is a draw. Moves are a
//! column letter and a row number ("H14"). See docs/assignments/connect6.md.

use crate::console::Console;
use crate::games::SetupError;

/// The board size the handout fixes (N = 19).
pub const DEFAULT_SIZE: usize = 19;
/// The largest size: columns are the letters A to Z.
pub const MAX_SIZE: usize = 26;
/// The handout's message for any move that cannot be played.
pub const INVALID: &str = "Invalid Enter again!";
/// Stones in a row needed to win.
pub const WIN_LENGTH: usize = 6;

/// Parses `[--size N]` with N from 1 to 26.
pub fn size_from_args(args: &[String]) -> Result<usize, SetupError> {
    let usage = |problem: String| {
        SetupError::Usage(format!(
            "{problem}\nusage: connect6 [--size N]   (N from 1 to {MAX_SIZE}, default {DEFAULT_SIZE})"
        ))
    };
    match args {
        [] => Ok(DEFAULT_SIZE),
        [flag, value] if flag == "--size" => match value.parse::<usize>() {
            Ok(n) if (1..=MAX_SIZE).contains(&n) => Ok(n),
            _ => Err(usage(format!(
                "--size must be a whole number from 1 to {MAX_SIZE}, got '{value}'"
            ))),
        },
        _ => Err(usage("unexpected game arguments".to_string())),
    }
}

/// A stone colour, which is also a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stone {
    /// Moves first, one stone.
    Black,
    /// Moves second, two stones.
    White,
}

impl Stone {
    /// The name used in prompts and results.
    pub fn name(self) -> &'static str {
        match self {
            Stone::Black => "Black",
            Stone::White => "White",
        }
    }

    /// The board letter.
    pub fn symbol(self) -> char {
        match self {
            Stone::Black => 'B',
            Stone::White => 'W',
        }
    }
}

/// Who places the stone with 0-based number `placement`: B, W W, B B, W W, …
pub fn player_for(placement: usize) -> Stone {
    match placement.checked_sub(1) {
        Some(k) if (k / 2) % 2 == 0 => Stone::White,
        Some(_) => Stone::Black,
        None => Stone::Black,
    }
}

/// An N×N board; `cells[row][col]`, row 0 at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// The cells, row by row.
    pub cells: Vec<Vec<Option<Stone>>>,
}

impl Board {
    /// An empty `size`×`size` board.
    pub fn new(size: usize) -> Board {
        Board {
            cells: vec![vec![None; size]; size],
        }
    }

    /// The side length.
    pub fn size(&self) -> usize {
        self.cells.len()
    }

    /// The stone at (`row`, `col`), `None` if empty or outside.
    pub fn get(&self, row: usize, col: usize) -> Option<Stone> {
        self.cells
            .get(row)
            .and_then(|r| r.get(col))
            .copied()
            .flatten()
    }

    /// Reads a move like "H14" (uppercase column letter, then the row number) that names an
    /// empty cell; returns (row, col).
    pub fn parse_move(&self, line: &str) -> Option<(usize, usize)> {
        let text = line.trim();
        let mut chars = text.chars();
        let letter = chars.next()?;
        let digits = chars.as_str();
        if !letter.is_ascii_uppercase() || digits.is_empty() {
            return None;
        }
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let col = usize::from(letter as u8 - b'A');
        let row: usize = digits.parse().ok()?;
        let inside = row < self.size() && col < self.size();
        (inside && self.get(row, col).is_none()).then_some((row, col))
    }

    /// Places a stone (the caller has checked the cell is empty).
    pub fn place(&mut self, row: usize, col: usize, stone: Stone) {
        if let Some(cell) = self.cells.get_mut(row).and_then(|r| r.get_mut(col)) {
            *cell = Some(stone);
        }
    }

    /// True when the stone at (`row`, `col`) is part of six or more in a line.
    pub fn wins_at(&self, row: usize, col: usize) -> bool {
        let Some(stone) = self.get(row, col) else {
            return false;
        };
        let run = |dr: isize, dc: isize| {
            let mut count = 0;
            let (mut r, mut c) = (row, col);
            while let (Some(nr), Some(nc)) = (r.checked_add_signed(dr), c.checked_add_signed(dc)) {
                if self.get(nr, nc) != Some(stone) {
                    break;
                }
                count += 1;
                (r, c) = (nr, nc);
            }
            count
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .into_iter()
            .any(|(dr, dc)| 1 + run(dr, dc) + run(-dr, -dc) >= WIN_LENGTH)
    }

    /// True when no cell is empty.
    pub fn is_full(&self) -> bool {
        self.cells.iter().flatten().all(Option::is_some)
    }

    /// The board as printed: column letters across the top, row numbers right-aligned down
    /// the left, "B", "W" or "." in each cell, separated by single spaces.
    pub fn render(&self) -> String {
        use std::fmt::Write as _;
        let size = self.size();
        let width = size.saturating_sub(1).to_string().len();
        // One string, written in place: the reference draws a board after every move, 361
        // of them in a full game.
        let mut text = String::with_capacity((size + 1) * (width + 2 * size + 2));
        text.extend(std::iter::repeat_n(' ', width + 1));
        for (index, letter) in (b'A'..).take(size).enumerate() {
            if index > 0 {
                text.push(' ');
            }
            text.push(char::from(letter));
        }
        text.push('\n');
        for (number, row) in self.cells.iter().enumerate() {
            let _ = write!(text, "{number:>width$}");
            for cell in row {
                text.push(' ');
                text.push(cell.map_or('.', Stone::symbol));
            }
            text.push('\n');
        }
        text
    }
}

/// Plays one game of Connect6 on a `size`×`size` board until it ends or input ends.
pub fn play(size: usize, console: &mut dyn Console) {
    let mut board = Board::new(size);
    let mut placement = 0usize;
    loop {
        let stone = player_for(placement);
        console.write(&board.render());
        let (row, col) = loop {
            console.write(&format!("{}, enter your move: ", stone.name()));
            let Some(line) = console.read_line() else {
                return;
            };
            match board.parse_move(&line) {
                Some(cell) => break cell,
                None => console.write(&format!("{INVALID}\n")),
            }
        };
        board.place(row, col, stone);
        placement += 1;
        if board.wins_at(row, col) {
            console.write(&format!("{}{} wins!\n", board.render(), stone.name()));
            return;
        }
        if board.is_full() {
            console.write(&format!("{}Draw game!\n", board.render()));
            return;
        }
    }
}

/// Connect6's setup: the side of its square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSize(pub usize);

crate::reference_game!(BoardSize, |size, console| play(size.0, console));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{record, Setup};

    fn run(size: usize, input: &[&str]) -> String {
        record(&Setup::new(BoardSize(size)), input).expect("the reference plays")
            .transcript
            .terminal_text()
    }

    #[test]
    fn turn_order_is_b_ww_bb_ww() {
        let order: String = (0..9).map(|k| player_for(k).symbol()).collect();
        assert_eq!(order, "BWWBBWWBB");
    }

    #[test]
    fn handout_invalid_examples_h14_occupied_h300_b4() {
        let text = run(19, &["H14", "H14", "H300", "b4", "A0"]);
        let empty = Board::new(19);
        let mut after = Board::new(19);
        after.place(14, 7, Stone::Black);
        let expected = format!(
            "{}Black, enter your move: H14\n{}White, enter your move: H14\n\
             Invalid Enter again!\nWhite, enter your move: H300\n\
             Invalid Enter again!\nWhite, enter your move: b4\n\
             Invalid Enter again!\nWhite, enter your move: A0\n",
            empty.render(),
            after.render()
        );
        assert!(text.starts_with(&expected), "{text}");
        assert!(after
            .render()
            .contains("\n14 . . . . . . . B . . . . . . . . . . .\n"));
        assert!(after
            .render()
            .starts_with("   A B C D E F G H I J K L M N O P Q R S\n 0 . ."));
    }

    #[test]
    fn small_board_rendering() {
        let mut b = Board::new(3);
        b.place(1, 2, Stone::White);
        assert_eq!(b.render(), "  A B C\n0 . . .\n1 . . W\n2 . . .\n");
        // Two-digit row numbers are right-aligned under a header as wide.
        let mut b = Board::new(11);
        b.place(10, 0, Stone::Black);
        let text = b.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   A B C D E F G H I J K");
        assert_eq!(lines[1], " 0 . . . . . . . . . . .");
        assert_eq!(lines[11], "10 B . . . . . . . . . .");
        assert_eq!(lines.len(), 12);
        assert!(text.ends_with(".\n"));
    }

    #[test]
    fn move_parsing() {
        let b = Board::new(19);
        assert_eq!(b.parse_move("A0"), Some((0, 0)));
        assert_eq!(b.parse_move(" S18 "), Some((18, 18)));
        for bad in [
            "T0",
            "A19",
            "a1",
            "1A",
            "A",
            "",
            "A-1",
            "A 1",
            "AA1",
            "A1x",
            "Ä1",
            "A99999999999999999999999",
        ] {
            assert_eq!(b.parse_move(bad), None, "{bad:?}");
        }
    }

    fn assert_win(moves: &[(usize, usize, Stone)], last: (usize, usize)) {
        let mut b = Board::new(10);
        for &(r, c, s) in moves {
            b.place(r, c, s);
        }
        assert!(b.wins_at(last.0, last.1));
    }

    #[test]
    fn wins_in_all_four_directions() {
        let line = |f: &dyn Fn(usize) -> (usize, usize)| -> Vec<(usize, usize, Stone)> {
            (0..6)
                .map(|i| {
                    let (r, c) = f(i);
                    (r, c, Stone::White)
                })
                .collect()
        };
        assert_win(&line(&|i| (2, i + 1)), (2, 3));
        assert_win(&line(&|i| (i + 2, 4)), (7, 4));
        assert_win(&line(&|i| (i, i + 2)), (0, 2));
        assert_win(&line(&|i| (i + 1, 8 - i)), (3, 6));
        let mut b = Board::new(10);
        for i in 0..5 {
            b.place(0, i, Stone::Black);
        }
        b.place(0, 5, Stone::White);
        assert!(!b.wins_at(0, 4), "five is not enough");
    }

    #[test]
    fn seven_in_a_row_wins() {
        let mut b = Board::new(10);
        for c in [0, 1, 2, 4, 5, 6] {
            b.place(3, c, Stone::Black);
        }
        assert!(!b.wins_at(3, 0));
        b.place(3, 3, Stone::Black);
        assert!(b.wins_at(3, 3));
    }

    #[test]
    fn win_on_first_stone_of_a_pair_ends_at_once() {
        // Black: A0; White B0 B1; Black A1 A2; White B2 B3; Black A3 A4; White B4 B5 (5 W);
        // Black A5 — sixth black in column A on the first stone of the pair.
        let input = [
            "A0", "B0", "B1", "A1", "A2", "B2", "B3", "A3", "A4", "B4", "C5", "A5", "A6",
        ];
        let recording = record(&Setup::new(BoardSize(8)), &input).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        assert!(text.ends_with("Black, enter your move: A5\n  A B C D E F G H\n0 B W . . . . . .\n1 B W . . . . . .\n2 B W . . . . . .\n3 B W . . . . . .\n4 B W . . . . . .\n5 B . W . . . . .\n6 . . . . . . . .\n7 . . . . . . . .\nBlack wins!\n"), "{text}");
        assert_eq!(recording.unread_lines, 1);
    }

    #[test]
    fn white_wins_on_second_stone() {
        let input = [
            "J9", "A0", "A1", "J8", "J7", "A2", "A3", "J6", "J5", "A4", "A5",
        ];
        let text = run(10, &input);
        assert!(text.ends_with("White wins!\n"));
    }

    fn all_cells(size: usize) -> Vec<String> {
        (0..size)
            .flat_map(|r| (0..size).map(move |c| format!("{}{r}", char::from(b'A' + c as u8))))
            .collect()
    }

    #[test]
    fn full_small_board_is_a_draw() {
        let recording = record(&Setup::new(BoardSize(3)), &all_cells(3)).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        assert!(
            text.ends_with("  A B C\n0 B W W\n1 B B W\n2 W B B\nDraw game!\n"),
            "{text}"
        );
        assert!(!recording.wanted_more_input);
        assert_eq!(
            run(1, &["A0"]),
            "  A\n0 .\nBlack, enter your move: A0\n  A\n0 B\nDraw game!\n"
        );
    }

    /// Orders the cells of a 19×19 pattern with no six in a row so that the turn order
    /// B, W W, B B, … fills it exactly.
    fn draw_moves(size: usize) -> Vec<String> {
        // (c + 2r) mod 4 < 2 gives runs of at most two in every direction.
        let mut colour: Vec<Vec<Stone>> = (0..size)
            .map(|r| {
                (0..size)
                    .map(|c| {
                        if (c + 2 * r) % 4 < 2 {
                            Stone::Black
                        } else {
                            Stone::White
                        }
                    })
                    .collect()
            })
            .collect();
        let total = size * size;
        let blacks_needed = (0..total)
            .filter(|&k| player_for(k) == Stone::Black)
            .count();
        let mut blacks = colour
            .iter()
            .flatten()
            .filter(|&&s| s == Stone::Black)
            .count();
        // Adjust the count by flipping cells, keeping runs below six.
        'fix: while blacks != blacks_needed {
            let (from, to) = if blacks > blacks_needed {
                (Stone::Black, Stone::White)
            } else {
                (Stone::White, Stone::Black)
            };
            for r in 0..size {
                for c in 0..size {
                    if colour[r][c] != from {
                        continue;
                    }
                    colour[r][c] = to;
                    let mut b = Board::new(size);
                    for (rr, row) in colour.iter().enumerate() {
                        for (cc, &s) in row.iter().enumerate() {
                            b.place(rr, cc, s);
                        }
                    }
                    if !b.wins_at(r, c) {
                        blacks = if to == Stone::Black {
                            blacks + 1
                        } else {
                            blacks - 1
                        };
                        continue 'fix;
                    }
                    colour[r][c] = from;
                }
            }
            panic!("cannot balance the pattern");
        }
        let mut black_cells = Vec::new();
        let mut white_cells = Vec::new();
        for (r, row) in colour.iter().enumerate() {
            for (c, &s) in row.iter().enumerate() {
                let name = format!("{}{r}", char::from(b'A' + c as u8));
                match s {
                    Stone::Black => black_cells.push(name),
                    Stone::White => white_cells.push(name),
                }
            }
        }
        black_cells.reverse();
        white_cells.reverse();
        (0..total)
            .filter_map(|k| match player_for(k) {
                Stone::Black => black_cells.pop(),
                Stone::White => white_cells.pop(),
            })
            .collect()
    }

    #[test]
    fn full_19_by_19_board_is_a_draw() {
        let moves = draw_moves(19);
        assert_eq!(moves.len(), 361);
        let recording = record(&Setup::new(BoardSize(19)), &moves).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        assert!(text.ends_with("Draw game!\n"));
        assert!(!text.contains(INVALID));
        assert!(!recording.wanted_more_input);
        assert_eq!(recording.unread_lines, 0);
    }

    #[test]
    fn size_arguments() {
        let args =
            |a: &[&str]| size_from_args(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(args(&[]).ok(), Some(19));
        assert_eq!(args(&["--size", "7"]).ok(), Some(7));
        assert_eq!(args(&["--size", "26"]).ok(), Some(26));
        for bad in [
            &["--size", "0"][..],
            &["--size", "27"],
            &["--size"],
            &["--size", "x"],
            &["7"],
        ] {
            assert!(matches!(args(bad), Err(SetupError::Usage(_))), "{bad:?}");
        }
    }
}
