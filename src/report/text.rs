//! The default human report: a line per case with ✓/✗ and points, and for each visible case
//! that lost points the feedback a student can act on (the input sent, the first difference
//! with whitespace made visible, the relaxation that would have passed, notes, how the run
//! ended). The per-case feedback is shared with the Gradescope and JUnit formats.

use std::fmt::Write as _;

pub(crate) use super::style::Style;
use super::{for_students, points, points_of, Exporter, RenderOptions};
use crate::results::{CaseResult, CaseStatus, CheckResult, Ended, GradeResult, Visibility};
use crate::transcript::show_whitespace;

/// How many input lines are listed in full; longer inputs show a window around the difference.
const MAX_INPUT_LINES: usize = 30;
/// How many stderr lines a failed case shows.
const MAX_STDERR_LINES: usize = 10;
/// Shown instead of a hidden case's details.
const HIDDEN_NOTE: &str = "hidden case: details not shown";
/// Shown for cases that never ran because the build failed.
const NOT_BUILT: &str = "not run: the submission did not build";

/// Renders the text report; colour only when [`RenderOptions::color`] is set.
pub struct TextExporter {
    style: Style,
}

impl TextExporter {
    /// A text exporter with the given rendering options.
    pub fn new(options: RenderOptions) -> Self {
        TextExporter {
            style: Style {
                color: options.color,
            },
        }
    }
}

impl Exporter for TextExporter {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        Ok(render(&for_students(result), self.style).into_bytes())
    }
}

/// The whole report for an already redacted result.
fn render(result: &GradeResult, style: Style) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}",
        style.bold(&format!("{}: {}", result.assignment, result.submission))
    );
    if let Some(variant) = &result.variant {
        let _ = writeln!(out, "Variant: {}", variant.describe());
        for note in &variant.notes {
            let _ = writeln!(out, "  {note}");
        }
    }
    if let Some(warning) = super::sandbox_warning(result) {
        let _ = writeln!(out, "{}", style.red(&style.bold(&warning)));
    }
    out.push('\n');
    for note in &result.notes {
        let _ = writeln!(out, "Note: {note}");
    }
    if !result.notes.is_empty() {
        out.push('\n');
    }

    if let Some(failure) = &result.build_failure {
        let _ = writeln!(
            out,
            "{} {}",
            style.red(&style.bold("Build failed:")),
            failure.command
        );
        for line in failure.messages.lines() {
            let _ = writeln!(out, "    {line}");
        }
        let _ = writeln!(out, "Every case scores 0.");
        out.push('\n');
    }

    let width = result
        .cases
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0);
    let points_width = result
        .cases
        .iter()
        .map(|c| points_of(c.score, c.max_score).chars().count())
        .max()
        .unwrap_or(0);
    for case in &result.cases {
        let pad = width.saturating_sub(case.name.chars().count());
        let _ = write!(
            out,
            "{} {}{}  {}",
            mark(case, style),
            case.name,
            " ".repeat(pad),
            points_of(case.score, case.max_score)
        );
        let details = !full_marks(case)
            || !case.notes.is_empty()
            || super::undefined_behaviour(case).is_some()
            || (super::resources::noteworthy(&case.run) && case.visibility == Visibility::Visible);
        if !details && case.visibility == Visibility::Visible {
            out.push('\n');
            continue;
        }
        let points_pad =
            points_width.saturating_sub(points_of(case.score, case.max_score).chars().count());
        out.push_str(&" ".repeat(points_pad));
        if result.build_failure.is_some() || case.run.ended == Ended::BuildFailed {
            let _ = writeln!(out, "  {}", style.dim(NOT_BUILT));
            continue;
        }
        // What the run cost, when a limit stopped it or it was slow.
        let resources = super::resources::noteworthy(&case.run).then(|| {
            format!(
                "    {} {}\n",
                style.bold("Resources:"),
                super::resources::line(&case.run)
            )
        });
        if case.visibility == Visibility::Hidden {
            let _ = writeln!(out, "  {}", style.dim(HIDDEN_NOTE));
            continue;
        }
        out.push('\n');
        for line in case_feedback(case, style).lines() {
            if line.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "    {line}");
            }
        }
        out.push_str(&resources.unwrap_or_default());
    }

    out.push('\n');
    out.push_str(&super::requirements::section(result, style));
    let _ = writeln!(
        out,
        "{}",
        style.bold(&format!(
            "Score: {}",
            points_of(result.score, result.max_score)
        ))
    );
    out
}

/// ✓ for a case with full marks, ✗ for one that lost points, ! for one that could not run.
fn mark(case: &CaseResult, style: Style) -> String {
    match case.status {
        CaseStatus::Passed if lost(case.score, case.max_score) => style.red("✗"),
        CaseStatus::Passed => style.green("✓"),
        CaseStatus::Failed => style.red("✗"),
        CaseStatus::Error => style.yellow("!"),
    }
}

/// True when the case passed with every point (a visible one then needs no feedback).
fn full_marks(case: &CaseResult) -> bool {
    case.full_marks()
}

/// True when `score` is short of `max_score` (tolerating float noise).
fn lost(score: f64, max_score: f64) -> bool {
    score + 1e-9 < max_score
}

/// The feedback for one case, without a header line and without indentation.
///
/// Hidden cases get only [`HIDDEN_NOTE`]; cases that never ran because the build failed get
/// only a note saying so. A visible case that lost points reads cause first: a limit the
/// program hit (time, CPU, memory, output) or its crash on the first line; then the first
/// difference in the run, with the check that found it and both sides in context, and the
/// rule the case tests; the input sent, marked where that difference came; then the checks
/// that differ later, one line each, as what may follow from it; how the run ended, stderr
/// and notes. Visible cases with full marks get only their notes (or "passed").
pub(crate) fn case_feedback(case: &CaseResult, style: Style) -> String {
    if case.run.ended == Ended::BuildFailed {
        return format!("{NOT_BUILT}\n");
    }
    if case.visibility == Visibility::Hidden {
        return format!("{HIDDEN_NOTE}\n");
    }
    let failed = !full_marks(case);
    let mut out = String::new();
    let mut limit_note = None;

    if failed {
        limit_note = limit(case);
        if let Some(note) = &limit_note {
            let _ = writeln!(out, "{}", style.red(&style.bold(&capitalised(note))));
        }
        let cause = super::first_difference(case);
        if let Some(check) = cause.map(|index| &case.checks[index]) {
            let _ = writeln!(
                out,
                "{} {}",
                style.red(&style.bold("First difference:")),
                check_line(check, style)
            );
            difference_feedback(&mut out, check, style);
        }
        // The rule the first differing check states (`rule:`), else the case's own.
        let rule = cause
            .and_then(|index| case.checks[index].rule.as_deref())
            .filter(|rule| !rule.is_empty())
            .unwrap_or(case.description.as_str());
        if !rule.is_empty() {
            let _ = writeln!(
                out,
                "{} {}",
                style.bold(if cause.is_some() {
                    "Rule it breaks:"
                } else {
                    "Rule:"
                }),
                shortened(rule, RULE_CHARS)
            );
        }
        if !case.input.is_empty() {
            let marker = cause
                .and_then(|index| case.checks[index].difference.as_ref())
                .map(|d| d.inputs_before);
            input_listing(&mut out, &case.input, marker, style);
        }
        let mut later: Vec<(usize, &CheckResult)> = case
            .checks
            .iter()
            .enumerate()
            .filter(|(index, c)| Some(*index) != cause && super::check_lost(c))
            .collect();
        // In the order they differ in the run; informational checks last.
        later.sort_by_key(|(index, c)| {
            (
                c.max_score <= 0.0,
                c.difference
                    .as_ref()
                    .map_or((usize::MAX, usize::MAX), |d| d.order()),
                *index,
            )
        });
        if !later.is_empty() {
            let _ = writeln!(
                out,
                "{}",
                style.bold(if cause.is_some() {
                    "Also differing, after the first difference (may follow from it):"
                } else {
                    "Also differing:"
                })
            );
            for (_, check) in later {
                let _ = writeln!(out, "  {}", check_line(check, style));
                if let Some(difference) = &check.difference {
                    let _ = writeln!(out, "    {}", style.dim(&place(difference)));
                }
            }
        }
        run_feedback(&mut out, case, limit_note.is_some());
        if !case.stderr.trim().is_empty() {
            let _ = writeln!(out, "{}", style.bold("The program's stderr:"));
            let lines: Vec<&str> = case.stderr.lines().collect();
            for line in lines.iter().take(MAX_STDERR_LINES) {
                let _ = writeln!(out, "  {}", style.dim(line));
            }
            if lines.len() > MAX_STDERR_LINES {
                let _ = writeln!(
                    out,
                    "  {}",
                    style.dim(&format!("… {} more lines", lines.len() - MAX_STDERR_LINES))
                );
            }
        }
    }
    if !failed {
        // Full marks, yet the instrumented run found undefined behaviour (a `sanitizer`
        // check of weight 0): said all the same, it is a bug.
        if let Some(check) = super::undefined_behaviour(case) {
            let _ = writeln!(
                out,
                "{} {}",
                style.bold("Sanitizer check (no points taken):"),
                check.detail
            );
        }
    }
    for note in &case.notes {
        if limit_note.as_ref() == Some(note) {
            continue;
        }
        let _ = writeln!(out, "{} {note}", style.bold("Note:"));
    }
    if out.is_empty() {
        out.push_str("passed\n");
    }
    out
}

/// Where a difference is: its location, and after how many input lines (once).
fn place(difference: &crate::results::Difference) -> String {
    let location = &difference.location;
    if location.starts_with("after ") || location.starts_with("before ") {
        return location.clone();
    }
    format!(
        "at {location}, after {} input line{}",
        difference.inputs_before,
        plural(difference.inputs_before)
    )
}

/// "" for one, "s" for any other count.
fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// `text` with its first letter in capitals.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// What stopped the program, when a limit did (time, CPU, memory, output) or it crashed: the
/// case's note saying so, else the run's ending. Everything else in such a case follows from it.
fn limit(case: &CaseResult) -> Option<String> {
    let run = &case.run;
    let stopped = matches!(
        run.ended,
        Ended::Timeout
            | Ended::CpuLimit
            | Ended::MemoryLimit
            | Ended::OutputLimit
            | Ended::Signal
            | Ended::Blocked
    ) || run.output_truncated;
    if !stopped {
        return crash(case);
    }
    let note = case
        .notes
        .iter()
        .find(|n| n.starts_with("the program was stopped") || n.starts_with("the program crashed"));
    Some(match note {
        Some(note) => note.clone(),
        None if run.output_truncated && run.ended != Ended::Signal => {
            "the program was stopped at the output limit".to_string()
        }
        None => match (run.ended, run.signal) {
            (Ended::Signal, Some(signal)) => {
                format!("the program crashed: killed by signal {signal}")
            }
            (ended, _) => format!(
                "the program {} after {} s",
                ended.describe(),
                points(run.wall_ms as f64 / 1000.0)
            ),
        },
    })
}

/// A program that died of an error before its game was over (an uncaught exception: it
/// exited with a failure status, too early, something on stderr): what it said, in one line,
/// since everything after follows from it.
fn crash(case: &CaseResult) -> Option<String> {
    let run = &case.run;
    let status = run.exit_code.filter(|&code| code != 0)?;
    // Ended too early: input left unread, or (a game driven move by move, which sends no
    // more than the program reads) the exit check found it ended before the reference.
    let early = run.unread_inputs > 0
        || case
            .checks
            .iter()
            .any(|c| c.kind == "exit" && super::check_lost(c));
    if run.ended != Ended::Exit || !early {
        return None;
    }
    // The error's own line: the last one not indented (Python's "ZeroDivisionError: …" after
    // its traceback, Java's "Exception in thread …" before its "\tat" lines).
    let said = case
        .stderr
        .lines()
        .rev()
        .filter(|line| !line.trim().is_empty() && !line.starts_with(char::is_whitespace))
        .find(|line| !line.starts_with("Traceback ") && !line.starts_with("…"))?;
    let read = case.input.len().saturating_sub(run.unread_inputs);
    let when = if run.unread_inputs > 0 {
        format!("after reading {read} of {} input lines", case.input.len())
    } else {
        format!(
            "after {read} input line{}, before its game was over",
            plural(read)
        )
    };
    Some(format!(
        "the program ended with status {status} {when}: {}",
        shortened(said, 200)
    ))
}

/// Characters of a case's rule the text report shows; the JSON and HTML reports carry it
/// whole.
const RULE_CHARS: usize = 400;

/// `text` cut to at most about `max` characters at the end of a sentence (else of a word),
/// marked with "…"; whole when it is short enough. Never cuts a word or a quotation in two
/// when a boundary exists.
pub(crate) fn shortened(text: &str, max: usize) -> String {
    let text = text.trim();
    if text.chars().count() <= max {
        return text.to_string();
    }
    let limit = text
        .char_indices()
        .nth(max)
        .map_or(text.len(), |(index, _)| index);
    let head = &text[..limit];
    // The end of the last sentence that fits: ". ", "! ", "? " (or with a closing quote).
    let sentence = head
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, '.' | '!' | '?') && {
                let rest = &text[i + c.len_utf8()..];
                let rest = rest.strip_prefix(['"', '\'', '”', ')']).unwrap_or(rest);
                rest.starts_with(char::is_whitespace)
            }
        })
        .map(|(i, c)| {
            let after = i + c.len_utf8();
            let rest = &text[after..];
            after
                + rest
                    .chars()
                    .next()
                    .filter(|q| matches!(q, '"' | '\'' | '”' | ')'))
                    .map_or(0, char::len_utf8)
        })
        .rfind(|&end| end <= limit && end * 2 >= limit);
    let end = sentence.unwrap_or_else(|| {
        head.rfind(char::is_whitespace)
            .filter(|&i| i > 0)
            .unwrap_or(limit)
    });
    format!("{} …", text[..end].trim_end())
}

/// One check on one line: its name, kind, points and what it found.
fn check_line(check: &CheckResult, style: Style) -> String {
    if check.max_score > 0.0 {
        format!(
            "{} {} ({}), {}: {}",
            style.red("✗"),
            style.bold(&format!("check {}", check.name)),
            check.kind,
            points_of(check.score, check.max_score),
            check.detail
        )
    } else {
        // A check without points only informs: how close the whole output is.
        format!(
            "{} {} ({}, for information, no points): {}",
            style.dim("i"),
            style.bold(&format!("check {}", check.name)),
            check.kind,
            check.detail
        )
    }
}

/// Lists the input lines, numbered, with a marker after the `marker`-th line.
fn input_listing(out: &mut String, input: &[String], marker: Option<usize>, style: Style) {
    let _ = writeln!(out, "{}", style.bold("Input sent:"));
    let total = input.len();
    let (start, end) = if total <= MAX_INPUT_LINES {
        (0, total)
    } else {
        let around = marker.unwrap_or(0).min(total);
        let start = around.saturating_sub(MAX_INPUT_LINES / 2);
        let end = (start + MAX_INPUT_LINES).min(total);
        (end.saturating_sub(MAX_INPUT_LINES), end)
    };
    let number_width = total.to_string().len();
    let marker_line = |out: &mut String, sent: usize| {
        let _ = writeln!(
            out,
            "  {}",
            style.red(&format!(
                "▶ first difference here (after {sent} input line{})",
                if sent == 1 { "" } else { "s" }
            ))
        );
    };
    if start > 0 {
        let _ = writeln!(out, "  {}", style.dim(&format!("… {start} earlier lines")));
    }
    if marker == Some(0) && start == 0 {
        marker_line(out, 0);
    }
    for (index, line) in input.iter().enumerate().take(end).skip(start) {
        let _ = writeln!(
            out,
            "  {:>number_width$}  {}",
            index + 1,
            show_whitespace(line)
        );
        if marker == Some(index + 1) {
            marker_line(out, index + 1);
        }
    }
    if end < total {
        let _ = writeln!(
            out,
            "  {}",
            style.dim(&format!("… {} more lines", total - end))
        );
    }
    if let Some(sent) = marker {
        if sent > total {
            marker_line(out, sent);
        }
    }
}

/// A check's first difference: where, both sides with whitespace made visible, and the
/// relaxation that would have passed.
fn difference_feedback(out: &mut String, check: &CheckResult, style: Style) {
    let Some(difference) = &check.difference else {
        return;
    };
    let _ = writeln!(
        out,
        "  {} (· space, → tab, ⏎ end of line):",
        capitalised(&place(difference))
    );
    let expected = shown_lines(&difference.expected);
    let actual = shown_lines(&difference.actual);
    for (label, lines, other) in [
        ("expected:", &expected, &actual),
        ("got:", &actual, &expected),
    ] {
        let _ = writeln!(out, "  {}", style.bold(label));
        if lines.is_empty() {
            let _ = writeln!(out, "    │ {}", style.dim("(nothing)"));
        }
        for (index, line) in lines.iter().enumerate() {
            let same = other.get(index) == Some(line);
            let text = if same { style.dim(line) } else { line.clone() };
            let _ = writeln!(out, "    │ {text}");
        }
    }
    if let Some(relaxation) = &difference.relaxation {
        let _ = writeln!(
            out,
            "  Would have passed with this relaxation: {relaxation}"
        );
    }
}

/// `text` with whitespace made visible, split into display lines.
fn shown_lines(text: &str) -> Vec<String> {
    let shown = show_whitespace(text);
    let mut lines: Vec<String> = shown.split('\n').map(str::to_string).collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// How the run ended, when that explains lost points: anything but a clean exit.
fn run_feedback(out: &mut String, case: &CaseResult, limit_shown: bool) {
    let run = &case.run;
    let ended = match run.ended {
        Ended::Exit => match run.exit_code {
            Some(code) if code != 0 => format!("exited with status {code}"),
            _ => String::new(),
        },
        Ended::Signal => match run.signal {
            Some(signal) => format!("was killed by signal {signal}"),
            None => run.ended.describe().to_string(),
        },
        // Stopped while asking for more input is how most cases end; the exit check says
        // when that was wrong.
        Ended::WaitingForInput => String::new(),
        other => other.describe().to_string(),
    };
    if !ended.is_empty() && !limit_shown {
        let _ = writeln!(
            out,
            "Run: the program {ended} after {} s.",
            points(run.wall_ms as f64 / 1000.0)
        );
    }
    if run.output_truncated && !limit_shown {
        let _ = writeln!(out, "Run: output was cut at the output limit.");
    }
    if run.unread_inputs > 0 {
        let _ = writeln!(
            out,
            "Run: {} input line{} never read.",
            run.unread_inputs,
            if run.unread_inputs == 1 {
                " was"
            } else {
                "s were"
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{assert_no_secrets, build_failure, sample};

    fn text(result: &GradeResult, color: bool) -> String {
        let bytes = TextExporter::new(RenderOptions { color })
            .export(result)
            .unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn marks_points_and_total() {
        let report = text(&sample(), false);
        assert!(
            report.contains("✓ computer_wins   5/5\n✗ rejects_zero"),
            "{report}"
        );
        assert!(report.contains("✗ rejects_zero    2.5/5"), "{report}");
        assert!(report.contains("✗ hidden_endgame  0/5    hidden case: details not shown"));
        assert!(report.trim_end().ends_with("Score: 7.5/17.5"), "{report}");
        assert!(!report.contains('\x1b'), "no ANSI escapes without colour");
    }

    #[test]
    fn failed_case_shows_input_diff_and_relaxation() {
        let report = text(&sample(), false);
        assert!(report.contains("Rule it breaks: \"You must remove between 1 and 3 coins.\""));
        assert!(report.contains("Input sent:"));
        assert!(report.contains("  1  3\n"), "{report}");
        // The marker comes right after the second input line.
        assert!(
            report.contains(
                "      2  0\n      ▶ first difference here (after 2 input lines)\n      3  1\n"
            ),
            "{report}"
        );
        assert!(report.contains("First difference: ✗ check output (transcript), 0/2.5"));
        assert!(report.contains("At line 4, after 2 input lines"));
        assert!(
            report.contains(
                "expected:\n        │ Computer·removes·2.⏎\n        │ Remove·(1·-·3):·⏎\n"
            ),
            "{report}"
        );
        assert!(
            report.contains(
                "got:\n        │ Computer·removes·2.⏎\n        │ Remove·(1-3):→garbage⏎\n"
            ),
            "{report}"
        );
        assert!(report.contains("Would have passed with this relaxation: ignoring case\n"));
        assert!(report.contains("Note: prompts were not flushed before reading input"));
        assert!(report.contains("warning: unused variable"));
    }

    #[test]
    fn timeout_shows_how_the_run_ended() {
        let report = text(&sample(), false);
        // The limit is the first line of its case, said once.
        assert!(
            report.contains("✗ replay          0/2.5\n    The program timed out after 2 s\n"),
            "{report}"
        );
        assert!(!report.contains("Run: the program timed out"), "{report}");
        assert!(report.contains("Run: 1 input line was never read."));
    }

    #[test]
    fn hidden_case_leaks_nothing() {
        assert_no_secrets(&text(&sample(), false));
        assert_no_secrets(&text(&sample(), true));
    }

    #[test]
    fn colour_only_when_asked() {
        let report = text(&sample(), true);
        assert!(report.contains("\x1b[32m✓\x1b[0m"));
        assert!(report.contains("\x1b[31m✗\x1b[0m"));
    }

    #[test]
    fn build_failure_at_top_and_every_case_zero() {
        let report = text(&build_failure(), false);
        let build = report.find("Build failed: g++ -O2 -o nim nim.cpp").unwrap();
        let first_case = report.find("computer_wins").unwrap();
        assert!(build < first_case);
        assert!(report.contains("'cout' was not declared"));
        assert!(report.contains("! computer_wins   0/5    not run: the submission did not build"));
        assert!(report.contains("! replay          0/2.5  not run: the submission did not build"));
        assert!(!report.contains("Input sent:"));
        assert!(report.trim_end().ends_with("Score: 0/17.5"));
    }

    #[test]
    fn long_input_shows_a_window_around_the_difference() {
        let mut result = sample();
        let case = &mut result.cases[1];
        case.input = (1..=100).map(|n| format!("in{n}")).collect();
        if let Some(difference) = case.checks[0].difference.as_mut() {
            difference.inputs_before = 60;
        }
        let report = text(&result, false);
        assert!(report.contains("… 45 earlier lines"), "{report}");
        assert!(report.contains(" 60  in60\n      ▶ first difference here (after 60 input lines)"));
        assert!(report.contains("… 25 more lines"), "{report}");
        assert!(!report.contains("in45\n") && !report.contains("in76\n"));
    }

    #[test]
    fn difference_before_any_input_is_marked_first() {
        let mut result = sample();
        if let Some(difference) = result.cases[1].checks[0].difference.as_mut() {
            difference.inputs_before = 0;
        }
        let report = text(&result, false);
        assert!(
            report.contains(
                "Input sent:\n      ▶ first difference here (after 0 input lines)\n      1  3\n"
            ),
            "{report}"
        );
    }

    /// The sample's failed case with a second failing check that differs earlier in the run
    /// (listed after the first one).
    fn with_an_earlier_difference() -> GradeResult {
        let mut result = sample();
        let case = &mut result.cases[1];
        case.checks[1] = CheckResult {
            rule: None,
            name: "computer-moves".into(),
            kind: "lines".into(),
            passed: false,
            score: 0.0,
            max_score: 2.5,
            detail: "computer move 1 is \"3\", expected \"2\"".into(),
            difference: Some(crate::results::Difference {
                location: "computer move 1".into(),
                expected: "Computer removes 2.\n".into(),
                actual: "Computer removes 3.\n".into(),
                inputs_before: 1,
                relaxation: None,
                student_line: Some(3),
            }),
        };
        case.score = 0.0;
        result
    }

    #[test]
    fn a_lost_case_opens_with_its_first_difference_and_the_rule_it_breaks() {
        let report = text(&with_an_earlier_difference(), false);
        let case = report
            .split("✗ rejects_zero")
            .nth(1)
            .and_then(|rest| rest.split("✗ hidden_endgame").next())
            .expect("the case");
        let lines: Vec<&str> = case.lines().collect();
        // After one input, before the transcript's difference after two: the cause.
        assert_eq!(
            lines[1].trim(),
            "First difference: ✗ check computer-moves (lines), 0/2.5: computer move 1 is \"3\", \
             expected \"2\"",
            "{case}"
        );
        assert!(
            lines[2].contains("At computer move 1, after 1 input line "),
            "{case}"
        );
        let rule = lines
            .iter()
            .position(|l| l.contains("Rule it breaks:"))
            .expect("rule");
        assert!(rule < 10, "{case}");
        // The marker is where the cause is, after the first input.
        assert!(
            case.contains("1  3\n      ▶ first difference here (after 1 input line)"),
            "{case}"
        );
        // The later difference is grouped under it, one line and its place.
        assert!(
            case.contains(
                "Also differing, after the first difference (may follow from it):\n      ✗ check \
                 output (transcript), 0/2.5: differs at every level (exact … ignore case)\n        \
                 at line 4, after 2 input lines\n"
            ),
            "{case}"
        );
        assert_eq!(case.matches("expected:").count(), 1, "{case}");
    }

    #[test]
    fn the_rule_it_breaks_is_the_first_differing_checks_own_when_it_states_one() {
        let mut result = with_an_earlier_difference();
        let rule = "Rule 3: the computer takes what leaves a multiple of four.";
        result.cases[1].checks[1].rule = Some(rule.into());
        // A rule on a check that differs later is not the one broken first.
        result.cases[1].checks[0].rule = Some("Rule 9: not this one.".into());
        let report = text(&result, false);
        assert!(
            report.contains(&format!("Rule it breaks: {rule}\n")),
            "{report}"
        );
        assert!(!report.contains("Rule 9"), "{report}");
        assert!(
            !report.contains("Rule it breaks: \"You must remove"),
            "the case's description is not the rule here: {report}"
        );
        // The same in every format built on it (the HTML page).
        let html = String::from_utf8(
            super::super::html::HtmlExporter
                .export(&result)
                .expect("html"),
        )
        .expect("utf-8");
        assert!(
            html.contains("Rule it breaks: Rule 3: the computer takes"),
            "{html}"
        );
    }

    #[test]
    fn a_crash_is_the_first_line_of_its_case() {
        let mut result = sample();
        let case = &mut result.cases[1];
        case.run.exit_code = Some(1);
        case.run.unread_inputs = 1;
        case.stderr =
            "Traceback (most recent call last):\n  File \"m.py\", line 9, in <module>\n    \
                       a % b\nZeroDivisionError: integer modulo by zero\n"
                .into();
        let report = text(&result, false);
        assert!(
            report.contains(
                "✗ rejects_zero    2.5/5\n    The program ended with status 1 after reading 2 of 3 \
                 input lines: ZeroDivisionError: integer modulo by zero\n    First difference:"
            ),
            "{report}"
        );
        // A program that read everything and then exited 1 (an EOF traceback) did not crash.
        result.cases[1].run.unread_inputs = 0;
        let report = text(&result, false);
        assert!(
            !report.contains("The program ended with status 1"),
            "{report}"
        );
    }

    #[test]
    fn a_long_rule_is_shortened_at_a_sentence_never_cut_in_a_word() {
        let rule = "Play Again Loop: \"you must include a loop. This loop should start at asking \
                    the player whether they want to play first.\" The first round is the handout's \
                    example; \"y\" starts a second round.";
        assert_eq!(shortened(rule, 500), rule);
        assert_eq!(
            shortened(rule, 130),
            "Play Again Loop: \"you must include a loop. This loop should start at asking the \
             player whether they want to play first.\" …"
        );
        // Without a sentence end in reach: at a word boundary.
        let words = "alpha beta gamma delta epsilon";
        assert_eq!(shortened(words, 13), "alpha beta …");
        // One long word has no boundary: cut there, marked.
        assert_eq!(shortened("abcdefghij", 4), "abcd …");
        // A full rule in the text report: shortened, with nothing cut mid-word.
        let mut result = sample();
        result.cases[1].description = format!("{} {}", "Word.".repeat(50), "x".repeat(400));
        let report = text(&result, false);
        assert!(!report.contains("characters cut"), "{report}");
        assert!(report.contains("Word. …\n"), "{report}");
    }

    #[test]
    fn every_format_keeps_the_rule_whole() {
        let long = format!("\"{}\"", "The rule says so. ".repeat(40).trim_end());
        let mut result = sample();
        result.cases[1].description = long.clone();
        let shown = crate::report::for_students(&result);
        assert_eq!(shown.cases[1].description, long);
    }
}
