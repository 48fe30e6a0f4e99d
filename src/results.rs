//! The results of grading: what each check found, per case and in total.
//!
//! This is the one input every report format reads (`report/`), and its serde form is the
//! stable JSON report documented in docs/report-format.md.

use serde::Serialize;

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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
            Ended::BuildFailed => "did not build",
        }
    }
}

/// What the runner reports about one run of the student's program.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSummary {
    /// How it ended.
    pub ended: Ended,
    /// Exit status when it exited by itself.
    pub exit_code: Option<i32>,
    /// Signal number when it was killed by a signal.
    pub signal: Option<i32>,
    /// Wall time in milliseconds.
    pub wall_ms: u64,
    /// CPU time in milliseconds.
    pub cpu_ms: u64,
    /// Peak memory in KiB, when known.
    pub peak_memory_kib: Option<u64>,
    /// Input lines never read because the program ended first.
    pub unread_inputs: usize,
    /// True when prompts only appeared after the program had read its input.
    pub prompts_late: bool,
    /// True when output was cut at the output limit.
    pub output_truncated: bool,
    /// How input requests were detected ("seccomp", "proc-polling", "quiescence").
    pub detection: String,
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
            cpu_ms: 0,
            peak_memory_kib: None,
            unread_inputs: inputs,
            prompts_late: false,
            output_truncated: false,
            detection: String::new(),
        }
    }
}

/// The first place where the student's output and the reference differ, for feedback.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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
}

/// The result of one case.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// How the program's run went.
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildFailure {
    /// The command that failed.
    pub command: String,
    /// What the compiler printed.
    pub messages: String,
}

/// One containment layer of the sandbox the submission ran in, as reports show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RequirementResult {
    /// Short name, used to reweight or switch it off in assignment.yaml.
    pub name: String,
    /// The handout's own line it checks.
    pub quote: String,
    /// Passed, failed, or not applicable.
    pub status: RequirementStatus,
    /// Points earned.
    pub score: f64,
    /// Points possible (0 when not applicable).
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
#[derive(Clone, Debug, PartialEq, Serialize)]
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

/// The result of grading one submission against one assignment's cases.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Total wall time of grading in milliseconds (building and running).
    pub wall_ms: u64,
    /// The sandbox layers student code ran under (empty when not recorded).
    pub sandbox: Vec<SandboxLayer>,
    /// The handout's requirements on the code itself, checked on a parse of the sources.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<RequirementResult>,
    /// What the compiler warned about (the build still succeeded), as it printed it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub warnings: String,
    /// The assignment's rubric, when its case directory states one: then `score` and
    /// `max_score` are the rubric's totals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rubric: Vec<RubricLine>,
}

impl GradeResult {
    /// Sets `score` and `max_score`: the cases' and requirements' points added up, or, with a
    /// rubric (name, part, points), the rubric's lines, each part scaled to its points.
    pub fn total(&mut self, rubric: &[(String, RubricPart, f64)]) {
        let round = |v: f64| (v * 1000.0).round() / 1000.0;
        let cases: (f64, f64) = self
            .cases
            .iter()
            .fold((0.0, 0.0), |(s, m), c| (s + c.score, m + c.max_score));
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
            && self
                .cases
                .iter()
                .all(|c| c.status == CaseStatus::Passed && c.score + 1e-9 >= c.max_score)
    }
}
