//! Grading a submission: case → run → transcript → checks → report. Skeleton.

use std::path::Path;

use clap::Args;

use crate::games::Assignment;

/// Options of the default `grade SUBMISSION --assignment NAME` command.
#[derive(Args, Debug, Default)]
pub struct GradeOptions {}

/// Grades one submission and writes the report; returns the process exit status.
pub fn grade_command(
    submission: &Path,
    assignment: Assignment,
    options: &GradeOptions,
) -> anyhow::Result<u8> {
    let _ = (submission, assignment, options);
    anyhow::bail!("grading is not implemented yet")
}
