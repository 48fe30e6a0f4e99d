//! The small console abstraction the reference games talk to.
//!
//! A game only ever writes text and reads lines through [`Console`], so the same code serves
//! interactive play ([`TerminalConsole`]), transcript recording from scripted input
//! ([`ScriptedConsole`]) and grading.

use std::collections::VecDeque;
use std::io::{BufRead, Write};

use crate::transcript::{Stream, Transcript};

/// What a game may do with its player: show text, and read one line of input.
pub trait Console {
    /// Shows text to the player exactly as given (no newline is added).
    fn write(&mut self, text: &str);

    /// Reads one line of input without its line ending; `None` at end of input, after which
    /// the game must return quietly.
    fn read_line(&mut self) -> Option<String>;

    /// Says that the game, given end of input, went on and ended by itself: its game is over,
    /// not waiting for more (an instructor's reference program in a case with
    /// `end_of_input: close`). A console that remembers running out of input forgets it.
    fn ended_after_end_of_input(&mut self) {}

    /// Says how a reference program ended (its exit status, when it exited, and what it
    /// printed on standard error), for a console that shows a failing reference (`grade
    /// play`); a built-in game never calls it.
    fn program_ended(&mut self, _status: Option<i32>, _stderr: &[u8]) {}
}

/// A console fed from a script of input lines that records everything into a [`Transcript`].
#[derive(Debug, Default)]
pub struct ScriptedConsole {
    script: VecDeque<String>,
    transcript: Transcript,
    starved: bool,
}

impl ScriptedConsole {
    /// A console that will answer reads with `lines`, in order.
    pub fn new<I, S>(lines: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            script: lines.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// True when the game asked for a line after the script was used up.
    pub fn starved(&self) -> bool {
        self.starved
    }

    /// The number of scripted lines the game never read.
    pub fn unread(&self) -> usize {
        self.script.len()
    }

    /// The transcript recorded so far.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// Consumes the console, returning its transcript.
    pub fn into_transcript(self) -> Transcript {
        self.transcript
    }
}

impl Console for ScriptedConsole {
    fn write(&mut self, text: &str) {
        self.transcript.push_output(Stream::Stdout, text.as_bytes());
    }

    fn read_line(&mut self) -> Option<String> {
        match self.script.pop_front() {
            Some(line) => {
                self.transcript.push_input(line.clone());
                Some(line)
            }
            None => {
                self.starved = true;
                None
            }
        }
    }

    fn ended_after_end_of_input(&mut self) {
        self.starved = false;
    }
}

/// A console on a real terminal (or any reader and writer): output is flushed before every
/// read, so prompts appear before the program waits, as a student's program should behave.
pub struct TerminalConsole<R, W: Write> {
    input: R,
    output: W,
}

impl<R: BufRead, W: Write> TerminalConsole<R, W> {
    /// A console reading lines from `input` and writing to `output`.
    pub fn new(input: R, output: W) -> Self {
        Self { input, output }
    }
}

impl<R: BufRead, W: Write> Console for TerminalConsole<R, W> {
    fn write(&mut self, text: &str) {
        // A closed terminal is the same as a player who left: later reads end the game.
        let _ = self.output.write_all(text.as_bytes());
    }

    fn read_line(&mut self) -> Option<String> {
        let _ = self.output.flush();
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                if line.ends_with('\n') {
                    line.pop();
                    if line.ends_with('\r') {
                        line.pop();
                    }
                }
                Some(line)
            }
        }
    }
}

impl<R, W: Write> Drop for TerminalConsole<R, W> {
    fn drop(&mut self) {
        let _ = self.output.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_console_records_and_reports_starvation() {
        let mut console = ScriptedConsole::new(["y"]);
        console.write("Go first? ");
        assert_eq!(console.read_line().as_deref(), Some("y"));
        assert!(!console.starved());
        assert_eq!(console.read_line(), None);
        assert!(console.starved());
        assert_eq!(console.transcript().terminal_text(), "Go first? y\n");
    }

    #[test]
    fn terminal_console_strips_line_endings_and_flushes() {
        let mut out = Vec::new();
        {
            let mut console = TerminalConsole::new(&b"3\r\n4"[..], &mut out);
            console.write("> ");
            assert_eq!(console.read_line().as_deref(), Some("3"));
            assert_eq!(console.read_line().as_deref(), Some("4"));
            assert_eq!(console.read_line(), None);
        }
        assert_eq!(out, b"> ");
    }
}
