//! Programs that read all their input before they print (`sys.stdin.read().split()`,
//! `fs.readFileSync(0)`): graded on what they print, in order.
//!
//! Such a program's transcript holds every input first and all of its output after the last
//! one, so nothing can be said to come "after input N". Its output is laid against the
//! reference's instead: the two texts are compared word by word (a diff), and each input is
//! placed in the program's text where the reference's was, carried over the words both print
//! alike (boards, scores, the handout's messages). What lies between two inputs then is what
//! the program printed between the same two points of the game, in the program's own order:
//! a missing or wrong message, board or result still differs.

use similar::{capture_diff_slices, Algorithm, DiffOp};

use crate::check::view::{InputShown, View};
use crate::transcript::{Event, Stream, Transcript};

/// Whether `student` read all its input before it printed anything after its first input:
/// at least two inputs, no output between the first input and the end of input, and output
/// after it. Output before the first input (a title) may be there.
pub fn read_everything_first(student: &Transcript, end_of_input: usize) -> bool {
    let events = &student.events()[..end_of_input.min(student.events().len())];
    let Some(first_input) = events.iter().position(|e| matches!(e, Event::Input { .. })) else {
        return false;
    };
    let inputs = events
        .iter()
        .filter(|e| matches!(e, Event::Input { .. }))
        .count();
    let printed_between = events[first_input..]
        .iter()
        .any(|e| matches!(e, Event::Output { stream: Stream::Stdout, bytes } if !bytes.is_empty()));
    let printed_after = student.events()[end_of_input.min(student.events().len())..]
        .iter()
        .any(|e| matches!(e, Event::Output { stream: Stream::Stdout, bytes } if !bytes.iter().all(u8::is_ascii_whitespace)));
    inputs >= 2 && !printed_between && printed_after
}

/// The student's run with its inputs placed in its output where the reference's inputs are in
/// the reference's output (see the module's documentation). `None` when the reference shows
/// no input to place.
pub fn placed_like(student: &Transcript, reference: &Transcript) -> Option<Transcript> {
    let student_view = View::new(student, InputShown::Omitted);
    let reference_view = View::new(reference, InputShown::Omitted);
    let lines: Vec<String> = student.inputs().map(str::to_string).collect();
    if reference_view.input_offsets.is_empty() || lines.is_empty() {
        return None;
    }
    let offsets = carried_over(
        &reference_view.text,
        &reference_view.input_offsets,
        &student_view.text,
    );
    let text = student_view.text.as_str();
    let mut placed = Transcript::new();
    let mut from = 0;
    for (line, &at) in lines.iter().zip(&offsets) {
        placed.push_output(Stream::Stdout, &text.as_bytes()[from..at]);
        placed.push_input(line.clone());
        from = at;
    }
    // Inputs the reference never read (its game ended first) go where the output ends.
    for line in lines.iter().skip(offsets.len()) {
        placed.push_output(Stream::Stdout, &text.as_bytes()[from..]);
        from = text.len();
        placed.push_input(line.clone());
    }
    placed.push_output(Stream::Stdout, &text.as_bytes()[from..]);
    for event in student.events() {
        if let Event::Output {
            stream: Stream::Stderr,
            bytes,
        } = event
        {
            placed.push_output(Stream::Stderr, bytes);
        }
    }
    Some(placed)
}

/// The words of `text` (runs of non-whitespace) with the byte offset where each starts,
/// compared in lower case.
fn words(text: &str) -> (Vec<String>, Vec<usize>) {
    let mut words = Vec::new();
    let mut starts = Vec::new();
    let mut start = None;
    for (at, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some(at),
            (true, Some(from)) => {
                words.push(text[from..at].to_lowercase());
                starts.push(from);
                start = None;
            }
            _ => {}
        }
    }
    (words, starts)
}

/// Words at most on either side of a stretch compared word by word; a longer stretch that
/// differs is mapped in proportion (the cost of a diff grows with both sides' lengths).
const MAX_WORDS: usize = 4000;

/// The lines of `text` with their byte ranges, compared by their words in lower case.
fn lines(text: &str) -> (Vec<String>, Vec<std::ops::Range<usize>>) {
    let mut keys = Vec::new();
    let mut ranges = Vec::new();
    let mut from = 0;
    for line in text.split_inclusive('\n') {
        keys.push(
            line.split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
                .join(" "),
        );
        ranges.push(from..from + line.len());
        from += line.len();
    }
    (keys, ranges)
}

/// In words worded differently on each side, the student's word matching the reference's
/// `k`-th when the reference's input follows a prompt (a word ending in `?` or `:`): the word
/// after the student's prompt of the same rank.
fn after_the_same_prompt(reference: &[String], k: usize, student: &[String]) -> Option<usize> {
    let is_prompt = |w: &String| w.ends_with('?') || w.ends_with(':');
    let before = k.checked_sub(1).filter(|&b| is_prompt(&reference[b]))?;
    let rank = reference[..before].iter().filter(|w| is_prompt(w)).count();
    let (at, _) = student
        .iter()
        .enumerate()
        .filter(|(_, w)| is_prompt(w))
        .nth(rank)?;
    Some(at + 1)
}

/// Byte offsets in `student` matching each of `offsets` in `reference` (see the module's
/// documentation): the two texts are compared line by line, and where an offset falls in
/// lines that differ, those stretches word by word. Non-decreasing, like `offsets`.
fn carried_over(reference: &str, offsets: &[usize], student: &str) -> Vec<usize> {
    let (reference_keys, reference_lines) = lines(reference);
    let (student_keys, student_lines) = lines(student);
    let ops = capture_diff_slices(Algorithm::Myers, &reference_keys, &student_keys);
    let student_line_start = |line: usize| {
        student_lines
            .get(line)
            .map_or(student.len(), |range| range.start)
    };
    let mut placed = Vec::with_capacity(offsets.len());
    let mut last = 0;
    for &offset in offsets {
        let line = reference_lines.partition_point(|range| range.end <= offset);
        let op = ops.iter().find(|op| op.old_range().contains(&line));
        let at = match op {
            // Past the last line: the end.
            None => student.len(),
            Some(op) => {
                let old = op.old_range();
                let new = op.new_range();
                let reference_stretch =
                    reference_lines[old.start].start..reference_lines[old.end - 1].end;
                let student_stretch = match new.is_empty() {
                    true => student_line_start(new.start)..student_line_start(new.start),
                    false => student_lines[new.start].start..student_lines[new.end - 1].end,
                };
                let within = words_carried_over(
                    &reference[reference_stretch.clone()],
                    offset - reference_stretch.start,
                    &student[student_stretch.clone()],
                );
                student_stretch.start + within
            }
        };
        // A word that starts its line (after blanks: an indented board row) takes the
        // line's start, so the line is not split.
        let mut at = at;
        let line_start = student[..at].rfind('\n').map_or(0, |n| n + 1);
        if student[line_start..at].trim().is_empty() {
            at = line_start;
        }
        let at = at.max(last);
        placed.push(at);
        last = at;
    }
    placed
}

/// The byte offset in `student` matching `offset` in `reference`, two short texts: an offset
/// stands before its `k`-th word, and the word diff carries `k` over to a word of the
/// student's text (in proportion inside words that differ), whose start is the offset.
fn words_carried_over(reference: &str, offset: usize, student: &str) -> usize {
    let (reference_words, reference_starts) = words(reference);
    let (student_words, student_starts) = words(student);
    let k = reference_starts.partition_point(|&s| s < offset);
    let proportional = |k: usize| k * student_words.len() / reference_words.len().max(1);
    let word = if reference_words.len().max(student_words.len()) > MAX_WORDS {
        proportional(k)
    } else {
        capture_diff_slices(Algorithm::Myers, &reference_words, &student_words)
            .iter()
            .find_map(|op| match *op {
                DiffOp::Equal {
                    old_index,
                    new_index,
                    len,
                } if (old_index..old_index + len).contains(&k) => Some(new_index + (k - old_index)),
                DiffOp::Delete {
                    old_index,
                    old_len,
                    new_index,
                } if (old_index..old_index + old_len).contains(&k) => Some(new_index),
                DiffOp::Replace {
                    old_index,
                    old_len,
                    new_index,
                    new_len,
                } if (old_index..old_index + old_len).contains(&k) => Some(
                    after_the_same_prompt(
                        &reference_words[old_index..old_index + old_len],
                        k - old_index,
                        &student_words[new_index..new_index + new_len],
                    )
                    .map_or(
                        new_index + (k - old_index) * new_len / old_len.max(1),
                        |j| new_index + j,
                    ),
                ),
                _ => None,
            })
            .unwrap_or(student_words.len())
    };
    student_starts.get(word).copied().unwrap_or(student.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(pieces: &[(&str, bool)]) -> Transcript {
        let mut t = Transcript::new();
        for (text, is_input) in pieces {
            if *is_input {
                t.push_input(*text);
            } else {
                t.push_output(Stream::Stdout, text.as_bytes());
            }
        }
        t
    }

    #[test]
    fn a_program_that_read_everything_first_is_recognised() {
        let bulk = run(&[("1", true), ("2", true), ("Board\nBye\n", false)]);
        assert!(read_everything_first(&bulk, 2));
        let silent = run(&[("1", true), ("2", true), (" \n", false)]);
        assert!(
            !read_everything_first(&silent, 2),
            "output after the inputs is needed"
        );
        let interactive = run(&[
            ("1", true),
            ("Board\n", false),
            ("2", true),
            ("Bye\n", false),
        ]);
        assert!(!read_everything_first(&interactive, 3));
        let one_input = run(&[("1", true), ("Board\n", false)]);
        assert!(!read_everything_first(&one_input, 1));
        // A title before the first read is still reading everything first.
        let titled = run(&[
            ("Nim\n", false),
            ("1", true),
            ("2", true),
            ("Board\n", false),
        ]);
        assert!(read_everything_first(&titled, 3));
    }

    #[test]
    fn inputs_are_placed_where_the_reference_has_them_in_the_programs_own_words() {
        // The reference: a refused number, then a move.
        let reference = run(&[
            ("Number? ", false),
            ("12", true),
            ("That number is out of range.\nNumber? ", false),
            ("5", true),
            ("Score: 1 to 0\n", false),
        ]);
        // The program read both lines first, then printed everything in its own words.
        let student = run(&[
            ("12", true),
            ("5", true),
            (
                "Your number: Sorry, 0-9 only!\nYour number: Score: 1 to 0\n",
                false,
            ),
        ]);
        let placed = placed_like(&student, &reference).expect("placed");
        let view = View::new(&placed, InputShown::LineBreak);
        assert_eq!(
            view.text,
            "Your number: \nSorry, 0-9 only!\nYour number: \nScore: 1 to 0\n"
        );
        assert_eq!(view.inputs_before(view.text.find("Sorry").expect("msg")), 1);
        assert_eq!(
            view.inputs_before(view.text.find("Score").expect("score")),
            2
        );
    }

    #[test]
    fn a_missing_message_stays_missing() {
        let reference = run(&[
            ("Move? ", false),
            ("9", true),
            ("Illegal move.\nMove? ", false),
            ("2", true),
            ("Board 2\n", false),
        ]);
        let student = run(&[("9", true), ("2", true), ("Move? Move? Board 2\n", false)]);
        let placed = placed_like(&student, &reference).expect("placed");
        let text = View::new(&placed, InputShown::LineBreak).text;
        assert!(!text.contains("Illegal"), "{text}");
        assert!(text.ends_with("Board 2\n"), "{text}");
        assert_eq!(placed.inputs().collect::<Vec<_>>(), ["9", "2"]);
    }

    #[test]
    fn an_indented_line_is_not_split() {
        // The reference's input stands before a board row drawn with leading blanks.
        let offsets = carried_over("Move? \n    3 9\n", &[6], "Your move: \n    3 9\n");
        assert_eq!(offsets, [12]);
    }

    #[test]
    fn offsets_never_go_back() {
        let offsets = carried_over("a b c d", &[2, 4, 6], "d c b a");
        assert!(offsets.windows(2).all(|w| w[0] <= w[1]), "{offsets:?}");
    }
}
