//! Which rules of the reference game a generated game exercised, and generation steered
//! toward the rules not yet hit.
//!
//! A rule is a branch of the handout's game as the reference plays it: each error message,
//! each scoring branch, each way a game ends, each win direction at each edge of the board,
//! the replay. A game's rules are read from the game itself (its input, replayed with the
//! reference's own rules) and from the reference's transcript, never from a student's run.

use std::collections::BTreeMap;

use crate::assignments::{Assignment, Explore, RulesHit};
use crate::drive::generate::Game;
use crate::games;

/// Every rule of `assignment` that exploration tries to reach (the assignment's rule table,
/// docs/explore.md).
pub fn rules(assignment: Assignment) -> &'static [&'static str] {
    match assignment.def().explore {
        Explore::Generator(generator) => generator.rules,
        Explore::Unavailable(_) => &[],
    }
}

/// The rules `game` exercises.
pub fn rules_hit(assignment: Assignment, game: &Game) -> Vec<&'static str> {
    let Explore::Generator(generator) = assignment.def().explore else {
        return Vec::new();
    };
    let mut hit = match generator.rules_hit {
        RulesHit::FromInput(rules_hit) => rules_hit(game),
        RulesHit::FromTranscript(rules_hit) => {
            // A reference that could not play its game reaches no rule.
            let Ok(recording) = games::record(&game.setup, &game.lines) else {
                return Vec::new();
            };
            rules_hit(game, &recording.transcript.terminal_text())
        }
    };
    hit.sort_unstable();
    hit.dedup();
    hit
}

/// Generates game `index` of a budget, steered toward rules not yet in `hit`: a few
/// candidates are drawn (each in the next mode of the assignment's cycle) and the one that
/// reaches the most rules not yet hit is played (the first of them on a tie, the first
/// candidate when none reaches a new rule). Deterministic for a seed and the rules hit so far.
pub fn steered_game(
    assignment: Assignment,
    seed: u64,
    index: usize,
    hit: &BTreeMap<&'static str, usize>,
) -> Option<(Game, Vec<&'static str>)> {
    const CANDIDATES: usize = 6;
    // (a candidate that is no game, e.g. a collect board without a move, is skipped, and
    // more are drawn until six are games or 24 were tried)
    let modes = assignment.modes();
    if modes.is_empty() {
        return None;
    }
    if rules(assignment).is_empty() {
        // No rule table to steer toward (an instructor's own vocabulary): the first game.
        return (0..CANDIDATES * 4).find_map(|candidate| {
            let mode = modes[(index + candidate) % modes.len()];
            let candidate_seed = seed ^ (candidate as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            assignment
                .random_game_in_mode(candidate_seed, mode)
                .map(|g| (g, Vec::new()))
        });
    }
    let mut best: Option<(usize, Game, Vec<&'static str>)> = None;
    let mut games = 0;
    for candidate in 0..CANDIDATES * 4 {
        if games == CANDIDATES {
            break;
        }
        let mode = modes[(index + candidate) % modes.len()];
        let candidate_seed = seed ^ (candidate as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let Some(game) = assignment.random_game_in_mode(candidate_seed, mode) else {
            continue;
        };
        games += 1;
        let rules = rules_hit(assignment, &game);
        let new = rules.iter().filter(|r| !hit.contains_key(*r)).count();
        if best.as_ref().is_none_or(|(most, _, _)| new > *most) {
            best = Some((new, game, rules));
        }
    }
    best.map(|(_, game, rules)| (game, rules))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The rules a budget of `games` steered games misses (each assignment's tests ask it of
    /// their own budget).
    pub(crate) fn missed(assignment: Assignment, seed: u64, games: usize) -> Vec<&'static str> {
        let mut hit = BTreeMap::new();
        for index in 0..games {
            let game_seed = seed
                .wrapping_add(index as u64)
                .wrapping_mul(0x2545_f491_4f6c_dd1d);
            if let Some((_, rules)) = steered_game(assignment, game_seed, index, &hit) {
                for rule in rules {
                    *hit.entry(rule).or_insert(0) += 1;
                }
            }
        }
        rules(assignment)
            .iter()
            .copied()
            .filter(|r| !hit.contains_key(r))
            .collect()
    }

    #[test]
    fn every_rule_a_game_reports_is_in_its_table() {
        for &assignment in crate::assignments::ASSIGNMENTS {
            if rules(assignment).is_empty() {
                continue;
            }
            for seed in 0..20 {
                // (a generator may make no game, e.g. a collect board without a move)
                let Some(game) = assignment.random_game(seed) else {
                    continue;
                };
                for rule in rules_hit(assignment, &game) {
                    assert!(
                        rules(assignment).contains(&rule),
                        "{assignment}: '{rule}' is not in the rule table"
                    );
                }
            }
        }
    }
}
