//! GitHub Actions: an `::error` annotation per check that lost points, and a job summary in
//! Markdown (written to `$GITHUB_STEP_SUMMARY`), so a student sees what failed on the run page.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use anyhow::Context as _;

use super::escape::field;
use super::{for_students, points_of};
use crate::results::GradeResult;

/// A workflow command's message with the characters GitHub reserves escaped.
fn command_text(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value (title) escaped.
fn property(text: &str) -> String {
    command_text(text).replace(':', "%3A").replace(',', "%2C")
}

/// One `::error` line per check that lost points (hidden cases without their details).
pub fn annotations(result: &GradeResult) -> String {
    let result = for_students(result);
    let mut out = String::new();
    for case in &result.cases {
        for check in case
            .checks
            .iter()
            .filter(|c| !c.passed && c.max_score > 0.0)
        {
            let _ = writeln!(
                out,
                "::error title={}::{}",
                property(&format!("{} · {}", case.name, check.name)),
                command_text(&field(&check.detail))
            );
        }
    }
    out
}

/// The job summary: the score, then a table of cases.
pub fn step_summary(result: &GradeResult) -> String {
    let result = for_students(result);
    let cell = |t: &str| field(t).replace('|', "\\|").replace('\n', " ");
    let mut out = format!(
        "### {}: {}\n\n| case | points | |\n|---|---|---|\n",
        cell(&result.assignment),
        points_of(result.score, result.max_score)
    );
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
    out
}

/// Under GitHub Actions: an annotation per lost check (on stderr, so a report on stdout stays
/// intact) and the job summary appended to `$GITHUB_STEP_SUMMARY`.
pub fn publish(result: &GradeResult) -> anyhow::Result<()> {
    if std::env::var("GITHUB_ACTIONS").as_deref() != Ok("true") {
        return Ok(());
    }
    eprint!("{}", annotations(result));
    if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|p| !p.is_empty()) {
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot write {}", Path::new(&path).display()))?;
        file.write_all(step_summary(result).as_bytes())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::sample;

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
        assert!(
            summary.contains("| ✗ |") && summary.contains("| ✓ |"),
            "{summary}"
        );
    }
}
