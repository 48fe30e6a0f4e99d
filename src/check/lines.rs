//! The `lines` check (the sequence of pattern matches) and the `contains` check (how often a
//! message appears), both compared with the reference's own output.

use std::borrow::Cow;

use super::pattern::{Captured, Pattern, Span};

use super::view::{difference, Spot, View};
use super::Compare;
use super::Evaluation;

/// How matched items are reduced before comparing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ItemRules {
    /// Keep only the integers.
    pub numbers: bool,
    /// Lowercase.
    pub ignore_case: bool,
    /// Drop punctuation.
    pub ignore_punctuation: bool,
}

/// What a check's items are called in its feedback: the game's own noun ("turn", "move",
/// "score line"), so a report never says "match" for a matching line where matches are the
/// game's pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Noun<'a> {
    /// One item ("turn").
    pub one: &'a str,
    /// Several ("turns").
    pub many: &'a str,
}

impl Noun<'static> {
    /// The neutral noun, for checks whose case file names none.
    pub const ITEM: Noun<'static> = Noun {
        one: "item",
        many: "items",
    };
}

impl Default for Noun<'_> {
    fn default() -> Self {
        Noun::ITEM
    }
}

/// Everything that shapes a `lines` comparison.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineOptions<'a> {
    /// What the items are called in feedback.
    pub noun: Noun<'a>,
    /// How items are reduced.
    pub rules: ItemRules,
    /// Collapse consecutive equal items.
    pub dedup: bool,
    /// What must agree.
    pub compare: Compare,
    /// The student may have no items at all.
    pub optional: bool,
    /// One item per input: the last match since the previous input.
    pub at_inputs: bool,
    /// With `at_inputs`: inputs after which the reference has no match are not compared.
    pub free_elsewhere: bool,
    /// With `at_inputs`: the message's wording is free. The pattern only finds where the
    /// reference prints its message; there, any line of the program's that is not part of its
    /// ordinary output counts (see `messages_at_inputs`).
    pub any_wording: bool,
}

/// One match of the pattern: its normalized form, and where it was found.
#[derive(Clone, Debug)]
struct Item {
    value: String,
    line: usize,
    offset: usize,
}

/// Reduces text to its comparable form under `rules`; spacing is always collapsed.
pub fn reduce(text: &str, rules: ItemRules) -> String {
    if rules.numbers {
        return numbers_in(text).join(" ");
    }
    if text.is_ascii() {
        return reduce_ascii(text, rules);
    }
    let mut t: String = if rules.ignore_punctuation {
        text.chars()
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect()
    } else {
        text.to_string()
    };
    if rules.ignore_case {
        t = t.to_lowercase();
    }
    t.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// [`reduce`] of ASCII text in one pass, with one allocation.
fn reduce_ascii(text: &str, rules: ItemRules) -> String {
    let mut reduced = String::with_capacity(text.len());
    let mut space = false;
    for &byte in text.as_bytes() {
        let byte = if rules.ignore_punctuation && !byte.is_ascii_alphanumeric() {
            b' '
        } else {
            byte
        };
        if char::from(byte).is_whitespace() {
            space = !reduced.is_empty();
            continue;
        }
        if space {
            reduced.push(' ');
            space = false;
        }
        reduced.push(char::from(if rules.ignore_case {
            byte.to_ascii_lowercase()
        } else {
            byte
        }));
    }
    reduced
}

/// The integers written in `text`, in order (a minus sign directly before digits counts).
fn numbers_in(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = String::new();
    let mut previous = ' ';
    for c in text.chars() {
        if c.is_ascii_digit() {
            if current.is_empty() && previous == '-' {
                current.push('-');
            }
            current.push(c);
        } else if !current.is_empty() {
            found.push(std::mem::take(&mut current));
        }
        previous = c;
    }
    if !current.is_empty() {
        found.push(current);
    }
    found
}

/// The text a match stands for: its capture groups joined by spaces, or the whole match.
fn matched_text<'h>(captures: &Captured<'h>, whole: Span<'h>) -> Cow<'h, str> {
    if captures.group_count() <= 1 {
        return Cow::Borrowed(whole.as_str());
    }
    let mut groups = captures.iter().skip(1).flatten();
    let Some(first) = groups.next() else {
        return Cow::Borrowed("");
    };
    match groups.next() {
        None => Cow::Borrowed(first.as_str()),
        Some(second) => {
            let mut joined = format!("{} {}", first.as_str(), second.as_str());
            for group in groups {
                joined.push(' ');
                joined.push_str(group.as_str());
            }
            Cow::Owned(joined)
        }
    }
}

fn items(view: &View, pattern: &Pattern, rules: ItemRules, dedup: bool) -> Vec<Item> {
    let mut found = Vec::new();
    for found_in_line in pattern.captures_in_lines(&view.text) {
        let captures = &found_in_line.captured;
        let Some(whole) = captures.get(0) else {
            continue;
        };
        let value = reduce(&matched_text(captures, whole), rules);
        if dedup && found.last().is_some_and(|last: &Item| last.value == value) {
            continue;
        }
        found.push(Item {
            value,
            line: found_in_line.line,
            offset: found_in_line.line_start + whole.start(),
        });
    }
    found
}

/// What an input's segment holds when the pattern does not match in it.
const NO_MATCH: &str = "(nothing)";

/// One item per stretch of output ending at an input (and one for the output after the last
/// input): the last match in it, or [`NO_MATCH`].
fn items_at_inputs(view: &View, pattern: &Pattern, rules: ItemRules, presence: bool) -> Vec<Item> {
    items_at_inputs_except(view, pattern, rules, presence, &[])
}

/// For each input `j`, the match that begins the line right after it when that line may be
/// a held-back prompt of input `j` ([`View::held_prompt_input`]).
fn held_prompts(
    view: &View,
    pattern: &Pattern,
    rules: ItemRules,
    presence: bool,
) -> Vec<Option<Item>> {
    let mut held: Vec<Option<Item>> = vec![None; view.input_offsets.len()];
    for (index, (start, line)) in view.lines().enumerate() {
        let Some(j) = view.held_prompt_input(start) else {
            continue;
        };
        let Some(captures) = pattern.captures(line) else {
            continue;
        };
        let Some(whole) = captures.get(0) else {
            continue;
        };
        // The prompt itself starts the line; a message after a held prompt does not.
        if !line[..whole.start()].trim().is_empty() {
            continue;
        }
        held[j] = Some(Item {
            value: if presence {
                "(present)".to_string()
            } else {
                reduce(&matched_text(&captures, whole), rules)
            },
            line: index,
            offset: start + whole.start(),
        });
    }
    held
}

/// [`items_at_inputs`] leaving out the lines numbered in `skip`.
fn items_at_inputs_except(
    view: &View,
    pattern: &Pattern,
    rules: ItemRules,
    presence: bool,
    skip: &[usize],
) -> Vec<Item> {
    let mut found: Vec<Item> = (0..=view.input_offsets.len())
        .map(|i| Item {
            value: NO_MATCH.to_string(),
            line: usize::MAX,
            offset: view
                .input_offsets
                .get(i)
                .copied()
                .unwrap_or(view.text.len()),
        })
        .collect();
    let matches = pattern.captures_in_lines(&view.text);
    // The last match of each line.
    let last_in_line = matches
        .iter()
        .enumerate()
        .filter(|(i, m)| matches.get(i + 1).is_none_or(|next| next.line != m.line))
        .map(|(_, m)| m);
    for found_in_line in last_in_line {
        let (index, start) = (found_in_line.line, found_in_line.line_start);
        if skip.contains(&index) {
            continue;
        }
        // A prompt line ends where its input was typed, so it belongs to that input.
        let segment = view.input_offsets.partition_point(|&o| o <= start);
        let captures = &found_in_line.captured;
        let Some(whole) = captures.get(0) else {
            continue;
        };
        if let Some(item) = found.get_mut(segment) {
            *item = Item {
                value: if presence {
                    "(present)".to_string()
                } else {
                    reduce(&matched_text(captures, whole), rules)
                },
                line: index,
                offset: start + whole.start(),
            };
        }
    }
    if found.iter().any(|item| item.line == usize::MAX) {
        let starts = view.line_starts();
        for item in &mut found {
            if item.line == usize::MAX {
                item.line = starts
                    .partition_point(|start| *start <= item.offset)
                    .saturating_sub(1);
            }
        }
    }
    found
}

/// What a line is, whatever a game changes in it, so a program's prompt, board row or score
/// line printed again has the shape it had before: its words, lowercased, a run of one
/// repeated letter written once ("OOO": "o") and a word repeated in a row written once (the
/// coins of a strip, `O _ O O`: "o"); for a line without letters, the set of its other marks
/// (a board row `4 | | 9 |`: "[|]", "11?!": "[!?]"). Numbers never count: a prompt naming
/// the other player or a score line with other points keeps its shape. `None` for a blank
/// line.
pub fn line_shape(line: &str) -> Option<String> {
    fn finish(word: &mut String, words: &mut Vec<String>) {
        let mut letters = word.chars();
        let Some(first) = letters.next() else {
            return;
        };
        if letters.all(|c| c == first) {
            word.clear();
            word.push(first);
        }
        if words.last() != Some(word) {
            words.push(std::mem::take(word));
        }
        word.clear();
    }
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut marks = std::collections::BTreeSet::new();
    let mut numbers = false;
    for c in line.chars() {
        if c.is_alphabetic() {
            word.extend(c.to_lowercase());
            continue;
        }
        finish(&mut word, &mut words);
        if c.is_numeric() {
            numbers = true;
        } else if !c.is_whitespace() && !c.is_control() {
            marks.insert(c);
        }
    }
    finish(&mut word, &mut words);
    if !words.is_empty() {
        return Some(words.join(" "));
    }
    if marks.is_empty() && !numbers {
        return None;
    }
    Some(format!("[{}]", marks.into_iter().collect::<String>()))
}

/// The text's stretch (one per input, see [`items_at_inputs`]) a line starting at byte
/// `start` belongs to: a prompt line ends where its input was typed, so it is part of the
/// stretch before that input.
fn segment_of(view: &View, start: usize) -> usize {
    view.input_offsets.partition_point(|&o| o <= start)
}

/// One item per stretch of output ending at an input, like [`items_at_inputs`], for a message
/// whose wording is free. After each input the reference refuses (`refused`), the message is
/// the first line whose [`line_shape`] the program never prints after an input the reference
/// accepts (its ordinary response there: prompts, boards, score lines), learned from this
/// same run: so a message in any words or language counts ("Nope, 11 is off the board.",
/// "11?!"), and a program that silently asks again (its prompt, board and score once more)
/// prints none. Elsewhere, the last match of `pattern` (a refusal where the reference accepts).
fn messages_at_inputs(
    view: &View,
    pattern: &Pattern,
    rules: ItemRules,
    refused: &[bool],
) -> Vec<Item> {
    let mut found = items_at_inputs(view, pattern, rules, true);
    let is_refused = |segment: usize| refused.get(segment).copied().unwrap_or(false);
    let shapes = view.line_shapes();
    let ordinary_lines: Vec<(&str, &str)> = view
        .lines()
        .zip(shapes)
        .filter(|((start, _), _)| !is_refused(segment_of(view, *start)))
        .filter_map(|((_, line), shape)| Some((line, shape.as_deref()?)))
        .collect();
    let ordinary: std::collections::HashSet<&str> =
        ordinary_lines.iter().map(|(_, shape)| *shape).collect();
    let ordinary_lines: Vec<&str> = ordinary_lines.into_iter().map(|(line, _)| line).collect();
    let mut placed = vec![false; found.len()];
    for (index, ((start, line), line_shape_whole)) in view.lines().zip(shapes).enumerate() {
        let segment = segment_of(view, start);
        if !is_refused(segment) || placed.get(segment).copied().unwrap_or(true) {
            continue;
        }
        // A line right after the refused input's break may begin with the prompts the
        // program held back, its message run on after them: only the rest can be one.
        let (rest, shape) = if view.held_prompt_input(start).is_some() {
            let rest = after_held_prompts(line, &ordinary_lines);
            (rest, line_shape(rest).map(Cow::Owned))
        } else {
            (line, line_shape_whole.as_deref().map(Cow::Borrowed))
        };
        let Some(shape) = shape else {
            continue;
        };
        if ordinary.contains(shape.as_ref()) || begins_an_ordinary_line(&shape, &ordinary) {
            continue;
        }
        if let (Some(item), Some(done)) = (found.get_mut(segment), placed.get_mut(segment)) {
            let indent = line.len() - rest.trim_start().len();
            *item = Item {
                value: "(present)".to_string(),
                line: index,
                offset: start + indent,
            };
            *done = true;
        }
    }
    for (segment, (item, done)) in found.iter_mut().zip(&placed).enumerate() {
        if is_refused(segment) && !done {
            let offset = view
                .input_offsets
                .get(segment)
                .copied()
                .unwrap_or(view.text.len());
            *item = Item {
                value: NO_MATCH.to_string(),
                line: view.line_at(offset),
                offset,
            };
        }
    }
    found
}

/// What is left of `line` once the prompts it begins with are taken off: the longest start it
/// shares with an ordinary line (numbers aside: "Player 1" is "Player 2"), cut back to a word's
/// start, taken off again while some is shared. A program that never flushes its prompts
/// prints them together at the start of the line after the answers, and a message in its own
/// words can follow on the same line ("Player 1: Your number? Position to insert at? 12?!",
/// where an accepted answer gives "… Position to insert at? Score: 1 to 0"); held prompts
/// alone leave nothing.
fn after_held_prompts<'l>(line: &'l str, ordinary: &[&str]) -> &'l str {
    let mut rest = line;
    // Each pass takes at least one character off.
    while let Some(shared) = ordinary
        .iter()
        .map(|other| shared_start(rest, other))
        .max()
        .filter(|&shared| shared > 0)
    {
        rest = &rest[shared..];
    }
    rest
}

/// The length in bytes of the start `line` shares with `other`, a run of digits matching any
/// run of digits, ending inside a word on neither side ("Score" is no start of "Scores").
fn shared_start(line: &str, other: &str) -> usize {
    let (a, b) = (line.as_bytes(), other.as_bytes());
    // Letters, digits and every byte of a non-ASCII character: a cut between two of them
    // would split a word (or a character).
    let word = |byte: u8| byte.is_ascii_alphanumeric() || byte >= 0x80;
    let boundary = |text: &[u8], at: usize| {
        at == 0 || at == text.len() || !word(text[at - 1]) || !word(text[at])
    };
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        if a[i].is_ascii_digit() && b[j].is_ascii_digit() {
            while i < a.len() && a[i].is_ascii_digit() {
                i += 1;
            }
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        } else if a[i] == b[j] {
            i += 1;
            j += 1;
        } else {
            break;
        }
        if boundary(a, i) && boundary(b, j) {
            shared = i;
        }
    }
    shared
}

/// Whether `shape` is the first words of an ordinary line's shape: prompts held back (never
/// flushed) and printed together, whose answers' output then joined the same line elsewhere
/// ("Number? Position? " where the ordinary line reads "Number? Position? Board …"). Such a
/// line is the program asking again, not a message.
fn begins_an_ordinary_line(shape: &str, ordinary: &std::collections::HashSet<&str>) -> bool {
    !shape.starts_with('[')
        && ordinary.iter().any(|line| {
            line.strip_prefix(shape)
                .is_some_and(|rest| rest.starts_with(' '))
        })
}

/// Why no message was found after input `at` where the reference prints `message` (a check
/// with free wording): the program printed nothing there, or only lines of its ordinary
/// output.
fn no_message_detail(student: &View, at: usize, message: &str) -> String {
    let printed = student
        .lines()
        .zip(student.line_shapes())
        .filter(|((start, _), _)| segment_of(student, *start) == at)
        .any(|(_, shape)| shape.is_some());
    let place = if at == 0 {
        "before the first input".to_string()
    } else {
        format!("after input {at}")
    };
    if printed {
        format!(
            "no message {place}, where the reference prints \"{message}\": the program printed \
             only lines it also prints after inputs the reference accepts (its prompt, board or \
             score); a line of its own, in any words, would count"
        )
    } else {
        format!(
            "nothing printed {place}, where the reference prints \"{message}\" (a line of its own, \
             in any words, would count)"
        )
    }
}

/// Compares one item per input (see [`items_at_inputs`]): each message must appear where the
/// reference prints it.
fn evaluate_at_inputs(
    student: &View,
    reference: &View,
    pattern: &Pattern,
    options: LineOptions<'_>,
) -> Evaluation {
    let presence = options.compare != Compare::Sequence;
    let r = items_at_inputs(reference, pattern, options.rules, presence);
    let any_wording = options.any_wording && presence;
    let mut s = if any_wording {
        let refused: Vec<bool> = r.iter().map(|item| item.value != NO_MATCH).collect();
        messages_at_inputs(student, pattern, options.rules, &refused)
    } else {
        with_held_prompts(student, &r, pattern, options.rules, presence)
    };
    if options.free_elsewhere {
        for (got, want) in s.iter_mut().zip(&r) {
            if want.value == NO_MATCH {
                got.value = NO_MATCH.to_string();
            }
        }
    }
    // Places after the inputs the program read past the reference's end (a final "press
    // Enter", or playing on after the game) where it printed no item: nothing to compare for
    // this check (the exit check judges the ending).
    while s.len() > r.len() && s.last().is_some_and(|item| item.value == NO_MATCH) {
        s.pop();
    }
    let any = |items: &[Item]| items.iter().any(|i| i.value != NO_MATCH);
    if !any(&s) && !any(&r) || (options.optional && !any(&s)) {
        return Evaluation::not_applicable();
    }
    let common = s.len().min(r.len());
    let at = (0..common)
        .find(|&i| s[i].value != r[i].value)
        .or((s.len() != r.len()).then_some(common));
    let Some(at) = at else {
        return Evaluation::pass(format!(
            "all {} in place",
            r.iter().filter(|i| i.value != NO_MATCH).count()
        ));
    };
    let place = |i: usize| {
        if i == 0 {
            "before the first input".to_string()
        } else {
            format!("after input {i}")
        }
    };
    let detail = match (s.get(at), r.get(at)) {
        (Some(got), Some(want)) if any_wording && got.value == NO_MATCH => {
            let message = reference
                .lines()
                .nth(want.line)
                .map_or("", |(_, line)| line.trim());
            no_message_detail(student, at, message)
        }
        (Some(got), Some(_)) if presence && got.value == NO_MATCH => {
            format!("not printed {}, where the reference prints it", place(at))
        }
        (Some(_), Some(want)) if presence && want.value == NO_MATCH => format!(
            "printed {}, where the reference does not print it",
            place(at)
        ),
        (Some(got), Some(want)) => format!(
            "{}: found \"{}\", expected \"{}\"",
            place(at),
            quoted(got, student, pattern),
            quoted(want, reference, pattern)
        ),
        (None, Some(want)) => format!(
            "the program stopped reading after {} input(s); {} the reference prints \"{}\"",
            s.len().saturating_sub(1),
            place(at),
            quoted(want, reference, pattern)
        ),
        (Some(got), None) => format!(
            "the program read more input than the reference; {} it prints \"{}\"",
            place(at),
            quoted(got, student, pattern)
        ),
        (None, None) => "no matches".to_string(),
    };
    let spot = |items: &[Item]| {
        items
            .get(at)
            .map_or_else(Spot::default, |i| Spot::at(i.line, i.offset))
    };
    let mut difference = difference(place(at), student, spot(&s), reference, spot(&r), None);
    // A message missing after an input is missing right after the line the input was typed
    // on: it comes before anything else the program printed there instead.
    if s.get(at).is_none_or(|item| item.value == NO_MATCH) {
        difference.student_line = Some(super::view::missing_line(student, at));
    }
    if presence {
        // A message is there or not: no share.
        return Evaluation::fail(detail, difference);
    }
    // A sequence earns the share of its places after an input (what is printed before the
    // first is the start, not play) where either side prints an item, for those before the
    // first difference: a slip on the tenth of ten guesses costs a tenth.
    let printed =
        |items: &[Item], i: usize| items.get(i).is_some_and(|item| item.value != NO_MATCH);
    let matched = (1..at).filter(|&i| printed(&r, i)).count();
    let total = (1..s.len().max(r.len()))
        .filter(|&i| printed(&s, i) || printed(&r, i))
        .count();
    Evaluation::fail_after(
        detail,
        difference,
        matched,
        total,
        &format!("{} after an input", options.noun.many),
    )
}

/// The student's items at inputs, where a prompt the program held back until it had read the
/// answer ([`held_prompts`]) counts before that input when the reference prints it there and
/// the program printed none there: a prompt never flushed is late on the screen, not
/// missing (the report notes unflushed prompts apart).
fn with_held_prompts(
    student: &View,
    reference: &[Item],
    pattern: &Pattern,
    rules: ItemRules,
    presence: bool,
) -> Vec<Item> {
    let held = held_prompts(student, pattern, rules, presence);
    if held.iter().all(Option::is_none) {
        return items_at_inputs(student, pattern, rules, presence);
    }
    let lines: Vec<usize> = held.iter().flatten().map(|item| item.line).collect();
    let mut found = items_at_inputs_except(student, pattern, rules, presence, &lines);
    for (j, item) in held.into_iter().enumerate() {
        let Some(item) = item else {
            continue;
        };
        let wanted_before = reference.get(j).is_some_and(|r| r.value != NO_MATCH);
        let none_before = found.get(j).is_some_and(|s| s.value == NO_MATCH);
        let segment = if wanted_before && none_before {
            j
        } else {
            j + 1
        };
        if let Some(slot) = found.get_mut(segment) {
            // The held prompt is the first line after input j: later matches there win.
            if segment == j || slot.value == NO_MATCH {
                *slot = item;
            }
        }
    }
    found
}

/// Compares the sequences of `pattern` matches; not applicable when neither side has one.
/// A failing verdict records whether the student printed any match after its first input.
pub fn evaluate_lines(
    student: &View,
    reference: &View,
    pattern: &Pattern,
    options: LineOptions<'_>,
) -> Evaluation {
    let mut evaluation = compare_lines(student, reference, pattern, options);
    if !evaluation.passed {
        // A game is played when an item follows a move: an input after the ones the
        // reference read before its first item (nim's first matches follow "y": the start),
        // or one the reference answered with no item before its first (a refused guess).
        let start = items(reference, pattern, options.rules, false)
            .first()
            .map_or(0, |i| reference.inputs_before(i.offset));
        let inputs: Vec<usize> = items(student, pattern, options.rules, false)
            .iter()
            .map(|i| student.inputs_before(i.offset))
            .collect();
        evaluation.in_game = inputs
            .iter()
            .any(|&inputs| super::view::after_a_move(inputs, start));
        evaluation.shown = super::Shown {
            items: inputs.len(),
            after_input: inputs.iter().filter(|&&inputs| inputs > 0).count(),
        };
    }
    evaluation
}

/// Compares the items `pattern` finds in the program's output with the reference's (one per
/// input with `at_inputs`), as `options` say: the first that differs is the failure, with the
/// relaxation that would have passed and where the outputs part.
fn compare_lines(
    student: &View,
    reference: &View,
    pattern: &Pattern,
    options: LineOptions<'_>,
) -> Evaluation {
    if options.at_inputs {
        return evaluate_at_inputs(student, reference, pattern, options);
    }
    let LineOptions {
        noun,
        rules,
        dedup,
        compare,
        optional,
        at_inputs: _,
        free_elsewhere: _,
        any_wording: _,
    } = options;
    let s = items(student, pattern, rules, dedup);
    let r = items(reference, pattern, rules, dedup);
    if (s.is_empty() && r.is_empty()) || (optional && s.is_empty()) {
        return Evaluation::not_applicable();
    }
    let common = s.len().min(r.len());
    let at = match compare {
        Compare::Sequence => (0..common)
            .find(|&i| s[i].value != r[i].value)
            .or((s.len() != r.len()).then_some(common)),
        Compare::Count => (s.len() != r.len()).then_some(common),
        Compare::Presence => (s.is_empty() != r.is_empty()).then_some(0),
    };
    let Some(at) = at else {
        return Evaluation::pass(match compare {
            Compare::Presence => "present, like the reference".to_string(),
            _ => format!("all {} match", r.len()),
        });
    };
    let sides = Sides {
        student,
        reference,
        pattern,
        s,
        r,
    };
    let relaxation = sides.relaxation(rules, dedup, compare);
    let detail = sides.detail(at, noun);
    let difference = sides.difference(at, noun, relaxation);
    let Sides { s, r, .. } = sides;
    if compare == Compare::Sequence {
        let offsets = |items: &[Item]| items.iter().map(|i| i.offset).collect::<Vec<_>>();
        let matched = super::view::in_place(student, &offsets(&s), reference, &offsets(&r), at);
        // A single expected item (a winner line) is not a sequence to share.
        let total = if r.len() <= 1 {
            1
        } else {
            s.len().max(r.len())
        };
        Evaluation::fail_after_agreeing(detail, difference, at, matched, total, noun.many)
    } else {
        Evaluation::fail(detail, difference)
    }
}

/// The items of one comparison that failed (see [`compare_lines`]), and the outputs they were
/// found in: what its feedback is made of.
struct Sides<'a> {
    student: &'a View,
    reference: &'a View,
    pattern: &'a Pattern,
    /// The program's items.
    s: Vec<Item>,
    /// The reference's items.
    r: Vec<Item>,
}

impl Sides<'_> {
    /// The first relaxation of `rules` (capitalisation, punctuation, only the numbers) under
    /// which the comparison would have held: the feedback names it.
    fn relaxation(&self, rules: ItemRules, dedup: bool, compare: Compare) -> Option<String> {
        [
            (
                ItemRules {
                    ignore_case: true,
                    ..rules
                },
                "ignoring capitalisation",
            ),
            (
                ItemRules {
                    ignore_case: true,
                    ignore_punctuation: true,
                    ..rules
                },
                "ignoring capitalisation and punctuation",
            ),
            (
                ItemRules {
                    numbers: true,
                    ..rules
                },
                "comparing only the numbers",
            ),
        ]
        .into_iter()
        .filter(|(relaxed, _)| *relaxed != rules)
        .find(|(relaxed, _)| {
            let s = values(self.student, self.pattern, *relaxed, dedup);
            let r = values(self.reference, self.pattern, *relaxed, dedup);
            holds_under(&s, &r, compare)
        })
        .map(|(_, text)| text.to_string())
    }

    /// What differs at item `at`, in words: the two items, or how many there were and the
    /// next expected or first extra one; and when the program's item came after an input the
    /// reference answered with none, that input named.
    fn detail(&self, at: usize, noun: Noun<'_>) -> String {
        let (s, r) = (&self.s, &self.r);
        let (student, reference, pattern) = (self.student, self.reference, self.pattern);
        let detail = match (s.get(at), r.get(at)) {
            (Some(got), Some(want)) => format!(
                "{} {} is \"{}\", expected \"{}\"{}",
                noun.one,
                at + 1,
                quoted(got, student, pattern),
                quoted(want, reference, pattern),
                what_differs(s, r, &got.value, &want.value)
            ),
            (None, Some(want)) => format!(
                "found {} {}, expected {}; the next expected is \"{}\"",
                s.len(),
                noun.many,
                r.len(),
                quoted(want, reference, pattern)
            ),
            (Some(got), None) => format!(
                "found {} {}, expected {}; the first extra is \"{}\"",
                s.len(),
                noun.many,
                r.len(),
                quoted(got, student, pattern)
            ),
            (None, None) => format!("no {}", noun.many),
        };
        // The program's item came after an input the reference answered with none: name it.
        match s.get(at).and_then(|got| {
            let answered: Vec<usize> = r
                .iter()
                .map(|i| reference.inputs_before(i.offset))
                .collect();
            super::view::taken_where_refused(
                student,
                student.inputs_before(got.offset),
                reference,
                &answered,
                noun.one,
            )
        }) {
            Some(note) => format!("{detail}; {note}"),
            None => detail,
        }
    }

    /// Where the outputs part at item `at`, for the report's excerpt; a program that printed
    /// fewer items differs after its last one that agreed.
    fn difference(
        &self,
        at: usize,
        noun: Noun<'_>,
        relaxation: Option<String>,
    ) -> crate::results::Difference {
        let student = self.student;
        let spot = |items: &[Item]| {
            items
                .get(at)
                .map_or_else(Spot::default, |i| Spot::at(i.line, i.offset))
        };
        let mut difference = difference(
            format!("{} {}", noun.one, at + 1),
            student,
            spot(&self.s),
            self.reference,
            spot(&self.r),
            relaxation,
        );
        // The program printed fewer: it differs from the first line after its last item that
        // agreed (and no earlier than the output answering the same inputs as the reference's).
        let last = at.checked_sub(1).and_then(|i| self.s.get(i));
        if let (None, Some(last)) = (self.s.get(at), last) {
            let answer = student.first_line_after(difference.inputs_before);
            let after = (last.line + 1).max(answer);
            // Missing from the answer to an input: right after the line it was typed on, like
            // any missing output (see `view::difference`).
            difference.student_line = Some(if after > answer {
                after + 1
            } else {
                super::view::missing_line(student, difference.inputs_before)
            });
            // And shows what it printed there instead.
            let lines: Vec<&str> = student.display().lines().collect();
            difference.actual = super::view::context(&lines, after);
        }
        difference
    }
}

/// An item as a report quotes it: its value, or for a match that names no item (the `tie`
/// branch of a winner pattern has no group) the words it matched, so that a tie never reads
/// as `""`.
fn quoted(item: &Item, view: &View, pattern: &Pattern) -> String {
    if !item.value.is_empty() {
        return item.value.clone();
    }
    view.text
        .get(item.offset..)
        .and_then(|rest| pattern.captures(rest.lines().next().unwrap_or_default()))
        .and_then(|captures| {
            captures
                .get(0)
                .map(|whole| whole.as_str().trim().to_string())
        })
        .filter(|words| !words.is_empty())
        .unwrap_or_else(|| "(a line naming none)".to_string())
}

/// The reduced values of every match.
fn values(view: &View, pattern: &Pattern, rules: ItemRules, dedup: bool) -> Vec<String> {
    items(view, pattern, rules, dedup)
        .into_iter()
        .map(|i| i.value)
        .collect()
}

/// Whether a relaxation really would have passed: under it both sides still have items, no
/// item was reduced to nothing (`|||` without punctuation, a word without numbers), and the
/// items agree as `compare` requires.
pub fn holds_under(student: &[String], reference: &[String], compare: Compare) -> bool {
    let full = |items: &[String]| !items.is_empty() && items.iter().all(|i| !i.is_empty());
    if !full(student) || !full(reference) {
        return false;
    }
    match compare {
        Compare::Sequence => student == reference,
        Compare::Count => student.len() == reference.len(),
        Compare::Presence => true,
    }
}

/// Names what differs between two items of equal-length sequences beyond their text: only
/// the order, or only a number.
fn what_differs(s: &[Item], r: &[Item], got: &str, want: &str) -> String {
    // One number for another is a wrong number, even when the other items hold it too (the
    // computer's moves 3, 1 for 1, 3): "the same items in a different order" says too much.
    let bare_number = |t: &str| t.trim().parse::<i64>().is_ok();
    if s.len() == r.len() && !(bare_number(got) && bare_number(want)) {
        let mut a: Vec<&str> = s.iter().map(|i| i.value.as_str()).collect();
        let mut b: Vec<&str> = r.iter().map(|i| i.value.as_str()).collect();
        a.sort_unstable();
        b.sort_unstable();
        if a == b {
            return " (the same items in a different order)".to_string();
        }
    }
    let (g, w) = (numbers_in(got), numbers_in(want));
    let words = |t: &str| {
        t.chars()
            .filter(|c| !c.is_ascii_digit() && *c != '-')
            .collect::<String>()
    };
    if !w.is_empty() && !g.is_empty() && g != w && words(got) == words(want) {
        return format!(" (the number differs: {} for {})", g.join(" "), w.join(" "));
    }
    String::new()
}

/// Visible characters a program may print beyond `max_ratio` times the reference's: room
/// for a greeting, instructions and a farewell in a short case.
pub const VOLUME_ALLOWANCE: usize = 400;

/// The visible (non-whitespace) characters of a view.
fn visible(view: &View) -> usize {
    view.text.chars().filter(|c| !c.is_whitespace()).count()
}

/// Passes when the student printed at most `max_ratio` times the reference's visible
/// characters (plus [`VOLUME_ALLOWANCE`]): pages of junk cost points, a student's extra
/// lines never do.
pub fn evaluate_volume(student: &View, reference: &View, max_ratio: f64) -> Evaluation {
    let s = visible(student);
    let r = visible(reference);
    let allowed = (r as f64 * max_ratio) as usize + VOLUME_ALLOWANCE;
    if s <= allowed {
        // It only ever takes points: within bounds it is left out of the case's score.
        return Evaluation {
            detail: format!("printed {s} visible characters; the reference {r}"),
            ..Evaluation::not_applicable()
        };
    }
    Evaluation::fail(
        format!(
            "printed {s} visible characters, more than {max_ratio} times the reference's {r} \
             (at most {allowed})"
        ),
        crate::results::Difference {
            location: "the whole output".into(),
            expected: format!("at most {allowed} visible characters"),
            actual: format!("{s} visible characters"),
            // Judged on the whole run: after every input.
            inputs_before: student.input_offsets.len(),
            relaxation: None,
            student_line: None,
        },
    )
}

/// Where `needle` occurs in `view` (under the loose comparison unless `exact`).
fn occurrences(view: &View, needle: &str, exact: bool) -> Vec<(usize, usize)> {
    let rules = ItemRules {
        numbers: false,
        ignore_case: true,
        ignore_punctuation: true,
    };
    let wanted = if exact {
        needle.to_string()
    } else {
        reduce(needle, rules)
    };
    if wanted.is_empty() {
        return Vec::new();
    }
    let mut found = Vec::new();
    for (index, (start, line)) in view.lines().enumerate() {
        let haystack = if exact {
            line.to_string()
        } else {
            reduce(line, rules)
        };
        let count = haystack.matches(wanted.as_str()).count();
        found.extend(std::iter::repeat_n((index, start), count));
    }
    found
}

/// Compares how often `text` appears; not applicable when it appears on neither side.
pub fn evaluate_contains(
    student: &View,
    reference: &View,
    text: &str,
    exact: bool,
    presence_only: bool,
) -> Evaluation {
    let s = occurrences(student, text, exact);
    let r = occurrences(reference, text, exact);
    if s.is_empty() && r.is_empty() {
        return Evaluation::not_applicable();
    }
    let same = if presence_only {
        s.is_empty() == r.is_empty()
    } else {
        s.len() == r.len()
    };
    if same {
        return Evaluation::pass(format!("\"{text}\" appears {} time(s)", r.len()));
    }
    let at = s.len().min(r.len());
    let spot = |found: &[(usize, usize)]| {
        found
            .get(at)
            .map_or_else(Spot::default, |&(line, offset)| Spot::at(line, offset))
    };
    let relaxation = (exact && occurrences(student, text, false).len() == r.len())
        .then(|| "ignoring capitalisation and punctuation".to_string());
    Evaluation::fail(
        format!(
            "\"{text}\" appears {} time(s), expected {}",
            s.len(),
            r.len()
        ),
        difference(
            format!("occurrence {}", at + 1),
            student,
            spot(&s),
            reference,
            spot(&r),
            relaxation,
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> View {
        View::from_text(text)
    }

    const LOOSE: LineOptions = LineOptions {
        noun: Noun::ITEM,
        rules: ItemRules {
            numbers: false,
            ignore_case: true,
            ignore_punctuation: false,
        },
        dedup: false,
        compare: Compare::Sequence,
        optional: false,
        at_inputs: false,
        free_elsewhere: false,
        any_wording: false,
    };

    fn with_inputs(parts: &[&str]) -> View {
        // Output pieces with an input typed between each two (as the LineBreak view shows).
        let mut t = crate::transcript::Transcript::new();
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                t.push_input("x");
            }
            t.push_output(crate::transcript::Stream::Stdout, part.as_bytes());
        }
        View::new(&t, super::super::view::InputShown::LineBreak)
    }

    /// A game of guesses with a score after each: `scores[i]` answers guess i + 1 (`None`: the
    /// guess is refused, no score), the last one winning.
    fn guesses(scores: &[Option<u32>]) -> View {
        let mut parts = vec!["Guess: ".to_string()];
        for (i, score) in scores.iter().enumerate() {
            let answer = match score {
                Some(score) => format!("Score: {score}\n"),
                None => "Not a guess.\n".to_string(),
            };
            let next = if i + 1 == scores.len() {
                "You win\n"
            } else {
                "Guess: "
            };
            parts.push(format!("{answer}{next}"));
        }
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        with_inputs(&parts)
    }

    #[test]
    fn an_at_inputs_sequence_earns_the_share_of_answers_before_its_first_difference() {
        // Issue 32: a slip on the tenth of ten guesses cost the whole check; the docs
        // promise the share of items that agree at their place before the first difference.
        let pattern = Pattern::new(r"(?i)score\D*(\d+)", false).expect("regex");
        let options = LineOptions {
            noun: Noun {
                one: "score line",
                many: "score lines",
            },
            at_inputs: true,
            ..LOOSE
        };
        let right = [0, 1, 1, 2, 2, 3, 3, 2, 3, 4].map(Some);
        let reference = guesses(&right);
        // Worked by hand: ten places after an input hold a score on both sides (the prompt
        // before the first guess holds none). A late slip, on guess 10: 9 of 10 agree.
        let mut late = right;
        late[9] = Some(3);
        let e = evaluate_lines(&guesses(&late), &reference, &pattern, options);
        assert!(!e.passed);
        assert!((e.partial - 0.9).abs() < 1e-9, "{}", e.partial);
        assert!(
            e.detail.ends_with(
                "; 9 of 10 score lines after an input agree before the first difference"
            ),
            "{}",
            e.detail
        );
        // An early slip, on guess 2: only guess 1 agrees before it, 1 of 10.
        let mut early = right;
        early[1] = Some(0);
        let e = evaluate_lines(&guesses(&early), &reference, &pattern, options);
        assert!((e.partial - 0.1).abs() < 1e-9, "{}", e.partial);
        // A guess both refuse (no score on either side) is no place: 11 inputs, 10 places, a
        // slip on the last: 9 of 10 again.
        let refused = |last: u32| {
            let mut scores: Vec<Option<u32>> = right[..2].to_vec();
            scores.push(None);
            scores.extend_from_slice(&right[2..9]);
            scores.push(Some(last));
            guesses(&scores)
        };
        let e = evaluate_lines(&refused(3), &refused(4), &pattern, options);
        assert!((e.partial - 0.9).abs() < 1e-9, "{}", e.detail);
        // A message is there or not (presence): no share.
        let presence = LineOptions {
            compare: Compare::Presence,
            ..options
        };
        let message = Pattern::new(r"(?i)not a guess", false).expect("regex");
        let e = evaluate_lines(&refused(4), &guesses(&right), &message, presence);
        assert!(!e.passed);
        assert_eq!(e.partial, 0.0);
        // A result line printed one input early: nothing agrees before it, nothing earned.
        let win = Pattern::new(r"(?i)you win", false).expect("regex");
        let e = evaluate_lines(&guesses(&right[..9]), &reference, &win, options);
        assert!(!e.passed);
        assert_eq!(e.partial, 0.0);
    }

    #[test]
    fn at_inputs_counts_a_message_only_where_it_belongs() {
        let pattern = Pattern::new(r"(?i)(illegal|invalid)", false).expect("regex");
        let options = LineOptions {
            at_inputs: true,
            compare: Compare::Presence,
            ..LOOSE
        };
        let reference = with_inputs(&["Move: ", "Illegal move!\nMove: ", "board\nMove: ", "end\n"]);
        let moved = with_inputs(&["Move: ", "board\nMove: ", "Invalid!\nMove: ", "end\n"]);
        let e = evaluate_lines(&moved, &reference, &pattern, options);
        assert!(!e.passed);
        assert!(e.detail.contains("after input 1"), "{}", e.detail);
        let same_place = with_inputs(&[
            "Move: ",
            "That is invalid.\nMove: ",
            "board\nMove: ",
            "end\n",
        ]);
        assert!(evaluate_lines(&same_place, &reference, &pattern, options).passed);
        // The prompt a line ends with belongs to the input typed after it.
        let turn = Pattern::new(r"(?i)player\W*([12])", false).expect("regex");
        let sequence = LineOptions {
            at_inputs: true,
            ..LOOSE
        };
        let reference = with_inputs(&["Player 1: ", "Player 2: ", "Player 2: ", "Player 1 wins\n"]);
        let prompt_on_own_line = with_inputs(&[
            "Player 1:\n",
            "Player 2 moved\nPlayer 2:\n",
            "Player 2:\n",
            "Player 1 wins\n",
        ]);
        let e = evaluate_lines(&prompt_on_own_line, &reference, &turn, sequence);
        assert!(e.passed, "{e:?}");
        let passes_turn =
            with_inputs(&["Player 1: ", "Player 2: ", "Player 1: ", "Player 1 wins\n"]);
        let e = evaluate_lines(&passes_turn, &reference, &turn, sequence);
        // Inputs 1 to 3 each get a turn named on both sides; input 1's agrees: 1 of 3.
        assert_eq!(
            e.detail,
            "after input 2: found \"1\", expected \"2\"; 1 of 3 items after an input agree \
             before the first difference"
        );
        assert!((e.partial - 1.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn a_prompt_held_back_until_its_answer_counts_before_it() {
        // Nim's replay question: printed with no flush, it comes out only after the answer
        // (here at exit), joined to nothing; the error after a refused answer still counts
        // only after it, even when the held prompt comes first on its line.
        let question =
            Pattern::new(r"(?i)would\W+you\W+like\W+to\W+play\W+again", false).expect("regex");
        let options = LineOptions {
            at_inputs: true,
            compare: Compare::Presence,
            ..LOOSE
        };
        let reference = with_inputs(&[
            "Game Over - Computer wins.\n\nWould you like to play again? (Y/N): ",
            "Please, answer Y or N.\nWould you like to play again? (Y/N): ",
            "",
        ]);
        let held = with_inputs(&[
            "Game Over - Computer wins.\n\n",
            "Would you like to play again? (Y/N): Please, answer Y or N.\n",
            "Would you like to play again? (Y/N): ",
        ]);
        let e = evaluate_lines(&held, &reference, &question, options);
        assert!(e.passed, "{e:?}");
        let error = Pattern::new(r"(?i)please\W+answer\W+y\W+or\W+n", false).expect("regex");
        assert!(evaluate_lines(&held, &reference, &error, options).passed);
        // A program that never asks before the answer and asks only at the end is still
        // missing the question where the reference asks it.
        let asks_once = with_inputs(&[
            "Game Over - Computer wins.\n\n",
            "Please, answer Y or N.\n",
            "Would you like to play again? (Y/N): ",
        ]);
        assert!(!evaluate_lines(&asks_once, &reference, &question, options).passed);
        // A message at the start of the line after its input, with the prompt on a line of
        // its own before the input, stays where it was printed: after the input.
        let own_line = with_inputs(&["Move:\n", "Illegal move!\nMove:\n", "end\n"]);
        let illegal = Pattern::new(r"(?i)illegal", false).expect("regex");
        let reference = with_inputs(&["Move: ", "Illegal move!\nMove: ", "end\n"]);
        assert!(evaluate_lines(&own_line, &reference, &illegal, options).passed);
    }

    #[test]
    fn the_first_prompt_counts_among_the_items_that_agree() {
        // Four prompts, the first before any input; the program's fourth differs. Worked by
        // hand: prompts 1-3 agree, and 2 of them (after inputs 1 and 2) were printed at their
        // place after an input, which earns 2/4 of the check; the first is the game's start.
        let prompts = Pattern::new(r"(?i)guess (\d+):", false).expect("regex");
        let options = LineOptions {
            noun: Noun {
                one: "prompt",
                many: "prompts",
            },
            ..LOOSE
        };
        let reference = with_inputs(&["Guess 1: ", "Guess 2: ", "Guess 3: ", "Guess 4: "]);
        let student = with_inputs(&["Guess 1: ", "Guess 2: ", "Guess 3: ", "Guess 5: "]);
        let e = evaluate_lines(&student, &reference, &prompts, options);
        assert!(!e.passed);
        assert_eq!(e.partial, 0.5);
        assert_eq!(
            e.detail,
            "prompt 4 is \"5\", expected \"4\" (the number differs: 5 for 4); 3 of 4 prompts \
             agree before the first difference, 2 of them at their place after an input (the \
             share earned)"
        );
        // All agreeing items after an input: said as before.
        let reference = with_inputs(&["", "Guess 1: ", "Guess 2: ", "Guess 3: "]);
        let student = with_inputs(&["", "Guess 1: ", "Guess 2: ", "Guess 4: "]);
        let e = evaluate_lines(&student, &reference, &prompts, options);
        assert_eq!(
            e.detail,
            "prompt 3 is \"4\", expected \"3\" (the number differs: 4 for 3); 2 of 3 prompts \
             agree before the first difference"
        );
    }

    #[test]
    fn a_hint_is_given_only_when_it_would_have_passed() {
        // The matches drawn as pipes: without punctuation both sides become empty, so
        // "ignoring punctuation" must not be suggested for a wrong number of matches.
        let matches = Pattern::new(r"(?i)matches\s*:?\s*(\|[| ]*)", false).expect("regex");
        let e = evaluate_lines(
            &view("Matches: ||||| ||\nMatches: ||||\n"),
            &view("Matches: ||||| |||\nMatches: ||||\n"),
            &matches,
            LOOSE,
        );
        assert!(!e.passed);
        assert_eq!(e.difference.and_then(|d| d.relaxation), None);
        // Turn order swapped: comparing only the numbers would empty both sides.
        let turns = Pattern::new(r"(?i)\b(player|computer)\s*turn\b", false).expect("regex");
        let e = evaluate_lines(
            &view("Computer Turn\nPlayer Turn\n"),
            &view("Player Turn\nComputer Turn\n"),
            &turns,
            LOOSE,
        );
        assert_eq!(
            e.detail,
            "item 1 is \"computer\", expected \"player\" (the same items in a different order); \
             0 of 2 items agree before the first difference"
        );
        assert_eq!(e.difference.and_then(|d| d.relaxation), None);
        // A wrong number is named as such, with no hint.
        let moves = Pattern::new(r"(?i)computer removes \d+", false).expect("regex");
        let e = evaluate_lines(
            &view("Computer removes 2.\n"),
            &view("Computer removes 1.\n"),
            &moves,
            LOOSE,
        );
        assert_eq!(
            e.detail,
            "item 1 is \"computer removes 2\", expected \"computer removes 1\" (the number differs: 2 for 1)"
        );
        assert_eq!(e.difference.and_then(|d| d.relaxation), None);
        // A hint that holds is still given: the same items but for capitalisation.
        let strict = LineOptions {
            rules: ItemRules::default(),
            ..LOOSE
        };
        let e = evaluate_lines(
            &view("Computer removes 1.\n"),
            &view("computer removes 1.\n"),
            &moves,
            strict,
        );
        assert_eq!(
            e.difference.and_then(|d| d.relaxation).as_deref(),
            Some("ignoring capitalisation")
        );
        assert!(!holds_under(&["".into()], &["".into()], Compare::Sequence));
        assert!(!holds_under(&[], &[], Compare::Presence));
        assert!(holds_under(&["a".into()], &["a".into()], Compare::Sequence));
    }

    #[test]
    fn free_elsewhere_compares_only_where_the_reference_has_a_match() {
        let errors = Pattern::new(r"(?i)\b(?:between|used)\b", false).expect("regex");
        let options = LineOptions {
            at_inputs: true,
            compare: Compare::Presence,
            free_elsewhere: true,
            ..LOOSE
        };
        let reference = with_inputs(&["Number: ", "That is used.\nNumber: ", "Number: ", "end\n"]);
        // A prompt naming the range matches everywhere: only input 1 is compared.
        let ranged = with_inputs(&[
            "Number between 0 and 9: ",
            "Already used!\nNumber between 0 and 9: ",
            "Number between 0 and 9: ",
            "end\n",
        ]);
        assert!(evaluate_lines(&ranged, &reference, &errors, options).passed);
        let silent = with_inputs(&["Number: ", "Number: ", "Number: ", "end\n"]);
        assert!(!evaluate_lines(&silent, &reference, &errors, options).passed);
        // Without playing (no input read) nothing is in place.
        let dumped = view("That is used.\nNumber between 0 and 9:\n");
        assert!(!evaluate_lines(&dumped, &reference, &errors, options).passed);
    }

    #[test]
    fn a_line_shape_keeps_words_and_marks_but_not_numbers_or_contents() {
        let shape = |line: &str| line_shape(line);
        // Numbers never count: the other player's prompt, another score.
        assert_eq!(
            shape("Player 1: Your number? "),
            shape("Player 2: Your number?")
        );
        assert_eq!(shape("Score: 3 to 12").as_deref(), Some("score to"));
        // A board row without letters is the set of its marks, whatever its cells hold.
        assert_eq!(shape("          4 | | | 0 | 9 |").as_deref(), Some("[|]"));
        assert_eq!(shape("| | | | |").as_deref(), Some("[|]"));
        assert_eq!(shape("1 2 3 4").as_deref(), Some("[]"));
        // A strip's coins drawn as letters, together or apart: the same shape.
        assert_eq!(shape("_ O _ O O").as_deref(), Some("o"));
        assert_eq!(shape("_O_OO").as_deref(), Some("o"));
        // Messages in any words or marks have their own.
        assert_eq!(shape("11?!").as_deref(), Some("[!?]"));
        assert_eq!(
            shape("*** Numbers go from 0 to 9 only.").as_deref(),
            Some("numbers go from to only")
        );
        assert_eq!(
            shape("Feld 10 ist BESETZT.").as_deref(),
            Some("feld ist besetzt")
        );
        assert_eq!(
            shape("¡Ese movimiento no vale!").as_deref(),
            Some("ese movimiento no vale")
        );
        assert_eq!(shape("   \t"), None);
        assert_eq!(shape(""), None);
    }

    #[test]
    fn held_prompts_are_the_first_words_of_an_ordinary_line() {
        let ordinary: std::collections::HashSet<&str> =
            ["number position score board", "[|]"].into_iter().collect();
        // Prompts held back and printed together: the start of the line they usually begin.
        assert!(begins_an_ordinary_line("number", &ordinary));
        assert!(begins_an_ordinary_line("number position", &ordinary));
        // Not whole words of its start, the whole line itself, other words, or marks.
        assert!(!begins_an_ordinary_line("numb", &ordinary));
        assert!(!begins_an_ordinary_line(
            "number position score board",
            &ordinary
        ));
        assert!(!begins_an_ordinary_line("position", &ordinary));
        assert!(!begins_an_ordinary_line("[", &ordinary));
        assert!(!begins_an_ordinary_line("[|", &ordinary));
    }

    #[test]
    fn a_message_in_any_words_counts_where_the_reference_refuses_an_input() {
        // The Game of M's "12" then "10": refused after input 2, then "9" "10" accepted.
        let errors =
            Pattern::new(r"(?i)^[^?]*\b(?:must|range|between|used)\b[^?]*$", false).expect("regex");
        let options = LineOptions {
            at_inputs: true,
            compare: Compare::Presence,
            free_elsewhere: true,
            any_wording: true,
            ..LOOSE
        };
        let board = "Score: 0 to 0\n| | | |\n";
        let reference = with_inputs(&[
            &format!("{board}Number? "),
            "Position? ",
            "The number must be from 0 to 9.\nNumber? ",
            "Position? ",
            "Score: 1 to 0\n| | 9 |\nNumber? ",
        ]);
        let student = |message: &str| {
            with_inputs(&[
                &format!("{board}Player 1 number: "),
                "Player 1 position: ",
                &format!("{message}Player 1 number: "),
                "Player 1 position: ",
                "Score: 1 to 0\n| | 9 |\nPlayer 2 number: ",
            ])
        };
        let passes =
            |message: &str| evaluate_lines(&student(message), &reference, &errors, options);
        for message in [
            "There is no position 11 - use 1 through 10.\n",
            "*** Numbers go from 0 to 9 only.\n",
            "Nope, 12 is off the board.\n",
            "12?!\n",
            "Die Zahl 12 gibt es nicht.\n",
            // With the board again: the message still counts.
            "\nSorry!\n\nScore: 0 to 0\n| | | |\n",
        ] {
            let e = passes(message);
            assert!(e.passed, "{message:?}: {}", e.detail);
        }
        // Asking again with the usual prompt and board is no message, nor is nothing at all.
        let silent = passes("Score: 0 to 0\n| | | |\n");
        assert!(!silent.passed);
        assert_eq!(
            silent.detail,
            "no message after input 2, where the reference prints \"The number must be from 0 \
             to 9.\": the program printed only lines it also prints after inputs the reference \
             accepts (its prompt, board or score); a line of its own, in any words, would count"
        );
        assert_eq!(passes("").detail, silent.detail);
        // A program that printed nothing at all there (its prompts come before each input).
        let quiet = with_inputs(&[
            &format!("{board}Player 1 number: "),
            "Player 1 position: ",
            "",
            "Player 1 number: Player 1 position: ",
            "Score: 1 to 0\n| | 9 |\nPlayer 2 number: ",
        ]);
        let nothing = evaluate_lines(&quiet, &reference, &errors, options);
        assert_eq!(
            nothing.detail,
            "nothing printed after input 2, where the reference prints \"The number must be \
             from 0 to 9.\" (a line of its own, in any words, would count)"
        );
        // The 12 taken as a move: a new board and score, but no message.
        assert!(!passes("Score: 1 to 0\n| | 12 |\n").passed);
        // A prompt naming the range matches the vocabulary, but asked again it is no message.
        let ranged = |message: &str| {
            with_inputs(&[
                &format!("{board}Number between 0 and 9: "),
                "Position between 1 and 10: ",
                &format!("{message}Number between 0 and 9: "),
                "Position between 1 and 10: ",
                "Score: 1 to 0\n| | 9 |\nNumber between 0 and 9: ",
            ])
        };
        assert!(!evaluate_lines(&ranged(""), &reference, &errors, options).passed);
        assert!(evaluate_lines(&ranged("No!\n"), &reference, &errors, options).passed);
        // Where the reference accepts, a refusal in its vocabulary still fails without
        // `free_elsewhere` (Silver Dollar: a legal move refused).
        let strict = LineOptions {
            free_elsewhere: false,
            ..options
        };
        let refuses_legal = with_inputs(&[
            &format!("{board}Number? "),
            "That must be wrong.\nPosition? ",
            "Oops.\nNumber? ",
            "Position? ",
            "Score: 1 to 0\n| | 9 |\nNumber? ",
        ]);
        let e = evaluate_lines(&refuses_legal, &reference, &errors, strict);
        assert_eq!(
            e.detail,
            "printed after input 1, where the reference does not print it"
        );
    }

    #[test]
    fn volume_takes_points_only_for_pages_of_output() {
        // The reference prints 100 visible characters: up to 8 × 100 + 400 = 1200 is fine.
        let reference = view(&"x".repeat(100));
        let within = evaluate_volume(&view(&"y\n".repeat(1200)), &reference, 8.0);
        assert!(within.not_applicable && within.passed, "{within:?}");
        let over = evaluate_volume(&view(&"y\n".repeat(1201)), &reference, 8.0);
        assert!(!over.passed && !over.not_applicable);
        assert!(
            over.detail.starts_with("printed 1201 visible characters"),
            "{}",
            over.detail
        );
        // Blank lines and spaces are not counted.
        let spaced = evaluate_volume(&view(&"\n \n".repeat(5000)), &reference, 8.0);
        assert!(spaced.not_applicable);
    }

    /// A winner pattern's tie branch names no player: the feedback quotes the words matched
    /// ("tie"), never `""`.
    #[test]
    fn a_tie_is_quoted_in_its_own_words() {
        let pattern = Pattern::new(
            r"(?i)player\s*([12])\b[^\n]*\bwins?\b|\b(?:tie|tied|draw)\b",
            false,
        )
        .expect("regex");
        let e = evaluate_lines(
            &view("Player 1 wins!\n"),
            &view("It's a tie!\n"),
            &pattern,
            LOOSE,
        );
        assert!(!e.passed);
        assert_eq!(e.detail, "item 1 is \"1\", expected \"tie\"");
        let e = evaluate_lines(&view("Draw.\n"), &view("Player 2 wins\n"), &pattern, LOOSE);
        assert_eq!(e.detail, "item 1 is \"Draw\", expected \"2\"");
    }

    /// One number for another is named as a wrong number, not as "the same items in a
    /// different order", even when the other items hold the same numbers.
    #[test]
    fn a_single_number_is_never_the_same_items_in_a_different_order() {
        let pattern = Pattern::new(r"(?i)computer removes (\d+)", false).expect("regex");
        let e = evaluate_lines(
            &view("Computer removes 3.\nComputer removes 1.\n"),
            &view("Computer removes 1.\nComputer removes 3.\n"),
            &pattern,
            LOOSE,
        );
        assert!(!e.passed);
        assert!(!e.detail.contains("different order"), "{}", e.detail);
        assert!(
            e.detail
                .starts_with("item 1 is \"3\", expected \"1\" (the number differs: 3 for 1)"),
            "{}",
            e.detail
        );
    }

    #[test]
    fn capture_groups_form_the_item() {
        let pattern = Pattern::new(r"(?i)game over\W+(\w+)\s+wins", false).expect("regex");
        let reference = view("Game Over - Computer wins.\n");
        let e = evaluate_lines(
            &view("Game over - computer Wins!\n"),
            &reference,
            &pattern,
            LOOSE,
        );
        assert!(e.passed, "{}", e.detail);
        let e = evaluate_lines(
            &view("Game Over - Player wins.\n"),
            &reference,
            &pattern,
            LOOSE,
        );
        assert!(!e.passed);
        assert_eq!(e.detail, "item 1 is \"player\", expected \"computer\"");
    }

    #[test]
    fn numbers_mode_and_missing_items() {
        let pattern = Pattern::new(r"(?i)score.*", false).expect("regex");
        let rules = LineOptions {
            rules: ItemRules {
                numbers: true,
                ..LOOSE.rules
            },
            ..LOOSE
        };
        let reference = view("Your score is: 32\nYour score is: 46\n");
        assert!(
            evaluate_lines(
                &view("your score:32\nscore =  46\n"),
                &reference,
                &pattern,
                rules
            )
            .passed
        );
        let e = evaluate_lines(&view("Your score is: 32\n"), &reference, &pattern, rules);
        assert!(!e.passed);
        assert!(e.detail.contains("expected 2"), "{}", e.detail);
        assert!(evaluate_lines(&view("x\n"), &view("y\n"), &pattern, rules).not_applicable);
    }

    #[test]
    fn ascii_text_reduces_as_any_text_does() {
        for text in [
            "  Player  Turn -\tMatches: |||||  ||\x0b",
            "",
            " ",
            "A,b.C!",
            "x\r\n",
        ] {
            for bits in 0..4 {
                let (ignore_case, ignore_punctuation) = (bits & 1 != 0, bits & 2 != 0);
                let rules = ItemRules {
                    numbers: false,
                    ignore_case,
                    ignore_punctuation,
                };
                // The general path on the same text, as it was before the ASCII fast path.
                let mut slow: String = if ignore_punctuation {
                    text.chars()
                        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
                        .collect()
                } else {
                    text.to_string()
                };
                if ignore_case {
                    slow = slow.to_lowercase();
                }
                let slow = slow.split_whitespace().collect::<Vec<_>>().join(" ");
                assert_eq!(reduce(text, rules), slow, "{text:?} {rules:?}");
            }
        }
        assert_eq!(reduce("ÉTÉ  Été", LOOSE.rules), "été été");
    }

    #[test]
    fn numbers_keep_their_sign() {
        assert_eq!(numbers_in("-3 to 4, x-5"), vec!["-3", "4", "-5"]);
    }

    #[test]
    fn relaxation_is_suggested() {
        let pattern = Pattern::new(r"(?i)computer removes \d", false).expect("regex");
        let strict = LineOptions::default();
        let e = evaluate_lines(
            &view("computer removes 1\n"),
            &view("Computer removes 1\n"),
            &pattern,
            strict,
        );
        assert!(!e.passed);
        let relaxation = e.difference.and_then(|d| d.relaxation);
        assert_eq!(relaxation.as_deref(), Some("ignoring capitalisation"));
        // Each relaxation is named only when it is the one that would have passed.
        let hint = |student: &str, reference: &str, pattern: &str| {
            let pattern = Pattern::new(pattern, false).expect("regex");
            evaluate_lines(&view(student), &view(reference), &pattern, strict)
                .difference
                .and_then(|d| d.relaxation)
        };
        assert_eq!(
            hint("GAME OVER!!\n", "Game over.\n", r"(?i)game over[!.]*").as_deref(),
            Some("ignoring capitalisation and punctuation")
        );
        assert_eq!(
            hint(
                "Computer takes 2\n",
                "Computer removes 2\n",
                r"(?i)computer \w+ \d+"
            )
            .as_deref(),
            Some("comparing only the numbers")
        );
        assert_eq!(
            hint(
                "Computer takes 3\n",
                "Computer removes 2\n",
                r"(?i)computer \w+ \d+"
            ),
            None
        );
    }

    #[test]
    fn a_relaxation_holds_only_with_items_on_both_sides_that_agree() {
        let items = |values: &[&str]| values.iter().map(|v| v.to_string()).collect::<Vec<_>>();
        // One side empty: nothing would have passed, whatever the comparison.
        assert!(!holds_under(&[], &items(&["a"]), Compare::Presence));
        assert!(!holds_under(&items(&["a"]), &[], Compare::Presence));
        assert!(!holds_under(
            &items(&["a", ""]),
            &items(&["a", "b"]),
            Compare::Count
        ));
        assert!(holds_under(
            &items(&["a", "b"]),
            &items(&["c", "d"]),
            Compare::Count
        ));
        assert!(!holds_under(
            &items(&["a"]),
            &items(&["a", "b"]),
            Compare::Count
        ));
        assert!(!holds_under(
            &items(&["a", "b"]),
            &items(&["b", "a"]),
            Compare::Sequence
        ));
    }

    #[test]
    fn a_number_is_named_only_when_the_words_around_it_agree() {
        let moves = Pattern::new(r"(?i)computer \w+ -?\d+", false).expect("regex");
        let detail = |student: &str, reference: &str| {
            evaluate_lines(&view(student), &view(reference), &moves, LOOSE).detail
        };
        assert_eq!(
            detail("Computer takes 2\n", "Computer removes 1\n"),
            "item 1 is \"computer takes 2\", expected \"computer removes 1\""
        );
        assert_eq!(
            detail("Computer takes 2\n", "Computer removes 2\n"),
            "item 1 is \"computer takes 2\", expected \"computer removes 2\""
        );
        assert_eq!(
            detail("Computer removes -2\n", "Computer removes 1\n"),
            "item 1 is \"computer removes -2\", expected \"computer removes 1\" \
             (the number differs: -2 for 1)"
        );
    }

    #[test]
    fn output_within_the_volume_allowance_is_left_out_with_its_count() {
        let e = evaluate_volume(&view("Hello there\n"), &view("Hi\n"), 3.0);
        assert!(e.not_applicable);
        assert_eq!(e.detail, "printed 10 visible characters; the reference 2");
    }

    #[test]
    fn a_presence_check_says_what_it_found() {
        let pattern = Pattern::new(r"(?i)invalid", false).expect("regex");
        let presence = LineOptions {
            compare: Compare::Presence,
            ..LOOSE
        };
        let e = evaluate_lines(
            &view("Invalid!\nInvalid!\n"),
            &view("Invalid move.\n"),
            &pattern,
            presence,
        );
        assert!(e.passed);
        assert_eq!(e.detail, "present, like the reference");
    }

    #[test]
    fn dedup_count_and_presence() {
        let pattern = Pattern::new(r"(?i)player turn", false).expect("regex");
        let reference = view("Player Turn\nComputer\nPlayer Turn\n");
        let student = view("Player Turn\nPlayer Turn\nComputer\nPlayer Turn\n");
        assert!(!evaluate_lines(&student, &reference, &pattern, LOOSE).passed);
        let dedup = LineOptions {
            dedup: true,
            ..LOOSE
        };
        assert!(evaluate_lines(&student, &reference, &pattern, dedup).passed);
        let errors = Pattern::new(r"(?i)^[^?]*\b(used|empty)\b[^?]*$", false).expect("regex");
        let presence = LineOptions {
            compare: Compare::Presence,
            ..LOOSE
        };
        assert!(
            evaluate_lines(
                &view("Number used, position empty!\n"),
                &view("That number is used.\nThat position is not empty.\n"),
                &errors,
                presence
            )
            .passed
        );
        assert!(
            !evaluate_lines(
                &view("Your number? \n"),
                &view("That number is used.\n"),
                &errors,
                presence
            )
            .passed
        );
        let optional = LineOptions {
            optional: true,
            ..LOOSE
        };
        assert!(
            evaluate_lines(
                &view("Game ends.\n"),
                &view("Player Turn\n"),
                &pattern,
                optional
            )
            .not_applicable
        );
        assert!(
            !evaluate_lines(
                &view("Player Turn\nPlayer Turn\nComputer\n"),
                &view("Player Turn\n"),
                &pattern,
                optional
            )
            .passed
        );
        let count = LineOptions {
            compare: Compare::Count,
            ..LOOSE
        };
        assert!(
            evaluate_lines(
                &view("Player Turn\nPlayer Turn\n"),
                &reference,
                &pattern,
                count
            )
            .passed
        );
    }

    #[test]
    fn contains_compares_counts_loosely() {
        let reference = view("Please, answer Y or N.\nx\nPlease, answer Y or N.\n");
        assert!(
            evaluate_contains(
                &view("please answer y or n!\nPlease answer Y or N\n"),
                &reference,
                "Please, answer Y or N.",
                false,
                false
            )
            .passed
        );
        let e = evaluate_contains(
            &view("Please, answer Y or N.\n"),
            &reference,
            "Please, answer Y or N.",
            false,
            false,
        );
        assert!(!e.passed);
        assert!(evaluate_contains(&view("a"), &view("b"), "zzz", false, false).not_applicable);
        assert!(
            evaluate_contains(
                &view("Please, answer Y or N.\n"),
                &reference,
                "Please, answer Y or N.",
                false,
                true
            )
            .passed
        );
    }

    #[test]
    fn a_missing_message_comes_before_what_was_printed_instead() {
        // Input 1 is refused by the reference; the program takes it and shows the next turn.
        let reference = with_inputs(&["Move: ", "Illegal move!\nMove: ", "end\n"]);
        let student = with_inputs(&["Move: ", "Turn 2\nMove: ", "end\n"]);
        let message = evaluate_lines(
            &student,
            &reference,
            &Pattern::new(r"(?i)illegal", false).expect("regex"),
            LineOptions {
                at_inputs: true,
                compare: Compare::Presence,
                ..LOOSE
            },
        )
        .difference
        .expect("difference");
        let turns = evaluate_lines(
            &student,
            &reference,
            &Pattern::new(r"(?i)turn \d", false).expect("regex"),
            LineOptions {
                noun: Noun {
                    one: "turn",
                    many: "turns",
                },
                ..LOOSE
            },
        );
        // The input it took is named (issue 32).
        assert_eq!(
            turns.detail,
            "found 1 turns, expected 0; the first extra is \"turn 2\"; printed after input 1 \
             (\"x\"), where the reference printed no new turn"
        );
        let turns = turns.difference.expect("difference");
        // Both after input 1: the message belongs right after the line the input was typed
        // on (line 1), the turn was printed on line 2.
        assert_eq!((message.inputs_before, message.student_line), (1, Some(1)));
        assert_eq!((turns.inputs_before, turns.student_line), (1, Some(2)));
        assert!(message.order() < turns.order());
        assert_eq!(turns.location, "turn 1");
    }
}
