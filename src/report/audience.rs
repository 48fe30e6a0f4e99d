//! Who a report is for. A student's report strips every hidden case ([`super::for_students`]);
//! an instructor's shows them in full — the input sent, the first difference, the rule — so
//! the instructor can see why a hidden case was lost without re-running anything.
//!
//! The instructor view is the same result with each hidden case turned into a visible one
//! whose description says it is hidden from students: every format then renders it like any
//! visible case, and no exporter needs a second code path (the student path stays the only
//! one that could leak, and it strips).

use std::path::Path;

use crate::results::{GradeResult, Visibility};

/// Where a class's instructor reports go (hidden cases in full): `instructor/NAME.EXT`.
pub const INSTRUCTOR_DIR: &str = "instructor";

/// Who reads a report (`--audience`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Audience {
    /// The student who submitted: hidden cases show only their name, points and pass/fail.
    #[default]
    Student,
    /// The instructor: hidden cases in full (a result always holds them; only the
    /// student-facing reports strip them).
    Instructor,
}

impl Audience {
    /// Both audiences, in the order `--help` lists them.
    pub const ALL: [Audience; 2] = [Audience::Student, Audience::Instructor];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Audience::Student => "student",
            Audience::Instructor => "instructor",
        }
    }

    /// One line saying what the audience sees, for `--help`.
    pub fn description(self) -> &'static str {
        match self {
            Audience::Student => "Hidden cases show only their name, points and pass/fail",
            Audience::Instructor => {
                "Hidden cases in full: input, first difference, rule (never give this to students)"
            }
        }
    }
}

/// What an instructor's report marks a hidden case's description with.
pub const HIDDEN_MARK: &str = "[hidden from students]";

/// The result as an instructor's report shows it: every hidden case visible, its description
/// marked with [`HIDDEN_MARK`].
pub fn instructor_view(result: &GradeResult) -> GradeResult {
    let mut shown = result.clone();
    for case in &mut shown.cases {
        if case.visibility == Visibility::Hidden {
            case.visibility = Visibility::Visible;
            case.description = if case.description.is_empty() {
                HIDDEN_MARK.to_string()
            } else {
                format!("{HIDDEN_MARK} {}", case.description)
            };
        }
    }
    shown
}

/// Where a class's instructor report for `student` goes, relative to the output directory:
/// `instructor/NAME.EXT`, apart from the students' `students/NAME.EXT`, so that no student's
/// name (`bob.instructor`) is another student's instructor report.
pub fn instructor_file(student: &str, extension: &str) -> String {
    format!("{}/{student}.{extension}", INSTRUCTOR_DIR)
}

/// Renders `result` for `audience` in `format` to `path` or standard output (see
/// [`super::write`]).
pub fn write_for(
    result: &GradeResult,
    format: super::Format,
    path: Option<&Path>,
    audience: Audience,
) -> anyhow::Result<()> {
    match audience {
        Audience::Student => super::write(result, format, path),
        Audience::Instructor => super::write(&instructor_view(result), format, path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{sample, SECRET_EXPECTED, SECRET_INPUT, SECRET_STDERR};
    use crate::report::{exporter, Format, RenderOptions};

    #[test]
    fn the_instructor_view_shows_hidden_cases_and_the_student_view_does_not() {
        let result = sample();
        for format in Format::ALL {
            let render = |r: &GradeResult| {
                String::from_utf8(
                    exporter(format, RenderOptions::default())
                        .export(r)
                        .expect("renders"),
                )
                .expect("utf-8")
            };
            let student = render(&result);
            crate::report::tests::assert_no_secrets(&student);
            if format == Format::Classroom50 {
                continue; // names, points and pass/fail only, for anyone
            }
            let instructor = render(&instructor_view(&result));
            assert!(
                instructor.contains(HIDDEN_MARK),
                "{format:?}:\n{instructor}"
            );
            // Every format shows the expected output the hidden case missed; the ones that
            // show a case's input and stderr show those too.
            assert!(
                instructor.contains(SECRET_EXPECTED),
                "{format:?}:\n{instructor}"
            );
            if matches!(format, Format::Text | Format::Json | Format::Html) {
                assert!(
                    instructor.contains(SECRET_INPUT),
                    "{format:?}:\n{instructor}"
                );
                assert!(
                    instructor.contains(SECRET_STDERR),
                    "{format:?}:\n{instructor}"
                );
            }
        }
        assert_eq!(
            instructor_file("ana", "html"),
            "instructor/ana.html",
            "apart from students/ana.html"
        );
    }
}
