//! The files a run touches: copying a student's tree without following links, measuring what a
//! run wrote, and removing whatever tree it left, however deep.
//!
//! Everything here works from directory descriptors (`openat` with `O_NOFOLLOW`), never from
//! paths re-resolved later, so a symbolic link swapped in while the grader works is never
//! followed, and nothing recurses on the call stack: a program that built 15 000 nested
//! directories (constant time per level with `chdir`) cannot make the grader overflow its stack.

use std::ffi::{CStr, CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// Bytes a run may leave in its working directory (files of all sizes together).
pub const DISK_LIMIT_BYTES: u64 = 256 << 20;
/// Directory entries a run may leave in its working directory.
pub const DISK_LIMIT_ENTRIES: u64 = 10_000;

fn cstr(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "NUL in a path"))
}

fn check(r: libc::c_int) -> io::Result<libc::c_int> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r)
    }
}

/// Opens `name` in `dir` without following a final symbolic link.
fn open_at(dir: RawFd, name: &CStr, flags: libc::c_int) -> io::Result<OwnedFd> {
    // SAFETY: a valid C string; the result is a fresh fd we own.
    let fd = check(unsafe {
        libc::openat(
            dir,
            name.as_ptr(),
            flags | libc::O_NOFOLLOW | libc::O_CLOEXEC | libc::O_NOCTTY,
        )
    })?;
    // SAFETY: fresh fd.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

fn open_dir_at(dir: RawFd, name: &CStr) -> io::Result<OwnedFd> {
    open_at(dir, name, libc::O_RDONLY | libc::O_DIRECTORY)
}

/// The status of the open file `fd`.
pub(super) fn fstat(fd: RawFd) -> io::Result<libc::stat> {
    // SAFETY: stat is plain data filled by fstat.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        check(libc::fstat(fd, &mut st))?;
        Ok(st)
    }
}

fn lstat_at(dir: RawFd, name: &CStr) -> io::Result<libc::stat> {
    // SAFETY: stat is plain data filled by fstatat.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        check(libc::fstatat(
            dir,
            name.as_ptr(),
            &mut st,
            libc::AT_SYMLINK_NOFOLLOW,
        ))?;
        Ok(st)
    }
}

fn is_dir(st: &libc::stat) -> bool {
    st.st_mode & libc::S_IFMT == libc::S_IFDIR
}

fn is_file(st: &libc::stat) -> bool {
    st.st_mode & libc::S_IFMT == libc::S_IFREG
}

/// The names in the directory open as `dir` (without `.` and `..`).
fn names(dir: RawFd) -> io::Result<Vec<CString>> {
    // SAFETY: fdopendir takes ownership of a dup of our fd; readdir entries are read before
    // the next call; closedir releases the dup.
    unsafe {
        let dup = check(libc::fcntl(dir, libc::F_DUPFD_CLOEXEC, 0))?;
        // Restart from the beginning: the descriptor may have been read before.
        libc::lseek(dup, 0, libc::SEEK_SET);
        let stream = libc::fdopendir(dup);
        if stream.is_null() {
            let e = io::Error::last_os_error();
            libc::close(dup);
            return Err(e);
        }
        let mut out = Vec::new();
        loop {
            let entry = libc::readdir(stream);
            if entry.is_null() {
                break;
            }
            let name = CStr::from_ptr((*entry).d_name.as_ptr());
            let bytes = name.to_bytes();
            if bytes != b"." && bytes != b".." {
                out.push(name.to_owned());
            }
        }
        libc::closedir(stream);
        Ok(out)
    }
}

/// Removes `path` and everything under it, without recursion and without following links.
/// Directories the run made unreadable are made readable first (the grader owns them or is
/// root). A missing `path` is not an error.
pub fn remove_tree(path: &Path) -> io::Result<()> {
    let c = cstr(path)?;
    let top = match open_dir_at(libc::AT_FDCWD, &c) {
        Ok(fd) => fd,
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => return Ok(()),
        Err(e)
            if e.raw_os_error() == Some(libc::ENOTDIR) || e.raw_os_error() == Some(libc::ELOOP) =>
        {
            // SAFETY: a valid C string.
            check(unsafe { libc::unlink(c.as_ptr()) })?;
            return Ok(());
        }
        Err(e) => return Err(e),
    };
    empty_dir(top)?;
    // SAFETY: a valid C string.
    check(unsafe { libc::rmdir(c.as_ptr()) })?;
    Ok(())
}

/// Opens the directory `path` itself (not a link there), close-on-exec.
pub(super) fn open_dir(path: &Path) -> io::Result<OwnedFd> {
    open_dir_at(libc::AT_FDCWD, &cstr(path)?)
}

/// Removes everything inside the directory `path` (not following a link there, nor any
/// below), keeping the directory itself: a working directory made ready for its next run.
pub fn empty_tree(path: &Path) -> io::Result<()> {
    empty_dir(open_dir(path)?)
}

/// Removes everything below the open directory `top`, without recursion.
fn empty_dir(top: OwnedFd) -> io::Result<()> {
    // The path of directory names from `top` down to `cur`; `cur` is the deepest open one.
    let mut stack: Vec<CString> = Vec::new();
    let mut cur = top;
    let dotdot = c"..";
    loop {
        let mut descended = false;
        for name in names(cur.as_raw_fd())? {
            let st = match lstat_at(cur.as_raw_fd(), &name) {
                Ok(st) => st,
                Err(_) => continue,
            };
            if is_dir(&st) {
                // SAFETY: a valid C string; fchmodat on an entry of our own directory.
                unsafe { libc::fchmodat(cur.as_raw_fd(), name.as_ptr(), 0o700, 0) };
                let child = open_dir_at(cur.as_raw_fd(), &name)?;
                stack.push(name);
                cur = child;
                descended = true;
                break;
            }
            // SAFETY: a valid C string.
            check(unsafe { libc::unlinkat(cur.as_raw_fd(), name.as_ptr(), 0) })?;
        }
        if descended {
            continue;
        }
        // `cur` is empty: go up one level and remove it.
        let Some(name) = stack.pop() else {
            break;
        };
        let parent = open_dir_at(cur.as_raw_fd(), dotdot)?;
        drop(cur);
        // SAFETY: a valid C string.
        check(unsafe { libc::unlinkat(parent.as_raw_fd(), name.as_ptr(), libc::AT_REMOVEDIR) })?;
        cur = parent;
    }
    Ok(())
}

/// What a directory tree holds, counted up to a budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes of regular files (allocated blocks, so sparse files count what they use).
    pub bytes: u64,
    /// Directory entries of every kind.
    pub entries: u64,
}

/// The usage of the tree at `path`, without recursion or following links; stops counting
/// once either limit is passed (the caller only needs to know that).
pub fn usage(path: &Path, max_bytes: u64, max_entries: u64) -> io::Result<Usage> {
    let top = open_dir_at(libc::AT_FDCWD, &cstr(path)?)?;
    let mut pending: Vec<OwnedFd> = vec![top];
    let mut total = Usage::default();
    // Directories are visited breadth-first with at most a few hundred open at once: beyond
    // that, the entries are counted but their contents are not (they are over budget anyway).
    while let Some(dir) = pending.pop() {
        for name in names(dir.as_raw_fd())? {
            total.entries += 1;
            let Ok(st) = lstat_at(dir.as_raw_fd(), &name) else {
                continue;
            };
            total.bytes += (st.st_blocks as u64) * 512;
            if total.bytes > max_bytes || total.entries > max_entries {
                return Ok(total);
            }
            if is_dir(&st) && pending.len() < 256 {
                if let Ok(fd) = open_dir_at(dir.as_raw_fd(), &name) {
                    pending.push(fd);
                }
            }
        }
    }
    Ok(total)
}

/// Limits on what [`copy_tree`] copies.
#[derive(Clone, Copy, Debug)]
pub struct CopyLimits {
    /// Directory levels below the top.
    pub depth: usize,
    /// Entries copied: files and directories together (a tree of empty directories costs
    /// the grader as much as one of files).
    pub files: u64,
    /// Bytes copied.
    pub bytes: u64,
}

/// Copies the regular files and directories of `from` into the existing directory `to`,
/// skipping names starting with `.` and everything that is neither (symbolic links, devices,
/// sockets). Every file is opened once with `O_NOFOLLOW` relative to its opened parent and
/// copied from that descriptor, so a link swapped in meanwhile is never followed. Fails when
/// the tree exceeds `limits` (directories count as entries, before each is made).
pub fn copy_tree(from: &Path, to: &Path, limits: CopyLimits) -> io::Result<()> {
    let top = open_dir_at(libc::AT_FDCWD, &cstr(from)?)?;
    let mut files = 0u64;
    let mut bytes = 0u64;
    let too_many = |limits: &CopyLimits| {
        io::Error::other(format!(
            "the submission holds more than {} files and folders or {} MiB",
            limits.files,
            limits.bytes >> 20
        ))
    };
    // (source directory, target path, depth)
    let mut pending: Vec<(OwnedFd, std::path::PathBuf, usize)> = vec![(top, to.to_path_buf(), 0)];
    while let Some((dir, target, depth)) = pending.pop() {
        for name in names(dir.as_raw_fd())? {
            if name.to_bytes().starts_with(b".") {
                continue;
            }
            let dest = target.join(OsStr::from_bytes(name.to_bytes()));
            let Ok(st) = lstat_at(dir.as_raw_fd(), &name) else {
                continue;
            };
            if is_dir(&st) {
                if depth >= limits.depth {
                    continue;
                }
                files += 1;
                if files > limits.files {
                    return Err(too_many(&limits));
                }
                let Ok(sub) = open_dir_at(dir.as_raw_fd(), &name) else {
                    continue;
                };
                std::fs::create_dir(&dest)?;
                pending.push((sub, dest, depth + 1));
            } else if is_file(&st) {
                let Ok(file) = open_at(dir.as_raw_fd(), &name, libc::O_RDONLY | libc::O_NONBLOCK)
                else {
                    continue;
                };
                // The file as opened, not as listed: it must still be a regular file.
                let st = fstat(file.as_raw_fd())?;
                if !is_file(&st) {
                    continue;
                }
                files += 1;
                bytes += st.st_size as u64;
                if files > limits.files || bytes > limits.bytes {
                    return Err(too_many(&limits));
                }
                let mut source = std::fs::File::from(file);
                let mut target_file = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&dest)?;
                std::io::copy(&mut source, &mut target_file)?;
                use std::os::unix::fs::PermissionsExt;
                let mode = st.st_mode & 0o755;
                target_file.set_permissions(std::fs::Permissions::from_mode(mode | 0o644))?;
            }
        }
    }
    Ok(())
}

/// Copies the single regular file `from` to `to` (created), refusing a symbolic link or
/// anything else that is not a regular file; opened once and copied from the descriptor.
pub fn copy_file(from: &Path, to: &Path) -> io::Result<()> {
    let file = open_at(
        libc::AT_FDCWD,
        &cstr(from)?,
        libc::O_RDONLY | libc::O_NONBLOCK,
    )
    .map_err(|e| {
        if e.raw_os_error() == Some(libc::ELOOP) {
            io::Error::other("is a symbolic link (not followed)")
        } else {
            e
        }
    })?;
    let st = fstat(file.as_raw_fd())?;
    if !is_file(&st) {
        return Err(io::Error::other("not a regular file"));
    }
    let mut source = std::fs::File::from(file);
    let mut target = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(to)?;
    std::io::copy(&mut source, &mut target)?;
    use std::os::unix::fs::PermissionsExt;
    target.set_permissions(std::fs::Permissions::from_mode(
        (st.st_mode & 0o755) | 0o644,
    ))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_very_deep_tree_is_removed_on_a_small_stack() {
        // On tmpfs when there is one: 15 000 rmdirs take half a minute on some disks.
        let root = if Path::new("/dev/shm").is_dir() {
            tempfile::tempdir_in("/dev/shm")
        } else {
            tempfile::tempdir()
        }
        .expect("tempdir");
        let top = root.path().join("t");
        std::fs::create_dir(&top).expect("mkdir");
        // Build 15 000 levels with mkdirat from the deepest open directory.
        let mut cur = open_dir_at(libc::AT_FDCWD, &cstr(&top).expect("c")).expect("open");
        for _ in 0..15_000 {
            // SAFETY: a valid C string.
            unsafe { libc::mkdirat(cur.as_raw_fd(), c"d".as_ptr(), 0o700) };
            cur = open_dir_at(cur.as_raw_fd(), c"d").expect("open");
        }
        // SAFETY: a valid C string.
        unsafe {
            libc::close(libc::openat(
                cur.as_raw_fd(),
                c"f".as_ptr(),
                libc::O_CREAT | libc::O_WRONLY,
                0o600,
            ))
        };
        drop(cur);
        let handle = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || remove_tree(&top))
            .expect("thread");
        handle.join().expect("no stack overflow").expect("removed");
        assert!(!root.path().join("t").exists());
    }

    #[test]
    fn copying_never_follows_links() {
        let root = tempfile::tempdir().expect("tempdir");
        let from = root.path().join("from");
        let to = root.path().join("to");
        std::fs::create_dir_all(from.join("sub")).expect("mkdir");
        std::fs::create_dir(&to).expect("mkdir");
        std::fs::write(root.path().join("secret"), "hidden").expect("write");
        std::fs::write(from.join("main.py"), "print(1)").expect("write");
        std::os::unix::fs::symlink(root.path().join("secret"), from.join("link.py"))
            .expect("symlink");
        std::os::unix::fs::symlink(root.path(), from.join("sub/up")).expect("symlink");
        let limits = CopyLimits {
            depth: 4,
            files: 100,
            bytes: 1 << 20,
        };
        copy_tree(&from, &to, limits).expect("copy");
        assert!(to.join("main.py").is_file());
        assert!(!to.join("link.py").exists());
        assert!(!to.join("sub/up").exists());
        assert!(copy_file(&from.join("link.py"), &root.path().join("x")).is_err());
        let tight = CopyLimits { files: 0, ..limits };
        std::fs::create_dir(root.path().join("to2")).expect("mkdir");
        assert!(copy_tree(&from, &root.path().join("to2"), tight).is_err());
        // Two entries (sub/ and main.py): a cap of one refuses the tree, and the directory
        // alone is enough to pass it.
        let one = CopyLimits { files: 1, ..limits };
        std::fs::create_dir(root.path().join("to3")).expect("mkdir");
        assert!(copy_tree(&from, &root.path().join("to3"), one).is_err());
        std::fs::remove_file(from.join("main.py")).expect("rm");
        std::fs::create_dir(root.path().join("to4")).expect("mkdir");
        assert!(copy_tree(&from, &root.path().join("to4"), one).is_ok());
        std::fs::create_dir(from.join("sub2")).expect("mkdir");
        std::fs::create_dir(root.path().join("to5")).expect("mkdir");
        assert!(copy_tree(&from, &root.path().join("to5"), one).is_err());
        let usage = usage(&to, u64::MAX, u64::MAX).expect("usage");
        assert_eq!(usage.entries, 2);
    }
}
