//! The build cache: a built submission (its whole build directory and how to run it) kept
//! under the grader's own cache directory, keyed by everything that decides the build (every
//! file of the submission, its language, the build tools' identities, the options), so grading
//! an unchanged submission again (a student checking again, a resumed class, a regrade) skips
//! the compiler. Executables, which are not built, are not cached.
//!
//! The cache lives in `$XDG_CACHE_HOME/grade/builds` (else `~/.cache/grade/builds`), created
//! 0700. Submissions can neither read nor write it: as root each run has its own uid, and
//! Landlock allows no path outside the system directories, the run's own directory and what
//! it is given; the directory is also protected like an instructor's cases should it lie
//! inside a system directory. Where neither holds (no Landlock, not root) the cache is off.
//!
//! An entry is found by a hash of its key and holds the whole key: a hit needs the stored key
//! to equal the wanted one byte for byte, so a hash collision is only ever a miss.

use std::io::{self, Read as _};
use std::os::unix::fs::{DirBuilderExt as _, MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use super::languages::{Build, Built};
use super::PrepareError;

/// Entries kept; beyond it the least recently used are removed.
const MAX_ENTRIES: usize = 2_000;

/// Where build outputs are cached for this grader, or `None` when the cache must be off
/// (asked for, no home, or runs could reach it).
pub fn directory(disabled: bool) -> Option<PathBuf> {
    if disabled {
        return None;
    }
    let caps = crate::run::capabilities();
    let off = crate::run::disabled_layers();
    let runs_cannot_reach = (caps.root && !off.uid) || (caps.landlock_abi > 0 && !off.landlock);
    if !runs_cannot_reach {
        return None;
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| Path::new(v).is_absolute())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")))?;
    let grade = base.join("grade");
    let builds = grade.join("builds");
    for dir in [&base, &grade, &builds] {
        match std::fs::DirBuilder::new().mode(0o700).create(dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(_) => return None,
        }
    }
    // Ours and private, whatever created it.
    let meta = std::fs::symlink_metadata(&grade).ok()?;
    // SAFETY: geteuid has no preconditions.
    if !meta.is_dir() || meta.uid() != unsafe { libc::geteuid() } {
        return None;
    }
    if meta.permissions().mode() & 0o077 != 0 {
        std::fs::set_permissions(&grade, std::fs::Permissions::from_mode(0o700)).ok()?;
    }
    crate::run::sandbox::protect(&grade);
    Some(builds)
}

/// Everything that decides a build's outputs, in one byte string.
#[derive(Debug, Default)]
pub struct Key {
    bytes: Vec<u8>,
}

impl Key {
    /// Adds a tool (a compiler, an interpreter) by its real path, size, change time and inode,
    /// so that an upgrade makes a new key.
    pub fn tool(mut self, tool: &Path) -> io::Result<Key> {
        let real = tool.canonicalize()?;
        let meta = std::fs::metadata(&real)?;
        self.field(b"tool", real.as_os_str().as_encoded_bytes());
        self.field(
            b"tool-id",
            format!(
                "{} {} {} {}",
                meta.len(),
                meta.ctime(),
                meta.ctime_nsec(),
                meta.ino()
            )
            .as_bytes(),
        );
        Ok(self)
    }

    /// Adds the whole tree under `dir`, in name order: every entry's path relative to `dir`,
    /// its kind (a directory, empty or not, counts as much as a file: a build script can test
    /// for it) and the permission bits a build can observe, and each file's content. A link or
    /// a special file (which a submission never holds once copied) makes no key.
    pub fn files(mut self, dir: &Path) -> io::Result<Key> {
        for entry in walkdir::WalkDir::new(dir)
            .follow_links(false)
            .sort_by_file_name()
            .min_depth(1)
        {
            let entry = entry.map_err(io::Error::other)?;
            let relative = entry.path().strip_prefix(dir).unwrap_or(entry.path());
            let name = relative.as_os_str().as_encoded_bytes();
            let kind = entry.file_type();
            if kind.is_dir() {
                let mode = entry.metadata().map_err(io::Error::other)?.mode() & 0o7777;
                self.field(b"dir", name);
                self.field(b"mode", format!("{mode:o}").as_bytes());
            } else if kind.is_file() {
                let mut content = Vec::new();
                let mut file = std::fs::File::open(entry.path())?;
                let mode = file.metadata()?.permissions().mode() & 0o7777;
                file.read_to_end(&mut content)?;
                self.field(b"file", name);
                self.field(b"mode", format!("{mode:o}").as_bytes());
                self.field(b"content", &content);
            } else {
                return Err(io::Error::other(format!(
                    "{}: neither a file nor a directory",
                    relative.display()
                )));
            }
        }
        Ok(self)
    }

    /// Adds a named value that also decides the outcome (an environment variable).
    pub fn with(mut self, name: &str, value: &[u8]) -> Key {
        self.field(name.as_bytes(), value);
        self
    }

    fn field(&mut self, name: &[u8], value: &[u8]) {
        self.bytes.extend_from_slice(name);
        self.bytes.push(b' ');
        self.bytes
            .extend_from_slice((value.len() as u64).to_string().as_bytes());
        self.bytes.push(b' ');
        self.bytes.extend_from_slice(value);
        self.bytes.push(b'\n');
    }

    fn entry_name(&self) -> String {
        format!(
            "{:016x}",
            crate::keys::stable_hash(&self.bytes, 0x6275_696c_645f_6b31)
        )
    }
}

/// Where a build's directory stood, in what the cache stores (a new one each grading).
const DIR_PLACEHOLDER: &str = "\u{0}grade-build-dir\u{0}";

/// A build's whole directory beyond this is not kept (a Cargo `target/`, say).
const MAX_TREE_BYTES: u64 = 64 << 20;

/// How to run a build, as stored (paths in the build directory written relative to it).
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredBuild {
    command: Vec<String>,
    readable: Vec<PathBuf>,
    env: Vec<(String, String)>,
    notes: Vec<String>,
    warnings: String,
    #[serde(default)]
    sanitized: Vec<String>,
    #[serde(default)]
    replay_build: Option<String>,
}

/// Builds a submission with `run`, unless the build cache holds the same build (the same
/// files, language, tools and options): then its directory and how to run it are restored,
/// with a note saying so. A successful build is stored.
pub fn build(
    build: &Build<'_>,
    run: impl FnOnce() -> Result<Built, PrepareError>,
) -> Result<Built, PrepareError> {
    if build.language.tools.is_empty() {
        return run(); // nothing is built
    }
    let cached =
        directory(build.options.no_cache).and_then(|cache| Some((build_key(build).ok()?, cache)));
    if let Some((key, cache)) = &cached {
        if let Some(built) = restore_build(cache, key, build.dir) {
            return Ok(built);
        }
    }
    let built = run()?;
    if let Some((key, cache)) = &cached {
        store_build(cache, key, build.dir, &built);
    }
    Ok(built)
}

/// What of the grader itself decides a stored build and its run command: the cache's format,
/// the sanitizer's flags and the JVM's options (a Java entry stores its `java …` command:
/// without them in the key, a grader with new options would go on running old entries with
/// the old ones, as every cached Java build did after the JIT threshold change).
fn graders_part() -> Key {
    Key::default()
        .with("cache", b"grade build 4")
        .with("sanitizer flags", crate::sanitizer::BUILD.as_bytes())
        .with("jvm options", super::JVM_OPTIONS.as_bytes())
}

/// Everything that decides a build: the grader's part, its language, its tools, the options
/// and every file.
fn build_key(build: &Build<'_>) -> io::Result<Key> {
    let mut key = graders_part().with("language", build.language.name.as_bytes());
    for tool in build.language.tools {
        let path = super::find_tool(tool).ok_or_else(|| io::Error::other("no tool"))?;
        key = key.tool(&path)?;
        if *tool == "python3" {
            let python =
                super::python_interpreter().ok_or_else(|| io::Error::other("no python"))?;
            key = key.tool(&python.executable)?;
        }
    }
    let text = |v: &Option<String>| v.clone().unwrap_or_default().into_bytes();
    let entry = build
        .entry
        .map(|e| e.strip_prefix(build.dir).unwrap_or(e).display().to_string())
        .unwrap_or_default();
    key.with("java_main", &text(&build.options.java_main))
        .with("main_file", &text(&build.options.main_file))
        .with("main", &text(&build.options.main))
        .with("sanitize", &[u8::from(build.options.sanitize)])
        .with("entry", entry.as_bytes())
        .files(build.dir)
}

fn restore_build(cache: &Path, key: &Key, dir: &Path) -> Option<Built> {
    let entry = cache.join(key.entry_name());
    let stored = std::fs::read(entry.join("key")).ok()?;
    if stored != key.bytes {
        return None;
    }
    let how: StoredBuild =
        serde_json::from_slice(&std::fs::read(entry.join("out/built.json")).ok()?).ok()?;
    let tree = entry.join("out/tree");
    for item in std::fs::read_dir(&tree).ok()? {
        let item = item.ok()?;
        copy_all(&item.path(), &dir.join(item.file_name())).ok()?;
    }
    let _ = std::fs::File::open(entry.join("key"))
        .and_then(|f| f.set_modified(std::time::SystemTime::now()));
    let place = dir.display().to_string();
    let put = |text: &str| text.replace(DIR_PLACEHOLDER, &place);
    let mut notes = how.notes;
    notes.push(super::CACHED_BUILD_NOTE.to_string());
    Some(Built {
        command: how.command.iter().map(|c| put(c)).collect(),
        readable: how
            .readable
            .iter()
            .map(|p| PathBuf::from(put(&p.display().to_string())))
            .collect(),
        env: how.env.iter().map(|(k, v)| (k.clone(), put(v))).collect(),
        notes,
        warnings: how.warnings,
        sanitized: how.sanitized.iter().map(|c| put(c)).collect(),
        replay_build: how.replay_build,
    })
}

fn store_build(cache: &Path, key: &Key, dir: &Path, built: &Built) {
    let size: u64 = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum();
    if size > MAX_TREE_BYTES {
        return;
    }
    let place = dir.display().to_string();
    let hide = |text: &str| text.replace(&place, DIR_PLACEHOLDER);
    let how = StoredBuild {
        command: built.command.iter().map(|c| hide(c)).collect(),
        readable: built
            .readable
            .iter()
            .map(|p| PathBuf::from(hide(&p.display().to_string())))
            .collect(),
        env: built
            .env
            .iter()
            .map(|(k, v)| (k.clone(), hide(v)))
            .collect(),
        notes: built.notes.clone(),
        warnings: built.warnings.clone(),
        sanitized: built.sanitized.iter().map(|c| hide(c)).collect(),
        replay_build: built.replay_build.clone(),
    };
    let Ok(json) = serde_json::to_vec(&how) else {
        return;
    };
    let Ok(staging) = tempfile::Builder::new().prefix(".value-").tempdir() else {
        return;
    };
    let ok = std::fs::write(staging.path().join("built.json"), json).is_ok()
        && copy_all(dir, &staging.path().join("tree")).is_ok();
    if ok {
        store(cache, key, staging.path(), &["built.json", "tree"]);
    }
}

/// Copies the cached `outputs` (paths relative to the build directory) of `key` into `dir`;
/// true on a hit.
#[cfg(test)]
fn restore(cache: &Path, key: &Key, dir: &Path, outputs: &[&str]) -> bool {
    let entry = cache.join(key.entry_name());
    let same_key = std::fs::read(entry.join("key")).is_ok_and(|stored| stored == key.bytes);
    if !same_key {
        return false;
    }
    let copied = outputs.iter().all(|output| {
        let from = entry.join("out").join(output);
        let to = dir.join(output);
        copy_all(&from, &to).is_ok()
    });
    if copied {
        // Most recently used: kept longest.
        let _ = std::fs::File::open(entry.join("key"))
            .and_then(|f| f.set_modified(std::time::SystemTime::now()));
    }
    copied
}

/// Keeps the `outputs` of a successful build in `dir` under `key`. A failure to store is
/// not an error: the next grading builds again.
fn store(cache: &Path, key: &Key, dir: &Path, outputs: &[&str]) {
    let Ok(staging) = tempfile::Builder::new().prefix(".new-").tempdir_in(cache) else {
        return;
    };
    let ok = outputs.iter().all(|output| {
        copy_all(&dir.join(output), &staging.path().join("out").join(output)).is_ok()
    }) && std::fs::write(staging.path().join("key"), &key.bytes).is_ok();
    if !ok {
        return;
    }
    let entry = cache.join(key.entry_name());
    // Another grader may have stored the same entry meanwhile (rename fails): keep theirs.
    let staged = staging.keep();
    if std::fs::rename(&staged, &entry).is_err() {
        let _ = std::fs::remove_dir_all(&entry);
        if std::fs::rename(&staged, &entry).is_err() {
            let _ = std::fs::remove_dir_all(&staged);
        }
    }
    prune(cache);
}

/// A small value computed from a key (what an interpreter says about itself), kept in the
/// cache like a build: `compute` runs only when no entry holds this very key.
pub fn remembered(
    cache: Option<&Path>,
    key: &Key,
    compute: impl FnOnce() -> Option<Vec<u8>>,
) -> Option<Vec<u8>> {
    let Some(cache) = cache else {
        return compute();
    };
    let entry = cache.join(key.entry_name());
    let same_key = std::fs::read(entry.join("key")).is_ok_and(|stored| stored == key.bytes);
    if same_key {
        if let Ok(value) = std::fs::read(entry.join("out/value")) {
            return Some(value);
        }
    }
    let value = compute()?;
    if let Ok(staging) = tempfile::Builder::new().prefix(".value-").tempdir() {
        if std::fs::write(staging.path().join("value"), &value).is_ok() {
            store(cache, key, staging.path(), &["value"]);
        }
    }
    Some(value)
}

/// Removes the least recently used entries beyond [`MAX_ENTRIES`].
fn prune(cache: &Path) {
    let Ok(read) = std::fs::read_dir(cache) else {
        return;
    };
    let mut entries: Vec<(std::time::SystemTime, PathBuf)> = read
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| {
            let used = std::fs::metadata(e.path().join("key"))
                .and_then(|m| m.modified())
                .ok()?;
            Some((used, e.path()))
        })
        .collect();
    if entries.len() <= MAX_ENTRIES {
        return;
    }
    entries.sort();
    for (_, path) in &entries[..entries.len() - MAX_ENTRIES] {
        let _ = std::fs::remove_dir_all(path);
    }
}

/// Copies a file (keeping its permission bits) or a directory tree, never following links.
fn copy_all(from: &Path, to: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    if meta.is_dir() {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            copy_all(&entry.path(), &to.join(entry.file_name()))?;
        }
        Ok(())
    } else if meta.is_file() {
        std::fs::copy(from, to)?;
        std::fs::set_permissions(
            to,
            std::fs::Permissions::from_mode(meta.permissions().mode()),
        )
    } else {
        Err(io::Error::other("not a file or directory"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_graders_part_of_a_key_holds_the_jvm_options_and_the_sanitizer_flags() {
        let bytes = graders_part().bytes;
        let holds = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
        assert!(holds("-XX:CompileThresholdScaling=10"), "{bytes:?}");
        assert!(holds(crate::submission::JVM_OPTIONS));
        assert!(holds(crate::sanitizer::BUILD));
    }

    #[test]
    fn a_key_covers_every_file_and_the_tool() {
        let a = tempfile::tempdir().expect("tempdir");
        let b = tempfile::tempdir().expect("tempdir");
        for dir in [a.path(), b.path()] {
            std::fs::write(dir.join("nim.cpp"), "int main() {}\n").expect("write");
        }
        let key = |dir: &Path, tool: &str| {
            Key::default()
                .tool(Path::new(tool))
                .and_then(|k| k.files(dir))
                .expect("key")
                .bytes
        };
        // Two build directories with the same files: the same key.
        assert_eq!(key(a.path(), "/bin/sh"), key(b.path(), "/bin/sh"));
        assert_ne!(key(a.path(), "/bin/sh"), key(a.path(), "/bin/cat"));
        std::fs::write(b.path().join("nim.cpp"), "int main() { return 1; }\n").expect("write");
        assert_ne!(key(a.path(), "/bin/sh"), key(b.path(), "/bin/sh"));
    }

    #[test]
    fn a_key_covers_the_shape_of_the_tree_and_refuses_links() {
        let a = tempfile::tempdir().expect("tempdir");
        let b = tempfile::tempdir().expect("tempdir");
        for dir in [a.path(), b.path()] {
            std::fs::write(dir.join("build.sh"), "test -d extra\n").expect("write");
        }
        let key = |dir: &Path| Key::default().files(dir).map(|k| k.bytes);
        assert_eq!(key(a.path()).expect("a"), key(b.path()).expect("b"));
        // An empty directory is part of the tree.
        std::fs::create_dir(b.path().join("extra")).expect("mkdir");
        assert_ne!(key(a.path()).expect("a"), key(b.path()).expect("b"));
        std::fs::create_dir(a.path().join("extra")).expect("mkdir");
        assert_eq!(key(a.path()).expect("a"), key(b.path()).expect("b"));
        // So is a mode a build can observe.
        std::fs::set_permissions(
            b.path().join("build.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .expect("chmod");
        assert_ne!(key(a.path()).expect("a"), key(b.path()).expect("b"));
        std::os::unix::fs::symlink("/etc/passwd", a.path().join("link")).expect("symlink");
        assert!(key(a.path()).is_err(), "a link makes no key");
    }

    #[test]
    fn a_remembered_value_is_computed_once_per_key() {
        let cache = tempfile::tempdir().expect("tempdir");
        let key = |version: &str| Key::default().with("version", version.as_bytes());
        let mut asked = 0;
        for _ in 0..3 {
            let value = remembered(Some(cache.path()), &key("3.11"), || {
                asked += 1;
                Some(b"/usr/bin/python3.11".to_vec())
            });
            assert_eq!(value.as_deref(), Some(&b"/usr/bin/python3.11"[..]));
        }
        assert_eq!(asked, 1);
        let other = remembered(Some(cache.path()), &key("3.12"), || Some(b"other".to_vec()));
        assert_eq!(other.as_deref(), Some(&b"other"[..]));
        // A failed computation is not remembered.
        assert_eq!(remembered(Some(cache.path()), &key("none"), || None), None);
        assert_eq!(
            remembered(Some(cache.path()), &key("none"), || Some(b"now".to_vec())).as_deref(),
            Some(&b"now"[..])
        );
    }

    #[test]
    fn a_stored_build_is_restored_only_for_the_same_key() {
        let cache = tempfile::tempdir().expect("tempdir");
        let build = tempfile::tempdir().expect("tempdir");
        std::fs::write(build.path().join("program"), "binary").expect("write");
        std::fs::set_permissions(
            build.path().join("program"),
            std::fs::Permissions::from_mode(0o755),
        )
        .expect("chmod");
        let key = Key {
            bytes: b"one".to_vec(),
        };
        store(cache.path(), &key, build.path(), &["program"]);
        let fresh = tempfile::tempdir().expect("tempdir");
        assert!(restore(cache.path(), &key, fresh.path(), &["program"]));
        let restored = fresh.path().join("program");
        assert_eq!(std::fs::read(&restored).expect("read"), b"binary");
        let mode = std::fs::metadata(&restored)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        // Same hash slot, other key (as after a collision): a miss.
        let entry = cache.path().join(key.entry_name());
        std::fs::write(entry.join("key"), b"other").expect("write");
        assert!(!restore(cache.path(), &key, fresh.path(), &["program"]));
    }
}
