//! Program output read as a person at a terminal reads it.
//!
//! Students colour their boards, clear the screen between turns, end lines the Windows way and
//! redraw a "thinking..." line with a carriage return. None of that is content: before any
//! check, output goes through [`ScreenText`], which keeps what a terminal shows and counts
//! what it set aside. Control sequences are parsed by `vte` (the parser behind Alacritty), so
//! an escape sequence's own digits never become part of a number.
//!
//! The text is a scrollback, not a screen: a clear-screen or a cursor move removes nothing
//! that was printed before it, and a cursor move that leaves the line starts a new one (so two
//! lines are never run together). Within the current line, a carriage return, a backspace or
//! a horizontal cursor move puts later characters over earlier ones, as on a terminal, and an
//! erase-in-line removes what it erases.

use std::fmt::Write as _;

/// What [`ScreenText`] set aside, so the feedback can say so once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetAside {
    /// Colour and style codes (SGR: `ESC[...m`).
    pub colours: usize,
    /// Other control sequences: cursor moves, erasing, clear-screen, titles, modes.
    pub controls: usize,
    /// Windows line ends (`\r\n`), read as line ends.
    pub windows_line_ends: usize,
    /// Carriage returns and backspaces that went back over a line (a line redrawn in place).
    pub overwrites: usize,
    /// Other control characters a terminal does not show (bell, NUL, ...).
    pub invisible: usize,
}

impl SetAside {
    /// Whether anything was set aside.
    pub fn is_empty(&self) -> bool {
        *self == SetAside::default()
    }

    /// Adds the counts of `other`.
    pub fn add(&mut self, other: &SetAside) {
        self.colours += other.colours;
        self.controls += other.controls;
        self.windows_line_ends += other.windows_line_ends;
        self.overwrites += other.overwrites;
        self.invisible += other.invisible;
    }

    /// The note for a student: what was ignored, in one sentence (`None` when nothing was).
    pub fn note(&self) -> Option<String> {
        let mut parts = Vec::new();
        if self.colours > 0 {
            parts.push("colour codes");
        }
        if self.controls > 0 {
            parts.push("cursor and screen controls (clearing the screen or a line, cursor moves)");
        }
        if self.windows_line_ends > 0 {
            parts.push("Windows line ends (\\r\\n)");
        }
        if self.overwrites > 0 {
            parts.push(
                "lines redrawn in place with \\r or backspace (read as the terminal shows them)",
            );
        }
        if self.invisible > 0 {
            parts.push("invisible control characters");
        }
        let (last, rest) = parts.split_last()?;
        let list = if rest.is_empty() {
            (*last).to_string()
        } else {
            format!("{} and {last}", rest.join(", "))
        };
        Some(format!(
            "the output was read as a terminal shows it: {list} were set aside (they cost nothing)"
        ))
    }
}

/// Output text as a terminal shows it, built incrementally: program output goes through
/// [`ScreenText::push_output`], text the grader adds (an echoed input, a line break) through
/// [`ScreenText::push_plain`]. Linear in the output's length, whatever it holds.
pub struct ScreenText {
    parser: vte::Parser,
    screen: Screen,
}

impl Default for ScreenText {
    fn default() -> Self {
        ScreenText::new()
    }
}

impl ScreenText {
    /// An empty text.
    pub fn new() -> ScreenText {
        ScreenText {
            parser: vte::Parser::new(),
            screen: Screen::default(),
        }
    }

    /// Appends program output. Invalid UTF-8 shows as `\xNN` escapes (as
    /// [`decode_visible`] does); valid text without control characters is
    /// appended as it is, without going through the parser.
    pub fn push_output(&mut self, bytes: &[u8]) {
        if self.screen.plain() && !has_controls(bytes) {
            if let Ok(text) = std::str::from_utf8(bytes) {
                self.screen.push_str(text);
                return;
            }
        }
        match std::str::from_utf8(bytes) {
            Ok(_) => self.parser.advance(&mut self.screen, bytes),
            Err(_) => {
                let visible = decode_visible(bytes);
                self.parser.advance(&mut self.screen, visible.as_bytes());
            }
        }
    }

    /// Appends text that is not program output (an echoed input line, a line break standing
    /// for one) at the end of the text.
    pub fn push_plain(&mut self, text: &str) {
        self.screen.commit();
        self.screen.push_str(text);
    }

    /// Marks the current end of the text as the place an input was sent and returns its byte
    /// offset: nothing before it can be written over any more (at a terminal the typed Enter
    /// ended the line).
    pub fn mark_input(&mut self) -> usize {
        self.screen.commit();
        self.screen.line_start = self.screen.text.len();
        self.screen.text.len()
    }

    /// The text and what was set aside.
    pub fn finish(mut self) -> (String, SetAside) {
        self.screen.commit();
        (self.screen.text, self.screen.set_aside)
    }
}

/// Whether `bytes` hold anything [`Screen`] must interpret: a control character other than
/// line feed and tab (ESC, CR, backspace, bell, NUL, ...) or DEL.
fn has_controls(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|&b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f)
}

/// The current line while the cursor can go back over it: its characters and the cursor's
/// column (which may lie past the end: printing there pads with blanks).
#[derive(Default)]
struct Overlay {
    chars: Vec<char>,
    cursor: usize,
}

/// The performer: the text, where its last line starts, and that line as an [`Overlay`] once
/// something moved the cursor back.
#[derive(Default)]
struct Screen {
    text: String,
    /// Byte offset in `text` where the current (last) line starts.
    line_start: usize,
    /// The current line, taken out of `text` while the cursor is not at its end.
    overlay: Option<Overlay>,
    /// A carriage return was the last thing seen (a line feed next makes it a Windows line end).
    after_cr: bool,
    set_aside: SetAside,
}

impl Screen {
    /// Nothing pending: plain text can simply be appended.
    fn plain(&self) -> bool {
        self.overlay.is_none() && !self.after_cr
    }

    fn push_str(&mut self, text: &str) {
        self.text.push_str(text);
        if let Some(at) = text.rfind('\n') {
            self.line_start = self.text.len() - (text.len() - at - 1);
        }
    }

    /// Puts the current line back into the text (the cursor stays at its end).
    fn commit(&mut self) {
        self.settle_cr();
        if let Some(overlay) = self.overlay.take() {
            self.text.extend(overlay.chars);
        }
    }

    /// The current line as an overlay the cursor can move on.
    fn overlay(&mut self) -> &mut Overlay {
        let (text, line_start) = (&mut self.text, self.line_start);
        self.overlay.get_or_insert_with(|| {
            let chars: Vec<char> = text[line_start..].chars().collect();
            text.truncate(line_start);
            Overlay {
                cursor: chars.len(),
                chars,
            }
        })
    }

    /// A carriage return followed by something other than a line feed: the line is redrawn.
    fn settle_cr(&mut self) {
        if self.after_cr {
            self.after_cr = false;
            let drawn = match &self.overlay {
                Some(overlay) => !overlay.chars.is_empty(),
                None => self.text.len() > self.line_start,
            };
            if drawn {
                self.set_aside.overwrites += 1;
            }
        }
    }

    fn new_line(&mut self) {
        if let Some(overlay) = self.overlay.take() {
            self.text.extend(overlay.chars);
        }
        self.text.push('\n');
        self.line_start = self.text.len();
    }

    /// Ends the current line if it holds anything (a cursor move to another line).
    fn leave_line(&mut self) {
        self.commit();
        if self.text.len() > self.line_start {
            self.new_line();
        }
    }

    /// Writes `c` at the cursor.
    fn put(&mut self, c: char) {
        self.settle_cr();
        match &mut self.overlay {
            None => self.text.push(c),
            Some(overlay) => {
                let at = overlay.cursor;
                if at < overlay.chars.len() {
                    overlay.chars[at] = c;
                } else {
                    overlay.chars.resize(at, ' ');
                    overlay.chars.push(c);
                }
                overlay.cursor = at + 1;
            }
        }
    }

    /// Moves the cursor on the current line to `column(current)`.
    fn move_cursor(&mut self, column: impl FnOnce(usize) -> usize) {
        self.settle_cr();
        let overlay = self.overlay();
        overlay.cursor = column(overlay.cursor);
    }

    /// Erases the current line from the cursor to its end (`mode` 0), from its start to the
    /// cursor (1) or all of it (2); the cursor stays where it is.
    fn erase_in_line(&mut self, mode: u16) {
        self.settle_cr();
        let overlay = self.overlay();
        let at = overlay.cursor.min(overlay.chars.len());
        match mode {
            0 => overlay.chars.truncate(at),
            1 => {
                let end = (at + 1).min(overlay.chars.len());
                overlay.chars[..end].fill(' ');
            }
            _ => overlay.chars.clear(),
        }
    }
}

impl vte::Perform for Screen {
    fn print(&mut self, c: char) {
        self.put(c);
    }

    fn execute(&mut self, byte: u8) {
        match byte {
            b'\n' => {
                if self.after_cr {
                    self.after_cr = false;
                    self.set_aside.windows_line_ends += 1;
                }
                self.new_line();
            }
            b'\r' => {
                self.settle_cr();
                self.after_cr = true;
                self.overlay().cursor = 0;
            }
            b'\t' => self.put('\t'),
            0x08 => {
                self.move_cursor(|at| at.saturating_sub(1));
                self.set_aside.overwrites += 1;
            }
            _ => {
                self.settle_cr();
                self.set_aside.invisible += 1;
            }
        }
    }

    fn csi_dispatch(
        &mut self,
        params: &vte::Params,
        _intermediates: &[u8],
        _ignore: bool,
        action: char,
    ) {
        let first = params.iter().next().and_then(|p| p.first().copied());
        let count = usize::from(first.unwrap_or(1).max(1));
        match action {
            'm' => {
                self.set_aside.colours += 1;
                return;
            }
            'K' => self.erase_in_line(first.unwrap_or(0)),
            'C' => self.move_cursor(|at| at + count),
            'D' => self.move_cursor(|at| at.saturating_sub(count)),
            'G' | '`' => self.move_cursor(|_| count - 1),
            // Moves to another line: up, down, to a position, to a row.
            'A' | 'B' | 'E' | 'F' | 'H' | 'f' | 'd' | 'e' => self.leave_line(),
            // Erasing the display, scrolling, modes, reports: what was shown stays.
            _ => self.settle_cr(),
        }
        self.set_aside.controls += 1;
    }

    fn osc_dispatch(&mut self, _params: &[&[u8]], _bell_terminated: bool) {
        self.set_aside.controls += 1;
    }

    fn esc_dispatch(&mut self, _intermediates: &[u8], _ignore: bool, _byte: u8) {
        self.set_aside.controls += 1;
    }

    fn hook(&mut self, _params: &vte::Params, _intermediates: &[u8], _ignore: bool, _c: char) {
        self.set_aside.controls += 1;
    }
}

/// The text of `bytes` as a terminal shows it, with what was set aside.
pub fn screen_text(bytes: &[u8]) -> (String, SetAside) {
    let mut text = ScreenText::new();
    text.push_output(bytes);
    text.finish()
}

/// Decodes program output for display and comparison without ever failing.
///
/// Valid UTF-8 passes through unchanged; each byte of an invalid sequence becomes the visible
/// escape `\xNN`. NUL and carriage return stay as characters; reports escape them on display.
pub fn decode_visible(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        text.push_str(chunk.valid());
        for byte in chunk.invalid() {
            let _ = write!(text, "\\x{byte:02x}");
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(bytes: &[u8]) -> String {
        screen_text(bytes).0
    }

    #[test]
    fn colour_codes_are_not_text_and_their_digits_are_not_digits() {
        let (text, aside) = screen_text(b"\x1b[31m5\x1b[0m coins, \x1b[1;32m1\x1b[0m2\n");
        assert_eq!(text, "5 coins, 12\n");
        assert_eq!(aside.colours, 4);
        assert_eq!(aside.controls, 0);
        assert_eq!(shown(b"\x1b[38;5;196m7\x1b[m"), "7");
    }

    #[test]
    fn windows_line_ends_are_line_ends() {
        let (text, aside) = screen_text(b"a\r\nb\r\n");
        assert_eq!(text, "a\nb\n");
        assert_eq!(aside.windows_line_ends, 2);
        assert_eq!(aside.overwrites, 0);
    }

    #[test]
    fn a_carriage_return_writes_over_the_line_as_a_terminal_shows_it() {
        let (text, aside) = screen_text(b"Thinking...\rComputer removes 2\n");
        assert_eq!(text, "Computer removes 2\n");
        assert_eq!(aside.overwrites, 1);
        // A shorter line leaves the end of the longer one, as on a terminal.
        assert_eq!(shown(b"abc\rX\n"), "Xbc\n");
        // Erased first: only the new text.
        assert_eq!(shown(b"Thinking...\x1b[2K\rdone\n"), "done\n");
        assert_eq!(shown(b"Thinking...\r\x1b[Kdone\n"), "done\n");
        // Backspaces go back one column each.
        assert_eq!(shown(b"abc\x08\x08X\n"), "aXc\n");
        assert_eq!(shown(b"12\x08\x08\x08\x0834"), "34");
    }

    #[test]
    fn moving_to_another_line_never_runs_two_lines_together() {
        assert_eq!(shown(b"Score 1\x1b[2J\x1b[HBoard\n"), "Score 1\nBoard\n");
        // A clear-screen removes nothing that was printed.
        assert_eq!(
            shown(b"first\n\x1b[2J\x1b[Hsecond\n\x1b[H\x1b[Jthird\n"),
            "first\nsecond\nthird\n"
        );
        assert_eq!(shown(b"a\x1b[1Ab"), "a\nb");
    }

    #[test]
    fn a_horizontal_move_pads_with_blanks() {
        assert_eq!(shown(b"ab\x1b[5Gc"), "ab  c");
        assert_eq!(shown(b"ab\x1b[2Cc"), "ab  c");
        assert_eq!(shown(b"abcd\x1b[2DX"), "abXd");
    }

    #[test]
    fn titles_bells_and_other_invisible_characters_are_set_aside() {
        let (text, aside) = screen_text(b"\x1b]0;Nim\x07hi\x07\0\n");
        assert_eq!(text, "hi\n");
        assert_eq!(aside.controls, 1);
        assert_eq!(aside.invisible, 2);
        assert_eq!(shown(b"\x1b[?25lx\x1b[?25h"), "x");
        assert!(screen_text(b"plain\ttext\n").1.is_empty());
    }

    #[test]
    fn sequences_split_across_writes_are_still_sequences() {
        let mut text = ScreenText::new();
        text.push_output(b"\x1b[3");
        text.push_output(b"1mX\x1b");
        text.push_output(b"[0m\r");
        text.push_output(b"\n");
        assert_eq!(
            text.finish(),
            (
                "X\n".to_string(),
                SetAside {
                    colours: 2,
                    windows_line_ends: 1,
                    ..SetAside::default()
                }
            )
        );
    }

    #[test]
    fn invalid_utf8_stays_visible() {
        assert_eq!(shown(b"a\xffb"), "a\\xffb");
        assert_eq!(shown(b"\x1b[1ma\xffb"), "a\\xffb");
    }

    #[test]
    fn an_input_ends_the_line_a_carriage_return_can_reach() {
        let mut text = ScreenText::new();
        text.push_output(b"Move: ");
        assert_eq!(text.mark_input(), 6);
        text.push_output(b"\rX\n");
        text.push_plain("3\n");
        assert_eq!(text.finish().0, "Move: X\n3\n");
    }

    #[test]
    fn redrawing_a_long_line_in_place_is_linear() {
        // 200,000 characters written over one line: quadratic work would not finish.
        let mut bytes = b"x".repeat(100_000);
        bytes.push(b'\r');
        bytes.extend("é".repeat(100_000).as_bytes());
        bytes.push(b'\n');
        let (text, _) = screen_text(&bytes);
        assert_eq!(text.chars().count(), 100_001);
    }

    #[test]
    fn the_note_lists_what_was_ignored() {
        assert_eq!(SetAside::default().note(), None);
        let aside = SetAside {
            colours: 3,
            windows_line_ends: 1,
            ..SetAside::default()
        };
        assert_eq!(
            aside.note().as_deref(),
            Some(
                "the output was read as a terminal shows it: colour codes and Windows line ends \
                 (\\r\\n) were set aside (they cost nothing)"
            )
        );
    }
}
