//! `GRADE_PROFILE=1`: where a grading's fixed cost and each run's cost go, step by step, as a
//! table on stderr when the process exits (docs/performance.md, "Where a run's cost goes").
//!
//! Every step of [`super::run_with`] and of the spawn is a named span; spans in the spawned
//! children (which share the grader's memory and may only make syscalls) are timestamps
//! written into a fixed array ([`ChildStamps`]) and added up by the parent. Besides the steps,
//! the report gives the time from the process's start to its first run (what a grading pays
//! before its first case) and from the last run's end to the exit; the probes of the machine
//! (once per process) are spans too. Off unless `GRADE_PROFILE` is set.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// `CLOCK_MONOTONIC` in nanoseconds. Async-signal-safe (the vDSO), so the children use it too.
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the struct.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// When the process started (read by a constructor before `main`).
static PROCESS_START: AtomicU64 = AtomicU64::new(0);

extern "C" fn record_start() {
    PROCESS_START.store(now_ns(), Ordering::Relaxed);
}

#[used]
#[link_section = ".init_array"]
static RECORD_START: extern "C" fn() = record_start;

/// Whether profiling is on (decided once, from `GRADE_PROFILE`).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        let on = std::env::var_os("GRADE_PROFILE").is_some_and(|v| !v.is_empty() && v != "0");
        if on {
            FAST_ON.store(true, Ordering::Relaxed);
            // SAFETY: registering a plain extern "C" function.
            unsafe { libc::atexit(report_at_exit) };
        }
        on
    })
}

static FAST_ON: AtomicBool = AtomicBool::new(false);

/// The whole process's CPU time (every thread, user + system) in nanoseconds.
fn process_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the struct.
    unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// The calling thread's CPU time (user + system) in nanoseconds.
pub fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime fills the struct.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// One step's samples: wall nanoseconds, and the grader thread's CPU nanoseconds where the
/// step ran in the grader (spans; not the children's steps).
struct Samples {
    wall: Vec<u64>,
    cpu: Vec<u64>,
}

/// Per step, in first-seen order.
static TOTALS: Mutex<Vec<(&'static str, Samples)>> = Mutex::new(Vec::new());
static FIRST_RUN: AtomicU64 = AtomicU64::new(0);
/// The process's CPU time when its first run started.
static FIRST_RUN_CPU: AtomicU64 = AtomicU64::new(0);
static LAST_RUN_END: AtomicU64 = AtomicU64::new(0);
static RUNS: AtomicU64 = AtomicU64::new(0);

/// Adds `ns` of wall time to `step`.
pub fn add(step: &'static str, ns: u64) {
    add_sample(step, ns, None);
}

fn add_sample(step: &'static str, wall: u64, cpu: Option<u64>) {
    if !FAST_ON.load(Ordering::Relaxed) {
        return;
    }
    if let Ok(mut totals) = TOTALS.lock() {
        let index = match totals.iter().position(|(name, _)| *name == step) {
            Some(index) => index,
            None => {
                totals.push((
                    step,
                    Samples {
                        wall: Vec::new(),
                        cpu: Vec::new(),
                    },
                ));
                totals.len() - 1
            }
        };
        let samples = &mut totals[index].1;
        samples.wall.push(wall);
        samples.cpu.extend(cpu);
    }
}

/// A step being timed: recorded when dropped.
pub struct Span {
    step: &'static str,
    start: u64,
    start_cpu: u64,
}

impl Drop for Span {
    fn drop(&mut self) {
        if self.start != 0 {
            add_sample(
                self.step,
                now_ns().saturating_sub(self.start),
                Some(thread_cpu_ns().saturating_sub(self.start_cpu)),
            );
        }
    }
}

/// Starts timing `step` (nothing when profiling is off): wall time, and the CPU time of the
/// thread that drops the span (the one that started it).
pub fn span(step: &'static str) -> Span {
    if enabled() {
        Span {
            step,
            start: now_ns(),
            start_cpu: thread_cpu_ns(),
        }
    } else {
        Span {
            step,
            start: 0,
            start_cpu: 0,
        }
    }
}

/// A run starts: turns profiling on if asked for, and notes the first run's start.
pub fn run_started() {
    if !enabled() {
        return;
    }
    RUNS.fetch_add(1, Ordering::Relaxed);
    if FIRST_RUN
        .compare_exchange(0, now_ns(), Ordering::Relaxed, Ordering::Relaxed)
        .is_ok()
    {
        FIRST_RUN_CPU.store(process_cpu_ns(), Ordering::Relaxed);
    }
}

/// A run has ended (its directory and cgroups are gone).
pub fn run_ended() {
    if FAST_ON.load(Ordering::Relaxed) {
        LAST_RUN_END.store(now_ns(), Ordering::Relaxed);
    }
}

/// The steps the spawned children time, in order: each stamp is taken when the step ends.
pub const CHILD_STEPS: &[&str] = &[
    "child: signals, stdio, cwd",
    "child: cgroup join",
    "child: privileged namespaces (setns net)",
    "child: uid drop",
    "child: user namespace (unshare, maps, devpts)",
    "child: rlimits",
    "child: clone pid 1",
    "child: setsid",
    "child: rootfs (pivot_root, mounts) or /proc",
    "child: keyring",
    "child: landlock",
    "child: seccomp filters",
    "child: cloexec, sigmask",
    "child: waiting at the gate for a place (--jobs)",
];

/// Timestamps the children write (0: step not reached), the spawn's start first.
pub struct ChildStamps {
    /// `[0]` the clone, then one per [`CHILD_STEPS`] entry.
    pub at: [AtomicU64; 15],
}

impl ChildStamps {
    /// All zero.
    pub fn new() -> ChildStamps {
        ChildStamps {
            at: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }

    /// Child side: step `i` (1-based into [`CHILD_STEPS`]) ended now. Syscalls only.
    pub fn stamp(&self, i: usize) {
        if FAST_ON.load(Ordering::Relaxed) {
            if let Some(slot) = self.at.get(i) {
                slot.store(now_ns(), Ordering::Relaxed);
            }
        }
    }

    /// Parent side, after the spawn returned at `returned`: adds every step's time, and the
    /// time from the last step to the parent's return (the exec).
    pub fn record(&self, returned: u64) {
        if !FAST_ON.load(Ordering::Relaxed) {
            return;
        }
        let mut previous = self.at[0].load(Ordering::Relaxed);
        if previous == 0 {
            return;
        }
        for (i, name) in CHILD_STEPS.iter().enumerate() {
            let t = self.at[i + 1].load(Ordering::Relaxed);
            if t != 0 {
                add(name, t.saturating_sub(previous));
                previous = t;
            }
        }
        add(
            "child: exec (until the grader resumes)",
            returned.saturating_sub(previous),
        );
    }
}

impl Default for ChildStamps {
    fn default() -> Self {
        ChildStamps::new()
    }
}

extern "C" fn report_at_exit() {
    let _ = std::panic::catch_unwind(report);
}

fn report() {
    use std::io::Write as _;
    let end = now_ns();
    let start = PROCESS_START.load(Ordering::Relaxed);
    let first = FIRST_RUN.load(Ordering::Relaxed);
    let last = LAST_RUN_END.load(Ordering::Relaxed);
    let runs = RUNS.load(Ordering::Relaxed);
    let ms = |ns: u64| ns as f64 / 1e6;
    let mut out = String::new();
    use std::fmt::Write as _;
    let _ = writeln!(
        out,
        "GRADE_PROFILE: {runs} run(s), process {:.2} ms",
        ms(end - start)
    );
    if first != 0 {
        let _ = writeln!(
            out,
            "  {:<52} {:>9.2} ms ({:.2} ms of CPU)",
            "process start to the first run",
            ms(first.saturating_sub(start)),
            ms(FIRST_RUN_CPU.load(Ordering::Relaxed))
        );
        let _ = writeln!(
            out,
            "  {:<52} {:>9.2} ms",
            "last run's end to exit",
            ms(end.saturating_sub(last))
        );
    }
    let _ = writeln!(
        out,
        "  {:<52} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "step", "count", "total ms", "median µs", "first µs", "CPU ms", "CPU med µs"
    );
    let median = |samples: &[u64]| {
        let mut sorted = samples.to_vec();
        sorted.sort_unstable();
        sorted.get(sorted.len() / 2).copied().unwrap_or(0)
    };
    let (mut median_sum, mut cpu_median_sum) = (0, 0);
    if let Ok(totals) = TOTALS.lock() {
        for (name, samples) in totals.iter() {
            let wall_median = median(&samples.wall);
            let cpu_median = median(&samples.cpu);
            if name.starts_with("run:") && *name != "run: probes (first run of the process)" {
                median_sum += wall_median;
                cpu_median_sum += cpu_median;
            }
            let cpu = if samples.cpu.is_empty() {
                format!("{:>10} {:>10}", "-", "-")
            } else {
                format!(
                    "{:>10.2} {:>10.1}",
                    ms(samples.cpu.iter().sum()),
                    cpu_median as f64 / 1e3
                )
            };
            let _ = writeln!(
                out,
                "  {:<52} {:>6} {:>10.2} {:>10.1} {:>10.1} {cpu}",
                name,
                samples.wall.len(),
                ms(samples.wall.iter().sum()),
                wall_median as f64 / 1e3,
                samples.wall.first().copied().unwrap_or(0) as f64 / 1e3
            );
        }
    }
    let _ = writeln!(
        out,
        "  {:<52} {:>6} {:>10} {:>10.1} {:>10} {:>10} {:>10.1}",
        "a run's steps (sum of the run: medians)",
        "",
        "",
        median_sum as f64 / 1e3,
        "",
        "",
        cpu_median_sum as f64 / 1e3
    );
    // SAFETY: getrusage fills the struct.
    let (mut own, mut children): (libc::rusage, libc::rusage) =
        unsafe { (std::mem::zeroed(), std::mem::zeroed()) };
    unsafe {
        libc::getrusage(libc::RUSAGE_SELF, &mut own);
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut children);
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    let _ = writeln!(
        out,
        "  CPU: the grader {:.1} ms user + {:.1} ms system, its reaped children {:.1} ms + {:.1} ms",
        tv(own.ru_utime),
        tv(own.ru_stime),
        tv(children.ru_utime),
        tv(children.ru_stime)
    );
    let _ = std::io::stderr().write_all(out.as_bytes());
}
