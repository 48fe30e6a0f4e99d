//! The results of grading: what each check found, per case and in total.
//!
//! This is the one input every report format reads (`report/`), and its serde form is the
//! stable JSON report documented in docs/report-format.md.

use serde::Serialize;

// Every type here reads back from its JSON (a class's stored results, read again for the
// class page, are redacted with the same code as a fresh result: `report::for_students`).

/// Whether a case's input and expected output may be shown to the student.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Visibility {
    /// Input, expected output and differences are shown.
    #[default]
    Visible,
    /// Run and scored; only pass/fail and points are shown.
    Hidden,
}

/// The overall state of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseStatus {
    /// Every check passed.
    Passed,
    /// Some check lost points.
    Failed,
    /// The case could not be run at all (build failure, runner error).
    Error,
}

/// How the student's program ended, in the report's vocabulary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ended {
    /// Exited by itself.
    Exit,
    /// Killed by a signal not sent by the grader.
    Signal,
    /// Wall-clock limit.
    Timeout,
    /// CPU-time limit.
    CpuLimit,
    /// Memory limit.
    MemoryLimit,
    /// Output limit.
    OutputLimit,
    /// Asked for input after the script ended, and was stopped.
    WaitingForInput,
    /// Stopped as blocked: neither reading input nor computing for seconds, or sleeping
    /// more than a run may.
    Blocked,
    /// The submission did not build, so nothing ran.
    BuildFailed,
}

impl Ended {
    /// A short phrase for text reports.
    pub fn describe(self) -> &'static str {
        match self {
            Ended::Exit => "exited",
            Ended::Signal => "killed by a signal",
            Ended::Timeout => "timed out",
            Ended::CpuLimit => "ran out of CPU time",
            Ended::MemoryLimit => "ran out of memory",
            Ended::OutputLimit => "printed too much output",
            Ended::WaitingForInput => "was waiting for more input (stopped)",
            Ended::Blocked => "was blocked: neither reading input nor computing (stopped)",
            Ended::BuildFailed => "did not build",
        }
    }
}

/// What the runner reports about one run of the student's program.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RunSummary {
    /// How it ended.
    pub ended: Ended,
    /// Exit status when it exited by itself.
    pub exit_code: Option<i32>,
    /// Signal number when it was killed by a signal.
    pub signal: Option<i32>,
    /// Wall time in milliseconds.
    pub wall_ms: u64,
    /// Time the program slept, in milliseconds: sleeps cut short (at the length asked for)
    /// and idle time, neither counted toward the wall limit. Absent when 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub slept_ms: u64,
    /// CPU time in milliseconds.
    pub cpu_ms: u64,
    /// Peak memory in KiB, when known.
    pub peak_memory_kib: Option<u64>,
    /// Set when `peak_memory_kib` is not the whole run's: without a cgroup only the largest
    /// single process's peak is known, and this says so.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub peak_memory_note: Option<String>,
    /// Input lines never read because the program ended first.
    pub unread_inputs: usize,
    /// True when prompts only appeared after the program had read its input.
    pub prompts_late: bool,
    /// True when output was cut at the output limit.
    pub output_truncated: bool,
    /// How input requests were detected ("seccomp", "proc-polling", "quiescence").
    pub detection: String,
    /// Set on a hidden case's run in a student's view ([`RunSummary::withheld`]): none of its
    /// figures are the run's, and the JSON report leaves the run out.
    #[serde(skip)]
    pub withheld: bool,
}

impl RunSummary {
    /// The summary of a run that never happened (the build failed, or the program could not
    /// be started), with every input line unread.
    pub fn not_run(ended: Ended, inputs: usize) -> RunSummary {
        RunSummary {
            ended,
            exit_code: None,
            signal: None,
            wall_ms: 0,
            slept_ms: 0,
            cpu_ms: 0,
            peak_memory_kib: None,
            peak_memory_note: None,
            unread_inputs: inputs,
            prompts_late: false,
            output_truncated: false,
            detection: String::new(),
            withheld: false,
        }
    }

    /// What a student's report holds for a hidden case's run: no figure at all (exit status,
    /// signal, times, memory, input lines read, output cut, how it ended), since a program can
    /// write its hidden input into any of them. Only a build that failed, which every case
    /// shows alike, is kept.
    pub fn withheld(build_failed: bool) -> RunSummary {
        let ended = if build_failed {
            Ended::BuildFailed
        } else {
            Ended::Exit
        };
        RunSummary {
            withheld: true,
            ..RunSummary::not_run(ended, 0)
        }
    }

    /// Whether this is a [`RunSummary::withheld`] run (left out of the JSON report).
    pub fn is_withheld(&self) -> bool {
        self.withheld
    }

    /// The run read back from JSON without one: withheld.
    fn absent() -> RunSummary {
        RunSummary::withheld(false)
    }
}

/// Whether a count is zero (a field left out of the JSON then).
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The first place where the student's output and the reference differ, for feedback.
#[derive(Clone, Debug, Default, PartialEq, Serialize, serde::Deserialize)]
pub struct Difference {
    /// What was being compared at the difference (e.g. "line 7", "board 3, row 2", "item 4").
    pub location: String,
    /// The reference's text around the difference (a few lines).
    pub expected: String,
    /// The student's text around the difference (a few lines).
    pub actual: String,
    /// How many input lines had been sent when the differing output was printed.
    pub inputs_before: usize,
    /// A relaxation under which the check would have passed, if any (e.g. "ignoring case").
    pub relaxation: Option<String>,
    /// The line of the student's output (1-based, as a terminal shows it) where the
    /// difference begins, when it has one (not for the end of the run or the whole output):
    /// with `inputs_before` it orders a case's differences, so reports show the earliest
    /// first, as the cause of those after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub student_line: Option<usize>,
}

impl Difference {
    /// Where the difference comes in the student's run: after how many inputs, then at which
    /// line (a difference without a line comes last among those after as many inputs).
    pub fn order(&self) -> (usize, usize) {
        (self.inputs_before, self.student_line.unwrap_or(usize::MAX))
    }
}

/// The result of one check of one case.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CheckResult {
    /// The check's name (unique within the case).
    pub name: String,
    /// The kind: transcript, lines, board, contains, exit.
    pub kind: String,
    /// Whether it passed.
    pub passed: bool,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// One line saying what was found (e.g. "matches at level: ignore blank lines").
    pub detail: String,
    /// Where it first differed (absent when passed, or for hidden cases).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub difference: Option<Difference>,
    /// The handout's rule the check enforces, as its case file quotes it (`rule:`): what a
    /// report gives as the rule a lost case breaks when this check differs first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The result of one case.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct CaseResult {
    /// The case name.
    pub name: String,
    /// Which handout rule the case tests.
    pub description: String,
    /// Whether details may be shown.
    pub visibility: Visibility,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// Passed, failed or error.
    pub status: CaseStatus,
    /// Each check's result.
    pub checks: Vec<CheckResult>,
    /// How the program's run went (left out of a student's report for a hidden case).
    #[serde(
        default = "RunSummary::absent",
        skip_serializing_if = "RunSummary::is_withheld"
    )]
    pub run: RunSummary,
    /// The input lines sent (empty for hidden cases).
    pub input: Vec<String>,
    /// Notes for the student that are not check failures (e.g. unflushed prompts).
    pub notes: Vec<String>,
    /// The student's program's stderr, when it printed any (empty for hidden cases; capped).
    pub stderr: String,
    /// The name of the check whose difference comes first in the run: the cause a report's
    /// feedback opens with (set by `report::for_students` for visible lost cases; None
    /// otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_difference: Option<String>,
}

/// A submission that did not build: the compiler's messages.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BuildFailure {
    /// The command that failed.
    pub command: String,
    /// What the compiler printed.
    pub messages: String,
}

impl BuildFailure {
    /// The first line the compiler printed that is not blank (trimmed), for one-line messages.
    pub fn first_message(&self) -> &str {
        self.messages
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
    }
}

/// One containment layer of the sandbox the submission ran in, as reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SandboxLayer {
    /// The layer's short name (`landlock`, `namespaces`, `descriptors`, …).
    pub name: String,
    /// Whether it was active for this grading.
    pub active: bool,
    /// Whether the containment promised in docs/security.md depends on it: a required layer
    /// that is off is reported at the top of every report, and `--require-sandbox` refuses
    /// to grade without it.
    pub required: bool,
    /// What it did, or why it was off.
    pub detail: String,
}

/// A place in the student's code a requirement or the compiler points at.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Finding {
    /// The file, relative to the submission.
    pub file: String,
    /// The 1-based line, when the finding has one (an absence has none).
    pub line: Option<usize>,
    /// What was found there, e.g. "non-const global `int turn`".
    pub message: String,
}

impl Finding {
    /// `file:line: message` (or just the message for a note without a place).
    pub fn describe(&self) -> String {
        if self.file.is_empty() {
            self.message.clone()
        } else {
            format!("{}: {}", self.place(), self.message)
        }
    }

    /// `file:line` (or just the file), as findings are shown.
    pub fn place(&self) -> String {
        match self.line {
            Some(line) => format!("{}:{line}", self.file),
            None => self.file.clone(),
        }
    }
}

/// Whether a requirement on the code was met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RequirementStatus {
    /// The code does what the handout asks.
    Passed,
    /// It does not; the findings say where.
    Failed,
    /// The submission is not in the handout's language: nothing is lost.
    NotApplicable,
}

/// One handout requirement on the code itself (not on what it prints).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RequirementResult {
    /// Short name, used to reweight or switch it off in assignment.yaml.
    pub name: String,
    /// The handout's own line it checks.
    pub quote: String,
    /// Passed, failed, or not applicable.
    pub status: RequirementStatus,
    /// Points earned.
    pub score: f64,
    /// Points possible: the requirement's points, applicable or not (a program in another
    /// language is graded out of the same total; docs/requirements.md).
    pub max_score: f64,
    /// One line saying what was found.
    pub detail: String,
    /// Where, in the code (file and line).
    pub findings: Vec<Finding>,
}

/// What a rubric line counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RubricPart {
    /// Full points for a submission that could be graded at all.
    Submitted,
    /// Full points when it built (a Python file: when it parsed).
    Compiled,
    /// The cases' points, scaled to the line's points.
    Cases,
    /// The code requirements' points, scaled (full when none applies).
    Requirements,
}

impl RubricPart {
    /// The name used in YAML and reports.
    pub fn name(self) -> &'static str {
        match self {
            RubricPart::Submitted => "submitted",
            RubricPart::Compiled => "compiled",
            RubricPart::Cases => "cases",
            RubricPart::Requirements => "requirements",
        }
    }
}

/// One line of an assignment's rubric (e.g. the handout's "Submitted 1 / Compiled 9 /
/// Output 90"): what it counts and what it earned.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct RubricLine {
    /// The rubric's name for the line ("Output").
    pub name: String,
    /// What it counts.
    pub part: RubricPart,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
}

/// A score kept to thousandths of a point, as every stored and reported score is: sums of
/// shares then read the same in every format.
pub fn round_points(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// `score` as a percentage of `max_score`, to two decimals (0 when `max_score` is 0).
pub fn percent(score: f64, max_score: f64) -> f64 {
    if max_score > 0.0 {
        (score / max_score * 10_000.0).round() / 100.0
    } else {
        0.0
    }
}

/// What a part of the total is: a case, a code requirement, or a rubric line that counts
/// neither (`submitted`, `compiled`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PartKind {
    /// A case.
    Case,
    /// A requirement on the code.
    Requirement,
    /// A rubric line of its own.
    Rubric,
}

/// One part of a result's total: the gradebook's columns and Gradescope's tests are these,
/// so they add up to the score. Under a rubric, cases and requirements are scaled to their
/// rubric line's points.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Part {
    /// A case, a requirement or a rubric line.
    pub kind: PartKind,
    /// The case's, requirement's or rubric line's name.
    pub name: String,
    /// Points earned, as counted in the total.
    pub score: f64,
    /// Points possible, as counted in the total.
    pub max_score: f64,
}

impl Part {
    /// The gradebook column: the case's name, `requirement: NAME` or `rubric: NAME`.
    pub fn column(&self) -> String {
        column_name(self.kind, &self.name)
    }
}

/// The gradebook column of a part of `kind` named `name`.
pub fn column_name(kind: PartKind, name: &str) -> String {
    match kind {
        PartKind::Case => name.to_string(),
        PartKind::Requirement => format!("requirement: {name}"),
        PartKind::Rubric => format!("rubric: {name}"),
    }
}

/// The variant of the assignment a submission was graded against (docs/variants.md).
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct VariantInfo {
    /// The values that differ from the handout's (`matches=25`), or `handout`.
    pub label: String,
    /// Every parameter of the assignment with its value in this variant.
    pub parameters: std::collections::BTreeMap<String, u32>,
    /// How it was chosen: `course` (assignment.yaml's `parameters:`), `student` (picked from
    /// `variants:` for the student) or `asked` (`--variant`).
    pub chosen_by: String,
    /// The name the per-student pick hashed. (The course seed it hashed with is never part
    /// of a report: it is the instructor's secret.)
    #[serde(skip_serializing_if = "Option::is_none")]
    pub student: Option<String>,
    /// Which variant of `variants:` the student got, counted from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<usize>,
    /// How many variants `variants:` lists.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub of: Option<usize>,
    /// Where the reference transcripts come from: `stored` (recorded by `grade bless` with
    /// these values) or `recorded` (played by the reference game with them while grading).
    pub references: String,
    /// What this variant changes in the grading besides the game (a requirement that looks
    /// for the handout's value not graded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

impl VariantInfo {
    /// One line for reports: "matches=25 (variant 2 of 3 for alice; reference recorded)".
    pub fn describe(&self) -> String {
        let how = match (&self.student, self.number, self.of) {
            (Some(student), Some(n), Some(of)) => format!("variant {n} of {of} for {student}"),
            _ if self.chosen_by == "asked" => "asked for".to_string(),
            _ => "the course's".to_string(),
        };
        format!("{} ({how}; reference {})", self.label, self.references)
    }
}

/// The result of grading one submission against one assignment's cases.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct GradeResult {
    /// The assignment name.
    pub assignment: String,
    /// The submission as given on the command line.
    pub submission: String,
    /// Points earned over all cases.
    pub score: f64,
    /// Points possible over all cases.
    pub max_score: f64,
    /// Each case's result, in case order.
    pub cases: Vec<CaseResult>,
    /// Present when the submission did not build (every case then scores 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_failure: Option<BuildFailure>,
    /// What the student should know about the submission as a whole (e.g. which of several
    /// `main` classes was run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Total wall time of grading in milliseconds (building and running).
    pub wall_ms: u64,
    /// The sandbox layers student code ran under (empty when not recorded).
    pub sandbox: Vec<SandboxLayer>,
    /// The handout's requirements on the code itself, checked on a parse of the sources.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<RequirementResult>,
    /// What the compiler warned about (the build still succeeded), as it printed it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub warnings: String,
    /// The assignment's rubric, when its case directory states one: then `score` and
    /// `max_score` are the rubric's totals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rubric: Vec<RubricLine>,
    /// The variant graded against, when it is not simply the handout's game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<VariantInfo>,
}

impl GradeResult {
    /// Sets `score` and `max_score`: the cases' and requirements' points added up, or, with a
    /// rubric (name, part, points), the rubric's lines, each part scaled to its points.
    ///
    /// A requirement that is not applicable (the program is in another language) earns the
    /// share of the cases' points the program earned: the total is the same in every
    /// language, and a program in another language scores the same percentage as its cases.
    pub fn total(&mut self, rubric: &[(String, RubricPart, f64)]) {
        let round = round_points;
        let cases: (f64, f64) = self
            .cases
            .iter()
            .fold((0.0, 0.0), |(s, m), c| (s + c.score, m + c.max_score));
        let cases_share = if cases.1 > 0.0 {
            (cases.0 / cases.1).clamp(0.0, 1.0)
        } else {
            0.0
        };
        for requirement in &mut self.requirements {
            if requirement.status == RequirementStatus::NotApplicable {
                requirement.score = round(requirement.max_score * cases_share);
            }
        }
        let requirements: (f64, f64) = self
            .requirements
            .iter()
            .fold((0.0, 0.0), |(s, m), r| (s + r.score, m + r.max_score));
        if rubric.is_empty() {
            self.rubric.clear();
            self.score = round(cases.0 + requirements.0);
            self.max_score = round(cases.1 + requirements.1);
            return;
        }
        let share = |(score, max): (f64, f64)| {
            if max > 0.0 {
                (score / max).clamp(0.0, 1.0)
            } else {
                1.0
            }
        };
        let built = self.build_failure.is_none();
        self.rubric = rubric
            .iter()
            .map(|(name, part, points)| {
                let fraction = match part {
                    RubricPart::Submitted => 1.0,
                    RubricPart::Compiled => f64::from(u8::from(built)),
                    RubricPart::Cases => share(cases),
                    RubricPart::Requirements => share(requirements),
                };
                RubricLine {
                    name: name.clone(),
                    part: *part,
                    score: round(points * fraction),
                    max_score: *points,
                }
            })
            .collect();
        self.score = round(self.rubric.iter().map(|l| l.score).sum());
        self.max_score = round(self.rubric.iter().map(|l| l.max_score).sum());
    }

    /// The parts of the total, in report order (cases, then requirements, then rubric lines
    /// of their own): their scores add up to `score` and their maxima to `max_score` (up to
    /// rounding to thousandths when a rubric scales them).
    pub fn parts(&self) -> Vec<Part> {
        let round = round_points;
        let cases: f64 = self.cases.iter().map(|c| c.max_score).sum();
        let requirements: f64 = self.requirements.iter().map(|r| r.max_score).sum();
        // The factor a rubric line scales its part by (1 without a rubric), or None when the
        // rubric has no line for it (it counts for nothing).
        let factor = |part: RubricPart, max: f64| -> Option<f64> {
            if self.rubric.is_empty() {
                return Some(1.0);
            }
            let line = self.rubric.iter().find(|l| l.part == part)?;
            Some(if max > 0.0 { line.max_score / max } else { 0.0 })
        };
        let mut parts = Vec::new();
        if let Some(f) = factor(RubricPart::Cases, cases) {
            parts.extend(self.cases.iter().map(|c| Part {
                kind: PartKind::Case,
                name: c.name.clone(),
                score: round(c.score * f),
                max_score: round(c.max_score * f),
            }));
        }
        if let Some(f) = factor(RubricPart::Requirements, requirements) {
            parts.extend(self.requirements.iter().map(|r| Part {
                kind: PartKind::Requirement,
                name: r.name.clone(),
                score: round(r.score * f),
                max_score: round(r.max_score * f),
            }));
        }
        for line in &self.rubric {
            // A rubric line with nothing to scale (no requirement applies) stands alone.
            let alone = match line.part {
                RubricPart::Submitted | RubricPart::Compiled => true,
                RubricPart::Cases => cases <= 0.0,
                RubricPart::Requirements => requirements <= 0.0,
            };
            if alone {
                parts.push(Part {
                    kind: PartKind::Rubric,
                    name: line.name.clone(),
                    score: line.score,
                    max_score: line.max_score,
                });
            }
        }
        parts
    }

    /// The score as a percentage of `max_score` (0 when nothing could be earned).
    pub fn percent(&self) -> f64 {
        percent(self.score, self.max_score)
    }

    /// The required sandbox layers that were off for this grading.
    pub fn missing_layers(&self) -> Vec<&SandboxLayer> {
        self.sandbox
            .iter()
            .filter(|l| l.required && !l.active)
            .collect()
    }

    /// True when every case and every applicable requirement earned full marks.
    pub fn full_marks(&self) -> bool {
        self.build_failure.is_none()
            && self
                .requirements
                .iter()
                .all(|r| r.status != RequirementStatus::Failed)
            && self.cases.iter().all(CaseResult::full_marks)
    }
}

impl CaseResult {
    /// A case whose program did not run to the end of a game (not built, not started, not
    /// rebuilt for its board): no points, no checks; callers add why (a note or a check).
    /// The one place such results are built.
    pub fn not_run(
        name: &str,
        description: &str,
        visibility: Visibility,
        max_score: f64,
        status: CaseStatus,
        ended: Ended,
        inputs: usize,
    ) -> CaseResult {
        CaseResult {
            name: name.to_string(),
            description: description.to_string(),
            visibility,
            score: 0.0,
            max_score,
            status,
            checks: Vec::new(),
            run: RunSummary::not_run(ended, inputs),
            input: Vec::new(),
            notes: Vec::new(),
            stderr: String::new(),
            first_difference: None,
        }
    }

    /// True when the case passed with every point: the one definition of a case's "full
    /// marks" every report and the class summary use.
    pub fn full_marks(&self) -> bool {
        self.status == CaseStatus::Passed
            && self.score + 1e-9 >= self.max_score
            && self.checks.iter().all(|c| c.passed || c.max_score <= 0.0)
    }
}

/// One student's line in a class's gradebook (gradebook.csv), and what LMS exports read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GradebookRow {
    /// The student.
    pub student: String,
    /// The submission as given.
    pub submission: String,
    /// Points earned (empty when not graded).
    pub score: Option<f64>,
    /// Points possible.
    pub max_score: Option<f64>,
    /// full marks, lost points, build failed, error: …, incomplete: interrupted.
    pub status: String,
    /// Points per part of the total, by column: each case, each code requirement
    /// (`requirement: NAME`) and each rubric line of its own (`rubric: NAME`), as counted in
    /// the score, so they add up to it.
    pub parts: std::collections::BTreeMap<String, f64>,
    /// Timeouts, limits and crashes, in a few words.
    pub notes: String,
    /// The variant the student was graded against (`matches=25`); empty for the handout's.
    pub variant: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_build_failure_is_told_by_its_first_line_that_is_not_blank() {
        let failure = BuildFailure {
            command: "gcc main.c".into(),
            messages: "\n   \n  main.c:3: error: expected ';'  \nmain.c:4: note\n".into(),
        };
        assert_eq!(failure.first_message(), "main.c:3: error: expected ';'");
        let silent = BuildFailure {
            command: "gcc main.c".into(),
            messages: " \n".into(),
        };
        assert_eq!(silent.first_message(), "");
    }

    fn case(name: &str, score: f64, max_score: f64) -> CaseResult {
        CaseResult {
            name: name.into(),
            description: String::new(),
            visibility: Visibility::Visible,
            score,
            max_score,
            status: if score < max_score {
                CaseStatus::Failed
            } else {
                CaseStatus::Passed
            },
            checks: Vec::new(),
            run: RunSummary::not_run(Ended::Exit, 0),
            input: Vec::new(),
            notes: Vec::new(),
            stderr: String::new(),
            first_difference: None,
        }
    }

    fn requirement(name: &str, score: f64, max_score: f64) -> RequirementResult {
        RequirementResult {
            name: name.into(),
            quote: String::new(),
            status: RequirementStatus::Passed,
            score,
            max_score,
            detail: String::new(),
            findings: Vec::new(),
        }
    }

    fn result() -> GradeResult {
        GradeResult {
            assignment: "nim".into(),
            submission: "x".into(),
            score: 0.0,
            max_score: 0.0,
            cases: vec![case("a", 5.0, 6.0), case("b", 10.0, 10.0)],
            build_failure: None,
            notes: Vec::new(),
            wall_ms: 0,
            sandbox: Vec::new(),
            requirements: vec![requirement("r", 3.0, 3.0), requirement("s", 0.0, 3.0)],
            warnings: String::new(),
            rubric: Vec::new(),
            variant: None,
        }
    }

    fn sums(parts: &[Part]) -> (f64, f64) {
        parts
            .iter()
            .fold((0.0, 0.0), |(s, m), p| (s + p.score, m + p.max_score))
    }

    #[test]
    fn without_a_rubric_the_parts_are_the_cases_and_requirements_as_they_are() {
        let mut result = result();
        result.total(&[]);
        // 5 + 10 + 3 + 0 of 6 + 10 + 3 + 3.
        assert_eq!((result.score, result.max_score), (18.0, 22.0));
        let parts = result.parts();
        let columns: Vec<String> = parts.iter().map(Part::column).collect();
        assert_eq!(columns, ["a", "b", "requirement: r", "requirement: s"]);
        assert_eq!(sums(&parts), (18.0, 22.0));
        assert_eq!(result.percent(), 81.82);
    }

    #[test]
    fn a_requirement_that_cannot_apply_earns_the_cases_share() {
        let mut result = result();
        for r in &mut result.requirements {
            r.status = RequirementStatus::NotApplicable;
        }
        result.total(&[]);
        // Cases 15 of 16; each requirement 3 × 15/16 = 2.8125 (2.813 to thousandths).
        let scores: Vec<f64> = result.requirements.iter().map(|r| r.score).collect();
        assert_eq!(scores, [2.813, 2.813]);
        assert_eq!((result.score, result.max_score), (20.626, 22.0));
        // Nothing played: nothing earned.
        for case in &mut result.cases {
            case.score = 0.0;
        }
        result.total(&[]);
        assert_eq!((result.score, result.max_score), (0.0, 22.0));
    }

    #[test]
    fn under_a_rubric_the_parts_are_scaled_and_still_add_up() {
        let mut result = result();
        let rubric = [
            ("Submitted".to_string(), RubricPart::Submitted, 1.0),
            ("Compiled".to_string(), RubricPart::Compiled, 9.0),
            ("Output".to_string(), RubricPart::Cases, 80.0),
            ("Code".to_string(), RubricPart::Requirements, 10.0),
        ];
        result.total(&rubric);
        // 1 + 9 + 80 × 15/16 + 10 × 3/6 = 90 of 100.
        assert_eq!((result.score, result.max_score), (90.0, 100.0));
        let parts = result.parts();
        let shown: Vec<(String, f64, f64)> = parts
            .iter()
            .map(|p| (p.column(), p.score, p.max_score))
            .collect();
        // Cases × 80/16 = 5, requirements × 10/6.
        assert_eq!(
            shown,
            [
                ("a".to_string(), 25.0, 30.0),
                ("b".to_string(), 50.0, 50.0),
                ("requirement: r".to_string(), 5.0, 5.0),
                ("requirement: s".to_string(), 0.0, 5.0),
                ("rubric: Submitted".to_string(), 1.0, 1.0),
                ("rubric: Compiled".to_string(), 9.0, 9.0),
            ]
        );
        assert_eq!(sums(&parts), (90.0, 100.0));
    }
}
