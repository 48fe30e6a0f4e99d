//! Variants: the numbers a handout invites a course to change (nim's 25 matches instead of 21,
//! connect6's board side N), for the whole course (`parameters:` in assignment.yaml) or for
//! each student (`variants:`, one picked by a stable hash of the course seed and the student's
//! name). A variant is a set of game arguments for the reference game (`--matches 25`);
//! the student's program is written for the values it was given and receives none of them.
//!
//! See docs/variants.md for the YAML, the pick and a worked example.

use std::collections::BTreeMap;

use crate::assignments::{Assignment, Parameter};
use crate::games::SplitMix64;
use crate::keys::stable_hash;

/// The most variants a `variants:` block may describe (the product of its ranges).
pub const MAX_VARIANTS: usize = 10_000;

/// Values for some of an assignment's parameters; the others keep the handout's values.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Variant(pub BTreeMap<String, u32>);

impl Variant {
    /// The variant with every parameter at its handout value.
    pub fn handout() -> Variant {
        Variant::default()
    }

    /// `self` with the values of `over` replacing its own.
    pub fn merged(&self, over: &Variant) -> Variant {
        let mut values = self.0.clone();
        values.extend(over.0.iter().map(|(k, v)| (k.clone(), *v)));
        Variant(values)
    }

    /// The values that differ from the handout's, dropping the others: two variants that
    /// play the same game compare equal.
    pub fn normalized(&self, assignment: Assignment) -> Variant {
        Variant(
            self.0
                .iter()
                .filter(|(name, value)| {
                    parameter(assignment, name).is_none_or(|p| p.handout != **value)
                })
                .map(|(k, v)| (k.clone(), *v))
                .collect(),
        )
    }

    /// Every parameter of `assignment` with its value in this variant, for reports.
    pub fn values(&self, assignment: Assignment) -> BTreeMap<String, u32> {
        assignment
            .def()
            .parameters
            .iter()
            .map(|p| {
                (
                    p.name.to_string(),
                    self.0.get(p.name).copied().unwrap_or(p.handout),
                )
            })
            .collect()
    }

    /// `matches=25` (several joined by `,`), or `handout` when nothing differs.
    pub fn label(&self, assignment: Assignment) -> String {
        let changed = self.normalized(assignment);
        if changed.0.is_empty() {
            return "handout".to_string();
        }
        changed
            .0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Parses `matches=25` or `size=15,…` as typed after `--variant`, checked against the
    /// assignment's parameters; `handout` is the handout's values.
    pub fn parse(assignment: Assignment, text: &str) -> Result<Variant, String> {
        let mut values = BTreeMap::new();
        if text.trim() == "handout" {
            return Ok(Variant::handout());
        }
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!(
                    "'{part}' should be NAME=VALUE (e.g. {})",
                    example(assignment)
                ));
            };
            let parameter = known(assignment, name.trim())?;
            let value = value.trim().parse::<u32>().map_err(|_| {
                format!(
                    "{}: '{}' is not a whole number",
                    parameter.name,
                    value.trim()
                )
            })?;
            values.insert(parameter.name.to_string(), in_range(parameter, value)?);
        }
        Ok(Variant(values))
    }

    /// The reference game's arguments for a case: the case's own, plus each parameter of this
    /// variant that differs from the handout and that the case does not already set
    /// (a connect6 `board_size:` case keeps its own size).
    pub fn reference_args(&self, assignment: Assignment, case_args: &[String]) -> Vec<String> {
        let mut args = case_args.to_vec();
        for (name, value) in &self.normalized(assignment).0 {
            if let Some(parameter) = parameter(assignment, name) {
                if !case_args.iter().any(|a| a == parameter.flag) {
                    args.push(parameter.flag.to_string());
                    args.push(value.to_string());
                }
            }
        }
        args
    }
}

fn parameter(assignment: Assignment, name: &str) -> Option<&'static Parameter> {
    assignment.def().parameters.iter().find(|p| p.name == name)
}

fn example(assignment: Assignment) -> String {
    assignment.def().parameters.first().map_or_else(
        || "NAME=VALUE".to_string(),
        |p| format!("{}={}", p.name, p.handout),
    )
}

fn known(assignment: Assignment, name: &str) -> Result<&'static Parameter, String> {
    parameter(assignment, name).ok_or_else(|| {
        let names: Vec<String> = assignment
            .def()
            .parameters
            .iter()
            .map(|p| format!("{} ({}, handout {})", p.name, p.about, p.handout))
            .collect();
        if names.is_empty() {
            format!("{assignment} has no parameters a course may change (got '{name}')")
        } else {
            format!(
                "{assignment} has no parameter '{name}'; it has: {}",
                names.join("; ")
            )
        }
    })
}

fn in_range(parameter: &Parameter, value: u32) -> Result<u32, String> {
    if (parameter.min..=parameter.max).contains(&value) {
        Ok(value)
    } else {
        Err(format!(
            "{}: {value} is not from {} to {}",
            parameter.name, parameter.min, parameter.max
        ))
    }
}

fn whole_number(parameter: &Parameter, value: &yaml_serde::Value) -> Result<u32, String> {
    value
        .as_u64()
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| {
            format!(
                "{}: expected a whole number, got {}",
                parameter.name,
                describe(value)
            )
        })
        .and_then(|v| in_range(parameter, v))
}

fn describe(value: &yaml_serde::Value) -> String {
    yaml_serde::to_string(value).map_or_else(|_| "?".into(), |t| t.trim().to_string())
}

/// The `parameters:` block of assignment.yaml: one value per parameter name.
pub fn parameters_from_yaml(
    assignment: Assignment,
    block: &BTreeMap<String, yaml_serde::Value>,
) -> Result<Variant, String> {
    let mut values = BTreeMap::new();
    for (name, value) in block {
        let parameter = known(assignment, name).map_err(|e| format!("parameters: {e}"))?;
        let value = whole_number(parameter, value).map_err(|e| format!("parameters.{e}"))?;
        values.insert(parameter.name.to_string(), value);
    }
    Ok(Variant(values))
}

/// The values one `variants:` entry gives a parameter: a number, a list of numbers, or a
/// range `{from: 17, to: 33, step: 4}`.
fn values_of(parameter: &Parameter, value: &yaml_serde::Value) -> Result<Vec<u32>, String> {
    use yaml_serde::Value;
    match value {
        Value::Sequence(items) if items.is_empty() => {
            Err(format!("{}: an empty list of values", parameter.name))
        }
        Value::Sequence(items) => items.iter().map(|v| whole_number(parameter, v)).collect(),
        Value::Mapping(map) => {
            let field = |key: &str| map.get(Value::String(key.to_string()));
            for key in map.keys() {
                if !matches!(key.as_str(), Some("from" | "to" | "step")) {
                    return Err(format!(
                        "{}: a range has from, to and step (got {})",
                        parameter.name,
                        describe(key)
                    ));
                }
            }
            let (Some(from), Some(to)) = (field("from"), field("to")) else {
                return Err(format!(
                    "{}: a range needs from and to (e.g. {{from: 17, to: 33, step: 4}})",
                    parameter.name
                ));
            };
            let (from, to) = (whole_number(parameter, from)?, whole_number(parameter, to)?);
            let step = match field("step") {
                None => 1,
                Some(step) => step
                    .as_u64()
                    .and_then(|s| u32::try_from(s).ok())
                    .filter(|s| *s > 0)
                    .ok_or_else(|| {
                        format!("{}: step must be a whole number above 0", parameter.name)
                    })?,
            };
            if from > to {
                return Err(format!("{}: from {from} is above to {to}", parameter.name));
            }
            Ok((from..=to).step_by(step as usize).collect())
        }
        single => whole_number(parameter, single).map(|v| vec![v]),
    }
}

/// The `variants:` block of assignment.yaml, each variant over `base` (the `parameters:`):
/// a list of variants (`- {matches: 21}`), or values per parameter (`matches: [21, 25, 29]`
/// or a range), every combination one variant. Duplicates are kept out; order is the file's
/// (a list) or ascending values (per parameter).
pub fn variants_from_yaml(
    assignment: Assignment,
    base: &Variant,
    block: &yaml_serde::Value,
) -> Result<Vec<Variant>, String> {
    use yaml_serde::Value;
    let error = |e: String| format!("variants: {e}");
    let mut variants: Vec<Variant> = Vec::new();
    match block {
        Value::Sequence(entries) => {
            for entry in entries {
                let Value::Mapping(map) = entry else {
                    return Err(error(format!(
                        "each variant is a map of parameter values (e.g. {{{}}}), got {}",
                        example(assignment).replace('=', ": "),
                        describe(entry)
                    )));
                };
                let mut values = BTreeMap::new();
                for (name, value) in map {
                    let name = name.as_str().unwrap_or_default();
                    let parameter = known(assignment, name).map_err(error)?;
                    values.insert(
                        parameter.name.to_string(),
                        whole_number(parameter, value).map_err(error)?,
                    );
                }
                variants.push(base.merged(&Variant(values)));
            }
        }
        Value::Mapping(map) => {
            variants.push(base.clone());
            for (name, value) in map {
                let name = name.as_str().unwrap_or_default();
                let parameter = known(assignment, name).map_err(error)?;
                let values = values_of(parameter, value).map_err(error)?;
                let mut next = Vec::new();
                for variant in &variants {
                    for value in &values {
                        let mut one = variant.clone();
                        one.0.insert(parameter.name.to_string(), *value);
                        next.push(one);
                    }
                    if next.len() > MAX_VARIANTS {
                        return Err(error(format!(
                            "more than {MAX_VARIANTS} variants; give fewer values"
                        )));
                    }
                }
                variants = next;
            }
        }
        other => {
            return Err(error(format!(
                "expected a list of variants or values per parameter, got {}",
                describe(other)
            )))
        }
    }
    let mut unique: Vec<Variant> = Vec::new();
    for variant in variants {
        let variant = variant.normalized(assignment);
        if !unique.contains(&variant) {
            unique.push(variant);
        }
    }
    if unique.is_empty() {
        return Err(error("no variants listed".into()));
    }
    if unique.len() > MAX_VARIANTS {
        return Err(error(format!(
            "more than {MAX_VARIANTS} variants; give fewer values"
        )));
    }
    Ok(unique)
}

/// Which of `count` variants a student gets: a stable hash (FNV-1a 64, then one SplitMix64
/// step) of the course seed's 8 little-endian bytes followed by the student's name, modulo
/// `count`. The same on every machine, run and Rust version; docs/variants.md works it by hand.
pub fn pick(seed: u64, student: &str, count: usize) -> usize {
    if count <= 1 {
        return 0;
    }
    let hash = stable_hash(student.as_bytes(), stable_hash(&seed.to_le_bytes(), 0));
    let mixed = SplitMix64::new(hash).next_u64();
    (mixed % count as u64) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignments::{connect6, m, nim};

    fn yaml(text: &str) -> yaml_serde::Value {
        yaml_serde::from_str(text).expect("yaml")
    }

    #[test]
    fn parameters_are_read_and_checked() {
        let block: BTreeMap<String, yaml_serde::Value> =
            yaml_serde::from_str("matches: 25").expect("yaml");
        let variant = parameters_from_yaml(nim::ASSIGNMENT, &block).expect("valid");
        assert_eq!(variant.label(nim::ASSIGNMENT), "matches=25");
        assert_eq!(
            variant.reference_args(nim::ASSIGNMENT, &[]),
            ["--matches", "25"]
        );
        for (text, expected) in [
            ("matches: 1", "matches: 1 is not from 2 to 200"),
            ("matches: abc", "expected a whole number, got abc"),
            ("matches: -3", "expected a whole number"),
            ("size: 15", "nim has no parameter 'size'; it has: matches"),
        ] {
            let block: BTreeMap<String, yaml_serde::Value> =
                yaml_serde::from_str(text).expect("yaml");
            let error = parameters_from_yaml(nim::ASSIGNMENT, &block).expect_err(text);
            assert!(error.contains(expected), "{text}: {error}");
        }
        let block: BTreeMap<String, yaml_serde::Value> =
            yaml_serde::from_str("rounds: 3").expect("yaml");
        let error = parameters_from_yaml(m::ASSIGNMENT, &block).expect_err("m has none");
        assert!(error.contains("m has no parameters"), "{error}");
    }

    #[test]
    fn handout_values_leave_the_reference_untouched() {
        let handout = Variant::parse(nim::ASSIGNMENT, "matches=21").expect("valid");
        assert_eq!(handout.label(nim::ASSIGNMENT), "handout");
        assert!(handout.reference_args(nim::ASSIGNMENT, &[]).is_empty());
        assert_eq!(
            handout.values(nim::ASSIGNMENT),
            BTreeMap::from([("matches".to_string(), 21)])
        );
    }

    #[test]
    fn a_case_that_sets_the_size_keeps_it() {
        let variant = Variant::parse(connect6::ASSIGNMENT, "size=15").expect("valid");
        let own = ["--size".to_string(), "10".to_string()];
        assert_eq!(variant.reference_args(connect6::ASSIGNMENT, &own), own);
        assert_eq!(
            variant.reference_args(connect6::ASSIGNMENT, &[]),
            ["--size", "15"]
        );
        assert!(Variant::parse(connect6::ASSIGNMENT, "size=27").is_err());
        assert!(Variant::parse(connect6::ASSIGNMENT, "size").is_err());
    }

    #[test]
    fn variants_as_a_list_a_product_and_a_range() {
        let base = Variant::handout();
        let listed = variants_from_yaml(
            nim::ASSIGNMENT,
            &base,
            &yaml("[{matches: 21}, {matches: 25}, {matches: 25}]"),
        )
        .expect("valid");
        let labels: Vec<String> = listed.iter().map(|v| v.label(nim::ASSIGNMENT)).collect();
        assert_eq!(labels, ["handout", "matches=25"]);
        let ranged = variants_from_yaml(
            nim::ASSIGNMENT,
            &base,
            &yaml("matches: {from: 17, to: 29, step: 4}"),
        )
        .expect("valid");
        let labels: Vec<String> = ranged.iter().map(|v| v.label(nim::ASSIGNMENT)).collect();
        assert_eq!(
            labels,
            ["matches=17", "handout", "matches=25", "matches=29"]
        );
        let sizes = variants_from_yaml(connect6::ASSIGNMENT, &base, &yaml("size: [15, 17, 19]"))
            .expect("valid");
        assert_eq!(sizes.len(), 3);
        for (text, expected) in [
            ("matches: {from: 30, to: 20}", "from 30 is above to 20"),
            ("matches: {from: 3}", "needs from and to"),
            ("matches: {from: 3, to: 9, by: 2}", "from, to and step"),
            ("matches: []", "empty list"),
            ("[25]", "each variant is a map"),
            ("seventeen", "expected a list of variants"),
            ("matches: {from: 2, to: 200, step: 0}", "step must be"),
        ] {
            let error = variants_from_yaml(nim::ASSIGNMENT, &base, &yaml(text)).expect_err(text);
            assert!(error.contains(expected), "{text}: {error}");
        }
    }

    #[test]
    fn the_pick_is_stable_and_spreads_students() {
        // Worked by hand in docs/variants.md (FNV-1a 64 over the seed's bytes then the name,
        // one SplitMix64 step, modulo the count).
        assert_eq!(pick(7, "alice", 2), 1);
        assert_eq!(pick(7, "bob", 2), 0);
        assert_eq!(pick(2, "alice", 3), 0);
        assert_eq!(pick(2, "bob", 3), 2);
        assert_eq!(pick(2, "carol", 3), 1);
        assert_eq!(pick(7, "alice", 1), 0);
        assert_eq!(pick(7, "alice", 3), pick(7, "alice", 3));
        let mut seen = [0usize; 4];
        for n in 0..400 {
            seen[pick(11, &format!("student{n}"), 4)] += 1;
        }
        assert!(seen.iter().all(|&k| k > 60), "{seen:?}");
    }
}
