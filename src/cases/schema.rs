//! The YAML schema of case files, exactly as written on disk (docs/case-format.md).
//!
//! Every struct denies unknown keys so that a typo in a case file is an error that names the
//! file, line and key instead of a silently ignored setting.

use std::collections::BTreeMap;

use serde::{Deserialize, Deserializer};

use crate::check::{Compare, Level};
use crate::results::Visibility;

/// `cases/NAME/assignment.yaml`: how the program is invoked and what every case shares.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AssignmentFile {
    /// The assignment name; must match the directory name.
    pub assignment: String,
    /// A human title for listings.
    #[serde(default)]
    pub title: Option<String>,
    /// Command-line arguments passed to the student's program (e.g. the board file).
    #[serde(default)]
    pub args: Vec<String>,
    /// Game arguments for the reference (as for `grade play`); defaults to `args`.
    #[serde(default)]
    pub reference_args: Option<Vec<String>>,
    /// Files placed in every case's working directory.
    #[serde(default)]
    pub files: BTreeMap<String, FileSpec>,
    /// Default limits for every case.
    #[serde(default)]
    pub limits: LimitsSpec,
    /// Default end-of-input behaviour.
    #[serde(default)]
    pub end_of_input: EndOfInputSpec,
    /// Run the students' programs under a pseudo-terminal in every case (random games too),
    /// as `grade --terminal` does; a case may say otherwise.
    #[serde(default)]
    pub terminal: bool,
    /// The checks every case runs unless it lists its own.
    pub checks: Vec<CheckSpec>,
    /// When given, the sum of all cases' points must equal it.
    #[serde(default)]
    pub total_points: Option<f64>,
    /// The Java class whose `main` runs a submission, as the handout names it; used when
    /// several classes declare `main`.
    #[serde(default)]
    pub java_main: Option<String>,
    /// Points of the handout's requirements on the code (docs/requirements.md), by name: a
    /// number reweights one, `false` switches it off; those not named keep their defaults.
    #[serde(default)]
    pub requirements: BTreeMap<String, RequirementSetting>,
    /// The handout's grading policy: when given, the total is its lines' points, each line
    /// counting one part of the grading (e.g. Submitted 1, Compiled 9, Output 90).
    #[serde(default)]
    pub rubric: Option<Vec<RubricLineSpec>>,
    /// The file that starts a submission, as the handout names it (`assignment3.py`); used
    /// when a submission holds several candidate files.
    #[serde(default)]
    pub main_file: Option<String>,
    /// The course seed of random-games cases: mixed into every `explore:` case's seed, so the
    /// games a class meets are unknown to students though the code is public (the
    /// `GRADE_COURSE_SEED` environment variable overrides it).
    #[serde(default)]
    pub seed: Option<u64>,
    /// The course's values of the numbers the handout invites changing (`matches: 25`);
    /// the cases' stored reference transcripts are recorded with them (docs/variants.md).
    #[serde(default)]
    pub parameters: BTreeMap<String, yaml_serde::Value>,
    /// Per-student variants: a list of parameter values, or values per parameter; each
    /// student gets one, picked by a stable hash of the course seed and their name.
    #[serde(default)]
    pub variants: Option<yaml_serde::Value>,
    /// An external assignment's reference program (docs/new-assignment.md): present only in
    /// an instructor's own assignment, whose transcripts `grade bless` records by running it.
    #[serde(default)]
    pub reference: Option<ReferenceProgramSpec>,
    /// An external assignment's input vocabulary: what `grade explore` may type.
    #[serde(default)]
    pub vocabulary: Option<VocabularySpec>,
}

/// `reference:` in an external assignment's assignment.yaml: the instructor's reference
/// program, built and run exactly as a student's submission is (and trusted no more).
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct ReferenceProgramSpec {
    /// The program, relative to the assignment's directory: a source file (`.py`, `.c`,
    /// `.cpp`, `.java`, …), a folder (a Makefile, `build.sh`, … is honoured) or an executable.
    pub program: String,
    /// The file or Java class that starts it, when a folder holds several (as `--main`).
    #[serde(default)]
    pub main: Option<String>,
    /// Limits of the reference's runs, field by field over the assignment's `limits`.
    #[serde(default)]
    pub limits: LimitsSpec,
}

/// `vocabulary:` in an external assignment's assignment.yaml: the input lines random games
/// draw from (`grade explore`, `explore:` cases). Each line of a game is drawn uniformly from
/// the `lines` and the `integers` ranges together.
#[derive(Debug, Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct VocabularySpec {
    /// Lines typed as written ("y", "quit", "1 2").
    #[serde(default)]
    pub lines: Vec<String>,
    /// Ranges of integers, each one choice: a number from `from` to `to` (inclusive).
    #[serde(default)]
    pub integers: Vec<IntegerRange>,
    /// Lines of a game at most (default 20); a game has 1 to this many.
    #[serde(default)]
    pub max_lines: Option<usize>,
}

/// An inclusive range of integers of a vocabulary.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct IntegerRange {
    /// The smallest number drawn.
    pub from: i64,
    /// The largest number drawn.
    pub to: i64,
}

/// A requirement's setting in assignment.yaml: its points, or `false` to switch it off.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq)]
#[serde(untagged)]
pub enum RequirementSetting {
    /// Points for the requirement (0 keeps it in the report with no points).
    Points(f64),
    /// `false` switches it off; `true` keeps its default points.
    Enabled(bool),
}

/// One line of a rubric.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct RubricLineSpec {
    /// The handout's name for the line ("Output").
    pub name: String,
    /// What it counts: submitted, compiled, cases or requirements.
    pub part: crate::results::RubricPart,
    /// Its points.
    pub points: f64,
}

/// `cases/NAME/CASE.yaml`: one test case.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaseFile {
    /// The case name; must match the file name without `.yaml`.
    pub name: String,
    /// Which handout rule the case tests, quoting the handout.
    pub description: String,
    /// Points for the case, shared among its checks by weight.
    pub points: f64,
    /// visible (default) or hidden.
    #[serde(default)]
    pub visibility: Visibility,
    /// Input lines, inline.
    #[serde(default)]
    pub input: Option<Vec<String>>,
    /// Input computed move by move from what the program prints, instead of `input`: read
    /// by the assignment's own driver (`AssignmentDef::driver`), which knows its fields.
    #[serde(default)]
    pub drive: Option<yaml_serde::Value>,
    /// Run the program this many times on `input` (for checks of randomness); default 1.
    #[serde(default)]
    pub samples: Option<usize>,
    /// Play random generated games instead of fixed input (`grade explore` inside grading):
    /// pass/fail, with the shrunk difference as feedback.
    #[serde(default)]
    pub explore: Option<ExploreSpec>,
    /// Input lines from a file next to the case file.
    #[serde(default)]
    pub input_file: Option<String>,
    /// Files placed in the working directory (added to the assignment's).
    #[serde(default)]
    pub files: BTreeMap<String, FileSpec>,
    /// Arguments for the student's program, replacing the assignment's.
    #[serde(default)]
    pub args: Option<Vec<String>>,
    /// Game arguments for the reference, replacing the assignment's.
    #[serde(default)]
    pub reference_args: Option<Vec<String>>,
    /// Limits, overriding the assignment's field by field.
    #[serde(default)]
    pub limits: LimitsSpec,
    /// stop (default) or close.
    #[serde(default)]
    pub end_of_input: Option<EndOfInputSpec>,
    /// Run the student's program under a pseudo-terminal (default: assignment.yaml's).
    #[serde(default)]
    pub terminal: Option<bool>,
    /// Checks replacing the assignment's default checks.
    #[serde(default)]
    pub checks: Option<Vec<CheckSpec>>,
    /// Checks added to the default (or given) checks.
    #[serde(default)]
    pub extra_checks: Vec<CheckSpec>,
    /// Marks a robustness case: input where handout-following programs may differ, few points.
    /// Robustness cases run only with `--robustness`.
    #[serde(default)]
    pub robustness: bool,
    /// connect6: run the program rebuilt with its board-size constant (N = 19) set to this
    /// size, against the reference's `--size` (give it in `reference_args`).
    #[serde(default)]
    pub board_size: Option<usize>,
}

/// `explore:` — random games played on the program during grading.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ExploreSpec {
    /// Games to play.
    pub games: usize,
    /// Seed of the first game (default 1), mixed with the course seed.
    #[serde(default = "one")]
    pub seed: u64,
    /// How the games are scored: the share that agree (default), or each check all or
    /// nothing over every game.
    #[serde(default)]
    pub scoring: ExploreScoring,
    /// The course seed (assignment.yaml's `seed`), filled in when the cases are loaded.
    #[serde(skip)]
    pub course_seed: Option<u64>,
}

/// How a random-games case turns its games into points.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum ExploreScoring {
    /// The case's points times the share of games in which every check agrees.
    #[default]
    Share,
    /// Each check earns its weight's share of the points only if it agrees in every game
    /// ("all or nothing per rule").
    PerCheck,
    /// The whole case passes only if every game agrees.
    All,
}

fn one() -> u64 {
    1
}

impl GenericCheckSpec {
    /// Every generic kind's `kind:` (the variants' names, as serde reads them).
    pub const KINDS: &'static [&'static str] = &[
        "transcript",
        "lines",
        "board",
        "contains",
        "volume",
        "interactive",
        "sanitizer",
        "exit",
    ];

    /// The handout's rule the check states (`rule:`), if it states one.
    pub fn stated_rule(&self) -> Option<&str> {
        match self {
            GenericCheckSpec::Transcript { rule, .. }
            | GenericCheckSpec::Lines { rule, .. }
            | GenericCheckSpec::Board { rule, .. }
            | GenericCheckSpec::Contains { rule, .. }
            | GenericCheckSpec::Volume { rule, .. }
            | GenericCheckSpec::Interactive { rule, .. }
            | GenericCheckSpec::Sanitizer { rule, .. }
            | GenericCheckSpec::Exit { rule, .. } => rule.as_deref(),
        }
    }
}

/// One check as written in YAML: `kind` says whether it is one of the kinds every assignment
/// has ([`GenericCheckSpec::KINDS`]) or one its assignment registers, read when the case is
/// compiled for that assignment ([`crate::check::custom::CheckKindDef`]).
#[derive(Debug)]
pub enum CheckSpec {
    /// A kind every assignment has.
    Generic(GenericCheckSpec),
    /// Any other kind: its name and its keys but `kind`, for the assignment's registered
    /// kinds to read.
    Registered {
        /// Its `kind:`.
        kind: String,
        /// Every other key.
        fields: yaml_serde::Value,
    },
}

impl<'de> Deserialize<'de> for CheckSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut value = yaml_serde::Value::deserialize(deserializer)?;
        // A kind written as a number or a boolean is no kind either: named as written.
        let registered = match value.get("kind") {
            Some(yaml_serde::Value::String(kind)) => Some(kind.clone()),
            Some(yaml_serde::Value::Number(kind)) => Some(kind.to_string()),
            Some(yaml_serde::Value::Bool(kind)) => Some(kind.to_string()),
            _ => None,
        }
        .filter(|kind| !GenericCheckSpec::KINDS.contains(&kind.as_str()));
        match (registered, value.as_mapping_mut()) {
            (Some(kind), Some(fields)) => {
                fields.remove("kind");
                Ok(CheckSpec::Registered {
                    kind,
                    fields: value,
                })
            }
            _ => GenericCheckSpec::deserialize(value)
                .map(CheckSpec::Generic)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// A file's content: inline text, or `{from: path}` relative to the case file's directory.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum FileSpec {
    /// The content itself.
    Inline(String),
    /// Content read from another file of the case directory.
    From {
        /// Path relative to the case file's directory.
        from: String,
    },
}

/// Limits as written in YAML; absent fields fall back to the assignment's, then the defaults.
#[derive(Debug, Default, Deserialize, Clone, Copy)]
#[serde(deny_unknown_fields)]
pub struct LimitsSpec {
    /// Wall-clock seconds.
    pub wall_seconds: Option<f64>,
    /// CPU seconds.
    pub cpu_seconds: Option<f64>,
    /// Memory in MiB.
    pub memory_mb: Option<u64>,
    /// Output in KiB.
    pub output_kb: Option<u64>,
    /// Processes and threads.
    pub processes: Option<u32>,
}

/// What happens when the program wants more input than the script holds.
#[derive(Debug, Default, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum EndOfInputSpec {
    /// Stop the program (the case ends mid-game).
    #[default]
    Stop,
    /// Close stdin and let the program react to end of input.
    Close,
}

/// One check of a kind every assignment has, as written in YAML; `kind` selects the variant.
#[derive(Debug, Deserialize)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    deny_unknown_fields,
    expecting = "a check (a mapping with a `kind`)"
)]
pub enum GenericCheckSpec {
    /// The whole output under the normalization ladder.
    Transcript {
        /// Check name (defaults to the kind).
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
        /// The loosest level that still passes (default whitespace).
        level: Option<Level>,
    },
    /// The sequence of pattern matches in the output.
    Lines {
        /// Check name (required: a case may have several).
        name: String,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
        /// A regular expression; with capture groups, the groups form the item.
        pattern: String,
        /// Compare only the integers in each item.
        #[serde(default)]
        numbers: bool,
        /// Compare without regard to capitalisation (default true).
        ignore_case: Option<bool>,
        /// Compare without punctuation (default false).
        #[serde(default)]
        ignore_punctuation: bool,
        /// Collapse consecutive equal items on both sides, so a redraw after an invalid
        /// input does not count (default false).
        #[serde(default)]
        dedup: bool,
        /// What must agree: the sequence of items (default), only their count, or only
        /// whether there is any.
        #[serde(default)]
        compare: Compare,
        /// The student may print none of these items at all (e.g. a result line the handout
        /// does not require); if it prints any, they must agree (default false).
        #[serde(default)]
        optional: bool,
        /// Compare one item per input instead: the last match printed since the previous
        /// input (the prompt that asked for it, or the message that answered it), so a message
        /// counts only at its place in the game (default false).
        #[serde(default)]
        at_inputs: bool,
        /// With `at_inputs`: only the places where the reference has a match are compared;
        /// elsewhere the program may print anything (a prompt that names the range looks like
        /// an error message) (default false).
        #[serde(default)]
        free_elsewhere: bool,
        /// With `at_inputs` and `compare: presence`, for a message whose wording the handout
        /// leaves free: the pattern only finds where the reference prints its message; there,
        /// any line the program prints that is not part of its ordinary output after accepted
        /// inputs (its prompt, board, score line, learned from the same run) counts, in any
        /// words or language, and a silent re-prompt does not (default false).
        #[serde(default)]
        any_wording: bool,
        /// Its items show that a game is being played (turns, matches, moves, scores): when a
        /// case has such checks and the program prints none of their items after a move (see
        /// `check::view::after_a_move`), its other checks (messages, the ending) earn nothing
        /// (default false).
        #[serde(default)]
        game: bool,
        /// What one item is called in feedback, in the game's own words ("turn", "computer
        /// move", "score line"); default "item". A report then says "turn 3 is …" and "found
        /// 2 turns", never "match" for a matching line.
        item: Option<String>,
        /// What several are called (default: `item` with an "s").
        items: Option<String>,
    },
    /// The sequence of boards printed, cell by cell.
    Board {
        /// Check name (defaults to "board").
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
        /// A regular expression for one filled cell (e.g. `[0-9]`, `[BW]`).
        cell: String,
        /// A regular expression for a token that means an empty cell (e.g. "[._]").
        empty: Option<String>,
        /// Strip row numbers and column-letter header lines (default false).
        #[serde(default)]
        labels: bool,
        /// The student may skip the first board the reference prints (default false).
        #[serde(default)]
        first_optional: bool,
        /// The boards show that a game is being played (see `lines`'s `game`) (default false).
        #[serde(default)]
        game: bool,
    },
    /// How often a message appears, compared with the reference.
    Contains {
        /// Check name (defaults to the text).
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
        /// The message (matched ignoring case, punctuation and spacing unless `exact`).
        text: String,
        /// Match the text exactly as written (default false).
        #[serde(default)]
        exact: bool,
        /// Only presence matters, not the number of times (default false).
        #[serde(default)]
        presence_only: bool,
    },
    /// How much the program printed: at most `max_ratio` times the reference's output (in
    /// visible characters, plus a small allowance), so pages of junk around a correct game
    /// cost points while a greeting, blank lines or a farewell never do.
    Volume {
        /// Check name (defaults to "output-volume").
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
        /// How many times the reference's visible characters the program may print
        /// (default 8).
        max_ratio: Option<f64>,
    },
    /// Whether the program can be played at a terminal: it prints as it plays, rather than
    /// reading all its input before printing anything (`sys.stdin.read()`,
    /// `fs.readFileSync(0)`). Such a program is graded on what it prints either way; weight
    /// this check to make reading everything first cost points.
    Interactive {
        /// Check name (defaults to "interactive").
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
    },
    /// C and C++: the program run again built with AddressSanitizer and UBSan shows no
    /// memory error or undefined behaviour (docs/sanitizers.md). Not applicable to other
    /// languages or with `--no-sanitize`.
    Sanitizer {
        /// Check name (defaults to "sanitizer").
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
    },
    /// Whether the program ended when the reference did (and not before).
    Exit {
        /// Check name (defaults to "exit").
        name: Option<String>,
        /// Share of the case's points (default 1; 0 makes the check informational).
        weight: Option<f64>,
        /// The handout's rule this check enforces, quoted: a report gives it as the rule a
        /// lost case breaks when this check shows the first difference (default: the case's
        /// description).
        rule: Option<String>,
        /// Also require exit status 0 when the game ended (default false).
        #[serde(default)]
        code: bool,
    },
}

/// A problem with a case file, naming the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseError {
    /// The file (a path, or `built-in:cases/…` for embedded files).
    pub file: String,
    /// What is wrong, with line and column when known.
    pub message: String,
}

impl std::error::Error for CaseError {}

impl std::fmt::Display for CaseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// `spec`'s limits over `base`, field by field; or which field is out of range. The ranges
/// are the command line's (run::limits), so a case file and a flag accept the same values.
pub(crate) fn merge_limits(
    base: crate::run::Limits,
    spec: &LimitsSpec,
) -> Result<crate::run::Limits, String> {
    use crate::run::limits as range;
    fn field<T: Copy, U>(
        value: Option<T>,
        default: U,
        key: &str,
        in_range: impl Fn(T) -> Result<U, String>,
    ) -> Result<U, String> {
        value.map_or(Ok(default), |v| {
            in_range(v).map_err(|e| format!("limits.{key}: {e}"))
        })
    }
    Ok(crate::run::Limits {
        wall: field(
            spec.wall_seconds,
            base.wall,
            "wall_seconds",
            range::seconds_in_range,
        )?,
        cpu: field(
            spec.cpu_seconds,
            base.cpu,
            "cpu_seconds",
            range::seconds_in_range,
        )?,
        memory_bytes: field(
            spec.memory_mb,
            base.memory_bytes,
            "memory_mb",
            range::memory_mib_in_range,
        )?,
        output_bytes: field(
            spec.output_kb,
            base.output_bytes,
            "output_kb",
            range::output_kib_in_range,
        )?,
        processes: field(
            spec.processes,
            base.processes,
            "processes",
            range::processes_in_range,
        )?,
        sanitized: base.sanitized,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Limits;
    use std::time::Duration;

    #[test]
    fn the_generic_kinds_listed_are_the_variants_serde_reads() {
        // serde lists every variant when it meets an unknown one.
        let error = yaml_serde::from_str::<GenericCheckSpec>("kind: none\n").expect_err("none");
        let listed = error.to_string();
        let expected: Vec<String> = GenericCheckSpec::KINDS
            .iter()
            .map(|kind| format!("`{kind}`"))
            .collect();
        assert!(
            listed.contains(&format!("expected one of {}", expected.join(", "))),
            "{listed}"
        );
    }

    #[test]
    fn a_kind_no_assignment_has_here_keeps_its_keys_for_the_assignment() {
        let specs: Vec<CheckSpec> =
            yaml_serde::from_str("- {kind: strips, weight: 3}\n- {kind: exit, code: true}\n")
                .expect("checks");
        let [CheckSpec::Registered { kind, fields }, CheckSpec::Generic(GenericCheckSpec::Exit { code: true, .. })] =
            &specs[..]
        else {
            panic!("{specs:?}");
        };
        assert_eq!(kind, "strips");
        let error = yaml_serde::from_str::<Vec<CheckSpec>>("- 3\n").expect_err("no mapping");
        assert!(
            error
                .to_string()
                .contains("expected a check (a mapping with a `kind`)"),
            "{error}"
        );
        assert_eq!(
            fields,
            &yaml_serde::from_str::<yaml_serde::Value>("weight: 3").expect("yaml")
        );
    }

    #[test]
    fn limits_out_of_range_name_their_key_and_the_largest_are_taken() {
        let spec = |yaml: &str| -> LimitsSpec { yaml_serde::from_str(yaml).expect("yaml") };
        let merged = merge_limits(
            Limits::default(),
            &spec(
                "memory_mb: 1048576\noutput_kb: 4194304\nprocesses: 4294967295\nwall_seconds: 3600",
            ),
        )
        .expect("the largest values");
        assert_eq!(merged.memory_bytes, 1 << 40);
        assert_eq!(merged.output_bytes, 1 << 32);
        assert_eq!(merged.processes, u32::MAX);
        assert_eq!(merged.wall, Duration::from_secs(3600));
        for (yaml, key) in [
            ("memory_mb: 1048577", "limits.memory_mb: 1048577 "),
            (
                "memory_mb: 17592186044416",
                "limits.memory_mb: 17592186044416 ",
            ),
            ("memory_mb: 0", "limits.memory_mb: 0 "),
            ("output_kb: 4194305", "limits.output_kb: 4194305 "),
            ("output_kb: 0", "limits.output_kb: 0 "),
            ("processes: 0", "limits.processes: 0 "),
            ("cpu_seconds: 3601", "limits.cpu_seconds: 3601 "),
        ] {
            let error = merge_limits(Limits::default(), &spec(yaml)).expect_err(yaml);
            assert!(error.starts_with(key), "{yaml}: {error}");
        }
    }
}
