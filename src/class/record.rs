//! What a class's gradebook was graded with, written beside it (`OUTDIR/grading.json`), so
//! that `grade gradebook merge` can refuse parts graded differently: the options that change
//! scores, a keyed fingerprint of the course seed (never the seed), the sandbox layers that
//! were on, and which shard. gradebook.csv keeps the layout LMS imports read (docs/lms.md).

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::grade::GradeOptions;

/// The record's file name in a class's output directory (not hidden: an upload of the
/// directory, e.g. GitHub's upload-artifact, leaves hidden files out).
pub const RECORD_FILE: &str = "grading.json";

/// The record's schema name.
const SCHEMA: &str = "grade/grading/v1";

/// How one output directory's gradebook was graded.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// `SCHEMA`.
    pub schema: String,
    /// The grader's version.
    pub grade: String,
    /// The assignment.
    pub assignment: String,
    /// A digest of the cases and reference transcripts graded against.
    pub cases: String,
    /// The options that change scores, as given on the command line (`--strict`).
    pub options: Vec<String>,
    /// The course seed's keyed fingerprint ([`seed_fingerprint`]); none without a seed.
    pub course_seed: Option<String>,
    /// The sandbox layers that were on.
    pub sandbox_on: Vec<String>,
    /// The sandbox layers that were off.
    pub sandbox_off: Vec<String>,
    /// The shard graded (`2/3`); none for a whole class.
    pub shard: Option<String>,
    /// The machine it ran on (for people reading it; never compared).
    pub host: String,
}

/// The course seed's fingerprint: HMAC-SHA-256 keyed with the seed over a fixed label, cut to
/// 64 bits — equal for equal seeds on every machine, and no way back to the seed (short of
/// trying every seed, which a guessable seed never survives anyway).
pub fn seed_fingerprint(seed: u64) -> String {
    use hmac::{Hmac, Mac};
    // HMAC takes a key of any length, 8 bytes included.
    let Ok(mut mac) = Hmac::<sha2::Sha256>::new_from_slice(&seed.to_le_bytes()) else {
        unreachable!("HMAC accepts any key length")
    };
    mac.update(b"grade course-seed fingerprint\0");
    let digest = mac.finalize().into_bytes();
    let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    format!("hmac-sha256:{hex}")
}

/// The options of `options` that change what a student scores, as command-line flags.
fn scoring_options(options: &GradeOptions) -> Vec<String> {
    let mut flags = Vec::new();
    let mut flag = |on: bool, name: &str| {
        if on {
            flags.push(name.to_string());
        }
    };
    flag(options.strict, "--strict");
    flag(options.terminal, "--terminal");
    flag(options.robustness, "--robustness");
    flag(options.no_explore, "--no-explore");
    flag(options.no_sanitize, "--no-sanitize");
    if let Some(case) = &options.case_filter {
        flags.push(format!("--case {case}"));
    }
    if let Some(main) = &options.main {
        flags.push(format!("--main {main}"));
    }
    if options.limits != crate::run::LimitOverrides::default() {
        flags.push(format!("limits {:?}", options.limits));
    }
    if let Some(budget) = options.explore_budget {
        flags.push(format!("--explore-budget {budget:?}"));
    }
    flags
}

impl Record {
    /// The record of grading `assignment` with `options` here, against cases whose digest is
    /// `cases_digest`, with the course seed `seed` (the one in effect), as `shard`.
    pub fn new(
        assignment: &str,
        cases_digest: u64,
        options: &GradeOptions,
        seed: Option<u64>,
        shard: Option<super::Shard>,
    ) -> Record {
        let layers = crate::grade::sandbox_layers();
        let named = |on: bool| {
            layers
                .iter()
                .filter(|l| l.active == on)
                .map(|l| l.name.clone())
                .collect()
        };
        Record {
            schema: SCHEMA.to_string(),
            grade: env!("CARGO_PKG_VERSION").to_string(),
            assignment: assignment.to_string(),
            cases: format!("{cases_digest:016x}"),
            options: scoring_options(options),
            course_seed: seed.filter(|s| *s != 0).map(seed_fingerprint),
            sandbox_on: named(true),
            sandbox_off: named(false),
            shard: shard.map(|s| format!("{}/{}", s.index, s.count)),
            host: std::fs::read_to_string("/proc/sys/kernel/hostname")
                .map(|h| h.trim().to_string())
                .unwrap_or_default(),
        }
    }

    /// Writes the record into the output directory `dir`.
    pub fn write(&self, dir: &Path) -> anyhow::Result<()> {
        let path = dir.join(RECORD_FILE);
        let mut text = serde_json::to_string_pretty(self)?;
        text.push('\n');
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))
    }

    /// The record in the output directory `dir`; none when there is no record file.
    pub fn read(dir: &Path) -> anyhow::Result<Option<Record>> {
        let path = dir.join(RECORD_FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
        };
        let record: Record = serde_json::from_str(&text)
            .with_context(|| format!("{}: not a record written by grade", path.display()))?;
        Ok(Some(record))
    }

    /// The shard as (K, N), when one was graded.
    pub fn shard(&self) -> Option<(u64, u64)> {
        let (k, n) = self.shard.as_deref()?.split_once('/')?;
        Some((k.parse().ok()?, n.parse().ok()?))
    }

    /// What, of what changes scores, is graded differently from `other`: one phrase per
    /// difference (the grader's version, the cases, the options).
    pub fn option_differences(&self, other: &Record) -> Vec<String> {
        let mut found = Vec::new();
        if self.grade != other.grade {
            found.push(format!("grade {} (not {})", self.grade, other.grade));
        }
        if self.assignment != other.assignment {
            found.push(format!(
                "assignment {} (not {})",
                self.assignment, other.assignment
            ));
        } else if self.cases != other.cases {
            found.push("other case files or reference transcripts".to_string());
        }
        if self.options != other.options {
            let shown = |o: &[String]| {
                if o.is_empty() {
                    "no scoring options".to_string()
                } else {
                    o.join(" ")
                }
            };
            found.push(format!(
                "{} (not {})",
                shown(&self.options),
                shown(&other.options)
            ));
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_fingerprint_is_keyed_hmac_and_never_the_seed() {
        // HMAC-SHA-256, key = the seed's 8 little-endian bytes, message = the label: worked
        // with Python's hmac module (hmac.new((12345).to_bytes(8,'little'),
        // b'grade course-seed fingerprint\0', 'sha256').hexdigest()[:16]).
        let print = seed_fingerprint(12345);
        assert_eq!(print, "hmac-sha256:302b2149fb61fc0d");
        assert!(
            !print.contains("12345") && !print.contains("3039"),
            "{print}"
        );
        assert_eq!(print, seed_fingerprint(12345));
        assert_ne!(print, seed_fingerprint(12346));
    }
}
