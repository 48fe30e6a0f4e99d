//! Silver Dollar strips as students draw them: reading a strip from any drawing style, the
//! rules a random start must follow, comparing coin positions move by move, and the
//! statistics of many random starts.
//!
//! A strip line is read square by square: `_` (or `.`, or a blank cell inside `|…|` boxes) is
//! an empty square, a number is a coin. Plain (`_ _ 0 _ 1`), padded (` _  0  _  1 `), bracketed
//! (`[_][0]`) and boxed (`|   | 0 |   | 1 |`, border lines skipped) drawings all read the same;
//! a strip that shrinks as coins reach the left reads the same coin positions.

use std::collections::BTreeMap;

use serde::Deserialize;
use crate::check::view::{self, Spot, View};
use crate::check::{Evaluation, Shown};
use crate::results::Difference;
use crate::transcript::Transcript;

/// One square as drawn: empty, or a coin with the number printed on it.
pub type Square = Option<u64>;

/// The squares of a strip line, or `None` when the line is not a strip (no coin on it, or
/// anything but squares).
pub fn read_strip(line: &str) -> Option<Vec<Square>> {
    let spaced;
    let mut line = line.trim_end();
    if line.contains("][") || line.contains(")(") {
        spaced = line.replace("][", "] [").replace(")(", ") (");
        line = &spaced;
    }
    let squares = if line.matches('|').count() >= 2 {
        let mut segments: Vec<&str> = line.split('|').collect();
        if segments.first().is_some_and(|s| s.trim().is_empty()) {
            segments.remove(0);
        }
        if segments.last().is_some_and(|s| s.trim().is_empty()) {
            segments.pop();
        }
        // A box around the whole strip ("| _ _ 0 _ 1 |"): the squares inside are spaced.
        let mut squares = Vec::new();
        for segment in segments {
            match square(segment.trim(), true) {
                Some(one) => squares.push(one),
                None => {
                    for token in segment.split_whitespace() {
                        squares.push(square(token, false)?);
                    }
                }
            }
        }
        squares
    } else {
        line.split_whitespace()
            .map(|t| square(t, false))
            .collect::<Option<Vec<Square>>>()?
    };
    squares.iter().any(Option::is_some).then_some(squares)
}

/// The text after a prompt a line starts with ("Player 2: Enter your move: _ 0 _ 1" →
/// "_ 0 _ 1"): what a held-back prompt was run together with ([`View::held_prompt_input`]).
fn after_prompt(line: &str) -> Option<&str> {
    let end = line.rfind([':', '?'])?;
    let (prompt, rest) = (&line[..end], &line[end + 1..]);
    prompt.chars().any(char::is_alphabetic).then_some(rest)
}

/// One square's token: `_` (any run of underscores; dots too) or blank in a box is empty; a
/// number is a coin; brackets around either are allowed.
fn square(token: &str, boxed: bool) -> Option<Square> {
    let inner = token
        .strip_prefix(['[', '('])
        .and_then(|t| t.strip_suffix([']', ')']))
        .unwrap_or(token)
        .trim();
    if (inner.is_empty() && boxed)
        || (!inner.is_empty()
            && (inner.chars().all(|c| c == '_') || inner.chars().all(|c| c == '.')))
    {
        return Some(None);
    }
    if !inner.is_empty() && inner.len() <= 6 && inner.chars().all(|c| c.is_ascii_digit()) {
        return inner.parse().ok().map(Some);
    }
    None
}

/// A strip drawn back in the handout's plain style.
pub fn render(squares: &[Square]) -> String {
    squares
        .iter()
        .map(|s| s.map_or_else(|| "_".to_string(), |c| c.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first rule of the handout a drawn start breaks, with what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartProblem {
    /// No strip was printed after the coin count.
    NoStrip,
    /// The number of coins differs from the count typed.
    CoinCount { drawn: usize, asked: usize },
    /// Coins are not numbered 0, 1, 2, … from left to right.
    Numbering,
    /// Coin 0 is more than 6 squares from the left edge.
    FirstCoinTooFar { square: usize },
    /// Two neighbouring coins are more than 6 squares apart.
    GapTooLarge { coin: usize, gap: usize },
    /// Empty squares after the last coin.
    TrailingSquares { extra: usize },
}

impl StartProblem {
    /// The rule broken, quoting the handout.
    pub fn describe(&self) -> String {
        match self {
            StartProblem::NoStrip => "no strip was printed after the number of coins".into(),
            StartProblem::CoinCount { drawn, asked } => format!(
                "the strip shows {drawn} coin(s) but {asked} were asked for (\"the game board \
                 containing the desired number of coins\")"
            ),
            StartProblem::Numbering => "coins must be numbered 0, 1, 2, … from left to right \
                 (\"Coins should be numbered sequentially starting from zero, where coin 0 is \
                 the left-most coin\")"
                .into(),
            StartProblem::FirstCoinTooFar { square } => format!(
                "coin 0 is on square {} from the left edge; it must be 1 to 6 (\"a random number \
                 of squares away from … the left edge of the strip, for the first coin, chosen \
                 each time from 1 to 6\")",
                square + 1
            ),
            StartProblem::GapTooLarge { coin, gap } => format!(
                "coin {coin} is {gap} squares right of coin {}; it must be 1 to 6 (\"each coin a \
                 random number of squares away from the coin to its left … chosen each time \
                 from 1 to 6\")",
                coin - 1
            ),
            StartProblem::TrailingSquares { extra } => format!(
                "the strip has {extra} empty square(s) after the last coin; a start drawn this \
                 way ends at the last coin (\"the starting strip contains at most k × 6 squares \
                 for k coins\")"
            ),
        }
    }
}

/// Checks a drawn start against the handout's setup rule for `asked` coins; on success the
/// coins' squares, coin 0 first.
pub fn legal_start(squares: &[Square], asked: usize) -> Result<Vec<usize>, StartProblem> {
    let coins: Vec<(usize, u64)> = squares
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.map(|c| (i, c)))
        .collect();
    if coins.len() != asked {
        return Err(StartProblem::CoinCount {
            drawn: coins.len(),
            asked,
        });
    }
    if coins.iter().enumerate().any(|(n, &(_, c))| c != n as u64) {
        return Err(StartProblem::Numbering);
    }
    let positions: Vec<usize> = coins.iter().map(|&(i, _)| i).collect();
    if let Some(&first) = positions.first() {
        if first > 5 {
            return Err(StartProblem::FirstCoinTooFar { square: first });
        }
    }
    for (coin, pair) in positions.windows(2).enumerate() {
        let gap = pair[1] - pair[0];
        if gap > 6 {
            return Err(StartProblem::GapTooLarge {
                coin: coin + 1,
                gap,
            });
        }
    }
    let extra = squares.len() - positions.last().map_or(0, |p| p + 1);
    if extra > 0 {
        return Err(StartProblem::TrailingSquares { extra });
    }
    Ok(positions)
}

/// The start a run is played from: the strip in force when the program first asks for a
/// move (or, if it never does, the last strip it printed after the coin count).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The coin count typed.
    pub coins: usize,
    /// The squares as drawn (empty squares after the last coin included).
    pub squares: Vec<Square>,
    /// Whether it breaks a setup rule, and which.
    pub problem: Option<StartProblem>,
}

impl Start {
    /// The strip as the reference game takes it (`--board`): the squares up to the last coin.
    pub fn board(&self) -> String {
        let end = self
            .squares
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |i| i + 1);
        render(&self.squares[..end])
    }
}

/// The output of a transcript between its first input (the coin count) and its second (the
/// first move), or to the end when there is no second; and whether its first line may begin
/// with a prompt held back until the coin count was typed.
fn start_segment(transcript: &Transcript) -> Option<(usize, String, bool)> {
    let view = View::new(transcript, view::InputShown::LineBreak);
    let first = *view.input_offsets.first()?;
    let coins: usize = transcript.inputs().next()?.trim().parse().ok()?;
    let end = view
        .input_offsets
        .get(1)
        .copied()
        .unwrap_or(view.text.len());
    let held = view.held_prompt_input(first + 1).is_some();
    Some((coins, view.text.get(first..end)?.to_string(), held))
}

/// Finds the start of a Silver Dollar run in its transcript: the last strip that is a legal
/// start among those printed after the coin count and before the first move (a program may
/// redraw a start that is already finished); when none is legal, the last strip drawn, with
/// the rule it breaks. `None` until the coin count has been typed.
pub fn find_start(transcript: &Transcript) -> Option<Start> {
    let (coins, segment, held) = start_segment(transcript)?;
    // The segment starts at the coin count's line break: a prompt held back until that
    // answer begins its first line ([`View::held_prompt_input`]).
    let strips: Vec<Vec<Square>> = segment
        .lines()
        .enumerate()
        .filter_map(|(index, line)| {
            read_strip(line).or_else(|| {
                (index == 1 && held)
                    .then(|| after_prompt(line))
                    .flatten()
                    .and_then(read_strip)
            })
        })
        .collect();
    if let Some(squares) = strips.iter().rev().find(|s| legal_start(s, coins).is_ok()) {
        return Some(Start {
            coins,
            squares: squares.clone(),
            problem: None,
        });
    }
    Some(match strips.last() {
        Some(squares) => Start {
            coins,
            squares: squares.clone(),
            problem: legal_start(squares, coins).err(),
        },
        None => Start {
            coins,
            squares: Vec::new(),
            problem: Some(StartProblem::NoStrip),
        },
    })
}

/// The `start-strip` check: the program's first strip is a legal start.
pub fn evaluate_start(student: &Transcript, view: &View) -> Evaluation {
    let Some(start) = find_start(student) else {
        return Evaluation::fail(
            "the program never asked for the number of coins",
            Difference {
                location: "start".into(),
                expected: "Enter the number of coins:".into(),
                actual: view::context(&view.display().lines().collect::<Vec<_>>(), 0),
                inputs_before: 0,
                relaxation: None,
                student_line: None,
            },
        );
    };
    match &start.problem {
        None => Evaluation::pass(format!(
            "the first strip is a legal start for {} coin(s): {}",
            start.coins,
            render(&start.squares)
        )),
        Some(problem) => Evaluation::fail(
            format!(
                "the first strip is not a legal start: {}",
                problem.describe()
            ),
            Difference {
                location: "the first strip".into(),
                expected: format!(
                    "a strip with coins 0 to {} left to right, coin 0 on square 1-6, each next \
                     coin 1-6 squares further, ending at the last coin",
                    start.coins.saturating_sub(1)
                ),
                actual: if start.squares.is_empty() {
                    "(no strip)".into()
                } else {
                    format!(
                        "{} (read as: {})",
                        render(&start.squares),
                        problem.describe()
                    )
                },
                inputs_before: 1,
                relaxation: None,
                student_line: None,
            },
        ),
    }
}

/// A strip found in a view: the squares up to its last coin, and where it was printed.
struct Drawn {
    squares: Vec<Square>,
    line: usize,
    offset: usize,
}

/// The squares up to the last coin (a strip drawn shorter as coins move left reads the same).
fn up_to_last_coin(mut squares: Vec<Square>) -> Vec<Square> {
    let end = squares
        .iter()
        .rposition(Option::is_some)
        .map_or(0, |i| i + 1);
    squares.truncate(end);
    squares
}

/// The strips of a view from the start on: strips printed before the first move other than
/// the last are dropped (a redrawn start), and a strip equal to the one before it (a redraw
/// after an illegal move) is counted once.
fn strips_of(view: &View) -> Vec<Drawn> {
    let first_move = view.input_offsets.get(1).copied();
    let mut found: Vec<Drawn> = Vec::new();
    for (index, (start, line)) in view.lines().enumerate() {
        // Where the strip was printed: after an input typed inside its line, at that input.
        let mut at = start;
        let held = || {
            // Inputs left out of the view (a run whose prompts came late): a prompt and the
            // strip printed after its answer share a line; or the line begins with a prompt
            // held back until its answer.
            let end = start + line.len();
            if let Some(&o) = view.input_offsets.iter().find(|&&o| o > start && o < end) {
                return line.get(o - start..).and_then(read_strip).map(|s| (s, o));
            }
            let at_input = view.held_prompt_input(start).is_some()
                || (view.input_offsets.contains(&start)
                    && (start == 0 || view.text[..start].ends_with('\n')));
            at_input
                .then(|| after_prompt(line))
                .flatten()
                .and_then(read_strip)
                .map(|s| (s, start))
        };
        let Some(squares) =
            read_strip(line)
                .map(|s| (s, start))
                .or_else(held)
                .map(|(s, offset)| {
                    at = offset;
                    up_to_last_coin(s)
                })
        else {
            continue;
        };
        let before_first_move = first_move.is_none_or(|m| at < m);
        if before_first_move && found.len() == 1 {
            found.clear();
        }
        if found.last().is_some_and(|d| d.squares == squares) {
            continue;
        }
        found.push(Drawn {
            squares,
            line: index,
            offset: start,
        });
    }
    found
}

fn positions_text(positions: &[usize]) -> String {
    let length = positions.last().map_or(0, |p| p + 1);
    let mut squares: Vec<Square> = vec![None; length];
    for (coin, &p) in positions.iter().enumerate() {
        squares[p] = Some(coin as u64);
    }
    render(&squares)
}

/// The `strips` check: the coins stand on the same squares as the reference's after every
/// move, whatever the drawing style.
pub fn evaluate_strips(student: &View, reference: &View) -> Evaluation {
    let s = strips_of(student);
    let r = strips_of(reference);
    if s.is_empty() && r.is_empty() {
        return Evaluation::not_applicable();
    }
    let common = s.len().min(r.len());
    let at = (0..common)
        .find(|&i| s[i].squares != r[i].squares)
        .or((s.len() != r.len()).then_some(common));
    let Some(at) = at else {
        return Evaluation::pass(format!("all {} strips match", r.len()));
    };
    // A strip after the start shows a move was played (the game gate, `CustomCheck::is_game`):
    // a program that draws the start and plays no move earns nothing in a game case.
    let played = s.len() > 1;
    let detail = match (s.get(at), r.get(at)) {
        (Some(got), Some(want)) => format!(
            "strip {} is {}, expected {}",
            at + 1,
            render(&got.squares),
            render(&want.squares)
        ),
        (None, Some(want)) => format!(
            "found {} strips, expected {}; the next expected is {}",
            s.len(),
            r.len(),
            render(&want.squares)
        ),
        (Some(got), None) => format!(
            "found {} strips, expected {}; the first extra is {}",
            s.len(),
            r.len(),
            render(&got.squares)
        ),
        (None, None) => "no strips".into(),
    };
    let spot = |d: &[Drawn]| {
        d.get(at)
            .map_or_else(Spot::default, |d| Spot::at(d.line, d.offset))
    };
    let mut evaluation = Evaluation::fail(
        detail,
        view::difference(
            format!("strip {}", at + 1),
            student,
            spot(&s),
            reference,
            spot(&r),
            None,
        ),
    );
    evaluation.in_game = played;
    evaluation.shown = Shown {
        items: s.len(),
        after_input: s
            .iter()
            .filter(|d| student.inputs_before(d.offset) > 0)
            .count(),
    };
    evaluation
}

/// The chi-square value above which gap counts are judged not uniform: for 5 degrees of
/// freedom, P(χ² > 40) ≈ 1.5 × 10⁻⁷, so a correct program fails it about once in 6.7 million
/// gradings.
pub const CHI_SQUARE_LIMIT: f64 = 40.0;

/// A run's starting strip appearing in this many runs or more means the strips do not vary.
pub const MAX_REPEATS: usize = 3;

/// The chi-square statistic of gap counts against a uniform draw from 1 to 6.
pub fn chi_square(counts: &[usize; 6]) -> f64 {
    let total: usize = counts.iter().sum();
    if total == 0 {
        return 0.0;
    }
    let expected = total as f64 / 6.0;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// The gaps of a legal start: coin 0's square from the left edge, then between coins (1-6).
fn gaps(positions: &[usize]) -> Vec<usize> {
    let mut previous: Option<usize> = None;
    positions
        .iter()
        .map(|&p| {
            let gap = previous.map_or(p + 1, |q| p - q);
            previous = Some(p);
            gap
        })
        .collect()
}

/// Which property of many random starting strips a `random_starts` check tests.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RandomRule {
    /// Every strip is a legal start for the coin count typed.
    Legal,
    /// Every gap value from 1 to 6 occurs.
    EveryGap,
    /// The gap counts fit a uniform draw from 1 to 6 (chi-square).
    Uniform,
    /// The strips differ between runs (no fixed seed).
    Varied,
}

impl RandomRule {
    /// The rule's name as written in case files.
    pub fn name(self) -> &'static str {
        match self {
            RandomRule::Legal => "legal",
            RandomRule::EveryGap => "every_gap",
            RandomRule::Uniform => "uniform",
            RandomRule::Varied => "varied",
        }
    }
}

/// Evaluates one property of the starting strips of many runs of the same program.
pub fn evaluate_random_starts(rule: RandomRule, runs: &[Transcript]) -> Evaluation {
    let starts: Vec<Start> = runs.iter().filter_map(find_start).collect();
    let legal: Vec<Vec<usize>> = starts
        .iter()
        .filter_map(|s| legal_start(&s.squares, s.coins).ok())
        .collect();
    let note = |text: String| Difference {
        location: format!("{} runs", runs.len()),
        expected: String::new(),
        actual: text,
        inputs_before: 1,
        relaxation: None,
        student_line: None,
    };
    match rule {
        RandomRule::Legal => {
            let bad: Vec<&Start> = starts.iter().filter(|s| s.problem.is_some()).collect();
            let missing = runs.len() - starts.len();
            match bad.first() {
                None if missing == 0 => Evaluation::pass(format!(
                    "all {} starting strips are legal starts",
                    runs.len()
                )),
                None => Evaluation::fail(
                    format!("{missing} of {} runs printed no strip", runs.len()),
                    note("no strip after the number of coins".into()),
                ),
                Some(first) => {
                    let problem = first
                        .problem
                        .as_ref()
                        .map(StartProblem::describe)
                        .unwrap_or_default();
                    Evaluation::fail(
                        format!(
                            "{} of {} starting strips are not legal starts; the first: {}",
                            bad.len(),
                            runs.len(),
                            problem
                        ),
                        Difference {
                            expected: "every start follows the setup rule".into(),
                            ..note(format!("{} ({problem})", render(&first.squares)))
                        },
                    )
                }
            }
        }
        RandomRule::EveryGap => {
            let mut counts = [0usize; 6];
            for g in legal.iter().flat_map(|p| gaps(p)) {
                counts[g - 1] += 1;
            }
            let missing: Vec<String> = (1..=6)
                .filter(|g| counts[g - 1] == 0)
                .map(|g| g.to_string())
                .collect();
            if legal.is_empty() {
                return Evaluation::fail(
                    "no legal starting strip to count gaps in",
                    note("no legal start".into()),
                );
            }
            if missing.is_empty() {
                Evaluation::pass(format!("every gap from 1 to 6 occurs: {counts:?}"))
            } else {
                Evaluation::fail(
                    format!(
                        "gap(s) {} never occur in {} strips; counts of gaps 1-6: {counts:?}",
                        missing.join(", "),
                        legal.len()
                    ),
                    Difference {
                        expected: "every gap from 1 to 6 (\"chosen each time from 1 to 6\")".into(),
                        ..note(format!("counts of gaps 1-6: {counts:?}"))
                    },
                )
            }
        }
        RandomRule::Uniform => {
            let mut counts = [0usize; 6];
            for g in legal.iter().flat_map(|p| gaps(p)) {
                counts[g - 1] += 1;
            }
            let value = chi_square(&counts);
            if legal.is_empty() {
                return Evaluation::fail(
                    "no legal starting strip to count gaps in",
                    note("no legal start".into()),
                );
            }
            if value <= CHI_SQUARE_LIMIT {
                Evaluation::pass(format!(
                    "gap counts {counts:?} fit a uniform draw (chi-square {value:.1} ≤ {CHI_SQUARE_LIMIT})"
                ))
            } else {
                Evaluation::fail(
                    format!(
                        "gap counts {counts:?} are not a uniform draw from 1 to 6 (chi-square \
                         {value:.1} > {CHI_SQUARE_LIMIT})"
                    ),
                    Difference {
                        expected: "each gap from 1 to 6 equally likely".into(),
                        ..note(format!("counts of gaps 1-6: {counts:?}"))
                    },
                )
            }
        }
        RandomRule::Varied => {
            let mut seen: BTreeMap<&[usize], usize> = BTreeMap::new();
            for p in &legal {
                *seen.entry(p.as_slice()).or_default() += 1;
            }
            let most = seen.iter().max_by_key(|(_, n)| **n);
            match most {
                None => Evaluation::fail(
                    "no legal starting strip to compare",
                    note("no legal start".into()),
                ),
                Some((positions, &n)) if n >= MAX_REPEATS => Evaluation::fail(
                    format!(
                        "the same start {} came up in {n} of {} runs: the strip is not random \
                         (a fixed seed?)",
                        positions_text(positions),
                        runs.len()
                    ),
                    Difference {
                        expected: "a new random strip every run".into(),
                        ..note(format!("{} in {n} runs", positions_text(positions)))
                    },
                ),
                Some(_) => Evaluation::pass(format!(
                    "{} different starts in {} runs",
                    seen.len(),
                    runs.len()
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Stream;

    #[test]
    fn every_drawing_style_reads_the_same_squares() {
        let want = vec![None, None, Some(0), None, Some(1)];
        for drawn in [
            "_ _ 0 _ 1",
            " _  _  0  _  1 ",
            "|   |   | 0 |   | 1 |",
            "| _ | _ | 0 | _ | 1 |",
            "| _ _ 0 _ 1 |",
            "[_][_][0][_][1]",
            "[_] [_] [0] [_] [1]",
            "__ __ 0 __ 1",
            ". . 0 . 1",
        ] {
            assert_eq!(read_strip(drawn), Some(want.clone()), "{drawn:?}");
        }
        for not_a_strip in [
            "",
            "_ _ _",
            "+---+---+",
            "Player 1: Enter your move:",
            "coin 0 at 3",
            "|   |   |",
        ] {
            assert_eq!(read_strip(not_a_strip), None, "{not_a_strip:?}");
        }
        assert_eq!(read_strip("12 _ 13"), Some(vec![Some(12), None, Some(13)]));
    }

    #[test]
    fn the_setup_rule_is_checked_rule_by_rule() {
        let s = |t: &str| read_strip(t).expect("strip");
        assert_eq!(legal_start(&s("_ _ 0 _ 1 2"), 3), Ok(vec![2, 4, 5]));
        assert_eq!(legal_start(&s("_ _ _ _ _ 0"), 1), Ok(vec![5]));
        assert_eq!(legal_start(&s("0 _ _ _ _ _ 1"), 2), Ok(vec![0, 6]));
        assert_eq!(
            legal_start(&s("_ 0 1"), 3),
            Err(StartProblem::CoinCount { drawn: 2, asked: 3 })
        );
        assert_eq!(legal_start(&s("_ 1 _ 2"), 2), Err(StartProblem::Numbering));
        assert_eq!(legal_start(&s("1 0"), 2), Err(StartProblem::Numbering));
        assert_eq!(
            legal_start(&s("_ _ _ _ _ _ 0"), 1),
            Err(StartProblem::FirstCoinTooFar { square: 6 })
        );
        assert_eq!(
            legal_start(&s("0 _ _ _ _ _ _ 1"), 2),
            Err(StartProblem::GapTooLarge { coin: 1, gap: 7 })
        );
        assert_eq!(
            legal_start(&s("0 1 _ _"), 2),
            Err(StartProblem::TrailingSquares { extra: 2 })
        );
    }

    fn transcript(parts: &[(&str, bool)]) -> Transcript {
        let mut t = Transcript::new();
        for (text, input) in parts {
            if *input {
                t.push_input(*text);
            } else {
                t.push_output(Stream::Stdout, text.as_bytes());
            }
        }
        t
    }

    #[test]
    fn the_start_is_the_last_legal_strip_before_the_first_move() {
        let redraw = transcript(&[
            ("Enter the number of coins: ", false),
            ("2", true),
            (
                "0 1\nNo moves, drawing again\n_ 0 _ 1\nPlayer 1: Enter your move: ",
                false,
            ),
            ("1 1", true),
            ("0 _ _ 1\n", false),
        ]);
        let start = find_start(&redraw).expect("start");
        assert_eq!(start.problem, None);
        assert_eq!(start.board(), "_ 0 _ 1");
        let bad = transcript(&[
            ("Enter the number of coins: ", false),
            ("2", true),
            ("_ 1 _ 2\nPlayer 1: Enter your move: ", false),
        ]);
        assert_eq!(
            find_start(&bad).and_then(|s| s.problem),
            Some(StartProblem::Numbering)
        );
        let none = transcript(&[("coins? ", false), ("2", true), ("Player 1: ", false)]);
        assert_eq!(
            find_start(&none).and_then(|s| s.problem),
            Some(StartProblem::NoStrip)
        );
        assert_eq!(find_start(&transcript(&[("coins? ", false)])), None);
    }

    #[test]
    fn a_strip_run_together_with_a_held_back_prompt_is_read() {
        // Prompts never flushed come out after their answer, joined to the next strip.
        let reference = transcript(&[
            ("Enter the number of coins: ", false),
            ("2", true),
            ("_ 0 _ _ 1\nPlayer 1: Enter your move: ", false),
            ("1 2", true),
            ("_ 0 1 _ _\nPlayer 2: Enter your move: ", false),
        ]);
        let held = transcript(&[
            ("", false),
            ("2", true),
            ("Enter the number of coins: | . | 0 | . | . | 1 |\n", false),
            ("1 2", true),
            ("Player 1: Enter your move: | . | 0 | 1 | . | . |\n", false),
        ]);
        let views = |t: &Transcript| View::new(t, super::view::InputShown::LineBreak);
        let e = evaluate_strips(&views(&held), &views(&reference));
        assert!(e.passed, "{e:?}");
        let start = find_start(&held).expect("a start");
        assert_eq!(start.squares, vec![None, Some(0), None, None, Some(1)]);
        // Only where a prompt may have been held: a line after a prompt shown in time is not
        // a strip ("Player 1: Enter your move: 0 1" is the move echoed, not a board).
        let echoed = transcript(&[
            ("Coins: ", false),
            ("2", true),
            ("_ 0 _ _ 1\nPlayer 1: Enter your move: ", false),
            ("1 2", true),
            ("Player 1: Enter your move: 0 1\n", false),
        ]);
        assert_eq!(strips_of(&views(&echoed)).len(), 1);
        // A run whose prompts came late is compared without its inputs: the reference's
        // strips then follow its prompts on their lines, the held ones begin theirs.
        let omitted = |t: &Transcript| View::new(t, super::view::InputShown::Omitted);
        let e = evaluate_strips(&omitted(&held), &omitted(&reference));
        assert!(e.passed, "{e:?}");
        assert_eq!(strips_of(&omitted(&reference)).len(), 2);
    }

    #[test]
    fn strips_compare_positions_not_drawing() {
        let reference = transcript(&[
            ("Enter the number of coins: ", false),
            ("2", true),
            ("_ 0 _ _ 1\nPlayer 1: Enter your move: ", false),
            ("1 2", true),
            ("_ 0 1 _ _\nPlayer 2: Enter your move: ", false),
        ]);
        let shrinking_boxed = transcript(&[
            ("Coins? ", false),
            ("2", true),
            ("|   | 0 |   |   | 1 |\n\nPlayer 1, your move: ", false),
            ("1 2", true),
            (
                "Illegal? no.\n|   | 0 | 1 |\n|   | 0 | 1 |\nPlayer 2, your move: ",
                false,
            ),
        ]);
        let views = |t: &Transcript| View::new(t, super::view::InputShown::LineBreak);
        let e = evaluate_strips(&views(&shrinking_boxed), &views(&reference));
        assert!(e.passed, "{e:?}");
        let wrong = transcript(&[
            ("Coins? ", false),
            ("2", true),
            ("_ 0 _ _ 1\n", false),
            ("1 2", true),
            ("_ 1 0 _ _\n_ 0 _ 1 _\n", false),
        ]);
        let e = evaluate_strips(&views(&wrong), &views(&reference));
        assert!(!e.passed);
        assert_eq!(e.detail, "strip 2 is _ 1 0, expected _ 0 1");
        // a coin landing on another hides it: a strip with a coin missing is a difference
        let landed = transcript(&[
            ("Coins? ", false),
            ("2", true),
            ("_ 0 _ _ 1\n", false),
            ("1 3", true),
            ("_ 1 _ _ _\n", false),
        ]);
        let e = evaluate_strips(&views(&landed), &views(&reference));
        assert_eq!(e.detail, "strip 2 is _ 1, expected _ 0 1");
    }

    #[test]
    fn chi_square_of_known_counts() {
        assert_eq!(chi_square(&[10; 6]), 0.0);
        // expected 10 per value: (20-10)²/10 + (0-10)²/10 = 20
        assert!((chi_square(&[20, 0, 10, 10, 10, 10]) - 20.0).abs() < 1e-9);
        assert_eq!(gaps(&[2, 4, 10]), vec![3, 2, 6]);
    }
}
