//! The process tree of a run: killing all of it (cgroup, process group, /proc sweep), reaping
//! the child and classifying how the run ended (moved verbatim from `run/mod.rs`).

use std::io;
use std::time::Duration;

use super::*;

/// The kill machinery of a run: cgroup, process group, /proc sweep.
pub(super) struct Tree<'a> {
    pub(super) leader: i32,
    /// The run's working directory, whose size is capped.
    pub(super) workdir: &'a std::path::Path,
    pub(super) cgroups: &'a cgroup::RunCgroups,
    pub(super) uid: Option<u32>,
    pub(super) marker: Vec<u8>,
    /// The run has a pid namespace and a `/proc` of its own: its processes are listed there.
    pub(super) own_proc: bool,
    /// The leader is pid 1 of the run's own pid namespace.
    pub(super) pid_namespace: bool,
}

impl Tree<'_> {
    /// Kills every process of the run, escapees included.
    pub(super) fn kill(&self) {
        // SAFETY: the leader is our unreaped child, so its process group id is still ours.
        unsafe { libc::kill(-self.leader, libc::SIGKILL) };
        if self.pid_namespace {
            // When pid 1 of a namespace dies, the kernel kills every other process of it and
            // lets pid 1 be reaped only once they are all gone (`reap` waits for that), and
            // no process can leave its pid namespace: the cgroup's kill and the /proc sweep
            // below (a read of every process's status and environment on the machine, most
            // of an unprivileged grader's own CPU per run) would find nothing more.
            // SAFETY: the leader is our unreaped child.
            unsafe { libc::kill(self.leader, libc::SIGKILL) };
            return;
        }
        if self.cgroups.kill_all(std::time::Duration::from_secs(2)) {
            return;
        }
        for _ in 0..100 {
            let pids = procpoll::run_processes(self.leader, self.uid, &self.marker);
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Whether the working directory holds more than the disk limits allow.
    pub(super) fn over_disk_limit(&self) -> bool {
        workdir::usage(
            self.workdir,
            workdir::DISK_LIMIT_BYTES,
            workdir::DISK_LIMIT_ENTRIES,
        )
        .is_ok_and(|u| {
            u.bytes > workdir::DISK_LIMIT_BYTES || u.entries > workdir::DISK_LIMIT_ENTRIES
        })
    }

    /// CPU time of the leader's process (all its threads) and of the children it has reaped,
    /// from `/proc/<leader>/stat` (clock ticks): the run's CPU where no cgroup counts it.
    pub(super) fn leader_cpu(&self) -> Option<Duration> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.leader)).ok()?;
        // After "pid (comm) ": state is the first field, utime the 12th, then stime, cutime,
        // cstime.
        let rest = &stat[stat.rfind(')')? + 2..];
        let ticks: u64 = rest
            .split_whitespace()
            .skip(11)
            .take(4)
            .map(|t| t.parse::<u64>().ok())
            .sum::<Option<u64>>()?;
        // SAFETY: sysconf has no memory-safety preconditions.
        let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
            .ok()
            .filter(|&t| t > 0)?;
        Some(Duration::from_nanos(
            ticks.saturating_mul(1_000_000_000 / per_second),
        ))
    }

    /// The run's live processes.
    pub(super) fn processes(&self) -> Vec<i32> {
        self.cgroups
            .procs()
            .unwrap_or_else(|| procpoll::run_processes(self.leader, self.uid, &self.marker))
    }
}

/// Waits for the (killed or exited) child and returns its wait status and resource usage.
pub(super) fn reap(pid: i32) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 on our own child.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        loop {
            let r = libc::wait4(pid, &mut status, 0, &mut usage);
            if r >= 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                break;
            }
        }
        (status, usage)
    }
}

/// Whether the child has exited, without reaping it (used when pidfd is unavailable).
pub(super) fn exited_without_reaping(pid: i32) -> bool {
    // SAFETY: siginfo is plain data; waitid with WNOWAIT leaves the child unreaped.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let r = libc::waitid(
            libc::P_PID,
            pid as libc::id_t,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        );
        r == 0 && info.si_pid() != 0
    }
}

pub(super) fn classify(
    killed_for: Option<Ending>,
    status: i32,
    cpu: Duration,
    limits: &Limits,
    cgroups: &cgroup::RunCgroups,
) -> Ending {
    if let Some(ending) = killed_for {
        return ending;
    }
    if libc::WIFSIGNALED(status) {
        let sig = libc::WTERMSIG(status);
        // RLIMIT_CPU's SIGKILL (the program is pid 1 of its namespace, which ignores SIGXCPU)
        // arrives when the kernel's exact count reaches the limit; rusage's sampled count may
        // still be a little short of it.
        if sig == libc::SIGXCPU || (sig == libc::SIGKILL && cpu >= limits.cpu.mul_f64(0.75)) {
            return Ending::CpuLimit;
        }
        if cgroups.oom_killed() {
            return Ending::MemoryLimit;
        }
        return Ending::Signaled(sig);
    }
    let code = libc::WEXITSTATUS(status);
    if code != 0 && cgroups.oom_killed() {
        return Ending::MemoryLimit;
    }
    Ending::Exited(code)
}
