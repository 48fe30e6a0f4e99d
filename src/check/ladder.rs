//! The `transcript` check: the whole output under a normalization ladder
//! (exact → trailing whitespace → blank lines → whitespace → case).

use std::borrow::Cow;

use super::view::{difference, Spot, View};
use super::Evaluation;
use crate::check::Level;

/// Every level, strictest first.
pub const LEVELS: [Level; 5] = [
    Level::Exact,
    Level::TrailingWhitespace,
    Level::BlankLines,
    Level::Whitespace,
    Level::Case,
];

impl Level {
    /// How the level reads in feedback.
    pub fn describe(self) -> &'static str {
        match self {
            Level::Exact => "exactly",
            Level::TrailingWhitespace => "ignoring trailing spaces",
            Level::BlankLines => "ignoring blank lines",
            Level::Whitespace => "ignoring spacing",
            Level::Case => "ignoring capitalisation",
        }
    }
}

/// A normalized line and the index of the original line it came from.
struct Line<'t> {
    text: Cow<'t, str>,
    original: usize,
}

/// True when collapsing the spacing of `line` (already trimmed at its end) changes nothing.
fn spacing_collapsed(line: &str) -> bool {
    let bytes = line.as_bytes();
    line.is_ascii()
        && bytes.first() != Some(&b' ')
        && !bytes
            .iter()
            .any(|&b| b != b' ' && char::from(b).is_whitespace())
        && !line.contains("  ")
}

/// A part of a line, borrowed when the line was.
fn narrow<'t>(line: Cow<'t, str>, part: impl FnOnce(&str) -> &str) -> Cow<'t, str> {
    match line {
        Cow::Borrowed(l) => Cow::Borrowed(part(l)),
        Cow::Owned(l) => Cow::Owned(part(&l).to_string()),
    }
}

/// The line as [`str::lines`] gives it: without its `\n` or `\r\n`.
fn without_break(line: &str) -> &str {
    match line.strip_suffix('\n') {
        Some(l) => l.strip_suffix('\r').unwrap_or(l),
        None => line,
    }
}

/// One line of the view's terminal form normalized to `level` (borrowed when the level
/// leaves it as it is).
fn normalize_line(line: Cow<'_, str>, level: Level) -> Cow<'_, str> {
    if level == Level::Exact {
        return line;
    }
    let mut t = narrow(line, |l| without_break(l).trim_end());
    if level >= Level::Whitespace && !spacing_collapsed(&t) {
        let mut collapsed = String::with_capacity(t.len());
        for word in t.split_whitespace() {
            if !collapsed.is_empty() {
                collapsed.push(' ');
            }
            collapsed.push_str(word);
        }
        t = Cow::Owned(collapsed);
    }
    if level >= Level::Case {
        if !t.is_ascii() {
            t = Cow::Owned(t.to_lowercase());
        } else if t.bytes().any(|b| b.is_ascii_uppercase()) {
            t = Cow::Owned(t.to_ascii_lowercase());
        }
    }
    t
}

/// The view's terminal form ([`View::display_lines`]) normalized to `level`, with each line's
/// original number; blank lines left out from [`Level::BlankLines`] on. Trailing blank lines
/// are still there ([`normalize`] drops them).
fn normalized(view: &View, level: Level) -> impl Iterator<Item = Line<'_>> + '_ {
    view.display_lines()
        .enumerate()
        .map(move |(original, l)| Line {
            text: normalize_line(l, level),
            original,
        })
        .filter(move |l| level < Level::BlankLines || !l.text.is_empty())
}

/// Normalizes the view's terminal form to `level`, keeping track of original line numbers;
/// lines the level leaves as they are stay borrowed.
fn normalize(view: &View, level: Level) -> Vec<Line<'_>> {
    let mut lines: Vec<Line> = normalized(view, level).collect();
    while lines.last().is_some_and(|l| l.text.is_empty()) {
        lines.pop();
    }
    lines
}

/// Whether the views are equal at `level`: [`normalize`]d, they would be the same lines.
/// Stops at the first line that differs, so a level that fails early costs little.
fn equal_at(student: &View, reference: &View, level: Level) -> bool {
    let mut s = normalized(student, level);
    let mut r = normalized(reference, level);
    loop {
        match (s.next(), r.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a.text == b.text => {}
            // One side ran out: the rest of the other must be trailing blank lines.
            (Some(a), None) => return a.text.is_empty() && s.all(|l| l.text.is_empty()),
            (None, Some(b)) => return b.text.is_empty() && r.all(|l| l.text.is_empty()),
            (Some(_), Some(_)) => return false,
        }
    }
}

/// The index of the first differing normalized line, if any.
fn first_difference(student: &[Line], reference: &[Line]) -> Option<usize> {
    let common = student.len().min(reference.len());
    (0..common)
        .find(|&i| student[i].text != reference[i].text)
        .or((student.len() != reference.len()).then_some(common))
}

/// Compares the views as a terminal shows them (inputs echoed); passes when they are equal at
/// `loosest` or any stricter level.
pub fn evaluate(student: &View, reference: &View, loosest: Level) -> Evaluation {
    let equal_at = |level: Level| equal_at(student, reference, level);
    // Each level includes the stricter ones: equal at a level means equal at every looser
    // one. So the loosest allowed level decides, and only then is the strictest one named.
    let passing = if equal_at(loosest) {
        LEVELS
            .into_iter()
            .find(|&level| level <= loosest && equal_at(level))
    } else {
        LEVELS
            .into_iter()
            .find(|&level| level > loosest && equal_at(level))
    };
    match passing {
        Some(level) if level <= loosest => {
            Evaluation::pass(format!("matches {}", level.describe()))
        }
        _ => {
            let s = normalize(student, loosest);
            let r = normalize(reference, loosest);
            let at = first_difference(&s, &r).unwrap_or(0);
            let s_line = s.get(at).map(|l| l.original);
            let r_line = r.get(at).map(|l| l.original);
            let shown_line = r_line.unwrap_or_else(|| reference.display_lines().count()) + 1;
            // Inputs are counted up to the start of the student's differing line.
            let shown_offset: usize = student
                .display_lines()
                .take(s_line.unwrap_or(usize::MAX))
                .map(|l| without_break(&l).len() + 1)
                .sum();
            let offset = student.offset_from_display(shown_offset);
            Evaluation::fail(
                format!(
                    "differs {} at line {shown_line} of the output",
                    loosest.describe()
                ),
                difference(
                    format!("line {shown_line}"),
                    student,
                    Spot {
                        line: s_line,
                        offset: Some(offset),
                    },
                    reference,
                    Spot {
                        line: r_line,
                        offset: None,
                    },
                    // A true hint only: the outputs still hold text at that level.
                    passing
                        .filter(|&l| !normalize(reference, l).is_empty())
                        .map(|l| l.describe().to_string()),
                ),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(text: &str) -> View {
        View::from_text(text)
    }

    /// The early-stopping comparison says what comparing the whole normalized outputs says,
    /// on every pair of short outputs made of lines that differ in each level's way.
    #[test]
    fn equal_at_agrees_with_comparing_the_normalized_outputs() {
        let pieces = ["a b", "A b", "a  b", "a b ", "", "  ", "c"];
        let mut texts = vec![String::new()];
        for first in pieces {
            texts.push(format!("{first}\n"));
            for second in pieces {
                texts.push(format!("{first}\n{second}"));
                for third in pieces {
                    texts.push(format!("{first}\n{second}\n{third}\n"));
                }
            }
        }
        let views: Vec<View> = texts.iter().map(|t| view(t)).collect();
        let mut equal_pairs = 0;
        for (i, s) in views.iter().enumerate() {
            for r in views.iter().skip(i % 7).step_by(7) {
                for level in LEVELS {
                    let whole =
                        first_difference(&normalize(s, level), &normalize(r, level)).is_none();
                    assert_eq!(equal_at(s, r, level), whole, "{level:?}: {s:?} / {r:?}");
                    equal_pairs += usize::from(whole);
                }
            }
        }
        // Both answers occur often (the pairs are not all different).
        assert!(equal_pairs > 1000, "{equal_pairs}");
    }

    #[test]
    fn names_the_strictest_passing_level() {
        let reference = view("Score: 1 to 2\n\nBoard\n");
        let cases = [
            ("Score: 1 to 2\n\nBoard\n", "matches exactly"),
            (
                "Score: 1 to 2  \n\nBoard\n\n",
                "matches ignoring trailing spaces",
            ),
            ("Score: 1 to 2\nBoard\n", "matches ignoring blank lines"),
            ("Score:  1 to 2\nBoard", "matches ignoring spacing"),
            ("score: 1 TO 2\nboard\n", "matches ignoring capitalisation"),
        ];
        for (student, detail) in cases {
            let e = evaluate(&view(student), &reference, Level::Case);
            assert!(e.passed, "{student:?}");
            assert_eq!(e.detail, detail);
        }
    }

    #[test]
    fn fails_beyond_the_allowed_level_and_names_the_relaxation() {
        let reference = view("Score: 1 to 2\n");
        let e = evaluate(
            &view("score: 1 to 2\n"),
            &reference,
            Level::TrailingWhitespace,
        );
        assert!(!e.passed);
        let d = e.difference.expect("difference");
        assert_eq!(d.location, "line 1");
        assert_eq!(d.relaxation.as_deref(), Some("ignoring capitalisation"));
        let e = evaluate(&view("Score: 1 to 3\n"), &reference, Level::Case);
        assert!(!e.passed);
        assert_eq!(e.difference.expect("difference").relaxation, None);
    }

    #[test]
    fn whitespace_runs_become_one_space_and_the_ends_go() {
        for (line, normalized) in [
            ("  a \t b  ", "a b"),
            ("x\u{3000}y", "x y"),
            ("a\u{a0}\u{a0}b\n", "a b"),
            ("   ", ""),
            ("one", "one"),
        ] {
            assert_eq!(
                normalize_line(Cow::Borrowed(line), Level::Whitespace),
                normalized,
                "{line:?}"
            );
        }
    }

    #[test]
    fn spacing_is_collapsed_only_where_needed() {
        for (line, collapsed) in [
            ("a b c", true),
            ("", true),
            (" a", false),
            ("a  b", false),
            ("a\tb", false),
            ("a\u{b}b", false),
            ("é b", false),
        ] {
            assert_eq!(spacing_collapsed(line), collapsed, "{line:?}");
            if collapsed {
                assert_eq!(line.split_whitespace().collect::<Vec<_>>().join(" "), line);
            }
        }
        let reference = view("Ünïcode  Board\n");
        assert!(evaluate(&view("ünïcode board\n"), &reference, Level::Case).passed);
    }

    #[test]
    fn missing_output_is_a_difference() {
        let e = evaluate(&view("a\n"), &view("a\nb\n"), Level::Whitespace);
        assert!(!e.passed);
        assert!(e
            .difference
            .expect("difference")
            .actual
            .contains("(end of output)"));
    }
}
