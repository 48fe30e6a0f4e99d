//! The code requirements, compiler warnings and rubric as plain text: the text report's
//! section, and what the Gradescope and JUnit formats show of them.

use std::fmt::Write as _;

use super::points_of;
use super::style::Style;
use crate::results::{GradeResult, RequirementResult, RequirementStatus};

/// Findings listed per failed requirement in text (the JSON report has them all).
const MAX_LISTED: usize = 10;

/// The heading of the requirements section.
pub const HEADING: &str = "Code requirements (from the handout; checked on the source code)";

/// One requirement's feedback: its quote, what was found, and where.
pub(crate) fn requirement_feedback(requirement: &RequirementResult) -> String {
    let mut out = format!(
        "Handout: \"{}\"\n{}\n",
        requirement.quote, requirement.detail
    );
    if requirement.status == RequirementStatus::Failed {
        for finding in requirement.findings.iter().take(MAX_LISTED) {
            let _ = writeln!(out, "  {}", finding.describe());
        }
        if requirement.findings.len() > MAX_LISTED {
            let _ = writeln!(out, "  … {} more", requirement.findings.len() - MAX_LISTED);
        }
    }
    out
}

/// The mark of a requirement: ✓ passed, ✗ failed, – not applicable.
pub(crate) fn mark(requirement: &RequirementResult, style: Style) -> String {
    match requirement.status {
        RequirementStatus::Passed => style.green("✓"),
        RequirementStatus::Failed => style.red("✗"),
        RequirementStatus::NotApplicable => style.dim("–"),
    }
}

/// The points of a requirement as listed ("2/2", or "2.7/3 (n/a)": the cases' share, not
/// checked).
pub(crate) fn requirement_points(requirement: &RequirementResult) -> String {
    let points = points_of(requirement.score, requirement.max_score);
    match requirement.status {
        RequirementStatus::NotApplicable => format!("{points} (n/a)"),
        _ => points,
    }
}

/// The section for the text report: requirements, compiler warnings and the rubric; empty
/// when the result has none of them.
pub(crate) fn section(result: &GradeResult, style: Style) -> String {
    let mut out = String::new();
    if !result.requirements.is_empty() {
        let _ = writeln!(out, "{}", style.bold(&format!("{HEADING}:")));
        let width = result
            .requirements
            .iter()
            .map(|r| r.name.chars().count())
            .max()
            .unwrap_or(0);
        for requirement in &result.requirements {
            let _ = writeln!(
                out,
                "{} {:width$}  {}",
                mark(requirement, style),
                requirement.name,
                requirement_points(requirement)
            );
            for line in requirement_feedback(requirement).lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        out.push('\n');
    }
    if !result.warnings.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            style.bold("Compiler warnings (the build succeeded; warnings never fail it):")
        );
        for line in result.warnings.lines() {
            let _ = writeln!(out, "    {line}");
        }
        out.push('\n');
    }
    out.push_str(&rubric(result));
    out
}

/// The rubric lines ("Output  85.5/90"), empty without a rubric.
pub(crate) fn rubric(result: &GradeResult) -> String {
    if result.rubric.is_empty() {
        return String::new();
    }
    let width = result
        .rubric
        .iter()
        .map(|l| l.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Rubric (from the handout's grading policy):\n");
    for line in &result.rubric {
        let _ = writeln!(
            out,
            "  {:width$}  {}  ({})",
            line.name,
            points_of(line.score, line.max_score),
            line.part.name()
        );
    }
    out.push('\n');
    out
}
