//! Sources as students save them, made buildable in the private copy (never in place).
//!
//! * A UTF-8 byte order mark, which Windows Notepad writes at the start of a file: javac
//!   rejects it (`illegal character: '\ufeff'`) and no language gives it a meaning, so it is
//!   removed from every source file of the copy ([`strip_byte_order_marks`]).
//! * One file of a Java program given alone (`grade PlayGame.java` beside `CoinStrip.java`):
//!   compiled as `javac PlayGame.java` compiles it in its folder, finding the classes it uses
//!   in the `.java` files beside it ([`stage_java_folder`]; the build keeps only those it
//!   compiled, [`prune_unused_java`]).
//! * One file of a program in another language that uses files beside it (`main.py` importing
//!   `nim_helpers.py`, `main.cpp` including `nim_helpers.h` whose functions are in
//!   `nim_helpers.cpp`, `require("./board")`, `mod strategy;`): its folder is graded, with
//!   that file starting the program ([`files_it_uses`], in `imports.rs`).

use std::io;
use std::path::{Path, PathBuf};

use super::imports::{files_it_uses, folder_of};

/// The note on one file graded with `uses` from its folder, `how` saying how they were used
/// (`with` stands for "it" or "them"), and the folder to give to grade the whole of it.
pub fn graded_with_note(file: &Path, uses: &[String], how: &str) -> String {
    let name = file.file_name().unwrap_or_default().to_string_lossy();
    let with = if uses.len() == 1 { "it" } else { "them" };
    format!(
        "{name} uses {} from its folder: {} (to grade the whole folder, give it: grade {})",
        uses.join(", "),
        how.replace("{with}", with),
        folder_of(file).display()
    )
}

/// Most files one program's own files may name, one after another, beside it.
const MAX_USED_FILES: usize = 200;

/// Copies `file` and what it uses beside it ([`files_it_uses`], and what those use in turn)
/// into `build_dir`, each by its name; a package folder as a whole (links never followed).
/// Returns the names of the files it uses (not what they use), or nothing when it uses none.
pub fn stage_files_it_uses(file: &Path, build_dir: &Path) -> io::Result<Vec<String>> {
    let direct = files_it_uses(file);
    if direct.is_empty() {
        return Ok(direct);
    }
    let folder = folder_of(file);
    let mut pending: Vec<PathBuf> = vec![file.to_path_buf()];
    let mut staged: Vec<String> = Vec::new();
    while let Some(current) = pending.pop() {
        for name in files_it_uses(&current) {
            if staged.contains(&name) || staged.len() >= MAX_USED_FILES {
                continue;
            }
            let from = folder.join(&name);
            let to = build_dir.join(&name);
            if std::fs::symlink_metadata(&from)?.is_dir() {
                std::fs::create_dir_all(&to)?;
                crate::run::workdir::copy_tree(
                    &from,
                    &to,
                    crate::run::workdir::CopyLimits {
                        depth: super::SOURCE_DEPTH - 1,
                        files: 2_000,
                        bytes: 64 << 20,
                    },
                )?;
            } else {
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                crate::run::workdir::copy_file(&from, &to)?;
                pending.push(from);
            }
            staged.push(name);
        }
    }
    Ok(direct)
}

/// The bytes a UTF-8 byte order mark is written as.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Header extensions, whose files are sources too.
const HEADERS: &[&str] = &["h", "hpp", "hh", "hxx", "h++"];

/// Removes a leading UTF-8 byte order mark from every source file (an extension of
/// [`super::languages::LANGUAGES`], or a header) under `root`, the private copy of a
/// submission. Returns how many files had one.
pub fn strip_byte_order_marks(root: &Path) -> io::Result<usize> {
    let mut stripped = 0;
    for entry in walkdir::WalkDir::new(root)
        .max_depth(super::SOURCE_DEPTH)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
    {
        let extension = super::extension(entry.path());
        let source = HEADERS.contains(&extension.as_str())
            || super::languages::by_extension(&extension).is_some();
        if source && strip_one(entry.path())? {
            stripped += 1;
        }
    }
    Ok(stripped)
}

/// Removes the byte order mark of one file, if it starts with one.
fn strip_one(path: &Path) -> io::Result<bool> {
    use std::io::Read as _;
    let mut start = [0u8; 3];
    let mut file = std::fs::File::open(path)?;
    if file.read_exact(&mut start).is_err() || start != BOM {
        return Ok(false);
    }
    let mut rest = Vec::new();
    file.read_to_end(&mut rest)?;
    drop(file);
    std::fs::write(path, rest)?;
    Ok(true)
}

/// The package a Java source declares (`package lab1;` → `lab1`), if any: the first line
/// starting with `package` (a byte order mark before it ignored).
pub fn java_package(text: &str) -> Option<String> {
    text.trim_start_matches('\u{feff}')
        .lines()
        .find_map(|line| {
            let rest = line.trim().strip_prefix("package")?;
            if !rest.starts_with(char::is_whitespace) {
                return None;
            }
            let name = rest.split(';').next()?.trim();
            let valid = !name.is_empty()
                && name.split('.').all(|part| {
                    !part.is_empty()
                        && part
                            .chars()
                            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
                });
            valid.then(|| name.to_string())
        })
}

/// The `.java` files beside a single Java source `original` (from its package's root folder,
/// as deep as a submission is read), placed in `build_dir` where javac looks for them with
/// `-sourcepath build_dir`: each under its own package's folder. `copy` is the private copy
/// of `original` in `build_dir`; it is moved under its package's folder too when anything was
/// staged. Returns where the copy now is. A folder that cannot be read, or holds more than a
/// submission may, stages nothing: the file is then built alone, as before.
pub fn stage_java_folder(original: &Path, build_dir: &Path, copy: &Path) -> io::Result<PathBuf> {
    let Some(folder) = original.parent() else {
        return Ok(copy.to_path_buf());
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let text = std::fs::read_to_string(copy).unwrap_or_default();
    let package = java_package(&text);
    let package_dir: PathBuf = package
        .as_deref()
        .map(|p| p.split('.').collect())
        .unwrap_or_default();
    // The package's root: the folder minus the package's folders, when it ends with them.
    let root = match folder.canonicalize() {
        Ok(real) if !package_dir.as_os_str().is_empty() && real.ends_with(&package_dir) => {
            let mut root = real.clone();
            for _ in package_dir.components() {
                root.pop();
            }
            root
        }
        Ok(real) => real,
        Err(_) => return Ok(copy.to_path_buf()),
    };
    let scratch = tempfile::Builder::new()
        .prefix("grade-java-folder-")
        .tempdir()?;
    let copied = crate::run::workdir::copy_tree(
        &root,
        scratch.path(),
        crate::run::workdir::CopyLimits {
            depth: super::SOURCE_DEPTH - 1,
            files: 2_000,
            bytes: 64 << 20,
        },
    );
    if copied.is_err() {
        return Ok(copy.to_path_buf());
    }
    let original_name = original.file_name();
    let original_real = original.canonicalize().ok();
    let mut staged = 0;
    for entry in walkdir::WalkDir::new(scratch.path())
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && super::extension(e.path()) == "java")
    {
        let relative = entry
            .path()
            .strip_prefix(scratch.path())
            .unwrap_or(entry.path());
        // The file given itself is already there.
        if original_real.as_deref() == Some(root.join(relative).as_path()) {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        let mut target: PathBuf = java_package(&text)
            .map(|p| p.split('.').collect())
            .unwrap_or_default();
        target.push(entry.file_name());
        let same_as_given = target.parent() == Some(package_dir.as_path())
            && Some(entry.file_name()) == original_name;
        let target = build_dir.join(target);
        if same_as_given || target.exists() {
            continue;
        }
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::copy(entry.path(), &target)?;
        staged += 1;
    }
    if staged == 0 || package_dir.as_os_str().is_empty() {
        return Ok(copy.to_path_buf());
    }
    let moved = build_dir
        .join(&package_dir)
        .join(copy.file_name().unwrap_or_default());
    if let Some(parent) = moved.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::rename(copy, &moved)?;
    Ok(moved)
}

/// After `javac -sourcepath dir … entry`: removes the staged `.java` files javac did not
/// compile (no class file under `classes`), so that only the program's own files are built,
/// cached and read. Returns the ones it compiled, relative to `dir`, sorted.
pub fn prune_unused_java(dir: &Path, entry: &Path, classes: &Path) -> Vec<String> {
    let mut used = Vec::new();
    for file in super::languages::sources_with(dir, &["java"]) {
        if file == entry || file.starts_with(classes) {
            continue;
        }
        let relative = file.strip_prefix(dir).unwrap_or(&file).to_path_buf();
        if classes.join(relative.with_extension("class")).is_file() {
            used.push(relative.display().to_string());
        } else {
            let _ = std::fs::remove_file(&file);
        }
    }
    used.sort();
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_leave_sources_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, bytes: &[u8]| {
            let path = dir.path().join(name);
            std::fs::write(&path, bytes).expect("write");
            path
        };
        let java = write("PlayGame.java", b"\xef\xbb\xbfclass PlayGame {}\r\n");
        let python = write("nim.py", b"\xef\xbb\xbfprint(1)\n");
        let plain = write("plain.cpp", b"int main() {}\n");
        let data = write("board.txt", b"\xef\xbb\xbf1 2\n");
        let short = write("x.c", b"\xef\xbb");
        assert_eq!(strip_byte_order_marks(dir.path()).expect("strip"), 2);
        assert_eq!(
            std::fs::read(&java).expect("read"),
            b"class PlayGame {}\r\n"
        );
        assert_eq!(std::fs::read(&python).expect("read"), b"print(1)\n");
        assert_eq!(std::fs::read(&plain).expect("read"), b"int main() {}\n");
        assert_eq!(std::fs::read(&data).expect("read"), b"\xef\xbb\xbf1 2\n");
        assert_eq!(std::fs::read(&short).expect("read"), b"\xef\xbb");
    }

    #[test]
    fn the_files_a_file_uses_beside_it_are_found_by_its_language() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| {
            let path = dir.path().join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("mkdir");
            }
            std::fs::write(&path, text).expect("write");
            path
        };
        for name in [
            "helpers.py",
            "board.js",
            "moves.rb",
            "strategy.rs",
            "util.h",
            "util.cpp",
        ] {
            write(name, "");
        }
        write("pkg/__init__.py", "");
        write("header_only.h", "");
        let uses = |name: &str, text: &str| files_it_uses(&write(name, text));
        assert_eq!(
            uses(
                "main.py",
                "import os, helpers\nfrom pkg.sub import x\nimport sys\n"
            ),
            ["helpers.py", "pkg"]
        );
        assert_eq!(
            uses("lone.py", "import os\nprint('import helpers')\n"),
            [""; 0]
        );
        assert_eq!(
            uses("game.js", "const { Board } = require(\"./board\");\n"),
            ["board.js"]
        );
        assert_eq!(
            uses("game.mjs", "import { Board } from './board.js';\n"),
            ["board.js"]
        );
        assert_eq!(uses("game.rb", "require_relative 'moves'\n"), ["moves.rb"]);
        assert_eq!(
            uses("main.rs", "mod strategy;\nfn main() {}\n"),
            ["strategy.rs"]
        );
        assert_eq!(
            uses(
                "main.cpp",
                "#include <iostream>\n#include \"util.h\"\n#include \"header_only.h\"\n"
            ),
            ["util.h", "util.cpp"]
        );
        assert_eq!(uses("Main.java", "class Main { Board b; }\n"), [""; 0]);
        assert_eq!(uses("self.py", "import self\n"), [""; 0]);
    }

    #[test]
    fn a_file_is_staged_with_what_it_uses_and_what_that_uses() {
        let from = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| {
            std::fs::write(from.path().join(name), text).expect("write");
        };
        write("main.py", "from game import play\nplay()\n");
        write("game.py", "import board\ndef play(): pass\n");
        write("board.py", "X = 1\n");
        write("other_student.py", "SECRET = 1\n");
        write("notes.txt", "not code");
        let build = tempfile::tempdir().expect("tempdir");
        let uses = stage_files_it_uses(&from.path().join("main.py"), build.path()).expect("staged");
        assert_eq!(uses, ["game.py"]);
        let mut staged: Vec<String> = std::fs::read_dir(build.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        staged.sort();
        assert_eq!(staged, ["board.py", "game.py"]);
        assert!(
            stage_files_it_uses(&from.path().join("board.py"), build.path())
                .expect("nothing")
                .is_empty()
        );
    }

    #[test]
    fn java_packages_are_read_from_their_line() {
        assert_eq!(
            java_package("package lab1;\nclass A {}"),
            Some("lab1".into())
        );
        assert_eq!(
            java_package("\u{feff}// header\npackage edu.unlv.cs135 ;\r\n"),
            Some("edu.unlv.cs135".into())
        );
        assert_eq!(java_package("class A { String packages; }"), None);
        assert_eq!(java_package("packaged;\n"), None);
        assert_eq!(java_package("package ;\n"), None);
    }

    #[test]
    fn a_single_java_file_gets_the_sources_of_its_folder_by_package() {
        let from = tempfile::tempdir().expect("tempdir");
        let src = from.path().join("src");
        std::fs::create_dir_all(src.join("lab1")).expect("mkdir");
        std::fs::create_dir_all(src.join("util")).expect("mkdir");
        let given = src.join("lab1/PlayGame.java");
        std::fs::write(&given, "package lab1;\npublic class PlayGame {}\n").expect("write");
        std::fs::write(
            src.join("lab1/CoinStrip.java"),
            "package lab1;\nclass CoinStrip {}\n",
        )
        .expect("write");
        std::fs::write(src.join("util/Dice.java"), "package util;\nclass Dice {}\n")
            .expect("write");
        std::fs::write(src.join("lab1/notes.txt"), "not Java").expect("write");
        let build = tempfile::tempdir().expect("tempdir");
        let copy = build.path().join("PlayGame.java");
        std::fs::copy(&given, &copy).expect("copy");
        let entry = stage_java_folder(&given, build.path(), &copy).expect("staged");
        assert_eq!(entry, build.path().join("lab1/PlayGame.java"));
        assert!(entry.is_file() && !copy.exists());
        assert!(build.path().join("lab1/CoinStrip.java").is_file());
        assert!(build.path().join("util/Dice.java").is_file());
        assert!(!build.path().join("lab1/notes.txt").exists());

        // javac compiled PlayGame and CoinStrip only: Dice goes.
        let classes = build.path().join("classes");
        std::fs::create_dir_all(classes.join("lab1")).expect("mkdir");
        std::fs::write(classes.join("lab1/CoinStrip.class"), "").expect("write");
        std::fs::write(classes.join("lab1/PlayGame.class"), "").expect("write");
        let used = prune_unused_java(build.path(), &entry, &classes);
        assert_eq!(used, vec!["lab1/CoinStrip.java".to_string()]);
        assert!(!build.path().join("util/Dice.java").exists());
    }

    #[test]
    fn a_java_file_alone_in_its_folder_stays_where_it_was() {
        let from = tempfile::tempdir().expect("tempdir");
        let given = from.path().join("Nim.java");
        std::fs::write(&given, "package games;\npublic class Nim {}\n").expect("write");
        let build = tempfile::tempdir().expect("tempdir");
        let copy = build.path().join("Nim.java");
        std::fs::copy(&given, &copy).expect("copy");
        let entry = stage_java_folder(&given, build.path(), &copy).expect("staged");
        assert_eq!(entry, copy);
        assert_eq!(std::fs::read_dir(build.path()).expect("list").count(), 1);
    }
}
