//! Resource limits: the one [`Limits`] type, the one set of overrides of it
//! ([`LimitOverrides`], given on the command line of `grade` and `grade run` in the units case
//! files use: seconds, MiB of memory, KiB of output, a count of processes), and the rlimits applied with
//! `setrlimit` in the child, with the fallbacks used when no cgroup can enforce memory or
//! process limits.

use std::time::Duration;

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
    /// The program is built with AddressSanitizer, which reserves terabytes of address space
    /// for its shadow memory: no RLIMIT_DATA for it (the memory cgroup holds the limit, or
    /// else ASan's own `hard_rss_limit_mb`; docs/sanitizers.md).
    pub sanitized: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            wall: Duration::from_secs(10),
            cpu: Duration::from_secs(5),
            memory_bytes: 512 << 20,
            output_bytes: 1 << 20,
            processes: 64,
            sanitized: false,
        }
    }
}

/// Overrides of a run's [`Limits`] (from the command line: the same for `grade` and
/// `grade run`); each one given replaces the case's.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LimitOverrides {
    /// Wall-clock limit per run.
    pub wall: Option<Duration>,
    /// CPU-time limit per run.
    pub cpu: Option<Duration>,
    /// Memory limit per run in MiB.
    pub memory_mib: Option<u64>,
    /// Output kept per run in KiB.
    pub output_kib: Option<u64>,
    /// Processes and threads a run may have at once.
    pub processes: Option<u32>,
}

impl LimitOverrides {
    /// `base` with every limit given on the command line replaced.
    pub fn apply(&self, base: &Limits) -> Limits {
        let mut limits = base.clone();
        if let Some(wall) = self.wall {
            limits.wall = wall;
        }
        if let Some(cpu) = self.cpu {
            limits.cpu = cpu;
        }
        if let Some(mib) = self.memory_mib {
            limits.memory_bytes = mib << 20;
        }
        if let Some(kib) = self.output_kib {
            limits.output_bytes = usize::try_from(kib << 10).unwrap_or(usize::MAX);
        }
        if let Some(n) = self.processes {
            limits.processes = n;
        }
        limits
    }
}

/// Parses a number of seconds: positive, finite, at most an hour (as in case files).
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .trim()
        .trim_end_matches('s')
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    if s.is_finite() && s > 0.0 && s <= 3600.0 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "{text:?}: seconds must be above 0 and at most 3600"
        ))
    }
}

/// The rlimits for one run: (resource, soft, hard).
///
/// * CPU: the limit rounded up (SIGXCPU), hard one second later (SIGKILL).
/// * CORE 0, FSIZE 64 MiB, NOFILE 1024 (never above the grader's own hard limit).
/// * DATA = the memory limit only when no cgroup enforces memory. Not AS: the JVM reserves
///   gigabytes of address space it never uses (class space, code cache, heap) and does not
///   start under a 512 MiB address-space limit, while DATA counts only private writable
///   memory (heap, anonymous mappings), which is what a runaway program grows.
/// * NPROC = the process limit only when the run has its own user: a per-run uid (root) or its
///   own user namespace (the count is per user namespace since Linux 5.14); otherwise it
///   would count every process of the grader's user.
pub fn rlimits(
    limits: &Limits,
    memory_by_cgroup: bool,
    per_run_uid: bool,
) -> Vec<(libc::__rlimit_resource_t, u64, u64)> {
    let cpu = limits.cpu.as_secs() + u64::from(limits.cpu.subsec_nanos() > 0);
    let cpu = cpu.max(1);
    let mut v = vec![
        (libc::RLIMIT_CPU, cpu, cpu + 1),
        (libc::RLIMIT_CORE, 0, 0),
        (libc::RLIMIT_FSIZE, 64 << 20, 64 << 20),
    ];
    let nofile_hard = current_hard(libc::RLIMIT_NOFILE).min(1024);
    v.push((libc::RLIMIT_NOFILE, nofile_hard, nofile_hard));
    if !memory_by_cgroup && !limits.sanitized {
        v.push((libc::RLIMIT_DATA, limits.memory_bytes, limits.memory_bytes));
    }
    if per_run_uid {
        let n = u64::from(limits.processes);
        v.push((libc::RLIMIT_NPROC, n, n));
    }
    v
}

fn current_hard(resource: libc::__rlimit_resource_t) -> u64 {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills a valid struct.
    if unsafe { libc::getrlimit(resource, &mut lim) } != 0 {
        return 1024;
    }
    lim.rlim_max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_parser_one_unit() {
        assert_eq!(parse_seconds("1.5"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_seconds("2s"), Ok(Duration::from_secs(2)));
        assert!(parse_seconds("0").is_err() && parse_seconds("nan").is_err());
        let args = LimitOverrides {
            memory_mib: Some(100),
            output_kib: Some(64),
            ..LimitOverrides::default()
        };
        let limits = args.apply(&Limits::default());
        assert_eq!(limits.memory_bytes, 100 << 20);
        assert_eq!(limits.output_bytes, 64 << 10);
        assert_eq!(limits.wall, Limits::default().wall);
    }

    #[test]
    fn cpu_rounds_up_and_data_limit_only_without_cgroup() {
        let limits = Limits {
            cpu: Duration::from_millis(1500),
            ..Limits::default()
        };
        let v = rlimits(&limits, true, false);
        assert!(v.contains(&(libc::RLIMIT_CPU, 2, 3)));
        assert!(!v.iter().any(|r| r.0 == libc::RLIMIT_DATA));
        assert!(!v.iter().any(|r| r.0 == libc::RLIMIT_NPROC));
        let v = rlimits(&limits, false, true);
        assert!(v.iter().any(|r| r.0 == libc::RLIMIT_DATA));
        assert!(!v.iter().any(|r| r.0 == libc::RLIMIT_AS));
        assert!(v.iter().any(|r| r.0 == libc::RLIMIT_NPROC));
    }

    #[test]
    fn a_sanitized_run_has_no_data_limit_asan_reserves_its_shadow() {
        let limits = Limits {
            sanitized: true,
            ..Limits::default()
        };
        let v = rlimits(&limits, false, true);
        assert!(!v
            .iter()
            .any(|r| r.0 == libc::RLIMIT_DATA || r.0 == libc::RLIMIT_AS));
    }
}
