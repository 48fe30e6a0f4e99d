//! Which rules of the reference game a generated game exercised, and generation steered
//! toward the rules not yet hit.
//!
//! A rule is a branch of the handout's game as the reference plays it: each error message,
//! each scoring branch, each way a game ends, each win direction at each edge of the board,
//! the replay. A game's rules are read from the game itself (its input, replayed with the
//! reference's own rules) and from the reference's transcript, never from a student's run.

use std::collections::BTreeMap;

use crate::assignments::collect::game::{self as collect, Selection};
use crate::assignments::connect6::game::{self as connect6, Board as Connect6Board};
use crate::assignments::m::game::{self as m, GameOfM};
use crate::assignments::nim::game as nim;
use crate::assignments::{Assignment, Explore};
use crate::drive::generate::{self, Game, HUGE};
use crate::games;

/// Every rule of `assignment` that exploration tries to reach (the assignment's rule table,
/// docs/explore.md).
pub fn rules(assignment: Assignment) -> &'static [&'static str] {
    match assignment.def().explore {
        Explore::Generator(generator) => generator.rules,
        Explore::Unavailable(_) => &[],
    }
}

/// Nim's rule table (docs/explore.md).
pub const NIM_RULES: &[&str] = &[
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

/// M's rule table (docs/explore.md).
pub const M_RULES: &[&str] = &[
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

/// Connect6's rule table (docs/explore.md).
pub const CONNECT6_RULES: &[&str] = &[
    "black wins",
    "white wins",
    "draw (full board)",
    "win horizontal",
    "win vertical",
    "win diagonal down-right",
    "win diagonal up-right",
    "win with seven or more",
    "six on the top edge",
    "six on the bottom edge",
    "six on the left edge",
    "six on the right edge",
    "six in a corner",
    "invalid: occupied",
    "invalid: lowercase column",
    "invalid: row past the board",
    "invalid: column past the board",
    "invalid: negative row",
    "invalid: row past 32 or 64 bits",
    "invalid: not a column letter",
];

/// Collect's rule table (docs/explore.md).
pub const COLLECT_RULES: &[&str] = &[
    "group collected",
    "column removed",
    "cells fall",
    "score of 10 or more in one move",
    "digit 0 collected",
    "digit 9 collected",
    "no movement (no equal neighbour)",
    "out of bounds: row 0",
    "out of bounds: column 0",
    "out of bounds: row past the edge",
    "out of bounds: column past the edge",
    "out of bounds: negative",
    "out of bounds: past 32 or 64 bits",
    "game over",
];

/// The rules `game` exercises.
pub fn rules_hit(assignment: Assignment, game: &Game) -> Vec<&'static str> {
    let Explore::Generator(generator) = assignment.def().explore else {
        return Vec::new();
    };
    let text = games::record(&game.setup, &game.lines)
        .transcript
        .terminal_text();
    let mut hit = (generator.rules_hit)(game, &text);
    hit.sort_unstable();
    hit.dedup();
    hit
}

/// The numbers past 32 and 64 bits typed in a game.
fn huge_numbers(game: &Game) -> Vec<&'static str> {
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

/// Nim's rules a game exercised (for [`crate::assignments::Generator::rules_hit`]).
pub fn nim_rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    let mut hit = nim_rules(text);
    hit.extend(huge_numbers(game));
    hit
}

/// The Game of M's rules a game exercised.
pub fn m_rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    let mut hit = m_rules(&game.lines, text);
    hit.extend(huge_numbers(game));
    hit
}

/// Connect6's rules a game exercised.
pub fn connect6_rules_hit(game: &Game, _text: &str) -> Vec<&'static str> {
    connect6_rules(&game.lines)
}

/// Collect's rules a game exercised.
pub fn collect_rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    collect_rules(game, text)
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

fn connect6_rules(lines: &[String]) -> Vec<&'static str> {
    let mut hit = Vec::new();
    let size = connect6::DEFAULT_SIZE;
    let mut board = Connect6Board::new(size);
    let mut placed = 0;
    for line in lines {
        let Some((row, col)) = board.parse_move(line) else {
            let text = line.trim();
            let mut chars = text.chars();
            let letter = chars.next().unwrap_or(' ');
            let rest = chars.as_str();
            hit.push(if letter.is_ascii_lowercase() {
                "invalid: lowercase column"
            } else if !letter.is_ascii_uppercase() {
                "invalid: not a column letter"
            } else if rest.starts_with('-') {
                "invalid: negative row"
            } else if rest.len() > 9 {
                "invalid: row past 32 or 64 bits"
            } else if usize::from(letter as u8 - b'A') >= size {
                "invalid: column past the board"
            } else if rest.parse::<usize>().is_ok_and(|r| r >= size) {
                "invalid: row past the board"
            } else {
                "invalid: occupied"
            });
            continue;
        };
        let stone = connect6::player_for(placed);
        board.place(row, col, stone);
        placed += 1;
        if board.wins_at(row, col) {
            hit.push(match stone {
                connect6::Stone::Black => "black wins",
                connect6::Stone::White => "white wins",
            });
            hit.extend(win_shape(&board, row, col));
            return hit;
        }
        if board.is_full() {
            hit.push("draw (full board)");
        }
    }
    hit
}

/// The direction of the six through (`row`, `col`) and the edges it touches.
fn win_shape(board: &Connect6Board, row: usize, col: usize) -> Vec<&'static str> {
    let stone = board.get(row, col);
    let last = board.size() - 1;
    let mut hit = Vec::new();
    for ((dr, dc), name) in [
        ((0, 1), "win horizontal"),
        ((1, 0), "win vertical"),
        ((1, 1), "win diagonal down-right"),
        ((-1, 1), "win diagonal up-right"),
    ] {
        let mut cells = vec![(row, col)];
        for sign in [1isize, -1] {
            let (mut r, mut c) = (row, col);
            while let (Some(nr), Some(nc)) = (
                r.checked_add_signed(dr * sign),
                c.checked_add_signed(dc * sign),
            ) {
                if nr > last || nc > last || board.get(nr, nc) != stone {
                    break;
                }
                cells.push((nr, nc));
                (r, c) = (nr, nc);
            }
        }
        if cells.len() < connect6::WIN_LENGTH {
            continue;
        }
        hit.push(name);
        if cells.len() > connect6::WIN_LENGTH {
            hit.push("win with seven or more");
        }
        let top = cells.iter().any(|&(r, _)| r == 0);
        let bottom = cells.iter().any(|&(r, _)| r == last);
        let left = cells.iter().any(|&(_, c)| c == 0);
        let right = cells.iter().any(|&(_, c)| c == last);
        for (touches, edge) in [
            (top, "six on the top edge"),
            (bottom, "six on the bottom edge"),
            (left, "six on the left edge"),
            (right, "six on the right edge"),
        ] {
            if touches {
                hit.push(edge);
            }
        }
        let corner = cells
            .iter()
            .any(|&(r, c)| (r == 0 || r == last) && (c == 0 || c == last));
        if corner {
            hit.push("six in a corner");
        }
    }
    hit
}

fn collect_rules(game: &Game, text: &str) -> Vec<&'static str> {
    let mut hit = Vec::new();
    let Some(start) = game.setup.get::<collect::Board>() else {
        return hit;
    };
    let mut board = start.clone();
    for line in &game.lines {
        let numbers: Vec<&str> = line.split_whitespace().collect();
        match collect::parse_selection(line, &board) {
            Selection::Cell(r, c) => {
                let value = board.get(r, c);
                let group = board.group(r, c);
                let width = board.width();
                // A cell above the group, not in it, falls into its place.
                let falls = group.iter().any(|&(gr, gc)| {
                    (0..gr).any(|above| {
                        board.get(above, gc).is_some() && !group.contains(&(above, gc))
                    })
                });
                let Some(points) = board.collect(r, c) else {
                    hit.push("no movement (no equal neighbour)");
                    continue;
                };
                hit.push("group collected");
                if falls {
                    hit.push("cells fall");
                }
                if board.width() < width {
                    hit.push("column removed");
                }
                if points >= 10 {
                    hit.push("score of 10 or more in one move");
                }
                match value {
                    Some(0) => hit.push("digit 0 collected"),
                    Some(9) => hit.push("digit 9 collected"),
                    _ => {}
                }
            }
            Selection::BadSize => {
                let parsed: Vec<Option<i128>> = numbers.iter().map(|t| t.parse().ok()).collect();
                let (h, w) = (board.height() as i128, board.width() as i128);
                hit.push(match parsed.as_slice() {
                    [Some(r), Some(c)] if *r < 0 || *c < 0 => "out of bounds: negative",
                    [Some(0), _] => "out of bounds: row 0",
                    [_, Some(0)] => "out of bounds: column 0",
                    [Some(r), Some(c)] if *r > u32::MAX as i128 || *c > u32::MAX as i128 => {
                        "out of bounds: past 32 or 64 bits"
                    }
                    [Some(r), _] if *r > h => "out of bounds: row past the edge",
                    [_, Some(c)] if *c > w => "out of bounds: column past the edge",
                    _ => "out of bounds: past 32 or 64 bits",
                });
            }
        }
    }
    if text.contains(collect::GAME_OVER) {
        hit.push("game over");
    }
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
    let modes = generate::modes(assignment);
    if modes.is_empty() {
        return None;
    }
    if rules(assignment).is_empty() {
        // No rule table to steer toward (an instructor's own vocabulary): the first game.
        return (0..CANDIDATES * 4).find_map(|candidate| {
            let mode = modes[(index + candidate) % modes.len()];
            let candidate_seed = seed ^ (candidate as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            generate::game_in_mode(assignment, candidate_seed, mode).map(|g| (g, Vec::new()))
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
        let Some(game) = generate::game_in_mode(assignment, candidate_seed, mode) else {
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
mod tests {
    use super::*;

    /// The rules a budget of `games` steered games reaches, and those it misses.
    fn missed(assignment: Assignment, seed: u64, games: usize) -> Vec<&'static str> {
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
                // (a collect board without a move is no game)
                let Some(game) = generate::game(assignment, seed) else {
                    assert_eq!(assignment, crate::assignments::collect::ASSIGNMENT);
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

    #[test]
    fn a_full_board_draw_is_reached() {
        let game = generate::game_in_mode(crate::assignments::connect6::ASSIGNMENT, 3, "draw")
            .expect("a game");
        assert!(
            rules_hit(crate::assignments::connect6::ASSIGNMENT, &game)
                .contains(&"draw (full board)"),
            "{:?}",
            game.lines.len()
        );
    }

    #[test]
    fn steering_reaches_every_rule_within_a_modest_budget() {
        for (assignment, games) in [
            (crate::assignments::nim::ASSIGNMENT, 40),
            (crate::assignments::m::ASSIGNMENT, 30),
            (crate::assignments::connect6::ASSIGNMENT, 20),
            (crate::assignments::collect::ASSIGNMENT, 40),
        ] {
            for seed in [1, 2, 3] {
                let missed = missed(assignment, seed, games);
                assert!(missed.is_empty(), "{assignment} seed {seed}: {missed:?}");
            }
        }
    }
}
