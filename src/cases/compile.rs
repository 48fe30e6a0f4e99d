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
