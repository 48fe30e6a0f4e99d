//! The Game of M's random games and rule table: the generator `grade explore` and the
//! random-games case play, and the rules of the reference a game exercised.

use crate::assignments::m::game::{self as m, GameOfM};
use crate::drive::generate::{huge_numbers, Game, Rng, HUGE, ILLEGAL_PERCENT, MAX_LINES};
use crate::games::Setup;

/// M's rule table (docs/explore.md).
pub const RULES: &[&str] = &[
    "insert scoring 1",
    "insert scoring 2",
    "insert scoring 3",
    "number 0 placed",
    "number 9 placed",
    "position 1 filled",
    "position 10 filled",
    "error: number used",
    "error: position occupied",
    "error: number below 0",
    "error: number above 9",
    "error: position below 1",
    "error: position above 10",
    "number past 32 bits",
    "number past 64 bits",
    "player 1 wins",
    "player 2 wins",
    "tie",
    "score of 10 or more",
];

/// The Game of M: unused numbers in empty positions; "edges" games favour the first and last
/// number and position; errors: used numbers, occupied positions, one past each end of both
/// ranges, and in "huge" games numbers past 32 and 64 bits (any message: the handout's
/// wording is free).
pub fn generate(rng: &mut Rng, mode: &'static str) -> Option<Game> {
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
        driver: None,
        mode,
    })
}

/// The Game of M's rules a game exercised.
pub fn rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    let mut hit = m_rules(&game.lines, text);
    hit.extend(huge_numbers(game));
    hit
}

fn m_rules(lines: &[String], text: &str) -> Vec<&'static str> {
    let mut hit = Vec::new();
    let mut game = GameOfM::new();
    let mut player = 0;
    for pair in lines.chunks(2) {
        let [number, position] = pair else { break };
        let problems = game.problems(number, position);
        for problem in &problems {
            match *problem {
                m::ERR_USED => hit.push("error: number used"),
                m::ERR_OCCUPIED => hit.push("error: position occupied"),
                m::ERR_NUMBER_RANGE => hit.push(if number.trim().starts_with('-') {
                    "error: number below 0"
                } else {
                    "error: number above 9"
                }),
                m::ERR_POSITION_RANGE => {
                    hit.push(if position.trim().parse::<i64>().is_ok_and(|p| p < 1) {
                        "error: position below 1"
                    } else {
                        "error: position above 10"
                    })
                }
                _ => {}
            }
        }
        if !problems.is_empty() {
            continue;
        }
        let (Ok(n), Ok(p)) = (
            number.trim().parse::<u8>(),
            position.trim().parse::<usize>(),
        ) else {
            continue;
        };
        let points = game.insert(player, n, p - 1);
        player = 1 - player;
        hit.push(match points {
            1 => "insert scoring 1",
            2 => "insert scoring 2",
            _ => "insert scoring 3",
        });
        if n == 0 {
            hit.push("number 0 placed");
        }
        if n == 9 {
            hit.push("number 9 placed");
        }
        if p == 1 {
            hit.push("position 1 filled");
        }
        if p == m::SLOTS {
            hit.push("position 10 filled");
        }
        if game.scores.iter().any(|&s| s >= 10) {
            hit.push("score of 10 or more");
        }
    }
    for (rule, line) in [
        ("player 1 wins", "Player 1 wins!"),
        ("player 2 wins", "Player 2 wins!"),
        ("tie", "It's a tie!"),
    ] {
        if text.contains(line) {
            hit.push(rule);
        }
    }
    hit
}

#[cfg(test)]
mod tests {
    #[test]
    fn steering_reaches_every_rule_within_a_modest_budget() {
        for seed in [1, 2, 3] {
            let missed = crate::explore::coverage::tests::missed(super::super::ASSIGNMENT, seed, 30);
            assert!(missed.is_empty(), "seed {seed}: {missed:?}");
        }
    }
}
