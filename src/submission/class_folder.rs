//! A whole class handed in as one folder (`grade class/ -a nim` where `grade class/*/` was
//! meant): recognised so that each student's folder is graded on its own, never one student's
//! file built and graded as if it were the whole folder's program.

use std::path::{Path, PathBuf};

use super::languages;

/// Folder names that are parts of one program's layout (a build's sources, headers, tests,
/// output), never a student's folder.
const LAYOUT_FOLDERS: &[&str] = &[
    "src",
    "source",
    "sources",
    "include",
    "lib",
    "libs",
    "test",
    "tests",
    "bin",
    "build",
    "out",
    "target",
    "obj",
    "app",
    "cmd",
    "pkg",
    "internal",
    "main",
    "resources",
    "res",
    "assets",
    "docs",
    "doc",
    "scripts",
    "utils",
    "util",
    "common",
    "modules",
    "node_modules",
];

/// How deep a student's folder is searched for a program (a folder nested in a folder, a
/// project's `src/main/java/`).
const SEARCH_DEPTH: usize = 5;

/// The student folders of `dir` when it is a class rather than one program: its top holds no
/// program of its own (no source file, project file or `run` executable), and it holds two or
/// more folders, none named like a part of a program's layout, that each hold a source file.
pub fn student_folders(dir: &Path) -> Option<Vec<PathBuf>> {
    let entries = std::fs::read_dir(dir).ok()?;
    let mut folders = Vec::new();
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "__MACOSX" {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            if LAYOUT_FOLDERS.contains(&name.to_ascii_lowercase().as_str()) {
                return None;
            }
            folders.push(path);
        } else if kind.is_file() && (name == "run" || is_source(&path)) {
            return None;
        }
    }
    if languages::LANGUAGES
        .iter()
        .any(|language| languages::has_project_file(language, dir))
    {
        return None;
    }
    folders.sort();
    (folders.len() >= 2 && folders.iter().all(|f| holds_source(f, SEARCH_DEPTH))).then_some(folders)
}

/// Whether `path` is a source file of a language `grade` knows.
fn is_source(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|ext| languages::by_extension(ext).is_some())
}

/// Whether `dir` holds a source file within `depth` folders (links not followed).
fn holds_source(dir: &Path, depth: usize) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.filter_map(Result::ok).any(|entry| {
        let Ok(kind) = entry.file_type() else {
            return false;
        };
        if kind.is_file() {
            is_source(&entry.path())
        } else {
            kind.is_dir() && depth > 0 && holds_source(&entry.path(), depth - 1)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[&str]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for file in files {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "int main() {}\n").expect("write");
        }
        dir
    }

    #[test]
    fn folders_that_each_hold_a_program_are_a_class() {
        let dir = tree(&[
            "alice/nim.cpp",
            "bob/main.cpp",
            "carol/deep/src/game.py",
            "gradebook.csv",
        ]);
        let names: Vec<String> = student_folders(dir.path())
            .expect("a class")
            .iter()
            .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["alice", "bob", "carol"]);
    }

    #[test]
    fn a_program_of_its_own_or_a_layout_is_one_submission() {
        // A source file at the top: one program whose helpers live in folders.
        assert_eq!(
            student_folders(tree(&["main.cpp", "a/x.cpp", "b/y.cpp"]).path()),
            None
        );
        // A project file at the top.
        assert_eq!(
            student_folders(tree(&["Makefile", "a/x.cpp", "b/y.cpp"]).path()),
            None
        );
        // Sources and tests of one program.
        assert_eq!(
            student_folders(tree(&["src/x.py", "tests/y.py"]).path()),
            None
        );
        // One folder: a submission nested one level down.
        assert_eq!(student_folders(tree(&["alice/nim.cpp"]).path()), None);
        // A folder without any source: notes beside one student's nested program.
        assert_eq!(
            student_folders(tree(&["alice/nim.cpp", "notes/a.txt"]).path()),
            None
        );
        // A runnable `run` at the top.
        assert_eq!(
            student_folders(tree(&["run", "a/x.cpp", "b/y.cpp"]).path()),
            None
        );
    }
}
