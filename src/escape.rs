//! Escaping: the one place where text a student controls is made safe to show.
//!
//! A program's output and stderr, compiler messages quoting its source, check details quoting
//! its lines and the names of its files all reach a terminal or a report file. Raw, an escape
//! sequence in any of them could clear the screen and draw a fake score, and one 1 MiB line
//! quoted by every check would make a report of hundreds of megabytes. So every string of a
//! [`GradeResult`] goes through [`for_display`] before any format renders it:
//!
//! * control characters are shown visibly: ESC as `\e`, carriage return `\r`, NUL `\0`,
//!   others (C0, DEL, C1 such as the one-byte CSI U+009B) as `\u{..}`; bidirectional-override
//!   characters ("Trojan source") likewise. Newlines and tabs stay.
//! * each line is cut at [`LINE_WIDTH`] characters, each text at [`FIELD_BYTES`], the cut
//!   marked with how much was left out; a case's whole report is then bounded by the number of
//!   its checks, which the instructor decides. Text from the case files themselves (a case's
//!   rule, the names of cases and checks) is escaped and bounded the same way but never cut
//!   line by line ([`case_text`]): a rule is shown whole.

use std::fmt::Write as _;

use crate::results::{CaseResult, GradeResult};

/// Characters kept of one line of student-controlled text.
pub const LINE_WIDTH: usize = 300;
/// Bytes kept of one student-controlled text (a stderr, a difference's excerpt, a message).
pub const FIELD_BYTES: usize = 16 * 1024;

/// Whether `c` must not reach a terminal as itself.
fn dangerous(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// `text` with every control character shown visibly (newlines and tabs kept).
pub fn visible(text: &str) -> String {
    if !text.chars().any(dangerous) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\x1b' => out.push_str("\\e"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if dangerous(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` made [`visible`], each line cut at `width` characters and the whole at `max_bytes`,
/// every cut marked.
pub fn bounded(text: &str, width: usize, max_bytes: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_bytes) + 64);
    let mut consumed = 0;
    for line in text.split_inclusive('\n') {
        if out.len() >= max_bytes {
            break;
        }
        consumed += line.len();
        let (body, newline) = match line.strip_suffix('\n') {
            Some(body) => (body, "\n"),
            None => (line, ""),
        };
        let total = body.chars().count();
        if total > width {
            let kept: String = body.chars().take(width).collect();
            out.push_str(&visible(&kept));
            let _ = write!(out, "… [{} more characters cut]", total - width);
        } else {
            out.push_str(&visible(body));
        }
        out.push_str(newline);
    }
    if consumed < text.len() {
        let _ = write!(out, "… [{} more bytes cut]", text.len() - consumed);
    }
    out
}

/// Student-controlled text as every report shows it: [`bounded`] with the report's limits.
pub fn field(text: &str) -> String {
    bounded(text, LINE_WIDTH, FIELD_BYTES)
}

/// Text the case files give (a case's rule, the names of cases and checks), as every report
/// shows it: [`visible`] and bounded as a whole, but never cut line by line: a rule is shown
/// in full (the text report shortens it at a sentence's end itself).
pub fn case_text(text: &str) -> String {
    bounded(text, usize::MAX, FIELD_BYTES)
}

/// A copy of `result` in which every string is safe to print (see the module documentation).
pub fn for_display(result: &GradeResult) -> GradeResult {
    into_display(result.clone())
}

/// [`for_display`] of a result the caller no longer needs (no copy of it is made).
pub fn into_display(mut shown: GradeResult) -> GradeResult {
    shown.assignment = field(&shown.assignment);
    shown.submission = field(&shown.submission);
    if let Some(failure) = &mut shown.build_failure {
        failure.command = field(&failure.command);
        failure.messages = field(&failure.messages);
    }
    for case in &mut shown.cases {
        case_for_display(case);
    }
    for layer in &mut shown.sandbox {
        layer.detail = field(&layer.detail);
    }
    // Requirements quote the student's code and name its files; warnings quote its lines.
    for requirement in &mut shown.requirements {
        requirement.detail = field(&requirement.detail);
        for finding in &mut requirement.findings {
            finding.file = field(&finding.file);
            finding.message = field(&finding.message);
        }
    }
    shown.warnings = field(&shown.warnings);
    // Notes name the submission's own classes and files.
    for note in &mut shown.notes {
        *note = field(note);
    }
    shown
}

fn case_for_display(case: &mut CaseResult) {
    case.name = case_text(&case.name);
    case.description = case_text(&case.description);
    case.stderr = field(&case.stderr);
    for line in case.input.iter_mut().chain(case.notes.iter_mut()) {
        *line = field(line);
    }
    case.run.detection = field(&case.run.detection);
    if let Some(name) = &mut case.first_difference {
        *name = case_text(name);
    }
    for check in &mut case.checks {
        check.name = case_text(&check.name);
        check.kind = case_text(&check.kind);
        check.detail = field(&check.detail);
        if let Some(rule) = &mut check.rule {
            *rule = case_text(rule);
        }
        if let Some(d) = &mut check.difference {
            d.location = field(&d.location);
            d.expected = field(&d.expected);
            d.actual = field(&d.actual);
            if let Some(r) = &mut d.relaxation {
                *r = field(r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn submission_notes_are_escaped() {
        let mut result = crate::report::tests::sample();
        result.notes = vec!["several classes declare main: \x1b[2JEvil".into()];
        assert_eq!(
            for_display(&result).notes,
            vec!["several classes declare main: \\e[2JEvil".to_string()]
        );
    }

    #[test]
    fn escapes_are_visible() {
        assert_eq!(
            visible("\x1b[2J\x1b[HScore: 90/90\r\n\tok\0\u{9b}\u{202e}x\x7f"),
            "\\e[2J\\e[HScore: 90/90\\r\n\tok\\0\\u{9b}\\u{202e}x\\u{7f}"
        );
        assert_eq!(visible("plain\ntext"), "plain\ntext");
    }

    #[test]
    fn long_lines_and_texts_are_cut_and_marked() {
        let line = "x".repeat(1 << 20);
        let cut = bounded(&line, 10, 1000);
        assert_eq!(
            cut,
            format!(
                "{}… [{} more characters cut]",
                "x".repeat(10),
                (1 << 20) - 10
            )
        );
        let many = "abc\n".repeat(10_000);
        let cut = bounded(&many, 10, 100);
        assert!(cut.len() < 200, "{}", cut.len());
        assert!(cut.ends_with("more bytes cut]"), "{cut}");
        assert_eq!(bounded("a\nb", 10, 100), "a\nb");
    }
}
