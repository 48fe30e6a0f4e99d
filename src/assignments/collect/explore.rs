//! Collect's random games and rule table: the generator `grade explore` and the
//! random-games case play, and the rules of the reference a game exercised.

use crate::assignments::collect::game::{self as collect, Board as CollectBoard, Selection};
use crate::drive::generate::{Game, Rng, HUGE, MAX_LINES};
use crate::games::Setup;

/// Collect's rule table (docs/explore.md).
pub const RULES: &[&str] = &[
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

/// The collect game on a random board the program reads from its file: "plain" boards of a
/// few digits, "big" boards of one or two digits (groups of ten and more, scores of several
/// digits, up to the handout's 7×11), and the digits 0 and 9 at either end of the range.
/// Errors: row or column 0 and one past the edge, a number with no equal neighbour, and in
/// "bounds"/"huge" games negative coordinates and numbers past 32 and 64 bits (only "out of
/// bounds" has a fixed message, so there any informative message counts).
pub fn generate(rng: &mut Rng, mode: &'static str) -> Option<Game> {
    let (height, width, values): (usize, usize, Vec<u64>) = match mode {
        "big" => {
            let a = rng.below(10);
            let b = rng.below(10);
            (
                4 + rng.below(4) as usize,
                6 + rng.below(6) as usize,
                if rng.chance(30) { vec![a] } else { vec![a, b] },
            )
        }
        _ => {
            let count = 1 + rng.below(4) as usize;
            let mut digits: Vec<u64> = (0..count).map(|_| rng.below(10)).collect();
            if rng.chance(30) {
                digits[0] = if rng.chance(50) { 0 } else { 9 };
            }
            (1 + rng.below(6) as usize, 1 + rng.below(8) as usize, digits)
        }
    };
    let rows: Vec<String> = (0..height)
        .map(|_| {
            (0..width)
                .map(|_| rng.pick(&values).copied().unwrap_or(1).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = rows.join("\n");
    let start = CollectBoard::parse(std::path::Path::new("input.txt"), &text).ok()?;
    let mut board = start.clone();
    let mut lines = Vec::new();
    let mut free_messages = false;
    let mut moved = false;
    while board.has_move() && lines.len() < MAX_LINES {
        let (h, w) = (board.height() as u64, board.width() as u64);
        // Only moves that keep every row: once a top row empties, programs may legitimately
        // differ (drop it, or keep it and count it), so the game ends before that.
        let keeps_rows = |r: usize, c: usize| {
            let mut after = board.clone();
            after.collect(r, c).is_some() && after.height() == board.height()
        };
        let cells: Vec<(usize, usize)> = (0..board.height())
            .flat_map(|r| (0..board.width()).map(move |c| (r, c)))
            .collect();
        let movable: Vec<(usize, usize)> = cells
            .iter()
            .copied()
            .filter(|&(r, c)| keeps_rows(r, c))
            .collect();
        if movable.is_empty() {
            break;
        }
        // (a game ends before the top row empties, so probes of the edges come early)
        let illegal_percent = match mode {
            "bounds" | "huge" => 50,
            _ => 25,
        };
        let line = if rng.chance(illegal_percent) {
            // out of range (0 or one past the edge, in either coordinate), or a number with no
            // equal neighbour (never a blank cell: its message is the program's own)
            let lonely: Vec<(usize, usize)> = cells
                .iter()
                .copied()
                .filter(|&(r, c)| board.group(r, c).len() == 1)
                .collect();
            let (row, col) = (1 + rng.below(h), 1 + rng.below(w));
            match (mode, rng.below(6), rng.pick(&lonely)) {
                ("bounds" | "huge", 0 | 1, _) => {
                    free_messages = true;
                    if mode == "huge" {
                        let huge = rng.pick(&HUGE).unwrap_or(&HUGE[0]);
                        if rng.chance(50) {
                            format!("{huge} {col}")
                        } else {
                            format!("{row} {huge}")
                        }
                    } else if rng.chance(50) {
                        format!("-{} {col}", 1 + rng.below(h))
                    } else {
                        format!("{row} -{}", 1 + rng.below(w))
                    }
                }
                (_, 0, _) => format!("0 {col}"),
                (_, 1, _) => format!("{row} 0"),
                (_, 2, _) => format!("{} {col}", h + 1),
                (_, 3, _) | (_, _, None) => format!("{row} {}", w + 1),
                (_, _, Some(&(r, c))) => format!("{} {}", r + 1, c + 1),
            }
        } else {
            match rng.pick(&movable) {
                Some(&(r, c)) => format!("{} {}", r + 1, c + 1),
                None => break,
            }
        };
        if let Selection::Cell(r, c) = collect::parse_selection(&line, &board) {
            moved |= board.collect(r, c).is_some();
        }
        lines.push(line);
    }
    // A game with no accepted move compares only the start (a board with no move at all is
    // a decision the handout leaves open): not a game.
    if !moved {
        return None;
    }
    Some(Game {
        setup: Setup::new(start),
        board_file: Some(text),
        lines,
        free_messages,
        driver: None,
        mode,
    })
}

/// Collect's rules a game exercised.
pub fn rules_hit(game: &Game, text: &str) -> Vec<&'static str> {
    collect_rules(game, text)
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

#[cfg(test)]
mod tests {
    #[test]
    fn steering_reaches_every_rule_within_a_modest_budget() {
        for seed in [1, 2, 3] {
            let missed = crate::explore::coverage::tests::missed(super::super::ASSIGNMENT, seed, 40);
            assert!(missed.is_empty(), "seed {seed}: {missed:?}");
        }
    }
}
