//! Connect6's random games and rule table: the generator `grade explore` and the
//! random-games case play, and the rules of the reference a game exercised.

use crate::assignments::connect6::game::{self as connect6, Board as Connect6Board};
use crate::drive::generate::{Game, Rng, ILLEGAL_PERCENT, MAX_LINES};
use crate::games::Setup;

/// Connect6's rule table (docs/explore.md).
pub const RULES: &[&str] = &[
    "black wins",
    "white wins",
    "draw (full board)",
    "win horizontal",
    "win vertical",
    "win diagonal down-right",
    "win diagonal up-right",
    "win with seven or more",
    "six on the top edge",
    "six on the bottom edge",
    "six on the left edge",
    "six on the right edge",
    "six in a corner",
    "invalid: occupied",
    "invalid: lowercase column",
    "invalid: row past the board",
    "invalid: column past the board",
    "invalid: negative row",
    "invalid: row past 32 or 64 bits",
    "invalid: not a column letter",
];

/// A connect6 move as typed: column letter, then row.
fn connect6_move(row: usize, col: usize) -> String {
    format!("{}{row}", char::from(b'A' + col as u8))
}

/// An invalid connect6 input the handout fixes ("Invalid Enter again!"): an occupied cell,
/// a lowercase column, one row or column past the board, the handout's "H300", a character
/// before "A", a negative row, rows past 32 and 64 bits.
fn connect6_invalid(rng: &mut Rng, size: usize, placed: &[(usize, usize)]) -> String {
    let letter = |col: usize| char::from(b'A' + col as u8);
    let col = rng.below(size as u64) as usize;
    let row = rng.below(size as u64) as usize;
    match rng.below(9) {
        0 | 1 if !placed.is_empty() => {
            let (r, c) = placed[rng.below(placed.len() as u64) as usize];
            connect6_move(r, c)
        }
        2 => format!("{}{row}", letter(col).to_ascii_lowercase()),
        3 => format!("{}{size}", letter(col)),
        4 => format!("{}{row}", letter(size)),
        5 => "H300".to_string(),
        6 => format!("@{row}"),
        7 => format!("{}-{}", letter(col), 1 + rng.below(3)),
        _ => format!(
            "{}{}",
            letter(col),
            rng.pick(&["4294967296", "4294967297", "18446744073709551616"])
                .unwrap_or(&"4294967296")
        ),
    }
}

/// The six cells of a line that touches the board's edge: a row or column at an edge, or a
/// diagonal from an edge or corner.
fn edge_line(rng: &mut Rng, size: usize, length: usize) -> Vec<(usize, usize)> {
    let last = size - 1;
    let span = (size - length + 1) as u64;
    // A third of the lines start or end in a corner.
    let along = if rng.chance(33) {
        if rng.chance(50) {
            0
        } else {
            span as usize - 1
        }
    } else {
        rng.below(span) as usize
    };
    let far = rng.chance(50);
    let edge = if far { last } else { 0 };
    let (start, step): ((usize, usize), (isize, isize)) = match rng.below(6) {
        0 => ((edge, along), (0, 1)),      // a row at the top or bottom edge
        1 => ((along, edge), (1, 0)),      // a column at the left or right edge
        2 => ((0, along), (1, 1)),         // down-right from the top edge
        3 => ((along, 0), (1, 1)),         // down-right from the left edge
        4 => ((0, last - along), (1, -1)), // down-left from the top edge
        _ => ((last - along, 0), (-1, 1)), // up-right from the left edge (to the top)
    };
    (0..length)
        .filter_map(|k| {
            let r = start.0.checked_add_signed(step.0 * k as isize)?;
            let c = start.1.checked_add_signed(step.1 * k as isize)?;
            (r < size && c < size).then_some((r, c))
        })
        .collect()
}

/// A full 19×19 board with no six in a row: the colour of (r, c) is whether (c + 2r + k) mod 4
/// is below 2, which gives runs of at most two along rows and diagonals and alternates down
/// columns; `k` is chosen so that Black has exactly the stones the turn order gives it.
fn draw_cells(rng: &mut Rng, size: usize) -> Option<(Cells, Cells)> {
    let total = size * size;
    let black_needed = (0..total)
        .filter(|&i| connect6::player_for(i) == connect6::Stone::Black)
        .count();
    let offset = rng.below(4) as usize;
    for k in (0..4).map(|j| (j + offset) % 4) {
        for invert in [false, true] {
            let black = |r: usize, c: usize| ((c + 2 * r + k) % 4 < 2) != invert;
            let mut blacks = Vec::new();
            let mut whites = Vec::new();
            for r in 0..size {
                for c in 0..size {
                    if black(r, c) {
                        blacks.push((r, c));
                    } else {
                        whites.push((r, c));
                    }
                }
            }
            if blacks.len() == black_needed {
                shuffle(rng, &mut blacks);
                shuffle(rng, &mut whites);
                return Some((blacks, whites));
            }
        }
    }
    None
}

/// Board cells as (row, column).
type Cells = Vec<(usize, usize)>;

fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

/// Connect6 on the handout's 19×19 board: "region" games play in a random 7×7 region (so
/// lines of six form), "edge-region" in one at an edge or corner, "edge-line" let one player
/// build a six along an edge or a diagonal from one while the other plays elsewhere, and
/// "draw" fills the whole board with no six (the draw).
pub fn generate(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let size = connect6::DEFAULT_SIZE;
    let mut board = Connect6Board::new(size);
    let mut lines = Vec::new();
    let mut placed: Vec<(usize, usize)> = Vec::new();
    let span = size as u64 - 6;
    let (top, left) = match mode {
        "edge-region" => {
            let along = rng.below(span) as usize;
            let edge = if rng.chance(50) { 0 } else { size - 7 };
            if rng.chance(50) {
                (edge, along)
            } else {
                (along, edge)
            }
        }
        _ => (rng.below(span) as usize, rng.below(span) as usize),
    };
    // The planned stones of each colour, in order, for "edge-line" and "draw".
    let (mut black_plan, mut white_plan) = match mode {
        "draw" => draw_cells(rng, size).unwrap_or_default(),
        "edge-line" => {
            // A third of the lines are seven long, their middle stone placed last: seven in
            // a row wins too.
            let length = if rng.chance(33) { 7 } else { 6 };
            let mut line = edge_line(rng, size, length);
            if line.len() == 7 {
                let middle = line.remove(3);
                line.push(middle);
            }
            if rng.chance(50) {
                (line, Vec::new())
            } else {
                (Vec::new(), line)
            }
        }
        _ => (Vec::new(), Vec::new()),
    };
    black_plan.reverse();
    white_plan.reverse();
    let illegal_percent = if mode == "draw" { 4 } else { ILLEGAL_PERCENT };
    while lines.len() < MAX_LINES {
        if rng.chance(illegal_percent) {
            lines.push(connect6_invalid(rng, size, &placed));
            continue;
        }
        let stone = connect6::player_for(placed.len());
        let plan = match stone {
            connect6::Stone::Black => &mut black_plan,
            connect6::Stone::White => &mut white_plan,
        };
        let planned = loop {
            match plan.pop() {
                Some((r, c)) if board.get(r, c).is_none() => break Some((r, c)),
                Some(_) => continue,
                None => break None,
            }
        };
        let cell = match planned {
            Some(cell) => Some(cell),
            None if mode == "draw" => None,
            None => {
                let region: Vec<(usize, usize)> = if mode == "edge-line" {
                    // the other player: anywhere not on the planned line
                    let reserved: Vec<(usize, usize)> = black_plan
                        .iter()
                        .chain(white_plan.iter())
                        .copied()
                        .collect();
                    (0..size)
                        .flat_map(|r| (0..size).map(move |c| (r, c)))
                        .filter(|&(r, c)| board.get(r, c).is_none() && !reserved.contains(&(r, c)))
                        .collect()
                } else {
                    (top..top + 7)
                        .flat_map(|r| (left..left + 7).map(move |c| (r, c)))
                        .filter(|&(r, c)| board.get(r, c).is_none())
                        .collect()
                };
                rng.pick(&region).copied()
            }
        };
        let Some((r, c)) = cell else {
            break;
        };
        board.place(r, c, stone);
        placed.push((r, c));
        lines.push(connect6_move(r, c));
        if board.wins_at(r, c) || board.is_full() {
            break;
        }
    }
    Some(Game {
        setup: Setup::new(connect6::BoardSize(size)),
        board_file: None,
        lines,
        free_messages: false,
        driver: None,
        mode,
    })
}

/// Connect6's rules a game exercised.
pub fn rules_hit(game: &Game) -> Vec<&'static str> {
    connect6_rules(&game.lines)
}

fn connect6_rules(lines: &[String]) -> Vec<&'static str> {
    let mut hit = Vec::new();
    let size = connect6::DEFAULT_SIZE;
    let mut board = Connect6Board::new(size);
    let mut placed = 0;
    for line in lines {
        let Some((row, col)) = board.parse_move(line) else {
            let text = line.trim();
            let mut chars = text.chars();
            let letter = chars.next().unwrap_or(' ');
            let rest = chars.as_str();
            hit.push(if letter.is_ascii_lowercase() {
                "invalid: lowercase column"
            } else if !letter.is_ascii_uppercase() {
                "invalid: not a column letter"
            } else if rest.starts_with('-') {
                "invalid: negative row"
            } else if rest.len() > 9 {
                "invalid: row past 32 or 64 bits"
            } else if usize::from(letter as u8 - b'A') >= size {
                "invalid: column past the board"
            } else if rest.parse::<usize>().is_ok_and(|r| r >= size) {
                "invalid: row past the board"
            } else {
                "invalid: occupied"
            });
            continue;
        };
        let stone = connect6::player_for(placed);
        board.place(row, col, stone);
        placed += 1;
        if board.wins_at(row, col) {
            hit.push(match stone {
                connect6::Stone::Black => "black wins",
                connect6::Stone::White => "white wins",
            });
            hit.extend(win_shape(&board, row, col));
            return hit;
        }
        if board.is_full() {
            hit.push("draw (full board)");
        }
    }
    hit
}

/// The direction of the six through (`row`, `col`) and the edges it touches.
fn win_shape(board: &Connect6Board, row: usize, col: usize) -> Vec<&'static str> {
    let stone = board.get(row, col);
    let last = board.size() - 1;
    let mut hit = Vec::new();
    for ((dr, dc), name) in [
        ((0, 1), "win horizontal"),
        ((1, 0), "win vertical"),
        ((1, 1), "win diagonal down-right"),
        ((-1, 1), "win diagonal up-right"),
    ] {
        let mut cells = vec![(row, col)];
        for sign in [1isize, -1] {
            let (mut r, mut c) = (row, col);
            while let (Some(nr), Some(nc)) = (
                r.checked_add_signed(dr * sign),
                c.checked_add_signed(dc * sign),
            ) {
                if nr > last || nc > last || board.get(nr, nc) != stone {
                    break;
                }
                cells.push((nr, nc));
                (r, c) = (nr, nc);
            }
        }
        if cells.len() < connect6::WIN_LENGTH {
            continue;
        }
        hit.push(name);
        if cells.len() > connect6::WIN_LENGTH {
            hit.push("win with seven or more");
        }
        let top = cells.iter().any(|&(r, _)| r == 0);
        let bottom = cells.iter().any(|&(r, _)| r == last);
        let left = cells.iter().any(|&(_, c)| c == 0);
        let right = cells.iter().any(|&(_, c)| c == last);
        for (touches, edge) in [
            (top, "six on the top edge"),
            (bottom, "six on the bottom edge"),
            (left, "six on the left edge"),
            (right, "six on the right edge"),
        ] {
            if touches {
                hit.push(edge);
            }
        }
        let corner = cells
            .iter()
            .any(|&(r, c)| (r == 0 || r == last) && (c == 0 || c == last));
        if corner {
            hit.push("six in a corner");
        }
    }
    hit
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_full_board_draw_is_reached() {
        let game = super::super::ASSIGNMENT.random_game_in_mode(3, "draw")
            .expect("a game");
        assert!(
            crate::explore::coverage::rules_hit(super::super::ASSIGNMENT, &game)
                .contains(&"draw (full board)"),
            "{:?}",
            game.lines.len()
        );
    }

    #[test]
    fn steering_reaches_every_rule_within_a_modest_budget() {
        for seed in [1, 2, 3] {
            let missed = crate::explore::coverage::tests::missed(super::super::ASSIGNMENT, seed, 20);
            assert!(missed.is_empty(), "seed {seed}: {missed:?}");
        }
    }
}
