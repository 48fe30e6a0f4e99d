//! The transcript: what a person at a terminal would have seen during one run.
//!
//! Both the reference games and the runner of student programs produce a [`Transcript`],
//! so everything downstream (checks, reports, `grade record`) works on one type.

use std::fmt::Write as _;

use crate::terminal::{decode_visible, ScreenText, SetAside};

/// Which of the program's output streams a piece of output came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// Standard output: what the grader compares.
    Stdout,
    /// Standard error: kept apart, shown in feedback, never compared by default.
    Stderr,
}

/// One thing that happened on the terminal, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Bytes the program wrote (adjacent writes to the same stream are merged).
    Output { stream: Stream, bytes: Vec<u8> },
    /// A scripted line sent because the program was waiting for input; no trailing newline.
    Input { line: String },
    /// Standard input was closed (end of input) because the program asked for more.
    InputClosed,
}

/// The ordered sequence of output and input of one run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    events: Vec<Event>,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Self {
        Self::default()
    }

    /// A transcript of `events`, in order (a run's beginning, cut where something happened).
    pub fn from_events(events: Vec<Event>) -> Self {
        Transcript { events }
    }

    /// Appends output, merging it with the previous event when that is output on the same stream.
    pub fn push_output(&mut self, stream: Stream, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        if let Some(Event::Output {
            stream: last,
            bytes: previous,
        }) = self.events.last_mut()
        {
            if *last == stream {
                previous.extend_from_slice(bytes);
                return;
            }
        }
        self.events.push(Event::Output {
            stream,
            bytes: bytes.to_vec(),
        });
    }

    /// Appends an input line at the point where the program asked for it.
    pub fn push_input(&mut self, line: impl Into<String>) {
        self.events.push(Event::Input { line: line.into() });
    }

    /// Records that standard input was closed.
    pub fn push_input_closed(&mut self) {
        self.events.push(Event::InputClosed);
    }

    /// Removes a program's own echo of each input line under a terminal: a line editor that
    /// puts the terminal in raw mode (Node's readline) writes back what was typed and `\r\n`
    /// itself, which the transcript already shows as the input. Output processing is off on
    /// the runner's terminal, so only such an echo starts with the line and `\r\n`.
    pub fn drop_terminal_echoes(&mut self) {
        for i in 1..self.events.len() {
            let (before, after) = self.events.split_at_mut(i);
            let (Event::Input { line }, Some(Event::Output { stream, bytes })) =
                (&before[i - 1], after.first_mut())
            else {
                continue;
            };
            let echo = [line.as_bytes(), b"\r\n"].concat();
            if *stream == Stream::Stdout && bytes.starts_with(&echo) {
                bytes.drain(..echo.len());
            }
        }
        self.events
            .retain(|e| !matches!(e, Event::Output { bytes, .. } if bytes.is_empty()));
    }

    /// All events in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The input lines that were sent, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &str> {
        self.events.iter().filter_map(|e| match e {
            Event::Input { line } => Some(line.as_str()),
            _ => None,
        })
    }

    /// The number of input lines sent.
    pub fn input_count(&self) -> usize {
        self.inputs().count()
    }

    /// What a terminal shows: standard output with each input echoed and followed by a newline,
    /// control sequences interpreted (see [`crate::terminal`]).
    ///
    /// This is the canonical form stored in `reference/NAME/CASE.txt`.
    pub fn terminal_text(&self) -> String {
        self.terminal_text_with_offsets().0
    }

    /// [`Self::terminal_text`] plus, for each input line, the byte offset in that text where
    /// its echo starts — so a difference found in the text can be traced to the input before it.
    pub fn terminal_text_with_offsets(&self) -> (String, Vec<usize>) {
        Self::render(&self.events)
    }

    /// What a terminal shows of the events from `first` on, as if they were the whole
    /// transcript: the tail of [`Self::terminal_text`] where no control sequence reaches back
    /// before them (plain lines, colours), rendered without the rest.
    pub fn terminal_text_from(&self, first: usize) -> String {
        Self::render(self.events.get(first..).unwrap_or_default()).0
    }

    /// The terminal's text of `events` and where each input's echo starts in it.
    fn render(events: &[Event]) -> (String, Vec<usize>) {
        let mut text = ScreenText::new();
        let mut offsets = Vec::new();
        for event in events {
            match event {
                Event::Output {
                    stream: Stream::Stdout,
                    bytes,
                } => text.push_output(bytes),
                Event::Output { .. } | Event::InputClosed => {}
                Event::Input { line } => {
                    offsets.push(text.mark_input());
                    text.push_plain(line);
                    text.push_plain("\n");
                }
            }
        }
        (text.finish().0, offsets)
    }

    /// Everything written to one stream, byte for byte (control sequences and carriage
    /// returns kept; invalid UTF-8 as `\xNN`): what `grade run` shows as the raw output.
    pub fn raw_output_text(&self, stream: Stream) -> String {
        let mut bytes = Vec::new();
        for event in &self.events {
            if let Event::Output {
                stream: s,
                bytes: b,
            } = event
            {
                if *s == stream {
                    bytes.extend_from_slice(b);
                }
            }
        }
        decode_visible(&bytes)
    }

    /// Everything written to one stream, without the inputs, as a terminal shows it.
    pub fn output_text(&self, stream: Stream) -> String {
        self.output_screen(stream).0
    }

    /// What reading standard output as a terminal shows it set aside (colour codes, Windows
    /// line ends, ...), for the note that says so.
    pub fn set_aside(&self) -> SetAside {
        self.output_screen(Stream::Stdout).1
    }

    fn output_screen(&self, stream: Stream) -> (String, SetAside) {
        let mut text = ScreenText::new();
        for event in &self.events {
            if let Event::Output {
                stream: s,
                bytes: b,
            } = event
            {
                if *s == stream {
                    text.push_output(b);
                }
            }
        }
        text.finish()
    }
}

/// Makes whitespace and control characters visible, for showing differences to a student.
///
/// Spaces become `·`, tabs `→`, carriage returns `\r`, NUL `\0`, other control characters
/// `\u{..}`; a newline is shown as `⏎` followed by the real newline.
pub fn show_whitespace(text: &str) -> String {
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            ' ' => shown.push('·'),
            '\t' => shown.push('→'),
            '\n' => shown.push_str("⏎\n"),
            '\r' => shown.push_str("\\r"),
            '\0' => shown.push_str("\\0"),
            c if c.is_control() => {
                let _ = write!(shown, "\\u{{{:x}}}", c as u32);
            }
            c => shown.push(c),
        }
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_text_echoes_inputs_and_skips_stderr() {
        let mut t = Transcript::new();
        t.push_output(Stream::Stdout, b"Remove (1 - 3): ");
        t.push_input("3");
        t.push_output(Stream::Stderr, b"warning\n");
        t.push_output(Stream::Stdout, b"Computer ");
        t.push_output(Stream::Stdout, b"removes 1.\n");
        assert_eq!(
            t.terminal_text(),
            "Remove (1 - 3): 3\nComputer removes 1.\n"
        );
        assert_eq!(t.output_text(Stream::Stderr), "warning\n");
        assert_eq!(t.events().len(), 4, "adjacent stdout writes merge");
        assert_eq!(t.terminal_text_with_offsets().1, vec![16]);
    }

    #[test]
    fn a_raw_mode_echo_of_the_input_is_dropped_and_nothing_else() {
        let mut t = Transcript::new();
        t.push_output(Stream::Stdout, b"Where? ");
        t.push_input("x");
        t.push_output(Stream::Stdout, b"x\r\nInvalid cell.\nWhere? ");
        t.push_input("5");
        t.push_output(Stream::Stdout, b"5\r\n");
        t.push_input("7");
        t.push_output(Stream::Stdout, b"7 is taken\n");
        t.push_input("y");
        t.push_output(Stream::Stdout, b"y\n");
        t.drop_terminal_echoes();
        assert_eq!(
            t.terminal_text(),
            "Where? x\nInvalid cell.\nWhere? 5\n7\n7 is taken\ny\ny\n"
        );
        assert_eq!(t.events().len(), 8, "the emptied output is gone");
    }

    #[test]
    fn invalid_utf8_and_controls_survive_visibly() {
        assert_eq!(decode_visible(b"a\xffb\0c\r"), "a\\xffb\0c\r");
        assert_eq!(show_whitespace("a b\t\0\r\n"), "a·b→\\0\\r⏎\n");
    }
}
