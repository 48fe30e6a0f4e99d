//! JUnit XML for CI: one `<testsuite>` named after the assignment, one `<testcase>` per case.
//!
//! A case that lost points is a `<failure>` whose message says how many points were lost and
//! whose text is the same feedback as the text report (no colour); a case with status
//! `error` is an `<error>`; a hidden case is a failure without details. After a build
//! failure every case is an `<error>` carrying the compiler's messages.

use std::time::Duration;

use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};

use super::text::{case_feedback, Style};
use super::{for_students, points, points_of, Exporter};
use crate::results::{CaseResult, CaseStatus, GradeResult, Visibility};

/// Renders the JUnit XML report.
pub struct JunitExporter;

impl Exporter for JunitExporter {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        let result = for_students(result);
        let mut suite = TestSuite::new(result.assignment.as_str());
        suite.set_time(Duration::from_millis(result.wall_ms));
        if let Some(failure) = &result.build_failure {
            suite.set_system_out(build_failure_text(&result));
            suite.set_system_err(failure.messages.as_str());
        }
        // The total, as every format states it (cases, requirements and rubric together).
        suite.add_property(quick_junit::Property::new("score", points(result.score)));
        suite.add_property(quick_junit::Property::new(
            "max_score",
            points(result.max_score),
        ));
        for layer in &result.sandbox {
            suite.add_property(quick_junit::Property::new(
                format!("sandbox.{}", layer.name),
                if layer.active { "on" } else { "off" },
            ));
        }
        if let Some(warning) = super::sandbox_warning(&result) {
            suite.set_system_err(match &result.build_failure {
                Some(failure) => format!("{warning}\n{}", failure.messages),
                None => warning,
            });
        }
        for case in &result.cases {
            suite.add_test_case(test_case(&result, case));
        }
        for line in &result.rubric {
            suite.add_property(quick_junit::Property::new(
                format!("rubric.{}", line.name),
                points_of(line.score, line.max_score),
            ));
        }
        if !result.warnings.is_empty() {
            suite.set_system_out(format!("Compiler warnings:\n{}", result.warnings));
        }
        let mut report = Report::new(format!("grade {}", result.assignment));
        report.set_time(Duration::from_millis(result.wall_ms));
        report.add_test_suite(suite);
        if !result.requirements.is_empty() {
            report.add_test_suite(requirements_suite(&result));
        }
        let mut xml = report.to_string()?;
        if !xml.ends_with('\n') {
            xml.push('\n');
        }
        Ok(xml.into_bytes())
    }
}

/// The code requirements as a suite of their own (`ASSIGNMENT.requirements`): a failed one is
/// a failure carrying its handout line and findings; a not applicable one is skipped.
fn requirements_suite(result: &GradeResult) -> TestSuite {
    use super::requirements::requirement_feedback;
    use crate::results::RequirementStatus;
    let mut suite = TestSuite::new(format!("{}.requirements", result.assignment));
    for requirement in &result.requirements {
        let status = match requirement.status {
            RequirementStatus::Passed => TestCaseStatus::success(),
            RequirementStatus::NotApplicable => {
                let mut status = TestCaseStatus::skipped();
                status.set_message(requirement.detail.as_str());
                status
            }
            RequirementStatus::Failed => {
                let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
                status
                    .set_message(format!(
                        "lost {} of {} points: {}",
                        points(requirement.max_score - requirement.score),
                        points(requirement.max_score),
                        requirement.detail
                    ))
                    .set_type("requirement")
                    .set_description(requirement_feedback(requirement));
                status
            }
        };
        let mut test_case = TestCase::new(requirement.name.as_str(), status);
        test_case.set_classname(format!("{}.requirements", result.assignment));
        suite.add_test_case(test_case);
    }
    suite
}

/// The command that failed and the compiler's messages.
fn build_failure_text(result: &GradeResult) -> String {
    match &result.build_failure {
        Some(failure) => format!(
            "The submission did not build.\n$ {}\n{}",
            failure.command, failure.messages
        ),
        None => String::new(),
    }
}

/// One case as a testcase.
fn test_case(result: &GradeResult, case: &CaseResult) -> TestCase {
    let lost = case.max_score - case.score;
    let status = if result.build_failure.is_some() {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status
            .set_message(format!(
                "the submission did not build; 0/{} points",
                points(case.max_score)
            ))
            .set_type("build failure")
            .set_description(build_failure_text(result));
        status
    } else if case.status == CaseStatus::Error {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Error);
        status
            .set_message(format!(
                "the case could not be run; {} points",
                points_of(case.score, case.max_score)
            ))
            .set_type("error");
        if case.visibility == Visibility::Visible {
            status.set_description(case_feedback(case, Style::default()));
        }
        status
    } else if case.status == CaseStatus::Passed && lost <= 1e-9 {
        TestCaseStatus::success()
    } else {
        let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
        status.set_message(format!(
            "lost {} of {} points",
            points(lost.max(0.0)),
            points(case.max_score)
        ));
        match case.visibility {
            Visibility::Visible => {
                status
                    .set_type("points lost")
                    .set_description(case_feedback(case, Style::default()));
            }
            Visibility::Hidden => {
                status.set_type("hidden case");
            }
        }
        status
    };
    let mut test_case = TestCase::new(case.name.as_str(), status);
    test_case.set_classname(result.assignment.as_str());
    // A hidden case's time is withheld: no time at all, rather than a 0 that reads as a figure.
    if !case.run.withheld {
        test_case.set_time(Duration::from_millis(case.run.wall_ms));
    }
    // What the run cost, as properties a CI dashboard can chart.
    if super::resources::ran(&case.run) && case.visibility == Visibility::Visible {
        for (name, value) in super::resources::properties(&case.run) {
            test_case.add_property(quick_junit::Property::new(name, value));
        }
    }
    if case.visibility == Visibility::Visible && !case.stderr.is_empty() {
        test_case.set_system_err(case.stderr.as_str());
    }
    // Full marks, yet undefined behaviour found (a `sanitizer` check of weight 0): a passing
    // testcase says so in its output, as the text report does.
    if case.visibility == Visibility::Visible && lost <= 1e-9 {
        if let Some(check) = super::undefined_behaviour(case) {
            test_case.set_system_out(format!(
                "Sanitizer check (no points taken): {}",
                check.detail
            ));
        }
    }
    test_case
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{assert_no_secrets, build_failure, sample};

    fn xml_of(result: &GradeResult) -> String {
        String::from_utf8(JunitExporter.export(result).unwrap()).unwrap()
    }

    #[test]
    fn a_passing_case_with_a_sanitizer_finding_says_so_in_its_output() {
        let mut result = sample();
        let case = result
            .cases
            .iter_mut()
            .find(|c| c.status == CaseStatus::Passed && c.visibility == Visibility::Visible)
            .expect("a passed visible case");
        case.checks.push(crate::report::tests::sanitizer_finding(
            "1 problem found: signed integer overflow (line 69 of nim.c)",
        ));
        let name = case.name.clone();
        let xml = xml_of(&result);
        let report = Report::deserialize_from_str(&xml).unwrap();
        let testcase = report.test_suites[0]
            .test_cases
            .iter()
            .find(|t| t.name.as_str() == name)
            .expect("the case");
        assert!(matches!(testcase.status, TestCaseStatus::Success { .. }));
        assert_eq!(
            testcase.system_out.as_ref().map(|s| s.as_str()),
            Some(
                "Sanitizer check (no points taken): 1 problem found: signed integer overflow \
                 (line 69 of nim.c)"
            )
        );
    }

    #[test]
    fn well_formed_with_one_testcase_per_case() {
        let xml = xml_of(&sample());
        assert!(xml.starts_with("<?xml"), "{xml}");
        assert_eq!(xml.matches("<testcase ").count(), 4);
        let report = Report::deserialize_from_str(&xml).unwrap();
        assert_eq!(report.test_suites.len(), 1);
        let suite = &report.test_suites[0];
        assert_eq!(suite.name.as_str(), "nim");
        assert_eq!(suite.tests, 4);
        assert_eq!(suite.failures, 3);
        assert_eq!(suite.errors, 0);
        let case = &suite.test_cases[1];
        assert_eq!(case.name.as_str(), "rejects_zero");
        assert_eq!(case.classname.as_ref().unwrap().as_str(), "nim");
        assert_eq!(case.time, Some(Duration::from_millis(52)));
        match &case.status {
            TestCaseStatus::NonSuccess {
                kind,
                message,
                description,
                ..
            } => {
                assert_eq!(*kind, NonSuccessKind::Failure);
                assert_eq!(message.as_ref().unwrap().as_str(), "lost 2.5 of 5 points");
                let text = description.as_ref().unwrap().as_str();
                assert!(text.contains("Remove·(1·-·3):·⏎"), "{text}");
                assert!(text.contains("Remove·(1-3):→garbage⏎"), "{text}");
                assert!(text.contains("relaxation: ignoring case"));
            }
            other => panic!("expected a failure, got {other:?}"),
        }
        assert!(matches!(
            suite.test_cases[0].status,
            TestCaseStatus::Success { .. }
        ));
    }

    #[test]
    fn hidden_case_fails_without_details() {
        let xml = xml_of(&sample());
        assert_no_secrets(&xml);
        let report = Report::deserialize_from_str(&xml).unwrap();
        match &report.test_suites[0].test_cases[2].status {
            TestCaseStatus::NonSuccess {
                kind,
                message,
                description,
                ..
            } => {
                assert_eq!(*kind, NonSuccessKind::Failure);
                assert_eq!(message.as_ref().unwrap().as_str(), "lost 5 of 5 points");
                assert!(description.is_none());
            }
            other => panic!("expected a failure, got {other:?}"),
        }
    }

    #[test]
    fn build_failure_makes_every_case_an_error() {
        let xml = xml_of(&build_failure());
        let report = Report::deserialize_from_str(&xml).unwrap();
        let suite = &report.test_suites[0];
        assert_eq!(suite.errors, 4);
        for case in &suite.test_cases {
            match &case.status {
                TestCaseStatus::NonSuccess {
                    kind, description, ..
                } => {
                    assert_eq!(*kind, NonSuccessKind::Error);
                    let text = description.as_ref().unwrap().as_str();
                    assert!(text.contains("'cout' was not declared"), "{text}");
                }
                other => panic!("expected an error, got {other:?}"),
            }
        }
        assert_no_secrets(&xml);
    }
}
