//! Descriptors: nothing the grader inherited or opened reaches the program except its stdin,
//! stdout and stderr. Landlock only checks new opens, so an inherited descriptor (the grader
//! started as `grade … 7<secret 8>>gradebook.csv`) would otherwise be a way out.
//!
//! * prepare: nothing (every descriptor the runner opens itself is close-on-exec).
//! * apply: `close_range(3, ~0, CLOSE_RANGE_CLOEXEC)` as the last step before exec (the
//!   descriptors the child still needs until then stay usable until exec); on kernels before 5.11, `FD_CLOEXEC` on
//!   every descriptor below the descriptor limit.
//! * doctor: always on.

/// `CLOSE_RANGE_CLOEXEC` from <linux/close_range.h>.
const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;

/// Marks every descriptor above 2 close-on-exec. Child side: syscalls only.
///
/// # Safety
/// Call only in the forked child before exec.
pub unsafe fn cloexec_above_stderr() -> Result<(), i32> {
    // SAFETY: the caller's contract.
    unsafe {
        on_range(3, libc::c_uint::MAX, CLOSE_RANGE_CLOEXEC, |fd| {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        })
    }
}

/// Closes every descriptor above 2 but `keep`. Child side, before it waits at its gate
/// (`crate::run::slots`): a process waiting there must hold nothing of another run's (a
/// copy of a running program's stdin or stdout pipe would keep that program from seeing the
/// end of its input, and the grader from seeing the end of its output). Syscalls only.
///
/// # Safety
/// Call only in the spawned child before exec, when no descriptor but `keep` is needed.
pub unsafe fn close_above_stderr_except(keep: libc::c_int) -> Result<(), i32> {
    let keep = keep.max(3) as libc::c_uint;
    let close = |fd| {
        // SAFETY: closing a descriptor of this child's own table.
        unsafe { libc::close(fd) };
    };
    // SAFETY: the caller's contract.
    unsafe {
        on_range(3, keep - 1, 0, close)?;
        on_range(keep + 1, libc::c_uint::MAX, 0, close)
    }
}

/// `close_range(from, to, flags)`; on kernels without it (before 5.9, or 5.11 for
/// `CLOSE_RANGE_CLOEXEC`), `one` on each descriptor of the range below the descriptor limit.
///
/// # Safety
/// Call only in the spawned child before exec.
unsafe fn on_range(
    from: libc::c_uint,
    to: libc::c_uint,
    flags: libc::c_uint,
    one: impl Fn(libc::c_int),
) -> Result<(), i32> {
    if from > to {
        return Ok(());
    }
    // SAFETY: plain syscalls; the rlimit is written into a local.
    unsafe {
        if libc::syscall(libc::SYS_close_range, from, to, flags) == 0 {
            return Ok(());
        }
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
            return Err(*libc::__errno_location());
        }
        let top = (lim.rlim_cur.min(1 << 20) as libc::c_uint).min(to.saturating_add(1));
        for fd in from..top {
            one(fd as libc::c_int);
        }
        Ok(())
    }
}
