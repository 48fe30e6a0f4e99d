//! The Silver Dollar Game (CSCI 2101 Lab 1).
//!
//! Coins on a strip move only left, never past or onto another coin; whoever makes the last
//! move wins. The start is drawn from a seed (after the player says how many coins) or given
//! as a strip. See docs/assignments/silver_dollar.md for every string and decision.

use crate::console::Console;
use crate::games::{SetupError, SplitMix64};

/// The first question.
pub const COINS_PROMPT: &str = "Enter the number of coins: ";
/// Shown after any move that is not legal (including a badly formed line).
pub const ILLEGAL: &str = "Illegal move! Try again.";
/// The largest coin count accepted for a random strip, so the reference stays bounded.
pub const MAX_COINS: usize = 10_000;

/// How the strip is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A random strip drawn from a seed.
    Seeded(u64),
    /// A given strip: each square empty (`None`) or holding a coin.
    Strip(Vec<Option<usize>>),
}

impl Start {
    /// Parses `[--seed N] [--board "_ _ 0 _ 1"]` (at most one of the two; default seed 0).
    pub fn from_args(args: &[String]) -> Result<Start, SetupError> {
        let usage = |problem: &str| {
            SetupError::Usage(format!(
                "{problem}\nusage: silver_dollar [--seed N | --board \"_ _ 0 _ 1\"]"
            ))
        };
        match args {
            [] => Ok(Start::Seeded(0)),
            [flag, value] if flag == "--seed" => value.parse().map(Start::Seeded).map_err(|_| {
                usage(&format!(
                    "--seed needs a non-negative integer, got '{value}'"
                ))
            }),
            [flag, value] if flag == "--board" => parse_strip(value)
                .map(Start::Strip)
                .map_err(|problem| usage(&format!("bad --board \"{value}\": {problem}"))),
            _ => Err(usage("expected --seed N or --board STRIP (not both)")),
        }
    }
}

/// Parses a strip like "_ _ 0 _ 1": "_" for an empty square, coins numbered 0, 1, 2, …
/// from left to right; at least one coin.
pub fn parse_strip(text: &str) -> Result<Vec<Option<usize>>, String> {
    let mut squares = Vec::new();
    let mut next_coin = 0usize;
    for token in text.split_whitespace() {
        if token == "_" {
            squares.push(None);
        } else if token.parse::<usize>().ok() == Some(next_coin) {
            squares.push(Some(next_coin));
            next_coin += 1;
        } else {
            return Err(format!(
                "'{token}' should be '_' or the next coin number, {next_coin}"
            ));
        }
    }
    if next_coin == 0 {
        return Err("the strip has no coins".into());
    }
    Ok(squares)
}

/// The coins' squares, coin 0 first; the strip is `length` squares long.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoinStrip {
    /// 0-based square of each coin, strictly increasing.
    pub positions: Vec<usize>,
    /// Number of squares on the strip.
    pub length: usize,
}

impl CoinStrip {
    /// The strip drawn from `seed`: coin 0 lies 1–6 squares from the left edge, each next coin
    /// 1–6 squares right of the previous one; the strip ends at the last coin.
    pub fn random(coins: usize, seed: u64) -> CoinStrip {
        let mut rng = SplitMix64::new(seed);
        let mut positions = Vec::with_capacity(coins);
        let mut edge = 0usize; // one past the previous coin's square (or the left edge)
        for _ in 0..coins {
            let square = edge + rng.roll_die() - 1;
            positions.push(square);
            edge = square + 1;
        }
        CoinStrip {
            positions,
            length: edge,
        }
    }

    /// The strip given square by square.
    pub fn from_squares(squares: &[Option<usize>]) -> CoinStrip {
        CoinStrip {
            positions: squares
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.map(|_| i))
                .collect(),
            length: squares.len(),
        }
    }

    /// True when coin `coin` may move `distance` squares left.
    pub fn is_legal(&self, coin: usize, distance: usize) -> bool {
        let Some(&square) = self.positions.get(coin) else {
            return false;
        };
        let Some(target) = square.checked_sub(distance) else {
            return false;
        };
        let floor = match coin.checked_sub(1) {
            Some(left) => self.positions.get(left).map_or(0, |&p| p + 1),
            None => 0,
        };
        distance >= 1 && target >= floor
    }

    /// Moves a coin if the move is legal; returns whether it moved.
    pub fn apply(&mut self, coin: usize, distance: usize) -> bool {
        if !self.is_legal(coin, distance) {
            return false;
        }
        if let Some(square) = self.positions.get_mut(coin) {
            *square -= distance;
        }
        true
    }

    /// True when some coin can move (the coins are not packed at the left end).
    pub fn has_move(&self) -> bool {
        (0..self.positions.len()).any(|coin| self.is_legal(coin, 1))
    }

    /// The board line: "_" for an empty square, the coin's number otherwise, single spaces.
    pub fn render(&self) -> String {
        let mut squares = vec!["_".to_string(); self.length];
        for (coin, &square) in self.positions.iter().enumerate() {
            if let Some(cell) = squares.get_mut(square) {
                *cell = coin.to_string();
            }
        }
        squares.join(" ")
    }
}

/// Reads a move line "c d"; `None` unless it is exactly two non-negative integers.
pub fn parse_move(line: &str) -> Option<(usize, usize)> {
    let mut tokens = line.split_whitespace();
    let coin = tokens.next()?.parse().ok()?;
    let distance = tokens.next()?.parse().ok()?;
    tokens.next().is_none().then_some((coin, distance))
}

/// Reads the coin count: a positive integer up to [`MAX_COINS`].
pub fn parse_coin_count(line: &str) -> Option<usize> {
    line.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=MAX_COINS).contains(n))
}

/// Plays one game of Silver Dollar until it ends or input ends.
pub fn play(start: &Start, console: &mut dyn Console) {
    let coins = loop {
        console.write(COINS_PROMPT);
        let Some(line) = console.read_line() else {
            return;
        };
        if let Some(n) = parse_coin_count(&line) {
            break n;
        }
    };
    let mut strip = match start {
        Start::Seeded(seed) => CoinStrip::random(coins, *seed),
        Start::Strip(squares) => CoinStrip::from_squares(squares),
    };
    let mut player = 1;
    let mut last_mover = 2; // if player 1 cannot move at all, player 2 wins
    while strip.has_move() {
        console.write(&format!("{}\n", strip.render()));
        loop {
            console.write(&format!("Player {player}: Enter your move: "));
            let Some(line) = console.read_line() else {
                return;
            };
            match parse_move(&line) {
                Some((coin, distance)) if strip.apply(coin, distance) => break,
                _ => console.write(&format!("{ILLEGAL}\n")),
            }
        }
        last_mover = player;
        player = 3 - player;
    }
    console.write(&format!("{}\nPlayer {last_mover} wins!\n", strip.render()));
}

crate::reference_game!(Start, |start, console| play(start, console));

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{record, Setup};

    fn strip(text: &str) -> CoinStrip {
        CoinStrip::from_squares(&parse_strip(text).expect("strip"))
    }

    #[test]
    fn fixed_strip_game_with_illegal_moves() {
        let setup = Setup::new(Start::Strip(parse_strip("_ 0 _ _ 1").expect("strip")));
        let input = [
            "x", "2", "0 1", "1 4", "1 2", "5 3", "abc", "1 1 1", "1 1", "0 1",
        ];
        let recording = record(&setup, &input).expect("the reference plays");
        let expected = "\
Enter the number of coins: x
Enter the number of coins: 2
_ 0 _ _ 1
Player 1: Enter your move: 0 1
0 _ _ _ 1
Player 2: Enter your move: 1 4
Illegal move! Try again.
Player 2: Enter your move: 1 2
0 _ 1 _ _
Player 1: Enter your move: 5 3
Illegal move! Try again.
Player 1: Enter your move: abc
Illegal move! Try again.
Player 1: Enter your move: 1 1 1
Illegal move! Try again.
Player 1: Enter your move: 1 1
0 1 _ _ _
Player 1 wins!
";
        assert_eq!(recording.transcript.terminal_text(), expected);
        assert_eq!(recording.unread_lines, 1);
    }

    #[test]
    fn passing_landing_on_a_coin_and_leaving_the_strip_are_illegal() {
        let s = strip("_ 0 _ _ 1");
        assert!(!s.is_legal(1, 3), "lands on coin 0");
        assert!(!s.is_legal(1, 4), "passes coin 0");
        assert!(!s.is_legal(0, 2), "leaves the strip");
        assert!(!s.is_legal(0, 0), "zero distance");
        assert!(!s.is_legal(2, 1), "no coin 2");
        assert!(s.is_legal(1, 2));
        assert!(s.is_legal(0, 1));
        assert_eq!(parse_move("-1 2"), None);
        assert_eq!(parse_move("1"), None);
        assert_eq!(parse_move(" 1   2 "), Some((1, 2)));
    }

    #[test]
    fn already_finished_start_announces_player_2() {
        let setup = Setup::new(Start::Strip(parse_strip("0 1 _").expect("strip")));
        let text = record(&setup, &["2"]).expect("the reference plays").transcript.terminal_text();
        assert_eq!(
            text,
            "Enter the number of coins: 2\n0 1 _\nPlayer 2 wins!\n"
        );
    }

    #[test]
    fn random_strips_follow_the_drawing_rule_and_are_deterministic() {
        for seed in 0..200 {
            let s = CoinStrip::random(5, seed);
            assert_eq!(s, CoinStrip::random(5, seed));
            assert!(s.positions[0] <= 5);
            for pair in s.positions.windows(2) {
                assert!((1..=6).contains(&(pair[1] - pair[0])));
            }
            assert_eq!(s.length, s.positions[4] + 1);
        }
        let firsts: std::collections::BTreeSet<usize> = (0..200)
            .map(|seed| CoinStrip::random(1, seed).positions[0])
            .collect();
        assert_eq!(firsts.len(), 6, "all six starting squares occur");
    }

    #[test]
    fn seeded_game_draws_after_the_coin_count() {
        let text = record(&Setup::new(Start::Seeded(7)), &["3"]).expect("the reference plays")
            .transcript
            .terminal_text();
        let board = CoinStrip::random(3, 7);
        let line = if board.has_move() {
            format!("{}\nPlayer 1: Enter your move: ", board.render())
        } else {
            format!("{}\nPlayer 2 wins!\n", board.render())
        };
        assert_eq!(text, format!("Enter the number of coins: 3\n{line}"));
    }

    #[test]
    fn arguments() {
        let args =
            |a: &[&str]| Start::from_args(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(args(&[]).ok(), Some(Start::Seeded(0)));
        assert_eq!(args(&["--seed", "42"]).ok(), Some(Start::Seeded(42)));
        assert_eq!(
            args(&["--board", "_ 0 1"]).ok(),
            Some(Start::Strip(vec![None, Some(0), Some(1)]))
        );
        for bad in [
            &["--seed"][..],
            &["--seed", "-1"],
            &["--board", "_ 1 0"],
            &["--board", "_ _"],
            &["--board", "x 0"],
            &["--seed", "1", "--board", "0"],
            &["--size", "3"],
        ] {
            assert!(matches!(args(bad), Err(SetupError::Usage(_))), "{bad:?}");
        }
    }
}
