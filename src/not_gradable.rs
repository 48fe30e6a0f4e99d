//! A submission the grader could not grade for a reason that is not the student's: a
//! toolchain missing on the grading machine, the machine's own limits (no room for a build or
//! run directory, the sandbox could not be set up), or an error of the grader or of the
//! instructor's cases. Such a submission gets no score at all — a blank in the gradebook, never
//! a 0 — while what the student did (a program that does not compile, crashes or runs too long)
//! stays a score.
//!
//! The grading pipeline returns it as a typed error ([`NotGradable`] inside `anyhow::Error`);
//! every front-end asks [`not_gradable`] whether an error is one and says so in its own terms
//! (the gradebook's status, Gradescope's results.json, exit status 2).

use std::fmt;

/// Whose the reason is, for the instructor: what to fix before grading again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// A compiler or interpreter the submission's language needs is not installed on the
    /// grading machine.
    Toolchain,
    /// The grading machine could not give the grading what it needs: a build or run directory,
    /// pipes, processes, the sandbox.
    Machine,
    /// The grader or the instructor's cases are wrong (a stale reference transcript, a bug).
    Grader,
}

impl Cause {
    /// The cause in a few words, for gradebooks and reports.
    pub fn describe(self) -> &'static str {
        match self {
            Cause::Toolchain => "toolchain missing on the grading machine",
            Cause::Machine => "the grading machine's limits",
            Cause::Grader => "grader or case error",
        }
    }
}

/// A grading that did not happen for a reason that is not the student's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotGradable {
    /// Whose the reason is.
    pub cause: Cause,
    /// What happened, in one line.
    pub reason: String,
}

impl NotGradable {
    /// A not-gradable error of `cause`, saying `reason`.
    pub fn new(cause: Cause, reason: impl Into<String>) -> NotGradable {
        NotGradable {
            cause,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for NotGradable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "not gradable ({}; not the student's fault): {}",
            self.cause.describe(),
            self.reason
        )
    }
}

impl std::error::Error for NotGradable {}

/// The [`NotGradable`] an error is or wraps (through `anyhow` context), if any.
pub fn not_gradable(error: &anyhow::Error) -> Option<&NotGradable> {
    error.chain().find_map(|e| e.downcast_ref::<NotGradable>())
}

/// The gradebook status of a submission that was not gradable.
pub fn status(not_gradable: &NotGradable) -> String {
    format!(
        "not gradable: {}: {}",
        not_gradable.cause.describe(),
        not_gradable.reason
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_not_gradable_error_is_found_through_context() {
        let error = anyhow::Error::new(NotGradable::new(Cause::Toolchain, "no javac"))
            .context("grading ana");
        let found = not_gradable(&error).expect("found");
        assert_eq!(found.cause, Cause::Toolchain);
        assert_eq!(
            status(found),
            "not gradable: toolchain missing on the grading machine: no javac"
        );
        assert!(not_gradable(&anyhow::anyhow!("does not compile")).is_none());
    }
}
