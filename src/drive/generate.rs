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
}

/// Out of 100 moves, how many are illegal or edge inputs.
const ILLEGAL_PERCENT: u64 = 15;

/// Lines at most per game, so every game ends.
pub const MAX_LINES: usize = 400;

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

/// Generates game `seed` of `assignment` (Silver Dollar is driven from the program's own
/// strip instead, so it has no generator here).
pub fn game(assignment: Assignment, seed: u64) -> Option<Game> {
    let Explore::Generator(generate) = assignment.def().explore else {
        return None;
    };
    let mut rng = Rng(SplitMix64::new(seed ^ 0x5eed_0000_0000_0000));
    generate(&mut rng)
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

/// A Nim game: mostly legal takes, some illegal ones.
pub fn nim_game(rng: &mut Rng) -> Game {
    let setup = Setup::new(nim::NewGame);
    let mut lines: Vec<String> = Vec::new();
    let mut rounds = 0;
    while lines.len() < MAX_LINES {
        let (screen, wants) = screen(&setup, &lines);
        if !wants {
            break;
        }
        let line = if screen.ends_with(nim::PLAY_AGAIN) {
            rounds += 1;
            let again = rounds < 3 && rng.chance(40);
            (if again { "y" } else { "n" }).to_string()
        } else if screen.ends_with(nim::GO_FIRST) {
            rng.pick(&["y", "n", "Y", "N"]).unwrap_or(&"y").to_string()
        } else {
            let left = screen
                .lines()
                .rfind(|l| l.contains("Matches:"))
                .map_or(21, |l| l.matches('|').count() as u64);
            if rng.chance(ILLEGAL_PERCENT) {
                rng.pick(&["0", "4", "-1"]).unwrap_or(&"0").to_string()
            } else {
                (1 + rng.below(left.clamp(1, 3))).to_string()
            }
        };
        lines.push(line);
    }
    Game {
        setup,
        board_file: None,
        lines,
    }
}

/// A Game of M: mostly free numbers, some taken or out of range.
pub fn m_game(rng: &mut Rng) -> Game {
    let mut game = GameOfM::new();
    let mut lines = Vec::new();
    let mut player = 0;
    while !game.is_full() && lines.len() < MAX_LINES {
        let (number, position) = if rng.chance(ILLEGAL_PERCENT) {
            // a used number, an occupied position, or one out of range
            let n = rng.below(12) as i64 - 1;
            let p = rng.below(12) as i64;
            (n.to_string(), p.to_string())
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
            let n = rng.pick(&unused).copied().unwrap_or(0);
            let p = rng.pick(&free).copied().unwrap_or(0) + 1;
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
    Game {
        setup: Setup::new(crate::assignments::m::game::NewGame),
        board_file: None,
        lines,
    }
}

/// A Connect6 game on a random board size.
pub fn connect6_game(rng: &mut Rng) -> Game {
    let size = connect6::DEFAULT_SIZE;
    let mut board = Connect6Board::new(size);
    let mut lines = Vec::new();
    let mut placed: Vec<(usize, usize)> = Vec::new();
    // Play in a small region so that lines of six form and games end.
    let (top, left) = (
        rng.below(size as u64 - 7) as usize,
        rng.below(size as u64 - 7) as usize,
    );
    let letter = |col: usize| char::from(b'A' + col as u8);
    while lines.len() < MAX_LINES {
        if rng.chance(ILLEGAL_PERCENT) {
            let line = match rng.below(4) {
                0 if !placed.is_empty() => {
                    let (r, c) = placed[rng.below(placed.len() as u64) as usize];
                    format!("{}{r}", letter(c))
                }
                1 => format!("{}{}", letter(left).to_ascii_lowercase(), top),
                2 => format!("{}{}", letter(left), size),
                _ => format!("{}{}", char::from(b'A' + size as u8), top),
            };
            lines.push(line);
            continue;
        }
        let empty: Vec<(usize, usize)> = (top..top + 7)
            .flat_map(|r| (left..left + 7).map(move |c| (r, c)))
            .filter(|&(r, c)| board.get(r, c).is_none())
            .collect();
        let Some(&(r, c)) = rng.pick(&empty) else {
            break;
        };
        let stone = connect6::player_for(placed.len());
        board.place(r, c, stone);
        placed.push((r, c));
        lines.push(format!("{}{r}", letter(c)));
        if board.wins_at(r, c) || board.is_full() {
            break;
        }
    }
    Game {
        setup: Setup::new(connect6::BoardSize(size)),
        board_file: None,
        lines,
    }
}

/// A collect game on a random board (its file given to the student too).
pub fn collect_game(rng: &mut Rng) -> Option<Game> {
    let height = 1 + rng.below(6) as usize;
    let width = 2 + rng.below(7) as usize;
    let values = 1 + rng.below(4);
    let rows: Vec<String> = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| (1 + rng.below(values)).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = rows.join("\n");
    let start = CollectBoard::parse(std::path::Path::new("input.txt"), &text).ok()?;
    let mut board = start.clone();
    let mut lines = Vec::new();
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
        let line = if rng.chance(ILLEGAL_PERCENT) {
            // out of range (0 or one past the edge), or a number with no equal neighbour
            // (never a blank cell: its message is the program's own)
            let lonely: Vec<(usize, usize)> = cells
                .iter()
                .copied()
                .filter(|&(r, c)| board.group(r, c).len() == 1)
                .collect();
            match (rng.below(3), rng.pick(&lonely)) {
                (0, _) => format!("0 {}", 1 + rng.below(w)),
                (1, _) | (_, None) => format!("{} {}", h + 1, 1 + rng.below(w)),
                (_, Some(&(r, c))) => format!("{} {}", r + 1, c + 1),
            }
        } else {
            match rng.pick(&movable) {
                Some(&(r, c)) => format!("{} {}", r + 1, c + 1),
                None => break,
            }
        };
        if let Selection::Cell(r, c) = collect::parse_selection(&line, &board) {
            board.collect(r, c);
        }
        lines.push(line);
    }
    Some(Game {
        setup: Setup::new(start),
        board_file: Some(text),
        lines,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_deterministic_and_end_where_the_reference_ends() {
        for &assignment in crate::assignments::ASSIGNMENTS {
            if let Explore::Unavailable(_) = assignment.def().explore {
                assert_eq!(game(assignment, 1), None);
                continue;
            }
            for seed in 0..20 {
                let game = game(assignment, seed).expect("a generator");
                assert_eq!(Some(&game), super::game(assignment, seed).as_ref());
                // (a generated board may have no move at all: a game of no lines)
                assert!(
                    !game.lines.is_empty() || game.board_file.is_some(),
                    "{assignment} seed {seed}"
                );
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
