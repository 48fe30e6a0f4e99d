//! Unpacking a submission handed in as an archive (`.zip`, `.tar.gz`/`.tgz`), as the collect
//! and Silver Dollar handouts ask students to submit.
//!
//! Only regular files and directories are unpacked, each to a path inside the target: an entry
//! naming an absolute path or one with `..`, and any link, refuses the whole archive (a
//! student's archive has no business holding one, and a grader that followed it could read
//! an instructor's hidden cases). The bytes really written and the number of files are capped
//! whatever the headers claim. Hidden files and macOS `__MACOSX` folders are skipped, as when
//! a folder is copied.

use std::fmt;
use std::io::{self, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

/// The archive formats a submission may come in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A .zip file.
    Zip,
    /// A gzip-compressed tar file (.tar.gz, .tgz).
    TarGz,
}

/// The archive format of `path`, from its name.
pub fn format_of(path: &Path) -> Option<Format> {
    let name = path.file_name()?.to_string_lossy().to_lowercase();
    if name.ends_with(".zip") {
        Some(Format::Zip)
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        Some(Format::TarGz)
    } else {
        None
    }
}

/// How much an archive may unpack to.
#[derive(Debug, Clone, Copy)]
pub struct Caps {
    /// Entries unpacked: files and directories alike (a directory costs the grader as much
    /// as a file, and an archive of empty folders is as large a bomb as one of files).
    pub files: u64,
    /// Bytes written, all files together.
    pub bytes: u64,
    /// Directory levels below the top.
    pub depth: usize,
}

/// Why an archive was not unpacked.
#[derive(Debug)]
pub enum UnpackError {
    /// An entry that could write outside the target or is a link: the archive is refused.
    Unsafe { entry: String, reason: &'static str },
    /// More files or bytes than the caps allow.
    TooLarge(String),
    /// Not a readable archive of its format.
    Corrupt(String),
    /// Writing the unpacked files failed.
    Io(io::Error),
}

/// Text from inside an archive (an entry's name, a reader's complaint quoting one) as one
/// line a terminal can show: control characters spelled out, line breaks too.
fn one_line(text: &str) -> String {
    crate::escape::visible(text)
        .replace('\n', "\\n")
        .replace('\t', "\\t")
}

impl fmt::Display for UnpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UnpackError::Unsafe { entry, reason } => {
                write!(
                    f,
                    "the archive holds {reason} ({}); it was not unpacked",
                    one_line(entry)
                )
            }
            UnpackError::TooLarge(what) => {
                write!(f, "the archive is too large: {}", one_line(what))
            }
            UnpackError::Corrupt(why) => write!(f, "not a readable archive: {}", one_line(why)),
            UnpackError::Io(e) => write!(f, "cannot unpack the archive: {e}"),
        }
    }
}

impl From<io::Error> for UnpackError {
    fn from(e: io::Error) -> Self {
        UnpackError::Io(e)
    }
}

/// What an entry is, as far as unpacking goes.
enum Kind {
    File { executable: bool },
    Dir,
    Link,
    Other,
}

/// Counts what was unpacked against the caps.
struct Budget {
    caps: Caps,
    files: u64,
    bytes: u64,
}

impl Budget {
    /// The path `name` will take under `into`, or why the entry is refused; `None` for an
    /// entry that is skipped (hidden, macOS metadata, too deep, the top itself).
    fn place(&self, into: &Path, name: &str) -> Result<Option<PathBuf>, UnpackError> {
        let unsafe_entry = |reason| UnpackError::Unsafe {
            entry: name.to_string(),
            reason,
        };
        let mut relative = PathBuf::new();
        for component in Path::new(name).components() {
            match component {
                Component::Normal(part) => {
                    let text = part.to_string_lossy();
                    if text.starts_with('.') || text == "__MACOSX" {
                        return Ok(None);
                    }
                    relative.push(part);
                }
                Component::CurDir => {}
                Component::ParentDir => return Err(unsafe_entry("a path that leaves its folder")),
                Component::RootDir | Component::Prefix(_) => {
                    return Err(unsafe_entry("an absolute path"))
                }
            }
        }
        let depth = relative.components().count();
        if depth == 0 || depth > self.caps.depth + 1 {
            return Ok(None);
        }
        Ok(Some(into.join(relative)))
    }

    /// Counts one more entry (file or directory) against the cap.
    fn count(&mut self) -> Result<(), UnpackError> {
        self.files += 1;
        if self.files > self.caps.files {
            return Err(too_many(self.caps.files));
        }
        Ok(())
    }

    /// Writes one file from `reader`, counting its real size.
    fn write_file(
        &mut self,
        path: &Path,
        reader: &mut dyn Read,
        executable: bool,
    ) -> Result<(), UnpackError> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut out = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .map_err(|e| {
                if e.kind() == io::ErrorKind::AlreadyExists {
                    UnpackError::Corrupt(format!("{} appears twice", path.display()))
                } else {
                    UnpackError::Io(e)
                }
            })?;
        let room = self.caps.bytes - self.bytes;
        let written = io::copy(&mut reader.take(room + 1), &mut out)
            .map_err(|e| UnpackError::Corrupt(e.to_string()))?;
        self.bytes += written;
        if written > room {
            return Err(UnpackError::TooLarge(format!(
                "more than {} MiB unpacked",
                self.caps.bytes >> 20
            )));
        }
        out.flush()?;
        let mode = if executable { 0o755 } else { 0o644 };
        out.set_permissions(std::fs::Permissions::from_mode(mode))?;
        Ok(())
    }

    /// Unpacks one entry.
    fn entry(
        &mut self,
        into: &Path,
        name: &str,
        kind: Kind,
        reader: &mut dyn Read,
    ) -> Result<(), UnpackError> {
        let unsafe_entry = |reason| UnpackError::Unsafe {
            entry: name.to_string(),
            reason,
        };
        let executable = match kind {
            Kind::Link => return Err(unsafe_entry("a link")),
            Kind::Other => return Err(unsafe_entry("a device, pipe or other special file")),
            Kind::Dir => None,
            Kind::File { executable } => Some(executable),
        };
        let Some(path) = self.place(into, name)? else {
            return Ok(());
        };
        self.count()?;
        match executable {
            None => std::fs::create_dir_all(&path)?,
            Some(executable) => self.write_file(&path, reader, executable)?,
        }
        Ok(())
    }
}

/// The refusal of an archive with more entries than `cap`.
fn too_many(cap: u64) -> UnpackError {
    UnpackError::TooLarge(format!("more than {cap} files and folders"))
}

/// Unpacks `archive` into the existing, empty directory `into`.
pub fn unpack(archive: &Path, format: Format, into: &Path, caps: Caps) -> Result<(), UnpackError> {
    let file = std::fs::File::open(archive)?;
    let mut budget = Budget {
        caps,
        files: 0,
        bytes: 0,
    };
    match format {
        Format::Zip => unpack_zip(file, into, &mut budget),
        Format::TarGz => unpack_tar_gz(file, into, &mut budget),
    }
}

fn unpack_zip(file: std::fs::File, into: &Path, budget: &mut Budget) -> Result<(), UnpackError> {
    let mut zip = zip::ZipArchive::new(file).map_err(|e| UnpackError::Corrupt(e.to_string()))?;
    // The central directory lists every entry: too many is refused before anything is made.
    if zip.len() as u64 > budget.caps.files {
        return Err(too_many(budget.caps.files));
    }
    for i in 0..zip.len() {
        let mut entry = zip
            .by_index(i)
            .map_err(|e| UnpackError::Corrupt(e.to_string()))?;
        let name = entry.name().to_string();
        let mode = entry.unix_mode().unwrap_or(0);
        let kind = match mode & libc::S_IFMT {
            libc::S_IFLNK => Kind::Link,
            _ if entry.is_symlink() => Kind::Link,
            _ if entry.is_dir() => Kind::Dir,
            0 | libc::S_IFREG => Kind::File {
                executable: mode & 0o111 != 0,
            },
            _ => Kind::Other,
        };
        budget.entry(into, &name, kind, &mut entry)?;
    }
    Ok(())
}

fn unpack_tar_gz(file: std::fs::File, into: &Path, budget: &mut Budget) -> Result<(), UnpackError> {
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(io::BufReader::new(file)));
    let entries = tar
        .entries()
        .map_err(|e| UnpackError::Corrupt(e.to_string()))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| UnpackError::Corrupt(e.to_string()))?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let header = entry.header();
        let kind = match header.entry_type() {
            tar::EntryType::Regular | tar::EntryType::Continuous => Kind::File {
                executable: header.mode().unwrap_or(0) & 0o111 != 0,
            },
            tar::EntryType::Directory => Kind::Dir,
            tar::EntryType::Symlink | tar::EntryType::Link => Kind::Link,
            // Metadata records (pax headers, long names) are handled by the reader itself.
            tar::EntryType::XGlobalHeader | tar::EntryType::XHeader => continue,
            _ => Kind::Other,
        };
        budget.entry(into, &name, kind, &mut entry)?;
    }
    Ok(())
}

/// The folder a submission really starts in: an archive of one project folder (`jdoe-lab1/`)
/// starts inside it.
pub fn top_folder(unpacked: &Path) -> PathBuf {
    let mut entries = match std::fs::read_dir(unpacked) {
        Ok(dir) => dir.filter_map(Result::ok).collect::<Vec<_>>(),
        Err(_) => return unpacked.to_path_buf(),
    };
    match entries.as_mut_slice() {
        [only] if only.file_type().is_ok_and(|t| t.is_dir()) => only.path(),
        _ => unpacked.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use zip::write::SimpleFileOptions;

    const CAPS: Caps = Caps {
        files: 10,
        bytes: 1000,
        depth: 3,
    };

    fn zip_with(entries: &[(&str, &[u8])]) -> tempfile::NamedTempFile {
        let file = tempfile::Builder::new()
            .suffix(".zip")
            .tempfile()
            .expect("temp");
        let mut zip = zip::ZipWriter::new(file.reopen().expect("reopen"));
        for (name, bytes) in entries {
            zip.start_file(*name, SimpleFileOptions::default())
                .expect("start");
            zip.write_all(bytes).expect("write");
        }
        zip.finish().expect("finish");
        file
    }

    #[test]
    fn a_zip_of_one_folder_unpacks_inside_it() {
        let archive = zip_with(&[
            ("jdoe-lab1/PlayGame.java", b"class PlayGame {}"),
            ("jdoe-lab1/src/CoinStrip.java", b"class CoinStrip {}"),
            ("__MACOSX/jdoe-lab1/._PlayGame.java", b"junk"),
        ]);
        let into = tempfile::tempdir().expect("dir");
        unpack(archive.path(), Format::Zip, into.path(), CAPS).expect("unpacked");
        let top = top_folder(into.path());
        assert_eq!(top, into.path().join("jdoe-lab1"));
        assert!(top.join("src/CoinStrip.java").is_file());
        assert!(!into.path().join("__MACOSX").exists());
    }

    #[test]
    fn paths_outside_and_links_refuse_the_archive() {
        for name in ["../evil.txt", "a/../../evil.txt", "/tmp/evil.txt"] {
            let archive = zip_with(&[("ok.txt", b"1"), (name, b"x")]);
            let into = tempfile::tempdir().expect("dir");
            let e = unpack(archive.path(), Format::Zip, into.path(), CAPS).expect_err(name);
            assert!(matches!(e, UnpackError::Unsafe { .. }), "{name}: {e}");
        }
        let file = tempfile::Builder::new()
            .suffix(".zip")
            .tempfile()
            .expect("temp");
        let mut zip = zip::ZipWriter::new(file.reopen().expect("reopen"));
        zip.add_symlink("cases", "/etc", SimpleFileOptions::default())
            .expect("link");
        zip.finish().expect("finish");
        let into = tempfile::tempdir().expect("dir");
        let e = unpack(file.path(), Format::Zip, into.path(), CAPS).expect_err("link");
        assert!(e.to_string().contains("a link (cases)"), "{e}");
    }

    #[test]
    fn caps_count_real_bytes_and_files() {
        let big = vec![b'x'; 1001];
        let archive = zip_with(&[("big.txt", &big)]);
        let into = tempfile::tempdir().expect("dir");
        let e = unpack(archive.path(), Format::Zip, into.path(), CAPS).expect_err("big");
        assert!(matches!(e, UnpackError::TooLarge(_)), "{e}");
        let names: Vec<String> = (0..11).map(|i| format!("f{i}.txt")).collect();
        let entries: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"1"[..])).collect();
        let archive = zip_with(&entries);
        let into = tempfile::tempdir().expect("dir");
        let e = unpack(archive.path(), Format::Zip, into.path(), CAPS).expect_err("many");
        assert!(e.to_string().contains("more than 10 files"), "{e}");
    }

    #[test]
    fn folders_count_and_a_zip_of_too_many_creates_nothing() {
        let file = tempfile::Builder::new()
            .suffix(".zip")
            .tempfile()
            .expect("temp");
        let mut zip = zip::ZipWriter::new(file.reopen().expect("reopen"));
        for i in 0..11 {
            zip.add_directory(format!("d{i}/"), SimpleFileOptions::default())
                .expect("dir");
        }
        zip.finish().expect("finish");
        let into = tempfile::tempdir().expect("dir");
        let e = unpack(file.path(), Format::Zip, into.path(), CAPS).expect_err("many");
        assert!(
            e.to_string().contains("more than 10 files and folders"),
            "{e}"
        );
        assert_eq!(std::fs::read_dir(into.path()).expect("ls").count(), 0);
        // Six folders and five files: eleven entries, one too many.
        let names: Vec<String> = (0..6).map(|i| format!("d{i}/f.txt")).collect();
        let mut entries: Vec<(&str, &[u8])> =
            names.iter().map(|n| (n.as_str(), &b"1"[..])).collect();
        entries.truncate(5);
        let file = tempfile::Builder::new()
            .suffix(".tar.gz")
            .tempfile()
            .expect("temp");
        let gz = flate2::write::GzEncoder::new(
            file.reopen().expect("reopen"),
            flate2::Compression::fast(),
        );
        let mut tar = tar::Builder::new(gz);
        for i in 0..6 {
            let mut header = tar::Header::new_gnu();
            header.set_entry_type(tar::EntryType::Directory);
            header.set_size(0);
            header.set_mode(0o755);
            header.set_cksum();
            tar.append_data(&mut header, format!("d{i}/"), io::empty())
                .expect("dir");
        }
        for (name, bytes) in &entries {
            let mut header = tar::Header::new_gnu();
            header.set_size(bytes.len() as u64);
            header.set_mode(0o644);
            header.set_cksum();
            tar.append_data(&mut header, name, *bytes).expect("file");
        }
        tar.into_inner()
            .expect("tar")
            .finish()
            .expect("gz")
            .flush()
            .expect("flush");
        let into = tempfile::tempdir().expect("dir");
        let e = unpack(file.path(), Format::TarGz, into.path(), CAPS).expect_err("eleven");
        assert!(
            e.to_string().contains("more than 10 files and folders"),
            "{e}"
        );
    }

    #[test]
    fn tar_gz_links_are_refused_and_files_unpacked() {
        let build = |link: bool| {
            let file = tempfile::Builder::new()
                .suffix(".tar.gz")
                .tempfile()
                .expect("temp");
            let gz = flate2::write::GzEncoder::new(
                file.reopen().expect("reopen"),
                flate2::Compression::fast(),
            );
            let mut tar = tar::Builder::new(gz);
            let mut header = tar::Header::new_gnu();
            header.set_size(5);
            header.set_mode(0o755);
            header.set_cksum();
            tar.append_data(&mut header, "nim/run", &b"hello"[..])
                .expect("file");
            if link {
                let mut header = tar::Header::new_gnu();
                header.set_entry_type(tar::EntryType::Symlink);
                header.set_size(0);
                tar.append_link(&mut header, "nim/cases", "/etc")
                    .expect("link");
            }
            tar.into_inner()
                .expect("tar")
                .finish()
                .expect("gz")
                .flush()
                .expect("flush");
            file
        };
        let into = tempfile::tempdir().expect("dir");
        let good = build(false);
        unpack(good.path(), Format::TarGz, into.path(), CAPS).expect("unpacked");
        let run = into.path().join("nim/run");
        assert_eq!(std::fs::read(&run).expect("read"), b"hello");
        assert!(run.metadata().expect("meta").permissions().mode() & 0o111 != 0);
        let into = tempfile::tempdir().expect("dir");
        let bad = build(true);
        let e = unpack(bad.path(), Format::TarGz, into.path(), CAPS).expect_err("link");
        assert!(matches!(e, UnpackError::Unsafe { .. }), "{e}");
    }

    #[test]
    fn formats_come_from_the_name() {
        assert_eq!(format_of(Path::new("a/jdoe.ZIP")), Some(Format::Zip));
        assert_eq!(format_of(Path::new("s.tar.gz")), Some(Format::TarGz));
        assert_eq!(format_of(Path::new("s.tgz")), Some(Format::TarGz));
        assert_eq!(format_of(Path::new("nim.cpp")), None);
    }
}
