//! The child side of a spawn: every layer's apply step, in order ([`apply_in_child`]), and
//! the clean environment. The layers themselves live in `layers/`.
//!
//! Everything that needs memory is built here, before `fork`; the child side
//! ([`apply_in_child`]) only makes async-signal-safe syscalls.

use std::os::fd::RawFd;
use std::path::Path;

pub use super::layers::landlock::{
    build_landlock, landlock_abi, protect, Landlock, DEVICES, SYSTEM_DIRS,
};
pub use super::layers::uid::{is_root, per_run_uid};

/// Everything the child applies before exec, prepared by the parent.
#[derive(Debug)]
pub struct ChildSetup {
    /// `cgroup.procs` fds to write "0" to.
    pub cgroup_fds: Vec<RawFd>,
    /// (resource, soft, hard) rlimits.
    pub rlimits: Vec<(libc::__rlimit_resource_t, u64, u64)>,
    /// Namespaces and the session keyring ([`crate::run::layers::namespaces`]).
    pub namespaces: crate::run::layers::namespaces::Plan,
    /// Make fd 0 the controlling terminal (pseudo-terminal mode).
    pub controlling_tty: bool,
    /// Landlock ruleset fd, or -1.
    pub landlock_fd: RawFd,
    /// seccomp filter and the socket to send the listener on, or null/-1.
    pub seccomp_prog: *const libc::sock_fprog,
    /// The child's end of the listener socketpair.
    pub seccomp_sock: RawFd,
    /// The grader-mark filter ([`crate::run::seccomp::GRADER_MARK`]), or null.
    pub marker_prog: *const libc::sock_fprog,
    /// Drop to this uid/gid (root only).
    pub uid: Option<u32>,
}

// SAFETY: the raw pointer refers to a filter owned by the run, alive until spawn returns.
unsafe impl Send for ChildSetup {}
// SAFETY: read-only after construction.
unsafe impl Sync for ChildSetup {}

/// Applies the setup in the forked child. Async-signal-safe: syscalls only, no allocation.
/// Every step is checked: an errno is returned (and the spawn fails) when a layer that was
/// planned cannot be applied, so no run goes on with a layer silently missing.
///
/// Order: own session (and controlling terminal); cgroups; as root the namespaces that need
/// no user namespace, then the uid drop; the user namespace and the namespaces it owns;
/// rlimits (after the user namespace, so the process limit counts this run's processes only);
/// the fork into the pid namespace; a fresh session keyring; no-new-privileges; Landlock;
/// seccomp; finally every descriptor above 2 close-on-exec.
///
/// # Safety
/// Must be called only in the child between fork and exec, with a setup whose fds and
/// pointers are valid.
pub unsafe fn apply_in_child(s: &ChildSetup) -> Result<(), i32> {
    use crate::run::layers::{fds, namespaces};
    // SAFETY: syscalls with valid arguments, in the child only.
    unsafe {
        let errno = || *libc::__errno_location();
        if libc::setsid() < 0 {
            return Err(errno());
        }
        if s.controlling_tty && libc::ioctl(0, libc::TIOCSCTTY, 0) != 0 {
            return Err(errno());
        }
        for &fd in &s.cgroup_fds {
            if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                return Err(errno());
            }
        }
        namespaces::apply_privileged(&s.namespaces)?;
        if let Some(id) = s.uid {
            if libc::setgroups(0, std::ptr::null()) != 0
                || libc::setresgid(id, id, id) != 0
                || libc::setresuid(id, id, id) != 0
            {
                return Err(errno());
            }
        }
        namespaces::apply_user(&s.namespaces)?;
        for &(resource, soft, hard) in &s.rlimits {
            let lim = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource, &lim) != 0 {
                return Err(errno());
            }
        }
        namespaces::enter_pid_namespace(&s.namespaces)?;
        if s.namespaces.mount && s.landlock_fd >= 0 {
            // The run's own /proc, mounted just now: readable as the grader's was.
            crate::run::layers::landlock::allow_in_child(
                s.landlock_fd,
                c"/proc",
                crate::run::layers::landlock::READ_EXEC,
            )?;
        }
        namespaces::join_session_keyring(&s.namespaces)?;
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(errno());
        }
        if s.landlock_fd >= 0
            && libc::syscall(libc::SYS_landlock_restrict_self, s.landlock_fd, 0u32) != 0
        {
            return Err(errno());
        }
        if !s.marker_prog.is_null() {
            crate::run::seccomp::install_marker_in_child(s.marker_prog)?;
        }
        if !s.seccomp_prog.is_null() {
            crate::run::seccomp::install_in_child(s.seccomp_prog, s.seccomp_sock);
        }
        fds::cloexec_above_stderr()?;
        Ok(())
    }
}

/// The documented clean environment of every run (before `RunSpec::env`).
pub fn clean_env(workdir: &Path, terminal: bool, stdbuf: bool) -> Vec<(String, String)> {
    let dir = workdir.display().to_string();
    let mut env = vec![
        (
            "PATH".to_string(),
            "/usr/local/bin:/usr/bin:/bin".to_string(),
        ),
        ("HOME".to_string(), dir.clone()),
        ("TMPDIR".to_string(), dir),
        ("LANG".to_string(), "C.UTF-8".to_string()),
        ("LC_ALL".to_string(), "C.UTF-8".to_string()),
        (
            "TERM".to_string(),
            if terminal { "xterm" } else { "dumb" }.to_string(),
        ),
    ];
    if !terminal {
        env.push(("PYTHONUNBUFFERED".to_string(), "1".to_string()));
        if stdbuf && Path::new(STDBUF_LIB).exists() {
            // Line-buffered stdout and stdin, as a terminal gives them: glibc flushes a
            // line-buffered stdout whenever it reads a line-buffered stdin, so a prompt printed
            // without a newline still appears before the read, and a line is one write.
            env.push(("LD_PRELOAD".to_string(), STDBUF_LIB.to_string()));
            env.push(("_STDBUF_O".to_string(), "L".to_string()));
            env.push(("_STDBUF_I".to_string(), "L".to_string()));
        }
    }
    env
}

/// coreutils' stdbuf helper, preloaded so C stdio buffers stdin and stdout by line on a pipe,
/// as on a terminal.
pub const STDBUF_LIB: &str = "/usr/libexec/coreutils/libstdbuf.so";
