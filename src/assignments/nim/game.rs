//! Nim with 21 matches against the computer (CS 135 Assignment 4), or another count a
//! course sets (`--matches N`, docs/variants.md): the computer's table works for any count.
//!
//! The player who removes the last match loses; the game stops as soon as one match is left,
//! and the player whose turn it would be loses. The computer plays the handout's strategy
//! (leave a multiple of four plus one). See docs/assignments/nim.md for every string and the
//! blank-line layout.

use crate::console::Console;
use crate::games::SetupError;

/// Matches on the table at the start of every round, as the handout has it.
pub const START_MATCHES: u32 = 21;
/// The most matches a variant may start with (a pile a terminal still shows on one line).
pub const MAX_MATCHES: u32 = 200;

/// The line explaining the game, shown once per program run (not on replays).
pub const INTRO: &str = "The game of Nim. The player to remove the last match loses.";
/// The question asked before each round.
pub const GO_FIRST: &str = "Would you like to go first? (Y/N): ";
/// The question asked after each round.
pub const PLAY_AGAIN: &str = "Would you like to play again? (Y/N): ";
/// The prompt for the player's move.
pub const REMOVE_PROMPT: &str = "Remove (1 - 3): ";
/// Error for a yes/no answer other than Y, y, N or n.
pub const ERR_YES_NO: &str = "Please, answer Y or N.";
/// Error for a move that is not an integer.
pub const ERR_NOT_NUMBER: &str = "Please, type 1, 2, or 3 as your response.";
/// Error for a move below one.
pub const ERR_TOO_FEW: &str = "Must remove at least one match.";
/// Error for a move above three.
pub const ERR_TOO_MANY: &str = "Cannot remove more than three matches.";

/// Whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The person at the keyboard.
    Player,
    /// The program.
    Computer,
}

impl Turn {
    fn other(self) -> Turn {
        match self {
            Turn::Player => Turn::Computer,
            Turn::Computer => Turn::Player,
        }
    }

    /// The turn header's first words, e.g. "Player Turn - Matches: ".
    pub fn header(self) -> &'static str {
        match self {
            Turn::Player => "Player Turn - Matches: ",
            Turn::Computer => "Computer Turn - Matches: ",
        }
    }

    /// The result line when this side is left facing the last match (and so loses).
    pub fn loser_message(self) -> &'static str {
        match self {
            Turn::Player => "Game Over - Computer wins.",
            Turn::Computer => "Game Over - Player wins.",
        }
    }
}

/// The state of one round: matches left and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nim {
    /// Matches still on the table.
    pub matches: u32,
    /// Who moves next.
    pub turn: Turn,
}

impl Nim {
    /// A fresh round of `matches` matches (the handout's 21) with `first` to move.
    pub fn new(matches: u32, first: Turn) -> Nim {
        Nim {
            matches,
            turn: first,
        }
    }

    /// True once a single match (or, defensively, none) is left: the side to move has lost.
    pub fn is_over(&self) -> bool {
        self.matches <= 1
    }

    /// Removes `count` matches for the side to move and passes the turn.
    pub fn remove(&mut self, count: u32) {
        self.matches = self.matches.saturating_sub(count);
        self.turn = self.turn.other();
    }
}

/// The computer's move by the handout's table: remainder mod 4 of 0→3, 1→1, 2→1, 3→2.
pub fn computer_take(matches: u32) -> u32 {
    match matches % 4 {
        0 => 3,
        1 | 2 => 1,
        _ => 2,
    }
}

/// Matches drawn as groups of five pipes, each full group followed by one space.
pub fn draw_matches(matches: u32) -> String {
    let mut text = String::new();
    for i in 1..=matches {
        text.push('|');
        if i % 5 == 0 {
            text.push(' ');
        }
    }
    text
}

/// What a line typed at the "Remove" prompt means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveAnswer {
    /// 1, 2 or 3.
    Take(u32),
    /// Not an integer at all.
    NotNumber,
    /// An integer below one.
    TooFew,
    /// An integer above three.
    TooMany,
}

impl MoveAnswer {
    /// Classifies one line (surrounding whitespace ignored).
    pub fn parse(line: &str) -> MoveAnswer {
        let text = line.trim();
        let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return MoveAnswer::NotNumber;
        }
        if text.starts_with('-') {
            // "-0" is zero: still fewer than one.
            return MoveAnswer::TooFew;
        }
        match digits.trim_start_matches('0').len() {
            0 => MoveAnswer::TooFew,
            1 => match digits.bytes().last() {
                Some(b @ b'1'..=b'3') => MoveAnswer::Take(u32::from(b - b'0')),
                _ => MoveAnswer::TooMany,
            },
            _ => MoveAnswer::TooMany,
        }
    }

    /// The error line for a rejected answer, `None` for a valid one.
    pub fn error(self) -> Option<&'static str> {
        match self {
            MoveAnswer::Take(_) => None,
            MoveAnswer::NotNumber => Some(ERR_NOT_NUMBER),
            MoveAnswer::TooFew => Some(ERR_TOO_FEW),
            MoveAnswer::TooMany => Some(ERR_TOO_MANY),
        }
    }
}

/// A yes/no answer: `Some(true)` for Y/y, `Some(false)` for N/n, `None` otherwise.
pub fn parse_yes_no(line: &str) -> Option<bool> {
    match line.trim() {
        "Y" | "y" => Some(true),
        "N" | "n" => Some(false),
        _ => None,
    }
}

/// Asks a yes/no question until answered; `None` at end of input.
fn ask_yes_no(console: &mut dyn Console, question: &str) -> Option<bool> {
    loop {
        console.write(question);
        let line = console.read_line()?;
        match parse_yes_no(&line) {
            Some(answer) => return Some(answer),
            None => console.write(&format!("{ERR_YES_NO}\n")),
        }
    }
}

/// Asks for the player's move until it is 1, 2 or 3; `None` at end of input.
fn ask_move(console: &mut dyn Console) -> Option<u32> {
    loop {
        console.write(REMOVE_PROMPT);
        let answer = MoveAnswer::parse(&console.read_line()?);
        match (answer, answer.error()) {
            (MoveAnswer::Take(count), _) => return Some(count),
            (_, Some(message)) => console.write(&format!("{message}\n")),
            (_, None) => {}
        }
    }
}

/// Plays one round to its end; `None` at end of input.
fn play_round(console: &mut dyn Console, matches: u32, first: Turn) -> Option<()> {
    let mut nim = Nim::new(matches, first);
    loop {
        console.write(&format!(
            "{}{}\n",
            nim.turn.header(),
            draw_matches(nim.matches)
        ));
        if nim.is_over() {
            console.write(&format!("{}\n\n", nim.turn.loser_message()));
            return Some(());
        }
        match nim.turn {
            Turn::Player => {
                let count = ask_move(console)?;
                console.write("\n");
                nim.remove(count);
            }
            Turn::Computer => {
                let count = computer_take(nim.matches);
                console.write(&format!("Computer removes {count}.\n\n"));
                nim.remove(count);
            }
        }
    }
}

/// Plays Nim from `matches` matches (with replays) until the player declines or input ends.
pub fn play(console: &mut dyn Console, matches: u32) {
    let _ = play_session(console, matches);
}

fn play_session(console: &mut dyn Console, matches: u32) -> Option<()> {
    console.write(&format!("{INTRO}\n\n"));
    loop {
        let player_first = ask_yes_no(console, GO_FIRST)?;
        console.write("\n");
        let first = if player_first {
            Turn::Player
        } else {
            Turn::Computer
        };
        play_round(console, matches, first)?;
        if !ask_yes_no(console, PLAY_AGAIN)? {
            return Some(());
        }
        console.write("\n");
    }
}

/// A new game: how many matches every round starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewGame {
    /// Matches at the start of every round (the handout's 21 unless a course changes it).
    pub matches: u32,
}

impl NewGame {
    /// The handout's game: 21 matches.
    pub const HANDOUT: NewGame = NewGame {
        matches: START_MATCHES,
    };

    /// Parses `[--matches N]` (N from 2 to [`MAX_MATCHES`], default 21).
    pub fn from_args(args: &[String]) -> Result<NewGame, SetupError> {
        let usage = |problem: String| {
            SetupError::Usage(format!(
                "{problem}\nusage: nim [--matches N]   (N from 2 to {MAX_MATCHES}, default {START_MATCHES})"
            ))
        };
        match args {
            [] => Ok(NewGame::HANDOUT),
            [flag, value] if flag == "--matches" => match value.parse::<u32>() {
                Ok(matches) if (2..=MAX_MATCHES).contains(&matches) => Ok(NewGame { matches }),
                _ => Err(usage(format!(
                    "--matches must be a whole number from 2 to {MAX_MATCHES}, got '{value}'"
                ))),
            },
            _ => Err(usage("unexpected game arguments".to_string())),
        }
    }
}

crate::reference_game!(NewGame, |game, console| play(console, game.matches));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{record, Setup};

    fn run(input: &[&str]) -> String {
        record(&Setup::new(NewGame::HANDOUT), input).expect("the reference plays")
            .transcript
            .terminal_text()
    }

    #[test]
    fn computer_takes_by_remainder() {
        assert_eq!(computer_take(20), 3); // 0
        assert_eq!(computer_take(21), 1); // 1
        assert_eq!(computer_take(18), 1); // 2
        assert_eq!(computer_take(19), 2); // 3
        for m in 2..=21 {
            let left = m - computer_take(m);
            if m > 1 && m % 4 != 1 {
                assert_eq!(left % 4, 1, "from {m}");
            }
        }
    }

    #[test]
    fn matches_are_drawn_in_groups_of_five() {
        assert_eq!(draw_matches(5), "||||| ");
        assert_eq!(draw_matches(11), "||||| ||||| |");
        assert_eq!(draw_matches(20), "||||| ||||| ||||| ||||| ");
        assert_eq!(draw_matches(1), "|");
        assert_eq!(draw_matches(0), "");
    }

    #[test]
    fn move_answers_are_classified() {
        assert_eq!(MoveAnswer::parse(" 2 "), MoveAnswer::Take(2));
        assert_eq!(MoveAnswer::parse("abc"), MoveAnswer::NotNumber);
        assert_eq!(MoveAnswer::parse(""), MoveAnswer::NotNumber);
        assert_eq!(MoveAnswer::parse("3abc"), MoveAnswer::NotNumber);
        assert_eq!(MoveAnswer::parse("1 2"), MoveAnswer::NotNumber);
        assert_eq!(MoveAnswer::parse("0"), MoveAnswer::TooFew);
        assert_eq!(MoveAnswer::parse("-7"), MoveAnswer::TooFew);
        assert_eq!(MoveAnswer::parse("4"), MoveAnswer::TooMany);
        assert_eq!(
            MoveAnswer::parse("99999999999999999999999"),
            MoveAnswer::TooMany
        );
        assert_eq!(MoveAnswer::parse("003"), MoveAnswer::Take(3));
        assert_eq!(parse_yes_no("yes"), None);
        assert_eq!(parse_yes_no(" n"), Some(false));
    }

    #[test]
    fn handout_example_execution() {
        let expected = "\
The game of Nim. The player to remove the last match loses.

Would you like to go first? (Y/N): y

Player Turn - Matches: ||||| ||||| ||||| ||||| |
Remove (1 - 3): 3

Computer Turn - Matches: ||||| ||||| ||||| |||
Computer removes 1.

Player Turn - Matches: ||||| ||||| ||||| ||
Remove (1 - 3): 2

Computer Turn - Matches: ||||| ||||| ||||| 
Computer removes 2.

Player Turn - Matches: ||||| ||||| |||
Remove (1 - 3): 3

Computer Turn - Matches: ||||| ||||| 
Computer removes 1.

Player Turn - Matches: ||||| ||||
Remove (1 - 3): 1

Computer Turn - Matches: ||||| |||
Computer removes 3.

Player Turn - Matches: ||||| 
Remove (1 - 3): 2

Computer Turn - Matches: |||
Computer removes 2.

Player Turn - Matches: |
Game Over - Computer wins.

Would you like to play again? (Y/N): N
";
        let recording = record(&Setup::new(NewGame::HANDOUT), &["y", "3", "2", "3", "1", "2", "N"]).expect("the reference plays");
        assert_eq!(recording.transcript.terminal_text(), expected);
        assert!(!recording.wanted_more_input);
        assert_eq!(recording.unread_lines, 0);
    }

    #[test]
    fn every_error_message_and_reprompt() {
        let text = run(&["maybe", "y", "x", "0", "4", "1"]);
        assert!(text.contains(
            "Would you like to go first? (Y/N): maybe\nPlease, answer Y or N.\nWould you like to go first? (Y/N): y\n"
        ));
        assert!(text.contains(
            "Remove (1 - 3): x\nPlease, type 1, 2, or 3 as your response.\n\
             Remove (1 - 3): 0\nMust remove at least one match.\n\
             Remove (1 - 3): 4\nCannot remove more than three matches.\n\
             Remove (1 - 3): 1\n\nComputer Turn - Matches: ||||| ||||| ||||| ||||| \n"
        ));
    }

    #[test]
    fn player_can_win_when_computer_goes_first() {
        // Computer 21→20; player 3→17; computer 1→16; player 3→13; computer 1→12;
        // player 3→9; computer 1→8; player 3→5; computer 1→4; player 3→1.
        let text = run(&["n", "3", "3", "3", "3", "3", "n"]);
        assert!(text.ends_with(
            "Computer Turn - Matches: |\nGame Over - Player wins.\n\n\
             Would you like to play again? (Y/N): n\n"
        ));
    }

    #[test]
    fn replay_resets_to_21_and_skips_the_intro() {
        let text = run(&[
            "y", "3", "2", "3", "1", "2", "maybe", "Y", "y", "1", "2", "3", "1", "1", "n",
        ]);
        assert_eq!(text.matches(INTRO).count(), 1);
        assert!(text.contains(
            "Would you like to play again? (Y/N): maybe\nPlease, answer Y or N.\n\
             Would you like to play again? (Y/N): Y\n\n\
             Would you like to go first? (Y/N): y\n\n\
             Player Turn - Matches: ||||| ||||| ||||| ||||| |\n"
        ));
        assert_eq!(text.matches("Game Over - Computer wins.").count(), 2);
        assert!(text.ends_with("Would you like to play again? (Y/N): n\n"));
    }

    #[test]
    fn end_of_input_returns_quietly() {
        let recording = record(&Setup::new(NewGame::HANDOUT), &["y", "3"]).expect("the reference plays");
        assert!(recording.wanted_more_input);
        assert!(recording.transcript.terminal_text().ends_with(
            "Computer removes 1.\n\nPlayer Turn - Matches: ||||| ||||| ||||| ||\nRemove (1 - 3): "
        ));
    }
}
