//! Running an untrusted student program for one test case, as a terminal would.
//!
//! [`run`] takes a [`RunSpec`] (command, working-directory files, scripted input, limits) and
//! returns a [`RunOutcome`]: the [`Transcript`] with each input line placed where the program
//! asked for it, how the run ended, and what it cost.
//!
//! # Input detection
//! seccomp user notification on the read family of syscalls on fd 0 and on every way of
//! waiting for it to become readable — select, pselect6, poll, ppoll, epoll_wait, epoll_pwait,
//! epoll_pwait2 ([`seccomp`]; which of those calls wait for our stdin, and which reads would
//! not block, is decided in [`waiting`]); where seccomp is refused, polling /proc for a thread
//! of the run asleep in one of those ([`procpoll`]); last resort: no output for 30 ms, no
//! unread input and every thread asleep.
//! `GRADE_DETECTION=proc-polling|quiescence` forces a fallback (for tests), and
//! `GRADE_DISABLE=cgroup,landlock,namespaces,netns,rootfs,uid,stdbuf,grader-lock` switches layers
//! off (diagnosis, benchmarks; every report then says so).
//!
//! # Sleeps
//! The same filter notifies `nanosleep` and `clock_nanosleep`: sleeps are cut short, idle time
//! does not count toward the wall limit, and a run that waits for nothing is stopped as
//! blocked ([`pace`]).
//!
//! # The environment of a run
//! * The environment is cleared and set to exactly: `PATH=/usr/local/bin:/usr/bin:/bin`,
//!   `HOME` and `TMPDIR` = the working directory, `LANG=LC_ALL=C.UTF-8`, `TERM=dumb`
//!   (`xterm` with a terminal), `GRADE_RUN_ID=<unique id>` (lets the kill sweep find
//!   escapees); over pipes also `PYTHONUNBUFFERED=1` and, when present,
//!   `LD_PRELOAD=/usr/libexec/coreutils/libstdbuf.so _STDBUF_O=L _STDBUF_I=L`: C stdio
//!   buffers by line as on a terminal, and flushes stdout before each read of stdin, so
//!   prompts appear before reads; for Node (`node`, `nodejs` or a `#!` script naming it)
//!   `NODE_OPTIONS=--require <workdir>/.grade-node-stdin.cjs`, which gives `process.stdin`
//!   a terminal's read-ahead of nothing ([`node`]); then `RunSpec::env`.
//! * A fresh temporary working directory holding only `RunSpec::files` (and for Node the
//!   preload above), removed afterwards.
//! * Own session and process group, no controlling terminal; stdin, stdout and stderr pipes,
//!   or with `terminal` one pseudo-terminal for all three (stderr then merges into stdout, as
//!   on a real terminal). No other descriptor reaches the program ([`layers::fds`]).
//! * Own user, pid, IPC, network and UTS namespaces and a fresh session keyring
//!   ([`layers::namespaces`]); the program is pid 1 of its namespace, so the whole tree dies
//!   with it.
//! * Per-run cgroups ([`cgroup`]): memory and process limits, CPU accounting, `cgroup.kill`.
//!   `GRADE_NO_CGROUP=1` disables them (for tests). Without them: `RLIMIT_DATA` (not AS: the
//!   JVM reserves far more address space than it uses) and a /proc kill sweep.
//! * rlimits ([`limits`]): CPU, CORE=0, FSIZE, NOFILE, and NPROC with a per-run uid or user
//!   namespace; a disk and file-count cap on the working directory ([`workdir`]).
//! * Its own root filesystem ([`layers::rootfs`]): a tmpfs holding only the system
//!   directories, a minimal `/etc`, `/dev`, its `/proc` and `/tmp`, its toolchain, the
//!   submission and the working directory; the grader, its cases, reports and caches are absent.
//! * Landlock ([`layers::landlock`]): read+execute on system directories and
//!   `RunSpec::readable`, read/write on the working directory and a few devices (and the run's
//!   own terminal), nothing else; no TCP; no signals or abstract sockets outside the run
//!   (ABI ≥ 6); no ptrace of the grader (so no `/proc/<grader>/exe`, `environ` or `mem`).
//! * A seccomp mark that makes every copy of `grade` refuse to run ([`seccomp::GRADER_MARK`]).
//! * As root: a per-run unprivileged uid/gid with no supplementary groups, so the program
//!   cannot signal the grader or other runs ([`layers::uid`]).
//!
//! See docs/security.md for what holds as root and unprivileged.
//!
//! # Faults (tests only)
//! `GRADE_TEST_FAULT=spawn:N` makes the N-th run of the process and every later one (builds
//! included, counted from 1) fail to start as a grader out of descriptors does (EMFILE);
//! `GRADE_TEST_FAULT=step:N` makes a step of their sandbox fail in the child (ENOENT). The
//! tests use it to check that a fault of the machine is never a student's score
//! (tests/containment/layouts.rs); it changes nothing about what a run may reach.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::OnceLock;
use std::time::Instant;

use crate::transcript::Stream;

pub mod interrupt;
pub mod layers;
mod node;
pub mod pace;
pub mod procpoll;
pub mod profile;
pub mod sandbox;
pub mod slots;
mod supervise;
mod tree;
pub mod waiting;
pub mod workdir;
pub use layers::{cgroup, limits, pty, seccomp};
use std::path::PathBuf;
use std::time::Duration;
use supervise::{poll_outputs, supervise, Output, Supervisor};
use tree::{classify, reap, Tree};

use crate::transcript::Transcript;

pub mod doctor;

/// Decides what to type each time the program waits for input: a fixed script ([`Script`]),
/// or a strategy that reads what the program printed so far (the `drive` stage).
pub trait InputSource {
    /// The next line to type (without its newline) for a program that has produced
    /// `transcript` so far; `None` when there is nothing more to type.
    fn next_line(&mut self, transcript: &Transcript) -> Option<String>;

    /// Lines the source still holds that the program never asked for (0 for strategies).
    fn remaining(&self) -> usize;
}

/// A fixed list of input lines, typed one per read.
#[derive(Clone, Debug, Default)]
pub struct Script {
    lines: std::collections::VecDeque<String>,
}

impl Script {
    /// A script of `lines`, typed in order.
    pub fn new(lines: &[String]) -> Script {
        Script {
            lines: lines.iter().cloned().collect(),
        }
    }
}

impl InputSource for Script {
    fn next_line(&mut self, _transcript: &Transcript) -> Option<String> {
        self.lines.pop_front()
    }

    fn remaining(&self) -> usize {
        self.lines.len()
    }
}

pub use limits::{LimitOverrides, Limits};

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
    /// Run in this existing directory instead of a fresh temporary one, and leave it in place
    /// afterwards: for builds, whose outputs the grader keeps. `files` are still written to it.
    pub workdir: Option<PathBuf>,
}

impl RunSpec {
    /// A run of `command` with nothing else: no files, no extra environment or readable paths,
    /// no input (it is stopped when it asks), the default limits, over pipes, in a fresh
    /// directory. Fill in what a run needs with struct update syntax.
    pub fn new(command: Vec<String>) -> RunSpec {
        RunSpec {
            command,
            files: Vec::new(),
            readable: Vec::new(),
            env: Vec::new(),
            input: Vec::new(),
            end_of_input: EndOfInput::Stop,
            limits: Limits::default(),
            terminal: false,
            workdir: None,
        }
    }
}

/// A program that asked for more input once the script was used up: it was given end of
/// input, as a person ends a final "press Enter to exit" (the run still ends as
/// [`Ending::WaitingForInput`]; the checks decide whether the game was over).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AfterScript {
    /// How many transcript events there were when it was given end of input (the last one
    /// marks it): what it had printed until it asked.
    pub events: usize,
    /// Its prompt had appeared when it asked (else its output may have been held in a buffer,
    /// or it reads all its input before printing).
    pub prompt_shown: bool,
    /// How it then ended by itself (an exit status, or a signal), when it did in time.
    pub ended: Option<Ending>,
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
    /// The working directory grew beyond [`workdir::DISK_LIMIT_BYTES`] or
    /// [`workdir::DISK_LIMIT_ENTRIES`].
    DiskLimit,
    /// The program asked for input after the script ended and was stopped.
    WaitingForInput,
    /// The program was stopped as blocked: neither reading input nor computing for
    /// [`pace::BLOCKED_AFTER`], or sleeping more than a run may ([`pace`]).
    Blocked(pace::Stall),
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
    /// Set when the program asked for more input after the script.
    pub after_script: Option<AfterScript>,
    /// Scripted lines never sent because the program exited first.
    pub unread_inputs: usize,
    /// True when some input was requested before the prompt for it had been written
    /// (output only appeared later, e.g. at exit): the report says prompts were not flushed.
    pub prompts_late: bool,
    /// True when output beyond the limit was cut.
    pub output_truncated: bool,
    /// Wall time of the run.
    pub wall: Duration,
    /// Time it slept: sleeps cut short, at the length they asked for, and idle time (neither
    /// of which counts toward the wall limit; see [`pace`]).
    pub slept: Duration,
    /// CPU time (user + system) of the run's processes.
    pub cpu: Duration,
    /// Peak memory in bytes, when known.
    pub peak_memory_bytes: Option<u64>,
    /// True when `peak_memory_bytes` is the whole run's (its cgroup's peak); false when it is
    /// only the largest single process's (`ru_maxrss`, without a cgroup) or unknown.
    pub peak_memory_of_run: bool,
    /// The input-detection method used.
    pub detection: Detection,
}

/// Why a run could not even start (not the program's fault).
#[derive(Debug)]
pub enum RunError {
    /// The run could not be prepared: its working directory or a file in it, its pipes,
    /// its Landlock ruleset.
    Setup(std::io::Error),
    /// The grader was interrupted (Ctrl-C, SIGTERM): the run was not started, or was killed
    /// and cleaned up.
    Interrupted,
    /// The program could not be started (missing, not executable).
    Spawn {
        /// The program as given in the command.
        program: String,
        /// Why exec failed (not found, not executable, denied by the sandbox).
        source: std::io::Error,
    },
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Setup(e) => write!(f, "cannot prepare the run: {e}"),
            RunError::Interrupted => write!(f, "{}", interrupt::Interrupted),
            RunError::Spawn { program, source } => write!(f, "cannot start {program}: {source}"),
        }
    }
}

impl std::error::Error for RunError {}

impl RunError {
    /// Whether the run could not be made for the grading machine's or the grader's reasons
    /// (no room for its directory, no descriptors, pipes or processes left, a sandbox step
    /// that failed) rather than the program's own (not found, not executable, not a
    /// program): the first make a submission not gradable, never a student's score. A
    /// "Text file busy" that outlasted [`run_with`]'s retries is the grader's own race.
    pub fn is_machine_fault(&self) -> bool {
        match self {
            RunError::Setup(_) => true,
            RunError::Interrupted => false,
            RunError::Spawn { source, .. } => {
                !matches!(
                    source.raw_os_error(),
                    Some(
                        libc::ENOENT
                            | libc::EACCES
                            | libc::ENOEXEC
                            | libc::ELOOP
                            | libc::ENOTDIR
                            | libc::EISDIR
                            | libc::E2BIG
                            | libc::ENAMETOOLONG
                    )
                ) && source.kind() != std::io::ErrorKind::InvalidInput
            }
        }
    }
}

/// What this machine allows, probed once per grader process.
#[derive(Clone, Debug)]
pub struct Capabilities {
    /// The grader runs as root (so the program gets a per-run uid).
    pub root: bool,
    /// Landlock ABI version (0: none).
    pub landlock_abi: u32,
    /// Each run gets its own network (and IPC, UTS, pid) namespace.
    pub netns: bool,
    /// Which namespaces and keyring operations work here.
    pub namespaces: layers::namespaces::Support,
    /// `/proc/<pid>/task/<tid>/syscall` is readable (proc polling possible).
    pub proc_polling: bool,
}

/// The capabilities of this machine (probed on first use, then cached).
pub fn capabilities() -> &'static Capabilities {
    static CAPS: OnceLock<Capabilities> = OnceLock::new();
    CAPS.get_or_init(|| {
        let _probes = profile::span("probes: capabilities (once per process)");
        Capabilities {
            root: sandbox::is_root(),
            landlock_abi: sandbox::landlock_abi(),
            netns: {
                let ns = layers::namespaces::probe();
                ns.user || ns.privileged
            },
            namespaces: layers::namespaces::probe(),
            proc_polling: procpoll::syscall_file_available(),
        }
    })
}

fn set_nonblocking(fd: RawFd) {
    // SAFETY: fcntl on an fd we own.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two fds.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fresh fds we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

fn fd_identity(fd: RawFd) -> procpoll::StdinId {
    // SAFETY: stat is plain data filled by fstat.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st);
        (st.st_dev, st.st_ino)
    }
}

fn unread_bytes(fd: RawFd) -> i32 {
    let mut n: libc::c_int = 0;
    // SAFETY: FIONREAD writes one int.
    if unsafe { libc::ioctl(fd, libc::FIONREAD, &mut n) } != 0 {
        return 0;
    }
    n
}

/// `program` as a message about its failed start names it: a name looked up on the run's
/// `PATH` with the file it found there (and where that file leads, when it is a link), so a
/// "Permission denied" says which file the run could not execute; a name found nowhere says
/// where it was looked for.
fn spawned_program(
    program: &str,
    path: &str,
    workdir: &std::path::Path,
    error: &io::Error,
) -> String {
    let shown = |candidate: &std::path::Path| match candidate.canonicalize() {
        Ok(real) if real != candidate => format!("{} → {}", candidate.display(), real.display()),
        _ => candidate.display().to_string(),
    };
    if program.contains('/') {
        let given = std::path::Path::new(program);
        let at = if given.is_absolute() {
            given.to_path_buf()
        } else {
            workdir.join(given)
        };
        return match std::fs::symlink_metadata(&at) {
            Ok(_) if at.canonicalize().is_ok_and(|real| real != at) => {
                format!("{program} ({})", shown(&at))
            }
            _ => program.to_string(),
        };
    }
    let found = path
        .split(':')
        .filter(|dir| !dir.is_empty())
        .map(|dir| std::path::Path::new(dir).join(program))
        .find(|candidate| std::fs::symlink_metadata(candidate).is_ok());
    match (found, error.raw_os_error()) {
        (Some(candidate), _) => format!("{program} ({})", shown(&candidate)),
        (None, Some(libc::ENOENT)) => format!("{program} (not found on the run's PATH {path})"),
        (None, _) => program.to_string(),
    }
}

/// The directory of the toolchain `program` belongs to, when it lies outside the system
/// directories (a JDK or Go under /opt): the run may read and execute it. The program's real
/// path's directory, or the one above it when that is a `bin`. A bare name is looked up on
/// the run's own `PATH` (`run_path`), where its exec finds it: on the grader's, `python3` may
/// be a pyenv shim under /root the run never executes, and could not be given to read.
fn toolchain_dir(program: &str, workdir: &std::path::Path, run_path: &str) -> Option<PathBuf> {
    // A relative path is the run's, from its working directory (`grade run -- ./prog`), never
    // the grader's current directory: that one is not the program's and is not mounted.
    let path = if program.contains('/') {
        workdir.join(program)
    } else {
        // As the run's exec looks it up: an empty or relative entry is the run's directory.
        which::which_in(program, Some(run_path), workdir).ok()?
    };
    let real = path.canonicalize().ok()?;
    if workdir
        .canonicalize()
        .is_ok_and(|dir| real.starts_with(dir))
    {
        return None;
    }
    let system = ["/usr/", "/bin/", "/sbin/", "/lib", "/etc/"];
    if system.iter().any(|s| real.starts_with(s)) {
        return None;
    }
    let dir = real.parent()?;
    Some(if dir.file_name().is_some_and(|n| n == "bin") {
        dir.parent().unwrap_or(dir).to_path_buf()
    } else {
        dir.to_path_buf()
    })
}

/// Places the case's files in the working directory, refusing names that escape it.
fn write_files(dir: &std::path::Path, files: &[(String, Vec<u8>)]) -> io::Result<()> {
    for (name, content) in files {
        let rel = std::path::Path::new(name);
        if rel.is_absolute()
            || rel
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("file name {name:?} leaves the working directory"),
            ));
        }
        let path = dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, content)?;
    }
    Ok(())
}

fn chown_tree(dir: &std::path::Path, uid: u32) -> io::Result<()> {
    std::os::unix::fs::chown(dir, Some(uid), Some(uid))?;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            chown_tree(&entry.path(), uid)?;
        } else {
            std::os::unix::fs::lchown(entry.path(), Some(uid), Some(uid))?;
        }
    }
    Ok(())
}

/// Layers switched off with `GRADE_DISABLE=cgroup,landlock,namespaces,netns,rootfs,uid,stdbuf,grader-lock` (diagnosis and
/// benchmarks; `grade doctor` does not read it).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Disabled {
    pub(crate) cgroup: bool,
    pub(crate) landlock: bool,
    pub(crate) netns: bool,
    pub(crate) namespaces: bool,
    pub(crate) uid: bool,
    pub(crate) stdbuf: bool,
    pub(crate) grader_lock: bool,
    pub(crate) rootfs: bool,
}

pub(crate) fn disabled_layers() -> Disabled {
    let list = std::env::var("GRADE_DISABLE").unwrap_or_default();
    let has = |name: &str| list.split(',').any(|x| x.trim() == name);
    Disabled {
        cgroup: has("cgroup") || std::env::var_os("GRADE_NO_CGROUP").is_some(),
        landlock: has("landlock"),
        netns: has("netns"),
        namespaces: has("namespaces"),
        uid: has("uid"),
        stdbuf: has("stdbuf"),
        grader_lock: has("grader-lock"),
        rootfs: has("rootfs"),
    }
}

/// A fault injected into runs by `GRADE_TEST_FAULT` (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// The spawn fails with EMFILE.
    Spawn,
    /// A sandbox step fails in the child.
    Step,
}

/// The fault for this run, if `GRADE_TEST_FAULT` asks for one from this run on (each call
/// counts one run).
fn injected_fault() -> Option<Fault> {
    static FAULT: OnceLock<Option<(Fault, u64)>> = OnceLock::new();
    static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let (fault, from) = (*FAULT.get_or_init(|| {
        let value = std::env::var("GRADE_TEST_FAULT").ok()?;
        let (kind, from) = value.split_once(':')?;
        let fault = match kind {
            "spawn" => Fault::Spawn,
            "step" => Fault::Step,
            _ => return None,
        };
        Some((fault, from.parse().ok()?))
    }))?;
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
    (run >= from).then_some(fault)
}

fn forced_detection() -> Option<Detection> {
    match std::env::var("GRADE_DETECTION").ok()?.as_str() {
        "seccomp" => Some(Detection::Seccomp),
        "proc-polling" => Some(Detection::ProcPolling),
        "quiescence" => Some(Detection::Quiescence),
        _ => None,
    }
}

/// Runs one program once with the scripted input of `spec`, within limits, contained.
pub fn run(spec: &RunSpec) -> Result<RunOutcome, RunError> {
    run_with(spec, &mut Script::new(&spec.input))
}

/// How often a run whose exec met "Text file busy" is started again, the first wait 5 ms and
/// each next one twice as long (about 1.3 s in all).
const TEXT_FILE_BUSY_RETRIES: u32 = 8;

/// Runs one program once, typing what `source` decides at each read (`spec.input` unused).
///
/// An exec refused with ETXTBSY is started again: a file written by the grader (a build
/// copied from the cache) stays open for writing in every process another of its threads
/// forked meanwhile, until that child's own exec, milliseconds later in a sandbox's setup.
/// The refusal is the grader's race, never the program's (seen in `grade doctor` under load).
pub fn run_with(spec: &RunSpec, source: &mut dyn InputSource) -> Result<RunOutcome, RunError> {
    let mut wait = std::time::Duration::from_millis(5);
    let mut attempt = 0;
    loop {
        match run_once(spec, source) {
            Err(RunError::Spawn { source: e, .. })
                if e.raw_os_error() == Some(libc::ETXTBSY) && attempt < TEXT_FILE_BUSY_RETRIES =>
            {
                attempt += 1;
                std::thread::sleep(wait);
                wait *= 2;
            }
            other => return other,
        }
    }
}

/// One attempt of [`run_with`].
fn run_once(spec: &RunSpec, source: &mut dyn InputSource) -> Result<RunOutcome, RunError> {
    static RUN_COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    if interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    profile::run_started();
    let fault = injected_fault();
    let probes = profile::span("run: probes (first run of the process)");
    let caps = capabilities();
    drop(probes);
    let setup_dir = profile::span("run: working directory (mkdir, files, chown)");
    let Some(program) = spec.command.first() else {
        return Err(RunError::Spawn {
            program: String::new(),
            source: io::Error::new(io::ErrorKind::InvalidInput, "empty command"),
        });
    };
    let temporary = match &spec.workdir {
        Some(_) => None,
        None => Some(
            tempfile::Builder::new()
                .prefix("grade-run-")
                .tempdir()
                .map_err(RunError::Setup)?,
        ),
    };
    let workdir: &std::path::Path = match (&spec.workdir, &temporary) {
        (Some(dir), _) => dir,
        (None, Some(temp)) => temp.path(),
        (None, None) => return Err(RunError::Setup(io::Error::other("no working directory"))),
    };
    write_files(workdir, &spec.files).map_err(RunError::Setup)?;
    // Node over pipes reads its stdin as at a terminal (see `node`).
    let node_preload = (!spec.terminal && node::runs_node(&spec.command, workdir))
        .then(|| workdir.join(node::PRELOAD_NAME));
    if let Some(preload) = &node_preload {
        std::fs::write(preload, node::PRELOAD).map_err(RunError::Setup)?;
    }
    let off = disabled_layers();
    let uid = (caps.root && !off.uid).then(sandbox::per_run_uid);
    if let Some(uid) = uid {
        chown_tree(workdir, uid).map_err(RunError::Setup)?;
    }
    drop(setup_dir);
    let cgroup_span = profile::span("run: cgroups created");
    let cgroups_enabled = !off.cgroup;
    let mut cgroups = cgroup::RunCgroups::create(
        cgroups_enabled,
        spec.limits.memory_bytes,
        spec.limits.processes,
    );
    drop(cgroup_span);
    let channels = profile::span("run: pipes, seccomp filter, socketpair");
    let forced = forced_detection();
    let want_seccomp =
        matches!(forced, None | Some(Detection::Seccomp)) && seccomp::supported_arch();

    // Input and output channels.
    // Under a terminal, stderr shares it (as in a student's terminal: Python's input()
    // writes its prompt to stderr when stdin and stdout are terminals).
    let mut tty_path = None;
    // `stdin_reader`: the program's own stdin (the pipe's read end, or the terminal slave),
    // whose file status flags tell cheaply whether its reads block.
    // The child's ends (closed here once it has started) and the grader's.
    let (child_ends, stdin, stdin_probe, stdin_reader, stdout_fd, stderr_fd): (
        [OwnedFd; 3],
        OwnedFd,
        OwnedFd,
        OwnedFd,
        OwnedFd,
        Option<OwnedFd>,
    ) = if spec.terminal {
        let p = pty::open().map_err(RunError::Setup)?;
        tty_path = Some(p.slave_path.clone());
        let s1 = p.slave.try_clone().map_err(RunError::Setup)?;
        let s2 = p.slave.try_clone().map_err(RunError::Setup)?;
        let s3 = p.slave.try_clone().map_err(RunError::Setup)?;
        let master = p.master.try_clone().map_err(RunError::Setup)?;
        let reader = p.slave.try_clone().map_err(RunError::Setup)?;
        ([s1, s2, s3], p.master, p.slave, reader, master, None)
    } else {
        let (r, w) = pipe().map_err(RunError::Setup)?;
        let (out_r, out_w) = pipe().map_err(RunError::Setup)?;
        let (err_r, err_w) = pipe().map_err(RunError::Setup)?;
        let probe = w.try_clone().map_err(RunError::Setup)?;
        let reader = r.try_clone().map_err(RunError::Setup)?;
        ([r, out_w, err_w], w, probe, reader, out_r, Some(err_r))
    };
    set_nonblocking(stdin.as_raw_fd());
    let stdin_id = fd_identity(stdin_probe.as_raw_fd());
    // Where the kernel has Landlock, a ruleset that cannot be built refuses the run: no run
    // goes on silently without it (a kernel without it is reported by every report).
    // seccomp listener channel.
    let filter = seccomp::filter();
    let prog = Box::new(libc::sock_fprog {
        len: filter.len() as u16,
        filter: filter.as_ptr() as *mut libc::sock_filter,
    });
    let mark_filter = seccomp::marker_filter();
    let mark_prog = Box::new(libc::sock_fprog {
        len: mark_filter.len() as u16,
        filter: mark_filter.as_ptr() as *mut libc::sock_filter,
    });
    let mut socks = [-1; 2];
    let sock_pair = if want_seccomp && !filter.is_empty() {
        // SAFETY: socketpair fills two fds.
        let r = unsafe {
            libc::socketpair(
                libc::AF_UNIX,
                libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
                0,
                socks.as_mut_ptr(),
            )
        };
        // SAFETY: fresh fds we own.
        (r == 0).then(|| unsafe {
            (
                OwnedFd::from_raw_fd(socks[0]),
                OwnedFd::from_raw_fd(socks[1]),
            )
        })
    } else {
        None
    };

    let marker = format!(
        "{}-{}-{}",
        std::process::id(),
        RUN_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    );
    drop(channels);
    let plans = profile::span("run: namespace and rootfs plans");
    let mut ns_plan = layers::namespaces::plan(uid, !off.namespaces, !off.netns);
    ns_plan.devpts &= !spec.terminal;
    // As root a network namespace of the pool, held until the run has ended (this function
    // returns after its processes are reaped), instead of one made and torn down per run.
    let pooled_network = (uid.is_some() && ns_plan.makes_network())
        .then(layers::namespaces::pooled_network)
        .flatten();
    if let Some(network) = &pooled_network {
        ns_plan.join_network(network);
    }
    // The PATH the program is looked up on (the last one given wins, as in `Exec::new`).
    // The run's clean environment, built once: its PATH finds the program, and it is the
    // base of the environment the program gets.
    let base_env = sandbox::clean_env(workdir, spec.terminal, !off.stdbuf);
    let run_path = spec
        .env
        .iter()
        .rev()
        .chain(base_env.iter().rev())
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let mut readable = spec.readable.clone();
    let toolchain = toolchain_dir(program, workdir, &run_path);
    readable.extend(toolchain.clone());
    let rootfs = (ns_plan.mount && caps.namespaces.rootfs && !off.rootfs).then(|| {
        let plan = layers::rootfs::plan(workdir, &readable, tty_path.as_deref(), ns_plan.devpts);
        // The run's devpts is mounted in its new /dev instead.
        ns_plan.devpts = false;
        plan
    });
    // Landlock's rules follow the mounts: a tree mounted on its own is allowed as itself (its
    // parent in the new root is not the grader's).
    if let Some(root) = &rootfs {
        readable.extend(root.read_only.iter().cloned());
    }
    drop(plans);
    let landlock_span = profile::span("run: landlock ruleset");
    let landlock = if off.landlock || caps.landlock_abi == 0 {
        None
    } else {
        Some(
            sandbox::build_landlock(workdir, &readable, tty_path.as_deref())
                .map_err(|e| RunError::Setup(io::Error::other(format!("Landlock: {e}"))))?,
        )
    };

    drop(landlock_span);
    let exec_span = profile::span("run: child setup, environment, exec vectors");
    // The process limit counts per user: per-run uid as root, per user namespace otherwise.
    let own_user = uid.is_some() || ns_plan.user_flags != 0;
    // A pid namespace with its own /proc mounted: the supervisor lists the run's processes
    // there (memory accounting without a cgroup).
    let own_proc = ns_plan.pid && ns_plan.mount;
    let (gate_wait, gate_open) = slots::gate().map_err(RunError::Setup)?;
    let setup = sandbox::ChildSetup {
        gate_fd: gate_wait.as_raw_fd(),
        cgroup_fds: cgroups.join_raw_fds(),
        rlimits: limits::rlimits(&spec.limits, cgroups.memory_limited, own_user)
            .into_iter()
            .map(|(resource, soft, hard)| {
                // The program is pid 1 of its namespace, which ignores SIGXCPU: SIGKILL at
                // the limit instead of a second later.
                if resource == libc::RLIMIT_CPU && ns_plan.pid {
                    (resource, soft, soft)
                } else {
                    (resource, soft, hard)
                }
            })
            .collect(),
        namespaces: ns_plan,
        rootfs,
        controlling_tty: spec.terminal,
        landlock_fd: landlock.as_ref().map(|l| l.fd.as_raw_fd()).unwrap_or(-1),
        landlock_tmp_access: landlock
            .as_ref()
            .map(|l| layers::landlock::tmp_access(l.abi))
            .unwrap_or(0),
        seccomp_prog: if sock_pair.is_some() {
            &*prog as *const libc::sock_fprog
        } else {
            std::ptr::null()
        },
        seccomp_sock: sock_pair.as_ref().map(|p| p.1.as_raw_fd()).unwrap_or(-1),
        marker_prog: if off.grader_lock || mark_filter.is_empty() {
            std::ptr::null()
        } else {
            &*mark_prog as *const libc::sock_fprog
        },
        uid,
        fail_step: fault == Some(Fault::Step),
    };

    let node_options = node_preload.as_deref().map(|preload| {
        let given = spec.env.iter().rev().find(|(k, _)| k == "NODE_OPTIONS");
        let given = given.map(|(_, v)| v.as_str());
        ("NODE_OPTIONS".to_string(), node::options(preload, given))
    });
    let env: Vec<(String, String)> = base_env
        .into_iter()
        .chain([("GRADE_RUN_ID".to_string(), marker.clone())])
        .chain(spec.env.iter().cloned())
        .chain(node_options)
        .collect();
    let spawn_error = |source: io::Error| {
        let mut named = spawned_program(program, &run_path, workdir, &source);
        // A step of the sandbox that failed: the folder it was to make readable for the
        // program's toolchain is the likely cause, named.
        let step_failed = source
            .get_ref()
            .is_some_and(|e| e.is::<sandbox::SandboxStepFailed>());
        if let (true, Some(dir)) = (step_failed, &toolchain) {
            named.push_str(&format!(
                " (its toolchain's folder {} was to be made readable)",
                dir.display()
            ));
        }
        RunError::Spawn {
            program: named,
            source,
        }
    };
    let exec = sandbox::Exec::new(
        &spec.command,
        env,
        workdir,
        child_ends.each_ref().map(AsRawFd::as_raw_fd),
    )
    .map_err(spawn_error)?;
    drop(exec_span);
    // Everything up to the program's exec is the grader's own work, done while other
    // programs run: the process waits at its gate, just before `execve`, for one of the
    // `--jobs` places (see `slots`), which it holds until it is reaped.
    let mut ticket = None;
    let spawn_span = profile::span("run: spawn (the grader waits until exec)");
    let spawned = if fault == Some(Fault::Spawn) {
        drop(gate_open);
        Err(io::Error::from_raw_os_error(libc::EMFILE))
    } else {
        sandbox::spawn(&setup, &exec, || {
            ticket = Some(slots::programs().request(gate_open));
        })
    };
    drop(spawn_span);
    drop(gate_wait);
    let start = Instant::now();
    let after_spawn = profile::span("run: after spawn (listener, pidfd)");
    drop(child_ends);
    cgroups.close_join_fds();
    let leader = spawned.map_err(spawn_error)?;
    let slot = ticket.map(slots::Ticket::into_slot);
    let listener = sock_pair
        .as_ref()
        .and_then(|p| seccomp::receive_listener(&p.0));
    drop(sock_pair);
    let detection = match (&listener, forced) {
        (Some(_), _) => Detection::Seccomp,
        (None, Some(Detection::Quiescence)) => Detection::Quiescence,
        (None, _) if caps.proc_polling => Detection::ProcPolling,
        (None, _) => Detection::Quiescence,
    };
    set_nonblocking(stdout_fd.as_raw_fd());
    if let Some(fd) = &stderr_fd {
        set_nonblocking(fd.as_raw_fd());
    }
    // SAFETY: pidfd_open on our own unreaped child.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, leader, 0) };
    // SAFETY: a fresh fd we own.
    let pidfd = (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) });

    drop(after_spawn);
    let supervised = profile::span("run: supervised (exec to exit seen)");
    let tree = Tree {
        leader,
        workdir,
        cgroups: &cgroups,
        uid,
        marker: format!("GRADE_RUN_ID={marker}").into_bytes(),
        own_proc,
    };
    let mut sup = Supervisor {
        spec,
        source,
        transcript: Transcript::new(),
        outputs: [
            Output {
                fd: Some(stdout_fd),
                stream: Stream::Stdout,
            },
            Output {
                fd: stderr_fd,
                stream: Stream::Stderr,
            },
        ],
        stdin: Some(stdin),
        stdin_probe: Some(stdin_probe),
        stdin_id,
        stdin_reader,
        stdin_closed: false,
        kept: 0,
        truncated: false,
        output_since_input: false,
        pending_late: false,
        prompts_late: false,
        killed_for: None,
        grace_until: None,
        kept_before_grace: 0,
        asked_after_script: None,
        ended_after_script: false,
        last_activity: Instant::now(),
        buf: vec![0u8; 64 * 1024],
        tree_memory_peak: 0,
        pace: pace::Pace::new(spec.limits.wall, start),
    };
    supervise(
        &mut sup,
        &tree,
        listener.as_ref(),
        pidfd.as_ref(),
        detection,
        start,
    );

    drop(supervised);
    let ending_span = profile::span("run: kill check");
    // Whatever happened: kill the tree, reap the child, drain what is left.
    tree.kill();
    drop(ending_span);
    let ending_span = profile::span("run: disk check");
    if sup.killed_for.is_none() && tree.over_disk_limit() {
        // Filled between two checks: still over the cap.
        sup.killed_for = Some(Ending::DiskLimit);
    }
    drop(ending_span);
    let ending_span = profile::span("run: reap, drain");
    let (status, rusage) = reap(leader);
    let wall = start.elapsed();
    drop(listener);
    sup.stdin = None;
    sup.stdin_probe = None;
    let drain_deadline = Instant::now() + Duration::from_millis(500);
    while sup.outputs.iter().any(|o| o.fd.is_some()) && Instant::now() < drain_deadline {
        if !sup.drain() {
            sup.killed_for.get_or_insert(Ending::OutputLimit);
            break;
        }
        if sup.outputs.iter().any(|o| o.fd.is_some()) {
            poll_outputs(&sup, 10);
        }
    }

    drop(ending_span);
    drop(slot);
    let accounting = profile::span("run: cgroup accounting read");
    let cpu = cgroups.cpu().unwrap_or_else(|| {
        let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        tv(rusage.ru_utime) + tv(rusage.ru_stime)
    });
    let run_peak = cgroups.peak_memory();
    // Without a cgroup, the tree's sampled sum where it had more than one process.
    let tree_peak = (sup.tree_memory_peak > 0).then_some(sup.tree_memory_peak);
    let peak_memory_of_run = run_peak.is_some() || tree_peak.is_some();
    let largest = (rusage.ru_maxrss > 0).then(|| rusage.ru_maxrss as u64 * 1024);
    let peak = run_peak.or(match (tree_peak, largest) {
        (Some(tree), Some(one)) => Some(tree.max(one)),
        (tree, one) => tree.or(one),
    });
    let mut ending = classify(sup.killed_for, status, cpu, &spec.limits, &cgroups);
    // Without a memory cgroup the limit is RLIMIT_DATA: allocations fail (MemoryError,
    // bad_alloc, a crash) instead of an OOM kill. A failure at nearly the limit is the limit.
    let near_limit = peak.is_some_and(|p| p >= spec.limits.memory_bytes / 10 * 8);
    if !cgroups.memory_limited
        && near_limit
        && matches!(ending, Ending::Signaled(_) | Ending::Exited(1..))
    {
        ending = Ending::MemoryLimit;
    }
    if spec.terminal {
        sup.transcript.drop_terminal_echoes();
    }
    // Where end of input was given, found again: dropping echoes may have removed events.
    let end_of_input = sup
        .transcript
        .events()
        .iter()
        .position(|e| matches!(e, crate::transcript::Event::InputClosed));
    let after_script = sup
        .asked_after_script
        .map(|(events, prompt_shown)| AfterScript {
            events: end_of_input.map_or(events, |at| at + 1),
            prompt_shown,
            ended: sup
                .ended_after_script
                .then(|| classify(None, status, cpu, &spec.limits, &cgroups))
                .filter(|e| matches!(e, Ending::Exited(_) | Ending::Signaled(_))),
        });
    let outcome = RunOutcome {
        transcript: std::mem::take(&mut sup.transcript),
        ending,
        after_script,
        unread_inputs: sup.source.remaining(),
        prompts_late: sup.prompts_late,
        output_truncated: sup.truncated,
        wall,
        slept: sup.pace.slept(start + wall),
        cpu,
        peak_memory_bytes: peak,
        peak_memory_of_run,
        detection,
    };
    drop(sup);
    drop(tree);
    drop(accounting);
    let removal = profile::span("run: cgroups removed");
    cgroups.remove();
    drop(removal);
    let removal = profile::span("run: working directory removed");
    if let Some(temporary) = temporary {
        // However deep a tree the program left: no recursion (see `workdir`).
        let dir = temporary.keep();
        let _ = workdir::remove_tree(&dir);
    } else if let Some(preload) = &node_preload {
        // A directory that stays (a build's) keeps only what the program made.
        let _ = std::fs::remove_file(preload);
    }
    drop(removal);
    profile::run_ended();
    if interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_cannot_start_is_named_by_the_file_it_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        let bin = dir.path().join("bin");
        std::fs::create_dir(&bin).expect("mkdir");
        std::fs::write(bin.join("python3.12"), "").expect("write");
        std::os::unix::fs::symlink("python3.12", bin.join("python3")).expect("symlink");
        let path = format!("/nonexistent:{}", bin.display());
        let denied = io::Error::from_raw_os_error(libc::EACCES);
        let real = bin.join("python3.12").canonicalize().expect("real");
        assert_eq!(
            spawned_program("python3", &path, dir.path(), &denied),
            format!(
                "python3 ({} → {})",
                bin.join("python3").display(),
                real.display()
            )
        );
        assert_eq!(
            spawned_program("python3.12", &path, dir.path(), &denied),
            format!("python3.12 ({})", bin.join("python3.12").display())
        );
        let missing = io::Error::from_raw_os_error(libc::ENOENT);
        assert_eq!(
            spawned_program("nowhere", &path, dir.path(), &missing),
            format!("nowhere (not found on the run's PATH {path})")
        );
        // A path given is named as given (a link's target added).
        assert_eq!(
            spawned_program("./prog", &path, dir.path(), &denied),
            "./prog"
        );
    }

    #[test]
    fn case_files_cannot_leave_the_working_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        for bad in ["../x", "/etc/x", "a/../../x"] {
            assert!(
                write_files(dir.path(), &[(bad.into(), vec![])]).is_err(),
                "{bad}"
            );
        }
        write_files(dir.path(), &[("sub/board.txt".into(), b"1 2".to_vec())]).expect("ok");
        assert_eq!(
            std::fs::read(dir.path().join("sub/board.txt")).expect("read"),
            b"1 2"
        );
    }

    #[test]
    fn endings_are_classified() {
        let cg = cgroup::RunCgroups::default();
        let limits = Limits::default();
        let exited = 3 << 8;
        assert_eq!(
            classify(None, exited, Duration::ZERO, &limits, &cg),
            Ending::Exited(3)
        );
        assert_eq!(
            classify(None, libc::SIGXCPU, Duration::ZERO, &limits, &cg),
            Ending::CpuLimit
        );
        assert_eq!(
            classify(None, libc::SIGKILL, limits.cpu, &limits, &cg),
            Ending::CpuLimit
        );
        assert_eq!(
            classify(None, libc::SIGSEGV, Duration::ZERO, &limits, &cg),
            Ending::Signaled(libc::SIGSEGV)
        );
        assert_eq!(
            classify(
                Some(Ending::WallTimeout),
                libc::SIGKILL,
                Duration::ZERO,
                &limits,
                &cg
            ),
            Ending::WallTimeout
        );
    }
}
