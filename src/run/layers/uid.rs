//! The run's uid: as root, a per-run unprivileged uid and gid with no supplementary groups,
//! so a program cannot signal the grader or other runs nor read files by group; unprivileged,
//! the grader's own uid inside the run's own user namespace (`namespaces`).
//!
//! * prepare: [`per_run_uid`] (the working directory is chowned to it).
//! * apply: `setgroups(0)`, `setresgid`, `setresuid` in the child, checked
//!   (`sandbox::spawn`).
//! * doctor: on when root.

use std::sync::atomic::{AtomicU32, Ordering};

static UID_COUNTER: AtomicU32 = AtomicU32::new(0);

/// A uid (and gid) no other concurrent run uses: 2^30 + (pid mod 2^18) · 2^12 + counter.
pub fn per_run_uid() -> u32 {
    let n = UID_COUNTER.fetch_add(1, Ordering::Relaxed) & 0xfff;
    (1 << 30) | ((std::process::id() & 0x3ffff) << 12) | n
}

/// Whether the grader runs with root privileges.
pub fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}
