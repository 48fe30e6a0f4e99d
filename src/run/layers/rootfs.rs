//! The run's own root filesystem: built, not filtered. In the run's mount namespace a fresh
//! tmpfs becomes `/` (as bubblewrap and nsjail do it) and only what a program and its
//! toolchain need is mounted on it: the system directories (`/usr`, and `/bin`, `/sbin`,
//! `/lib*` as the links or directories they are), a few entries of `/etc`, a `/dev` of five
//! devices (and the run's own terminal), the run's own `/proc`, an empty private `/tmp` (with
//! `/dev/shm` a link to a directory in it: POSIX shared memory of the run's own), the
//! resolved toolchain's own directories and the submission read-only, and the working
//! directory read-write. Everything else — the grader's binary and its other copies, an
//! instructor's cases and references, the output directory, the build cache, other
//! submissions, home directories, `/opt` — is simply not there, wherever it lives. Grader
//! files inside a mounted tree (a copy in `/usr/local/bin`, an instructor's cases under a
//! toolchain's directory) are left out of it: that tree is mounted entry by entry around them.
//!
//! * prepare ([`plan`]): the list of steps, every path a C string, built before the spawn
//!   (the system part once per set of protected paths).
//! * apply ([`apply`]): in the program's process (pid 1 of the run's pid namespace, holding
//!   the run's user namespace's capabilities): a tmpfs on `/tmp`, `pivot_root` into it (the
//!   old root stays reachable under `/.grade-old-root` while the steps run), the steps, the
//!   old root covered with an empty tmpfs, every mount of the new root made read-only (but
//!   the working directory and `/tmp`), the working directory entered again.
//!   Syscalls only, no allocation (the process shares the grader's memory).
//! * doctor: `rootfs` in the sandbox list; off where the kernel refuses user or mount
//!   namespaces, or `GRADE_DISABLE=rootfs`.

use std::ffi::{CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Where the old root is while the new one is built (inside the new root, removed after).
const OLD_ROOT: &CStr = c"/.grade-old-root";
/// `AT_RECURSIVE`: the mount and every mount below it.
const AT_RECURSIVE: libc::c_uint = 0x8000;
/// The same, as the prefix of every source path.
const OLD_ROOT_PREFIX: &str = "/.grade-old-root";

/// The directories of the system every program may need: mounted read-only when they are
/// directories, recreated when they are links (`/bin -> usr/bin`).
const SYSTEM: &[&str] = &[
    "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
];

/// The entries of `/etc` a program or toolchain reads (names, or prefixes ending in `*`):
/// users and groups, name resolution, the dynamic loader's cache, alternatives (Debian's
/// `java`, `javac`, `cc` links), certificates, time zone, the toolchains' own settings (a
/// JDK's `conf` links into `/etc/java-N-openjdk`). Each is a mount of its own: the list is
/// kept short, every mount costs the run's start.
const ETC: &[&str] = &[
    "passwd",
    "group",
    "hosts",
    "nsswitch.conf",
    "ld.so.cache",
    "ld.so.conf",
    "ld.so.conf.d",
    "alternatives",
    "ssl",
    "localtime",
    "perl",
    "java*",
    "python3*",
    "dotnet",
];

/// The devices of `/dev` (with `tty`, which is the run's own terminal or none).
const DEVICES: &[&str] = &["null", "zero", "full", "random", "urandom", "tty"];

/// What the run's `/dev/shm` leads to: a directory in its own `/tmp` tmpfs.
const SHM_DIR: &str = "/tmp/.shm";

/// One step of building the root, every path in the new root (sources under the old one).
#[derive(Debug)]
enum Step {
    /// `mkdir(path, 0755)`.
    Dir(CString),
    /// An empty file to mount a file on.
    File(CString),
    /// `symlink(target, link)`.
    Symlink { target: CString, link: CString },
    /// A bind mount of `source` on `target`, then (when `remount` is not 0) a remount with
    /// those flags: read-only, keeping the flags the source's mount locks.
    Bind {
        source: CString,
        target: CString,
        remount: libc::c_ulong,
    },
    /// A tmpfs with these options.
    Tmpfs { target: CString, options: CString },
    /// The run's own `/proc` (of its pid namespace).
    Proc(CString),
    /// A devpts instance of the run's own.
    Devpts(CString),
    /// The mount at this path made read-only.
    ReadOnly(CString),
}

/// Everything the program's process does to build its root, prepared by the grader.
#[derive(Debug)]
pub struct Plan {
    steps: Vec<Step>,
    /// What is mounted read-only from the grader's filesystem (each mount's top): Landlock's
    /// rules must name these, as the run sees them through their own mounts.
    pub read_only: Vec<PathBuf>,
    /// The working directory, entered again in the new root.
    cwd: CString,
    /// The kernel has `mount_setattr`: the whole root is made read-only in one call (and the
    /// working directory and `/tmp` writable again), instead of a remount per mount.
    setattr: bool,
}

/// `mount_setattr`'s number (the same on every architecture: it came after the tables were
/// unified).
const SYS_MOUNT_SETATTR: libc::c_long = 442;
/// `MOUNT_ATTR_RDONLY`.
const MOUNT_ATTR_RDONLY: u64 = 1;

/// `struct mount_attr`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

/// Whether this kernel has `mount_setattr` (Linux 5.12), probed once.
fn has_mount_setattr() -> bool {
    static HAS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *HAS.get_or_init(|| {
        // SAFETY: invalid arguments on purpose: only ENOSYS or not matters.
        let r = unsafe {
            libc::syscall(
                SYS_MOUNT_SETATTR,
                -1 as libc::c_int,
                std::ptr::null::<libc::c_char>(),
                0 as libc::c_uint,
                std::ptr::null::<MountAttr>(),
                0usize,
            )
        };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ENOSYS)
    })
}

/// `mount_setattr(path, flags, {set, clear})`. Child side: one syscall.
unsafe fn set_attr(path: &CStr, flags: libc::c_uint, set: u64, clear: u64) -> Result<(), i32> {
    let attr = MountAttr {
        attr_set: set,
        attr_clr: clear,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: a valid C string and a live struct of the size passed.
    unsafe {
        if libc::syscall(
            SYS_MOUNT_SETATTR,
            libc::AT_FDCWD,
            path.as_ptr(),
            flags,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ) != 0
        {
            return Err(*libc::__errno_location());
        }
    }
    Ok(())
}

/// Builds the steps, tracking which directories exist in the new root.
#[derive(Clone, Debug, Default)]
struct Builder {
    steps: Vec<StepSpec>,
    /// Directories created in the root's tmpfs.
    made: Vec<PathBuf>,
    /// Trees mounted from the old root (their insides exist already).
    mounted: Vec<PathBuf>,
    /// Links and files created in the root's tmpfs: a tree walked twice (the system's `/usr`
    /// split around a grader copy in `/usr/local/bin`, then named again as Python's prefix)
    /// must not create them twice (`symlink` fails with EEXIST where `mkdir` is forgiven).
    entries: std::collections::BTreeSet<PathBuf>,
}

/// A step before its paths are C strings (the system part is cached in this form).
#[derive(Clone, Debug)]
enum StepSpec {
    Dir(PathBuf),
    File(PathBuf),
    Symlink(PathBuf, PathBuf),
    Bind {
        source: PathBuf,
        target: PathBuf,
        remount: libc::c_ulong,
    },
    Tmpfs(PathBuf, String),
    Proc(PathBuf),
    Devpts(PathBuf),
    ReadOnly(PathBuf),
    /// A directory the grader prepared (see [`prepared_etc`]) mounted read-only on `target`;
    /// Landlock's rules name its entries `rules`, not the directory itself (so the run may
    /// read what it could read before, and list no more than before).
    Prepared {
        source: PathBuf,
        target: PathBuf,
        remount: libc::c_ulong,
        rules: Vec<PathBuf>,
    },
}

impl Builder {
    /// Whether `path` already exists in the new root (made, linked, or inside a mounted tree).
    fn exists(&self, path: &Path) -> bool {
        path == Path::new("/")
            || self.made.iter().any(|d| d == path)
            || self.entries.contains(path)
            || self.mounted.iter().any(|m| path.starts_with(m))
    }

    /// The link `link -> target`, once: a link met again (the same tree walked twice, a
    /// toolchain's directory inside a system one) is already there.
    fn symlink(&mut self, target: PathBuf, link: &Path) {
        if self.exists(link) {
            return;
        }
        self.entries.insert(link.to_path_buf());
        self.steps
            .push(StepSpec::Symlink(target, link.to_path_buf()));
    }

    /// `mkdir -p` in the new root.
    fn dir(&mut self, path: &Path) {
        if self.exists(path) {
            return;
        }
        if let Some(parent) = path.parent() {
            self.dir(parent);
        }
        self.made.push(path.to_path_buf());
        self.steps.push(StepSpec::Dir(path.to_path_buf()));
    }

    /// `source` (a real path, no link in it) mounted at the same path, read-only unless
    /// `writable`, minus the protected paths inside it.
    fn tree(&mut self, source: &Path, protected: &[PathBuf], writable: bool) {
        if protected.iter().any(|p| source.starts_with(p)) {
            return;
        }
        if self.mounted.iter().any(|m| source.starts_with(m)) && !writable {
            return;
        }
        let Ok(meta) = std::fs::symlink_metadata(source) else {
            return;
        };
        if meta.file_type().is_symlink() {
            if let (Ok(target), Some(parent)) = (std::fs::read_link(source), source.parent()) {
                self.dir(parent);
                self.symlink(target, source);
            }
            return;
        }
        let whole = !protected.iter().any(|p| p.starts_with(source));
        if whole || !meta.is_dir() {
            if let Some(parent) = source.parent() {
                self.dir(parent);
            }
            if meta.is_dir() {
                if !self.exists(source) {
                    self.made.push(source.to_path_buf());
                    self.steps.push(StepSpec::Dir(source.to_path_buf()));
                }
            } else if !self.exists(source) {
                self.entries.insert(source.to_path_buf());
                self.steps.push(StepSpec::File(source.to_path_buf()));
            }
            self.steps.push(StepSpec::Bind {
                source: source.to_path_buf(),
                target: source.to_path_buf(),
                remount: if writable { 0 } else { read_only_flags(source) },
            });
            self.mounted.push(source.to_path_buf());
            return;
        }
        // A protected path inside: the directory itself in the tmpfs, its entries one by one.
        self.dir(source);
        let Ok(entries) = std::fs::read_dir(source) else {
            return;
        };
        let mut names: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        names.sort();
        for entry in names {
            self.tree(&entry, protected, writable);
        }
    }
}

/// The flags of a read-only remount of a bind of `source`: read-only, with the flags its
/// mount has that a user namespace may not clear (nosuid, nodev, noexec, the atime ones).
fn read_only_flags(source: &Path) -> libc::c_ulong {
    let mut flags = libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID;
    let Ok(c) = CString::new(source.as_os_str().as_bytes()) else {
        return flags;
    };
    // SAFETY: statvfs fills the struct.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return flags;
    }
    let has = |f: libc::c_ulong| st.f_flag & f != 0;
    if has(libc::ST_NODEV) {
        flags |= libc::MS_NODEV;
    }
    if has(libc::ST_NOEXEC) {
        flags |= libc::MS_NOEXEC;
    }
    if has(libc::ST_NOATIME) {
        flags |= libc::MS_NOATIME;
    } else if has(libc::ST_RELATIME) {
        flags |= libc::MS_RELATIME;
    } else {
        flags |= libc::MS_STRICTATIME;
    }
    if has(libc::ST_NODIRATIME) {
        flags |= libc::MS_NODIRATIME;
    }
    flags
}

/// Entries of `/etc` with more than this many files and links below them are mounted on
/// their own inside the prepared `/etc` instead of copied into it (the certificates' hash
/// links of `ssl`, Debian's `alternatives`, a JDK's settings: tens or hundreds of names
/// each, slow to copy once per process).
const COPY_AT_MOST: usize = 8;

/// The run's `/etc`, prepared once per grader process (see [`prepared_etc`]).
#[derive(Clone, Debug)]
struct PreparedEtc {
    /// The directory holding the copies, mounted read-only as the run's `/etc`.
    dir: PathBuf,
    /// What Landlock's rules name: each copied entry of it.
    rules: Vec<PathBuf>,
    /// The large entries mounted on their own at their place in it (`/etc/ssl`).
    bound: Vec<PathBuf>,
}

/// Every prepared `/etc` of this process, removed when it exits.
static PREPARED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

extern "C" fn remove_prepared_at_exit() {
    let dirs = PREPARED
        .lock()
        .map(|mut d| std::mem::take(&mut *d))
        .unwrap_or_default();
    for dir in dirs {
        let _ = crate::run::workdir::remove_tree(&dir);
    }
}

/// Whether `path` lies in a prepared `/etc` of this process (which never changes once made:
/// Landlock keeps the descriptors of its entries open, as it does for system directories).
pub(crate) fn in_prepared_etc(path: &Path) -> bool {
    PREPARED
        .lock()
        .is_ok_and(|dirs| dirs.iter().any(|d| path.starts_with(d)))
}

/// Whether the run's `/etc` is one prepared directory (`GRADE_PREPARED_ETC=0`: a mount per
/// entry, as before; for measuring).
fn prepared_etc_enabled() -> bool {
    std::env::var_os("GRADE_PREPARED_ETC").is_none_or(|v| v != "0")
}

/// The entries of `/etc` a run needs (`entries`), copied once per grader process into a
/// directory of its own under the temporary directory, so that a run mounts one directory as
/// its `/etc` instead of one mount per entry (each mount costs every run's start, and its
/// teardown at the end). Only what every user may read is copied (files readable by others,
/// directories others may list and enter: the run's uid is "others"), links as links, files
/// as hard links where allowed, modes kept; entries with more than [`COPY_AT_MOST`] names
/// below them get an empty directory to be mounted on. `None` (the caller mounts entry by entry) when a protected path lies in
/// `/etc`, the copy cannot be made, or the run's uid could not reach it.
fn prepared_etc(entries: &[PathBuf], protected: &[PathBuf]) -> Option<PreparedEtc> {
    if protected
        .iter()
        .any(|p| p.starts_with("/etc") || Path::new("/etc").starts_with(p))
    {
        return None;
    }
    let _copy = crate::run::profile::span("probes: the run's /etc prepared (once per process)");
    // In memory where the machine has a shared one (`/dev/shm`, a tmpfs open to all): a few
    // dozen names made there cost microseconds each, on a disk's journal up to 100 µs.
    let temp = [PathBuf::from("/dev/shm"), std::env::temp_dir()]
        .into_iter()
        .filter_map(|d| d.canonicalize().ok())
        .find(|d| reachable_by_others(d) && (d != Path::new("/dev/shm") || is_shared_tmpfs(d)))?;
    let dir = tempfile::Builder::new()
        .prefix("grade-etc-")
        .tempdir_in(&temp)
        .ok()?
        .keep();
    if let Ok(mut list) = PREPARED.lock() {
        if list.is_empty() {
            // SAFETY: registering a plain extern "C" function.
            unsafe { libc::atexit(remove_prepared_at_exit) };
        }
        list.push(dir.clone());
    }
    let made = (|| -> std::io::Result<PreparedEtc> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))?;
        let mut prepared = PreparedEtc {
            dir: dir.clone(),
            rules: Vec::new(),
            bound: Vec::new(),
        };
        for entry in entries {
            let Some(name) = entry.file_name() else {
                continue;
            };
            let target = dir.join(name);
            if count_below(entry, COPY_AT_MOST + 1) > COPY_AT_MOST {
                std::fs::create_dir(&target)?;
                prepared.bound.push(entry.clone());
            } else if copy_readable(entry, &target)? {
                prepared.rules.push(target);
            }
        }
        Ok(prepared)
    })();
    made.ok()
}

/// Whether `dir` is a tmpfs that everyone may write and only owners may delete in (mode
/// 1777), as `/dev/shm` usually is.
fn is_shared_tmpfs(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    const TMPFS_MAGIC: i64 = 0x0102_1994;
    let Ok(c) = CString::new(dir.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: statfs fills the struct.
    let mut st: libc::statfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statfs(c.as_ptr(), &mut st) } != 0 {
        return false;
    }
    st.f_type as i64 == TMPFS_MAGIC
        && std::fs::metadata(dir).is_ok_and(|m| m.permissions().mode() & 0o7777 == 0o1777)
}

/// Whether every directory from `/` to `dir` lets others through (the run's uid is one).
fn reachable_by_others(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    dir.ancestors().all(|d| {
        std::fs::metadata(d).is_ok_and(|m| m.is_dir() && m.permissions().mode() & 0o001 != 0)
    })
}

/// How many names lie below `path` (itself included), counting up to `limit`.
fn count_below(path: &Path, limit: usize) -> usize {
    let mut count = 1;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return count;
    };
    if !meta.is_dir() {
        return count;
    }
    for entry in std::fs::read_dir(path).into_iter().flatten().flatten() {
        count += count_below(&entry.path(), limit.saturating_sub(count));
        if count > limit {
            break;
        }
    }
    count
}

/// Copies `source` to `target` as far as others may read it: a link as a link, a file
/// readable by others with its mode (set-id bits dropped), a directory others may list and
/// enter with what of it they may read. Whether anything was copied.
fn copy_readable(source: &Path, target: &Path) -> std::io::Result<bool> {
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::symlink_metadata(source)?;
    let mode = meta.permissions().mode() & 0o777;
    let kind = meta.file_type();
    if kind.is_symlink() {
        std::os::unix::fs::symlink(std::fs::read_link(source)?, target)?;
    } else if kind.is_file() {
        if mode & 0o004 == 0 {
            return Ok(false);
        }
        // A hard link where the kernel allows one (the grader is root, or owns the file, and
        // both lie on one filesystem): one syscall, and the same file as the system's.
        // Otherwise a copy with its mode.
        if meta.permissions().mode() & 0o7000 != 0 || std::fs::hard_link(source, target).is_err() {
            std::fs::copy(source, target)?;
            std::fs::set_permissions(target, std::fs::Permissions::from_mode(mode))?;
        }
    } else if kind.is_dir() {
        if mode & 0o005 != 0o005 {
            return Ok(false);
        }
        std::fs::create_dir(target)?;
        let mut names: Vec<PathBuf> = std::fs::read_dir(source)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .collect();
        names.sort();
        for name in names {
            if let Some(file) = name.file_name() {
                copy_readable(&name, &target.join(file))?;
            }
        }
        // Writable by its owner only, so it can be removed at the end.
        std::fs::set_permissions(target, std::fs::Permissions::from_mode(mode | 0o200))?;
    } else {
        return Ok(false);
    }
    Ok(true)
}

/// The system part of every root (directories, `/etc`, `/dev` but its terminal, `/proc`,
/// `/tmp`), for this set of protected paths; computed once per set.
fn system_part(protected: &[PathBuf]) -> Builder {
    // One entry per set of protected paths and way of making `/etc` (a benchmark switches
    // between the two).
    type Key = (Vec<PathBuf>, bool);
    static CACHE: Mutex<Vec<(Key, Builder)>> = Mutex::new(Vec::new());
    let key = (protected.to_vec(), prepared_etc_enabled());
    if let Ok(cache) = CACHE.lock() {
        if let Some((_, builder)) = cache.iter().find(|(k, _)| *k == key) {
            return builder.clone();
        }
    }
    let mut b = Builder::default();
    for dir in SYSTEM {
        b.tree(Path::new(dir), protected, false);
    }
    let mut etc: Vec<PathBuf> = std::fs::read_dir("/etc")
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            ETC.iter().any(|wanted| match wanted.strip_suffix('*') {
                Some(prefix) => name.starts_with(prefix),
                None => name == *wanted,
            })
        })
        .map(|e| e.path())
        .collect();
    etc.sort();
    match key.1.then(|| prepared_etc(&etc, protected)).flatten() {
        Some(prepared) => {
            b.made.push(PathBuf::from("/etc"));
            b.steps.push(StepSpec::Dir(PathBuf::from("/etc")));
            b.steps.push(StepSpec::Prepared {
                source: prepared.dir.clone(),
                target: PathBuf::from("/etc"),
                remount: read_only_flags(&prepared.dir),
                rules: prepared.rules.clone(),
            });
            // What is inside the prepared directory exists in the new root already.
            b.mounted.push(PathBuf::from("/etc"));
            for entry in &prepared.bound {
                b.steps.push(StepSpec::Bind {
                    source: entry.clone(),
                    target: entry.clone(),
                    remount: read_only_flags(entry),
                });
            }
        }
        None => {
            b.dir(Path::new("/etc"));
            for entry in etc {
                b.tree(&entry, protected, false);
            }
        }
    }
    b.dir(Path::new("/proc"));
    b.steps.push(StepSpec::Proc(PathBuf::from("/proc")));
    b.dir(Path::new("/tmp"));
    b.steps.push(StepSpec::Tmpfs(
        PathBuf::from("/tmp"),
        "mode=1777,size=16m,nr_inodes=4096".into(),
    ));
    if let Ok(mut cache) = CACHE.lock() {
        cache.push((key, b.clone()));
    }
    b
}

/// The root of one run: the system part, the toolchain's directories and the submission
/// (`readable`) read-only, `workdir` read-write, and `/dev` with the run's own terminal
/// (`terminal`) or a devpts of its own (`devpts`). Paths that do not exist are left out.
pub fn plan(workdir: &Path, readable: &[PathBuf], terminal: Option<&Path>, devpts: bool) -> Plan {
    let protected = super::protected::protected_paths();
    // /tmp is the run's own (an empty tmpfs): what the grader keeps there is mounted over it
    // where a run needs it.
    let mut b = system_part(&protected);
    b.dir(Path::new("/dev"));
    b.steps.push(StepSpec::Tmpfs(
        PathBuf::from("/dev"),
        "mode=0755,size=64k,nr_inodes=64".into(),
    ));
    for name in DEVICES {
        let path = Path::new("/dev").join(name);
        if path.exists() {
            b.steps.push(StepSpec::File(path.clone()));
            b.steps.push(StepSpec::Bind {
                source: path.clone(),
                target: path,
                remount: 0,
            });
        }
    }
    for (target, link) in [
        ("/proc/self/fd", "/dev/fd"),
        ("/proc/self/fd/0", "/dev/stdin"),
        ("/proc/self/fd/1", "/dev/stdout"),
        ("/proc/self/fd/2", "/dev/stderr"),
        ("pts/ptmx", "/dev/ptmx"),
        // POSIX shared memory and named semaphores (glibc's `shm_open`, `sem_open` and
        // Python's multiprocessing use /dev/shm): a directory of the run's own, private
        // `/tmp` (created below), so they work inside a run, never between runs, and cost
        // no mount of their own.
        (SHM_DIR, "/dev/shm"),
    ] {
        b.symlink(PathBuf::from(target), Path::new(link));
    }
    b.steps.push(StepSpec::Dir(PathBuf::from("/dev/pts")));
    b.steps.push(StepSpec::Dir(PathBuf::from(SHM_DIR)));
    if let Some(tty) = terminal {
        b.steps.push(StepSpec::File(tty.to_path_buf()));
        b.steps.push(StepSpec::Bind {
            source: tty.to_path_buf(),
            target: tty.to_path_buf(),
            remount: 0,
        });
    } else if devpts {
        b.steps.push(StepSpec::Devpts(PathBuf::from("/dev/pts")));
    }
    b.steps.push(StepSpec::ReadOnly(PathBuf::from("/dev")));
    b.made.push(PathBuf::from("/dev"));
    for path in readable {
        if let Ok(real) = path.canonicalize() {
            b.tree(&real, &protected, false);
        }
    }
    let cwd = workdir
        .canonicalize()
        .unwrap_or_else(|_| workdir.to_path_buf());
    b.tree(&cwd, &[], true);
    let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).unwrap_or_default();
    let old = |p: &Path| {
        let mut bytes = OLD_ROOT_PREFIX.as_bytes().to_vec();
        bytes.extend_from_slice(p.as_os_str().as_bytes());
        CString::new(bytes).unwrap_or_default()
    };
    let read_only = b
        .steps
        .iter()
        .flat_map(|s| match s {
            StepSpec::Bind {
                source, remount, ..
            } if *remount != 0 => vec![source.clone()],
            StepSpec::Prepared { rules, .. } => rules.clone(),
            _ => Vec::new(),
        })
        .collect();
    let steps = b
        .steps
        .iter()
        .map(|s| match s {
            StepSpec::Dir(p) => Step::Dir(c(p)),
            StepSpec::File(p) => Step::File(c(p)),
            StepSpec::Symlink(target, link) => Step::Symlink {
                target: c(target),
                link: c(link),
            },
            StepSpec::Bind {
                source,
                target,
                remount,
            } => Step::Bind {
                source: old(source),
                target: c(target),
                remount: *remount,
            },
            StepSpec::Tmpfs(p, options) => Step::Tmpfs {
                target: c(p),
                options: CString::new(options.as_bytes()).unwrap_or_default(),
            },
            StepSpec::Proc(p) => Step::Proc(c(p)),
            StepSpec::Devpts(p) => Step::Devpts(c(p)),
            StepSpec::ReadOnly(p) => Step::ReadOnly(c(p)),
            StepSpec::Prepared {
                source,
                target,
                remount,
                ..
            } => Step::Bind {
                source: old(source),
                target: c(target),
                remount: *remount,
            },
        })
        .collect();
    Plan {
        steps,
        read_only,
        cwd: c(&cwd),
        setattr: has_mount_setattr(),
    }
}

/// Child side: builds the new root and enters it (see the module's documentation). Returns
/// the errno of the first step that failed.
///
/// # Safety
/// Call only in the spawned child before exec, in the run's own mount namespace (with its
/// user namespace's capabilities) and, for `/proc`, as pid 1 of its pid namespace.
pub unsafe fn apply(plan: &Plan) -> Result<(), i32> {
    // SAFETY: syscalls on C strings owned by the plan, in the child as the caller promised.
    unsafe {
        let none = std::ptr::null::<libc::c_void>();
        check(libc::mount(
            c"tmpfs".as_ptr(),
            c"/tmp".as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            c"mode=0755,size=1m,nr_inodes=16384".as_ptr().cast(),
        ))?;
        check(libc::mkdir(c"/tmp/.grade-old-root".as_ptr(), 0o700))?;
        if libc::syscall(
            libc::SYS_pivot_root,
            c"/tmp".as_ptr(),
            c"/tmp/.grade-old-root".as_ptr(),
        ) != 0
        {
            return Err(errno());
        }
        check(libc::chdir(c"/".as_ptr()))?;
        for step in &plan.steps {
            apply_step(step, plan.setattr)?;
        }
        {
            // The old root is covered, not detached: detaching it waits for an RCU grace
            // period (several milliseconds on a loaded machine) on every run's start, and it
            // goes with the mount namespace at the run's end anyway. The cover is an empty,
            // read-only tmpfs no one may enter; the program has no capability to unmount it,
            // and in any namespace it creates the two are locked together.
            check(libc::mount(
                c"none".as_ptr(),
                OLD_ROOT.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
                c"mode=000,size=4k,nr_inodes=1".as_ptr().cast(),
            ))?;
        }
        if plan.setattr {
            // Every mount of the new root read-only at once, then the two the run writes.
            set_attr(c"/", AT_RECURSIVE, MOUNT_ATTR_RDONLY, 0)?;
            set_attr(c"/tmp", 0, 0, MOUNT_ATTR_RDONLY)?;
            set_attr(&plan.cwd, 0, 0, MOUNT_ATTR_RDONLY)?;
        } else {
            check(libc::mount(
                std::ptr::null(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REMOUNT
                    | libc::MS_BIND
                    | libc::MS_RDONLY
                    | libc::MS_NOSUID
                    | libc::MS_NODEV,
                none,
            ))?;
        }
        check(libc::chdir(plan.cwd.as_ptr()))?;
    }
    Ok(())
}

/// The errno of the call that just failed (in the child: no allocation, no `io::Error`).
fn errno() -> i32 {
    // SAFETY: the calling thread's errno, always readable.
    unsafe { *libc::__errno_location() }
}

/// A syscall's 0 as `Ok`, anything else as its errno.
fn check(r: libc::c_int) -> Result<(), i32> {
    if r == 0 {
        Ok(())
    } else {
        Err(errno())
    }
}

/// One step of the plan in the new root (`setattr`: the read-only remounts are left to
/// `mount_setattr` at the end).
///
/// # Safety
/// As [`apply`]: in the spawned child, after the pivot into the new root.
unsafe fn apply_step(step: &Step, setattr: bool) -> Result<(), i32> {
    let none = std::ptr::null::<libc::c_void>();
    // SAFETY: syscalls on C strings owned by the plan, in the child as the caller promised.
    unsafe {
        match step {
            Step::Dir(path) => match libc::mkdir(path.as_ptr(), 0o755) {
                0 => {}
                _ if errno() == libc::EEXIST => {}
                _ => return Err(errno()),
            },
            Step::File(path) => {
                let fd = libc::open(
                    path.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                );
                if fd < 0 {
                    return Err(errno());
                }
                libc::close(fd);
            }
            Step::Symlink { target, link } => {
                check(libc::symlink(target.as_ptr(), link.as_ptr()))?;
            }
            Step::Bind {
                source,
                target,
                remount,
            } => {
                check(libc::mount(
                    source.as_ptr(),
                    target.as_ptr(),
                    std::ptr::null(),
                    libc::MS_BIND | libc::MS_REC,
                    none,
                ))?;
                if *remount != 0 && !setattr {
                    check(libc::mount(
                        std::ptr::null(),
                        target.as_ptr(),
                        std::ptr::null(),
                        *remount,
                        none,
                    ))?;
                }
            }
            Step::Tmpfs { target, options } => check(libc::mount(
                c"tmpfs".as_ptr(),
                target.as_ptr(),
                c"tmpfs".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV,
                options.as_ptr().cast(),
            ))?,
            Step::Proc(target) => check(libc::mount(
                c"proc".as_ptr(),
                target.as_ptr(),
                c"proc".as_ptr(),
                libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                none,
            ))?,
            Step::Devpts(target) => check(libc::mount(
                c"devpts".as_ptr(),
                target.as_ptr(),
                c"devpts".as_ptr(),
                libc::MS_NOSUID | libc::MS_NOEXEC,
                c"newinstance,ptmxmode=0666,mode=0620".as_ptr().cast(),
            ))?,
            Step::ReadOnly(_) if setattr => {}
            Step::ReadOnly(target) => check(libc::mount(
                std::ptr::null(),
                target.as_ptr(),
                std::ptr::null(),
                libc::MS_REMOUNT
                    | libc::MS_BIND
                    | libc::MS_RDONLY
                    | libc::MS_NOSUID
                    | libc::MS_NODEV,
                none,
            ))?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_with_a_protected_file_is_mounted_around_it() {
        let root = tempfile::tempdir().expect("tempdir");
        let base = root.path().canonicalize().expect("canonical");
        for dir in ["a/bin", "a/lib", "b"] {
            std::fs::create_dir_all(base.join(dir)).expect("mkdir");
        }
        std::fs::write(base.join("a/bin/grade"), "secret").expect("write");
        std::fs::write(base.join("a/bin/cat"), "tool").expect("write");
        std::os::unix::fs::symlink("cat", base.join("a/bin/dog")).expect("symlink");
        let mut b = Builder::default();
        b.tree(&base.join("a"), &[base.join("a/bin/grade")], false);
        let binds: Vec<&PathBuf> = b
            .steps
            .iter()
            .filter_map(|s| match s {
                StepSpec::Bind { target, .. } => Some(target),
                _ => None,
            })
            .collect();
        assert_eq!(binds, vec![&base.join("a/bin/cat"), &base.join("a/lib")]);
        assert!(b.steps.iter().any(|s| matches!(
            s,
            StepSpec::Symlink(target, link) if target == Path::new("cat") && *link == base.join("a/bin/dog")
        )));
        assert!(!format!("{:?}", b.steps).contains("a/bin/grade"));
    }

    #[test]
    fn a_tree_met_twice_makes_each_link_and_file_once() {
        // Debian's /usr/local (`man -> share/man`) split around a grader copy in its bin,
        // then named again whole and by a subdirectory (Python's prefix is /usr).
        let root = tempfile::tempdir().expect("tempdir");
        let base = root.path().canonicalize().expect("canonical");
        for dir in ["usr/local/bin", "usr/local/share/man", "usr/bin"] {
            std::fs::create_dir_all(base.join(dir)).expect("mkdir");
        }
        std::fs::write(base.join("usr/local/bin/grade"), "secret").expect("write");
        std::fs::write(base.join("usr/local/bin/tool"), "tool").expect("write");
        std::os::unix::fs::symlink("share/man", base.join("usr/local/man")).expect("symlink");
        std::os::unix::fs::symlink("tool", base.join("usr/local/bin/alias")).expect("symlink");
        let protected = [base.join("usr/local/bin/grade")];
        let mut b = Builder::default();
        b.tree(&base.join("usr"), &protected, false);
        b.tree(&base.join("usr"), &protected, false);
        b.tree(&base.join("usr/local"), &protected, false);
        b.tree(&base.join("usr/local/man"), &protected, false);
        let links: Vec<&PathBuf> = b
            .steps
            .iter()
            .filter_map(|s| match s {
                StepSpec::Symlink(_, link) => Some(link),
                _ => None,
            })
            .collect();
        assert_eq!(
            links,
            vec![
                &base.join("usr/local/bin/alias"),
                &base.join("usr/local/man")
            ]
        );
        let files = b
            .steps
            .iter()
            .filter(|s| matches!(s, StepSpec::File(f) if *f == base.join("usr/local/bin/tool")))
            .count();
        assert_eq!(files, 1);
        assert!(!format!("{:?}", b.steps).contains("usr/local/bin/grade"));
    }

    #[test]
    fn only_what_others_may_read_is_copied_into_the_prepared_etc() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempfile::tempdir().expect("tempdir");
        let source = root.path().join("conf");
        std::fs::create_dir_all(source.join("open")).expect("mkdir");
        std::fs::create_dir_all(source.join("closed")).expect("mkdir");
        std::fs::write(source.join("open/public"), "public").expect("write");
        std::fs::write(source.join("secret"), "secret").expect("write");
        std::fs::write(source.join("closed/inside"), "inside").expect("write");
        std::os::unix::fs::symlink("/usr/share/x", source.join("link")).expect("symlink");
        let mode = |path: &Path, mode: u32| {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod")
        };
        mode(&source.join("open/public"), 0o644);
        mode(&source.join("secret"), 0o640);
        mode(&source.join("closed"), 0o750);
        let target = root.path().join("copy");
        assert!(copy_readable(&source, &target).expect("copy"));
        assert_eq!(
            std::fs::read_to_string(target.join("open/public")).expect("read"),
            "public"
        );
        let copied_mode = std::fs::metadata(target.join("open/public"))
            .expect("stat")
            .permissions()
            .mode();
        assert_eq!(copied_mode & 0o777, 0o644);
        assert_eq!(
            std::fs::read_link(target.join("link")).expect("link"),
            Path::new("/usr/share/x")
        );
        assert!(!target.join("secret").exists());
        assert!(!target.join("closed").exists());
        assert_eq!(count_below(&source, 100), 7);
        assert!(count_below(&source, 2) > 2);
    }
}
