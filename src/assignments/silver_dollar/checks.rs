//! Silver Dollar's own check kinds (`strip_start`, `strips`, `random_starts`), registered in
//! its descriptor ([`super::DEF`]): only its case files may use them. What they read and
//! compute is in [`super::strip`]; here is what each kind is to the case format and scoring.

use std::sync::Arc;

use serde::Deserialize;

use super::strip::{self, RandomRule};
use crate::check::custom::{spec, CheckKindDef, CompiledCheck, CustomCheck};
use crate::check::{CaseViews, Evaluation, StudentRun};
use crate::games::Recording;

/// Every check kind Silver Dollar registers.
pub const CHECK_KINDS: &[CheckKindDef] = &[
    CheckKindDef {
        name: "strip_start",
        compile: |fields| {
            let StripSpec { name, weight, rule } = spec(fields)?;
            Ok(CompiledCheck {
                name: name.unwrap_or_else(|| "start-strip".into()),
                weight,
                rule,
                check: Arc::new(StripStart),
            })
        },
    },
    CheckKindDef {
        name: "strips",
        compile: |fields| {
            let StripSpec { name, weight, rule } = spec(fields)?;
            Ok(CompiledCheck {
                name: name.unwrap_or_else(|| "strips".into()),
                weight,
                rule,
                check: Arc::new(Strips),
            })
        },
    },
    CheckKindDef {
        name: "random_starts",
        compile: |fields| {
            let RandomStartsSpec { name, weight, rule } = spec(fields)?;
            Ok(CompiledCheck {
                name: name.unwrap_or_else(|| rule.name().replace('_', "-")),
                weight,
                // Its `rule` is which property of the starts it checks (docs/case-format.md).
                rule: None,
                check: Arc::new(RandomStarts { rule }),
            })
        },
    },
];

/// `strip_start` and `strips` as written in a case file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct StripSpec {
    /// Check name (defaults to "start-strip", "strips").
    name: Option<String>,
    /// Share of the case's points (default 1; 0 makes the check informational).
    weight: Option<f64>,
    /// The handout's rule this check enforces, quoted.
    rule: Option<String>,
}

/// `random_starts` as written in a case file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomStartsSpec {
    /// Check name (defaults to the rule's name).
    name: Option<String>,
    /// Share of the case's points (default 1; 0 makes the check informational).
    weight: Option<f64>,
    /// Which property: legal, every_gap, uniform or varied.
    rule: RandomRule,
}

/// `strip_start`: the first strip is a legal start for the coin count typed.
#[derive(Debug)]
struct StripStart;

impl CustomCheck for StripStart {
    fn evaluate(&self, views: &CaseViews, student: &StudentRun, _: &Recording) -> Evaluation {
        let (s, _) = views.get();
        strip::evaluate_start(student.transcript, s)
    }

    fn judges_the_start(&self) -> bool {
        true
    }

    fn in_random_games(&self) -> bool {
        false
    }
}

/// `strips`: the coin positions of every strip, as the reference's.
#[derive(Debug)]
struct Strips;

impl CustomCheck for Strips {
    fn evaluate(&self, views: &CaseViews, _: &StudentRun, _: &Recording) -> Evaluation {
        let (s, r) = views.get();
        strip::evaluate_strips(s, r)
    }

    // Silver Dollar's coins moving is its game: the start strip alone is none.
    fn game_items(&self) -> Option<&'static str> {
        Some("strips")
    }

    // Equal strips in a row count once: one strip is a start no move changed.
    fn unchanged_items(&self) -> Option<&'static str> {
        Some("the program's strip never changed: no move was shown")
    }

    fn in_random_games(&self) -> bool {
        false
    }
}

/// `random_starts`: a property of the starting strips of many runs.
#[derive(Debug)]
struct RandomStarts {
    rule: RandomRule,
}

impl CustomCheck for RandomStarts {
    fn evaluate(&self, _: &CaseViews, student: &StudentRun, _: &Recording) -> Evaluation {
        if student.samples.is_empty() {
            strip::evaluate_random_starts(self.rule, std::slice::from_ref(student.transcript))
        } else {
            strip::evaluate_random_starts(self.rule, student.samples)
        }
    }

    fn in_random_games(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compiled(kind: &str, yaml: &str) -> CompiledCheck {
        let def = CHECK_KINDS
            .iter()
            .find(|def| def.name == kind)
            .expect("registered");
        (def.compile)(&yaml_serde::from_str(yaml).expect("yaml")).expect("compiles")
    }

    #[test]
    fn kinds_keep_the_names_and_defaults_case_files_use() {
        let names: Vec<&str> = CHECK_KINDS.iter().map(|def| def.name).collect();
        assert_eq!(names, ["strip_start", "strips", "random_starts"]);
        let start = compiled("strip_start", "rule: \"coins 1 to 6 apart\"");
        assert_eq!(start.name, "start-strip");
        assert_eq!(start.rule.as_deref(), Some("coins 1 to 6 apart"));
        assert!(start.check.judges_the_start() && start.check.game_items().is_none());
        let strips = compiled("strips", "weight: 3");
        assert_eq!((strips.name.as_str(), strips.weight), ("strips", Some(3.0)));
        assert_eq!(strips.check.game_items(), Some("strips"));
        assert!(!strips.check.judges_the_start() && !strips.check.in_random_games());
        // random_starts' `rule` is the property it checks, not a quoted handout rule.
        let varied = compiled("random_starts", "rule: varied");
        assert_eq!((varied.name.as_str(), varied.rule), ("varied", None));
    }

    /// What each kind is to scoring (docs/case-format.md): `strips` alone is a game check, and
    /// its unchanged strip is its own reason; `strip_start` alone judges the start; none is
    /// compared in random games (the start earns its points in `random-start`, the starts of
    /// many runs in a `samples` case).
    #[test]
    fn only_strips_is_a_game_and_none_is_compared_in_random_games() {
        let start = compiled("strip_start", "{}");
        let strips = compiled("strips", "{}");
        let every_gap = compiled("random_starts", "rule: every_gap");
        assert_eq!(every_gap.name, "every-gap");
        for (kind, game, judges_the_start) in [
            (&start, false, true),
            (&strips, true, false),
            (&every_gap, false, false),
        ] {
            let check = &kind.check;
            assert_eq!(check.game_items().is_some(), game, "{}", kind.name);
            assert_eq!(check.unchanged_items().is_some(), game, "{}", kind.name);
            assert_eq!(check.judges_the_start(), judges_the_start, "{}", kind.name);
            assert!(!check.in_random_games(), "{}", kind.name);
        }
        let unchanged = strips.check.unchanged_items().unwrap_or_default();
        assert!(
            unchanged.contains("strip never changed") && unchanged.contains("no move"),
            "{unchanged}"
        );
    }

    #[test]
    fn each_rule_is_named_as_case_files_write_it() {
        let rules = [
            (RandomRule::Legal, "legal"),
            (RandomRule::EveryGap, "every_gap"),
            (RandomRule::Uniform, "uniform"),
            (RandomRule::Varied, "varied"),
        ];
        for (rule, name) in rules {
            assert_eq!(rule.name(), name);
            let written: RandomRule = yaml_serde::from_str(name).expect("a rule");
            assert_eq!(written, rule);
        }
    }
}
