//! A submission's sandbox, prepared once and reused by its runs (issue 36): the working
//! directory, the plan of the run's own root and Landlock's rules, their paths opened. The
//! grader made all three again for every run, though they depend only on the submission;
//! now a run takes a prepared sandbox for its submission when one is free ([`take`]), and
//! gives it back emptied once its processes are gone ([`give_back`]).
//!
//! What must be fresh still is, per run: its namespaces (user, pid, mount, IPC, UTS and
//! network), its root's mounts (its `/proc`, `/tmp` and `/dev` are new mounts), its cgroups,
//! its pipes, its Landlock ruleset (made from the prepared rules: the child adds its own
//! `/proc` and `/tmp` to it) and seccomp filters, and the files of its case.
//!
//! Nothing of a run reaches the next through the directory: its processes are killed and
//! reaped before the directory is emptied, and the directory itself must come back
//! as it was made — the same inode, no extended attribute (a default ACL would shape the next
//! run's files), the same inode flags — or it is removed and the next run gets a new one. Its
//! mode, owner and times are set again. An idle sandbox's directory belongs to the grader
//! (a per-run uid, which a later run may be given, owns nothing idle). Sandboxes are only
//! shared by runs of the same programs, readable paths and layers ([`Key`]), never across
//! submissions, and not for a run under a terminal (its terminal is its own) or in a
//! directory of its own (a build's).

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::PathBuf;
use std::sync::Mutex;

use super::layers::{landlock::LandlockRules, rootfs};
use super::workdir::{fstat, open_dir};

/// Idle sandboxes kept for later runs; the oldest is removed beyond this many. A class's
/// students each leave theirs behind, so this bounds what a grading holds (a directory and a
/// few descriptors each).
const MAX_IDLE: usize = 8;

/// What runs must have in common to share a prepared sandbox: whatever its plans were made
/// from but the directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Key {
    /// The program as the command names it.
    pub program: String,
    /// The `PATH` it is looked up on.
    pub run_path: String,
    /// What the run may read besides the system: the submission and its toolchain.
    pub readable: Vec<PathBuf>,
    /// The layers switched off (`GRADE_DISABLE`).
    pub off: super::Disabled,
    /// The protected paths' generation ([`super::layers::protected::generation`]).
    pub protected: u64,
}

/// What a run of the key's programs is confined to, planned once per sandbox.
#[derive(Debug)]
pub(super) struct Confinement {
    /// The program's toolchain folder outside the system directories, made readable.
    pub toolchain: Option<PathBuf>,
    /// The run's own root, where the machine allows one.
    pub rootfs: Option<rootfs::Plan>,
    /// Landlock's rules (where the kernel has Landlock and it is not switched off).
    pub landlock: Option<LandlockRules>,
}

/// One prepared sandbox: its directory and, once its first run has planned it, its
/// confinement.
#[derive(Debug)]
pub(super) struct Sandbox {
    key: Key,
    /// The working directory, empty between runs.
    pub dir: PathBuf,
    /// The directory made, held open: while it is, no other directory can have its inode
    /// number, so one swapped in at its path is told apart.
    made: OwnedFd,
    /// Its inode flags when made (`FS_IOC_GETFLAGS`, `None` where the filesystem has none).
    flags: Option<libc::c_long>,
    /// The plans, made by the first run.
    pub confinement: Option<Confinement>,
}

/// Idle sandboxes, the most recently given back last, at most `max_idle` of them.
struct Pool {
    idle: Mutex<Vec<Sandbox>>,
    max_idle: usize,
}

/// The grader's sandboxes.
static POOL: Pool = Pool::new(MAX_IDLE);

/// A sandbox for a run of `key` (see [`Pool::take`]).
pub(super) fn take(key: Key) -> io::Result<Sandbox> {
    remove_idle_at_exit();
    POOL.take(key)
}

/// Gives `sandbox` back once its run's processes are gone (see [`Pool::give_back`]).
pub(super) fn give_back(sandbox: Sandbox) {
    POOL.give_back(sandbox);
}

impl Pool {
    const fn new(max_idle: usize) -> Pool {
        Pool {
            idle: Mutex::new(Vec::new()),
            max_idle,
        }
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<Sandbox>> {
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// An idle sandbox made for the same key, or a new one (a new empty directory in the
    /// temporary directory, named as every run's).
    fn take(&self, key: Key) -> io::Result<Sandbox> {
        {
            let mut idle = self.idle();
            if let Some(at) = idle.iter().rposition(|s| s.key == key) {
                return Ok(idle.remove(at));
            }
        }
        let dir = tempfile::Builder::new()
            .prefix("grade-run-")
            .tempdir()?
            .keep();
        let made = open_dir(&dir).map(|fd| Sandbox {
            key,
            flags: inode_flags(&fd),
            made: fd,
            dir: dir.clone(),
            confinement: None,
        });
        if made.is_err() {
            let _ = std::fs::remove_dir(&dir);
        }
        made
    }

    /// Emptied and checked, `sandbox` waits for the next run of its key; one that cannot be
    /// made as new is removed, and so is the oldest idle one beyond `max_idle`.
    fn give_back(&self, sandbox: Sandbox) {
        if restore(&sandbox).is_err() {
            discard(sandbox);
            return;
        }
        let evicted = {
            let mut idle = self.idle();
            idle.push(sandbox);
            let over = idle.len().saturating_sub(self.max_idle);
            idle.drain(..over).collect::<Vec<_>>()
        };
        evicted.into_iter().for_each(discard);
    }

    /// Removes every idle sandbox, unless another thread holds the pool (at exit: its
    /// sandboxes then stay).
    fn remove_all(&self) {
        if let Ok(mut idle) = self.idle.try_lock() {
            idle.drain(..).for_each(discard);
        }
    }
}

/// Removes a sandbox's directory, whatever its run left there.
fn discard(sandbox: Sandbox) {
    let _ = super::workdir::remove_tree(&sandbox.dir);
}

/// Empties the directory and makes it as it was made: the grader's, mode 0700, its times
/// now. Fails when it is not the directory made, or carries what emptying cannot take away
/// (an extended attribute, other inode flags).
fn restore(sandbox: &Sandbox) -> io::Result<()> {
    super::workdir::empty_tree(&sandbox.dir)?;
    let fd = open_dir(&sandbox.dir)?;
    let (st, made) = (fstat(fd.as_raw_fd())?, fstat(sandbox.made.as_raw_fd())?);
    let changed = || io::Error::other("the working directory changed");
    if (st.st_dev, st.st_ino) != (made.st_dev, made.st_ino) || inode_flags(&fd) != sandbox.flags {
        return Err(changed());
    }
    // SAFETY: a size query with no buffer on our own descriptor.
    let attributes = unsafe { libc::flistxattr(fd.as_raw_fd(), std::ptr::null_mut(), 0) };
    if attributes != 0 {
        return Err(changed());
    }
    // SAFETY: plain syscalls on our own descriptor.
    unsafe {
        let (uid, gid) = (libc::geteuid(), libc::getegid());
        if (st.st_uid != uid || st.st_gid != gid) && libc::fchown(fd.as_raw_fd(), uid, gid) != 0 {
            return Err(io::Error::last_os_error());
        }
        if libc::fchmod(fd.as_raw_fd(), 0o700) != 0
            || libc::futimens(fd.as_raw_fd(), std::ptr::null()) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The directory's inode flags (`chattr`'s), where its filesystem has them.
fn inode_flags(fd: &OwnedFd) -> Option<libc::c_long> {
    /// `FS_IOC_GETFLAGS`.
    const FS_IOC_GETFLAGS: libc::c_ulong = 0x8008_6601;
    let mut flags: libc::c_long = 0;
    // SAFETY: the ioctl writes one long.
    let r = unsafe { libc::ioctl(fd.as_raw_fd(), FS_IOC_GETFLAGS, &mut flags) };
    (r == 0).then_some(flags)
}

/// Removes the idle sandboxes' directories when the grader exits, whichever way (`exit`
/// after a second Ctrl-C as much as the end of `main`); registered once.
fn remove_idle_at_exit() {
    static REGISTERED: std::sync::Once = std::sync::Once::new();
    extern "C" fn remove_idle() {
        POOL.remove_all();
    }
    REGISTERED.call_once(|| {
        // SAFETY: registers a function that takes no argument; it only locks and removes.
        unsafe { libc::atexit(remove_idle) };
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    use std::path::Path;

    fn key(program: &str) -> Key {
        Key {
            program: program.to_string(),
            run_path: "/usr/bin".to_string(),
            readable: vec![PathBuf::from("/srv/submission")],
            off: super::super::Disabled::default(),
            protected: 0,
        }
    }

    /// What a run might leave: files, a folder it closed to everyone, its directory's mode,
    /// and as root its directory owned by the run's uid.
    fn leave_things_in(dir: &Path) {
        // SAFETY: geteuid cannot fail.
        if unsafe { libc::geteuid() } == 0 {
            std::os::unix::fs::chown(dir, Some(65534), Some(65534)).expect("chown");
        }
        std::fs::write(dir.join("planted"), "state").expect("write");
        std::fs::create_dir_all(dir.join("closed/deeper")).expect("mkdir");
        std::fs::write(dir.join("closed/deeper/file"), "x").expect("write");
        std::fs::set_permissions(dir.join("closed"), std::fs::Permissions::from_mode(0o000))
            .expect("chmod");
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o751)).expect("chmod");
    }

    #[test]
    fn a_sandbox_comes_back_to_its_key_emptied_and_as_made() {
        let pool = Pool::new(4);
        let first = pool.take(key("a")).expect("sandbox");
        let dir = first.dir.clone();
        leave_things_in(&dir);
        pool.give_back(first);
        let again = pool.take(key("a")).expect("sandbox");
        assert_eq!(again.dir, dir);
        assert_eq!(std::fs::read_dir(&dir).expect("read").count(), 0);
        let meta = std::fs::metadata(&dir).expect("stat");
        assert_eq!(meta.permissions().mode() & 0o7777, 0o700);
        // SAFETY: geteuid cannot fail.
        assert_eq!(meta.uid(), unsafe { libc::geteuid() });
        // SAFETY: getegid cannot fail.
        assert_eq!(meta.gid(), unsafe { libc::getegid() });
        pool.give_back(again);
        pool.remove_all();
        assert!(!dir.exists());
    }

    #[test]
    fn another_key_gets_another_directory() {
        let pool = Pool::new(4);
        let a = pool.take(key("a")).expect("sandbox");
        let a_dir = a.dir.clone();
        pool.give_back(a);
        let b = pool.take(key("b")).expect("sandbox");
        assert_ne!(b.dir, a_dir);
        let mut other_readable = key("a");
        other_readable.readable.push(PathBuf::from("/srv/other"));
        let c = pool.take(other_readable).expect("sandbox");
        assert_ne!(c.dir, a_dir);
        for sandbox in [b, c] {
            pool.give_back(sandbox);
        }
        let a = pool.take(key("a")).expect("sandbox");
        assert_eq!(a.dir, a_dir);
        pool.give_back(a);
        let dirs: Vec<PathBuf> = pool.idle().iter().map(|s| s.dir.clone()).collect();
        assert_eq!(dirs.len(), 3);
        pool.remove_all();
        assert!(dirs.iter().all(|d| !d.exists()), "{dirs:?} left behind");
    }

    #[test]
    fn a_directory_carrying_an_extended_attribute_is_removed_not_reused() {
        let pool = Pool::new(4);
        let first = pool.take(key("x")).expect("sandbox");
        let dir = first.dir.clone();
        let path = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).expect("path");
        // SAFETY: valid C strings and a one-byte value.
        let set = unsafe {
            libc::setxattr(
                path.as_ptr(),
                c"user.grade-state".as_ptr(),
                b"1".as_ptr().cast(),
                1,
                0,
            )
        };
        if set != 0 {
            // A filesystem without user attributes (not this machine's /tmp, ext4, nor a
            // tmpfs of Linux ≥ 6.6): nothing a run could leave this way either.
            assert_eq!(
                std::io::Error::last_os_error().raw_os_error(),
                Some(libc::EOPNOTSUPP)
            );
            pool.give_back(first);
            pool.remove_all();
            return;
        }
        pool.give_back(first);
        assert!(!dir.exists(), "{} kept", dir.display());
        let next = pool.take(key("x")).expect("sandbox");
        assert_ne!(next.dir, dir);
        pool.give_back(next);
        pool.remove_all();
    }

    #[test]
    fn a_directory_swapped_in_is_not_reused() {
        let pool = Pool::new(4);
        let first = pool.take(key("s")).expect("sandbox");
        let dir = first.dir.clone();
        std::fs::remove_dir(&dir).expect("rmdir");
        std::fs::create_dir(&dir).expect("mkdir");
        pool.give_back(first);
        assert!(!dir.exists());
        pool.remove_all();
    }

    #[test]
    fn beyond_the_idle_limit_the_oldest_are_removed() {
        let pool = Pool::new(2);
        let taken: Vec<Sandbox> = ["1", "2", "3"]
            .iter()
            .map(|k| pool.take(key(k)).expect("sandbox"))
            .collect();
        let dirs: Vec<PathBuf> = taken.iter().map(|s| s.dir.clone()).collect();
        for sandbox in taken {
            pool.give_back(sandbox);
        }
        assert!(!dirs[0].exists(), "the oldest is removed");
        assert!(dirs[1].exists() && dirs[2].exists());
        let third = pool.take(key("3")).expect("sandbox");
        assert_eq!(third.dir, dirs[2]);
        pool.give_back(third);
        pool.remove_all();
        assert!(!dirs[1].exists() && !dirs[2].exists());
    }
}
