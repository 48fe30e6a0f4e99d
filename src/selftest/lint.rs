//! What `grade verify` warns about in an instructor's own assignment: settings that grade
//! without an error but not as the instructor meant (docs/new-assignment.md, "Warnings").
//!
//! - **A vocabulary that ends games early.** A vocabulary's game is a list of lines drawn
//!   before it is played; when the reference's game ends first (a line that ends it, such as
//!   a `q`, or lines far more than a game needs), the rest is typed all the same. A program
//!   that reads line by line never reads them; one that reads ahead (all its input first, or
//!   on after its game is over) does, and is graded on input no player would type.
//! - **A game gate over refusals.** A `game: true` check decides whether a game was played
//!   from the items printed after more inputs than the reference read before its first one.
//!   When the reference refuses inputs before that first item, a program that accepts one
//!   prints its items "too early" and can be judged to have played no game; and a gate on a
//!   check whose items are messages (refusals) counts a program that refuses everything as
//!   playing.
//! - **The same files in every case**: per-case `files:` that assignment.yaml's `files:`
//!   would give every run, random games and `grade explore` included.

use std::collections::BTreeMap;

use crate::cases::{Case, CaseSet};
use crate::check::kinds::Compare;
use crate::check::view::{InputShown, View};
use crate::check::{Check, CheckKind};
use crate::games::Recording;
use crate::transcript::Transcript;

/// Games at most of a random-games case recorded to look for early ends.
const GAMES_LOOKED_AT: usize = 40;

/// One warning: the file it is about, and what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// The case file or assignment.yaml, as messages name it.
    pub file: String,
    /// What is wrong and what to do, in one line.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: warning: {}", self.file, self.message)
    }
}

/// Every warning about `set`, an instructor's own assignment, given the reference's
/// recordings of its scripted cases (by case name). None for a built-in assignment.
pub fn warnings(set: &CaseSet, recordings: &BTreeMap<String, Recording>) -> Vec<Warning> {
    let kind = set.assignment.kind();
    let Some(dir) = kind.directory() else {
        return Vec::new();
    };
    let header = dir.join(crate::cases::own::HEADER);
    let header = header.display().to_string();
    let mut found = Vec::new();
    for case in set.cases.iter().filter(|c| c.explore.is_some()) {
        found.extend(games_going_on(case));
    }
    found.extend(gates_on_messages(set));
    for case in set.cases.iter().filter(|c| c.explore.is_none()) {
        if let Some(recording) = recordings.get(&case.name) {
            found.extend(refusals_before_the_gate(case, recording));
        }
    }
    found.extend(files_in_every_case(set, kind.files(), &header));
    found
}

/// Share of the typed lines, at most, that may come after the reference's game ended.
const UNREAD_SHARE: f64 = 1.0 / 3.0;

/// The games of a random-games case, recorded with the reference as the case plays them: a
/// warning when its vocabulary ends games early ([`games_go_on`]).
fn games_going_on(case: &Case) -> Option<Warning> {
    let spec = case.explore.as_ref()?;
    let seed = crate::explore::case_seed(spec.seed, spec.course_seed);
    let games =
        crate::explore::generated_games(case.assignment, seed, spec.games.min(GAMES_LOOKED_AT));
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let recorded = crate::parallel::in_parallel(games.len(), jobs, |index| {
        let game = &games[index];
        // As the case plays them: on its own setup (its arguments and files).
        let setup = match game.board_file {
            None => &case.setup,
            Some(_) => &game.setup,
        };
        // A game the reference failed on is the transcripts' problem, reported elsewhere.
        crate::games::record(setup, &game.lines).ok()
    });
    let played: Vec<PlayedGame> = games
        .iter()
        .zip(recorded)
        .filter_map(|(game, recording)| {
            let recording = recording?;
            let unread = recording.unread_lines.min(game.lines.len());
            let read = game.lines.len() - unread;
            Some(PlayedGame {
                typed: game.lines.len(),
                unread,
                last_read: read
                    .checked_sub(1)
                    .and_then(|i| game.lines.get(i))
                    .cloned()
                    .unwrap_or_default(),
            })
        })
        .collect();
    let message = games_go_on(&played)?;
    Some(Warning {
        file: case.source.clone(),
        message,
    })
}

/// One random game as the reference played it: lines typed, lines it never read (its game
/// was over), and the last line it read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PlayedGame {
    typed: usize,
    unread: usize,
    last_read: String,
}

/// The warning about `games` when the vocabulary ends games early: one line of it ends more
/// than half of the games that end before their input does, and those are a quarter of the
/// games or more (a `q` to quit); or more than a third of the lines typed come after the end
/// (far more lines than a game needs). Games that end on a move of play, at their own points
/// (tic-tac-toe's wins), are neither.
fn games_go_on(games: &[PlayedGame]) -> Option<String> {
    let typed: usize = games.iter().map(|g| g.typed).sum();
    let unread: usize = games.iter().map(|g| g.unread).sum();
    let early: Vec<&PlayedGame> = games.iter().filter(|g| g.unread > 0).collect();
    let mut enders: BTreeMap<&str, usize> = BTreeMap::new();
    for game in &early {
        *enders.entry(game.last_read.as_str()).or_insert(0) += 1;
    }
    let ender = enders
        .into_iter()
        .max_by_key(|(_, count)| *count)
        .filter(|(_, count)| count * 2 > early.len() && early.len() * 4 >= games.len());
    let many_after = typed > 0 && (unread as f64) > UNREAD_SHARE * typed as f64;
    if ender.is_none() && !many_after {
        return None;
    }
    let ended_by = ender
        .map(|(line, count)| format!(" (the line {line:?} ended {count} of them)"))
        .unwrap_or_default();
    Some(format!(
        "in {} of {} random games the reference's game is over before their input is{ended_by}: \
         {unread} of the {typed} lines typed come after the end. A program that reads line by \
         line never reads them; one that reads ahead (all its input first, or on after its game \
         is over) does, and is graded on input no player would type. Leave the line that ends \
         games out of vocabulary.lines (test it in a fixed case), or lower vocabulary.max_lines",
        early.len(),
        games.len()
    ))
}

/// Whether a check's items are messages, not the state of a game: only where, or how many
/// times, a match is printed is compared (`compare: presence` or `count`, `any_wording`).
fn counts_messages(check: &Check) -> bool {
    matches!(
        &check.kind,
        CheckKind::Lines { compare, any_wording, .. }
            if *compare != Compare::Sequence || *any_wording
    )
}

/// A `game: true` check whose items are messages: a program that answers every input with
/// the message (refusing everything) would count as playing. Once per check name.
fn gates_on_messages(set: &CaseSet) -> Vec<Warning> {
    let mut found: Vec<Warning> = Vec::new();
    let mut named: Vec<&str> = Vec::new();
    for case in &set.cases {
        for check in &case.checks {
            if check.kind.is_game()
                && counts_messages(check)
                && !named.contains(&check.name.as_str())
            {
                named.push(&check.name);
                found.push(Warning {
                    file: case.source.clone(),
                    message: format!(
                        "check '{}' has `game: true`, but only where or how often its message is \
                         printed is compared (compare: presence or count): a program that \
                         refuses every input prints it and counts as playing a game. Put \
                         `game: true` on the checks of the boards, turns or scores",
                        check.name
                    ),
                });
            }
        }
    }
    found
}

/// In a scripted case with a `game: true` lines check, inputs the reference refuses (a
/// message check of the case prints after them) before the gate's first item: the gate takes
/// the inputs before that item as the start, so a program that accepts a refused input shows
/// its items early and may be judged to have played no game.
fn refusals_before_the_gate(case: &Case, recording: &Recording) -> Option<Warning> {
    let found = refused_before_gate(&case.checks, &recording.transcript)?;
    Some(Warning {
        file: case.source.clone(),
        message: format!(
            "the reference refuses input {} ({:?}: check '{}') before the first {item} of check \
             '{}' (game: true), printed after input {}. The gate takes the inputs before that \
             first {item} as the start, so a program that accepts the refused input prints its \
             {item}s early and may be judged to have played no game, every other check of the \
             case zeroed. Begin the case with an input the reference accepts, or put `game: \
             true` on a check whose first item comes before any input (the first board)",
            found.input,
            found.line,
            found.message,
            found.gate,
            found.start,
            item = found.item
        ),
    })
}

/// A refused input before the first item of a gate, in one reference transcript.
#[derive(Debug, PartialEq, Eq)]
struct RefusedBeforeGate {
    /// The input, counted from 1, and its line.
    input: usize,
    line: String,
    /// The message check that found the refusal.
    message: String,
    /// The gate, what its items are called, and the inputs before its first one.
    gate: String,
    item: String,
    start: usize,
}

/// The first refused input before the first item of a `game: true` lines check of `checks`
/// in `transcript`: an input after which a message check (`at_inputs`, presence or count) of
/// `checks` finds its message.
fn refused_before_gate(checks: &[Check], transcript: &Transcript) -> Option<RefusedBeforeGate> {
    let view = View::new(transcript, InputShown::LineBreak);
    let inputs: Vec<&str> = transcript.inputs().collect();
    // The inputs (counted from 1) after which a message check's pattern matches.
    let mut refused: BTreeMap<usize, &str> = BTreeMap::new();
    for check in checks.iter().filter(|c| !c.kind.is_game()) {
        let CheckKind::Lines {
            pattern, at_inputs, ..
        } = &check.kind
        else {
            continue;
        };
        if !*at_inputs || !counts_messages(check) {
            continue;
        }
        for found in pattern.captures_in_lines(&view.text) {
            let after = view
                .input_offsets
                .partition_point(|&o| o <= found.line_start);
            if after > 0 {
                refused.entry(after).or_insert(&check.name);
            }
        }
    }
    for gate in checks.iter().filter(|c| c.kind.is_game()) {
        let CheckKind::Lines { pattern, item, .. } = &gate.kind else {
            continue;
        };
        let Some(first) = pattern.captures_in_lines(&view.text).into_iter().next() else {
            continue;
        };
        let offset = first.line_start + first.captured.get(0).map_or(0, |m| m.start());
        let start = view.inputs_before(offset);
        if start == 0 {
            continue;
        }
        if let Some((&input, &message)) = refused.range(1..=start).next() {
            return Some(RefusedBeforeGate {
                input,
                line: inputs.get(input - 1).copied().unwrap_or("").to_string(),
                message: message.to_string(),
                gate: gate.name.clone(),
                item: item.clone(),
                start,
            });
        }
    }
    None
}

/// A file every scripted case lists with the same content, which assignment.yaml does not:
/// `files:` there would give it to every run, random games and `grade explore` included.
fn files_in_every_case(set: &CaseSet, shared: &[(String, Vec<u8>)], header: &str) -> Vec<Warning> {
    let scripted: Vec<&Case> = set.cases.iter().filter(|c| c.explore.is_none()).collect();
    let Some((first, rest)) = scripted.split_first() else {
        return Vec::new();
    };
    if rest.is_empty() {
        return Vec::new();
    }
    first
        .files
        .iter()
        .filter(|file| !shared.contains(file))
        .filter(|file| rest.iter().all(|case| case.files.contains(file)))
        .map(|(name, _)| Warning {
            file: header.to_string(),
            message: format!(
                "all {} cases give the file '{name}' with the same content, each in its own \
                 `files:`: give it once in assignment.yaml's `files:`, where every run gets it \
                 (random games and grade explore too), and take it out of the cases",
                scripted.len()
            ),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Stream;

    /// Checks compiled from YAML, as a case file gives them.
    fn checks(yaml: &str) -> Vec<Check> {
        let specs: Vec<crate::cases::schema::CheckSpec> =
            yaml_serde::from_str(yaml).expect("check specs");
        specs
            .iter()
            .map(|spec| {
                crate::cases::compile::check(spec, crate::assignments::nim::ASSIGNMENT, "checks")
                    .expect("compiles")
            })
            .collect()
    }

    /// A transcript: output, then each (input, output after it).
    fn transcript(start: &str, turns: &[(&str, &str)]) -> Transcript {
        let mut transcript = Transcript::new();
        transcript.push_output(Stream::Stdout, start.as_bytes());
        for (input, output) in turns {
            transcript.push_input((*input).to_string());
            transcript.push_output(Stream::Stdout, output.as_bytes());
        }
        transcript
    }

    const CHECKS: &str = r#"
- {kind: lines, name: totals, item: total, pattern: 'total\D*(\d+)', game: true}
- {kind: lines, name: "Invalid number.", item: message, pattern: 'invalid', at_inputs: true, compare: presence}
"#;

    #[test]
    fn a_refusal_before_the_gates_first_item_is_found() {
        let refused_first = transcript(
            "Add: ",
            &[
                ("x", "Invalid number.\nAdd: "),
                ("2", "Total: 2\nAdd: "),
                ("3", "Total: 5\nAdd: "),
            ],
        );
        assert_eq!(
            refused_before_gate(&checks(CHECKS), &refused_first),
            Some(RefusedBeforeGate {
                input: 1,
                line: "x".into(),
                message: "Invalid number.".into(),
                gate: "totals".into(),
                item: "total".into(),
                start: 2,
            })
        );
        // A refusal after the first total is no start of the gate's.
        let refused_later = transcript(
            "Add: ",
            &[("2", "Total: 2\nAdd: "), ("x", "Invalid number.\nAdd: ")],
        );
        assert_eq!(refused_before_gate(&checks(CHECKS), &refused_later), None);
        // A gate whose first item comes before any input (a total of 0 shown at the start).
        let shown_first = transcript(
            "Total: 0\nAdd: ",
            &[("x", "Invalid number.\nAdd: "), ("2", "Total: 2\nAdd: ")],
        );
        assert_eq!(refused_before_gate(&checks(CHECKS), &shown_first), None);
        // No message check, no refusal known.
        let gate_only =
            checks("- {kind: lines, name: totals, pattern: 'total\\D*(\\d+)', game: true}\n");
        assert_eq!(refused_before_gate(&gate_only, &refused_first), None);
    }

    fn game(typed: usize, unread: usize, last_read: &str) -> PlayedGame {
        PlayedGame {
            typed,
            unread,
            last_read: last_read.to_string(),
        }
    }

    #[test]
    fn a_line_that_ends_games_or_many_lines_after_the_end_are_warned_about() {
        // Tic-tac-toe: games end on the winning cell, a different one each time, with a few
        // lines left; short games run out first.
        let natural = [
            game(16, 4, "7"),
            game(12, 2, "3"),
            game(4, 0, "2"),
            game(9, 0, "5"),
            game(14, 3, "9"),
            game(2, 0, "1"),
        ];
        assert_eq!(games_go_on(&natural), None);
        // A "q" ends four games of six, two of them with few lines left.
        let quits = [
            game(3, 1, "q"),
            game(6, 1, "q"),
            game(10, 4, "q"),
            game(8, 5, "q"),
            game(9, 0, "1"),
            game(16, 0, "1"),
        ];
        let warning = games_go_on(&quits).expect("a line ends the games");
        assert!(
            warning.starts_with(
                "in 4 of 6 random games the reference's game is over before their input is \
                 (the line \"q\" ended 4 of them): 11 of the 52 lines typed come after the end."
            ),
            "{warning}"
        );
        // No single line, but most lines come after the end (far more than a game needs).
        let long = [game(20, 12, "7"), game(20, 11, "3"), game(5, 0, "2")];
        assert!(games_go_on(&long).is_some_and(|w| w.contains("23 of the 45 lines")));
        assert_eq!(games_go_on(&[]), None);
    }

    #[test]
    fn a_gate_on_a_message_counts_messages_and_one_on_a_sequence_does_not() {
        let found = checks(
            r#"
- {kind: lines, name: a, pattern: 'bye', at_inputs: true, compare: presence, game: true}
- {kind: lines, name: b, pattern: 'bye', compare: count, game: true}
- {kind: lines, name: c, pattern: 'total\D*(\d+)', game: true}
- {kind: lines, name: d, pattern: 'oops', at_inputs: true, compare: presence, any_wording: true}
- {kind: board, cell: '[XO]', game: true}
"#,
        );
        let flags: Vec<bool> = found.iter().map(counts_messages).collect();
        assert_eq!(flags, [true, true, false, true, false]);
    }
}
