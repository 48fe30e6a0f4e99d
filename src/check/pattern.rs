//! A `lines` check's pattern, compiled for the text it meets.
//!
//! Case patterns are written in Unicode mode (`\w`, `\s`, `\b`, case-insensitive matching of
//! any script), and compiling a Unicode class such as `\W` into an automaton is most of what
//! loading an assignment's cases costs (8 of nim's 10 ms). On ASCII text a pattern matches
//! exactly as its ASCII-mode compilation does — every Unicode class agrees with its ASCII one
//! on ASCII characters, and case folding of ASCII letters to other scripts (`k` and the Kelvin
//! sign) never meets one — so a pattern is compiled in ASCII mode when its cases load, and
//! in Unicode mode only when a line that is not ASCII first needs it (a program that prints
//! "¡Ganaste!"), once per grader process.

use std::sync::OnceLock;

use regex::bytes::{Regex as AsciiRegex, RegexBuilder as AsciiRegexBuilder};
use regex::{Regex, RegexBuilder};
use regex_syntax::hir::{
    Capture, Class, ClassBytes, ClassBytesRange, ClassUnicode, ClassUnicodeRange, Hir, HirKind,
    Literal, Look, Repetition,
};

/// A compiled `lines` pattern: ASCII mode for ASCII lines, Unicode mode for the rest.
#[derive(Debug)]
pub struct Pattern {
    source: String,
    ignore_case: bool,
    /// The pattern in ASCII mode; `None` when it only means something in Unicode mode (a
    /// Unicode property such as `\p{L}`, a class of non-ASCII letters).
    ascii: Option<AsciiRegex>,
    /// The pattern in Unicode mode, compiled when first needed.
    unicode: OnceLock<Option<Regex>>,
}

impl Pattern {
    /// Compiles `source` (case-insensitively when `ignore_case`); the error is the regex
    /// crate's, as for any pattern it refuses in Unicode mode.
    pub fn new(source: &str, ignore_case: bool) -> Result<Pattern, regex::Error> {
        let ascii = regex_syntax::ParserBuilder::new()
            .case_insensitive(ignore_case)
            .unicode(false)
            .utf8(false)
            .build()
            .parse(source)
            .ok()
            .and_then(|hir| {
                AsciiRegexBuilder::new(&line_safe(&hir).to_string())
                    .build()
                    .ok()
            });
        let unicode = OnceLock::new();
        if ascii.is_none() {
            // Only Unicode mode can tell whether the pattern is good: compile it now.
            let _ = unicode.set(Some(unicode_regex(source, ignore_case)?));
        } else {
            // The syntax is checked in Unicode mode too (without compiling it).
            unicode_hir(source, ignore_case)?;
        }
        Ok(Pattern {
            source: source.to_string(),
            ignore_case,
            ascii,
            unicode,
        })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Every non-overlapping match in `line`, with its capture groups.
    pub fn captures_iter<'h>(&self, line: &'h str) -> Vec<Captured<'h>> {
        self.regex_for(line).map_or_else(Vec::new, |regex| {
            regex
                .all_spans(line)
                .into_iter()
                .map(|groups| Captured { line, groups })
                .collect()
        })
    }

    /// Every match in each line of `text` (lines end at `\n`, which no line holds), in order:
    /// what [`Pattern::captures_iter`] gives line by line, found in one search of the whole
    /// text (the pattern is line-safe: no match takes a line break). A check reads every line
    /// of both transcripts with every pattern; one search of the text instead of one per line
    /// saves each line's search set-up, which cost more than the search itself.
    pub fn captures_in_lines<'h>(&self, text: &'h str) -> Vec<LineMatch<'h>> {
        let Some(regex) = self.regex_for(text) else {
            return Vec::new();
        };
        let mut lines = LineCursor::new(text);
        let mut found = Vec::new();
        for groups in regex.all_spans(text) {
            let Some(Some((start, _))) = groups.first().copied() else {
                continue;
            };
            // The text's end after its last line break begins no line.
            if start == text.len() && (text.is_empty() || text.ends_with('\n')) {
                continue;
            }
            let (index, line_start, line) = lines.line_of(start);
            found.push(LineMatch {
                line: index,
                line_start,
                captured: Captured {
                    line,
                    groups: groups
                        .into_iter()
                        .map(|g| g.map(|(s, e)| (s - line_start, e - line_start)))
                        .collect(),
                },
            });
        }
        found
    }

    /// The first match in `line`, with its capture groups.
    pub fn captures<'h>(&self, line: &'h str) -> Option<Captured<'h>> {
        let groups = self.regex_for(line)?.first_spans(line)?;
        Some(Captured { line, groups })
    }

    /// The compiled form for `text`: ASCII mode on ASCII text, else Unicode mode, else (a
    /// pattern too large for Unicode mode) ASCII mode everywhere.
    fn regex_for(&self, text: &str) -> Option<Compiled<'_>> {
        if let Some(ascii) = self.ascii_for(text) {
            return Some(Compiled::Ascii(ascii));
        }
        match (self.unicode(), &self.ascii) {
            (Some(regex), _) => Some(Compiled::Unicode(regex)),
            (None, Some(ascii)) => Some(Compiled::Ascii(ascii)),
            (None, None) => None,
        }
    }

    /// The ASCII-mode regex when `line` is ASCII and the pattern has one.
    fn ascii_for(&self, line: &str) -> Option<&AsciiRegex> {
        self.ascii.as_ref().filter(|_| line.is_ascii())
    }

    /// The Unicode-mode regex, compiled on first use. A pattern whose ASCII form compiled but
    /// whose Unicode form exceeds the regex crate's size limit (`\w{1000}`) has none: its
    /// ASCII form is then used on every line, non-ASCII characters counting as non-word ones.
    fn unicode(&self) -> Option<&Regex> {
        self.unicode
            .get_or_init(|| unicode_regex(&self.source, self.ignore_case).ok())
            .as_ref()
    }
}

/// One of a pattern's two compiled forms, chosen for a text.
enum Compiled<'p> {
    Ascii(&'p AsciiRegex),
    Unicode(&'p Regex),
}

/// A match's groups as byte spans of the text searched (`None`: the group took no part).
type Spans = Vec<Option<(usize, usize)>>;

impl Compiled<'_> {
    /// Every non-overlapping match in `text`.
    fn all_spans(&self, text: &str) -> Vec<Spans> {
        match self {
            Compiled::Ascii(regex) => regex
                .captures_iter(text.as_bytes())
                .map(|c| c.iter().map(|g| g.map(|m| (m.start(), m.end()))).collect())
                .collect(),
            Compiled::Unicode(regex) => regex
                .captures_iter(text)
                .map(|c| c.iter().map(|g| g.map(|m| (m.start(), m.end()))).collect())
                .collect(),
        }
    }

    /// The first match in `text`.
    fn first_spans(&self, text: &str) -> Option<Spans> {
        match self {
            Compiled::Ascii(regex) => regex
                .captures(text.as_bytes())
                .map(|c| c.iter().map(|g| g.map(|m| (m.start(), m.end()))).collect()),
            Compiled::Unicode(regex) => regex
                .captures(text)
                .map(|c| c.iter().map(|g| g.map(|m| (m.start(), m.end()))).collect()),
        }
    }
}

/// The pattern read in Unicode mode; the error is the parser's, as the regex crate words it.
fn unicode_hir(source: &str, ignore_case: bool) -> Result<Hir, regex::Error> {
    regex_syntax::ParserBuilder::new()
        .case_insensitive(ignore_case)
        .build()
        .parse(source)
        .map_err(|e| regex::Error::Syntax(e.to_string()))
}

/// The pattern compiled in Unicode mode, made line-safe ([`line_safe`]).
fn unicode_regex(source: &str, ignore_case: bool) -> Result<Regex, regex::Error> {
    RegexBuilder::new(&line_safe(&unicode_hir(source, ignore_case)?).to_string()).build()
}

/// `hir` made to match in a whole text exactly what it matches in each of its lines alone:
/// no class takes a line break, no literal holds one (it never matches), and the start and
/// end of the text (`^`, `$`, `\A`, `\z` on a line) become the start and end of a line. On a
/// text of one line it matches as `hir` does.
fn line_safe(hir: &Hir) -> Hir {
    let break_unicode = ClassUnicode::new([ClassUnicodeRange::new('\n', '\n')]);
    let break_byte = ClassBytes::new([ClassBytesRange::new(b'\n', b'\n')]);
    match hir.kind() {
        HirKind::Literal(Literal(bytes)) if bytes.contains(&b'\n') => Hir::fail(),
        HirKind::Class(Class::Unicode(class)) => {
            let mut class = class.clone();
            class.difference(&break_unicode);
            Hir::class(Class::Unicode(class))
        }
        HirKind::Class(Class::Bytes(class)) => {
            let mut class = class.clone();
            class.difference(&break_byte);
            Hir::class(Class::Bytes(class))
        }
        HirKind::Look(Look::Start) => Hir::look(Look::StartLF),
        HirKind::Look(Look::End) => Hir::look(Look::EndLF),
        HirKind::Repetition(repetition) => Hir::repetition(Repetition {
            sub: Box::new(line_safe(&repetition.sub)),
            ..repetition.clone()
        }),
        HirKind::Capture(capture) => Hir::capture(Capture {
            sub: Box::new(line_safe(&capture.sub)),
            ..capture.clone()
        }),
        HirKind::Concat(subs) => Hir::concat(subs.iter().map(line_safe).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.iter().map(line_safe).collect()),
        HirKind::Empty | HirKind::Literal(_) | HirKind::Look(_) => hir.clone(),
    }
}

/// A match found by [`Pattern::captures_in_lines`]: in which line, and where that line starts.
#[derive(Clone, Debug)]
pub struct LineMatch<'h> {
    /// The line's index (0 for the text's first line).
    pub line: usize,
    /// The byte offset in the text where the line starts.
    pub line_start: usize,
    /// The match, its spans counted from the line's start.
    pub captured: Captured<'h>,
}

/// Walks a text's lines forward, to name the line of each match in turn.
struct LineCursor<'h> {
    text: &'h str,
    /// The current line's index, start and end (its line break, or the text's end).
    index: usize,
    start: usize,
    end: usize,
}

impl<'h> LineCursor<'h> {
    fn new(text: &'h str) -> LineCursor<'h> {
        LineCursor {
            text,
            index: 0,
            start: 0,
            end: Self::end_from(text, 0),
        }
    }

    /// Where the line starting at `start` ends: its line break, or the text's end.
    fn end_from(text: &str, start: usize) -> usize {
        text[start..].find('\n').map_or(text.len(), |i| start + i)
    }

    /// The line holding byte `at` (at or after the last one asked for): its index, start and
    /// text without its line break.
    fn line_of(&mut self, at: usize) -> (usize, usize, &'h str) {
        // (`at` is at most the text's length, so past the current line there is a break.)
        if at > self.end {
            // The lines passed over: those between the current line's break and `at`.
            let passed = &self.text[self.end + 1..at];
            self.index += 1 + passed.bytes().filter(|&b| b == b'\n').count();
            self.start = self.end + 1 + passed.rfind('\n').map_or(0, |i| i + 1);
            self.end = Self::end_from(self.text, at);
        }
        (self.index, self.start, &self.text[self.start..self.end])
    }
}

/// One match of a pattern and its capture groups, as spans of the line.
#[derive(Clone, Debug)]
pub struct Captured<'h> {
    line: &'h str,
    groups: Spans,
}

/// A matched span of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span<'h> {
    line: &'h str,
    start: usize,
    end: usize,
}

impl<'h> Span<'h> {
    /// Where the span starts in its line (a byte offset).
    pub fn start(&self) -> usize {
        self.start
    }

    /// Where the span ends in its line (a byte offset).
    pub fn end(&self) -> usize {
        self.end
    }

    /// The text of the span.
    pub fn as_str(&self) -> &'h str {
        self.line.get(self.start..self.end).unwrap_or("")
    }
}

impl<'h> Captured<'h> {
    /// Group `index` (0: the whole match), when it took part in the match.
    pub fn get(&self, index: usize) -> Option<Span<'h>> {
        let (start, end) = (*self.groups.get(index)?)?;
        Some(Span {
            line: self.line,
            start,
            end,
        })
    }

    /// The number of groups, the whole match included.
    pub fn group_count(&self) -> usize {
        self.groups.len()
    }

    /// Every group in order (the whole match first), `None` for those that did not take part.
    pub fn iter(&self) -> impl Iterator<Item = Option<Span<'h>>> + '_ {
        (0..self.groups.len()).map(|index| self.get(index))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern as the regex crate compiles it, as written, in Unicode mode.
    fn plain_unicode_regex(source: &str, ignore_case: bool) -> Regex {
        RegexBuilder::new(source)
            .case_insensitive(ignore_case)
            .build()
            .expect("pattern")
    }

    /// Each match's groups as text, as the Unicode-mode regex crate gives them.
    fn unicode_matches(source: &str, ignore_case: bool, line: &str) -> Vec<Vec<Option<String>>> {
        plain_unicode_regex(source, ignore_case)
            .captures_iter(line)
            .map(|c| {
                c.iter()
                    .map(|g| g.map(|m| m.as_str().to_string()))
                    .collect()
            })
            .collect()
    }

    fn pattern_matches(source: &str, ignore_case: bool, line: &str) -> Vec<Vec<Option<String>>> {
        Pattern::new(source, ignore_case)
            .expect("pattern")
            .captures_iter(line)
            .iter()
            .map(|c| {
                c.iter()
                    .map(|g| g.map(|m| m.as_str().to_string()))
                    .collect()
            })
            .collect()
    }

    /// The built-in cases' kinds of pattern, on ASCII lines and on lines with other scripts:
    /// the same matches and groups as the pattern compiled in Unicode mode.
    #[test]
    fn matches_as_unicode_mode_does_on_any_line() {
        let patterns = [
            r"\b(player|computer)\s*turn\b",
            r"matches\s*:?\s*((?:\|{5}[ \t]+)+\|{0,4}|\|{1,4})",
            r"computer\s+removes?\D*(\d+)",
            r"\b(?:player|you|user)\b[^\n]*\b(?:wins?|won)\b",
            r"would\W+you\W+like\W+to\W+play\W+again",
            r"(\w+)\s+wins",
            r"(?-i:Kelvin)|k",
            r"^\s*(\S+)\s*$",
            r"¡ganaste|gan\w+",
        ];
        let lines = [
            "Player 1 turn: Computer removes 3 matches",
            "matches: ||||| ||||| |||",
            "Would   you like to play again? (Y/N)",
            "You won! Player 2 wins",
            "player two - turn",
            "The KELVIN sign: \u{212A} and kelvin",
            "¡Ganaste! El jugador 1 gana. Jugador ganó",
            "  über  ",
            "naïve computer removes ٣ (3) matches; computer  removes 12",
            "",
        ];
        for source in patterns {
            for ignore_case in [true, false] {
                for line in lines {
                    assert_eq!(
                        pattern_matches(source, ignore_case, line),
                        unicode_matches(source, ignore_case, line),
                        "{source:?} (ignore case {ignore_case}) on {line:?}"
                    );
                }
            }
        }
    }

    /// Every `lines` pattern of the built-in cases, on every line of every reference
    /// transcript (ASCII) and on those lines in other scripts' letters: ASCII mode where it
    /// is used gives what Unicode mode gives.
    #[test]
    fn every_built_in_pattern_matches_every_reference_line_as_unicode_mode_does() {
        let tree = crate::cases::CaseTree::built_in();
        let mut patterns = std::collections::BTreeSet::new();
        for assignment in tree.assignments(&crate::assignments::Registry::built_in()) {
            let set = crate::cases::load(&tree, assignment).expect("built-in cases");
            let checks = set
                .default_checks
                .iter()
                .chain(set.cases.iter().flat_map(|c| c.checks.iter()));
            for check in checks {
                if let crate::check::CheckKind::Lines { pattern, .. } = &check.kind {
                    patterns.insert((pattern.as_str().to_string(), pattern.ignore_case));
                }
            }
        }
        assert!(patterns.len() >= 20, "{patterns:?}");
        let mut lines = Vec::new();
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/reference");
        for entry in walkdir::WalkDir::new(root).into_iter().flatten() {
            if entry.file_type().is_file() {
                let text = std::fs::read_to_string(entry.path()).expect("transcript");
                lines.extend(text.lines().map(str::to_string));
            }
        }
        let foreign: Vec<String> = lines
            .iter()
            .take(300)
            .map(|l| l.replace('a', "á").replace('e', "ё").replace(' ', "\u{a0}"))
            .collect();
        lines.sort();
        lines.dedup();
        for (source, ignore_case) in &patterns {
            let pattern = Pattern::new(source, *ignore_case).expect("pattern");
            let unicode = plain_unicode_regex(source, *ignore_case);
            for line in lines.iter().chain(&foreign) {
                let ours: Vec<Vec<Option<&str>>> = pattern
                    .captures_iter(line)
                    .iter()
                    .map(|c| c.iter().map(|g| g.map(|m| m.as_str())).collect())
                    .collect();
                let theirs: Vec<Vec<Option<&str>>> = unicode
                    .captures_iter(line)
                    .map(|c| c.iter().map(|g| g.map(|m| m.as_str())).collect())
                    .collect();
                assert_eq!(ours, theirs, "{source:?} on {line:?}");
            }
        }
    }

    #[test]
    fn ascii_lines_never_compile_the_unicode_form() {
        let pattern = Pattern::new(r"would\W+you\W+like", true).expect("pattern");
        assert_eq!(pattern.captures_iter("WOULD you  like").len(), 1);
        assert!(pattern.captures("would you not").is_none());
        assert!(pattern.unicode.get().is_none());
        assert_eq!(pattern.captures_iter("would—you like").len(), 1);
        assert!(pattern.unicode.get().is_some());
    }

    #[test]
    fn a_pattern_only_unicode_mode_reads_still_works() {
        // A class of non-ASCII letters has no ASCII form.
        let pattern = Pattern::new(r"([éÉ])\w+", true).expect("pattern");
        assert!(pattern.ascii.is_none());
        let found = pattern.captures("say Élan").expect("a match");
        assert_eq!(found.get(0).map(|s| s.as_str()), Some("Élan"));
        assert_eq!(found.get(1).map(|s| (s.start(), s.end())), Some((4, 6)));
        assert_eq!(found.group_count(), 2);
        assert!(pattern.captures("say Alan").is_none());
    }

    #[test]
    fn a_pattern_too_large_for_unicode_mode_matches_in_ascii_mode_everywhere() {
        // Within the regex crate's size limit in ASCII mode only.
        let pattern = Pattern::new(r"(\w{1000})", false).expect("pattern");
        let long = "a".repeat(1000);
        assert_eq!(pattern.captures_iter(&long).len(), 1);
        assert_eq!(pattern.captures_iter(&format!("é{long}")).len(), 1);
        assert!(pattern.unicode.get().is_some_and(Option::is_none));
    }

    #[test]
    fn bad_patterns_are_refused_when_compiled() {
        for bad in [
            "(unclosed",
            "a{1000000}",
            "(?P<x>a)(?P<x>b)",
            r"\p{NoSuchScript}",
        ] {
            assert!(Pattern::new(bad, true).is_err(), "{bad}");
        }
        assert_eq!(Pattern::new("a|b", true).expect("good").as_str(), "a|b");
    }

    #[test]
    fn groups_that_did_not_take_part_are_none() {
        let pattern = Pattern::new(r"(a)|(b)", false).expect("pattern");
        let found = pattern.captures("b").expect("a match");
        assert_eq!(found.get(1), None);
        assert_eq!(found.get(2).map(|s| s.as_str()), Some("b"));
        assert_eq!(found.iter().flatten().count(), 2);
        assert_eq!(found.get(3), None);
    }

    /// A match as the whole-text search test compares it: line, line start, group spans.
    type Found = (usize, usize, Spans);

    /// Searching a whole text finds what searching each line alone finds: the same matches,
    /// groups and lines, for the built-in patterns and for the ones that would cross or
    /// anchor on a line break if they were not made line-safe.
    #[test]
    fn a_whole_text_search_finds_what_each_line_alone_finds() {
        use proptest::prelude::*;
        let patterns = [
            r"\b(player|computer)\s*turn\b",
            r"matches\s*:?\s*((?:\|{5}[ \t]+)+\|{0,4}|\|{1,4})",
            r"computer\s+removes?\D*(\d+)",
            r"\b(?:player|you|user)\b[^\n]*\b(?:wins?|won)\b",
            r"would\W+you\W+like\W+to\W+play\W+again",
            r"^\s*(\S+)\s*$",
            r"\A\w+|\w+\z",
            r"(?s).",
            r"a\nb|b",
            r"x*",
            r"^",
            r"$",
            r"[^a]+",
            r"(?m)^a$",
            r"\W+",
            r"(\w)?(\d)",
            r"¡ganaste|gan\w+",
        ];
        let pieces = prop::collection::vec(
            prop::sample::select(vec![
                "Player turn",
                "computer removes 3",
                "matches: ||||| |",
                "\n",
                "\n",
                "\n",
                "a",
                "b",
                " ",
                "\t",
                "\r",
                "x",
                "¡Ganaste!",
                "wins",
                "you",
                "7",
                "\u{a0}",
                "ёж",
            ]),
            0..24,
        );
        for source in patterns {
            for ignore_case in [false, true] {
                let pattern = Pattern::new(source, ignore_case).expect("pattern");
                // A runner per pattern: one runner stops after its cases, over all patterns.
                proptest::test_runner::TestRunner::new(ProptestConfig {
                    cases: 200,
                    ..ProptestConfig::default()
                })
                .run(&pieces, |pieces| {
                    let text: String = pieces.concat();
                    let whole: Vec<Found> = pattern
                        .captures_in_lines(&text)
                        .into_iter()
                        .map(|m| {
                            let groups = m
                                .captured
                                .iter()
                                .map(|g| g.map(|s| (s.start(), s.end())))
                                .collect();
                            (m.line, m.line_start, groups)
                        })
                        .collect();
                    let mut by_line = Vec::new();
                    let mut start = 0;
                    for (index, line) in text.split_inclusive('\n').enumerate() {
                        let bare = line.strip_suffix('\n').unwrap_or(line);
                        for c in pattern.captures_iter(bare) {
                            let groups = c.iter().map(|g| g.map(|s| (s.start(), s.end())));
                            by_line.push((index, start, groups.collect()));
                        }
                        start += line.len();
                    }
                    prop_assert_eq!(&whole, &by_line, "{:?} on {:?}", source, text);
                    Ok(())
                })
                .expect("the whole text agrees with its lines");
            }
        }
    }
}
