//! Random games for exploration: a generator per assignment that knows the game's state and
//! types mostly legal moves, with a controlled share of illegal and edge inputs whose handling
//! the handout fixes.
//!
//! A generator plays against the reference alone: it mirrors the reference's state with the
//! games' own rules (or reads it from the reference's screen), so a generated game is a fixed
//! list of lines that can be replayed on a student's program and shrunk.

use crate::assignments::collect::game::{self as collect, Board as CollectBoard, Selection};
use crate::assignments::connect6::game::{self as connect6, Board as Connect6Board};
use crate::assignments::m::game::GameOfM;
use crate::assignments::nim::game as nim;
use crate::assignments::{Assignment, Explore};
use crate::games::{self, Setup, SplitMix64};

/// One generated game: the reference's setup and the lines typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// How the reference starts (collect: the board generated for this game).
    pub setup: Setup,
    /// The board file's text for collect (the student gets the same file), else `None`.
    pub board_file: Option<String>,
    /// The lines typed, in order.
    pub lines: Vec<String>,
    /// The game types input whose message the handout leaves open (a number past what a
    /// machine integer holds, a negative coordinate where only "out of bounds" has a fixed
    /// message): only what the handout fixes is compared — the move refused, the state
    /// unchanged, some message in place — not the fixed wording of a message.
    pub free_messages: bool,
    /// What kind of game this is, for coverage and steering (e.g. "edge", "draw").
    pub mode: &'static str,
}

/// Out of 100 moves, how many are illegal or edge inputs.
const ILLEGAL_PERCENT: u64 = 15;

/// Lines at most per game, so every game ends (a connect6 draw fills 361 cells).
pub const MAX_LINES: usize = 480;

/// Numbers past what a 32-bit or 64-bit integer holds, chosen so that a program that wraps
/// around reads a small, legal-looking value (2^32 + 2 reads as 2, 2^64 + 1 as 1, −(2^32 − 1)
/// as 1).
pub const HUGE: [&str; 5] = [
    "4294967298",
    "4294967297",
    "-4294967295",
    "18446744073709551617",
    "99999999999999999999999",
];

/// The random source of a generator: one per game, seeded from the game's number.
pub struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.0.next_u64() % n
        }
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len() as u64) as usize)
    }
}

/// The modes of an assignment's games, in the order game `i` of a budget cycles through them
/// (so a budget of a few games already has one of each).
pub fn modes(assignment: Assignment) -> &'static [&'static str] {
    match assignment.def().explore {
        Explore::Generator(generator) => generator.modes,
        Explore::Unavailable(_) => &[],
    }
}

/// Generates game `seed` of `assignment` (Silver Dollar is driven from the program's own
/// strip instead, so it has no generator here), in a mode drawn from the seed.
pub fn game(assignment: Assignment, seed: u64) -> Option<Game> {
    let all = modes(assignment);
    let mode = *all.get((SplitMix64::new(seed).next_u64() % all.len().max(1) as u64) as usize)?;
    game_in_mode(assignment, seed, mode)
}

/// Generates game `seed` of `assignment` in `mode` (one of [`modes`]).
pub fn game_in_mode(assignment: Assignment, seed: u64, mode: &'static str) -> Option<Game> {
    let Explore::Generator(generator) = assignment.def().explore else {
        return None;
    };
    let mut rng = Rng(SplitMix64::new(seed ^ 0x5eed_0000_0000_0000));
    if let Some(external) = crate::assignments::external::find(assignment) {
        // An instructor's own assignment: lines drawn from its assignment.yaml's vocabulary.
        return external.random_game(&mut |n| rng.below(n));
    }
    (generator.generate)(&mut rng, mode)
}

/// The reference's output after the last line typed, and whether it wants more input.
fn screen(setup: &Setup, lines: &[String]) -> (String, bool) {
    let recording = games::record(setup, lines);
    let text = recording.transcript.terminal_text();
    let last = lines.last().map_or(0, |l| {
        text.rfind(&format!("{l}\n")).map_or(0, |i| i + l.len() + 1)
    });
    (text[last..].to_string(), recording.wanted_more_input)
}

/// Nim: answers to the first question (with the odd wrong one), legal moves, below and above
/// the range, single non-numeric characters, and in "huge" games numbers past 32 and 64 bits
/// (refused; whether a program calls them too large or not a number is its own choice).
/// "long" games replay up to five rounds.
pub fn nim_game(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let setup = Setup::new(nim::NewGame);
    let mut lines: Vec<String> = Vec::new();
    let mut rounds = 0;
    let (replays, replay_percent) = if mode == "long" { (5, 90) } else { (3, 40) };
    while lines.len() < MAX_LINES {
        let (screen, wants) = screen(&setup, &lines);
        if !wants {
            break;
        }
        let yes_no_error = rng.chance(8);
        let line = if screen.ends_with(nim::PLAY_AGAIN) || screen.ends_with(nim::GO_FIRST) {
            let again = screen.ends_with(nim::PLAY_AGAIN);
            if yes_no_error {
                rng.pick(&["x", "2", "0"]).unwrap_or(&"x").to_string()
            } else if again {
                rounds += 1;
                let more = rounds < replays && rng.chance(replay_percent);
                let answers: &[&str] = if more { &["y", "Y"] } else { &["n", "N"] };
                rng.pick(answers).unwrap_or(&"n").to_string()
            } else {
                rng.pick(&["y", "n", "Y", "N"]).unwrap_or(&"y").to_string()
            }
        } else {
            let left = screen
                .lines()
                .rfind(|l| l.contains("Matches:"))
                .map_or(21, |l| l.matches('|').count() as u64);
            if rng.chance(ILLEGAL_PERCENT) {
                if mode == "huge" && rng.chance(60) {
                    rng.pick(&HUGE).unwrap_or(&HUGE[0]).to_string()
                } else {
                    rng.pick(&["0", "-1", "-3", "4", "5", "10", "21", "x", "q"])
                        .unwrap_or(&"0")
                        .to_string()
                }
            } else {
                // Half the time the winning move when there is one (leave 4k + 1), so the
                // player's win is reached too; else a random legal one.
                let winning = (left + 3) % 4;
                if (1..=3).contains(&winning) && rng.chance(50) {
                    winning.to_string()
                } else {
                    (1 + rng.below(left.clamp(1, 3))).to_string()
                }
            }
        };
        lines.push(line);
    }
    Some(Game {
        setup,
        board_file: None,
        lines,
        free_messages: mode == "huge",
        mode,
    })
}

/// The Game of M: unused numbers in empty positions; "edges" games favour the first and last
/// number and position; errors: used numbers, occupied positions, one past each end of both
/// ranges, and in "huge" games numbers past 32 and 64 bits (any message: the handout's
/// wording is free).
pub fn m_game(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let mut game = GameOfM::new();
    let mut lines = Vec::new();
    let mut player = 0;
    while !game.is_full() && lines.len() < MAX_LINES {
        let (number, position) = if rng.chance(ILLEGAL_PERCENT) {
            // a used number, an occupied position, or one out of range
            let n = rng.below(12) as i64 - 1;
            let p = rng.below(12) as i64;
            match (mode, rng.below(3)) {
                ("huge", 0) => (
                    rng.pick(&HUGE).unwrap_or(&HUGE[0]).to_string(),
                    p.to_string(),
                ),
                ("huge", 1) => (
                    n.to_string(),
                    rng.pick(&HUGE).unwrap_or(&HUGE[0]).to_string(),
                ),
                _ => (n.to_string(), p.to_string()),
            }
        } else {
            let free: Vec<usize> = (0..crate::assignments::m::game::SLOTS)
                .filter(|&i| {
                    game.problems("0", &(i + 1).to_string())
                        .iter()
                        .all(|p| *p != crate::assignments::m::game::ERR_OCCUPIED)
                })
                .collect();
            let unused: Vec<u8> = (0..=9u8)
                .filter(|n| {
                    game.problems(&n.to_string(), "1")
                        .iter()
                        .all(|p| *p != crate::assignments::m::game::ERR_USED)
                })
                .collect();
            let mut n = rng.pick(&unused).copied().unwrap_or(0);
            let mut p = rng.pick(&free).copied().unwrap_or(0) + 1;
            if mode == "plain" && rng.chance(50) {
                // the best-scoring choice, so scores of two digits are reached
                let best = unused
                    .iter()
                    .flat_map(|&n| free.iter().map(move |&i| (n, i)))
                    .max_by_key(|&(n, i)| game.points(n, i));
                if let Some((best_n, best_i)) = best {
                    n = best_n;
                    p = best_i + 1;
                }
            }
            if mode == "edges" && rng.chance(60) {
                // the smallest or largest number and position still free
                let ends = |items: &[u8], rng: &mut Rng| {
                    if rng.chance(50) {
                        items.first().copied()
                    } else {
                        items.last().copied()
                    }
                };
                n = ends(&unused, rng).unwrap_or(n);
                let positions: Vec<u8> = free.iter().map(|&i| i as u8 + 1).collect();
                p = ends(&positions, rng).map_or(p, usize::from);
            }
            (n.to_string(), p.to_string())
        };
        if game.problems(&number, &position).is_empty() {
            if let (Ok(n), Ok(p)) = (number.parse::<u8>(), position.parse::<usize>()) {
                game.insert(player, n, p - 1);
                player = 1 - player;
            }
        }
        lines.push(number);
        lines.push(position);
    }
    Some(Game {
        setup: Setup::new(crate::assignments::m::game::NewGame),
        board_file: None,
        lines,
        free_messages: false,
        mode,
    })
}

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
pub fn connect6_game(rng: &mut Rng, mode: &'static str) -> Option<Game> {
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
        mode,
    })
}

/// The collect game on a random board the program reads from its file: "plain" boards of a
/// few digits, "big" boards of one or two digits (groups of ten and more, scores of several
/// digits, up to the handout's 7×11), and the digits 0 and 9 at either end of the range.
/// Errors: row or column 0 and one past the edge, a number with no equal neighbour, and in
/// "bounds"/"huge" games negative coordinates and numbers past 32 and 64 bits (only "out of
/// bounds" has a fixed message, so there any informative message counts).
pub fn collect_game(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let (height, width, values): (usize, usize, Vec<u64>) = match mode {
        "big" => {
            let a = rng.below(10);
            let b = rng.below(10);
            (
                4 + rng.below(4) as usize,
                6 + rng.below(6) as usize,
                if rng.chance(30) { vec![a] } else { vec![a, b] },
            )
        }
        _ => {
            let count = 1 + rng.below(4) as usize;
            let mut digits: Vec<u64> = (0..count).map(|_| rng.below(10)).collect();
            if rng.chance(30) {
                digits[0] = if rng.chance(50) { 0 } else { 9 };
            }
            (1 + rng.below(6) as usize, 1 + rng.below(8) as usize, digits)
        }
    };
    let rows: Vec<String> = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| rng.pick(&values).copied().unwrap_or(1).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = rows.join("\n");
    let start = CollectBoard::parse(std::path::Path::new("input.txt"), &text).ok()?;
    let mut board = start.clone();
    let mut lines = Vec::new();
    let mut free_messages = false;
    let mut moved = false;
    while board.has_move() && lines.len() < MAX_LINES {
        let (h, w) = (board.height() as u64, board.width() as u64);
        // Only moves that keep every row: once a top row empties, programs may legitimately
        // differ (drop it, or keep it and count it), so the game ends before that.
        let keeps_rows = |r: usize, c: usize| {
            let mut after = board.clone();
            after.collect(r, c).is_some() && after.height() == board.height()
        };
        let cells: Vec<(usize, usize)> = (0..board.height())
            .flat_map(|r| (0..board.width()).map(move |c| (r, c)))
            .collect();
        let movable: Vec<(usize, usize)> = cells
            .iter()
            .copied()
            .filter(|&(r, c)| keeps_rows(r, c))
            .collect();
        if movable.is_empty() {
            break;
        }
        // (a game ends before the top row empties, so probes of the edges come early)
        let illegal_percent = match mode {
            "bounds" | "huge" => 50,
            _ => 25,
        };
        let line = if rng.chance(illegal_percent) {
            // out of range (0 or one past the edge, in either coordinate), or a number with no
            // equal neighbour (never a blank cell: its message is the program's own)
            let lonely: Vec<(usize, usize)> = cells
                .iter()
                .copied()
                .filter(|&(r, c)| board.group(r, c).len() == 1)
                .collect();
            let (row, col) = (1 + rng.below(h), 1 + rng.below(w));
            match (mode, rng.below(6), rng.pick(&lonely)) {
                ("bounds" | "huge", 0 | 1, _) => {
                    free_messages = true;
                    if mode == "huge" {
                        let huge = rng.pick(&HUGE).unwrap_or(&HUGE[0]);
                        if rng.chance(50) {
                            format!("{huge} {col}")
                        } else {
                            format!("{row} {huge}")
                        }
                    } else if rng.chance(50) {
                        format!("-{} {col}", 1 + rng.below(h))
                    } else {
                        format!("{row} -{}", 1 + rng.below(w))
                    }
                }
                (_, 0, _) => format!("0 {col}"),
                (_, 1, _) => format!("{row} 0"),
                (_, 2, _) => format!("{} {col}", h + 1),
                (_, 3, _) | (_, _, None) => format!("{row} {}", w + 1),
                (_, _, Some(&(r, c))) => format!("{} {}", r + 1, c + 1),
            }
        } else {
            match rng.pick(&movable) {
                Some(&(r, c)) => format!("{} {}", r + 1, c + 1),
                None => break,
            }
        };
        if let Selection::Cell(r, c) = collect::parse_selection(&line, &board) {
            moved |= board.collect(r, c).is_some();
        }
        lines.push(line);
    }
    // A game with no accepted move compares only the start (a board with no move at all is
    // a decision the handout leaves open): not a game.
    if !moved {
        return None;
    }
    Some(Game {
        setup: Setup::new(start),
        board_file: Some(text),
        lines,
        free_messages,
        mode,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_deterministic_and_end_where_the_reference_ends() {
        for &assignment in crate::assignments::ASSIGNMENTS {
            if modes(assignment).is_empty() {
                assert_eq!(game(assignment, 1), None);
                continue;
            }
            for seed in 0..20 {
                // (a collect board without a move is no game)
                let Some(game) = game(assignment, seed) else {
                    assert_eq!(assignment, crate::assignments::collect::ASSIGNMENT);
                    continue;
                };
                assert_eq!(Some(&game), super::game(assignment, seed).as_ref());
                assert!(!game.lines.is_empty(), "{assignment} seed {seed}");
                let recording = games::record(&game.setup, &game.lines);
                // The reference reads every line (no line is typed after its game ended).
                assert_eq!(recording.unread_lines, 0, "{assignment} seed {seed}");
            }
        }
    }

    #[test]
    fn most_moves_are_legal_and_some_are_not() {
        let mut errors = 0;
        let mut moves = 0;
        for seed in 0..30 {
            let g = game(crate::assignments::nim::ASSIGNMENT, seed).expect("nim");
            let text = games::record(&g.setup, &g.lines).transcript.terminal_text();
            errors +=
                text.matches(nim::ERR_TOO_FEW).count() + text.matches(nim::ERR_TOO_MANY).count();
            moves += text.matches(nim::REMOVE_PROMPT).count();
        }
        assert!(errors > 0, "some illegal moves");
        assert!(errors * 4 < moves, "{errors} errors in {moves} moves");
    }
}
