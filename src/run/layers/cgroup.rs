//! Per-run control groups: tracking, killing, and memory/process/CPU accounting.
//!
//! Works on pure cgroup v2 and on v1 or hybrid machines (v1 `memory`, `pids`, `cpuacct`
//! hierarchies, maybe a controller-less v2 at `/sys/fs/cgroup/unified`, which is then not
//! used: joining it would cost an RCU grace period, ~10 ms, per run). Each run has
//! directories of its own, joined by the child before exec (writing "0" to a `tasks` or
//! `cgroup.procs` fd opened beforehand). Any part that cannot be created is simply missing
//! and the caller falls back to rlimits and /proc sweeps.
//!
//! On v1 (hybrid) machines the directories are pooled per grader process instead of made and
//! removed for every run (a v1 memory cgroup's `mkdir` and `rmdir` were the largest fixed
//! cost of a run after the spawn): a run's set goes back to the pool only when every one of
//! its directories is empty (no process left), and is reset when taken again: the peak
//! (`memory.max_usage_in_bytes`), the limit-hit count (`memory.failcnt`) and the CPU time
//! (`cpuacct.usage`) are zeroed, the limits written again when they differ, and the count
//! that cannot be reset (`oom_kill` in `memory.oom_control`) is kept as a baseline. What the
//! previous run left charged (page cache of files it read) is reclaimed with
//! `memory.force_empty` when above [`RECLAIM_ABOVE`], and what remains is the baseline the
//! next run's peak is measured from. A pooled set keeps its value files open (the peak, the
//! limit-hit count, the charge, `memory.oom_control`, `cpuacct.usage`) and reads and writes
//! them at offset 0: opening a cgroupfs file by path was most of what resetting a set and
//! reading a run's accounting cost. `tasks` is opened afresh for every emptiness check: v1
//! keeps a pid list cached for a second per open file. Pooled directories are removed when
//! the process exits.
//! A cgroup holds no file, socket or IPC object of its own: a reused one shows the next run
//! nothing of the last. Pure v2 keeps one directory per run (`memory.peak` and
//! `memory.events` cannot be reset there before Linux 6.12).

use std::fs;
use std::io::Write as _;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::fs::FileExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Charged memory left by the previous run above which a pooled memory cgroup is emptied
/// (`memory.force_empty`) before its next run.
pub const RECLAIM_ABOVE: u64 = 4 << 20;

/// Sets of v1 directories waiting for their next run (see the module's documentation).
static POOL: std::sync::Mutex<Vec<RunCgroups>> = std::sync::Mutex::new(Vec::new());

/// At most this many sets wait in the pool (more than any number of parallel runs here).
const POOL_SIZE: usize = 32;

/// Removes the pooled directories when the process exits.
extern "C" fn empty_pool_at_exit() {
    let pooled = match POOL.lock() {
        Ok(mut pool) => std::mem::take(&mut *pool),
        Err(_) => return,
    };
    for mut cg in pooled {
        cg.pooled = false;
        cg.remove_dirs();
    }
}

/// The per-run cgroups that could be created.
#[derive(Debug, Default)]
pub struct RunCgroups {
    /// A v2 cgroup (tracking, `cgroup.kill`, `cpu.stat`; `memory.max`/`pids.max` on pure v2).
    pub v2: Option<PathBuf>,
    /// A v1 memory cgroup (hybrid or v1 machines).
    pub v1_memory: Option<PathBuf>,
    /// A v1 pids cgroup (hybrid or v1 machines).
    pub v1_pids: Option<PathBuf>,
    /// A v1 cpuacct cgroup (CPU time of the tree on hybrid or v1 machines).
    pub v1_cpuacct: Option<PathBuf>,
    /// Opened `cgroup.procs` files the child writes "0" to before exec.
    join_fds: Vec<OwnedFd>,
    /// Whether a memory limit is enforced by a cgroup.
    pub memory_limited: bool,
    /// Whether a process limit is enforced by a cgroup.
    pub pids_limited: bool,
    /// The memory and process limits written (pooled sets are rewritten when they differ).
    limits: (u64, u32),
    /// `oom_kill` of the memory cgroup when this run took it (pooled sets keep counting).
    oom_kill_base: u64,
    /// What was charged to the memory cgroup when this run took it.
    memory_base: u64,
    /// Part of the pool's bookkeeping: false once removed for good.
    pooled: bool,
    /// The v1 memory cgroup's value files, kept open (see the module's documentation);
    /// present exactly when `v1_memory` is.
    memory_files: Option<MemoryFiles>,
    /// The v1 `cpuacct.usage`, kept open; present exactly when `v1_cpuacct` is.
    cpu_file: Option<ValueFile>,
}

/// A cgroup value file held open: read and written at offset 0, where the kernel makes its
/// text afresh for every read. Never `tasks` or `cgroup.procs` (a v1 pid list is cached per
/// open file).
#[derive(Debug)]
struct ValueFile(fs::File);

impl ValueFile {
    /// Opens `name` in `dir`, for writing too when `writable`.
    fn open(dir: &Path, name: &str, writable: bool) -> Option<ValueFile> {
        fs::OpenOptions::new()
            .read(true)
            .write(writable)
            .open(dir.join(name))
            .ok()
            .map(ValueFile)
    }

    /// Writes `value` (a cgroup file takes a whole value per write).
    fn set(&self, value: &str) -> bool {
        self.0.write_at(value.as_bytes(), 0).is_ok()
    }

    /// The file's text, read from its start (`None` when it does not fit in `buf`).
    fn text<'b>(&self, buf: &'b mut [u8]) -> Option<&'b str> {
        let n = self.0.read_at(buf, 0).ok()?;
        if n == buf.len() {
            return None;
        }
        std::str::from_utf8(&buf[..n]).ok()
    }

    /// The file's value as a number.
    fn read_u64(&self) -> Option<u64> {
        self.text(&mut [0; 32])?.trim().parse().ok()
    }

    /// The number after `key` in a `key value` file (`memory.oom_control`).
    fn read_key(&self, key: &str) -> Option<u64> {
        let mut buf = [0; 512];
        let text = self.text(&mut buf)?;
        text.lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().parse().ok())
    }
}

/// The v1 memory cgroup's files a run resets and reads.
#[derive(Debug)]
struct MemoryFiles {
    /// `memory.max_usage_in_bytes`: the peak, reset to the charge before each run.
    peak: ValueFile,
    /// `memory.failcnt`: how often the limit was hit.
    failcnt: ValueFile,
    /// `memory.memsw.max_usage_in_bytes`, where swap is accounted.
    swap_peak: Option<ValueFile>,
    /// `memory.usage_in_bytes`: what is charged now.
    usage: ValueFile,
    /// `memory.oom_control`: its `oom_kill` count.
    oom_control: ValueFile,
}

impl MemoryFiles {
    fn open(dir: &Path) -> Option<MemoryFiles> {
        Some(MemoryFiles {
            peak: ValueFile::open(dir, "memory.max_usage_in_bytes", true)?,
            failcnt: ValueFile::open(dir, "memory.failcnt", true)?,
            swap_peak: ValueFile::open(dir, "memory.memsw.max_usage_in_bytes", true),
            usage: ValueFile::open(dir, "memory.usage_in_bytes", false)?,
            oom_control: ValueFile::open(dir, "memory.oom_control", false)?,
        })
    }

    /// The `oom_kill` count so far.
    fn oom_kills(&self) -> u64 {
        self.oom_control.read_key("oom_kill ").unwrap_or(0)
    }
}

/// Where the calling process sits in a hierarchy (from /proc/self/cgroup).
fn own_path(controller: Option<&str>) -> Option<String> {
    let text = fs::read_to_string("/proc/self/cgroup").ok()?;
    for line in text.lines() {
        let mut parts = line.splitn(3, ':');
        let (_, ctrls, path) = (parts.next()?, parts.next()?, parts.next()?);
        match controller {
            None if ctrls.is_empty() => return Some(path.to_string()),
            Some(c) if ctrls.split(',').any(|x| x == c) => return Some(path.to_string()),
            _ => {}
        }
    }
    None
}

/// The mount point of the v2 hierarchy, if any.
pub fn v2_root() -> Option<PathBuf> {
    for root in ["/sys/fs/cgroup/unified", "/sys/fs/cgroup"] {
        if Path::new(root).join("cgroup.procs").exists()
            && Path::new(root).join("cgroup.controllers").exists()
        {
            return Some(PathBuf::from(root));
        }
    }
    None
}

/// Makes the run's cgroup `name` in the grader's own cgroup of the hierarchy at `root` (of
/// `controller`, or v2's with `None`), else at the hierarchy's top. A hierarchy where both were refused for
/// want of permission (an unprivileged grader's, not delegated to it) is not tried again by
/// this process: that was a tenth of such a grader's CPU per run.
fn make_dir(root: &Path, controller: Option<&str>, name: &str) -> Option<PathBuf> {
    static REFUSED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let refused = || REFUSED.lock().unwrap_or_else(PoisonError::into_inner);
    if refused().iter().any(|r| r == root) {
        return None;
    }
    let mut candidates = Vec::new();
    if let Some(own) = own_path(controller) {
        let own = own.trim_start_matches('/');
        if !own.is_empty() {
            candidates.push(root.join(own).join(name));
        }
    }
    candidates.push(root.join(name));
    let mut denied = true;
    for dir in candidates {
        match fs::create_dir(&dir) {
            Ok(()) => return Some(dir),
            Err(e) => {
                denied &= matches!(
                    e.raw_os_error(),
                    Some(libc::EACCES | libc::EPERM | libc::EROFS)
                );
            }
        }
    }
    if denied {
        refused().push(root.to_path_buf());
    }
    None
}

fn write(path: &Path, value: &str) -> bool {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(value.as_bytes()))
        .is_ok()
}

/// The file the child writes "0" to. On v1, `tasks` moves only the calling thread (the whole
/// process, as the child is single-threaded before exec), which the kernel does without the
/// global threadgroup lock: writing `cgroup.procs` waits for an RCU grace period (~10 ms).
fn open_procs(dir: &Path) -> Option<OwnedFd> {
    let tasks = dir.join("tasks");
    let file = if tasks.exists() {
        tasks
    } else {
        dir.join("cgroup.procs")
    };
    fs::OpenOptions::new()
        .write(true)
        .open(file)
        .ok()
        .map(OwnedFd::from)
}

/// Whether no process is left in the v1 directory (read afresh: see [`ValueFile`]).
fn is_empty(dir: &Path) -> bool {
    fs::read_to_string(dir.join("tasks")).is_ok_and(|t| t.trim().is_empty())
}

impl RunCgroups {
    /// The run's cgroups with the limits set: a pooled set reset for it, or new directories;
    /// `enabled == false` gives none.
    pub fn create(enabled: bool, memory_bytes: u64, processes: u32) -> RunCgroups {
        if !enabled {
            return RunCgroups::default();
        }
        loop {
            let taken = POOL.lock().ok().and_then(|mut pool| pool.pop());
            let Some(mut cg) = taken else { break };
            if cg.reset(memory_bytes, processes) {
                return cg;
            }
            cg.pooled = false;
            cg.remove_dirs();
        }
        let mut cg = Self::create_dirs(memory_bytes, processes);
        // `GRADE_CGROUP_POOL=0`: one set per run, made and removed (to measure the pool).
        let pool = std::env::var_os("GRADE_CGROUP_POOL").is_none_or(|v| v != "0");
        cg.pooled = pool && cg.v2.is_none() && cg.tracks();
        cg
    }

    /// Makes a pooled set ready for a new run; false when it cannot be (then removed).
    fn reset(&mut self, memory_bytes: u64, processes: u32) -> bool {
        if let Some(dir) = &self.v1_memory {
            let Some(files) = &self.memory_files else {
                return false;
            };
            if self.limits.0 != memory_bytes {
                let limit = memory_bytes.to_string();
                // Lowering: the swap limit first (it may not be below the memory limit).
                let _ = write(&dir.join("memory.memsw.limit_in_bytes"), &limit);
                if !write(&dir.join("memory.limit_in_bytes"), &limit) {
                    return false;
                }
                let _ = write(&dir.join("memory.memsw.limit_in_bytes"), &limit);
            }
            let mut charged = files.usage.read_u64().unwrap_or(0);
            if charged > RECLAIM_ABOVE {
                let _ = write(&dir.join("memory.force_empty"), "0");
                charged = files.usage.read_u64().unwrap_or(0);
            }
            if !files.peak.set("0") || !files.failcnt.set("0") {
                return false;
            }
            if let Some(swap_peak) = &files.swap_peak {
                let _ = swap_peak.set("0");
            }
            self.oom_kill_base = files.oom_kills();
            // (No process is in the set: what is charged stays as read.)
            self.memory_base = charged;
        }
        if let Some(dir) = &self.v1_pids {
            if self.limits.1 != processes && !write(&dir.join("pids.max"), &processes.to_string()) {
                return false;
            }
        }
        if self.v1_cpuacct.is_some() && !self.cpu_file.as_ref().is_some_and(|f| f.set("0")) {
            return false;
        }
        self.limits = (memory_bytes, processes);
        if self.join_fds.is_empty() {
            let dirs = [&self.v1_memory, &self.v1_pids, &self.v1_cpuacct];
            for dir in dirs.into_iter().flatten() {
                match open_procs(dir) {
                    Some(fd) => self.join_fds.push(fd),
                    None => return false,
                }
            }
        }
        true
    }

    /// Creates new directories for a run and sets the limits.
    fn create_dirs(memory_bytes: u64, processes: u32) -> RunCgroups {
        let mut cg = RunCgroups::default();
        cg.limits = (memory_bytes, processes);
        let name = format!(
            "grade-run-{}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        );
        // Where v1 memory or pids hierarchies exist (hybrid machines), use only v1: joining
        // through `tasks` is cheap, joining a v2 cgroup costs an RCU grace period per run.
        let v1_available = ["memory", "pids"]
            .iter()
            .any(|c| Path::new("/sys/fs/cgroup").join(c).join("tasks").exists());
        let v2 = if v1_available { None } else { v2_root() };
        if let Some(root) = v2 {
            if let Some(dir) = make_dir(&root, None, &name) {
                if let Some(parent) = dir.parent() {
                    // Pure v2: try to delegate memory and pids to our directory.
                    let _ = write(&parent.join("cgroup.subtree_control"), "+memory +pids");
                }
                if dir.join("memory.max").exists()
                    && write(&dir.join("memory.max"), &memory_bytes.to_string())
                {
                    let _ = write(&dir.join("memory.swap.max"), "0");
                    cg.memory_limited = true;
                }
                if dir.join("pids.max").exists()
                    && write(&dir.join("pids.max"), &processes.to_string())
                {
                    cg.pids_limited = true;
                }
                match open_procs(&dir) {
                    Some(fd) => {
                        cg.join_fds.push(fd);
                        cg.v2 = Some(dir);
                    }
                    None => {
                        let _ = fs::remove_dir(&dir);
                    }
                }
            }
        }
        let v1 = Path::new("/sys/fs/cgroup/memory");
        if !cg.memory_limited && v1.join("memory.limit_in_bytes").exists() {
            if let Some(dir) = make_dir(v1, Some("memory"), &name) {
                let limit = memory_bytes.to_string();
                if write(&dir.join("memory.limit_in_bytes"), &limit) {
                    let _ = write(&dir.join("memory.memsw.limit_in_bytes"), &limit);
                    // Without its value files the set could not tell a run's peak or OOM
                    // kill: then it is not used (the limit falls back to rlimits).
                    if let (Some(fd), Some(files)) = (open_procs(&dir), MemoryFiles::open(&dir)) {
                        cg.join_fds.push(fd);
                        cg.memory_limited = true;
                        cg.memory_files = Some(files);
                        cg.v1_memory = Some(dir.clone());
                    }
                }
                if cg.v1_memory.is_none() {
                    let _ = fs::remove_dir(&dir);
                }
            }
        }
        let v1 = Path::new("/sys/fs/cgroup/pids");
        if !cg.pids_limited && v1.join("cgroup.procs").exists() {
            if let Some(dir) = make_dir(v1, Some("pids"), &name) {
                if write(&dir.join("pids.max"), &processes.to_string()) {
                    if let Some(fd) = open_procs(&dir) {
                        cg.join_fds.push(fd);
                        cg.pids_limited = true;
                        cg.v1_pids = Some(dir.clone());
                    }
                }
                if cg.v1_pids.is_none() {
                    let _ = fs::remove_dir(&dir);
                }
            }
        }
        let v1 = Path::new("/sys/fs/cgroup/cpuacct");
        if cg.v2.is_none() && v1.join("cpuacct.usage").exists() {
            if let Some(dir) = make_dir(v1, Some("cpuacct"), &name) {
                match (
                    open_procs(&dir),
                    ValueFile::open(&dir, "cpuacct.usage", true),
                ) {
                    (Some(fd), Some(usage)) => {
                        cg.join_fds.push(fd);
                        cg.cpu_file = Some(usage);
                        cg.v1_cpuacct = Some(dir);
                    }
                    _ => {
                        let _ = fs::remove_dir(&dir);
                    }
                }
            }
        }
        cg
    }

    /// Raw fds of the `cgroup.procs` files the child joins in `pre_exec`.
    pub fn join_raw_fds(&self) -> Vec<RawFd> {
        self.join_fds.iter().map(|f| f.as_raw_fd()).collect()
    }

    /// Closes the parent's copies of the join fds (after spawn); a pooled set keeps them for
    /// its next run (writing to `tasks` reads no cached list).
    pub fn close_join_fds(&mut self) {
        if !self.pooled {
            self.join_fds.clear();
        }
    }

    /// The directory whose `cgroup.procs` lists exactly the run's processes.
    fn tracking_dir(&self) -> Option<&Path> {
        self.v2
            .as_deref()
            .or(self.v1_pids.as_deref())
            .or(self.v1_memory.as_deref())
    }

    /// Whether the run's processes can be listed and killed through a cgroup.
    pub fn tracks(&self) -> bool {
        self.tracking_dir().is_some()
    }

    /// The pids of the run's live processes (`None` without a cgroup).
    pub fn procs(&self) -> Option<Vec<i32>> {
        let dir = self.tracking_dir()?;
        let text = fs::read_to_string(dir.join("cgroup.procs")).ok()?;
        Some(text.lines().filter_map(|l| l.trim().parse().ok()).collect())
    }

    /// Kills every process of the run and waits (briefly) until none is left.
    /// Returns false when the cgroup could not kill (caller sweeps /proc instead).
    pub fn kill_all(&self, within: Duration) -> bool {
        let Some(dir) = self.tracking_dir() else {
            return false;
        };
        let deadline = Instant::now() + within;
        let empty = |dir: &Path| {
            fs::read_to_string(dir.join("cgroup.procs"))
                .map(|t| t.trim().is_empty())
                .unwrap_or(true)
        };
        if empty(dir) {
            return true; // the usual case: the program exited and left nothing behind
        }

        let mut pause = Duration::from_micros(20);
        let has_kill = self
            .v2
            .as_ref()
            .map(|d| d.join("cgroup.kill"))
            .filter(|p| p.exists());
        loop {
            match &has_kill {
                Some(kill) => {
                    let _ = write(kill, "1");
                }
                None => {
                    for pid in self.procs().unwrap_or_default() {
                        // SAFETY: kill has no memory-safety preconditions.
                        unsafe { libc::kill(pid, libc::SIGKILL) };
                    }
                }
            }
            if empty(dir) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        }
    }

    /// CPU time used by the whole tree so far.
    pub fn cpu(&self) -> Option<Duration> {
        if let Some(usage) = &self.cpu_file {
            return Some(Duration::from_nanos(usage.read_u64()?));
        }
        let text = fs::read_to_string(self.v2.as_ref()?.join("cpu.stat")).ok()?;
        let usec: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("usage_usec "))?
            .trim()
            .parse()
            .ok()?;
        Some(Duration::from_micros(usec))
    }

    /// Peak memory of the tree in bytes.
    pub fn peak_memory(&self) -> Option<u64> {
        let read = |p: PathBuf| -> Option<u64> { fs::read_to_string(p).ok()?.trim().parse().ok() };
        if let Some(files) = &self.memory_files {
            return files
                .peak
                .read_u64()
                .map(|peak| peak.saturating_sub(self.memory_base));
        }
        read(self.v2.as_ref()?.join("memory.peak"))
    }

    /// Whether the kernel OOM-killed a process of the run (or refused it memory).
    pub fn oom_killed(&self) -> bool {
        let count = |p: PathBuf, key: &str| -> u64 {
            fs::read_to_string(p)
                .ok()
                .and_then(|t| {
                    t.lines()
                        .find_map(|l| l.strip_prefix(key))
                        .and_then(|v| v.trim().parse().ok())
                })
                .unwrap_or(0)
        };
        if let Some(files) = &self.memory_files {
            return files.oom_kills() > self.oom_kill_base;
        }
        if let Some(dir) = &self.v2 {
            return count(dir.join("memory.events"), "oom_kill ") > 0;
        }
        false
    }

    /// Done with the run (its tree is dead): back to the pool when every directory is empty,
    /// else removed (retrying briefly while busy).
    pub fn remove(&mut self) {
        if self.pooled && self.tracks() {
            let dirs = [&self.v1_memory, &self.v1_pids, &self.v1_cpuacct];
            let empty = dirs.into_iter().flatten().all(|d| is_empty(d));
            if empty {
                if let Ok(mut pool) = POOL.lock() {
                    if pool.len() < POOL_SIZE {
                        static AT_EXIT: std::sync::Once = std::sync::Once::new();
                        // SAFETY: registering a plain extern "C" function.
                        AT_EXIT.call_once(|| unsafe {
                            libc::atexit(empty_pool_at_exit);
                        });
                        pool.push(RunCgroups {
                            v2: None,
                            v1_memory: self.v1_memory.take(),
                            v1_pids: self.v1_pids.take(),
                            v1_cpuacct: self.v1_cpuacct.take(),
                            join_fds: std::mem::take(&mut self.join_fds),
                            memory_files: self.memory_files.take(),
                            cpu_file: self.cpu_file.take(),
                            memory_limited: self.memory_limited,
                            pids_limited: self.pids_limited,
                            limits: self.limits,
                            oom_kill_base: 0,
                            memory_base: 0,
                            pooled: true,
                        });
                        self.pooled = false;
                        return;
                    }
                }
            }
            self.pooled = false;
        }
        self.remove_dirs();
    }

    /// Closes the files held and removes the directories; retries briefly while busy.
    fn remove_dirs(&mut self) {
        self.join_fds.clear();
        self.memory_files = None;
        self.cpu_file = None;
        for dir in [
            self.v2.take(),
            self.v1_memory.take(),
            self.v1_pids.take(),
            self.v1_cpuacct.take(),
        ]
        .into_iter()
        .flatten()
        {
            for _ in 0..200 {
                if fs::remove_dir(&dir).is_ok() || !dir.exists() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}

impl Drop for RunCgroups {
    fn drop(&mut self) {
        self.remove();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Forks a child that joins `cg`'s cgroups (exit status 3 when it cannot), runs `then`
    /// and exits; `then` may call only async-signal-safe functions (the test process has
    /// other threads). Returns the child's pid.
    fn fork_joined(cg: &RunCgroups, then: impl FnOnce()) -> libc::pid_t {
        let fds = cg.join_raw_fds();
        // SAFETY: the child writes to its join fds and goes on in `then` (see above).
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            for &fd in &fds {
                // SAFETY: writing one byte from a static buffer.
                if unsafe { libc::write(fd, b"0".as_ptr().cast(), 1) } != 1 {
                    // SAFETY: ending the child.
                    unsafe { libc::_exit(3) };
                }
            }
            then();
            // SAFETY: ending the child.
            unsafe { libc::_exit(0) };
        }
        pid
    }

    /// Runs a forked child in `cg`'s cgroups: it burns `cpu` of CPU time and touches
    /// `memory` bytes, then exits. Returns its wait status.
    fn run_child(cg: &RunCgroups, cpu: Duration, memory: usize) -> i32 {
        // SAFETY: clock_gettime, mmap and _exit only.
        let pid = fork_joined(cg, || unsafe {
            let mut now = std::mem::zeroed::<libc::timespec>();
            loop {
                libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now);
                let used = Duration::new(now.tv_sec as u64, now.tv_nsec as u32);
                if used >= cpu {
                    break;
                }
            }
            if memory > 0 {
                let area = libc::mmap(
                    std::ptr::null_mut(),
                    memory,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                );
                if area == libc::MAP_FAILED {
                    libc::_exit(4);
                }
                for page in (0..memory).step_by(4096) {
                    *area.cast::<u8>().add(page) = 1;
                }
            }
        });
        let mut status = 0;
        // SAFETY: waiting for our own child.
        unsafe { libc::waitpid(pid, &mut status, 0) };
        status
    }

    /// A v1 set with memory and CPU accounting, or `None` (the test is skipped) where this
    /// machine has no v1 memory and cpuacct hierarchies this user may write to. Where it
    /// has them the set must be made.
    #[allow(clippy::print_stderr)] // a skipped test says so, as the suite's others do
    fn v1_set(memory_bytes: u64) -> Option<RunCgroups> {
        let writable = |controller: &str| {
            let dir = Path::new("/sys/fs/cgroup").join(controller);
            let Ok(c_dir) = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()) else {
                return false;
            };
            // SAFETY: access only reads the NUL-terminated path.
            dir.join("tasks").exists() && unsafe { libc::access(c_dir.as_ptr(), libc::W_OK) } == 0
        };
        if !writable("memory") || !writable("cpuacct") {
            eprintln!("skipped: no writable v1 memory and cpuacct cgroups here");
            return None;
        }
        let cg = RunCgroups::create(true, memory_bytes, 64);
        assert!(
            cg.v1_memory.is_some() && cg.v1_cpuacct.is_some() && cg.memory_files.is_some(),
            "v1 memory and cpuacct hierarchies are writable here: a set is made"
        );
        Some(cg)
    }

    const MIB: u64 = 1 << 20;

    #[test]
    fn a_reused_set_counts_each_run_from_zero() {
        let Some(mut cg) = v1_set(512 * MIB) else {
            return;
        };
        let status = run_child(&cg, Duration::from_millis(60), 64 << 20);
        assert_eq!(status, 0);
        let cpu = cg.cpu().expect("cpuacct.usage read");
        assert!(cpu >= Duration::from_millis(60), "{cpu:?}");
        let peak = cg.peak_memory().expect("the peak read");
        assert!(peak >= 64 * MIB, "{peak}");
        assert!(!cg.oom_killed());

        // Made ready for the next run of the same submission (what the pool does).
        assert!(cg.reset(512 * MIB, 64));
        assert!(cg.cpu().expect("read") < Duration::from_millis(5));
        assert!(cg.peak_memory().expect("read") < MIB);
        let status = run_child(&cg, Duration::from_millis(10), 8 << 20);
        assert_eq!(status, 0);
        let cpu = cg.cpu().expect("read");
        assert!(
            cpu >= Duration::from_millis(10) && cpu < Duration::from_millis(50),
            "{cpu:?}"
        );
        let peak = cg.peak_memory().expect("read");
        assert!((7 * MIB..32 * MIB).contains(&peak), "{peak}");
    }

    #[test]
    fn an_oom_kill_belongs_to_its_run_alone() {
        let Some(mut cg) = v1_set(32 * MIB) else {
            return;
        };
        let status = run_child(&cg, Duration::ZERO, 96 << 20);
        assert!(libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGKILL);
        assert!(cg.oom_killed());
        assert!(cg.reset(32 * MIB, 64));
        assert!(
            !cg.oom_killed(),
            "the last run's kill is the next one's baseline"
        );
        let status = run_child(&cg, Duration::ZERO, 4 << 20);
        assert_eq!(status, 0);
        assert!(!cg.oom_killed());
    }

    #[test]
    fn a_set_is_empty_only_once_its_last_process_is_gone() {
        let Some(cg) = v1_set(64 * MIB) else {
            return;
        };
        // SAFETY: pause only, until the child is killed.
        let pid = fork_joined(&cg, || loop {
            unsafe { libc::pause() };
        });
        /// Kills and reaps the child however the test ends.
        struct Child(libc::pid_t);
        impl Drop for Child {
            fn drop(&mut self) {
                // SAFETY: killing and reaping our own child, once.
                unsafe {
                    libc::kill(self.0, libc::SIGKILL);
                    libc::waitpid(self.0, std::ptr::null_mut(), 0);
                }
            }
        }
        let child = Child(pid);
        let dirs = [&cg.v1_memory, &cg.v1_pids, &cg.v1_cpuacct];
        let joined = Instant::now() + Duration::from_secs(5);
        while dirs.into_iter().flatten().any(|d| is_empty(d)) && Instant::now() < joined {
            std::thread::sleep(Duration::from_millis(1));
        }
        for dir in dirs.into_iter().flatten() {
            assert!(!is_empty(dir), "{} holds the child", dir.display());
        }
        drop(child);
        for dir in dirs.into_iter().flatten() {
            assert!(is_empty(dir), "{} is left empty", dir.display());
        }
    }

    #[test]
    fn a_set_not_pooled_leaves_no_directory() {
        let Some(mut cg) = v1_set(64 * MIB) else {
            return;
        };
        assert_eq!(run_child(&cg, Duration::ZERO, 0), 0);
        let dirs: Vec<PathBuf> = [&cg.v1_memory, &cg.v1_pids, &cg.v1_cpuacct]
            .into_iter()
            .flatten()
            .cloned()
            .collect();
        assert_eq!(dirs.len(), 3);
        cg.pooled = false; // as `GRADE_CGROUP_POOL=0`, or a full pool
        drop(cg);
        for dir in &dirs {
            assert!(!dir.exists(), "{} removed", dir.display());
        }
    }
}
