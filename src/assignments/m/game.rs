//! The Game of M (CS118).
//!
//! Two players take turns putting an unused digit 0–9 into an empty slot of a 10-slot board;
//! one point per insertion plus one per occupied neighbour where either number is an integer
//! multiple of the other. See docs/assignments/m.md for every string and the layout.

use crate::console::Console;

/// Slots on the board.
pub const SLOTS: usize = 10;
/// The header line above the board.
pub const POSITION_LINE: &str = "Position: 1 2 3 4 5 6 7 8 9 10";
/// The second question of a turn.
pub const POSITION_PROMPT: &str = "Position to insert at? ";
/// Error: the number was used before.
pub const ERR_USED: &str = "That number has already been used.";
/// Error: the slot holds a number.
pub const ERR_OCCUPIED: &str = "That position is not empty.";
/// Error: the number is an integer outside 0–9.
pub const ERR_NUMBER_RANGE: &str = "The number must be from 0 to 9.";
/// Error: the position is an integer outside 1–10.
pub const ERR_POSITION_RANGE: &str = "The position must be from 1 to 10.";
/// Error: the number is not an integer.
pub const ERR_NUMBER_NOT_INTEGER: &str = "The number must be an integer.";
/// Error: the position is not an integer.
pub const ERR_POSITION_NOT_INTEGER: &str = "The position must be an integer.";

/// True when `a` is an integer multiple of `b` or `b` of `a` (0 is a multiple of everything).
pub fn related(a: u8, b: u8) -> bool {
    a == 0 || b == 0 || a % b == 0 || b % a == 0
}

/// The board and scores of one game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOfM {
    /// Slot contents, index 0 is position 1.
    pub slots: [Option<u8>; SLOTS],
    /// Scores of player 1 and player 2.
    pub scores: [u32; 2],
}

impl GameOfM {
    /// An empty board, both scores 0.
    pub fn new() -> GameOfM {
        GameOfM::default()
    }

    /// The points inserting `number` at 0-based `index` would score (1 + related neighbours).
    pub fn points(&self, number: u8, index: usize) -> u32 {
        let left = index
            .checked_sub(1)
            .and_then(|i| self.slots.get(i))
            .copied();
        let right = self.slots.get(index + 1).copied();
        1 + [left, right]
            .into_iter()
            .flatten()
            .flatten()
            .filter(|&n| related(n, number))
            .count() as u32
    }

    /// The problems with a proposed number and 1-based position, one message each, in order.
    pub fn problems(&self, number: &str, position: &str) -> Vec<&'static str> {
        let mut problems = Vec::new();
        match number.trim().parse::<i64>() {
            Err(_) => problems.push(ERR_NUMBER_NOT_INTEGER),
            Ok(n) if !(0..=9).contains(&n) => problems.push(ERR_NUMBER_RANGE),
            Ok(n) => {
                if self
                    .slots
                    .iter()
                    .flatten()
                    .any(|&used| i64::from(used) == n)
                {
                    problems.push(ERR_USED);
                }
            }
        }
        match position.trim().parse::<i64>() {
            Err(_) => problems.push(ERR_POSITION_NOT_INTEGER),
            Ok(p) if !(1..=SLOTS as i64).contains(&p) => problems.push(ERR_POSITION_RANGE),
            Ok(p) => {
                let filled = usize::try_from(p - 1)
                    .ok()
                    .and_then(|i| self.slots.get(i))
                    .is_some_and(Option::is_some);
                if filled {
                    problems.push(ERR_OCCUPIED);
                }
            }
        }
        problems
    }

    /// Inserts for `player` (0 or 1) after validation; returns the points scored.
    pub fn insert(&mut self, player: usize, number: u8, index: usize) -> u32 {
        let points = self.points(number, index);
        if let Some(slot) = self.slots.get_mut(index) {
            *slot = Some(number);
        }
        if let Some(score) = self.scores.get_mut(player) {
            *score += points;
        }
        points
    }

    /// True once every slot is filled.
    pub fn is_full(&self) -> bool {
        self.slots.iter().all(Option::is_some)
    }

    /// "Score: A to B".
    pub fn score_line(&self) -> String {
        format!("Score: {} to {}", self.scores[0], self.scores[1])
    }

    /// The board's second line: ten spaces, then "|" for an empty slot or "N |" for a filled
    /// one, joined by single spaces.
    pub fn board_line(&self) -> String {
        let cells: Vec<String> = self
            .slots
            .iter()
            .map(|slot| slot.map_or("|".to_string(), |n| format!("{n} |")))
            .collect();
        format!("{}{}", " ".repeat(10), cells.join(" "))
    }

    /// The final result line.
    pub fn result_line(&self) -> &'static str {
        match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => "Player 1 wins!",
            std::cmp::Ordering::Less => "Player 2 wins!",
            std::cmp::Ordering::Equal => "It's a tie!",
        }
    }

    fn show(&self, console: &mut dyn Console) {
        console.write(&format!(
            "{}\n\n{POSITION_LINE}\n{}\n\n",
            self.score_line(),
            self.board_line()
        ));
    }
}

/// Plays one game of M until the board is full or input ends.
pub fn play(console: &mut dyn Console) {
    let mut game = GameOfM::new();
    let mut player = 0usize;
    game.show(console);
    while !game.is_full() {
        loop {
            console.write(&format!("Player {}: Your number? ", player + 1));
            let Some(number) = console.read_line() else {
                return;
            };
            console.write(POSITION_PROMPT);
            let Some(position) = console.read_line() else {
                return;
            };
            let problems = game.problems(&number, &position);
            if problems.is_empty() {
                let n = number.trim().parse::<i64>().ok();
                let p = position.trim().parse::<i64>().ok();
                let n = n.and_then(|n| u8::try_from(n).ok());
                let index = p.and_then(|p| usize::try_from(p - 1).ok());
                if let (Some(n), Some(index)) = (n, index) {
                    game.insert(player, n, index);
                    break;
                }
            }
            for problem in problems {
                console.write(&format!("{problem}\n"));
            }
        }
        console.write("\n");
        game.show(console);
        player = 1 - player;
    }
    console.write(&format!("{}\n", game.result_line()));
}

/// The Game of M starts from its empty board: a new game takes no arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGame;

crate::reference_game!(NewGame, |_game, console| play(console));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{record, Setup};

    fn run(input: &[&str]) -> String {
        record(&Setup::new(NewGame), input).expect("the reference plays")
            .transcript
            .terminal_text()
    }

    #[test]
    fn handout_scoring_example() {
        let text = run(&["6", "1", "3", "2", "9", "4", "1", "3"]);
        let expected = "\
Score: 0 to 0

Position: 1 2 3 4 5 6 7 8 9 10
          | | | | | | | | | |

Player 1: Your number? 6
Position to insert at? 1

Score: 1 to 0

Position: 1 2 3 4 5 6 7 8 9 10
          6 | | | | | | | | | |

Player 2: Your number? 3
Position to insert at? 2

Score: 1 to 2

Position: 1 2 3 4 5 6 7 8 9 10
          6 | 3 | | | | | | | | |

Player 1: Your number? 9
Position to insert at? 4

Score: 2 to 2

Position: 1 2 3 4 5 6 7 8 9 10
          6 | 3 | | 9 | | | | | | |

Player 2: Your number? 1
Position to insert at? 3

Score: 2 to 5

Position: 1 2 3 4 5 6 7 8 9 10
          6 | 3 | 1 | 9 | | | | | | |

Player 1: Your number? ";
        assert_eq!(text, expected);
    }

    #[test]
    fn handout_first_example_board_line() {
        let mut game = GameOfM::new();
        game.insert(0, 7, 8);
        assert_eq!(game.board_line(), "          | | | | | | | | 7 | |");
        game.insert(1, 1, 9);
        assert_eq!(game.board_line(), "          | | | | | | | | 7 | 1 |");
    }

    #[test]
    fn zero_is_related_both_ways_and_never_divides() {
        assert!(related(0, 7));
        assert!(related(7, 0));
        assert!(related(1, 9));
        assert!(related(6, 3));
        assert!(!related(4, 6));
        let mut game = GameOfM::new();
        game.insert(0, 7, 0);
        assert_eq!(game.points(0, 1), 2, "0 inserted next to 7");
        let mut game = GameOfM::new();
        game.insert(0, 0, 0);
        assert_eq!(game.points(7, 1), 2, "7 inserted next to 0");
    }

    #[test]
    fn both_neighbours_can_score() {
        let mut game = GameOfM::new();
        game.insert(0, 2, 3);
        game.insert(1, 8, 5);
        assert_eq!(game.points(4, 4), 3);
        assert_eq!(game.points(3, 4), 1);
        assert_eq!(game.insert(0, 4, 4), 3);
        assert_eq!(game.scores, [4, 1]);
    }

    #[test]
    fn used_number_and_occupied_position_are_both_reported_then_both_asked_again() {
        let text = run(&["5", "3", "5", "3", "x", "11", "12", "y", "6", "4"]);
        assert!(text.contains(
            "Player 2: Your number? 5\nPosition to insert at? 3\n\
             That number has already been used.\nThat position is not empty.\n\
             Player 2: Your number? x\nPosition to insert at? 11\n\
             The number must be an integer.\nThe position must be from 1 to 10.\n\
             Player 2: Your number? 12\nPosition to insert at? y\n\
             The number must be from 0 to 9.\nThe position must be an integer.\n\
             Player 2: Your number? 6\nPosition to insert at? 4\n\nScore: 1 to 1\n"
        ));
    }

    #[test]
    fn full_game_ends_with_score_board_and_result() {
        // Numbers 0..9 into positions 1..10 in order, players alternating.
        let input: Vec<String> = (0..10)
            .flat_map(|n| [n.to_string(), (n + 1).to_string()])
            .collect();
        let recording = record(&Setup::new(NewGame), &input).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        // P1: 0@1 1, 2@3 2 (1 divides 2), 4@5 1, 6@7 1, 8@9 1 = 6;
        // P2: 1@2 2 (0 next to 1), 3@4 1, 5@6 1, 7@8 1, 9@10 1 = 6.
        assert!(text.ends_with(&format!(
            "Position to insert at? 10\n\nScore: 6 to 6\n\n{POSITION_LINE}\n          \
             0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 |\n\nIt's a tie!\n"
        )));
        assert!(!recording.wanted_more_input);
    }

    #[test]
    fn results() {
        let mut game = GameOfM::new();
        assert_eq!(game.result_line(), "It's a tie!");
        game.scores = [3, 5];
        assert_eq!(game.result_line(), "Player 2 wins!");
        game.scores = [6, 5];
        assert_eq!(game.result_line(), "Player 1 wins!");
    }
}
