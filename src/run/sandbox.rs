//! The spawn of a run ([`spawn`]): every layer's apply step, in order, in the children, and
//! the clean environment. The layers themselves live in `layers/`.
//!
//! Everything that needs memory is built before the spawn ([`Exec`], [`ChildSetup`]); the
//! children ([`spawn`]) share the grader's memory and only make async-signal-safe syscalls.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

pub use super::layers::landlock::{
    build_landlock, landlock_abi, landlock_rules, Landlock, DEVICES, SYSTEM_DIRS,
};
pub use super::layers::protected::protect;
pub use super::layers::uid::{is_root, per_run_uid};

/// Everything the child applies before exec, prepared by the parent.
#[derive(Debug)]
pub struct ChildSetup<'a> {
    /// The read end of the run's gate ([`crate::run::slots`]): one byte read from it, just
    /// before `execve`, is the program's place among the `--jobs`; -1: exec at once.
    pub gate_fd: RawFd,
    /// `cgroup.procs` fds to write "0" to.
    pub cgroup_fds: Vec<RawFd>,
    /// (resource, soft, hard) rlimits.
    pub rlimits: Vec<(libc::__rlimit_resource_t, u64, u64)>,
    /// Namespaces and the session keyring ([`crate::run::layers::namespaces`]).
    pub namespaces: crate::run::layers::namespaces::Plan,
    /// The run's own root filesystem ([`crate::run::layers::rootfs`]), or none.
    pub rootfs: Option<&'a crate::run::layers::rootfs::Plan>,
    /// Make fd 0 the controlling terminal (pseudo-terminal mode).
    pub controlling_tty: bool,
    /// Landlock ruleset fd, or -1.
    pub landlock_fd: RawFd,
    /// What the program may do in its own `/tmp` (the file accesses the ruleset handles).
    pub landlock_tmp_access: u64,
    /// seccomp filter and the socket to send the listener on, or null/-1.
    pub seccomp_prog: *const libc::sock_fprog,
    /// The child's end of the listener socketpair.
    pub seccomp_sock: RawFd,
    /// The grader-mark filter ([`crate::run::seccomp::GRADER_MARK`]), or null.
    pub marker_prog: *const libc::sock_fprog,
    /// Drop to this uid/gid (root only).
    pub uid: Option<u32>,
    /// `GRADE_TEST_FAULT=step:N` (tests only, see `crate::run`): the root filesystem's step
    /// fails with ENOENT, as a sandbox step that cannot be done on this machine would.
    pub fail_step: bool,
}

/// A step of the sandbox that failed in the child before the program's exec (a mount, a
/// namespace, a limit): the machine's or the grader's failing, never the program's, whatever
/// its errno (ENOENT from a mount is not "program not found").
#[derive(Debug)]
pub struct SandboxStepFailed(pub io::Error);

impl std::fmt::Display for SandboxStepFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the sandbox could not be set up: {}", self.0)
    }
}

impl std::error::Error for SandboxStepFailed {}

// SAFETY: the raw pointer refers to a filter owned by the run, alive until spawn returns.
unsafe impl Send for ChildSetup<'_> {}
// SAFETY: read-only after construction.
unsafe impl Sync for ChildSetup<'_> {}

/// What the program is started as, built by the parent before the spawn: where to exec it
/// (`PATH` searched in the run's own environment, as `execvp` would), its argument and
/// environment vectors, its working directory and the descriptors that become its stdin,
/// stdout and stderr.
pub struct Exec {
    /// Paths to try in order, each with its argument vector and the `/bin/sh` one for a
    /// script without `#!` (`ENOEXEC`), as `execvp` does.
    candidates: Vec<(CString, Vec<*const libc::c_char>)>,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
    cwd: CString,
    stdio: [RawFd; 3],
    /// The strings the pointers above point into.
    _strings: Vec<CString>,
}

// SAFETY: the pointers point into `_strings`, owned by the value and never mutated.
unsafe impl Send for Exec {}

impl Exec {
    /// `command` run in `cwd` with exactly `env` (later pairs override earlier ones), its
    /// stdin, stdout and stderr being `stdio` (descriptors the parent keeps open until
    /// [`spawn`] returns).
    pub fn new(
        command: &[String],
        env: impl IntoIterator<Item = (String, String)>,
        cwd: &Path,
        stdio: [RawFd; 3],
    ) -> io::Result<Exec> {
        let c = |s: &[u8]| {
            CString::new(s).map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidInput, "a NUL byte in the command")
            })
        };
        let Some(program) = command.first() else {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "empty command"));
        };
        let env: std::collections::BTreeMap<String, String> = env.into_iter().collect();
        let mut strings = Vec::new();
        let ptr = |s: CString, strings: &mut Vec<CString>| {
            let p = s.as_ptr();
            strings.push(s);
            p
        };
        let args: Vec<*const libc::c_char> = command
            .iter()
            .map(|a| c(a.as_bytes()).map(|s| ptr(s, &mut strings)))
            .collect::<io::Result<_>>()?;
        let mut argv = args.clone();
        argv.push(std::ptr::null());
        let mut envp = env
            .iter()
            .map(|(k, v)| c(format!("{k}={v}").as_bytes()).map(|s| ptr(s, &mut strings)))
            .collect::<io::Result<Vec<_>>>()?;
        envp.push(std::ptr::null());
        let paths: Vec<String> = if program.contains('/') {
            vec![program.clone()]
        } else {
            env.get("PATH")
                .map(String::as_str)
                .unwrap_or("/bin:/usr/bin")
                .split(':')
                .map(|dir| match dir {
                    "" => program.clone(),
                    dir => format!("{}/{program}", dir.trim_end_matches('/')),
                })
                .collect()
        };
        let shell = ptr(c(b"/bin/sh")?, &mut strings);
        let mut candidates = Vec::new();
        for path in paths {
            let path = c(path.as_bytes())?;
            let mut script = vec![shell, path.as_ptr()];
            script.extend_from_slice(&args[1..]);
            script.push(std::ptr::null());
            candidates.push((path, script));
        }
        Ok(Exec {
            candidates,
            argv,
            envp,
            cwd: c(cwd.as_os_str().as_encoded_bytes())?,
            stdio,
            _strings: strings,
        })
    }
}

/// Starts the program contained: a child sharing the grader's memory (no copy of its page
/// tables, nothing for exec to tear down), the grader's thread paused until it has exec'd or
/// failed, as `vfork`. It applies every layer up to the namespaces and, with a pid
/// namespace, starts the program's own process sharing memory the same way
/// (`CLONE_PARENT`: a child of the grader, pid 1 of its namespace) and exits. Returns the
/// program's pid, or the errno of the first step that failed (no run goes on with a planned
/// layer missing). `before_clone` runs once nothing else can make this spawn wait.
pub fn spawn(
    setup: &ChildSetup,
    exec: &Exec,
    before_clone: impl FnOnce(),
) -> io::Result<libc::pid_t> {
    const STACK: usize = 256 << 10;
    const GUARD: usize = 64 << 10;
    // A run's place among the `--jobs` is asked for here: its process waits at the gate for
    // one only once every step before its `execve` is done.
    before_clone();
    let shared = Shared {
        setup,
        exec,
        error: AtomicI32::new(0),
        at_exec: AtomicBool::new(false),
        program: AtomicI32::new(0),
        inner_stack: std::ptr::null_mut(),
        stamps: super::profile::ChildStamps::new(),
    };
    shared.stamps.at[0].store(super::profile::now_ns(), Ordering::Relaxed);
    // SAFETY: a fresh private mapping, unmapped below; the guard pages below each stack turn
    // an overflow into a fault instead of a write into the grader's memory.
    unsafe {
        let len = 2 * (GUARD + STACK);
        let before_clone = super::profile::span("spawn: stacks, signal mask");
        let base = libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_STACK,
            -1,
            0,
        );
        if base == libc::MAP_FAILED {
            return Err(io::Error::last_os_error());
        }
        let base = base.cast::<u8>();
        let stacks = Stacks { base, len };
        for guard in [base, base.add(GUARD + STACK)] {
            if libc::mprotect(guard.cast(), GUARD, libc::PROT_NONE) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        let outer_top = base.add(GUARD + STACK);
        let mut shared = shared;
        shared.inner_stack = base.add(2 * (GUARD + STACK)).cast();
        // No grader signal handler may run in the child (it shares the grader's memory):
        // everything blocked until the child has reset every handler.
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        drop(before_clone);
        let pid = libc::clone(
            outer_main,
            outer_top.cast(),
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            (&shared as *const Shared).cast_mut().cast(),
        );
        let clone_error = io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        drop(stacks);
        if pid < 0 {
            return Err(clone_error);
        }
        shared.stamps.record(super::profile::now_ns());
        let error = shared.error.load(Ordering::SeqCst);
        let program = if setup.namespaces.pid {
            // The first child has exited (started the program or failed): reap it.
            let _reap = super::profile::span("spawn: reap the first child");
            wait_for(pid);
            shared.program.load(Ordering::SeqCst)
        } else {
            pid
        };
        if error != 0 {
            if program > 0 {
                wait_for(program);
            }
            let error = io::Error::from_raw_os_error(error);
            if !shared.at_exec.load(Ordering::SeqCst) {
                // Not the program: a step of the sandbox (its own error, without an errno a
                // caller could take for the program's).
                return Err(io::Error::other(SandboxStepFailed(error)));
            }
            return Err(error);
        }
        Ok(program)
    }
}

/// The turn of a spawned child to change its uid and write its user namespace's maps.
/// Dumpability belongs to the memory, which the children share with the grader
/// (`CLONE_VM`): a uid drop clears it, and a child writing its maps sets it again first, so
/// two children doing so at once clear it under each other's feet (`EACCES` on the map).
/// Only that stretch, a fraction of a millisecond, is taken in turns: the rest of a spawn
/// (the root's mounts, the filters, the wait at the gate) goes on beside another's. The
/// word holds the pid of the child whose turn it is (0: nobody's); atomics and raw system
/// calls only, as a child before `execve` may use.
static UID_TURN: AtomicI32 = AtomicI32::new(0);

/// A child's turn ([`UID_TURN`]), given back when dropped.
struct UidTurn;

impl UidTurn {
    /// Child side: waits for the turn. A holder that died without giving it back (killed
    /// in its stretch) is found out within 10 ms and its turn taken over.
    fn take() -> UidTurn {
        // SAFETY: raw system calls with valid arguments.
        unsafe {
            let me = libc::syscall(libc::SYS_getpid) as i32;
            loop {
                let holder =
                    match UID_TURN.compare_exchange(0, me, Ordering::AcqRel, Ordering::Acquire) {
                        Ok(_) => return UidTurn,
                        Err(holder) => holder,
                    };
                let wait = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 10_000_000,
                };
                libc::syscall(
                    libc::SYS_futex,
                    UID_TURN.as_ptr(),
                    libc::FUTEX_WAIT | libc::FUTEX_PRIVATE_FLAG,
                    holder,
                    &wait as *const libc::timespec,
                );
                if UID_TURN.load(Ordering::Acquire) == holder
                    && libc::kill(holder, 0) != 0
                    && *libc::__errno_location() == libc::ESRCH
                {
                    let _ =
                        UID_TURN.compare_exchange(holder, 0, Ordering::AcqRel, Ordering::Relaxed);
                }
            }
        }
    }
}

impl Drop for UidTurn {
    fn drop(&mut self) {
        UID_TURN.store(0, Ordering::Release);
        // SAFETY: wakes one child waiting on the word (see `take`).
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                UID_TURN.as_ptr(),
                libc::FUTEX_WAKE | libc::FUTEX_PRIVATE_FLAG,
                1,
            );
        }
    }
}

/// What the children read (the parent's, alive while it is paused in `spawn`).
struct Shared<'a> {
    setup: &'a ChildSetup<'a>,
    exec: &'a Exec,
    /// The errno of the step that failed, or 0.
    error: AtomicI32,
    /// Every step before the program's `execve` was done: an error now is the exec's.
    at_exec: AtomicBool,
    /// The program's pid in the grader's pid namespace (with a pid namespace).
    program: AtomicI32,
    /// Top of the second child's stack.
    inner_stack: *mut libc::c_void,
    /// When each step ended (`GRADE_PROFILE`).
    stamps: super::profile::ChildStamps,
}

/// The two children's stacks, unmapped when the spawn returns.
struct Stacks {
    base: *mut u8,
    len: usize,
}

impl Drop for Stacks {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `spawn`, no longer used by any child.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}

/// Reaps a child of ours that has exited or is about to.
fn wait_for(pid: libc::pid_t) {
    let mut status = 0;
    // SAFETY: waitpid on our own child.
    while unsafe { libc::waitpid(pid, &mut status, 0) } < 0 {
        if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            break;
        }
    }
}

/// The first child: runs [`apply_outer`], then starts the program (in the pid namespace) or
/// becomes it.
extern "C" fn outer_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the parent's `Shared`, alive while the parent is paused.
    let shared = unsafe { &*(arg as *const Shared) };
    // SAFETY: in the child between clone and exec.
    let result = unsafe {
        apply_outer(shared.setup, shared.exec, &shared.stamps).and_then(|()| {
            if !shared.setup.namespaces.pid {
                return apply_inner(shared.setup, shared.exec, &shared.stamps, &shared.at_exec);
            }
            // CLONE_PARENT: the program is the grader's child, and the one process of the
            // run; this one ends as soon as it has exec'd. CLONE_FILES: what the program's
            // process closes before its gate, this one no longer holds either.
            let pid = libc::clone(
                inner_main,
                shared.inner_stack,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::CLONE_PARENT | libc::CLONE_FILES,
                arg,
            );
            if pid < 0 {
                return Err(*libc::__errno_location());
            }
            shared.program.store(pid, Ordering::SeqCst);
            Ok(())
        })
    };
    if let Err(errno) = result {
        shared.error.store(errno, Ordering::SeqCst);
    }
    // SAFETY: ends this child only.
    unsafe { libc::_exit(127) }
}

/// The program's process, pid 1 of its namespace: [`apply_inner`], which execs.
extern "C" fn inner_main(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the parent's `Shared`, alive while the parent is paused.
    let shared = unsafe { &*(arg as *const Shared) };
    shared.stamps.stamp(7);
    // SAFETY: in the child between clone and exec.
    if let Err(errno) =
        unsafe { apply_inner(shared.setup, shared.exec, &shared.stamps, &shared.at_exec) }
    {
        shared.error.store(errno, Ordering::SeqCst);
    }
    // SAFETY: ends this child only.
    unsafe { libc::_exit(127) }
}

/// The first child's steps: default signal handlers; stdin, stdout, stderr; the working
/// directory (as root, before the uid drop: its parents may be closed to the run's uid);
/// cgroups; as root the namespaces that need no user namespace, then the uid drop; the user
/// namespace and the namespaces it owns; rlimits (after the user namespace, so the process
/// limit counts this run's processes only).
///
/// The child shares the grader's memory: syscalls only, no allocation, no lock, and the uid
/// change through raw syscalls (glibc's wrappers would signal every grader thread to change
/// its uid too).
///
/// # Safety
/// Call only in the spawned child, with a setup whose fds and pointers are valid.
unsafe fn apply_outer(
    s: &ChildSetup,
    exec: &Exec,
    stamps: &super::profile::ChildStamps,
) -> Result<(), i32> {
    use crate::run::layers::namespaces;
    // SAFETY: syscalls with valid arguments, in the child only.
    unsafe {
        let errno = || *libc::__errno_location();
        // The kernel's own struct sigaction, all zero: SIG_DFL, no flags, nothing masked.
        // The raw syscall so glibc's internal signals are reset too.
        let default = [0u64; 4];
        for sig in 1..=libc::SIGRTMAX() {
            // SIGKILL and SIGSTOP refuse: nothing to reset there.
            libc::syscall(
                libc::SYS_rt_sigaction,
                sig as libc::c_long,
                default.as_ptr(),
                std::ptr::null::<u64>(),
                8 as libc::c_long,
            );
        }
        // Out of the way of 0, 1 and 2 first (a grader started with a standard descriptor
        // closed may have been given one of them for a pipe).
        let mut high = [-1; 3];
        for (slot, &fd) in high.iter_mut().zip(&exec.stdio) {
            *slot = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3);
            if *slot < 0 {
                return Err(errno());
            }
        }
        for (target, &fd) in high.iter().enumerate() {
            if libc::dup2(fd, target as libc::c_int) < 0 {
                return Err(errno());
            }
            libc::close(fd);
        }
        if libc::chdir(exec.cwd.as_ptr()) != 0 {
            return Err(errno());
        }
        stamps.stamp(1);
        for &fd in &s.cgroup_fds {
            if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                return Err(errno());
            }
        }
        stamps.stamp(2);
        namespaces::apply_privileged(&s.namespaces)?;
        stamps.stamp(3);
        // Held until the maps are written (given back on every return).
        let turn = (s.uid.is_some() || s.namespaces.user_flags != 0).then(UidTurn::take);
        if let Some(id) = s.uid {
            let (id, none) = (id as libc::c_long, std::ptr::null::<libc::gid_t>());
            if libc::syscall(libc::SYS_setgroups, 0 as libc::c_long, none) != 0
                || libc::syscall(libc::SYS_setresgid, id, id, id) != 0
                || libc::syscall(libc::SYS_setresuid, id, id, id) != 0
            {
                return Err(errno());
            }
        }
        stamps.stamp(4);
        namespaces::apply_user(&s.namespaces)?;
        drop(turn);
        stamps.stamp(5);
        for &(resource, soft, hard) in &s.rlimits {
            let lim = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(resource, &lim) != 0 {
                return Err(errno());
            }
        }
        stamps.stamp(6);
        Ok(())
    }
}

/// The program's own steps, as pid 1 of its namespace: own session (and controlling
/// terminal); its own root filesystem, or its `/proc`; a fresh session keyring; no-new-privileges; Landlock; seccomp;
/// every descriptor above 2 close-on-exec; no signal blocked; exec. Returns only on failure.
///
/// # Safety
/// Call only in the spawned child, after [`apply_outer`].
unsafe fn apply_inner(
    s: &ChildSetup,
    exec: &Exec,
    stamps: &super::profile::ChildStamps,
    at_exec: &AtomicBool,
) -> Result<(), i32> {
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
        stamps.stamp(8);
        if s.fail_step {
            return Err(libc::ENOENT);
        }
        match s.rootfs {
            Some(root) => crate::run::layers::rootfs::apply(root)?,
            None => namespaces::mount_proc(&s.namespaces)?,
        }
        if s.namespaces.mount && s.landlock_fd >= 0 {
            // The run's own /proc, mounted just now: readable as the grader's was.
            crate::run::layers::landlock::allow_in_child(
                s.landlock_fd,
                c"/proc",
                crate::run::layers::landlock::READ_EXEC,
            )?;
        }
        if s.rootfs.is_some() && s.landlock_fd >= 0 {
            // Its own /tmp, empty and small: the program's to use.
            crate::run::layers::landlock::allow_in_child(
                s.landlock_fd,
                c"/tmp",
                s.landlock_tmp_access,
            )?;
        }
        stamps.stamp(9);
        namespaces::join_session_keyring(&s.namespaces)?;
        stamps.stamp(10);
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(errno());
        }
        if s.landlock_fd >= 0
            && libc::syscall(libc::SYS_landlock_restrict_self, s.landlock_fd, 0u32) != 0
        {
            return Err(errno());
        }
        stamps.stamp(11);
        if !s.marker_prog.is_null() {
            crate::run::seccomp::install_marker_in_child(s.marker_prog)?;
        }
        if !s.seccomp_prog.is_null() {
            crate::run::seccomp::install_in_child(s.seccomp_prog, s.seccomp_sock);
        }
        stamps.stamp(12);
        fds::cloexec_above_stderr()?;
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        if libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut()) != 0 {
            return Err(errno());
        }
        stamps.stamp(13);
        if s.gate_fd >= 0 {
            // Everything is ready: wait for a place, holding nothing but the gate (the
            // first child shares this table: it holds nothing either). The end of the pipe
            // (the grader is gone) means no exec.
            fds::close_above_stderr_except(s.gate_fd)?;
            let mut byte = 0u8;
            loop {
                match libc::read(s.gate_fd, (&mut byte as *mut u8).cast(), 1) {
                    1 => break,
                    n if n < 0 && errno() == libc::EINTR => continue,
                    n if n < 0 => return Err(errno()),
                    _ => return Err(libc::ECANCELED),
                }
            }
        }
        stamps.stamp(14);
        at_exec.store(true, Ordering::SeqCst);
        // As execvp: the next candidate on ENOENT and the like, EACCES if any was refused,
        // /bin/sh for a script without `#!`.
        let mut refused = false;
        let mut last = libc::ENOENT;
        for (path, script) in &exec.candidates {
            libc::execve(path.as_ptr(), exec.argv.as_ptr(), exec.envp.as_ptr());
            if errno() == libc::ENOEXEC {
                libc::execve(c"/bin/sh".as_ptr(), script.as_ptr(), exec.envp.as_ptr());
            }
            last = errno();
            match last {
                libc::EACCES => refused = true,
                libc::ENOENT | libc::ESTALE | libc::ENOTDIR | libc::ENODEV | libc::ETIMEDOUT => {}
                _ => return Err(last),
            }
        }
        Err(if refused { libc::EACCES } else { last })
    }
}

/// The documented clean environment of every run (before `RunSpec::env`).
pub fn clean_env(workdir: &Path, terminal: bool, stdbuf: bool) -> Vec<(String, String)> {
    let dir = workdir.display().to_string();
    let mut env = vec![
        ("PATH".to_string(), RUN_PATH.to_string()),
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

/// The `PATH` of every run's clean environment.
pub const RUN_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// coreutils' stdbuf helper, preloaded so C stdio buffers stdin and stdout by line on a pipe,
/// as on a terminal.
pub const STDBUF_LIB: &str = "/usr/libexec/coreutils/libstdbuf.so";

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn children_change_their_uid_one_at_a_time() {
        let inside = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..20 {
                        let turn = UidTurn::take();
                        let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_micros(200));
                        inside.fetch_sub(1, Ordering::SeqCst);
                        drop(turn);
                    }
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 1);
        assert_eq!(
            UID_TURN.load(Ordering::SeqCst),
            0,
            "every turn was given back"
        );
    }

    #[test]
    fn the_turn_of_a_child_that_died_holding_it_is_taken_over() {
        // A process that has exited and been reaped: its pid names no process.
        let mut gone = std::process::Command::new("true")
            .spawn()
            .expect("true starts");
        let pid = gone.id() as i32;
        gone.wait().expect("true ends");
        // Whoever holds the turn now (a run of another test) is waited for first.
        let started = std::time::Instant::now();
        loop {
            if UID_TURN
                .compare_exchange(0, pid, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                break;
            }
            std::thread::yield_now();
        }
        let turn = UidTurn::take();
        let waited = started.elapsed();
        // SAFETY: getpid cannot fail.
        let me = unsafe { libc::syscall(libc::SYS_getpid) } as i32;
        assert_eq!(UID_TURN.load(Ordering::SeqCst), me);
        drop(turn);
        assert!(
            waited < std::time::Duration::from_secs(5),
            "took {waited:?}"
        );
    }
}
