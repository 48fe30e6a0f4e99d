//! Nim's random games and rule table: the generator `grade explore` and the random-games case
//! play, and the rules of the reference a game exercised.

use crate::assignments::nim::game as nim;
use crate::drive::generate::{
    huge_numbers, screen_after, Game, Rng, HUGE, ILLEGAL_PERCENT, MAX_LINES,
};
use crate::run::InputSource;
use crate::transcript::Transcript;
use crate::games::Setup;

/// Nim's rule table (docs/explore.md).
pub const RULES: &[&str] = &[
    "player goes first",
    "computer goes first",
    "computer move at matches % 4 = 0",
    "computer move at matches % 4 = 1",
    "computer move at matches % 4 = 2",
    "computer move at matches % 4 = 3",
    "pile a multiple of five",
    "computer wins",
    "player wins",
    "replay",
    "replay of a replay",
    "error: not Y or N",
    "error: not a number",
    "error: less than one",
    "error: more than three",
    "number past 32 bits",
    "number past 64 bits",
];

/// Nim: answers to the first question (with the odd wrong one), legal moves, below and above
/// the range, single non-numeric characters, and in "huge" games numbers past 32 and 64 bits
/// (refused; whether a program calls them too large or not a number is its own choice).
/// "long" games replay up to five rounds. Each line is chosen from what the reference printed
/// since the line before, in one game played as the lines are chosen.
pub fn generate(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let setup = Setup::new(nim::NewGame::HANDOUT);
    let (replays, replay_percent) = if mode == "long" { (5, 90) } else { (3, 40) };
    let mut player = Player {
        rng,
        mode,
        rounds: 0,
        replays,
        replay_percent,
        lines: Vec::new(),
    };
    // The built-in game plays to its end: the lines the player typed are the game.
    crate::drive::record_driven(&setup, &mut player).ok()?;
    Some(Game {
        setup,
        board_file: None,
        lines: player.lines,
        free_messages: mode == "huge",
        driver: None,
        mode,
    })
}

/// Types a generated Nim game into the reference as it is played.
struct Player<'r> {
    rng: &'r mut Rng,
    mode: &'static str,
    rounds: usize,
    replays: usize,
    replay_percent: u64,
    lines: Vec<String>,
}

impl InputSource for Player<'_> {
    fn next_line(&mut self, transcript: &Transcript) -> Option<String> {
        if self.lines.len() >= MAX_LINES {
            return None;
        }
        let screen = screen_after(transcript, self.lines.last());
        let line = self.choose(&screen);
        self.lines.push(line.clone());
        Some(line)
    }

    fn remaining(&self) -> usize {
        0
    }
}

impl Player<'_> {
    /// The next line for the reference that printed `screen` since the last line typed.
    fn choose(&mut self, screen: &str) -> String {
        let rng = &mut *self.rng;
        let yes_no_error = rng.chance(8);
        if screen.ends_with(nim::PLAY_AGAIN) || screen.ends_with(nim::GO_FIRST) {
            let again = screen.ends_with(nim::PLAY_AGAIN);
            return if yes_no_error {
                rng.pick(&["x", "2", "0"]).unwrap_or(&"x").to_string()
            } else if again {
                self.rounds += 1;
                let more = self.rounds < self.replays && rng.chance(self.replay_percent);
                let answers: &[&str] = if more { &["y", "Y"] } else { &["n", "N"] };
                rng.pick(answers).unwrap_or(&"n").to_string()
            } else {
                rng.pick(&["y", "n", "Y", "N"]).unwrap_or(&"y").to_string()
            };
        }
        let left = screen
            .lines()
            .rfind(|l| l.contains("Matches:"))
            .map_or(21, |l| l.matches('|').count() as u64);
        if rng.chance(ILLEGAL_PERCENT) {
            if self.mode == "huge" && rng.chance(60) {
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
    }
}

/// Nim's rules a game exercised (for [`crate::assignments::Generator::rules_hit`]).
pub fn rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    let mut hit = nim_rules(text);
    hit.extend(huge_numbers(game));
    hit
}

fn nim_rules(text: &str) -> Vec<&'static str> {
    let mut hit = Vec::new();
    let mut add = |cond: bool, rule: &'static str| {
        if cond {
            hit.push(rule);
        }
    };
    add(text.contains(nim::ERR_YES_NO), "error: not Y or N");
    add(text.contains(nim::ERR_NOT_NUMBER), "error: not a number");
    add(text.contains(nim::ERR_TOO_FEW), "error: less than one");
    add(text.contains(nim::ERR_TOO_MANY), "error: more than three");
    let rounds = text.matches(nim::PLAY_AGAIN).count();
    let replays = text.matches(nim::GO_FIRST).count().saturating_sub(1);
    add(rounds > 0 && replays >= 1, "replay");
    add(replays >= 2, "replay of a replay");
    add(
        text.to_lowercase().contains("computer wins"),
        "computer wins",
    );
    add(text.to_lowercase().contains("player wins"), "player wins");
    let mut matches_left: Option<usize> = None;
    for line in text.lines() {
        if let Some(at) = line.find("Matches:") {
            let count = line[at..].matches('|').count();
            matches_left = Some(count);
            add(count > 0 && count % 5 == 0, "pile a multiple of five");
            if line.starts_with("Player Turn") {
                add(true, "player goes first");
            }
        }
        if line.starts_with("Computer removes") {
            if let Some(left) = matches_left {
                add(left % 4 == 0, "computer move at matches % 4 = 0");
                add(left % 4 == 1, "computer move at matches % 4 = 1");
                add(left % 4 == 2, "computer move at matches % 4 = 2");
                add(left % 4 == 3, "computer move at matches % 4 = 3");
            }
        }
    }
    // Who moved first in some round: the first turn line after each go-first question.
    for round in text.split(nim::GO_FIRST).skip(1) {
        let first = round.lines().find(|l| l.contains("Turn - Matches:"));
        match first {
            Some(l) if l.starts_with("Computer") => add(true, "computer goes first"),
            Some(_) => add(true, "player goes first"),
            None => {}
        }
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games;

    #[test]
    fn most_moves_are_legal_and_some_are_not() {
        let mut errors = 0;
        let mut moves = 0;
        for seed in 0..30 {
            let g = crate::assignments::nim::ASSIGNMENT.random_game(seed).expect("nim");
            let text = games::record(&g.setup, &g.lines).expect("the reference plays").transcript.terminal_text();
            errors +=
                text.matches(nim::ERR_TOO_FEW).count() + text.matches(nim::ERR_TOO_MANY).count();
            moves += text.matches(nim::REMOVE_PROMPT).count();
        }
        assert!(errors > 0, "some illegal moves");
        assert!(errors * 4 < moves, "{errors} errors in {moves} moves");
    }

    #[test]
    fn steering_reaches_every_rule_within_a_modest_budget() {
        for seed in [1, 2, 3] {
            let missed = crate::explore::coverage::tests::missed(super::super::ASSIGNMENT, seed, 40);
            assert!(missed.is_empty(), "seed {seed}: {missed:?}");
        }
    }
}
