//! Random games for exploration: a generator per assignment that knows the game's state and
//! types mostly legal moves, with a controlled share of illegal and edge inputs whose handling
//! the handout fixes.
//!
//! A generator plays against the reference alone: it mirrors the reference's state with the
//! games' own rules (or reads it from the reference's screen), so a generated game is a fixed
//! list of lines that can be replayed on a student's program and shrunk.

use std::fmt;
use std::sync::Arc;

use crate::drive::InputStrategy;
use crate::games::{Setup, SplitMix64};
use crate::transcript::Transcript;

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
    /// For a game whose program draws its own start (Silver Dollar's strip): the strategy
    /// that types each line from what the program printed. `setup` and `lines` are then the
    /// same plan played on a start the reference drew (for coverage and steering); the
    /// program is driven from its own start, and the reference replayed from that.
    pub driver: Option<Driven>,
}

/// A driven game's strategy, compared by what it types (its description).
#[derive(Clone)]
pub struct Driven(pub Arc<dyn InputStrategy>);

impl PartialEq for Driven {
    fn eq(&self, other: &Driven) -> bool {
        self.0.describe() == other.0.describe()
    }
}

impl Eq for Driven {}

impl fmt::Debug for Driven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Driven({})", self.0.describe())
    }
}

/// Out of 100 moves, how many are illegal or edge inputs.
pub const ILLEGAL_PERCENT: u64 = 15;

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
    /// The random source of game `seed` of an assignment.
    pub fn for_game(seed: u64) -> Rng {
        Rng(SplitMix64::new(seed ^ 0x5eed_0000_0000_0000))
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.0.next_u64() % n
        }
    }

    /// True `percent` times in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (`None` when there are none).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len() as u64) as usize)
    }
}

/// What the reference printed after the last line typed (`last`), in the terminal's form of
/// `transcript` (inputs echoed): the text after that line's last echo. Only the events from
/// the last input on are rendered (the whole transcript at every line made a game's
/// generation quadratic in its length): a reference's plain lines render the same alone.
pub fn screen_after(transcript: &Transcript, last: Option<&String>) -> String {
    let events = transcript.events();
    let first = last
        .and_then(|_| {
            events
                .iter()
                .rposition(|e| matches!(e, crate::transcript::Event::Input { .. }))
        })
        .unwrap_or(0);
    let text = transcript.terminal_text_from(first);
    let from = last.map_or(0, |l| {
        text.rfind(&format!("{l}\n")).map_or(0, |i| i + l.len() + 1)
    });
    text[from..].to_string()
}

/// The numbers past 32 and 64 bits typed in a game, as the rules they exercise.
pub fn huge_numbers(game: &Game) -> Vec<&'static str> {
    let mut hit = Vec::new();
    for line in &game.lines {
        let line = line.trim();
        if HUGE.contains(&line) {
            hit.push("number past 32 bits");
            if line.trim_start_matches('-').len() > 19 {
                hit.push("number past 64 bits");
            }
        }
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Event;

    /// The text after the last echo of `last`, found in the whole terminal text: what
    /// [`screen_after`] must give, by its definition.
    fn after_last_echo(transcript: &Transcript, last: Option<&String>) -> String {
        let text = transcript.terminal_text();
        let from = last.map_or(0, |l| {
            text.rfind(&format!("{l}\n")).map_or(0, |i| i + l.len() + 1)
        });
        text[from..].to_string()
    }

    #[test]
    fn the_screen_after_a_line_is_the_whole_texts_tail_after_its_echo() {
        let nim = crate::assignments::nim::ASSIGNMENT;
        let mut compared = 0;
        for seed in 0..20 {
            let game = nim.random_game(seed).expect("a nim game");
            let recording = crate::games::record(&game.setup, &game.lines).expect("played");
            let events = recording.transcript.events();
            // The transcript as the generator saw it when it typed each line: up to (not
            // with) that line's input, then the line typed before it as `last`.
            let mut typed: Vec<String> = Vec::new();
            for (at, event) in events.iter().enumerate() {
                if let Event::Input { line } = event {
                    let seen = Transcript::from_events(events[..at].to_vec());
                    assert_eq!(
                        screen_after(&seen, typed.last()),
                        after_last_echo(&seen, typed.last()),
                        "seed {seed}, before input {}",
                        typed.len()
                    );
                    typed.push(line.clone());
                    compared += 1;
                }
            }
        }
        assert!(compared > 100, "{compared} screens compared");
    }

    #[test]
    fn a_line_printed_again_after_its_echo_ends_the_screen_there_as_before() {
        let mut t = Transcript::new();
        t.push_output(crate::transcript::Stream::Stdout, b"How many? ");
        t.push_input("3");
        t.push_output(
            crate::transcript::Stream::Stdout,
            b"Computer removes 3\nLeft: 4\n",
        );
        let last = "3".to_string();
        assert_eq!(screen_after(&t, Some(&last)), "Left: 4\n");
        assert_eq!(
            screen_after(&t, None),
            "How many? 3\nComputer removes 3\nLeft: 4\n"
        );
    }
}
