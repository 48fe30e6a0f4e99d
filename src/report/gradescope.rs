//! Gradescope's results.json (gradescope-autograders.readthedocs.io, "Autograder
//! Specifications"): a top-level score, execution time and summary, and one test per case.
//!
//! Visibility mapping: visible cases → `"visible"`; hidden cases → [`HiddenVisibility`],
//! `"visible"` by default: the student sees the hidden case's name, points and pass/fail but
//! never its input or expected output (they are not in the file). Gradescope hides the
//! student's *total* while any test is `after_published`, so that stricter mapping is opt-in.

use serde::Serialize;

use super::text::{case_feedback, Style};
use super::{for_students, points_of, Exporter};
use crate::results::{CaseStatus, GradeResult, PartKind, RequirementStatus, Visibility};

/// Renders Gradescope's results.json.
#[derive(Clone, Copy, Debug, Default)]
pub struct GradescopeExporter {
    /// What Gradescope shows of hidden cases, and when.
    pub hidden: HiddenVisibility,
}

/// Gradescope's visibility for hidden cases (`grade gradescope --hidden-visibility`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HiddenVisibility {
    /// Name, points and pass/fail shown at once (the default: the total stays visible).
    #[default]
    Visible,
    /// Shown after the due date.
    AfterDueDate,
    /// Shown once grades are published (Gradescope then hides the total until then).
    AfterPublished,
    /// Never shown to the student.
    Hidden,
}

impl HiddenVisibility {
    /// Every choice, in the order `--help` lists them.
    pub const ALL: [HiddenVisibility; 4] = [
        HiddenVisibility::Visible,
        HiddenVisibility::AfterDueDate,
        HiddenVisibility::AfterPublished,
        HiddenVisibility::Hidden,
    ];

    /// One line saying what students see, for `--help`.
    pub fn description(self) -> &'static str {
        match self {
            HiddenVisibility::Visible => {
                "Name, points and pass/fail shown at once; the total stays visible"
            }
            HiddenVisibility::AfterDueDate => "Shown after the due date",
            HiddenVisibility::AfterPublished => {
                "Shown once grades are published (Gradescope hides the total until then)"
            }
            HiddenVisibility::Hidden => "Never shown to the student",
        }
    }

    /// Gradescope's spelling.
    pub fn name(self) -> &'static str {
        match self {
            HiddenVisibility::Visible => "visible",
            HiddenVisibility::AfterDueDate => "after_due_date",
            HiddenVisibility::AfterPublished => "after_published",
            HiddenVisibility::Hidden => "hidden",
        }
    }
}

/// The top level of results.json.
#[derive(Serialize)]
struct Results {
    score: f64,
    execution_time: f64,
    output: String,
    tests: Vec<Test>,
}

/// One entry of `tests`.
#[derive(Serialize)]
struct Test {
    name: String,
    number: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    visibility: &'static str,
}

/// A case's feedback followed by what its run cost (wall, CPU, peak memory, how it ended),
/// when it ran.
fn with_resources(mut feedback: String, case: &crate::results::CaseResult) -> String {
    // A hidden case shows nothing but that it is hidden (its instructor view shows them).
    if super::resources::ran(&case.run) && case.visibility == Visibility::Visible {
        if !feedback.is_empty() && !feedback.ends_with('\n') {
            feedback.push('\n');
        }
        feedback.push_str(&format!(
            "Resources: {}\n",
            super::resources::line(&case.run)
        ));
    }
    feedback
}

/// Gradescope's visibility value for a case (see the module documentation).
pub fn gradescope_visibility(visibility: Visibility, hidden: HiddenVisibility) -> &'static str {
    match visibility {
        Visibility::Visible => "visible",
        Visibility::Hidden => hidden.name(),
    }
}

impl Exporter for GradescopeExporter {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        let result = for_students(result);
        let passed = result.cases.iter().filter(|c| c.full_marks()).count();
        let mut output = format!(
            "{}: {} ({} of {} cases with full marks)",
            result.assignment,
            points_of(result.score, result.max_score),
            passed,
            result.cases.len()
        );
        if let Some(variant) = &result.variant {
            output.push_str(&format!("\nVariant: {}", variant.describe()));
        }
        for note in &result.notes {
            output.push_str(&format!("\nNote: {note}"));
        }
        if let Some(failure) = &result.build_failure {
            output = format!(
                "The submission did not build, so every case scores 0.\n$ {}\n{}",
                failure.command, failure.messages
            );
        }
        if let Some(warning) = super::sandbox_warning(&result) {
            output = format!("{warning}\n{output}");
        }
        let rubric = super::requirements::rubric(&result);
        if !rubric.is_empty() {
            output.push_str(&format!("\n{}", rubric.trim_end()));
        }
        if !result.warnings.is_empty() {
            output.push_str(&format!(
                "\nCompiler warnings (the build succeeded):\n{}",
                result.warnings
            ));
        }
        // One test per part of the total (each case, then each code requirement, then rubric
        // lines of their own such as "Compiled"), so the tests add up to the score Gradescope
        // shows; under a rubric a case's points are scaled as the rubric counts them.
        let mut tests: Vec<Test> = Vec::new();
        for part in result.parts() {
            let number = (tests.len() + 1).to_string();
            let test = match part.kind {
                PartKind::Case => {
                    let Some(case) = result.cases.iter().find(|c| c.name == part.name) else {
                        continue;
                    };
                    let full =
                        case.status == CaseStatus::Passed && case.score + 1e-9 >= case.max_score;
                    Test {
                        name: case.name.clone(),
                        number,
                        score: part.score,
                        max_score: part.max_score,
                        status: if full { "passed" } else { "failed" },
                        output: with_resources(case_feedback(case, Style::default()), case),
                        visibility: gradescope_visibility(case.visibility, self.hidden),
                    }
                }
                PartKind::Requirement => {
                    let Some(requirement) =
                        result.requirements.iter().find(|r| r.name == part.name)
                    else {
                        continue;
                    };
                    Test {
                        name: format!("requirement: {}", requirement.name),
                        number,
                        score: part.score,
                        max_score: part.max_score,
                        status: if requirement.status == RequirementStatus::Failed
                            || part.score + 1e-9 < part.max_score
                        {
                            "failed"
                        } else {
                            "passed"
                        },
                        output: super::requirements::requirement_feedback(requirement),
                        visibility: "visible",
                    }
                }
                PartKind::Rubric => Test {
                    name: format!("rubric: {}", part.name),
                    number,
                    score: part.score,
                    max_score: part.max_score,
                    status: if part.score + 1e-9 < part.max_score {
                        "failed"
                    } else {
                        "passed"
                    },
                    output: String::new(),
                    visibility: "visible",
                },
            };
            tests.push(test);
        }
        let results = Results {
            score: result.score,
            execution_time: result.wall_ms as f64 / 1000.0,
            output,
            tests,
        };
        let mut bytes = serde_json::to_vec_pretty(&results)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{assert_no_secrets, build_failure, sample};
    use serde_json::{json, Value};

    fn results_of(result: &GradeResult) -> (String, Value) {
        let bytes = GradescopeExporter::default().export(result).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let value = serde_json::from_str(&text).unwrap();
        (text, value)
    }

    #[test]
    fn numbers_are_numbers_and_tests_are_complete() {
        let (_, results) = results_of(&sample());
        assert_eq!(results["score"], json!(7.5));
        assert!(results["execution_time"].is_number());
        // The visible cases' time alone (41 + 52 + 2000 ms): the hidden case's is withheld.
        assert_eq!(results["execution_time"], json!(2.093));
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 4);
        for (index, test) in tests.iter().enumerate() {
            assert_eq!(test["number"], json!((index + 1).to_string()));
            assert!(test["score"].is_number() && test["max_score"].is_number());
            assert!(test["name"].is_string() && test["output"].is_string());
        }
        assert_eq!(tests[0]["status"], "passed");
        assert_eq!(tests[1]["status"], "failed");
        assert_eq!(tests[1]["score"], json!(2.5));
        let feedback = tests[1]["output"].as_str().unwrap();
        assert!(feedback.contains("Remove·(1-3):→garbage⏎"), "{feedback}");
        assert!(!feedback.contains('\x1b'));
    }

    #[test]
    fn visibility_keeps_hidden_details_from_students() {
        let (text, results) = results_of(&sample());
        assert_no_secrets(&text);
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests[0]["visibility"], "visible");
        assert_eq!(tests[2]["visibility"], "visible", "the total stays visible");
        assert_eq!(tests[2]["output"], "hidden case: details not shown\n");
        let strict = GradescopeExporter {
            hidden: HiddenVisibility::AfterPublished,
        };
        let value: Value = serde_json::from_slice(&strict.export(&sample()).unwrap()).unwrap();
        assert_eq!(value["tests"][2]["visibility"], "after_published");
        assert_eq!(value["tests"][0]["visibility"], "visible");
        assert_eq!(tests[2]["status"], "failed");
    }

    #[test]
    fn build_failure_in_top_level_output() {
        let (text, results) = results_of(&build_failure());
        assert_no_secrets(&text);
        assert_eq!(results["score"], json!(0.0));
        let output = results["output"].as_str().unwrap();
        assert!(output.contains("g++ -O2 -o nim nim.cpp"));
        assert!(output.contains("'cout' was not declared"));
        for test in results["tests"].as_array().unwrap() {
            assert_eq!(test["status"], "failed");
            assert_eq!(test["score"], json!(0.0));
        }
    }
}
