//! Silver Dollar's random games and rule table. The program draws its own strip, so a game
//! is not a list of lines but a driver's plan (coin count, strategy, illegal moves, length):
//! the program is driven from the strip it printed, and the reference replayed from that
//! same strip, as the driven cases do. For coverage and steering, the same plan is played on
//! a strip the reference draws from the game's seed.

use std::sync::Arc;

use crate::assignments::silver_dollar::driver::{Illegal, Plan, Strategy};
use crate::assignments::silver_dollar::game::{parse_move, CoinStrip, Start};
use crate::drive::generate::{Driven, Game, Rng};
use crate::drive::record_driven;
use crate::games::Setup;

/// Silver Dollar's rule table (docs/explore.md).
pub const RULES: &[&str] = &[
    "one coin",
    "10 or more coins (two-digit coin numbers)",
    "20 or more coins",
    "a coin moves to square 0",
    "a coin moves the whole way to its neighbour",
    "a move of 6 or more squares",
    "illegal: missing coin",
    "illegal: distance 0",
    "illegal: negative distance",
    "illegal: land on a neighbour",
    "illegal: pass a neighbour",
    "illegal: off the edge",
    "player 1 wins",
    "player 2 wins",
    "a long game (40 moves or more)",
];

/// The illegal moves the handout fixes ("an error message should be printed and the current
/// player should again be prompted"). Malformed lines and numbers past what `int` holds are
/// left out: the handout lets programs "assume that all user input ... will be in the
/// expected format" (the robustness-malformed case tests them, only with --robustness).
const ILLEGAL_KINDS: [Illegal; 6] = [
    Illegal::MissingCoin,
    Illegal::ZeroDistance,
    Illegal::NegativeDistance,
    Illegal::LandOnNeighbour,
    Illegal::PassNeighbour,
    Illegal::OffEdge,
];

/// One game's plan, in a mode: "random" games of 1 to 9 coins and random or largest moves
/// with a few illegal moves, "illegal" games with every illegal kind, "many-coins" games of
/// 10 to 30 coins (coin numbers of two digits), "long" games of 10 to 20 coins moved one
/// square at a time.
pub fn generate(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let coins = match mode {
        "random" if rng.chance(15) => 1,
        "random" => 2 + rng.below(8) as usize,
        "illegal" => 3 + rng.below(6) as usize,
        "many-coins" => 10 + rng.below(21) as usize,
        _ => 10 + rng.below(11) as usize,
    };
    let strategy = match mode {
        "long" => Strategy::Smallest,
        _ => match rng.below(10) {
            0..=5 => Strategy::Random,
            6 | 7 => Strategy::Largest,
            _ => Strategy::Winning,
        },
    };
    let mut illegal: Vec<Illegal> = match mode {
        "illegal" => ILLEGAL_KINDS.to_vec(),
        _ => ILLEGAL_KINDS
            .iter()
            .copied()
            .filter(|_| rng.chance(25))
            .collect(),
    };
    // One coin has no neighbour to land on or pass (the game would be drawn again for
    // nothing: see `Plan::reaches_its_rule`).
    if coins < 2 {
        illegal.retain(|kind| !matches!(kind, Illegal::LandOnNeighbour | Illegal::PassNeighbour));
    }
    // Shuffled, so each kind comes at varied points of a game.
    for i in (1..illegal.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        illegal.swap(i, j);
    }
    let plan = Plan {
        coins,
        strategy,
        seed: rng.below(u64::MAX),
        illegal,
        max_moves: 400,
    };
    let setup = Setup::new(Start::Seeded(rng.below(u64::MAX)));
    // The built-in game plays every plan to its end.
    let recording = record_driven(&setup, &mut plan.player()).ok()?;
    let lines: Vec<String> = recording
        .transcript
        .inputs()
        .map(str::to_string)
        .collect();
    Some(Game {
        setup,
        board_file: None,
        lines,
        free_messages: false,
        mode,
        driver: Some(Driven(Arc::new(plan))),
    })
}

/// Silver Dollar's rules a game exercised: its moves replayed on its starting strip, and the
/// winner the reference announced.
pub fn rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    let mut hit = Vec::new();
    let Some((count, moves)) = game.lines.split_first() else {
        return hit;
    };
    let Ok(coins) = count.trim().parse::<usize>() else {
        return hit;
    };
    let mut strip = match game.setup.get::<Start>() {
        Some(Start::Seeded(seed)) => CoinStrip::random(coins, *seed),
        Some(Start::Strip(squares)) => CoinStrip::from_squares(squares),
        None => return hit,
    };
    if coins == 1 {
        hit.push("one coin");
    }
    if coins >= 10 {
        hit.push("10 or more coins (two-digit coin numbers)");
    }
    if coins >= 20 {
        hit.push("20 or more coins");
    }
    let mut legal = 0;
    for line in moves {
        let mut tokens = line.split_whitespace();
        let coin: Option<i64> = tokens.next().and_then(|t| t.parse().ok());
        let distance: Option<i64> = tokens.next().and_then(|t| t.parse().ok());
        if let Some((c, d)) = parse_move(line) {
            let before = strip.positions.clone();
            if strip.apply(c, d) {
                legal += 1;
                if strip.positions[c] == 0 {
                    hit.push("a coin moves to square 0");
                }
                if c > 0 && strip.positions[c] == before[c - 1] + 1 {
                    hit.push("a coin moves the whole way to its neighbour");
                }
                if d >= 6 {
                    hit.push("a move of 6 or more squares");
                }
                continue;
            }
        }
        let (Some(c), Some(d)) = (coin, distance) else {
            continue;
        };
        let p = &strip.positions;
        hit.push(if c < 0 || c as usize >= p.len() {
            "illegal: missing coin"
        } else if d == 0 {
            "illegal: distance 0"
        } else if d < 0 {
            "illegal: negative distance"
        } else {
            let c = c as usize;
            let target = p[c] as i64 - d;
            if target < 0 && c == 0 {
                "illegal: off the edge"
            } else if c > 0 && target == p[c - 1] as i64 {
                "illegal: land on a neighbour"
            } else {
                "illegal: pass a neighbour"
            }
        });
    }
    if legal >= 40 {
        hit.push("a long game (40 moves or more)");
    }
    if text.contains("Player 1 wins") {
        hit.push("player 1 wins");
    }
    if text.contains("Player 2 wins") {
        hit.push("player 2 wins");
    }
    hit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_reaches_every_rule_within_a_modest_budget() {
        for seed in [1, 2, 3] {
            let missed = crate::explore::coverage::tests::missed(super::super::ASSIGNMENT, seed, 16);
            assert!(missed.is_empty(), "seed {seed}: {missed:?}");
        }
    }

    #[test]
    fn a_plan_is_typed_whole_on_the_reference_strip() {
        let game =
            super::super::ASSIGNMENT.random_game_in_mode(7, "illegal")
                .expect("a game");
        let text = crate::games::record(&game.setup, &game.lines).expect("the reference plays")
            .transcript
            .terminal_text();
        assert!(text.contains("Illegal move! Try again."), "{text}");
        assert!(text.contains(" wins!"), "{text}");
        let hit = rules_hit(&game, &text);
        assert!(hit.contains(&"illegal: missing coin"), "{hit:?}");
    }
}
