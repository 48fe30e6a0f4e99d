//! Text views of a transcript that checks compare, each remembering where inputs were sent.

use std::borrow::Cow;
use std::cell::OnceCell;

use crate::results::Difference;
use crate::terminal::ScreenText;
use crate::transcript::{Event, Stream, Transcript};

/// How input lines appear in a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputShown {
    /// Echoed with a newline, as a terminal shows it (the canonical transcript).
    Echoed,
    /// As a bare line break: output is split where input was typed, but the input itself is
    /// not part of the text (so echoed input never matches a pattern or looks like a board).
    LineBreak,
    /// Not at all: standard output only (for programs whose prompts came late).
    Omitted,
}

/// Standard output of a transcript rendered as text, with the offsets where inputs were sent.
///
/// The text is the only copy of the output a view holds: the terminal form shown in
/// feedback ([`View::display`]) is rendered from it only when a difference is shown.
#[derive(Clone, Debug)]
pub struct View {
    /// The text.
    pub text: String,
    /// For each input line, the byte offset in `text` at which it was sent.
    pub input_offsets: Vec<usize>,
    /// The input lines, to echo into the display (only for [`InputShown::LineBreak`], whose
    /// text leaves them out; empty otherwise).
    echo: Vec<String>,
    /// The display, once rendered (only for [`InputShown::LineBreak`]).
    display: OnceCell<String>,
    /// Where each line of `text` starts, once asked for: every check of a case reads the
    /// same lines, so they are found once.
    line_starts: OnceCell<Vec<usize>>,
    /// Each line's [`super::lines::line_shape`], once asked for (messages in any words).
    shapes: OnceCell<Vec<Option<String>>>,
}

impl PartialEq for View {
    fn eq(&self, other: &View) -> bool {
        self.text == other.text
            && self.input_offsets == other.input_offsets
            && self.echo == other.echo
    }
}

impl Eq for View {}

impl View {
    /// Renders the standard output of `transcript` as a terminal shows it (control sequences
    /// interpreted, see [`crate::terminal`]) with inputs shown as `shown`.
    pub fn new(transcript: &Transcript, shown: InputShown) -> View {
        let mut text = ScreenText::new();
        let mut input_offsets = Vec::new();
        let mut echo = Vec::new();
        for event in transcript.events() {
            match event {
                Event::Output {
                    stream: Stream::Stdout,
                    bytes,
                } => text.push_output(bytes),
                Event::Input { line } => {
                    input_offsets.push(text.mark_input());
                    match shown {
                        InputShown::Echoed => {
                            text.push_plain(line);
                            text.push_plain("\n");
                        }
                        InputShown::LineBreak => {
                            text.push_plain("\n");
                            echo.push(line.clone());
                        }
                        InputShown::Omitted => {}
                    }
                }
                Event::Output { .. } | Event::InputClosed => {}
            }
        }
        View {
            text: text.finish().0,
            input_offsets,
            echo,
            display: OnceCell::new(),
            line_starts: OnceCell::new(),
            shapes: OnceCell::new(),
        }
    }

    /// A view of plain output text with no inputs (for tests of the checks).
    #[cfg(test)]
    pub fn from_text(text: &str) -> View {
        View {
            text: text.to_string(),
            input_offsets: Vec::new(),
            echo: Vec::new(),
            display: OnceCell::new(),
            line_starts: OnceCell::new(),
            shapes: OnceCell::new(),
        }
    }

    /// The same lines as a terminal shows them (inputs echoed), for excerpts in feedback;
    /// line for line like `text`, since an input adds no line break of its own.
    pub fn display(&self) -> &str {
        if self.echo.is_empty() {
            return &self.text;
        }
        self.display.get_or_init(|| {
            let extra: usize = self.echo.iter().map(String::len).sum();
            let mut shown = String::with_capacity(self.text.len() + extra);
            let mut from = 0;
            for (offset, line) in self.input_offsets.iter().zip(&self.echo) {
                shown.push_str(&self.text[from..*offset]);
                shown.push_str(line);
                from = *offset;
            }
            shown.push_str(&self.text[from..]);
            shown
        })
    }

    /// The lines of [`View::display`] (each with its line break), rendered one at a time:
    /// a line an input was typed on is put together with its echo, any other is borrowed from
    /// the text, so a check reading the terminal form line by line never holds it whole.
    pub fn display_lines(&self) -> Box<dyn Iterator<Item = Cow<'_, str>> + '_> {
        if self.echo.is_empty() || self.echo.iter().any(|e| e.contains('\n')) {
            // An echo holding a line break adds lines: split the rendered display instead.
            return Box::new(self.display().split_inclusive('\n').map(Cow::Borrowed));
        }
        // Each input's offset is the line break ending the line it was typed on.
        let mut inputs = self.input_offsets.iter().zip(&self.echo).peekable();
        Box::new(self.lines_inclusive().map(move |(start, line)| {
            let end = start + line.len();
            match inputs.next_if(|(offset, _)| **offset + 1 == end) {
                Some((_, echo)) => {
                    let bare = &line[..line.len() - 1];
                    Cow::Owned(format!("{bare}{echo}\n"))
                }
                None => Cow::Borrowed(line),
            }
        }))
    }

    /// The offset in `text` after as many inputs as were sent before byte `offset` of
    /// [`View::display`], so [`View::inputs_before`] counts the same there.
    pub fn offset_from_display(&self, offset: usize) -> usize {
        let mut echoed = 0;
        let sent = self
            .input_offsets
            .iter()
            .enumerate()
            .take_while(|(i, o)| {
                let at = **o + echoed;
                echoed += self.echo.get(*i).map_or(0, String::len);
                at < offset
            })
            .count();
        match sent {
            0 => 0,
            n => self.input_offsets[n - 1] + 1,
        }
    }

    /// The input a line starting at byte `start` may hold the held-back prompt of: the line
    /// begins right at the break where that input was typed, and the program had shown
    /// nothing on the line it was typed on (no prompt before reading). A prompt never
    /// flushed (a `print!` without flush, a writer flushed only by newlines) comes out first
    /// thing after its answer, run together with what follows. Only in views that show
    /// inputs as line breaks.
    pub fn held_prompt_input(&self, start: usize) -> Option<usize> {
        let bytes = self.text.as_bytes();
        // The first input at `start - 1` (the offsets ascend; a search, as every line asks).
        let j = self.input_offsets.partition_point(|&o| o + 1 < start);
        let o = *self.input_offsets.get(j).filter(|&&o| o + 1 == start)?;
        (bytes.get(o) == Some(&b'\n') && (o == 0 || bytes[o - 1] == b'\n')).then_some(j)
    }

    /// How many inputs had been sent before the text at `offset` was printed.
    pub fn inputs_before(&self, offset: usize) -> usize {
        self.input_offsets.partition_point(|&o| o < offset)
    }

    /// The `k`-th input line (counting from 1) as it was typed, where the view keeps it
    /// (inputs shown as line breaks), so feedback can name an input rather than number it.
    pub fn input(&self, k: usize) -> Option<&str> {
        self.echo.get(k.checked_sub(1)?).map(String::as_str)
    }

    /// The index of the line of the text that holds byte `offset` (the line count past the
    /// end).
    pub fn line_at(&self, offset: usize) -> usize {
        let end = offset.min(self.text.len());
        // Lines starting at or before `end`, less the first (line 0 starts at 0): the line
        // breaks before `end`. A text ending in a break starts no line after it.
        self.line_starts()
            .partition_point(|&start| start <= end)
            .saturating_sub(1)
            + usize::from(end == self.text.len() && self.text.ends_with('\n'))
    }

    /// Where each line of the text starts, in order ([`View::lines`]' offsets).
    pub fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let mut starts = Vec::new();
            let mut start = 0;
            while start < self.text.len() {
                starts.push(start);
                start = self.text[start..]
                    .find('\n')
                    .map_or(self.text.len(), |i| start + i + 1);
            }
            starts
        })
    }

    /// The shape ([`super::lines::line_shape`]) of each line of the text, in order.
    pub fn line_shapes(&self) -> &[Option<String>] {
        self.shapes.get_or_init(|| {
            self.lines()
                .map(|(_, line)| super::lines::line_shape(line))
                .collect()
        })
    }

    /// The index of the first line printed after `inputs` inputs had been sent (the line an
    /// input was typed on belongs to the output before it).
    pub fn first_line_after(&self, inputs: usize) -> usize {
        match inputs.checked_sub(1) {
            None => 0,
            Some(last) => match self.input_offsets.get(last) {
                Some(&offset) => self.line_at(offset + 1),
                None => self.line_at(self.text.len()),
            },
        }
    }

    /// The lines of the text with the byte offset where each starts.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        self.lines_inclusive()
            .map(|(at, line)| (at, line.strip_suffix('\n').unwrap_or(line)))
    }

    /// The lines of the text, each with its line break, and the byte offset where each starts.
    fn lines_inclusive(&self) -> impl Iterator<Item = (usize, &str)> + '_ {
        let starts = self.line_starts();
        let ends = starts.iter().skip(1).copied().chain([self.text.len()]);
        starts
            .iter()
            .zip(ends)
            .map(|(&start, end)| (start, &self.text[start..end]))
    }
}

/// Where a difference is on one side of a comparison: the index of its line (`None`: past
/// the end of the output) and the byte offset of what differs (`None`: nothing there).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spot {
    /// Index of the line in the view's text.
    pub line: Option<usize>,
    /// Byte offset in the view's text.
    pub offset: Option<usize>,
}

impl Spot {
    /// A spot at `line`, starting at byte `offset`.
    pub fn at(line: usize, offset: usize) -> Spot {
        Spot {
            line: Some(line),
            offset: Some(offset),
        }
    }
}

/// The feedback for a difference: a few lines around it on each side, and how many inputs
/// had been sent when the student's (or, when the student printed nothing there, the
/// reference's) differing output appeared.
pub fn difference(
    location: String,
    student: &View,
    student_at: Spot,
    reference: &View,
    reference_at: Spot,
    relaxation: Option<String>,
) -> Difference {
    let excerpt = |view: &View, spot: Spot| {
        let lines: Vec<&str> = view.display().lines().collect();
        let at = spot.line.unwrap_or(lines.len());
        context(&lines, at)
    };
    let inputs_before = match (student_at.offset, reference_at.offset) {
        (Some(offset), _) => student.inputs_before(offset),
        (None, Some(offset)) => reference.inputs_before(offset),
        (None, None) => 0,
    };
    Difference {
        location,
        expected: excerpt(reference, reference_at),
        actual: excerpt(student, student_at),
        inputs_before,
        relaxation,
        student_line: Some(match student_at.line {
            Some(line) => line + 1,
            None => missing_line(student, inputs_before),
        }),
    }
}

/// The line (1-based) where output the student did not print is missing: right after the
/// line the `inputs`-th input was typed on, before whatever it printed there instead (so a
/// missing answer to an input comes before a wrong one printed after it).
pub fn missing_line(student: &View, inputs: usize) -> usize {
    student.first_line_after(inputs).max(1)
}

/// How many of the first `at` items (equal on both sides, found at byte `student_offsets` and
/// `reference_offsets`) were printed at their place: after as many inputs as the reference's,
/// and after the first input (what is shown before any input is the starting state, not play).
/// A sequence earns partial credit only for these, so output printed without playing (all of
/// it before the first input) earns nothing.
pub fn in_place(
    student: &View,
    student_offsets: &[usize],
    reference: &View,
    reference_offsets: &[usize],
    at: usize,
) -> usize {
    student_offsets
        .iter()
        .zip(reference_offsets)
        .take(at)
        .filter(|(&s, &r)| {
            let played = reference.inputs_before(r);
            played > 0 && student.inputs_before(s) == played
        })
        .count()
}

/// Whether a game check's item printed after `inputs` inputs shows a move played, when the
/// reference printed its first item after `start` inputs: after more inputs (nim's first
/// matches follow "y": they are the start, a later item is play), or after an input the
/// reference answered with no item at all before its first (the program took an input the
/// reference refuses, a guess it rejects: its first score line comes early, and is play).
/// An item printed before any input, or where the reference shows its start, is no move.
pub fn after_a_move(inputs: usize, start: usize) -> bool {
    inputs > start || (1..start).contains(&inputs)
}

/// When the student's differing item, printed after `inputs` inputs, came after an input the
/// reference read and answered with none of its items (`reference_inputs`: how many inputs
/// preceded each of the reference's items): the words naming that input, as typed, for the
/// check's detail (`printed after input 1 ("0"), where the reference printed no new board`), so
/// a program that took an input the reference refuses reads which one.
pub fn taken_where_refused(
    student: &View,
    inputs: usize,
    reference: &View,
    reference_inputs: &[usize],
    noun: &str,
) -> Option<String> {
    if inputs == 0 || inputs > reference.input_offsets.len() || reference_inputs.contains(&inputs) {
        return None;
    }
    let typed = student.input(inputs)?;
    Some(format!(
        "printed after input {inputs} (\"{typed}\"), where the reference printed no new {noun}"
    ))
}

/// A few lines of `lines` around index `at`, for showing a difference in context.
pub fn context(lines: &[&str], at: usize) -> String {
    if lines.is_empty() {
        return "(no output)".to_string();
    }
    if at >= lines.len() {
        let from = lines.len().saturating_sub(2);
        let mut shown = lines[from..].join("\n");
        shown.push_str("\n(end of output)");
        return shown;
    }
    let from = at.saturating_sub(2);
    let to = (at + 3).min(lines.len());
    lines[from..to].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Transcript {
        let mut t = Transcript::new();
        t.push_output(Stream::Stdout, b"Remove (1 - 3): ");
        t.push_input("3");
        t.push_output(Stream::Stdout, b"Computer removes 1.\n");
        t
    }

    #[test]
    fn views_place_inputs_differently() {
        let t = sample();
        assert_eq!(
            View::new(&t, InputShown::Echoed).text,
            "Remove (1 - 3): 3\nComputer removes 1.\n"
        );
        assert_eq!(
            View::new(&t, InputShown::LineBreak).text,
            "Remove (1 - 3): \nComputer removes 1.\n"
        );
        let omitted = View::new(&t, InputShown::Omitted);
        assert_eq!(omitted.text, "Remove (1 - 3): Computer removes 1.\n");
        assert_eq!(omitted.inputs_before(0), 0);
        assert_eq!(omitted.inputs_before(20), 1);
    }

    #[test]
    fn the_terminal_form_read_line_by_line_is_the_echoed_view() {
        // Prompts with and without a line break, two inputs in a row, an empty input, an
        // input before any output and output without a final line break.
        let mut t = Transcript::new();
        t.push_input("first");
        t.push_output(Stream::Stdout, b"Row: ");
        t.push_input("3");
        t.push_input("");
        t.push_output(Stream::Stdout, b"Bad.\nCol:\n");
        t.push_input("4 5");
        t.push_output(Stream::Stderr, b"warning\n");
        t.push_output(Stream::Stdout, b"Done\r\nbye");
        let echoed = View::new(&t, InputShown::Echoed);
        assert_eq!(echoed.text, "first\nRow: 3\n\nBad.\nCol:\n4 5\nDone\nbye");
        let view = View::new(&t, InputShown::LineBreak);
        let lines: Vec<Cow<str>> = view.display_lines().collect();
        let expected: Vec<&str> = echoed.text.split_inclusive('\n').collect();
        assert_eq!(lines, expected);
        assert!(matches!(lines[6], Cow::Borrowed(_)));
        for offset in 0..=echoed.text.len() {
            assert_eq!(
                view.inputs_before(view.offset_from_display(offset)),
                echoed.inputs_before(offset),
                "at {offset}"
            );
        }
    }

    #[test]
    fn lines_carry_offsets() {
        let view = View::new(&sample(), InputShown::LineBreak);
        let lines: Vec<_> = view.lines().collect();
        assert_eq!(lines[1], (17, "Computer removes 1."));
        assert_eq!(view.display(), "Remove (1 - 3): 3\nComputer removes 1.\n");
        assert_eq!(context(&["a", "b"], 5), "a\nb\n(end of output)");
    }

    #[test]
    fn a_held_prompt_follows_the_break_of_an_input_typed_on_an_empty_line() {
        // Inputs shown as line breaks. Input 0 typed after "Move?" on its line (its break at
        // 5); inputs 1 and 2 typed together on the empty line after it (at 6, nothing
        // between them); input 3 typed on the empty line after "Held? no" (at 16).
        let view = View {
            input_offsets: vec![5, 6, 6, 16],
            ..View::from_text("Move?\n\nHeld? no\n\nx\n")
        };
        assert_eq!((&view.text[4..8], &view.text[14..18]), ("?\n\nH", "o\n\nx"));
        let expected = [
            (0, None),    // the text's start
            (6, None),    // after input 0's break: "Move?" was shown on its line
            (7, Some(1)), // after the break of inputs 1 and 2: the first of them
            (8, None),    // no input's break at 7
            (16, None),   // the break at 15 is the program's, not an input's
            (17, Some(3)),
            (19, None), // the text's end: no input at 18
        ];
        for (start, input) in expected {
            assert_eq!(view.held_prompt_input(start), input, "line at {start}");
        }
        // An input typed first thing, at the text's start, on an empty line.
        let first = View {
            input_offsets: vec![0],
            ..View::from_text("\nHeld?")
        };
        assert_eq!(first.held_prompt_input(1), Some(0));
    }

    #[test]
    fn the_line_index_agrees_with_counting_line_breaks() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "\n\n",
            "a\nb",
            "a\nb\n",
            "a\n\nb\n\n",
            "é\nü\n",
        ] {
            let view = View::from_text(text);
            let mut start = 0;
            let split: Vec<(usize, &str)> = text
                .split_inclusive('\n')
                .map(|line| {
                    start += line.len();
                    (start - line.len(), line.strip_suffix('\n').unwrap_or(line))
                })
                .collect();
            assert_eq!(view.lines().collect::<Vec<_>>(), split, "{text:?}");
            for offset in 0..=text.len() + 1 {
                let breaks = text.as_bytes()[..offset.min(text.len())]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                assert_eq!(view.line_at(offset), breaks, "{text:?} at {offset}");
            }
        }
    }

    #[test]
    fn lines_are_counted_from_offsets_and_inputs() {
        let mut t = Transcript::new();
        t.push_output(Stream::Stdout, b"Hello\nMove: ");
        t.push_input("3");
        t.push_output(Stream::Stdout, b"Computer removes 1.\nMove: ");
        t.push_input("2");
        let view = View::new(&t, InputShown::LineBreak);
        assert_eq!(view.line_at(0), 0);
        assert_eq!(view.line_at(6), 1);
        // Past the end: the count of lines (the last input's line break ends line 3).
        assert_eq!(view.line_at(usize::MAX), 4);
        assert_eq!(view.first_line_after(0), 0);
        // The first input was typed on line 1 ("Move: 3"): its answer starts on line 2.
        assert_eq!(view.first_line_after(1), 2);
        assert_eq!(view.first_line_after(2), 4);
        assert_eq!(view.first_line_after(9), 4);
        assert_eq!(missing_line(&view, 1), 2);
        assert_eq!(missing_line(&view, 0), 1);
    }
}
