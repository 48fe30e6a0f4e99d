//! Grading real programs end to end through the `grade` binary: the reference run as a
//! student, handout-following programs that differ where the handout allows, buggy programs,
//! and programs that fail to build, crash, hang or attack the grader.

mod support;

use support::*;

const ASSIGNMENTS: [(&str, &[&str]); 5] = [
    ("nim", &[]),
    ("m", &[]),
    ("collect", &[]),
    ("connect6", &[]),
    ("silver_dollar", &["--seed", "1"]),
];

#[test]
fn the_reference_run_as_a_student_scores_full_marks_default_and_strict() {
    for (assignment, game_args) in ASSIGNMENTS {
        let student = reference_as_student(assignment, game_args);
        for mode in [&[][..], &["--strict"][..]] {
            let (code, report) = grade_json(student.path(), assignment, mode);
            assert_eq!(
                report["score"],
                report["max_score"],
                "{assignment} {mode:?} lost points: {:#?}",
                lost_points(&report)
            );
            assert_eq!(code, 0, "{assignment} {mode:?}");
        }
    }
}
