//! GitHub Actions: what `grade` adds under a workflow (`GITHUB_ACTIONS=true`), and what it does
//! so that nothing a student wrote is read by the runner as a workflow command.
//!
//! * Annotations: one `::error` per check that lost points, the most points lost first, at most
//!   the ten GitHub shows per step (a notice counts the rest).
//! * The job summary (`$GITHUB_STEP_SUMMARY`): the score, the cases, the code requirements and
//!   the rubric.
//! * GitHub Classroom: the step output `result` (`$GITHUB_OUTPUT`), base64 JSON in the format
//!   of Classroom's own `autograding-command-grader`, which its `autograding-grading-reporter`
//!   sends to the Classroom dashboard.
//! * Containment: the runner reads `::command::` at the start of any line of a step's output
//!   (after leading spaces) and the legacy `##[command]` anywhere in a line. Text reports and
//!   messages that quote a student are fenced with `::stop-commands::TOKEN` … `::TOKEN::`
//!   (GitHub's documented mechanism, a fresh random token each time) and `##[` is shown as
//!   `#\#[`; the machine-readable formats, which a fence would break, get the same guarantee
//!   from escapes that change no value (`\u0023` in JSON, `&#35;` and `&#58;` in XML/HTML).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;

use super::{for_students, points, points_of, Format};
use crate::escape::field;
use crate::results::{GradeResult, PartKind, RequirementStatus, Visibility};

/// Error annotations GitHub shows per step; more are dropped by the runner.
pub const MAX_ANNOTATIONS: usize = 10;

/// Whether `grade` runs under GitHub Actions (the runner sets `GITHUB_ACTIONS=true`).
pub fn active() -> bool {
    std::env::var("GITHUB_ACTIONS").as_deref() == Ok("true")
}

/// `text` with every legacy `##[` command opener broken (`#\#[`), anywhere in a line.
pub fn neutralise(text: &str) -> String {
    text.replace("##[", "#\\#[")
}

/// A token no student can guess: 128 random bits in hex (where the kernel gives none, the
/// clock's nanoseconds and the process id, hashed: still unknown to a program that has ended).
fn random_token() -> String {
    let bytes = crate::keys::random_bytes::<16>().unwrap_or_else(|_| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let seed = format!("{now} {}", std::process::id());
        let hash = crate::keys::stable_hash(seed.as_bytes(), 0);
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&hash.to_le_bytes());
        let second = crate::keys::stable_hash(&hash.to_le_bytes(), hash ^ u64::from(now as u32));
        bytes[8..].copy_from_slice(&second.to_le_bytes());
        bytes
    });
    bytes.iter().fold(String::with_capacity(32), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// `text` between `::stop-commands::TOKEN` and `::TOKEN::`, `##[` broken: the runner reads no
/// command inside, whatever it says.
pub fn fenced_with(text: &str, token: &str) -> String {
    let body = neutralise(text);
    let newline = if body.ends_with('\n') { "" } else { "\n" };
    format!("::stop-commands::{token}\n{body}{newline}::{token}::\n")
}

/// Text bound for standard output or standard error, made safe for the runner's log: fenced
/// under GitHub Actions (a fresh token each time), as it is elsewhere.
pub fn fence(text: &str) -> String {
    if !active() || text.is_empty() {
        return text.to_string();
    }
    fenced_with(text, &random_token())
}

/// A report in a machine-readable format with every possible command broken by an escape the
/// format itself undoes (JSON `\u0023`, XML/HTML character references): a parser reads the
/// same values, the runner no command.
pub fn structured(bytes: Vec<u8>, format: Format) -> Vec<u8> {
    let Ok(text) = String::from_utf8(bytes) else {
        return Vec::new();
    };
    let safe = match format {
        Format::Text => neutralise(&text),
        // A JSON line starts with a brace, a bracket, a quote or a number (strings hold no
        // newline), so only the legacy form can appear.
        Format::Json | Format::Gradescope | Format::Classroom50 => text.replace("##[", "\\u0023#["),
        Format::Junit | Format::Html => {
            let mut out = String::with_capacity(text.len());
            for line in text.replace("##[", "&#35;#[").split_inclusive('\n') {
                let body = line.trim_start();
                let indent = &line[..line.len() - body.len()];
                match body.strip_prefix(':') {
                    Some(rest) => {
                        out.push_str(indent);
                        out.push_str("&#58;");
                        out.push_str(rest);
                    }
                    None => out.push_str(line),
                }
            }
            out
        }
    };
    safe.into_bytes()
}

/// A workflow command's message with the characters GitHub reserves escaped.
fn command_text(text: &str) -> String {
    neutralise(
        &text
            .replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A"),
    )
}

/// A workflow command's property value (title) escaped.
fn property(text: &str) -> String {
    command_text(text).replace(':', "%3A").replace(',', "%2C")
}

/// The annotations: one `::error` line per check or requirement that lost points, the most
/// points lost first (hidden cases without their details), at most [`MAX_ANNOTATIONS`]; when
/// there are more, the last place goes to a notice counting the rest.
pub fn annotations(result: &GradeResult) -> String {
    let result = for_students(result);
    let mut lost: Vec<(f64, String, String)> = Vec::new();
    for case in &result.cases {
        for check in case
            .checks
            .iter()
            .filter(|c| !c.passed && c.max_score > 0.0)
        {
            lost.push((
                check.max_score - check.score,
                format!("{} · {}", case.name, check.name),
                check.detail.clone(),
            ));
        }
    }
    for requirement in result
        .requirements
        .iter()
        .filter(|r| r.status == RequirementStatus::Failed)
    {
        let mut message = requirement.detail.clone();
        for finding in &requirement.findings {
            message.push('\n');
            message.push_str(&finding.describe());
        }
        lost.push((
            requirement.max_score - requirement.score,
            format!("requirement · {}", requirement.name),
            message,
        ));
    }
    // Most points lost first; equal losses keep the report's order.
    lost.sort_by(|a, b| b.0.total_cmp(&a.0));
    let shown = if lost.len() > MAX_ANNOTATIONS {
        MAX_ANNOTATIONS - 1
    } else {
        lost.len()
    };
    let mut out = String::new();
    for (points_lost, title, detail) in &lost[..shown] {
        let _ = writeln!(
            out,
            "::error title={}::{}",
            property(&format!("{title} (−{})", points(*points_lost))),
            command_text(&field(detail))
        );
    }
    if lost.len() > shown {
        let _ = writeln!(
            out,
            "::notice title=more lost points::{} more checks lost points; the report lists them all, the job summary every case's points",
            lost.len() - shown
        );
    }
    out
}

/// The job summary: the score, a table of cases, the code requirements and the rubric.
pub fn step_summary(result: &GradeResult) -> String {
    let result = for_students(result);
    let cell = |t: &str| {
        neutralise(&field(t))
            .replace('|', "\\|")
            .replace('<', "&lt;")
            .replace('\n', " ")
    };
    let mut out = format!(
        "### {}: {}\n\n",
        cell(&result.assignment),
        points_of(result.score, result.max_score)
    );
    let (whole, whole_max) = super::classroom50::whole_total(&result);
    if points_of(whole as f64, whole_max as f64) != points_of(result.score, result.max_score) {
        // Classroom counts whole points: say so, so the two totals a student sees agree.
        let _ = writeln!(
            out,
            "GitHub Classroom and Classroom 50 count whole points: {whole}/{whole_max} \
             (each part rounded so that they add up to the total rounded).\n"
        );
    }
    out.push_str("| case | points | |\n|---|---|---|\n");
    for case in &result.cases {
        let mark = if case.score + 1e-9 >= case.max_score {
            "✓"
        } else {
            "✗"
        };
        let _ = writeln!(
            out,
            "| {} | {} | {mark} |",
            cell(&case.name),
            points_of(case.score, case.max_score)
        );
    }
    if !result.requirements.is_empty() {
        out.push_str(
            "\n#### Code requirements\n\n| requirement | points | | found |\n|---|---|---|---|\n",
        );
        for requirement in &result.requirements {
            let mark = match requirement.status {
                RequirementStatus::Passed => "✓",
                RequirementStatus::Failed => "✗",
                RequirementStatus::NotApplicable => "–",
            };
            let mut found = requirement.detail.clone();
            if requirement.status == RequirementStatus::Failed {
                for finding in &requirement.findings {
                    found.push_str("; ");
                    found.push_str(&finding.describe());
                }
            }
            let _ = writeln!(
                out,
                "| {} | {} | {mark} | {} |",
                cell(&requirement.name),
                super::requirements::requirement_points(requirement),
                cell(&found)
            );
        }
    }
    if !result.rubric.is_empty() {
        out.push_str("\n#### Rubric\n\n| part | points |\n|---|---|\n");
        for line in &result.rubric {
            let _ = writeln!(
                out,
                "| {} | {} |",
                cell(&line.name),
                points_of(line.score, line.max_score)
            );
        }
    }
    out
}

/// The result as GitHub Classroom's `autograding-command-grader` reports it (version 1: a
/// status, the maximum and one test per part of the total, as Gradescope's tests and
/// Classroom 50's), in whole points ([`super::whole_points`]): the reporter adds the tests'
/// scores up and posts `Points SUM/MAX`, so they are integers that add up to the total
/// rounded half up — what Classroom 50 counts too ([`super::classroom50::whole_total`]).
pub fn classroom(result: &GradeResult) -> serde_json::Value {
    let result = for_students(result);
    let parts = result.parts();
    let whole = super::whole_points(
        &parts
            .iter()
            .map(|p| (p.score, p.max_score))
            .collect::<Vec<_>>(),
    );
    let status = |score: u64, max: u64| if score >= max { "pass" } else { "fail" };
    let mut tests = Vec::new();
    for (part, (score, max)) in parts.iter().zip(&whole) {
        let (message, duration) = match part.kind {
            PartKind::Case => match result.cases.iter().find(|c| c.name == part.name) {
                Some(case) if case.visibility == Visibility::Hidden => {
                    (super::HIDDEN_DETAIL.to_string(), 0)
                }
                Some(case) => (
                    case.checks
                        .iter()
                        .find(|c| !c.passed && c.max_score > 0.0)
                        .map_or(String::new(), |c| format!("{}: {}", c.name, c.detail)),
                    case.run.wall_ms,
                ),
                None => (String::new(), 0),
            },
            PartKind::Requirement => (
                result
                    .requirements
                    .iter()
                    .find(|r| r.name == part.name)
                    .map_or(String::new(), |r| r.detail.clone()),
                0,
            ),
            PartKind::Rubric => (String::new(), 0),
        };
        tests.push(serde_json::json!({
            "name": part.column(),
            "status": status(*score, *max),
            "score": score,
            "message": message,
            "test_code": "",
            "filename": "",
            "line_no": 0,
            "duration": duration,
        }));
    }
    let max_score: u64 = whole.iter().map(|w| w.1).sum();
    let score: u64 = whole.iter().map(|w| w.0).sum();
    let overall = if result.build_failure.is_some() {
        "error"
    } else {
        status(score, max_score)
    };
    serde_json::json!({
        "version": 1,
        "status": overall,
        "max_score": max_score,
        "tests": tests,
    })
}

/// Standard base64 (RFC 4648, padded): what the Classroom reporter decodes.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Appends `text` to the file a GitHub variable names, when it is set.
fn append_to(variable: &str, text: &str) -> anyhow::Result<()> {
    if let Some(path) = std::env::var_os(variable).filter(|p| !p.is_empty()) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot write {}", Path::new(&path).display()))?;
        file.write_all(text.as_bytes())
            .with_context(|| format!("cannot write {}", Path::new(&path).display()))?;
    }
    Ok(())
}

/// Whom a published result is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// One student's repository (GitHub Classroom): everything, the Classroom result too.
    Student,
    /// One of a class graded in one job: annotations and summary only (one step has one
    /// `result`, and a class's would outgrow GitHub's limit on outputs).
    Class,
}

/// Under GitHub Actions: the annotations, the job summary appended to `$GITHUB_STEP_SUMMARY`
/// and, for a student's own repository, the Classroom result as the step output `result` in
/// `$GITHUB_OUTPUT`.
///
/// The annotations go to stderr, so a report on stdout stays intact — except after a text
/// report on stdout (`report_on_stdout`), where they follow it on stdout: the runner reads the
/// two streams separately, and an annotation read on stderr before the report's fence closed
/// on stdout would be dropped.
#[allow(
    clippy::print_stderr,
    reason = "GitHub reads its workflow commands from the process's own streams"
)]
pub fn publish(
    result: &GradeResult,
    audience: Audience,
    report_on_stdout: bool,
) -> anyhow::Result<()> {
    if !active() {
        return Ok(());
    }
    if report_on_stdout {
        let mut stdout = std::io::stdout().lock();
        let _ = stdout
            .write_all(annotations(result).as_bytes())
            .and_then(|()| stdout.flush());
    } else {
        eprint!("{}", annotations(result));
    }
    append_to("GITHUB_STEP_SUMMARY", &step_summary(result))?;
    if audience == Audience::Student {
        let json = serde_json::to_vec(&classroom(result))?;
        append_to("GITHUB_OUTPUT", &format!("result={}\n", base64(&json)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{sample, with_requirements};

    #[test]
    fn annotations_name_case_and_check_and_escape_newlines() {
        let text = annotations(&sample());
        let lines: Vec<&str> = text.lines().collect();
        assert!(!lines.is_empty());
        assert!(
            lines.iter().all(|l| l.starts_with("::error title=")),
            "{text}"
        );
        assert_eq!(command_text("50%\nnext"), "50%25%0Anext");
        assert_eq!(property("a: b, c"), "a%3A b%2C c");
        let summary = step_summary(&sample());
        assert!(summary.starts_with("### nim: 7.5/17.5"), "{summary}");
        // What Classroom posts, said where the student reads the points.
        assert!(summary.contains("count whole points: 8/18"), "{summary}");
        assert!(
            summary.contains("| ✗ |") && summary.contains("| ✓ |"),
            "{summary}"
        );
    }

    #[test]
    fn annotations_put_the_largest_loss_first_and_stop_at_ten() {
        // The sample loses 2.5 (rejects_zero output), 5 (hidden_endgame) and 2.5 (replay).
        let text = annotations(&sample());
        let first = text.lines().next().unwrap_or_default();
        assert!(first.contains("hidden_endgame"), "{text}");
        let mut many = sample();
        let case = many.cases[1].clone();
        many.cases = (0..15)
            .map(|i| {
                let mut c = case.clone();
                c.name = format!("case{i}");
                c.checks[0].max_score = f64::from(i) + 1.0;
                c
            })
            .collect();
        let text = annotations(&many);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), MAX_ANNOTATIONS, "{text}");
        assert!(lines[0].contains("case14"), "{text}");
        assert!(lines[8].contains("case6"), "{text}");
        assert!(
            lines[9].starts_with("::notice") && lines[9].contains("6 more"),
            "{text}"
        );
    }

    #[test]
    fn the_summary_has_requirement_points() {
        let summary = step_summary(&with_requirements());
        assert!(summary.contains("#### Code requirements"), "{summary}");
        assert!(
            summary.contains("| do-while-input | 0/3 | ✗ |"),
            "{summary}"
        );
        assert!(summary.contains("nim.cpp:12"), "{summary}");
        assert!(summary.contains("| Output |"), "{summary}");
    }

    #[test]
    fn the_classroom_result_adds_up_to_the_score_in_whole_points() {
        // The sample: 7.5 of 17.5 → 8 of 18; with requirements and a rubric: 44.071 of 100
        // → 44 of 100 (worked in report::classroom50's tests).
        for (result, score, max) in [(sample(), 8, 18), (with_requirements(), 44, 100)] {
            let json = classroom(&result);
            assert_eq!(json["version"], 1);
            assert_eq!(json["max_score"], max);
            let sum: u64 = json["tests"]
                .as_array()
                .expect("tests")
                .iter()
                .map(|t| t["score"].as_u64().expect("whole points"))
                .sum();
            assert_eq!(sum, score, "{json}");
            assert_eq!(json["status"], "fail");
        }
        let text = serde_json::to_string(&classroom(&sample())).expect("json");
        crate::report::tests::assert_no_secrets(&text);
    }

    #[test]
    fn base64_is_rfc_4648() {
        // RFC 4648, section 10.
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
        }
    }

    #[test]
    fn fences_and_escapes_break_every_command() {
        let fenced = fenced_with("  ::error::x\nsee ##[warning]y", "t0k");
        assert_eq!(
            fenced,
            "::stop-commands::t0k\n  ::error::x\nsee #\\#[warning]y\n::t0k::\n"
        );
        let json = structured(b"{\"a\": \"##[warning]x\"}".to_vec(), Format::Json);
        let value: serde_json::Value = serde_json::from_slice(&json).expect("still JSON");
        assert_eq!(value["a"], "##[warning]x");
        assert!(!String::from_utf8_lossy(&json).contains("##["));
        let xml = structured(b"<a>\n  ::error::x ##[y]\n</a>".to_vec(), Format::Junit);
        assert_eq!(
            String::from_utf8_lossy(&xml),
            "<a>\n  &#58;:error::x &#35;#[y]\n</a>"
        );
    }
}
