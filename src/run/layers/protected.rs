//! The paths no run may read, whatever its layers: the grader's own binary and its copies (it
//! embeds the reference transcripts), an instructor's cases, the build cache. Both the run's
//! root filesystem ([`super::rootfs`], which mounts around them) and Landlock
//! ([`super::landlock`], which leaves holes for them) hide them.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Paths no program may read even inside an allowed system directory: the grader's own
/// binary (it embeds the reference transcripts) and instructors' case directories.
static PROTECTED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How many paths [`protect`] has added: what was planned for a run before a change must not
/// be used after it (`crate::run::prepared`).
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// Keeps `path` (a file or a directory tree) unreadable by every later run, even when it lies
/// inside a system directory such as /usr or /opt.
pub fn protect(path: &Path) {
    if let (Ok(real), Ok(mut list)) = (path.canonicalize(), PROTECTED.lock()) {
        if !list.contains(&real) {
            list.push(real);
            GENERATION.fetch_add(1, Ordering::SeqCst);
        }
    }
}

/// Changes whenever a path is protected: plans made under another generation are stale.
pub(crate) fn generation() -> u64 {
    GENERATION.load(Ordering::SeqCst)
}

/// Every protected path: the instructor's cases and the build cache ([`protect`]), the running
/// grader binary and its other copies ([`grader_copies`]).
pub(crate) fn protected_paths() -> Vec<PathBuf> {
    let mut list = PROTECTED.lock().map(|l| l.clone()).unwrap_or_default();
    for copy in grader_copies() {
        if !list.contains(copy) {
            list.push(copy.clone());
        }
    }
    list.sort();
    list
}

/// The running grader binary and the other copies of it found where installs put them
/// (found once per process): hard links to it beside it and in Cargo's `deps/` (every
/// `cargo build` leaves one there), and any `grade` in the directories on `PATH`, the system's
/// `bin` directories, `~/.cargo/bin` and `~/.local/bin` (`cargo install`, `pip install`).
pub fn grader_copies() -> &'static [PathBuf] {
    static COPIES: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    COPIES.get_or_init(|| {
        use std::os::unix::fs::MetadataExt;
        let mut copies = Vec::new();
        let Ok(exe) = std::env::current_exe().and_then(|e| e.canonicalize()) else {
            return copies;
        };
        let identity = std::fs::metadata(&exe).map(|m| (m.dev(), m.ino())).ok();
        let mut dirs: Vec<PathBuf> = Vec::new();
        if let Some(dir) = exe.parent() {
            dirs.push(dir.to_path_buf());
            dirs.push(dir.join("deps"));
        }
        let same_file = |path: &Path| {
            std::fs::metadata(path)
                .ok()
                .map(|m| (m.dev(), m.ino()))
                .is_some_and(|id| Some(id) == identity)
        };
        for dir in &dirs {
            for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let name = entry.file_name();
                if name.to_string_lossy().starts_with("grade") && same_file(&entry.path()) {
                    copies.push(entry.path());
                }
            }
        }
        let mut named: Vec<PathBuf> = std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect())
            .unwrap_or_default();
        named.extend(
            [
                "/usr/local/bin",
                "/usr/local/sbin",
                "/usr/bin",
                "/usr/sbin",
                "/bin",
            ]
            .map(PathBuf::from),
        );
        if let Some(home) = std::env::var_os("HOME") {
            named.push(Path::new(&home).join(".cargo/bin"));
            named.push(Path::new(&home).join(".local/bin"));
        }
        if let Some(cargo) = std::env::var_os("CARGO_HOME") {
            named.push(Path::new(&cargo).join("bin"));
        }
        for dir in named {
            let candidate = dir.join("grade");
            if candidate.is_file() {
                copies.push(candidate);
            }
        }
        copies.push(exe);
        let mut real: Vec<PathBuf> = copies
            .into_iter()
            .filter_map(|p| p.canonicalize().ok())
            .collect();
        real.sort();
        real.dedup();
        real
    })
}
