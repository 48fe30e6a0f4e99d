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
//!   a terminal's read-ahead of nothing (`node`); then `RunSpec::env`.
//! * A working directory holding only `RunSpec::files` (and for Node the preload above): a
//!   prepared sandbox's ([`prepared`]: the directory, the root's plan and Landlock's rules
//!   made once for the runs of one submission), emptied and checked after each run; under a
//!   terminal a fresh temporary one, removed afterwards.
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

pub mod interrupt;
pub mod layers;
mod node;
pub mod pace;
mod prepared;
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
use supervise::{poll_outputs, supervise, Supervisor};
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

fn fd_identity(fd: RawFd) -> waiting::StdinId {
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
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
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

/// One attempt of [`run_with`], its steps in the order a run needs them: the working
/// directory, the cgroups, the program's channels, the sandbox's plan, the program's exec,
/// the spawn, the supervision, the end of the run and what it cost, the cleanup.
fn run_once(spec: &RunSpec, source: &mut dyn InputSource) -> Result<RunOutcome, RunError> {
    if interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    profile::run_started();
    let fault = injected_fault();
    let probes = profile::span("run: probes (first run of the process)");
    let caps = capabilities();
    drop(probes);
    let program = spec.command.first().ok_or_else(|| RunError::Spawn {
        program: String::new(),
        source: io::Error::new(io::ErrorKind::InvalidInput, "empty command"),
    })?;
    let off = disabled_layers();
    let run_path = run_path(spec);
    let mut dir = RunDir::prepare(spec, caps.root && !off.uid, off, &run_path)?;
    let cgroup_span = profile::span("run: cgroups created");
    let mut cgroups =
        cgroup::RunCgroups::create(!off.cgroup, spec.limits.memory_bytes, spec.limits.processes);
    drop(cgroup_span);
    let channels_span = profile::span("run: pipes, seccomp filter, socketpair");
    let forced = forced_detection();
    let want_seccomp =
        matches!(forced, None | Some(Detection::Seccomp)) && seccomp::supported_arch();
    let channels = Channels::open(spec.terminal)?;
    let mut filters = Filters::new(want_seccomp, !off.grader_lock);
    let marker = run_marker();
    drop(channels_span);
    let plans = profile::span("run: namespace and rootfs plans");
    // The run's clean environment: its PATH finds the program, and it is the base of the
    // environment the program gets.
    let base_env = sandbox::clean_env(&dir.path, spec.terminal, !off.stdbuf);
    let tty_path = channels.tty_path.as_deref();
    // The pooled network namespace is held until the run has ended (this function returns
    // after its processes are reaped).
    let (mut namespaces, _network) = run_namespaces(spec, off, dir.uid);
    let confinement = dir.take_confinement(|path| {
        prepared::Confinement::plan(spec, caps, off, path, &run_path, &namespaces, tty_path)
    })?;
    if confinement.rootfs.is_some() {
        // The run's devpts is mounted in its new /dev instead.
        namespaces.devpts = false;
    }
    let toolchain = confinement.toolchain.as_deref();
    drop(plans);
    let landlock = landlock_ruleset(confinement.landlock.as_ref())?;
    let exec_span = profile::span("run: child setup, environment, exec vectors");
    let (gate_wait, gate_open) = slots::gate().map_err(RunError::Setup)?;
    let setup = child_setup(
        spec,
        (namespaces, confinement.rootfs.as_ref(), dir.uid),
        landlock.as_ref(),
        &filters,
        &cgroups,
        &gate_wait,
        fault,
    );
    // A pid namespace with its own /proc mounted: the supervisor lists the run's processes
    // there (memory accounting without a cgroup).
    let own_proc = setup.namespaces.pid && setup.namespaces.mount;
    let spawn_failed = |source| spawn_error(program, &run_path, toolchain, &dir.path, source);
    let env = run_env(spec, base_env, &marker, dir.node_preload.as_deref());
    let child_fds = channels.child.each_ref().map(AsRawFd::as_raw_fd);
    let exec =
        sandbox::Exec::new(&spec.command, env, &dir.path, child_fds).map_err(spawn_failed)?;
    drop(exec_span);
    let (spawned, ticket) = start_program(&setup, &exec, (gate_wait, gate_open), fault);
    let start = Instant::now();
    let after_spawn = profile::span("run: after spawn (listener, pidfd)");
    let Channels { child, grader, .. } = channels;
    drop(child);
    cgroups.close_join_fds();
    let leader = spawned.map_err(spawn_failed)?;
    let slot = ticket.map(slots::Ticket::into_slot);
    let listener = filters.receive_listener();
    let detection = detection(listener.is_some(), forced, caps);
    let pidfd = grader.started(leader);
    drop(after_spawn);
    let supervised = profile::span("run: supervised (exec to exit seen)");
    let tree = Tree {
        leader,
        workdir: &dir.path,
        cgroups: &cgroups,
        uid: dir.uid,
        marker: format!("GRADE_RUN_ID={marker}").into_bytes(),
        own_proc,
        pid_namespace: setup.namespaces.pid,
    };
    let mut sup = Supervisor::new(spec, source, grader, start);
    supervise(
        &mut sup,
        &tree,
        listener.as_ref(),
        pidfd.as_ref(),
        detection,
        start,
    );
    drop(supervised);
    let reaped = wind_down(&mut sup, &tree, listener, start);
    drop(slot);
    let accounting = profile::span("run: cgroup accounting read");
    let outcome = run_outcome(&mut sup, &cgroups, &reaped, start, detection);
    drop(sup);
    drop(tree);
    drop(accounting);
    dir.keep_confinement(confinement);
    clean_up(cgroups, dir);
    profile::run_ended();
    if interrupt::interrupted() {
        return Err(RunError::Interrupted);
    }
    Ok(outcome)
}

/// The run's working directory: a prepared sandbox's ([`prepared`]), or the spec's own (a
/// build's, kept afterwards), or under a terminal a fresh temporary one, holding the case's
/// files; as root it belongs to the per-run uid, so the program can write there and nowhere
/// else.
struct RunDir {
    /// The prepared sandbox whose directory this is, given back after the run.
    sandbox: Option<prepared::Sandbox>,
    /// The fresh directory, removed after the run; `None` for the spec's own.
    temporary: Option<tempfile::TempDir>,
    /// Where the program runs.
    path: PathBuf,
    /// Node's stdin preload written into it (see `node`), removed after a kept directory's run.
    node_preload: Option<PathBuf>,
    /// The per-run uid the program runs as (as root, unless `GRADE_DISABLE=uid`).
    uid: Option<u32>,
}

impl RunDir {
    /// Takes the directory and writes the case's files (and Node's preload) into it; a
    /// per-run uid, when `per_run_uid` asks for one, is chosen here and given the tree. A
    /// run over pipes without a directory of its own takes a prepared sandbox for its
    /// program, readable paths and layers `off` (looked up on `run_path`).
    fn prepare(
        spec: &RunSpec,
        per_run_uid: bool,
        off: Disabled,
        run_path: &str,
    ) -> Result<RunDir, RunError> {
        let _span = profile::span("run: working directory (mkdir, files, chown)");
        let (sandbox, temporary, path) = match &spec.workdir {
            Some(dir) => (None, None, dir.clone()),
            None if spec.terminal => {
                let temporary = tempfile::Builder::new()
                    .prefix("grade-run-")
                    .tempdir()
                    .map_err(RunError::Setup)?;
                let path = temporary.path().to_path_buf();
                (None, Some(temporary), path)
            }
            None => {
                let key = prepared::Key {
                    program: spec.command.first().cloned().unwrap_or_default(),
                    run_path: run_path.to_string(),
                    readable: spec.readable.clone(),
                    off,
                    protected: layers::protected::generation(),
                };
                let sandbox = prepared::take(key).map_err(RunError::Setup)?;
                let path = sandbox.dir.clone();
                (Some(sandbox), None, path)
            }
        };
        let mut dir = RunDir {
            sandbox,
            temporary,
            path,
            node_preload: None,
            uid: None,
        };
        write_files(&dir.path, &spec.files).map_err(RunError::Setup)?;
        // Node over pipes reads its stdin as at a terminal (see `node`).
        if !spec.terminal && node::runs_node(&spec.command, &dir.path) {
            let preload = dir.path.join(node::PRELOAD_NAME);
            std::fs::write(&preload, node::PRELOAD).map_err(RunError::Setup)?;
            dir.node_preload = Some(preload);
        }
        dir.uid = per_run_uid.then(sandbox::per_run_uid);
        if let Some(uid) = dir.uid {
            chown_tree(&dir.path, uid).map_err(RunError::Setup)?;
        }
        Ok(dir)
    }

    /// What the run is confined to: its prepared sandbox's, planned by its first run with
    /// `plan` (given this directory), which [`RunDir::keep_confinement`] hands back.
    fn take_confinement(
        &mut self,
        plan: impl FnOnce(&std::path::Path) -> Result<prepared::Confinement, RunError>,
    ) -> Result<prepared::Confinement, RunError> {
        match self.sandbox.as_mut().and_then(|s| s.confinement.take()) {
            Some(confinement) => Ok(confinement),
            None => plan(&self.path),
        }
    }

    /// Keeps `confinement` with the prepared sandbox for its next run.
    fn keep_confinement(&mut self, confinement: prepared::Confinement) {
        if let Some(sandbox) = &mut self.sandbox {
            sandbox.confinement = Some(confinement);
        }
    }

    /// Removes the temporary directory, however deep a tree the program left (no recursion,
    /// see `workdir`), or gives the prepared sandbox back emptied; a kept directory loses
    /// only the Node preload, keeping what the program made.
    fn remove(mut self) {
        let _span = profile::span("run: working directory removed");
        if let Some(sandbox) = self.sandbox.take() {
            prepared::give_back(sandbox);
        } else if let Some(temporary) = self.temporary.take() {
            let dir = temporary.keep();
            let _ = workdir::remove_tree(&dir);
        } else if let Some(preload) = &self.node_preload {
            let _ = std::fs::remove_file(preload);
        }
    }
}

impl Drop for RunDir {
    /// A run that ended before its clean-up (a sandbox step it could not take) gives its
    /// prepared sandbox back all the same: nothing of it ran, or its processes are gone.
    fn drop(&mut self) {
        if let Some(sandbox) = self.sandbox.take() {
            prepared::give_back(sandbox);
        }
    }
}

/// The program's stdin, stdout and stderr: three pipes, or under a terminal one
/// pseudo-terminal for all three (stderr shares it, as in a student's terminal: Python's
/// `input()` writes its prompt to stderr when stdin and stdout are terminals).
struct Channels {
    /// The child's ends (its stdin, stdout and stderr), closed here once it has started.
    child: [OwnedFd; 3],
    /// The grader's ends.
    grader: GraderEnds,
    /// The terminal's path (`/dev/pts/N`), which the sandbox lets the run open.
    tty_path: Option<PathBuf>,
}

/// The grader's side of a run's channels, handed to its supervisor.
struct GraderEnds {
    /// Where input is written: the pipe's write end or the terminal master (non-blocking).
    stdin: OwnedFd,
    /// Where unread input is counted (the pipe's write end, or the terminal slave).
    stdin_probe: OwnedFd,
    /// The program's own stdin (the pipe's read end, or the terminal slave), whose file
    /// status flags tell cheaply whether its reads block.
    stdin_reader: OwnedFd,
    /// The program's stdout (with stderr under a terminal).
    stdout: OwnedFd,
    /// The program's stderr over pipes.
    stderr: Option<OwnedFd>,
    /// What the program's stdin is, to recognise its reads and waits.
    stdin_id: waiting::StdinId,
}

impl Channels {
    /// Opens the pipes or the pseudo-terminal.
    fn open(terminal: bool) -> Result<Channels, RunError> {
        let setup = RunError::Setup;
        let (child, stdin, stdin_probe, stdin_reader, stdout, stderr, tty_path) = if terminal {
            let p = pty::open().map_err(setup)?;
            let s1 = p.slave.try_clone().map_err(setup)?;
            let s2 = p.slave.try_clone().map_err(setup)?;
            let s3 = p.slave.try_clone().map_err(setup)?;
            let master = p.master.try_clone().map_err(setup)?;
            let reader = p.slave.try_clone().map_err(setup)?;
            let tty = Some(p.slave_path);
            ([s1, s2, s3], p.master, p.slave, reader, master, None, tty)
        } else {
            let (r, w) = pipe().map_err(setup)?;
            let (out_r, out_w) = pipe().map_err(setup)?;
            let (err_r, err_w) = pipe().map_err(setup)?;
            let probe = w.try_clone().map_err(setup)?;
            let reader = r.try_clone().map_err(setup)?;
            (
                [r, out_w, err_w],
                w,
                probe,
                reader,
                out_r,
                Some(err_r),
                None,
            )
        };
        set_nonblocking(stdin.as_raw_fd());
        let stdin_id = fd_identity(stdin_probe.as_raw_fd());
        Ok(Channels {
            child,
            grader: GraderEnds {
                stdin,
                stdin_probe,
                stdin_reader,
                stdout,
                stderr,
                stdin_id,
            },
            tty_path,
        })
    }
}

impl GraderEnds {
    /// Once the program `leader` has started: its output is read without blocking, and its
    /// exit is seen on a pidfd (where the kernel has them).
    fn started(&self, leader: libc::pid_t) -> Option<OwnedFd> {
        set_nonblocking(self.stdout.as_raw_fd());
        if let Some(fd) = &self.stderr {
            set_nonblocking(fd.as_raw_fd());
        }
        // SAFETY: pidfd_open on our own unreaped child.
        let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, leader, 0) };
        // SAFETY: a fresh fd we own.
        (pidfd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(pidfd as RawFd) })
    }
}

/// The seccomp programs the child installs (the input-detection filter and the grader
/// mark), kept alive here because the child setup points at them, and the socketpair the
/// child sends the filter's listener back on.
struct Filters {
    /// The input-detection filter's instructions, which `prog` points at.
    _filter: Vec<libc::sock_filter>,
    prog: Box<libc::sock_fprog>,
    /// The grader mark's instructions, which `mark_prog` points at.
    mark_filter: Vec<libc::sock_filter>,
    mark_prog: Box<libc::sock_fprog>,
    /// Install the grader mark (not with `GRADE_DISABLE=grader-lock`).
    mark: bool,
    /// (the grader's end, the child's end), when the detection filter is installed.
    sock_pair: Option<(OwnedFd, OwnedFd)>,
}

impl Filters {
    /// The filters; the detection filter and its socketpair only when `want_seccomp`.
    fn new(want_seccomp: bool, mark: bool) -> Filters {
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
        Filters {
            _filter: filter,
            prog,
            mark_filter,
            mark_prog,
            mark,
            sock_pair,
        }
    }

    /// The detection filter for the child, or null when it is not installed.
    fn seccomp_prog(&self) -> *const libc::sock_fprog {
        if self.sock_pair.is_some() {
            &*self.prog as *const libc::sock_fprog
        } else {
            std::ptr::null()
        }
    }

    /// The grader mark for the child, or null.
    fn marker_prog(&self) -> *const libc::sock_fprog {
        if !self.mark || self.mark_filter.is_empty() {
            std::ptr::null()
        } else {
            &*self.mark_prog as *const libc::sock_fprog
        }
    }

    /// After the spawn: the listener the child sent, when its filter is installed; the
    /// socketpair is closed.
    fn receive_listener(&mut self) -> Option<OwnedFd> {
        let sock_pair = self.sock_pair.take();
        sock_pair
            .as_ref()
            .and_then(|p| seccomp::receive_listener(&p.0))
    }
}

/// The run's unique id (`GRADE_RUN_ID`), by which the kill sweep finds escapees.
fn run_marker() -> String {
    static RUN_COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    format!(
        "{}-{}-{}",
        std::process::id(),
        RUN_COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    )
}

/// The PATH the program is looked up on: the spec's own (the last one given wins, as in
/// `Exec::new`), else the clean environment's.
fn run_path(spec: &RunSpec) -> String {
    spec.env
        .iter()
        .rev()
        .find(|(k, _)| k == "PATH")
        .map_or(sandbox::RUN_PATH, |(_, v)| v.as_str())
        .to_string()
}

/// The run's namespaces as `uid` (root's per-run uid), and a network namespace of the pool,
/// which the run joins and the caller holds until the run has ended (instead of one made and
/// torn down per run).
fn run_namespaces(
    spec: &RunSpec,
    off: Disabled,
    uid: Option<u32>,
) -> (
    layers::namespaces::Plan,
    Option<layers::namespaces::PooledNetwork>,
) {
    let mut namespaces = layers::namespaces::plan(uid, !off.namespaces, !off.netns);
    namespaces.devpts &= !spec.terminal;
    // As root only with the per-run uid: a root run in its own user namespace keeps its own.
    let pools = uid.is_some() || !sandbox::is_root();
    let pooled_network = (pools && namespaces.makes_network())
        .then(layers::namespaces::pooled_network)
        .flatten();
    if let Some(network) = &pooled_network {
        namespaces.join_network(network);
    }
    (namespaces, pooled_network)
}

impl prepared::Confinement {
    /// What a run of `spec` in `workdir` is confined to, with the terminal `tty` (if any):
    /// its toolchain's folder, its own root where `namespaces` give it a mount namespace,
    /// and Landlock's rules (the spec's paths, the toolchain's folder, and the trees mounted
    /// on their own in its root). A kernel without Landlock gets no rules; rules that
    /// cannot be made refuse the run, so that none goes on silently without them.
    fn plan(
        spec: &RunSpec,
        caps: &Capabilities,
        off: Disabled,
        workdir: &std::path::Path,
        run_path: &str,
        namespaces: &layers::namespaces::Plan,
        tty: Option<&std::path::Path>,
    ) -> Result<prepared::Confinement, RunError> {
        let program = spec.command.first().map_or("", String::as_str);
        let toolchain = toolchain_dir(program, workdir, run_path);
        let mut readable = spec.readable.clone();
        readable.extend(toolchain.clone());
        let rootfs = (namespaces.mount && caps.namespaces.rootfs && !off.rootfs)
            .then(|| layers::rootfs::plan(workdir, &readable, tty, namespaces.devpts));
        // Landlock's rules follow the mounts: a tree mounted on its own is allowed as itself
        // (its parent in the new root is not the grader's).
        if let Some(root) = &rootfs {
            readable.extend(root.read_only.iter().cloned());
        }
        let landlock = if off.landlock || caps.landlock_abi == 0 {
            None
        } else {
            let _span = profile::span("run: landlock rules (paths opened)");
            let rules = sandbox::landlock_rules(workdir, &readable, tty)
                .map_err(|e| RunError::Setup(io::Error::other(format!("Landlock: {e}"))))?;
            Some(rules)
        };
        Ok(prepared::Confinement {
            toolchain,
            rootfs,
            landlock,
        })
    }
}

/// What the child does before its exec: the run's namespaces, root and uid (`sandbox`), its
/// limits, cgroups, Landlock ruleset and seccomp filters, and the `gate` it waits at for its
/// place among the `--jobs`. The setup points at the root's plan, `landlock`, `filters`,
/// `cgroups` and `gate`, which must outlive the spawn.
fn child_setup<'a>(
    spec: &RunSpec,
    (namespaces, rootfs, uid): (
        layers::namespaces::Plan,
        Option<&'a layers::rootfs::Plan>,
        Option<u32>,
    ),
    landlock: Option<&layers::landlock::Landlock>,
    filters: &Filters,
    cgroups: &cgroup::RunCgroups,
    gate: &OwnedFd,
    fault: Option<Fault>,
) -> sandbox::ChildSetup<'a> {
    // The process limit counts per user: per-run uid as root, per user namespace otherwise.
    let own_user = uid.is_some() || namespaces.user_flags != 0;
    let pid_namespace = namespaces.pid;
    sandbox::ChildSetup {
        gate_fd: gate.as_raw_fd(),
        cgroup_fds: cgroups.join_raw_fds(),
        rlimits: limits::rlimits(&spec.limits, cgroups.memory_limited, own_user)
            .into_iter()
            .map(|(resource, soft, hard)| {
                // The program is pid 1 of its namespace, which ignores SIGXCPU: SIGKILL at
                // the limit instead of a second later.
                if resource == libc::RLIMIT_CPU && pid_namespace {
                    (resource, soft, soft)
                } else {
                    (resource, soft, hard)
                }
            })
            .collect(),
        namespaces,
        rootfs,
        controlling_tty: spec.terminal,
        landlock_fd: landlock.map(|l| l.fd.as_raw_fd()).unwrap_or(-1),
        landlock_tmp_access: landlock
            .map(|l| layers::landlock::tmp_access(l.abi))
            .unwrap_or(0),
        seccomp_prog: filters.seccomp_prog(),
        seccomp_sock: filters
            .sock_pair
            .as_ref()
            .map(|p| p.1.as_raw_fd())
            .unwrap_or(-1),
        marker_prog: filters.marker_prog(),
        uid,
        fail_step: fault == Some(Fault::Step),
    }
}

/// The run's own Landlock ruleset, made from its prepared rules (none where the kernel has
/// no Landlock or it is switched off).
fn landlock_ruleset(
    rules: Option<&layers::landlock::LandlockRules>,
) -> Result<Option<layers::landlock::Landlock>, RunError> {
    let _span = profile::span("run: landlock ruleset");
    rules
        .map(layers::landlock::LandlockRules::ruleset)
        .transpose()
        .map_err(|e| RunError::Setup(io::Error::other(format!("Landlock: {e}"))))
}

/// The program's environment: the run's clean one, its id, the spec's own variables, and
/// for Node the option that loads its stdin preload (added to the spec's `NODE_OPTIONS`).
fn run_env(
    spec: &RunSpec,
    base_env: Vec<(String, String)>,
    marker: &str,
    node_preload: Option<&std::path::Path>,
) -> Vec<(String, String)> {
    let node_options = node_preload.map(|preload| {
        let given = spec.env.iter().rev().find(|(k, _)| k == "NODE_OPTIONS");
        let given = given.map(|(_, v)| v.as_str());
        ("NODE_OPTIONS".to_string(), node::options(preload, given))
    });
    base_env
        .into_iter()
        .chain([("GRADE_RUN_ID".to_string(), marker.to_string())])
        .chain(spec.env.iter().cloned())
        .chain(node_options)
        .collect()
}

/// A start that failed, with the program named by the file it found (see
/// [`spawned_program`]); when a step of the sandbox failed, the folder it was to make
/// readable for the program's toolchain is the likely cause, named.
fn spawn_error(
    program: &str,
    run_path: &str,
    toolchain: Option<&std::path::Path>,
    workdir: &std::path::Path,
    source: io::Error,
) -> RunError {
    let mut named = spawned_program(program, run_path, workdir, &source);
    let step_failed = source
        .get_ref()
        .is_some_and(|e| e.is::<sandbox::SandboxStepFailed>());
    if let (true, Some(dir)) = (step_failed, toolchain) {
        named.push_str(&format!(
            " (its toolchain's folder {} was to be made readable)",
            dir.display()
        ));
    }
    RunError::Spawn {
        program: named,
        source,
    }
}

/// Starts the program. Everything up to its exec is the grader's own work, done while other
/// programs run: the process waits at its gate, just before `execve`, for one of the
/// `--jobs` places (see `slots`), which it holds until it is reaped. Returns its pid (or
/// why it did not start) and the ticket for its place, once asked for.
fn start_program(
    setup: &sandbox::ChildSetup,
    exec: &sandbox::Exec,
    (gate_wait, gate_open): (OwnedFd, OwnedFd),
    fault: Option<Fault>,
) -> (io::Result<libc::pid_t>, Option<slots::Ticket<'static>>) {
    let mut ticket = None;
    let spawn_span = profile::span("run: spawn (the grader waits until exec)");
    let spawned = if fault == Some(Fault::Spawn) {
        drop(gate_open);
        Err(io::Error::from_raw_os_error(libc::EMFILE))
    } else {
        sandbox::spawn(setup, exec, || {
            ticket = Some(slots::programs().request(gate_open));
        })
    };
    drop(spawn_span);
    drop(gate_wait);
    (spawned, ticket)
}

/// How the run knows when the program waits for input: seccomp where its listener came
/// back (`listening`), else what `GRADE_DETECTION` forces or the machine allows.
fn detection(listening: bool, forced: Option<Detection>, caps: &Capabilities) -> Detection {
    match (listening, forced) {
        (true, _) => Detection::Seccomp,
        (false, Some(Detection::Quiescence)) => Detection::Quiescence,
        (false, _) if caps.proc_polling => Detection::ProcPolling,
        (false, _) => Detection::Quiescence,
    }
}

/// How the program was reaped.
struct Reaped {
    /// Its wait status.
    status: i32,
    /// Its resource usage (and its reaped children's).
    rusage: libc::rusage,
    /// The run's wall time, from the spawn to the reaping.
    wall: Duration,
}

/// Ends the run, whatever happened: kills the tree, notes a working directory still over
/// its cap, reaps the program, and drains what it printed until then (for at most 500 ms).
fn wind_down(
    sup: &mut Supervisor<'_>,
    tree: &Tree<'_>,
    listener: Option<OwnedFd>,
    start: Instant,
) -> Reaped {
    let ending_span = profile::span("run: kill check");
    tree.kill();
    drop(ending_span);
    let ending_span = profile::span("run: disk check");
    if sup.killed_for.is_none() && tree.over_disk_limit() {
        // Filled between two checks: still over the cap.
        sup.killed_for = Some(Ending::DiskLimit);
    }
    drop(ending_span);
    let _ending_span = profile::span("run: reap, drain");
    let (status, rusage) = reap(tree.leader);
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
            poll_outputs(sup, 10);
        }
    }
    Reaped {
        status,
        rusage,
        wall,
    }
}

/// What the run produced and cost: the supervisor's transcript and record, how it ended
/// (classified from its status and limits), its CPU time and peak memory.
fn run_outcome(
    sup: &mut Supervisor<'_>,
    cgroups: &cgroup::RunCgroups,
    reaped: &Reaped,
    start: Instant,
    detection: Detection,
) -> RunOutcome {
    let spec = sup.spec;
    let Reaped {
        status,
        rusage,
        wall,
    } = *reaped;
    let cpu = cgroups.cpu().unwrap_or_else(|| {
        let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
        tv(rusage.ru_utime) + tv(rusage.ru_stime)
    });
    let (peak, peak_memory_of_run) = peak_memory(cgroups, sup.tree_memory_peak, &rusage);
    let mut ending = classify(sup.killed_for, status, cpu, &spec.limits, cgroups);
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
                .then(|| classify(None, status, cpu, &spec.limits, cgroups))
                .filter(|e| matches!(e, Ending::Exited(_) | Ending::Signaled(_))),
        });
    RunOutcome {
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
    }
}

/// Removes what the run left behind once its processes are gone: its cgroups, then its
/// working directory.
fn clean_up(mut cgroups: cgroup::RunCgroups, dir: RunDir) {
    let removal = profile::span("run: cgroups removed");
    cgroups.remove();
    drop(removal);
    dir.remove();
}

/// The run's peak memory, and whether it is the whole run's: its cgroup's peak; without
/// one, the tree's sampled sum where it had more than one process (`tree_peak`, 0: never),
/// or at least the largest single process's (`ru_maxrss`).
fn peak_memory(
    cgroups: &cgroup::RunCgroups,
    tree_peak: u64,
    rusage: &libc::rusage,
) -> (Option<u64>, bool) {
    let run_peak = cgroups.peak_memory();
    let tree_peak = (tree_peak > 0).then_some(tree_peak);
    let peak_memory_of_run = run_peak.is_some() || tree_peak.is_some();
    let largest = (rusage.ru_maxrss > 0).then(|| rusage.ru_maxrss as u64 * 1024);
    let peak = run_peak.or(match (tree_peak, largest) {
        (Some(tree), Some(one)) => Some(tree.max(one)),
        (tree, one) => tree.or(one),
    });
    (peak, peak_memory_of_run)
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
