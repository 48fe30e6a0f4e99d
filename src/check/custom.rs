//! Check kinds an assignment brings with it (Silver Dollar's strips): what a kind is to the
//! rest of the grader, so that its code lives in the assignment's folder and a new kind is one
//! file there and one line in the assignment's descriptor.
//!
//! The kinds every assignment has (`lines`, `board`, `exit`, …) are [`super::CheckKind`]'s
//! other variants. A case file's `kind:` is looked up among them first, then among the
//! assignment's registered kinds ([`crate::assignments::AssignmentDef::check_kinds`]); a kind
//! in neither is an error naming the file, the check and the kinds the assignment accepts.

use std::fmt::Debug;
use std::sync::Arc;

use serde::de::DeserializeOwned;

use super::{CaseViews, Evaluation, StudentRun};
use crate::games::Recording;

/// A check kind an assignment registers: the name case files give as `kind:`, and how one
/// check of it is compiled from its other keys.
#[derive(Clone, Copy, Debug)]
pub struct CheckKindDef {
    /// Its `kind:` in case files, and its name in reports.
    pub name: &'static str,
    /// Compiles one check from its keys (every key but `kind`); the error says what is
    /// wrong with them (serde's words: the unknown key, the missing one, the bad value).
    pub compile: fn(&yaml_serde::Value) -> Result<CompiledCheck, String>,
}

/// One check of a registered kind, compiled: what [`super::Check`] keeps of it.
#[derive(Debug)]
pub struct CompiledCheck {
    /// Its name (the kind's default when the case file gives none).
    pub name: String,
    /// Its weight as written (1 when absent).
    pub weight: Option<f64>,
    /// The handout's rule it states (`rule:`), if its kind has one.
    pub rule: Option<String>,
    /// What it compares.
    pub check: Arc<dyn CustomCheck>,
}

/// What a compiled check of a registered kind does, and the answers the generic scoring asks
/// of every kind (each with the answer of most kinds as its default).
pub trait CustomCheck: Send + Sync + Debug + std::panic::RefUnwindSafe {
    /// Compares the student's run with the reference recording of the same case: `views`
    /// holds both sides as the case's checks share them; `student.samples` all the runs of a
    /// case that starts the program many times.
    fn evaluate(
        &self,
        views: &CaseViews,
        student: &StudentRun,
        reference: &Recording,
    ) -> Evaluation;

    /// Its items show that a game is being played (the game gate of [`super::score`]), and
    /// what the gate's feedback calls them ("strips").
    fn game_items(&self) -> Option<&'static str> {
        None
    }

    /// The gate's reason when only checks of this kind gate a case, the program printed
    /// their items after an input, and they never changed from the start.
    fn unchanged_items(&self) -> Option<&'static str> {
        None
    }

    /// It judges only the start a driver read from the program: graded even where the
    /// start leaves no game to play, and the one check graded where the start is unusable.
    fn judges_the_start(&self) -> bool {
        false
    }

    /// It may be compared in random games (not a check of many runs, nor of what only the
    /// assignment's fixed cases show).
    fn in_random_games(&self) -> bool {
        true
    }
}

/// A registered check's keys read into its kind's own spec (a serde struct that denies
/// unknown fields), so that a typo is an error naming the key.
pub fn spec<T: DeserializeOwned>(fields: &yaml_serde::Value) -> Result<T, String> {
    yaml_serde::from_value(fields.clone()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kind that answers nothing but its comparison.
    #[derive(Debug)]
    struct Plain;

    impl CustomCheck for Plain {
        fn evaluate(&self, _: &CaseViews, _: &StudentRun, _: &Recording) -> Evaluation {
            unreachable!("never evaluated here")
        }
    }

    /// The defaults are most kinds' answers: no game items, no reason of its own, not the
    /// start's judge, and compared in random games like every generic kind.
    #[test]
    fn a_kind_that_says_nothing_more_is_an_ordinary_check() {
        assert_eq!(Plain.game_items(), None);
        assert_eq!(Plain.unchanged_items(), None);
        assert!(!Plain.judges_the_start());
        assert!(Plain.in_random_games());
    }

    #[derive(Debug, serde::Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Spec {
        weight: Option<f64>,
    }

    #[test]
    fn a_spec_reads_its_keys_and_names_an_unknown_one() {
        let read = |yaml: &str| spec::<Spec>(&yaml_serde::from_str(yaml).expect("yaml"));
        assert_eq!(read("weight: 2"), Ok(Spec { weight: Some(2.0) }));
        let e = read("wieght: 2").expect_err("a typo");
        assert!(e.contains("wieght"), "{e}");
    }
}
