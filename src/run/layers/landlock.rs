//! Landlock: what the program may read, write and execute, whom it may signal, which TCP and
//! abstract sockets it may use.
//!
//! * prepare ([`build_landlock`], with the `landlock` crate): read and execute on the system
//!   directories minus the protected paths (the grader binary, an instructor's cases), on the
//!   submission's own files and its interpreter; read and write on the working directory, a
//!   few devices, and with `--terminal` the run's own terminal; no TCP (ABI ≥ 4); no signals
//!   or abstract unix sockets outside the run (ABI ≥ 6). The ruleset is created in the parent
//!   (by the crate) and handed to the child as a descriptor; its rules, fitted to file or
//!   directory once per prepared sandbox, are added by one `landlock_add_rule` each.
//! * apply: `landlock_restrict_self(fd)` in the child after no-new-privileges: one syscall, no
//!   allocation, checked (see `sandbox::spawn`). The crate's own `restrict_self`
//!   is not used there: between `fork` and `exec` of a multi-threaded grader only
//!   async-signal-safe calls are allowed.
//! * doctor: the kernel's ABI version ([`landlock_abi`]); a kernel without Landlock is
//!   reported at the top of every report.

use std::os::fd::{AsFd, AsRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::protected::protected_paths;
use landlock::{
    Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathFd, Ruleset, RulesetAttr,
    Scope, ABI,
};

/// The directories a program may always read and execute.
/// (`/opt` is not one: what a run needs there, a toolchain, is allowed as that toolchain's
/// own directory; a checkout of the grader there is not.)
pub const SYSTEM_DIRS: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/proc", "/sys",
];

/// Where the paths that every run's rules name live: their descriptors are kept open. Not
/// `/dev` (only its devices, [`DEVICES`]): a temporary directory there (`TMPDIR=/dev/shm`)
/// holds every run's working directory, and a descriptor kept per run ran a class out of
/// descriptors half way.
const STABLE: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/proc", "/sys",
];

/// Whether the descriptor of a rule's `path` is kept for the grader's life: a system directory
/// or device every run names again (never anything in the temporary directory, where working
/// and build directories come and go), or an entry of the prepared `/etc`.
fn is_stable(path: &Path) -> bool {
    static TEMP: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    let temp = TEMP.get_or_init(|| std::env::temp_dir().canonicalize().ok());
    if super::rootfs::in_prepared_etc(path) {
        return true;
    }
    if temp.as_ref().is_some_and(|t| path.starts_with(t)) {
        return false;
    }
    STABLE.iter().any(|s| path.starts_with(s)) || DEVICES.iter().any(|d| path == Path::new(d))
}

/// The descriptors of stable rule paths (see [`STABLE`]), and whether each is a directory.
static OPENED: Mutex<std::collections::BTreeMap<PathBuf, (Arc<PathFd>, bool)>> =
    Mutex::new(std::collections::BTreeMap::new());

/// The read/execute rules last computed, and the protected paths they were computed for.
static SYSTEM_RULES: Mutex<Option<(Vec<PathBuf>, Vec<PathBuf>)>> = Mutex::new(None);

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

/// The Landlock ABI version of the running kernel (0 when unavailable).
pub fn landlock_abi() -> u32 {
    // SAFETY: the version query takes no pointer.
    let v = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    u32::try_from(v).unwrap_or(0)
}

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
    landlock_rules(workdir, readable, terminal)?.ruleset()
}

/// A ruleset's rules with their paths opened: the path work done once for every run of a
/// prepared sandbox (`crate::run::prepared`), a fresh ruleset made from them for each run
/// (the child adds its own `/proc` and `/tmp` to it, so no two runs share one).
#[derive(Debug)]
pub struct LandlockRules {
    /// The ABI version the rules are for.
    abi: u32,
    /// Each rule's path (to name it in an error), opened, and what it allows beneath it.
    rules: Vec<(PathBuf, Arc<PathFd>, BitFlags<AccessFs>)>,
}

/// The rules of [`build_landlock`], their paths opened (those of the system kept for the
/// grader's life, see [`STABLE`]); a path that does not exist gets no rule.
pub fn landlock_rules(
    workdir: &Path,
    readable: &[PathBuf],
    terminal: Option<&Path>,
) -> Result<LandlockRules, String> {
    let version = landlock_abi();
    if version == 0 {
        return Err("Landlock is not available in this kernel".into());
    }
    let abi = ABI::from(i32::try_from(version).unwrap_or(i32::MAX));
    let all = AccessFs::from_all(abi);
    let read_exec = AccessFs::Execute | AccessFs::ReadFile | AccessFs::ReadDir;
    let device = AccessFs::ReadFile
        | AccessFs::WriteFile
        | AccessFs::ReadDir
        | AccessFs::IoctlDev
        | AccessFs::Truncate;
    let mut rules: Vec<(PathBuf, BitFlags<AccessFs>)> = Vec::new();
    rules.extend(system_rules().into_iter().map(|d| (d, read_exec)));
    rules.extend(DEVICES.iter().map(|d| (PathBuf::from(d), device)));
    if let Some(tty) = terminal {
        rules.push((PathBuf::from("/dev/tty"), device));
        rules.push((tty.to_path_buf(), device));
    }
    rules.extend(readable.iter().map(|p| (p.clone(), read_exec)));
    rules.push((workdir.to_path_buf(), all));
    rules.sort_by(|a, b| a.0.cmp(&b.0));
    rules.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
    let mut opened = OPENED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut prepared = Vec::with_capacity(rules.len());
    for (path, access) in rules {
        // A missing system directory is not an error. What lies in the system directories is
        // opened once per grader (every run names the same ones).
        // (Not terminals: a pty's number is reused for a new one.)
        let (fd, is_dir) = match opened.get(&path) {
            Some((fd, is_dir)) => (Arc::clone(fd), *is_dir),
            None => {
                // A path that exists but cannot be opened (no descriptor left) would leave the
                // run without a rule it needs: the run is refused, not started short of it.
                let fd = match PathFd::new(&path) {
                    Ok(fd) => Arc::new(fd),
                    Err(_)
                        if std::fs::metadata(&path)
                            .is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) =>
                    {
                        continue
                    }
                    Err(e) => return Err(format!("{}: {e}", path.display())),
                };
                let is_dir = std::fs::metadata(&path)
                    .map(|m| m.is_dir())
                    .unwrap_or(false);
                if is_stable(&path) {
                    opened.insert(path.clone(), (Arc::clone(&fd), is_dir));
                }
                (fd, is_dir)
            }
        };
        let access = if is_dir {
            access & all
        } else {
            access & all & AccessFs::from_file(abi)
        };
        prepared.push((path, fd, access));
    }
    Ok(LandlockRules {
        abi: version,
        rules: prepared,
    })
}

impl LandlockRules {
    /// A fresh ruleset holding these rules, for one run.
    pub fn ruleset(&self) -> Result<Landlock, String> {
        let abi = ABI::from(i32::try_from(self.abi).unwrap_or(i32::MAX));
        let err = |e: landlock::RulesetError| e.to_string();
        let mut ruleset = Ruleset::default()
            .set_compatibility(CompatLevel::BestEffort)
            .handle_access(AccessFs::from_all(abi))
            .map_err(err)?;
        if self.abi >= 4 {
            ruleset = ruleset
                .handle_access(AccessNet::from_all(abi))
                .map_err(err)?;
        }
        if self.abi >= 6 {
            ruleset = ruleset.scope(Scope::from_all(abi)).map_err(err)?;
        }
        let fd: Option<OwnedFd> = ruleset.create().map_err(err)?.into();
        let fd = fd.ok_or("Landlock ruleset has no descriptor")?;
        // Each rule's access was fitted to its path's kind (file or directory) and the ABI
        // when the rules were made; the crate's `add_rule` would `fstat` every path again
        // for every run.
        for (path, parent, access) in &self.rules {
            // SAFETY: both descriptors are open for the call; the attribute is on the stack.
            let added = unsafe {
                add_path_beneath(fd.as_raw_fd(), parent.as_fd().as_raw_fd(), access.bits())
            };
            added.map_err(|errno| {
                let e = std::io::Error::from_raw_os_error(errno);
                format!("{}: {e}", path.display())
            })?;
        }
        Ok(Landlock { fd, abi: self.abi })
    }
}

/// `struct landlock_path_beneath_attr`.
#[repr(C, packed)]
struct PathBeneathAttr {
    allowed_access: u64,
    parent_fd: i32,
}

/// Read and execute (`LANDLOCK_ACCESS_FS_EXECUTE | READ_FILE | READ_DIR`).
pub const READ_EXEC: u64 = 1 | 4 | 8;

/// Every file access but `REFER` and `IOCTL_DEV` that Landlock ABI `abi` handles (execute,
/// write, read, read dir, remove, make every kind of file, truncate): the run's own `/tmp`.
pub fn tmp_access(abi: u32) -> u64 {
    let all_of_abi_1 = (1u64 << 13) - 1;
    if abi >= 3 {
        all_of_abi_1 | 1 << 14
    } else {
        all_of_abi_1
    }
}

/// Child side: adds `access` beneath `path` to the ruleset before it is applied: for a mount
/// made in the child itself (the run's own `/proc`), which the parent could not name.
///
/// # Safety
/// Call only in the forked child before exec, with a valid ruleset descriptor.
pub unsafe fn allow_in_child(ruleset: i32, path: &std::ffi::CStr, access: u64) -> Result<(), i32> {
    // SAFETY: open/close on a valid C string; the rule added while the descriptor is open.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_PATH | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(*libc::__errno_location());
        }
        let added = add_path_beneath(ruleset, fd, access);
        libc::close(fd);
        added
    }
}

/// Adds `access` beneath the file open at `parent` to `ruleset`: one system call, no
/// allocation (so the child may call it too); the errno on failure.
///
/// # Safety
/// `ruleset` and `parent` must be open descriptors for the whole call.
unsafe fn add_path_beneath(ruleset: RawFd, parent: RawFd, access: u64) -> Result<(), i32> {
    let attr = PathBeneathAttr {
        allowed_access: access,
        parent_fd: parent,
    };
    // SAFETY: the attribute lives on the stack for the call; the caller keeps both open.
    let r = unsafe {
        libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            1 as libc::c_int, // LANDLOCK_RULE_PATH_BENEATH
            &attr as *const PathBeneathAttr,
            0u32,
        )
    };
    if r != 0 {
        // SAFETY: reading this thread's errno right after the call.
        return Err(unsafe { *libc::__errno_location() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a child restricted by the rules made for `workdir` and `readable` can open:
    /// one bit per path of `tries` (flags, path) that opened.
    fn opened_under(rules: &LandlockRules, tries: &[(libc::c_int, &Path)]) -> i32 {
        let ruleset = rules.ruleset().expect("ruleset");
        let paths: Vec<std::ffi::CString> = tries
            .iter()
            .map(|(_, p)| std::ffi::CString::new(p.as_os_str().as_encoded_bytes()).expect("path"))
            .collect();
        // SAFETY: the child makes only system calls, then `_exit`s.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork");
        if pid == 0 {
            // SAFETY: in the child: system calls on valid strings, then its end.
            unsafe {
                if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
                    || libc::syscall(
                        libc::SYS_landlock_restrict_self,
                        ruleset.fd.as_raw_fd(),
                        0u32,
                    ) != 0
                {
                    libc::_exit(127);
                }
                let mut bits = 0;
                for (i, ((flags, _), path)) in tries.iter().zip(&paths).enumerate() {
                    if libc::open(path.as_ptr(), *flags | libc::O_CLOEXEC, 0o600) >= 0 {
                        bits |= 1 << i;
                    }
                }
                libc::_exit(bits);
            }
        }
        let mut status = 0;
        // SAFETY: waiting for our own child.
        assert_eq!(unsafe { libc::waitpid(pid, &mut status, 0) }, pid);
        assert!(libc::WIFEXITED(status), "child status {status}");
        libc::WEXITSTATUS(status)
    }

    #[test]
    fn a_ruleset_allows_the_workdir_and_the_readable_files_and_nothing_beside() {
        if landlock_abi() == 0 {
            return; // no Landlock in this kernel: nothing to apply
        }
        let root = tempfile::tempdir().expect("tempdir");
        let base = root.path().canonicalize().expect("canonical");
        let (work, sub, elsewhere) = (base.join("work"), base.join("sub"), base.join("elsewhere"));
        for dir in [&work, &sub, &elsewhere] {
            std::fs::create_dir(dir).expect("mkdir");
        }
        let (program, data, secret) = (sub.join("prog.py"), sub.join("data"), elsewhere.join("s"));
        for file in [&program, &data, &secret] {
            std::fs::write(file, "x").expect("write");
        }
        std::fs::create_dir(data.with_extension("d")).expect("mkdir");
        std::fs::write(data.with_extension("d").join("f"), "x").expect("write");
        // A file and a directory readable: each rule fitted to its kind when made (a file
        // given a directory's rights would be refused by the kernel).
        let rules = landlock_rules(&work, &[program.clone(), data.with_extension("d")], None)
            .expect("rules");
        let (read, write) = (libc::O_RDONLY, libc::O_WRONLY | libc::O_CREAT);
        let tries = [
            (read, program.as_path()),
            (read, &data.with_extension("d").join("f")),
            (write, &work.join("new")),
            (read, Path::new("/etc/hostname")),
            (read | libc::O_DIRECTORY, &data.with_extension("d")),
            (write, program.as_path()),
            (read, data.as_path()),
            (read, secret.as_path()),
            (write, &elsewhere.join("new")),
        ];
        assert_eq!(
            opened_under(&rules, &tries),
            0b1_1111,
            "only the first five open"
        );
    }

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
