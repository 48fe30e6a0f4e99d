//! Resource limits applied with `setrlimit` in the child, and the fallbacks used when no
//! cgroup can enforce memory or process limits.

use super::Limits;

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
    if !memory_by_cgroup {
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
    use std::time::Duration;

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
}
