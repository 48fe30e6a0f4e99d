//! Running an untrusted student program for one test case, as a terminal would.
//!
//! [`run`] takes a [`RunSpec`] (command, working-directory files, scripted input, limits) and
//! returns a [`RunOutcome`]: the [`Transcript`] with each input line placed where the program
//! asked for it, how the run ended, and what it cost. Skeleton: filled in by the runner work.

use std::path::PathBuf;
use std::time::Duration;

use crate::transcript::Transcript;

pub mod cli;
pub mod doctor;

/// Resource limits for one run; every run gets all of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock time from start to kill.
    pub wall: Duration,
    /// CPU time (user + system) of the whole process tree.
    pub cpu: Duration,
    /// Memory of the whole process tree, in bytes.
    pub memory_bytes: u64,
    /// Output bytes kept (stdout + stderr); the rest is cut and the cut is marked.
    pub output_bytes: usize,
    /// Processes (and threads) the run may have at once.
    pub processes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(10),
            cpu: Duration::from_secs(5),
            memory_bytes: 512 << 20,
            output_bytes: 1 << 20,
            processes: 64,
        }
    }
}

/// What to do when the program asks for input after the script is used up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EndOfInput {
    /// Stop the program: the case ends mid-game (not a failure by itself).
    #[default]
    Stop,
    /// Close stdin so the program sees end of input, and let it finish.
    Close,
}

/// Everything needed to run a program once.
#[derive(Clone, Debug)]
pub struct RunSpec {
    /// The program and its arguments (`argv[0]` is resolved on the run's PATH if relative).
    pub command: Vec<String>,
    /// Files placed in the fresh working directory: (relative name, content).
    pub files: Vec<(String, Vec<u8>)>,
    /// Paths outside the working directory the program may read (the submission's own files,
    /// its interpreter); system directories are always readable.
    pub readable: Vec<PathBuf>,
    /// Extra environment variables on top of the documented clean environment.
    pub env: Vec<(String, String)>,
    /// Scripted input lines, without newlines.
    pub input: Vec<String>,
    /// What happens when the program wants more input than `input` holds.
    pub end_of_input: EndOfInput,
    /// Resource limits.
    pub limits: Limits,
    /// Run under a pseudo-terminal on stdin and stdout, exactly as a student's terminal would.
    pub terminal: bool,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The program exited by itself with this status.
    Exited(i32),
    /// The program was killed by a signal it did not get from the grader.
    Signaled(i32),
    /// The wall-clock limit ran out.
    WallTimeout,
    /// The CPU-time limit ran out.
    CpuLimit,
    /// The memory limit was hit.
    MemoryLimit,
    /// The output limit was hit.
    OutputLimit,
    /// The program asked for input after the script ended and was stopped.
    WaitingForInput,
}

/// How the runner knew the program was waiting for input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detection {
    /// seccomp user notification on reads of fd 0 (exact).
    Seccomp,
    /// Polling /proc for threads blocked reading fd 0 (exact but polled).
    ProcPolling,
    /// No output for a while and no unread input (a heuristic).
    Quiescence,
}

impl Detection {
    /// A short name for reports and `grade doctor`.
    pub fn name(self) -> &'static str {
        match self {
            Detection::Seccomp => "seccomp",
            Detection::ProcPolling => "proc-polling",
            Detection::Quiescence => "quiescence",
        }
    }
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunOutcome {
    /// Output and input in the order a terminal would have shown them.
    pub transcript: Transcript,
    /// How the run ended.
    pub ending: Ending,
    /// Scripted lines never sent because the program exited first.
    pub unread_inputs: usize,
    /// True when some input was requested before the prompt for it had been written
    /// (output only appeared later, e.g. at exit): the report says prompts were not flushed.
    pub prompts_late: bool,
    /// True when output beyond the limit was cut.
    pub output_truncated: bool,
    /// Wall time of the run.
    pub wall: Duration,
    /// CPU time (user + system) of the run's processes.
    pub cpu: Duration,
    /// Peak memory in bytes, when known.
    pub peak_memory_bytes: Option<u64>,
    /// The input-detection method used.
    pub detection: Detection,
}

/// Why a run could not even start (not the program's fault).
#[derive(Debug)]
pub enum RunError {
    /// The working directory or a file in it could not be created.
    Setup(std::io::Error),
    /// The program could not be started (missing, not executable).
    Spawn {
        program: String,
        source: std::io::Error,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Setup(e) => write!(f, "cannot prepare the run's working directory: {e}"),
            RunError::Spawn { program, source } => write!(f, "cannot start {program}: {source}"),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs one program once with scripted input, within limits, contained.
pub fn run(spec: &RunSpec) -> Result<RunOutcome, RunError> {
    let _ = spec;
    Err(RunError::Setup(std::io::Error::other(
        "runner not implemented yet",
    )))
}
