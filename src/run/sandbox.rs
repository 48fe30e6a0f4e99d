//! Containment layers prepared in the parent and applied in the child before exec:
//! clean environment, per-run uid, network namespace, Landlock.
//!
//! Everything that needs memory is built here, before `fork`; the child side
//! ([`apply_in_child`]) only makes async-signal-safe syscalls.

use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

const LANDLOCK_CREATE_RULESET_VERSION: u32 = 1;
const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;
const FS_EXECUTE: u64 = 1 << 0;
const FS_WRITE_FILE: u64 = 1 << 1;
const FS_READ_FILE: u64 = 1 << 2;
const FS_READ_DIR: u64 = 1 << 3;
const FS_TRUNCATE: u64 = 1 << 14;
const FS_IOCTL_DEV: u64 = 1 << 15;
const NET_BIND_TCP: u64 = 1 << 0;
const NET_CONNECT_TCP: u64 = 1 << 1;
const SCOPE_ABSTRACT_UNIX_SOCKET: u64 = 1 << 0;
const SCOPE_SIGNAL: u64 = 1 << 1;

/// The directories a program may always read and execute.
pub const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt", "/proc", "/sys",
];

/// Paths no program may read even inside an allowed system directory: the grader's own
/// binary (it embeds the reference transcripts) and instructors' case directories.
static PROTECTED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The read/execute rules last computed, and the protected paths they were computed for.
static SYSTEM_RULES: Mutex<Option<(Vec<PathBuf>, Vec<PathBuf>)>> = Mutex::new(None);

/// Keeps `path` (a file or a directory tree) unreadable by every later run, even when it lies
/// inside a system directory such as /usr or /opt.
pub fn protect(path: &Path) {
    if let (Ok(real), Ok(mut list)) = (path.canonicalize(), PROTECTED.lock()) {
        if !list.contains(&real) {
            list.push(real);
        }
    }
}

/// Every protected path, including the running grader binary.
fn protected_paths() -> Vec<PathBuf> {
    let mut list = PROTECTED.lock().map(|l| l.clone()).unwrap_or_default();
    if let Ok(exe) = std::env::current_exe().and_then(|e| e.canonicalize()) {
        if !list.contains(&exe) {
            list.push(exe);
        }
    }
    list
}

/// The paths that together cover `dir` except the protected ones: `dir` itself when nothing
/// protected lies inside it, otherwise its entries, expanded the same way (Landlock rules
/// only allow, so a hole is made by allowing every sibling along the way).
fn allowed_within(dir: &Path, protected: &[PathBuf]) -> Vec<PathBuf> {
    let Ok(real) = dir.canonicalize() else {
        return Vec::new();
    };
    if protected.iter().any(|p| real.starts_with(p)) {
        return Vec::new();
    }
    if !protected.iter().any(|p| p.starts_with(&real)) {
        return vec![real];
    }
    let Ok(entries) = std::fs::read_dir(&real) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .flat_map(|entry| allowed_within(&entry.path(), protected))
        .collect()
}

/// The system directories' read/execute rules, with holes for the protected paths.
fn system_rules() -> Vec<PathBuf> {
    let protected = protected_paths();
    if let Ok(cache) = SYSTEM_RULES.lock() {
        if let Some((key, rules)) = cache.as_ref() {
            if *key == protected {
                return rules.clone();
            }
        }
    }
    let mut rules: Vec<PathBuf> = SYSTEM_DIRS
        .iter()
        .flat_map(|d| allowed_within(Path::new(d), &protected))
        .collect();
    rules.sort();
    rules.dedup();
    if let Ok(mut cache) = SYSTEM_RULES.lock() {
        *cache = Some((protected, rules.clone()));
    }
    rules
}

/// Device files a program may read and write. No terminal: over pipes a run has no
/// controlling terminal (own session) and may open no `/dev/pts/*` (an unprivileged grader's
/// programs share its uid, so file modes would let them open the instructor's terminal);
/// with `--terminal`, only its own terminal and `/dev/tty` (which is that terminal).
pub const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// The Landlock ABI version of the running kernel (0 when unavailable).
pub fn landlock_abi() -> u32 {
    // SAFETY: the version query takes no pointer.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<RulesetAttr>(),
            0usize,
            LANDLOCK_CREATE_RULESET_VERSION,
        )
    };
    if v < 0 {
        0
    } else {
        v as u32
    }
}

fn fs_all(abi: u32) -> u64 {
    let mut all = (1u64 << 13) - 1;
    if abi >= 2 {
        all |= 1 << 13; // REFER
    }
    if abi >= 3 {
        all |= FS_TRUNCATE;
    }
    if abi >= 5 {
        all |= FS_IOCTL_DEV;
    }
    all
}

const FILE_ONLY: u64 = FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV;

/// A Landlock ruleset built in the parent, ready for `landlock_restrict_self` in the child.
#[derive(Debug)]
pub struct Landlock {
    /// The ruleset fd.
    pub fd: OwnedFd,
    /// The ABI version used.
    pub abi: u32,
}

/// Builds the ruleset: read+execute on system dirs and `readable`, everything on `workdir`,
/// the run's own terminal (`terminal`, with `/dev/tty`) if it has one, no TCP (ABI ≥ 4), no
/// signals or abstract sockets outside the run (ABI ≥ 6).
pub fn build_landlock(
    workdir: &Path,
    readable: &[PathBuf],
    terminal: Option<&Path>,
) -> Result<Landlock, String> {
    let abi = landlock_abi();
    if abi == 0 {
        return Err("Landlock is not available in this kernel".into());
    }
    let all = fs_all(abi);
    let attr = RulesetAttr {
        handled_access_fs: all,
        handled_access_net: if abi >= 4 {
            NET_BIND_TCP | NET_CONNECT_TCP
        } else {
            0
        },
        scoped: if abi >= 6 {
            SCOPE_SIGNAL | SCOPE_ABSTRACT_UNIX_SOCKET
        } else {
            0
        },
    };
    let size = match abi {
        1..=3 => 8,
        4 | 5 => 16,
        _ => 24,
    };
    // SAFETY: attr is a valid struct at least `size` bytes long.
    let fd = unsafe { libc::syscall(libc::SYS_landlock_create_ruleset, &attr, size, 0u32) };
    if fd < 0 {
        return Err(format!(
            "landlock_create_ruleset: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: the syscall returned a fresh fd we now own.
    let fd = unsafe { OwnedFd::from_raw_fd(fd as RawFd) };
    let read_exec = FS_EXECUTE | FS_READ_FILE | FS_READ_DIR;
    let device = FS_READ_FILE | FS_WRITE_FILE | FS_READ_DIR | FS_IOCTL_DEV | FS_TRUNCATE;
    let mut rules: Vec<(PathBuf, u64)> = Vec::new();
    rules.extend(system_rules().into_iter().map(|d| (d, read_exec)));
    rules.extend(DEVICES.iter().map(|d| (PathBuf::from(d), device)));
    if let Some(tty) = terminal {
        rules.push((PathBuf::from("/dev/tty"), device));
        rules.push((tty.to_path_buf(), device));
    }
    rules.extend(readable.iter().map(|p| (p.clone(), read_exec)));
    rules.push((workdir.to_path_buf(), all));
    for (path, access) in rules {
        add_rule(&fd, &path, access & all)?;
    }
    Ok(Landlock { fd, abi })
}

fn add_rule(ruleset: &OwnedFd, path: &Path, access: u64) -> Result<(), String> {
    let Ok(c) = CString::new(path.as_os_str().as_bytes()) else {
        return Ok(());
    };
    // SAFETY: c is a valid C string.
    let pfd = unsafe { libc::open(c.as_ptr(), libc::O_PATH | libc::O_CLOEXEC) };
    if pfd < 0 {
        return Ok(()); // a missing system directory is not an error
    }
    // SAFETY: pfd is a fresh fd we own.
    let pfd = unsafe { OwnedFd::from_raw_fd(pfd) };
    let is_dir = std::fs::metadata(path).map(|m| m.is_dir()).unwrap_or(false);
    let attr = PathBeneathAttr {
        allowed_access: if is_dir { access } else { access & FILE_ONLY },
        parent_fd: pfd.as_raw_fd(),
    };
    // SAFETY: attr is a valid packed path-beneath struct.
    let r = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset.as_raw_fd(),
            LANDLOCK_RULE_PATH_BENEATH,
            &attr,
            0u32,
        )
    };
    if r < 0 {
        return Err(format!(
            "landlock_add_rule {}: {}",
            path.display(),
            std::io::Error::last_os_error()
        ));
    }
    Ok(())
}

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
            env.push(("LD_PRELOAD".to_string(), STDBUF_LIB.to_string()));
            env.push(("_STDBUF_O".to_string(), "0".to_string()));
        }
    }
    env
}

/// coreutils' stdbuf helper, preloaded so C stdio writes stdout unbuffered on a pipe.
pub const STDBUF_LIB: &str = "/usr/libexec/coreutils/libstdbuf.so";

#[cfg(test)]
mod protected_tests {
    use super::*;

    #[test]
    fn allowed_within_leaves_a_hole_for_protected_paths() {
        let root = tempfile::tempdir().expect("tempdir");
        let base = root.path().canonicalize().expect("canonical");
        for dir in ["a/bin", "a/lib", "b"] {
            std::fs::create_dir_all(base.join(dir)).expect("mkdir");
        }
        std::fs::write(base.join("a/bin/grade"), "secret").expect("write");
        std::fs::write(base.join("a/bin/cat"), "tool").expect("write");
        let protected = vec![base.join("a/bin/grade")];
        let mut allowed = allowed_within(&base, &protected);
        allowed.sort();
        assert_eq!(
            allowed,
            vec![base.join("a/bin/cat"), base.join("a/lib"), base.join("b")]
        );
        assert_eq!(
            allowed_within(&base.join("b"), &protected),
            vec![base.join("b")]
        );
        assert!(allowed_within(&base.join("a/bin/grade"), &protected).is_empty());
    }
}
