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
        // In range: the command line's parsers checked them (parse_memory_mib, ...).
        if let Some(mib) = self.memory_mib {
            limits.memory_bytes = mib.min(MAX_MEMORY_MIB) << 20;
        }
        if let Some(kib) = self.output_kib {
            limits.output_bytes =
                usize::try_from(kib.min(MAX_OUTPUT_KIB) << 10).unwrap_or(usize::MAX);
        }
        if let Some(n) = self.processes {
            limits.processes = n;
        }
        limits
    }
}

/// The longest wall-clock or CPU limit, in seconds (an hour).
pub const MAX_SECONDS: f64 = 3600.0;
/// The largest memory limit, in MiB (1 TiB): far above any machine a course grades on, and
/// small enough that the limit in bytes cannot overflow.
pub const MAX_MEMORY_MIB: u64 = 1 << 20;
/// The largest output limit, in KiB (4 GiB), for the same reason.
pub const MAX_OUTPUT_KIB: u64 = 1 << 22;

// The ranges of the limits, one function each, shared by the command line's flags (the
// `parse_*` functions below, clap's value parsers) and case files' `limits:` (merge_limits in
// cases/), so that both accept exactly the same values. Each error says the value and range;
// the caller names the flag or key.

/// A wall-clock or CPU limit in seconds: positive, finite, at most an hour.
pub fn seconds_in_range(s: f64) -> Result<Duration, String> {
    if s.is_finite() && s > 0.0 && s <= MAX_SECONDS {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "{s} is not a number of seconds above 0 and at most {MAX_SECONDS}"
        ))
    }
}

/// A memory limit in MiB, from 1 to [`MAX_MEMORY_MIB`]; the limit in bytes.
pub fn memory_mib_in_range(mib: u64) -> Result<u64, String> {
    if (1..=MAX_MEMORY_MIB).contains(&mib) {
        Ok(mib << 20)
    } else {
        Err(format!(
            "{mib} is not a number of MiB from 1 to {MAX_MEMORY_MIB}"
        ))
    }
}

/// An output limit in KiB, from 1 to [`MAX_OUTPUT_KIB`]; the limit in bytes.
pub fn output_kib_in_range(kib: u64) -> Result<usize, String> {
    if (1..=MAX_OUTPUT_KIB).contains(&kib) {
        Ok(usize::try_from(kib << 10).unwrap_or(usize::MAX))
    } else {
        Err(format!(
            "{kib} is not a number of KiB from 1 to {MAX_OUTPUT_KIB}"
        ))
    }
}

/// A process limit: at least 1 (a run needs its own process).
pub fn processes_in_range(n: u32) -> Result<u32, String> {
    if n >= 1 {
        Ok(n)
    } else {
        Err(format!(
            "{n} is not a number of processes from 1 to {}",
            u32::MAX
        ))
    }
}

/// Parses a number of seconds (`--wall-limit`, `--cpu-limit`; a trailing `s` allowed), in
/// [`seconds_in_range`].
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let s: f64 = text
        .trim()
        .trim_end_matches('s')
        .parse()
        .map_err(|_| format!("{text:?} is not a number of seconds"))?;
    seconds_in_range(s)
}

/// Parses `--memory-limit` (MiB), in [`memory_mib_in_range`].
pub fn parse_memory_mib(text: &str) -> Result<u64, String> {
    let mib = parse_whole(text, "MiB")?;
    memory_mib_in_range(mib).map(|_| mib)
}

/// Parses `--output-limit` (KiB), in [`output_kib_in_range`].
pub fn parse_output_kib(text: &str) -> Result<u64, String> {
    let kib = parse_whole(text, "KiB")?;
    output_kib_in_range(kib).map(|_| kib)
}

/// Parses `--process-limit`, in [`processes_in_range`].
pub fn parse_processes(text: &str) -> Result<u32, String> {
    let n = parse_whole(text, "processes")?;
    let n = u32::try_from(n)
        .map_err(|_| format!("{n} is not a number of processes from 1 to {}", u32::MAX))?;
    processes_in_range(n)
}

fn parse_whole(text: &str, unit: &str) -> Result<u64, String> {
    text.parse()
        .map_err(|_| format!("{text:?} is not a whole number of {unit}"))
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
    fn each_limit_accepts_its_largest_value_and_refuses_one_more_and_zero() {
        // 1 TiB of memory, 4 GiB of output, an hour, u32::MAX processes (worked by hand).
        assert_eq!(memory_mib_in_range(1_048_576), Ok(1_099_511_627_776));
        assert!(memory_mib_in_range(1_048_577).is_err() && memory_mib_in_range(0).is_err());
        assert_eq!(memory_mib_in_range(1), Ok(1_048_576));
        assert_eq!(output_kib_in_range(4_194_304), Ok(4_294_967_296));
        assert!(output_kib_in_range(4_194_305).is_err() && output_kib_in_range(0).is_err());
        assert_eq!(output_kib_in_range(1), Ok(1024));
        assert_eq!(seconds_in_range(3600.0), Ok(Duration::from_secs(3600)));
        assert!(seconds_in_range(3600.001).is_err() && seconds_in_range(0.0).is_err());
        assert!(seconds_in_range(f64::NAN).is_err() && seconds_in_range(-1.0).is_err());
        assert_eq!(processes_in_range(4_294_967_295), Ok(4_294_967_295));
        assert!(processes_in_range(0).is_err());
        assert_eq!(
            memory_mib_in_range(1_048_577),
            Err("1048577 is not a number of MiB from 1 to 1048576".into())
        );
    }

    #[test]
    fn the_flags_accept_the_same_values_as_case_files() {
        assert_eq!(parse_memory_mib("1048576"), Ok(1_048_576));
        assert!(parse_memory_mib("1048577").is_err() && parse_memory_mib("0").is_err());
        // 2^44 MiB is 2^64 bytes: it once wrapped to a limit of 0.
        assert!(parse_memory_mib("17592186044416").is_err());
        assert!(parse_memory_mib("-1").is_err() && parse_memory_mib("64M").is_err());
        assert_eq!(parse_output_kib("4194304"), Ok(4_194_304));
        assert!(parse_output_kib("4194305").is_err() && parse_output_kib("0").is_err());
        assert_eq!(parse_processes("4294967295"), Ok(4_294_967_295));
        assert!(parse_processes("4294967296").is_err() && parse_processes("0").is_err());
        assert_eq!(parse_seconds("3600"), Ok(Duration::from_secs(3600)));
        assert!(parse_seconds("3600.001").is_err());
        for v in [
            0,
            1,
            64,
            1 << 20,
            (1 << 20) + 1,
            1 << 22,
            (1 << 22) + 1,
            1 << 44,
        ] {
            let text = v.to_string();
            assert_eq!(
                parse_memory_mib(&text).is_ok(),
                memory_mib_in_range(v).is_ok()
            );
            assert_eq!(
                parse_output_kib(&text).is_ok(),
                output_kib_in_range(v).is_ok()
            );
        }
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
