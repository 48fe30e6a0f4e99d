//! Which random games a budget plays: generated in turn, steered toward the rules not yet
//! reached, and a built-in assignment's first games of a seed shared by every grading of the
//! process (a class plays the same games for every student).

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

use super::{coverage, game_seed, RuleCoverage};
use crate::assignments::Assignment;
use crate::drive::generate::Game;
use crate::games::Setup;

/// Game `index` of the budget seeded `seed`, steered toward the rules `hit` does not hold
/// yet; counts the rules it exercises into `hit`. Callers ask for games 0, 1, 2, … in turn
/// with `hit` starting empty, so a game depends on its assignment, seed and index alone:
/// a built-in assignment's first [`SHARED_GAMES`] games of a seed are generated once per
/// process and shared (a class run plays the same random games for every student).
pub(super) fn next_game(
    assignment: Assignment,
    seed: u64,
    index: usize,
    hit: &mut BTreeMap<&'static str, usize>,
) -> Option<Game> {
    let (game, rules) = if assignment.kind().shares_first_games() && index < SHARED_GAMES {
        shared_game(assignment, seed, index)?
    } else {
        coverage::steered_game(assignment, game_seed(seed, index), index, hit)?
    };
    for rule in rules {
        *hit.entry(rule).or_insert(0) += 1;
    }
    Some(game)
}

/// Games of one seed kept per process at most: more than any random-games case plays; a
/// long `grade explore` generates the rest as it goes.
pub(super) const SHARED_GAMES: usize = 64;

/// The games of one seed generated so far, each with the rules it exercises, and those rules
/// counted (what steers the next game).
#[derive(Default)]
struct SharedGames {
    games: Vec<Option<(Game, Vec<&'static str>)>>,
    hit: BTreeMap<&'static str, usize>,
}

/// Game `index` (below [`SHARED_GAMES`]) of a built-in assignment's seed, and the rules it
/// exercises: generated the first time any grading of this process asks for it.
pub(super) fn shared_game(
    assignment: Assignment,
    seed: u64,
    index: usize,
) -> Option<(Game, Vec<&'static str>)> {
    type Shared = HashMap<(Assignment, u64), Arc<Mutex<SharedGames>>>;
    static SHARED: OnceLock<Mutex<Shared>> = OnceLock::new();
    let entry = {
        let mut all = SHARED
            .get_or_init(Mutex::default)
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        Arc::clone(all.entry((assignment, seed)).or_default())
    };
    let mut shared = entry.lock().unwrap_or_else(PoisonError::into_inner);
    while shared.games.len() <= index {
        let next = shared.games.len();
        let made = coverage::steered_game(assignment, game_seed(seed, next), next, &shared.hit);
        for rule in made.iter().flat_map(|(_, rules)| rules) {
            *shared.hit.entry(rule).or_insert(0) += 1;
        }
        shared.games.push(made);
    }
    shared.games.get(index).cloned().flatten()
}

/// `game` played on `setup` (a variant's reference) unless it brings its own board.
pub(super) fn with_setup(game: Game, setup: Option<&Setup>) -> Game {
    match setup {
        Some(setup) if game.board_file.is_none() => Game {
            setup: setup.clone(),
            ..game
        },
        _ => game,
    }
}

/// The games a random-games case seeded `seed` plays, in order, without running any program:
/// what a benchmark's floor runs to compare like with like.
pub fn generated_games(assignment: Assignment, seed: u64, games: usize) -> Vec<Game> {
    let mut hit = BTreeMap::new();
    (0..games)
        .filter_map(|index| next_game(assignment, seed, index, &mut hit))
        .collect()
}

/// The coverage of the reference's rules that `games` games seeded `seed` reach, without
/// running any program (the games are the ones exploration and the random-games case play).
pub fn planned_coverage(assignment: Assignment, seed: u64, games: usize) -> Vec<RuleCoverage> {
    let mut hit = BTreeMap::new();
    for index in 0..games {
        let _ = next_game(assignment, seed, index, &mut hit);
    }
    coverage_of(assignment, &hit)
}

pub(super) fn coverage_of(
    assignment: Assignment,
    hit: &BTreeMap<&'static str, usize>,
) -> Vec<RuleCoverage> {
    coverage::rules(assignment)
        .iter()
        .map(|rule| RuleCoverage {
            rule: (*rule).to_string(),
            games: hit.get(rule).copied().unwrap_or(0),
        })
        .collect()
}
