//! Reports: one file per output format behind one trait, the way hyperfine's `export/` does it.
//!
//! Every format reads the same [`GradeResult`]. Before rendering, each exporter passes the
//! result through [`for_students`], which strips everything a hidden case must never show
//! (its input, stderr, differences and check details), so no format can leak them by mistake.

pub mod audience;
pub mod classroom50;
pub mod explore;
pub mod github;
pub mod gradescope;
pub mod html;
pub mod json;
pub mod junit;
pub mod lms;
pub mod requirements;
pub mod resources;
pub mod similarity;
mod style;
pub mod text;

use std::io::{IsTerminal as _, Write as _};
use std::path::Path;

use anyhow::Context as _;

use crate::results::{
    CaseResult, CaseStatus, CheckResult, Ended, GradeResult, RunSummary, Visibility,
};

/// The report formats `--format` accepts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Human-readable, with feedback; colour on a terminal.
    #[default]
    Text,
    /// The stable JSON report (docs/report-format.md).
    Json,
    /// JUnit XML, one testcase per case.
    Junit,
    /// Gradescope's results.json.
    Gradescope,
    /// A self-contained HTML page (with --output-dir, also a class page, index.html).
    Html,
    /// Classroom 50's result.json (docs/classroom50.md).
    Classroom50,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 6] = [
        Format::Text,
        Format::Json,
        Format::Junit,
        Format::Gradescope,
        Format::Html,
        Format::Classroom50,
    ];

    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Junit => "junit",
            Format::Gradescope => "gradescope",
            Format::Html => "html",
            Format::Classroom50 => "classroom50",
        }
    }

    /// The file extension of a report in this format.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Json | Format::Gradescope | Format::Classroom50 => "json",
            Format::Junit => "xml",
            Format::Html => "html",
        }
    }

    /// One line saying what the format is, for `--help`.
    pub fn description(self) -> &'static str {
        match self {
            Format::Text => "Human-readable, with feedback; colour on a terminal",
            Format::Json => "The stable JSON report (docs/report-format.md)",
            Format::Junit => "JUnit XML, one testcase per case",
            Format::Gradescope => "Gradescope's results.json",
            Format::Html => "A self-contained HTML page (with --output-dir, also a class page)",
            Format::Classroom50 => {
                "Classroom 50's result.json, in whole points (docs/classroom50.md)"
            }
        }
    }
}

/// Settings that affect how a report is rendered but not what it says.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderOptions {
    /// Use ANSI colours (text format only).
    pub color: bool,
}

/// A report format: turns a grading result into the bytes of one file.
pub trait Exporter {
    /// Renders the whole report.
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>>;
}

/// The exporter for a format.
pub fn exporter(format: Format, options: RenderOptions) -> Box<dyn Exporter> {
    match format {
        Format::Text => Box::new(text::TextExporter::new(options)),
        Format::Json => Box::new(json::JsonExporter),
        Format::Junit => Box::new(junit::JunitExporter),
        Format::Gradescope => Box::new(gradescope::GradescopeExporter::default()),
        Format::Html => Box::new(html::HtmlExporter),
        Format::Classroom50 => Box::new(classroom50::Classroom50Exporter::from_env()),
    }
}

/// Renders `result` in the chosen format to `path`, or to standard output.
pub fn write(result: &GradeResult, format: Format, path: Option<&Path>) -> anyhow::Result<()> {
    let color = path.is_none()
        && format == Format::Text
        && std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let mut bytes = exporter(format, RenderOptions { color }).export(result)?;
    if github::active() {
        // Nothing the student wrote may reach the runner as a workflow command: every format
        // escapes what could start one, and a text report on standard output is fenced.
        bytes = github::structured(bytes, format);
        if path.is_none() && format == Format::Text {
            bytes = github::fence(&String::from_utf8_lossy(&bytes)).into_bytes();
        }
    }
    match path {
        Some(path) => std::fs::write(path, &bytes)
            .with_context(|| format!("cannot write the report to {}", path.display()))?,
        None => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (grade … | head) is not an error worth reporting.
            let _ = stdout.write_all(&bytes).and_then(|()| stdout.flush());
        }
    }
    Ok(())
}

/// What a hidden check's `detail` is replaced with: the detail may quote expected output.
pub const HIDDEN_DETAIL: &str = "hidden case: details not shown";

/// The fields of a hidden case (their JSON names) a student's report shows: which case it is
/// and how it scored, an error read as a failure (an error's kind is a channel). Every other
/// field of a hidden [`CaseResult`] is emptied or withheld by [`for_students`], so a field
/// added to results reaches no student until it is named here.
pub const HIDDEN_CASE_SHOWS: [&str; 7] = [
    "name",
    "description",
    "visibility",
    "score",
    "max_score",
    "status",
    "checks",
];

/// The fields of a hidden case's check (their JSON names) a student's report shows; its
/// `detail` reads [`HIDDEN_DETAIL`] and every other field is left out.
pub const HIDDEN_CHECK_SHOWS: [&str; 5] = ["name", "kind", "passed", "score", "max_score"];

/// A copy of `result` that is safe to show to the student who submitted it: the one
/// redaction of hidden cases, which every student-facing writer goes through (every format,
/// the class page, the class's stored results, the gradebook, GitHub's annotations).
///
/// A hidden case keeps only what [`HIDDEN_CASE_SHOWS`] and [`HIDDEN_CHECK_SHOWS`] name (an
/// allow-list: its input, stderr, notes, differences, rules and check details are dropped,
/// and its run withheld, [`RunSummary::withheld`]: no exit status, signal, time, memory or
/// how the run ended), and a hidden case that could not be run reads as failed. The
/// grading's total time is then the visible cases' alone. Each visible case names its
/// [`first_difference`] (the cause its feedback opens with). Then every string is escaped and
/// bounded ([`crate::escape::for_display`]): no control character reaches a terminal and no quoted
/// line makes a report huge. Every exporter renders this copy, never the raw result.
pub fn for_students(result: &GradeResult) -> GradeResult {
    let mut shown = result.clone();
    if shown
        .cases
        .iter()
        .any(|c| c.visibility == Visibility::Hidden && !c.run.withheld)
    {
        // The total would carry the hidden runs' time (a program can sleep its input away).
        shown.wall_ms = shown
            .cases
            .iter()
            .filter(|c| c.visibility == Visibility::Visible)
            .map(|c| c.run.wall_ms)
            .sum();
    }
    for case in &mut shown.cases {
        if case.visibility == Visibility::Hidden {
            *case = hidden_case(case);
        } else {
            case.first_difference =
                first_difference(case).map(|index| case.checks[index].name.clone());
        }
    }
    crate::escape::into_display(shown)
}

/// The warning every format puts first when a required sandbox layer was off, or None.
pub fn sandbox_warning(result: &GradeResult) -> Option<String> {
    let missing = result.missing_layers();
    if missing.is_empty() {
        return None;
    }
    let list: Vec<String> = missing
        .iter()
        .map(|l| format!("{} ({})", l.name, l.detail))
        .collect();
    Some(format!(
        "WARNING: the sandbox was incomplete; student code ran without: {}",
        list.join("; ")
    ))
}

/// A hidden case as a student's report holds it (see [`for_students`]): built field by field,
/// keeping what [`HIDDEN_CASE_SHOWS`] names. (Every field is written out: a field added to
/// [`CaseResult`] does not compile here until it is given its withheld value.)
fn hidden_case(case: &CaseResult) -> CaseResult {
    let build_failed = case.run.ended == Ended::BuildFailed;
    CaseResult {
        name: case.name.clone(),
        description: case.description.clone(),
        visibility: case.visibility,
        score: case.score,
        max_score: case.max_score,
        status: if case.status == CaseStatus::Error && !build_failed {
            CaseStatus::Failed
        } else {
            case.status
        },
        checks: case.checks.iter().map(hidden_check).collect(),
        // Every figure of the run is a channel for the input.
        run: RunSummary::withheld(build_failed),
        input: Vec::new(),
        notes: Vec::new(),
        stderr: String::new(),
        first_difference: None,
    }
}

/// A hidden case's check as a student's report holds it: what [`HIDDEN_CHECK_SHOWS`] names,
/// its detail [`HIDDEN_DETAIL`] (it may quote expected output).
fn hidden_check(check: &CheckResult) -> CheckResult {
    CheckResult {
        name: check.name.clone(),
        kind: check.kind.clone(),
        passed: check.passed,
        score: check.score,
        max_score: check.max_score,
        detail: HIDDEN_DETAIL.to_string(),
        difference: None,
        rule: None,
    }
}

/// The case's failed `sanitizer` check, if any: undefined behaviour the instrumented run of
/// a C or C++ program found (docs/sanitizers.md), shown even when it cost no points.
pub fn undefined_behaviour(case: &CaseResult) -> Option<&CheckResult> {
    case.checks
        .iter()
        .find(|c| c.kind == "sanitizer" && !c.passed)
}

/// Whether a check cost points (or, for an informational one, found a difference).
pub fn check_lost(check: &CheckResult) -> bool {
    !check.passed || check.score + 1e-9 < check.max_score
}

/// The index in `case.checks` of the check that differs first in the run: the cause a lost
/// case's feedback opens with, every later difference possibly following from it. Among the
/// checks that cost points (informational ones only when none did), the one whose
/// difference comes first ([`crate::results::Difference::order`]); a tie goes to the check
/// listed first, one without a difference comes last.
pub fn first_difference(case: &CaseResult) -> Option<usize> {
    let failing: Vec<(usize, &CheckResult)> = case
        .checks
        .iter()
        .enumerate()
        .filter(|(_, c)| check_lost(c))
        .collect();
    let scored: Vec<(usize, &CheckResult)> = failing
        .iter()
        .copied()
        .filter(|(_, c)| c.max_score > 0.0)
        .collect();
    let candidates = if scored.is_empty() { failing } else { scored };
    candidates
        .into_iter()
        .min_by_key(|(index, c)| {
            let order = c
                .difference
                .as_ref()
                .map_or((usize::MAX, usize::MAX), |d| d.order());
            (order, *index)
        })
        .map(|(index, _)| index)
}

/// Whether a submission note is about how the grader worked (its build cache), not about the
/// student's program: a student's page and the gradebook's notes leave it out (a class run
/// counts such builds in its own log instead).
pub fn about_the_grader(note: &str) -> bool {
    note == crate::submission::CACHED_BUILD_NOTE
}

/// Formats points without needless decimals: `5`, `2.5`, `0.33` (rounded to 2 decimals).
pub fn points(value: f64) -> String {
    if !value.is_finite() {
        return value.to_string();
    }
    let rounded = (value * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" {
        "0".to_string()
    } else {
        text.to_string()
    }
}

/// "earned/possible" with [`points`] formatting, e.g. `3.5/5`.
pub fn points_of(score: f64, max_score: f64) -> String {
    format!("{}/{}", points(score), points(max_score))
}

/// The parts of a total (earned, possible) in whole points, for the platforms that count only
/// integers (Classroom 50's result.json, GitHub Classroom's reporter), so that the parts add
/// up to the total the student is shown.
///
/// The possible points add up to the total possible rounded half up, the earned points to the
/// total earned rounded half up, each part's share by the largest remainder; a part with full
/// marks keeps all its whole points, one that earned nothing keeps 0 and one short of full
/// marks stays below its maximum (where that bound keeps the earned total from its rounded
/// value, the total is still the parts' sum).
pub fn whole_points(parts: &[(f64, f64)]) -> Vec<(u64, u64)> {
    let whole = |v: f64| if v.is_finite() { v.max(0.0).round() } else { 0.0 } as i64;
    let maxima: Vec<f64> = parts.iter().map(|p| p.1.max(0.0)).collect();
    let total_max = whole(maxima.iter().sum());
    let max = apportion(
        &maxima,
        total_max,
        &vec![0; parts.len()],
        &vec![i64::MAX; parts.len()],
    );
    let mut lower = Vec::with_capacity(parts.len());
    let mut upper = Vec::with_capacity(parts.len());
    for (&(score, possible), &m) in parts.iter().zip(&max) {
        if score + 1e-9 >= possible {
            lower.push(m);
            upper.push(m);
        } else if score <= 1e-9 {
            lower.push(0);
            upper.push(0);
        } else {
            lower.push(0);
            upper.push((m - 1).max(0));
        }
    }
    let scores: Vec<f64> = parts.iter().map(|p| p.0.max(0.0)).collect();
    let earned = apportion(&scores, whole(scores.iter().sum()), &lower, &upper);
    earned
        .into_iter()
        .zip(max)
        .map(|(s, m)| (s.max(0) as u64, m.max(0) as u64))
        .collect()
}

/// Integers near `values`, each within its bounds, adding up to `target` as nearly as the
/// bounds allow: each value's whole part, then a point at a time to the largest remainder
/// (taken from the smallest when over); on a tie the earlier part gets it, the later gives.
fn apportion(values: &[f64], target: i64, lower: &[i64], upper: &[i64]) -> Vec<i64> {
    let mut out: Vec<i64> = values
        .iter()
        .zip(lower.iter().zip(upper))
        .map(|(v, (&lo, &hi))| (v.floor() as i64).clamp(lo, hi))
        .collect();
    let mut missing = target - out.iter().sum::<i64>();
    while missing != 0 {
        let remainder = |i: usize| values[i] - out[i] as f64;
        let pick = if missing > 0 {
            (0..out.len())
                .filter(|&i| out[i] < upper[i])
                .max_by(|&a, &b| remainder(a).total_cmp(&remainder(b)).then(b.cmp(&a)))
        } else {
            (0..out.len())
                .filter(|&i| out[i] > lower[i])
                .min_by(|&a, &b| remainder(a).total_cmp(&remainder(b)).then(b.cmp(&a)))
        };
        let Some(i) = pick else { break };
        out[i] += missing.signum();
        missing -= missing.signum();
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::results::{BuildFailure, CheckResult, Difference};

    /// The hidden case's input: must never appear in any report.
    pub(crate) const SECRET_INPUT: &str = "SECRET-INPUT-7731";
    /// The hidden case's expected output: must never appear in any report.
    pub(crate) const SECRET_EXPECTED: &str = "SECRET-EXPECTED-4242";
    /// The hidden case's stderr: must never appear in any report.
    pub(crate) const SECRET_STDERR: &str = "SECRET-STDERR-9090";
    /// The hidden case's note: must never appear in any report.
    pub(crate) const SECRET_NOTE: &str = "SECRET-NOTE-5150";

    fn run(ended: Ended, exit_code: Option<i32>, wall_ms: u64) -> RunSummary {
        RunSummary {
            ended,
            exit_code,
            signal: None,
            wall_ms,
            slept_ms: 0,
            cpu_ms: wall_ms / 2,
            peak_memory_kib: Some(2048),
            peak_memory_note: None,
            unread_inputs: 0,
            prompts_late: false,
            output_truncated: false,
            detection: "seccomp".to_string(),
            withheld: false,
        }
    }

    fn check(name: &str, kind: &str, score: f64, max: f64, detail: &str) -> CheckResult {
        CheckResult {
            rule: None,
            name: name.to_string(),
            kind: kind.to_string(),
            passed: score >= max,
            score,
            max_score: max,
            detail: detail.to_string(),
            difference: None,
        }
    }

    /// A realistic nim result: one passed case, one failed visible case with a difference,
    /// one failed hidden case (full of secrets), one timeout.
    pub(crate) fn sample() -> GradeResult {
        let passed = CaseResult {
            name: "computer_wins".to_string(),
            description: "\"The player who removes the last coin wins.\"".to_string(),
            visibility: Visibility::Visible,
            score: 5.0,
            max_score: 5.0,
            status: CaseStatus::Passed,
            checks: vec![
                check("output", "transcript", 4.0, 4.0, "matches at level: exact"),
                check("exit", "exit", 1.0, 1.0, "exited with status 0"),
            ],
            run: run(Ended::Exit, Some(0), 41),
            input: vec!["3".to_string(), "2".to_string()],
            notes: vec![],
            stderr: String::new(),
            first_difference: None,
        };

        let mut transcript = check(
            "output",
            "transcript",
            0.0,
            2.5,
            "differs at every level (exact … ignore case)",
        );
        transcript.difference = Some(Difference {
            location: "line 4".to_string(),
            expected: "Computer removes 2.\nRemove (1 - 3): \n".to_string(),
            actual: "Computer removes 2.\nRemove (1-3):\tgarbage\n".to_string(),
            inputs_before: 2,
            relaxation: Some("ignoring case".to_string()),
            student_line: None,
        });
        let failed = CaseResult {
            name: "rejects_zero".to_string(),
            description: "\"You must remove between 1 and 3 coins.\"".to_string(),
            visibility: Visibility::Visible,
            score: 2.5,
            max_score: 5.0,
            status: CaseStatus::Failed,
            checks: vec![
                transcript,
                check("result", "lines", 2.5, 2.5, "2 of 2 lines match"),
            ],
            run: run(Ended::Exit, Some(0), 52),
            input: vec!["3".to_string(), "0".to_string(), "1".to_string()],
            notes: vec!["prompts were not flushed before reading input".to_string()],
            stderr: "warning: unused variable\n".to_string(),
            first_difference: None,
        };

        let mut hidden_check = check(
            "output",
            "contains",
            0.0,
            5.0,
            &format!("missing {SECRET_EXPECTED}"),
        );
        hidden_check.difference = Some(Difference {
            location: "line 9".to_string(),
            expected: format!("{SECRET_EXPECTED}\n"),
            actual: "something else\n".to_string(),
            inputs_before: 1,
            relaxation: None,
            student_line: None,
        });
        let hidden = CaseResult {
            name: "hidden_endgame".to_string(),
            description: "\"The game ends when no coins are left.\"".to_string(),
            visibility: Visibility::Hidden,
            score: 0.0,
            max_score: 5.0,
            status: CaseStatus::Failed,
            checks: vec![hidden_check],
            run: run(Ended::Exit, Some(1), 33),
            input: vec![SECRET_INPUT.to_string()],
            notes: vec![SECRET_NOTE.to_string()],
            stderr: format!("{SECRET_STDERR}\n"),
            first_difference: None,
        };

        let mut timeout_run = run(Ended::Timeout, None, 2000);
        timeout_run.unread_inputs = 1;
        let timeout = CaseResult {
            name: "replay".to_string(),
            description: "\"Play again (Y/N)?\"".to_string(),
            visibility: Visibility::Visible,
            score: 0.0,
            max_score: 2.5,
            status: CaseStatus::Failed,
            checks: vec![check("exit", "exit", 0.0, 2.5, "did not exit (timed out)")],
            run: timeout_run,
            input: vec!["1".to_string(), "N".to_string()],
            notes: vec![],
            stderr: String::new(),
            first_difference: None,
        };

        GradeResult {
            assignment: "nim".to_string(),
            submission: "./student_bin".to_string(),
            score: 7.5,
            max_score: 17.5,
            cases: vec![passed, failed, hidden, timeout],
            build_failure: None,
            notes: Vec::new(),
            wall_ms: 2345,
            sandbox: Vec::new(),
            requirements: Vec::new(),
            warnings: String::new(),
            rubric: Vec::new(),
            variant: None,
        }
    }

    /// The same cases after a build failure: nothing ran, everything scores 0.
    /// A failed `sanitizer` check of weight 0 (full marks, undefined behaviour found).
    pub(crate) fn sanitizer_finding(detail: &str) -> CheckResult {
        CheckResult {
            rule: None,
            name: "sanitizer".into(),
            kind: "sanitizer".into(),
            passed: false,
            score: 0.0,
            max_score: 0.0,
            detail: detail.into(),
            difference: None,
        }
    }

    pub(crate) fn build_failure() -> GradeResult {
        let mut result = sample();
        result.score = 0.0;
        result.wall_ms = 480;
        result.build_failure = Some(BuildFailure {
            command: "g++ -O2 -o nim nim.cpp".to_string(),
            messages: "nim.cpp:12:5: error: 'cout' was not declared in this scope".to_string(),
        });
        for case in &mut result.cases {
            case.score = 0.0;
            case.status = CaseStatus::Error;
            case.run = run(Ended::BuildFailed, None, 0);
            case.notes.clear();
            case.stderr.clear();
            for check in &mut case.checks {
                check.score = 0.0;
                check.passed = false;
                check.detail = "not run: the submission did not build".to_string();
                check.difference = None;
            }
        }
        result
    }

    /// Asserts that none of the hidden case's secrets appear in `report`.
    pub(crate) fn assert_no_secrets(report: &str) {
        for secret in [SECRET_INPUT, SECRET_EXPECTED, SECRET_STDERR, SECRET_NOTE] {
            assert!(!report.contains(secret), "report leaks {secret}:\n{report}");
        }
    }

    /// The sample with code requirements (one passed, one failed with findings, one not
    /// applicable), compiler warnings and a rubric.
    pub(crate) fn with_requirements() -> GradeResult {
        use crate::results::{Finding, RequirementResult, RequirementStatus, RubricPart};
        let mut result = sample();
        let requirement =
            |name: &str, status, score, max, findings: Vec<Finding>| RequirementResult {
                name: name.to_string(),
                quote: format!("quote of {name}"),
                status,
                score,
                max_score: max,
                detail: format!("detail of {name}"),
                findings,
            };
        result.requirements = vec![
            requirement(
                "for-loop-matches",
                RequirementStatus::Passed,
                3.0,
                3.0,
                vec![],
            ),
            requirement(
                "do-while-input",
                RequirementStatus::Failed,
                0.0,
                3.0,
                vec![Finding {
                    file: "nim.cpp".into(),
                    line: Some(12),
                    message: "`cin >> n` is read in a while loop\x1b[2J".into(),
                }],
            ),
            requirement(
                "not-here",
                RequirementStatus::NotApplicable,
                0.0,
                0.0,
                vec![],
            ),
        ];
        result.warnings = "nim.cpp:3:5: warning: unused variable 'x' [-Wunused-variable]".into();
        result.total(&[
            ("Submitted".into(), RubricPart::Submitted, 1.0),
            ("Output".into(), RubricPart::Cases, 90.0),
            ("Code".into(), RubricPart::Requirements, 9.0),
        ]);
        result
    }

    #[test]
    fn every_format_has_the_requirements_section() {
        let result = with_requirements();
        // 1 + 90 × 7.5/17.5 + 9 × 3/6 = 1 + 38.571 + 4.5
        assert_eq!(result.score, 44.071);
        assert_eq!(result.max_score, 100.0);
        for format in [
            Format::Text,
            Format::Json,
            Format::Junit,
            Format::Gradescope,
            Format::Html,
        ] {
            let bytes = exporter(format, RenderOptions::default())
                .export(&result)
                .expect("renders");
            let text = String::from_utf8(bytes).expect("utf-8");
            let place = if format == Format::Json {
                "\"line\": 12"
            } else {
                "nim.cpp:12"
            };
            for expected in [
                "do-while-input",
                "quote of do-while-input",
                place,
                "unused variable",
                "for-loop-matches",
            ] {
                assert!(
                    text.contains(expected),
                    "{format:?} lacks {expected}:\n{text}"
                );
            }
            assert!(!text.contains('\x1b'), "{format:?} lets an escape through");
            assert_no_secrets(&text);
        }
    }

    #[test]
    fn points_drop_needless_decimals() {
        assert_eq!(points(5.0), "5");
        assert_eq!(points(2.5), "2.5");
        assert_eq!(points(1.0 / 3.0), "0.33");
        assert_eq!(points(0.1 + 0.2), "0.3");
        assert_eq!(points(-0.0001), "0");
        assert_eq!(points(87.5), "87.5");
        assert_eq!(points(100.0), "100");
        assert_eq!(points_of(3.5, 5.0), "3.5/5");
    }

    /// A hidden case whose run signals through every figure: exit status 173, 0.77 s of CPU,
    /// 77 MiB, a timeout's ending, its output cut, its inputs unread.
    fn signalling() -> GradeResult {
        let mut result = sample();
        let hidden = &mut result.cases[2];
        hidden.run = RunSummary {
            ended: Ended::Timeout,
            exit_code: Some(173),
            signal: Some(31),
            wall_ms: 1773,
            slept_ms: 1731,
            cpu_ms: 773,
            peak_memory_kib: Some(77 * 1024 + 173),
            peak_memory_note: Some("note 173".into()),
            unread_inputs: 17,
            prompts_late: true,
            output_truncated: true,
            detection: "seccomp".into(),
            withheld: false,
        };
        hidden.status = CaseStatus::Error;
        result.wall_ms = 9173;
        result
    }

    #[test]
    fn a_hidden_cases_run_reaches_no_format_and_the_instructors_keeps_it() {
        let result = signalling();
        let visible_ms: u64 = [0, 1, 3].iter().map(|&i| result.cases[i].run.wall_ms).sum();
        let shown = for_students(&result);
        let hidden = &shown.cases[2];
        assert_eq!(hidden.run, RunSummary::withheld(false));
        assert_eq!(
            hidden.status,
            CaseStatus::Failed,
            "an error's kind is a channel"
        );
        assert_eq!(shown.wall_ms, visible_ms, "the visible cases' time alone");
        assert_eq!(
            for_students(&shown),
            shown,
            "redacting twice changes nothing"
        );
        for format in Format::ALL {
            let render = |r: &GradeResult| {
                let bytes = exporter(format, RenderOptions::default())
                    .export(r)
                    .expect("renders");
                String::from_utf8(bytes).expect("utf-8")
            };
            let student = render(&result);
            for figure in ["173", "1.77", "0.77", "77.2 MiB", "78997", "9173", "9.17"] {
                assert!(
                    !student.contains(figure),
                    "{format:?} shows {figure}:\n{student}"
                );
            }
            if format == Format::Classroom50 {
                continue; // points and pass/fail only, for anyone
            }
            let instructor = render(&audience::instructor_view(&result));
            assert!(
                instructor.contains("1773") || instructor.contains("1.77"),
                "{format:?}:\n{instructor}"
            );
        }
        // The class's gradebook row says nothing of it either.
        let json = serde_json::to_value(&shown).expect("json");
        assert_eq!(json["cases"][2].get("run"), None);
        let back: GradeResult = serde_json::from_value(json).expect("reads back");
        assert_eq!(for_students(&back).cases[2], shown.cases[2]);
    }

    #[test]
    fn for_students_strips_hidden_cases_only() {
        let raw = sample();
        let shown = for_students(&raw);
        let hidden = &shown.cases[2];
        assert!(hidden.input.is_empty() && hidden.stderr.is_empty() && hidden.notes.is_empty());
        assert!(hidden.checks.iter().all(|c| c.difference.is_none()));
        assert!(hidden.checks.iter().all(|c| c.detail == HIDDEN_DETAIL));
        assert_eq!(hidden.score, raw.cases[2].score);
        assert_eq!(hidden.first_difference, None);
        // A visible case is kept as it is, naming the check that differs first.
        let mut visible = raw.cases[1].clone();
        visible.first_difference = Some("output".into());
        assert_eq!(shown.cases[1], visible);
        assert_eq!(
            shown.cases[0].first_difference, None,
            "full marks: no difference"
        );
    }

    /// The names serde gives a struct's fields (every field it reads and writes), as the
    /// struct's derived `Deserialize` hands them to a deserializer: a field added to the
    /// struct is listed here without anyone writing it down.
    fn field_names<T: serde::de::DeserializeOwned>() -> &'static [&'static str] {
        use serde::de::{Error as _, Visitor};
        struct Probe<'a>(&'a mut &'static [&'static str]);
        impl<'de> serde::Deserializer<'de> for Probe<'_> {
            type Error = serde::de::value::Error;
            fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
                Err(Self::Error::custom("not a struct"))
            }
            fn deserialize_struct<V: Visitor<'de>>(
                self,
                _: &'static str,
                fields: &'static [&'static str],
                _: V,
            ) -> Result<V::Value, Self::Error> {
                *self.0 = fields;
                Err(Self::Error::custom("only its fields were wanted"))
            }
            serde::forward_to_deserialize_any! {
                bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
                byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map enum
                identifier ignored_any
            }
        }
        let mut fields: &'static [&'static str] = &[];
        let _ = T::deserialize(Probe(&mut fields));
        assert!(!fields.is_empty(), "{}", std::any::type_name::<T>());
        fields
    }

    /// Gives every field of the object at `at` in `json` (a result's JSON) that `shown` does
    /// not name a value no other field holds (numbered from `next`), the first of a string, a
    /// list of one string, a number, `true` or an ending that the result still reads back
    /// with; a field holding a struct of `nested` is filled field by field. Returns each
    /// filled field's place and value, and the fields no such value fits.
    fn fill(
        json: &mut serde_json::Value,
        at: &str,
        fields: &[&str],
        shown: &[&str],
        nested: &[(&str, &'static [&'static str])],
        next: &mut usize,
    ) -> (Vec<(String, serde_json::Value)>, Vec<String>) {
        let (mut canaries, mut unfilled) = (Vec::new(), Vec::new());
        for field in fields.iter().filter(|f| !shown.contains(f)) {
            let place = format!("{at}/{field}");
            if let Some((_, inner)) = nested.iter().find(|(name, _)| name == field) {
                let (more, missing) = fill(json, &place, inner, &[], nested, next);
                canaries.extend(more);
                unfilled.extend(missing);
                continue;
            }
            *next += 1;
            let n = 7_731_000 + *next;
            let candidates = [
                serde_json::json!(format!("CANARY{n}")),
                serde_json::json!([format!("CANARY{n}")]),
                serde_json::json!(n),
                serde_json::json!(true),
                serde_json::json!("timeout"),
            ];
            let object = json.pointer_mut(at).and_then(|o| o.as_object_mut());
            let was = object.and_then(|o| o.get(*field).cloned());
            let fits = candidates.into_iter().find(|candidate| {
                json.pointer_mut(at).expect("object")[*field] = candidate.clone();
                serde_json::from_value::<GradeResult>(json.clone())
                    .ok()
                    .and_then(|back| serde_json::to_value(back).ok())
                    .is_some_and(|back| back.pointer(&place) == Some(candidate))
            });
            match fits {
                Some(canary) => canaries.push((place, canary)),
                None => {
                    let object = json.pointer_mut(at).and_then(|o| o.as_object_mut());
                    match (object, was) {
                        (Some(o), Some(was)) => o.insert((*field).to_string(), was),
                        (Some(o), None) => o.remove(*field),
                        (None, _) => None,
                    };
                    unfilled.push(place);
                }
            }
        }
        (canaries, unfilled)
    }

    /// Issue 33: a field added to a result does not reach students. Every field of a hidden
    /// case and of its checks (listed by serde, so a field added later is among them) that
    /// [`HIDDEN_CASE_SHOWS`] and [`HIDDEN_CHECK_SHOWS`] do not name is given a value of its
    /// own; none of them is left by [`for_students`], none is in any format's report or on
    /// the class page, and the instructor's report shows them all (they do reach a report
    /// when not redacted).
    #[test]
    fn a_hidden_cases_fields_not_named_as_shown_reach_no_format_nor_the_class_page() {
        let mut json = serde_json::to_value(sample()).expect("json");
        assert_eq!(json["cases"][2]["visibility"], "hidden");
        let nested = [
            ("run", field_names::<RunSummary>()),
            ("difference", field_names::<crate::results::Difference>()),
        ];
        let mut next = 0;
        let (mut canaries, mut unfilled) = fill(
            &mut json,
            "/cases/2",
            field_names::<CaseResult>(),
            &HIDDEN_CASE_SHOWS,
            &nested,
            &mut next,
        );
        assert!(HIDDEN_CASE_SHOWS.contains(&"checks"));
        let checks = json["cases"][2]["checks"].as_array().map_or(0, Vec::len);
        assert!(checks > 0);
        for index in 0..checks {
            let (more, missing) = fill(
                &mut json,
                &format!("/cases/2/checks/{index}"),
                field_names::<CheckResult>(),
                &HIDDEN_CHECK_SHOWS,
                &nested,
                &mut next,
            );
            canaries.extend(more);
            unfilled.extend(missing);
        }
        assert_eq!(
            unfilled,
            Vec::<String>::new(),
            "give these a value of their own"
        );
        // The input, the expected output, the stderr, the run's figures, the rule, …
        assert!(canaries.len() >= 24, "{canaries:?}");
        let result: GradeResult = serde_json::from_value(json).expect("reads back");
        // The text ones, by place (a string, or a list's one string).
        let texts: Vec<(&str, &str)> = canaries
            .iter()
            .filter_map(|(place, v)| Some((place.as_str(), v.as_str().or(v[0].as_str())?)))
            .filter(|(_, text)| text.starts_with("CANARY"))
            .collect();
        let secrets: Vec<&str> = texts.iter().map(|(_, text)| *text).collect();
        assert!(secrets.len() >= 10, "{texts:?}");

        // The one redaction leaves none of them.
        let shown = serde_json::to_value(for_students(&result)).expect("json");
        for (place, canary) in &canaries {
            assert_ne!(
                shown.pointer(place),
                Some(canary),
                "{place} reaches students"
            );
        }
        // No format shows one; the instructor's JSON report shows every one.
        for format in Format::ALL {
            let bytes = exporter(format, RenderOptions::default())
                .export(&result)
                .expect("renders");
            let report = String::from_utf8(bytes).expect("utf-8");
            for secret in &secrets {
                assert!(
                    !report.contains(secret),
                    "{format:?} shows {secret}:\n{report}"
                );
            }
        }
        let instructor = exporter(Format::Json, RenderOptions::default())
            .export(&audience::instructor_view(&result))
            .expect("renders");
        let instructor = String::from_utf8(instructor).expect("utf-8");
        for (place, secret) in &texts {
            // Every report works a case's first difference out afresh from its checks.
            if !place.ends_with("/first_difference") {
                assert!(instructor.contains(secret), "{place}:\n{instructor}");
            }
        }
        // Nor does the class page, given the result as it is.
        let page = html::class_page(
            "nim",
            &[html::StudentSummary {
                student: "ana".into(),
                result: Some(result),
                ..Default::default()
            }],
        );
        for secret in &secrets {
            assert!(!page.contains(secret), "the class page shows {secret}");
        }
    }
}
