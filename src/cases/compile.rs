//! Compiling a case file's YAML into what the later stages run: checks, and the driver that
//! decides what to type.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use regex::Regex;

use super::schema::{CheckSpec, GenericCheckSpec};
use crate::assignments::Assignment;
use crate::check::board::BoardSpec;
use crate::check::lines::ItemRules;
use crate::check::pattern::Pattern;
use crate::check::{Check, CheckKind, Compare, Level};
use crate::drive::Driver;

fn anchored(pattern: &str, what: &str) -> Result<Regex, String> {
    Regex::new(&format!("^(?:{pattern})$")).map_err(|e| format!("bad {what} pattern: {e}"))
}

/// Compiles a `lines` pattern once per grader process: every case with the same pattern
/// shares the compiled pattern and its matching caches.
fn shared_pattern(pattern: &str, ignore_case: bool) -> Result<Arc<Pattern>, regex::Error> {
    type Compiled = HashMap<(String, bool), Arc<Pattern>>;
    static COMPILED: OnceLock<Mutex<Compiled>> = OnceLock::new();
    let compiled = COMPILED.get_or_init(Mutex::default);
    let key = (pattern.to_string(), ignore_case);
    if let Some(found) = compiled.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return Ok(found);
    }
    let compiled_pattern = Arc::new(Pattern::new(pattern, ignore_case)?);
    if let Ok(mut map) = compiled.lock() {
        map.insert(key, Arc::clone(&compiled_pattern));
    }
    Ok(compiled_pattern)
}

/// Compiles a check as written in a case file of `assignment`: a kind not among the generic
/// ones is looked up among the assignment's registered kinds. The error says what is wrong
/// with it (`at`: where the file lists it, "checks\[2\]").
pub fn check(spec: &CheckSpec, assignment: Assignment, at: &str) -> Result<Check, String> {
    let (name, weight, kind, rule) = match spec {
        CheckSpec::Generic(spec) => {
            let (name, weight, kind) = named_kind(spec)?;
            (name, weight, kind, spec.stated_rule().map(str::to_string))
        }
        CheckSpec::Registered { kind, fields } => {
            let registered = assignment.kind().check_kinds();
            let Some(def) = registered.iter().find(|def| def.name == kind) else {
                let accepted: Vec<&str> = GenericCheckSpec::KINDS
                    .iter()
                    .copied()
                    .chain(registered.iter().map(|def| def.name))
                    .collect();
                let named = fields
                    .get("name")
                    .and_then(yaml_serde::Value::as_str)
                    .map_or_else(String::new, |name| format!(" '{name}'"));
                return Err(format!(
                    "{at}: check{named} has kind '{kind}', which {assignment} does not have \
                     (its kinds: {})",
                    accepted.join(", ")
                ));
            };
            let compiled = (def.compile)(fields).map_err(|e| format!("{at} ({kind}): {e}"))?;
            (
                compiled.name,
                compiled.weight,
                CheckKind::Custom {
                    kind: def.name,
                    check: compiled.check,
                },
                compiled.rule,
            )
        }
    };
    let weight = weight.unwrap_or(1.0);
    if !(weight.is_finite() && weight >= 0.0) {
        return Err(format!("check '{name}': weight must be a number from 0 up"));
    }
    Ok(Check {
        name,
        weight,
        kind,
        rule,
    })
}

/// A check's name (its kind's by default), its weight as written, and its compiled kind:
/// one arm per generic kind of the case format.
fn named_kind(spec: &GenericCheckSpec) -> Result<(String, Option<f64>, CheckKind), String> {
    Ok(match spec {
        GenericCheckSpec::Transcript {
            name,
            weight,
            level,
            ..
        } => (
            name.clone().unwrap_or_else(|| "transcript".into()),
            *weight,
            CheckKind::Transcript {
                level: level.unwrap_or(Level::Whitespace),
            },
        ),
        GenericCheckSpec::Lines { name, weight, .. } => (name.clone(), *weight, lines_kind(spec)?),
        GenericCheckSpec::Board {
            name,
            weight,
            cell,
            empty,
            labels,
            first_optional,
            game,
            ..
        } => (
            name.clone().unwrap_or_else(|| "board".into()),
            *weight,
            CheckKind::Board(BoardSpec {
                cell: anchored(cell, "cell")?,
                empty: empty.as_deref().map(|e| anchored(e, "empty")).transpose()?,
                labels: *labels,
                first_optional: *first_optional,
                game: *game,
            }),
        ),
        GenericCheckSpec::Contains {
            name,
            weight,
            text,
            exact,
            presence_only,
            ..
        } => (
            name.clone().unwrap_or_else(|| text.clone()),
            *weight,
            contains_kind(text, *exact, *presence_only)?,
        ),
        GenericCheckSpec::Volume {
            name,
            weight,
            max_ratio,
            ..
        } => (
            name.clone().unwrap_or_else(|| "output-volume".into()),
            *weight,
            volume_kind(*max_ratio)?,
        ),
        GenericCheckSpec::Interactive { name, weight, .. } => (
            name.clone().unwrap_or_else(|| "interactive".into()),
            *weight,
            CheckKind::Interactive,
        ),
        GenericCheckSpec::Sanitizer { name, weight, .. } => (
            name.clone().unwrap_or_else(|| "sanitizer".into()),
            *weight,
            CheckKind::Sanitizer,
        ),
        GenericCheckSpec::Exit {
            name, weight, code, ..
        } => (
            name.clone().unwrap_or_else(|| "exit".into()),
            *weight,
            CheckKind::Exit { code: *code },
        ),
    })
}

/// A `lines` check's kind: its pattern compiled (shared, see [`shared_pattern`]) and its
/// options checked against each other (`free_elsewhere` and `any_wording` only make sense
/// at inputs).
fn lines_kind(spec: &GenericCheckSpec) -> Result<CheckKind, String> {
    let GenericCheckSpec::Lines {
        name,
        pattern,
        numbers,
        ignore_case,
        ignore_punctuation,
        dedup,
        compare,
        optional,
        at_inputs,
        free_elsewhere,
        any_wording,
        game,
        item,
        items,
        ..
    } = spec
    else {
        return Err("not a lines check".into());
    };
    if *free_elsewhere && !*at_inputs {
        return Err(format!(
            "check '{name}': free_elsewhere needs at_inputs: true"
        ));
    }
    if *any_wording && !(*at_inputs && *compare == Compare::Presence) {
        return Err(format!(
            "check '{name}': any_wording needs at_inputs: true and compare: presence"
        ));
    }
    let ignore_case = ignore_case.unwrap_or(true);
    let pattern = shared_pattern(pattern, ignore_case)
        .map_err(|e| format!("check '{name}': bad pattern: {e}"))?;
    Ok(CheckKind::Lines {
        pattern,
        rules: ItemRules {
            numbers: *numbers,
            ignore_case,
            ignore_punctuation: *ignore_punctuation,
        },
        dedup: *dedup,
        compare: *compare,
        optional: *optional,
        at_inputs: *at_inputs,
        free_elsewhere: *free_elsewhere,
        any_wording: *any_wording,
        game: *game,
        item: item.clone().unwrap_or_else(|| "item".into()),
        items: items.clone().unwrap_or_else(|| match item {
            Some(one) => format!("{one}s"),
            None => "items".into(),
        }),
    })
}

/// A `contains` check's kind; an empty text would be found in every output.
fn contains_kind(text: &str, exact: bool, presence_only: bool) -> Result<CheckKind, String> {
    if text.trim().is_empty() {
        return Err("a contains check needs a non-empty text".into());
    }
    Ok(CheckKind::Contains {
        text: text.to_string(),
        exact,
        presence_only,
    })
}

/// A `volume` check's kind (at most 8 times the reference's output by default); a ratio
/// under 1 would fail the reference itself.
fn volume_kind(max_ratio: Option<f64>) -> Result<CheckKind, String> {
    let max_ratio = max_ratio.unwrap_or(8.0);
    if !(max_ratio.is_finite() && max_ratio >= 1.0) {
        return Err("a volume check's max_ratio must be a number from 1 up".into());
    }
    Ok(CheckKind::Volume { max_ratio })
}

/// Compiles a case's `drive:` block (or its fixed input) into the driver of its runs.
pub fn driver(
    assignment: Assignment,
    drive: Option<&yaml_serde::Value>,
    input: &[String],
) -> Result<Driver, String> {
    let Some(spec) = drive else {
        return Ok(Driver::Script(input.to_vec()));
    };
    let Some(compile) = assignment.def().driver else {
        return Err(format!("drive: {assignment} has no driver"));
    };
    if !input.is_empty() {
        return Err("drive: the driver types every line; leave out input".into());
    }
    compile(spec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignments::{nim, silver_dollar};

    /// The check `yaml` compiles to for `assignment`, listed as "checks[2]".
    fn compiled(yaml: &str, assignment: Assignment) -> Result<Check, String> {
        let spec: CheckSpec = yaml_serde::from_str(yaml).map_err(|e| e.to_string())?;
        check(&spec, assignment, "checks[2]")
    }

    fn weight(yaml: &str) -> Result<f64, String> {
        compiled(yaml, nim::ASSIGNMENT).map(|c| c.weight)
    }

    #[test]
    fn a_weight_is_one_by_default_and_any_number_from_zero_up() {
        assert_eq!(weight("{kind: exit}"), Ok(1.0));
        assert_eq!(weight("{kind: exit, weight: 0}"), Ok(0.0));
        assert_eq!(weight("{kind: exit, weight: 2.5}"), Ok(2.5));
        for bad in ["-1", "-0.5", ".inf", ".nan"] {
            assert_eq!(
                weight(&format!("{{kind: exit, name: end, weight: {bad}}}")),
                Err("check 'end': weight must be a number from 0 up".to_string()),
                "{bad}"
            );
        }
    }

    #[test]
    fn a_kind_the_assignment_does_not_have_is_named_with_the_kinds_it_has() {
        assert_eq!(
            compiled("{kind: strip_start, name: start}", nim::ASSIGNMENT).map(|c| c.name),
            Err(
                "checks[2]: check 'start' has kind 'strip_start', which nim does not have \
                 (its kinds: transcript, lines, board, contains, volume, interactive, \
                 sanitizer, exit)"
                    .to_string()
            )
        );
        // Unnamed, it is named by its kind alone; Silver Dollar lists its own kinds too.
        assert_eq!(
            compiled("{kind: stripz}", silver_dollar::ASSIGNMENT).map(|c| c.name),
            Err(
                "checks[2]: check has kind 'stripz', which silver_dollar does not have \
                 (its kinds: transcript, lines, board, contains, volume, interactive, \
                 sanitizer, exit, strip_start, strips, random_starts)"
                    .to_string()
            )
        );
    }

    #[test]
    fn a_registered_kind_is_the_one_named_and_its_errors_name_the_place_and_kind() {
        for (yaml, kind, name) in [
            ("{kind: strips, rule: \"moves left\"}", "strips", "strips"),
            (
                "{kind: strip_start, weight: 2}",
                "strip_start",
                "start-strip",
            ),
            (
                "{kind: random_starts, rule: uniform}",
                "random_starts",
                "uniform",
            ),
        ] {
            let check = compiled(yaml, silver_dollar::ASSIGNMENT).expect(yaml);
            assert_eq!((check.kind.name(), check.name.as_str()), (kind, name));
        }
        let strips = compiled(
            "{kind: strips, rule: \"moves left\"}",
            silver_dollar::ASSIGNMENT,
        )
        .expect("strips");
        assert_eq!(strips.rule.as_deref(), Some("moves left"));
        let start =
            compiled("{kind: strip_start, weight: 2}", silver_dollar::ASSIGNMENT).expect("start");
        assert_eq!(start.weight, 2.0);
        let e =
            compiled("{kind: strips, wieght: 1}", silver_dollar::ASSIGNMENT).expect_err("a typo");
        assert!(e.starts_with("checks[2] (strips): "), "{e}");
        assert!(e.contains("wieght"), "{e}");
    }

    #[test]
    fn generic_kinds_take_their_default_names_and_state_their_rule() {
        for (yaml, name) in [
            ("{kind: transcript}", "transcript"),
            ("{kind: board, cell: \"[0-9]\"}", "board"),
            ("{kind: contains, text: Winner}", "Winner"),
            ("{kind: volume}", "output-volume"),
            ("{kind: interactive}", "interactive"),
            ("{kind: sanitizer}", "sanitizer"),
            ("{kind: exit}", "exit"),
        ] {
            assert_eq!(
                compiled(yaml, nim::ASSIGNMENT).map(|c| c.name).as_deref(),
                Ok(name)
            );
        }
        let stated = compiled("{kind: exit, rule: \"ends with 0\"}", nim::ASSIGNMENT);
        assert_eq!(stated.map(|c| c.rule), Ok(Some("ends with 0".to_string())));
    }

    #[test]
    fn free_elsewhere_and_any_wording_need_their_companions() {
        let lines = |options: &str| {
            compiled(
                &format!("{{kind: lines, name: m, pattern: x, {options}}}"),
                nim::ASSIGNMENT,
            )
            .map(|c| c.name)
        };
        assert_eq!(
            lines("free_elsewhere: true"),
            Err("check 'm': free_elsewhere needs at_inputs: true".to_string())
        );
        assert!(lines("free_elsewhere: true, at_inputs: true").is_ok());
        let any_wording =
            Err("check 'm': any_wording needs at_inputs: true and compare: presence".to_string());
        assert_eq!(lines("any_wording: true"), any_wording);
        assert_eq!(lines("any_wording: true, compare: presence"), any_wording);
        assert_eq!(lines("any_wording: true, at_inputs: true"), any_wording);
        assert!(lines("any_wording: true, at_inputs: true, compare: presence").is_ok());
    }

    #[test]
    fn a_lines_check_ignores_case_and_calls_its_items_items_by_default() {
        let kind = |yaml: &str| compiled(yaml, nim::ASSIGNMENT).expect(yaml).kind;
        let CheckKind::Lines {
            rules, item, items, ..
        } = kind("{kind: lines, name: m, pattern: x}")
        else {
            panic!("a lines check");
        };
        assert!(rules.ignore_case);
        assert_eq!((item.as_str(), items.as_str()), ("item", "items"));
        let CheckKind::Lines {
            rules, item, items, ..
        } = kind("{kind: lines, name: m, pattern: x, ignore_case: false, item: turn}")
        else {
            panic!("a lines check");
        };
        assert!(!rules.ignore_case);
        assert_eq!((item.as_str(), items.as_str()), ("turn", "turns"));
    }

    #[test]
    fn a_board_cell_matches_a_whole_token_only() {
        let check = compiled(
            "{kind: board, cell: \"[0-9]\", empty: \"[._]\"}",
            nim::ASSIGNMENT,
        )
        .expect("board");
        let CheckKind::Board(spec) = check.kind else {
            panic!("a board check");
        };
        assert!(spec.cell.is_match("7") && !spec.cell.is_match("17"));
        let empty = spec.empty.expect("an empty pattern");
        assert!(empty.is_match("_") && !empty.is_match("a_"));
        let e = compiled("{kind: board, cell: \"(\"}", nim::ASSIGNMENT).expect_err("bad");
        assert!(e.starts_with("bad cell pattern: "), "{e}");
    }

    #[test]
    fn contains_needs_a_text_and_volume_a_ratio_from_one_up() {
        let kind = |yaml: &str| compiled(yaml, nim::ASSIGNMENT).map(|c| c.kind);
        for blank in ["\"\"", "\"  \""] {
            assert_eq!(
                kind(&format!("{{kind: contains, text: {blank}}}")).map(|k| k.name()),
                Err("a contains check needs a non-empty text".to_string())
            );
        }
        let ratio = |yaml: &str| match kind(yaml) {
            Ok(CheckKind::Volume { max_ratio }) => Ok(max_ratio),
            other => Err(format!("{other:?}")),
        };
        assert_eq!(ratio("{kind: volume}"), Ok(8.0));
        assert_eq!(ratio("{kind: volume, max_ratio: 1}"), Ok(1.0));
        for bad in ["0.99", ".inf", ".nan"] {
            let e = ratio(&format!("{{kind: volume, max_ratio: {bad}}}")).expect_err(bad);
            assert!(
                e.contains("a volume check's max_ratio must be a number from 1 up"),
                "{e}"
            );
        }
    }

    #[test]
    fn only_an_assignment_with_a_driver_drives_and_then_without_input() {
        let input = vec!["y".to_string()];
        let Ok(Driver::Script(lines)) = driver(nim::ASSIGNMENT, None, &input) else {
            panic!("a script");
        };
        assert_eq!(lines, input);
        let drive: yaml_serde::Value =
            yaml_serde::from_str("{coins: 3, strategy: smallest}").expect("yaml");
        assert_eq!(
            driver(nim::ASSIGNMENT, Some(&drive), &[]).map(|_| ()),
            Err("drive: nim has no driver".to_string())
        );
        assert_eq!(
            driver(silver_dollar::ASSIGNMENT, Some(&drive), &input).map(|_| ()),
            Err("drive: the driver types every line; leave out input".to_string())
        );
        assert!(matches!(
            driver(silver_dollar::ASSIGNMENT, Some(&drive), &[]),
            Ok(Driver::Strategy(_))
        ));
    }
}
