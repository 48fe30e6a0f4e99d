//! The handouts' requirements on the code itself, each quoting its handout line and checked on
//! a parse of the submission (docs/requirements.md).
//!
//! A requirement applies only to a submission in the handout's language: in another one it is
//! reported "not applicable" and earns the share of the cases' points the program earned, so
//! a student who wrote Nim in Python loses no point to "use do while loops" and is graded out
//! of the same total, on the same scale, as one who wrote C++.
//! An assignment's requirements live in one file each; adding one is an entry in that file's
//! list.

pub(crate) mod cpp;

use std::collections::BTreeMap;

use super::{Program, SourceLanguage};
use crate::results::{Finding, RequirementResult, RequirementStatus};

/// One requirement of a handout on the code.
pub struct Requirement {
    /// Short name, used in reports and to reweight it in assignment.yaml.
    pub name: &'static str,
    /// The handout's line, quoted.
    pub quote: &'static str,
    /// The handout's language: in any other the requirement is not applicable.
    pub language: SourceLanguage,
    /// Points by default (modest: the game's behaviour is graded by the cases).
    pub points: f64,
    /// The check itself.
    pub check: fn(&Program) -> Verdict,
}

/// What a requirement's check found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the code meets it.
    pub passed: bool,
    /// One line for the report.
    pub detail: String,
    /// Where in the code (the evidence for a pass, the problems for a failure).
    pub findings: Vec<Finding>,
}

impl Verdict {
    /// A verdict that passes with `detail`.
    pub fn pass(detail: impl Into<String>, findings: Vec<Finding>) -> Verdict {
        Verdict {
            passed: true,
            detail: detail.into(),
            findings,
        }
    }

    /// A verdict that fails with `detail`.
    pub fn fail(detail: impl Into<String>, findings: Vec<Finding>) -> Verdict {
        Verdict {
            passed: false,
            detail: detail.into(),
            findings,
        }
    }
}

/// Findings kept per requirement (a report stays readable whatever the code holds).
const MAX_FINDINGS: usize = 30;

/// Points per requirement as a case directory sets them: a number, or `None` for switched
/// off. Requirements not named keep their default points.
pub type Weights = BTreeMap<String, Option<f64>>;

/// Checks every one of an assignment's `requirements` that is not switched off.
pub fn evaluate(
    requirements: &[Requirement],
    program: &Program,
    weights: &Weights,
) -> Vec<RequirementResult> {
    requirements
        .iter()
        .filter_map(|requirement| {
            let points = match weights.get(requirement.name) {
                Some(None) => return None,
                Some(Some(points)) => *points,
                None => requirement.points,
            };
            Some(evaluate_one(requirement, program, points))
        })
        .collect()
}

fn evaluate_one(requirement: &Requirement, program: &Program, points: f64) -> RequirementResult {
    // A requirement that cannot apply counts as the cases do: [`GradeResult::total`] gives it
    // the share of the cases' points the program earned, so a program in another language is
    // graded out of the same total on the same scale (docs/requirements.md, "One total").
    let not_applicable = |why: String| RequirementResult {
        name: requirement.name.to_string(),
        quote: requirement.quote.to_string(),
        status: RequirementStatus::NotApplicable,
        score: 0.0,
        max_score: points,
        detail: format!(
            "not applicable: {why}; counts as the cases do (the share of their points earned)"
        ),
        findings: Vec::new(),
    };
    match program.language {
        Some(language) if language == requirement.language && !program.files.is_empty() => {}
        Some(language) => {
            return not_applicable(format!(
                "the handout asks for {}, this submission is {}",
                requirement.language.name(),
                language.name()
            ))
        }
        None => {
            return not_applicable(format!(
                "no {} source in the submission",
                requirement.language.name()
            ))
        }
    }
    let mut verdict = match program.too_deep() {
        Some(file) => Verdict::fail(
            format!(
                "{} is nested {} levels deep, more than the {} analysed: not checked",
                file.path,
                file.depth,
                crate::analyze::MAX_DEPTH
            ),
            Vec::new(),
        ),
        None => (requirement.check)(program),
    };
    if verdict.findings.len() > MAX_FINDINGS {
        let more = verdict.findings.len() - MAX_FINDINGS;
        verdict.findings.truncate(MAX_FINDINGS);
        verdict.findings.push(Finding {
            file: String::new(),
            line: None,
            message: format!("… and {more} more"),
        });
    }
    if program.build_failed && verdict.passed {
        // What the code would earn is shown, but a program that does not build earns nothing.
        verdict.passed = false;
        verdict.detail = format!("no points: the program did not build ({})", verdict.detail);
    }
    RequirementResult {
        name: requirement.name.to_string(),
        quote: requirement.quote.to_string(),
        status: if verdict.passed {
            RequirementStatus::Passed
        } else {
            RequirementStatus::Failed
        },
        score: if verdict.passed { points } else { 0.0 },
        max_score: points,
        detail: verdict.detail,
        findings: verdict.findings,
    }
}

/// The names of an assignment's requirements, for messages about unknown ones.
pub fn names(requirements: &[Requirement]) -> Vec<&'static str> {
    requirements.iter().map(|r| r.name).collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::analyze::SourceFile;

    /// A program of one file, for the per-assignment tests.
    pub(crate) fn program(path: &str, text: &str) -> Program {
        let language = SourceLanguage::of(std::path::Path::new(path)).expect("a known extension");
        Program {
            language: Some(language),
            files: vec![SourceFile::parse(path, language, text.to_string()).expect("parses")],
            warnings: Vec::new(),
            build_failed: false,
        }
    }

    /// The verdict of the requirement `name` of `assignment` on one file.
    pub(crate) fn verdict(
        requirements: &[Requirement],
        name: &str,
        path: &str,
        text: &str,
    ) -> Verdict {
        let requirement = requirements
            .iter()
            .find(|r| r.name == name)
            .unwrap_or_else(|| panic!("no requirement {name}"));
        (requirement.check)(&program(path, text))
    }

    #[test]
    fn another_language_is_not_applicable_and_keeps_its_points_in_the_total() {
        let python = program("nim.py", "print('hi')\n");
        let results = evaluate(
            crate::assignments::nim::requirements::REQUIREMENTS,
            &python,
            &Weights::new(),
        );
        // nim's handout: do-while-input 3 and for-loop-matches 3 (docs/requirements.md); what
        // they earn is set with the cases' share by GradeResult::total.
        let points: Vec<f64> = results.iter().map(|r| r.max_score).collect();
        assert_eq!(points, vec![3.0, 3.0]);
        for r in &results {
            assert_eq!(r.status, RequirementStatus::NotApplicable);
            assert_eq!(
                r.detail,
                "not applicable: the handout asks for C++, this submission is Python; counts as \
                 the cases do (the share of their points earned)"
            );
        }
    }

    #[test]
    fn a_program_that_does_not_build_earns_no_requirement() {
        let mut cpp = program(
            "nim.cpp",
            "int main() { for (int i = 0; i < 5; i++) cout << '|'; }\n",
        );
        cpp.build_failed = true;
        let results = evaluate(
            crate::assignments::nim::requirements::REQUIREMENTS,
            &cpp,
            &Weights::new(),
        );
        let for_loop = results
            .iter()
            .find(|r| r.name == "for-loop-matches")
            .expect("checked");
        assert_eq!(for_loop.status, RequirementStatus::Failed);
        assert_eq!(for_loop.score, 0.0);
        assert_eq!(
            for_loop.detail,
            "no points: the program did not build (the matches are printed in a for loop)"
        );
    }

    #[test]
    fn a_program_nested_too_deep_is_not_analysed_and_earns_nothing() {
        let depth = 5_000;
        let text = format!(
            "int main() {{ do {{ return {}1{}; }} while (0); }}\n",
            "(".repeat(depth),
            ")".repeat(depth)
        );
        let results = evaluate(
            crate::assignments::nim::requirements::REQUIREMENTS,
            &program("nim.cpp", &text),
            &Weights::new(),
        );
        for r in &results {
            assert_eq!(r.status, RequirementStatus::Failed, "{r:?}");
            assert!(r.detail.contains("levels deep"), "{}", r.detail);
        }
    }

    #[test]
    fn weights_reweight_and_switch_off() {
        let cpp = program("nim.cpp", "int main() { return 0; }\n");
        let mut weights = Weights::new();
        weights.insert("do-while-input".into(), None);
        weights.insert("for-loop-matches".into(), Some(5.0));
        let results = evaluate(
            crate::assignments::nim::requirements::REQUIREMENTS,
            &cpp,
            &weights,
        );
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].name, "for-loop-matches");
        assert_eq!(results[0].max_score, 5.0);
    }
}
