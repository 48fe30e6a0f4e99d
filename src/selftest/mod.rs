//! An instructor's assignment tests itself (docs/new-assignment.md): beside its cases it keeps
//! programs whose verdict is known, `submissions/correct/*` (each must keep every point) and
//! `submissions/buggy/*` (each must lose some, and a point of every case it names in a
//! `grade: loses CASE` line). `grade verify` grades them all, as Kattis problemtools checks a
//! problem's `submissions/accepted` and `submissions/wrong_answer`.
//!
//! This module finds the programs and judges their gradings; it returns data, and
//! `cli::commands::verify` prints it.

pub mod lint;

use std::path::{Path, PathBuf};

use crate::cases::CaseSet;
use crate::grade::{self, GradeOptions};
use crate::results::GradeResult;

/// The folder of an assignment's known programs.
pub const SUBMISSIONS: &str = "submissions";

/// How a buggy program names the cases it must lose, in a comment of its own: `# grade:
/// loses win-diagonal` (any comment syntax; several names separated by commas or spaces).
pub const LOSES_MARK: &str = "grade: loses";

/// What a known program must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    /// Keep every point of every case.
    Correct,
    /// Lose some point; with names, a point of each named case.
    Buggy {
        /// The cases named by its `grade: loses` lines (empty: any case).
        loses: Vec<String>,
    },
}

/// One program of `submissions/`, with what it must do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Known {
    /// Where it is on disk.
    pub path: PathBuf,
    /// How messages name it: `submissions/buggy/no_diagonal.py`.
    pub name: String,
    /// Its expected verdict.
    pub expected: Expected,
}

/// The verdict on one known program.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The program.
    pub known: Known,
    /// Its score and the total, when it was graded.
    pub score: Option<(f64, f64)>,
    /// What went against its expected verdict, one line each (empty: it held).
    pub problems: Vec<String>,
    /// One line saying how it went when it held.
    pub summary: String,
    /// Why it was not graded on this machine (a toolchain its language needs is missing):
    /// neither held nor failed.
    pub skipped: Option<String>,
}

/// The programs of `dir/submissions/correct` and `dir/submissions/buggy`, in name order (a
/// file or a folder each; hidden entries and READMEs are skipped). None when there are none.
pub fn find(dir: &Path) -> anyhow::Result<Vec<Known>> {
    let mut known = Vec::new();
    for kind in ["correct", "buggy"] {
        let folder = dir.join(SUBMISSIONS).join(kind);
        if !folder.is_dir() {
            continue;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&folder)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", folder.display()))?
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().to_lowercase())
                    .unwrap_or_default();
                !name.starts_with('.') && !name.starts_with("readme")
            })
            .collect();
        entries.sort();
        for path in entries {
            let file_name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let expected = match kind {
                "correct" => Expected::Correct,
                _ => Expected::Buggy {
                    loses: named_cases(&path),
                },
            };
            known.push(Known {
                name: format!("{SUBMISSIONS}/{kind}/{file_name}"),
                path,
                expected,
            });
        }
    }
    Ok(known)
}

/// The cases a buggy program names in its `grade: loses` lines (in a file, or in any file of
/// a folder), in order, each once.
pub fn named_cases(program: &Path) -> Vec<String> {
    let files: Vec<PathBuf> = if program.is_dir() {
        walkdir::WalkDir::new(program)
            .sort_by_file_name()
            .max_depth(4)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| e.into_path())
            .collect()
    } else {
        vec![program.to_path_buf()]
    };
    let mut names: Vec<String> = Vec::new();
    for file in files {
        // Sources are small; a large file (a binary, data) is not read for marks.
        if !std::fs::metadata(&file).is_ok_and(|m| m.len() <= 1 << 20) {
            continue;
        }
        let Ok(bytes) = std::fs::read(&file) else {
            continue;
        };
        for name in cases_in_text(&String::from_utf8_lossy(&bytes)) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
}

/// The case names on the `grade: loses` lines of `text`: what follows the mark, up to the end
/// of the line or of the comment (`*/`, `-->`), split at commas and spaces.
fn cases_in_text(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for line in text.lines() {
        // The mark in any case, found without lowering the line (which may move bytes).
        let Some(rest) = (0..line.len()).find_map(|at| {
            line.get(at..at + LOSES_MARK.len())
                .filter(|word| word.eq_ignore_ascii_case(LOSES_MARK))
                .and_then(|_| line.get(at + LOSES_MARK.len()..))
        }) else {
            continue;
        };
        let rest = rest.split("*/").next().unwrap_or("");
        let rest = rest.split("-->").next().unwrap_or("");
        for word in rest.split(|c: char| c == ',' || c.is_whitespace()) {
            let word = word.trim_matches(|c: char| matches!(c, '`' | '"' | '\'' | '.' | ';'));
            if !word.is_empty() && !names.iter().any(|n| n == word) {
                names.push(word.to_string());
            }
        }
    }
    names
}

/// Grades every known program against `set` (the assignment in `root`) and judges each.
pub fn check(known: &[Known], set: &CaseSet, root: &Path) -> Vec<Verdict> {
    let options = GradeOptions {
        cases: Some(root.to_path_buf()),
        ..GradeOptions::default()
    };
    known
        .iter()
        .map(|program| match grade::grade(&program.path, set, &options) {
            Ok(result) => judge(program, set, &result),
            Err(error) => {
                let not_gradable = crate::not_gradable::not_gradable(&error);
                let missing_tool =
                    not_gradable.filter(|n| n.cause == crate::not_gradable::Cause::Toolchain);
                Verdict {
                    known: program.clone(),
                    score: None,
                    problems: match missing_tool {
                        Some(_) => Vec::new(),
                        None => vec![format!(
                            "could not be graded: {}",
                            not_gradable.map_or_else(|| format!("{error:#}"), |n| n.to_string())
                        )],
                    },
                    summary: String::new(),
                    skipped: missing_tool.map(|n| n.reason.clone()),
                }
            }
        })
        .collect()
}

/// Whether `result` is what `program` must get.
pub fn judge(program: &Known, set: &CaseSet, result: &GradeResult) -> Verdict {
    let points = crate::report::points;
    let score = (result.score, result.max_score);
    let mut problems = Vec::new();
    let lost: Vec<&crate::results::CaseResult> = result
        .cases
        .iter()
        .filter(|c| c.score < c.max_score)
        .collect();
    let total = format!("{}/{}", points(result.score), points(result.max_score));
    if let Some(failure) = &result.build_failure {
        problems.push(format!(
            "did not build ({}): {}",
            failure.command,
            failure.first_message()
        ));
    }
    let summary = match &program.expected {
        Expected::Correct => {
            if result.build_failure.is_none() {
                for case in &lost {
                    problems.push(format!(
                        "a correct program lost points in case {} ({}/{}): {}",
                        case.name,
                        points(case.score),
                        points(case.max_score),
                        first_failure(case)
                    ));
                }
                if lost.is_empty() && result.score < result.max_score {
                    problems.push(format!("a correct program scored {total}"));
                }
            }
            format!("{total}, full marks as a correct program must")
        }
        Expected::Buggy { loses } => {
            for name in loses {
                match result.cases.iter().find(|c| c.name == *name) {
                    None if set.cases.iter().any(|c| c.name == *name) => {}
                    None => problems.push(format!(
                        "names case '{name}' ({LOSES_MARK} {name}), which the assignment does not have"
                    )),
                    Some(case) if case.score >= case.max_score => problems.push(format!(
                        "a buggy program kept all {} points of case {name}, which it names ({LOSES_MARK} {name}): \
                         add a check there that its bug fails",
                        points(case.max_score)
                    )),
                    Some(_) => {}
                }
            }
            if result.build_failure.is_none() && result.score >= result.max_score {
                problems.push(format!(
                    "a buggy program kept all {} points: add a case (or a check) that its bug fails",
                    points(result.max_score)
                ));
            }
            let names: Vec<&str> = lost.iter().map(|c| c.name.as_str()).collect();
            format!(
                "{total}, loses points in {} as a buggy program must",
                names.join(", ")
            )
        }
    };
    Verdict {
        known: program.clone(),
        score: Some(score),
        problems,
        summary,
        skipped: None,
    }
}

/// The first check of a case that lost points, and what it found.
fn first_failure(case: &crate::results::CaseResult) -> String {
    let first = case
        .first_difference
        .as_ref()
        .and_then(|name| case.checks.iter().find(|c| c.name == *name))
        .or_else(|| case.checks.iter().find(|c| c.score < c.max_score));
    match first {
        Some(check) => format!("check {}: {}", check.name, check.detail),
        None => "no check passed".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loses_lines_name_cases_in_any_comment_syntax() {
        assert_eq!(
            cases_in_text("# grade: loses win-diagonal\nprint(1)\n"),
            vec!["win-diagonal"]
        );
        assert_eq!(
            cases_in_text("/* Grade: loses draw, cell-taken */\nint main() {}\n"),
            vec!["draw", "cell-taken"]
        );
        assert_eq!(
            cases_in_text("<!-- grade: loses draw -->\n// grade: loses draw win-row.\n"),
            vec!["draw", "win-row"]
        );
        assert!(cases_in_text("# loses nothing\n").is_empty());
        // Other scripts before the mark are passed over, never cut in two.
        assert_eq!(cases_in_text("# İİ grade: loses draw\n"), vec!["draw"]);
    }

    #[test]
    fn programs_are_found_in_name_order_without_hidden_files_and_readmes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let correct = dir.path().join("submissions/correct");
        let buggy = dir.path().join("submissions/buggy");
        std::fs::create_dir_all(correct.join("split_js")).expect("mkdir");
        std::fs::create_dir_all(&buggy).expect("mkdir");
        std::fs::write(correct.join("b.py"), "print()\n").expect("write");
        std::fs::write(correct.join("a.c"), "int main(){}\n").expect("write");
        std::fs::write(correct.join("split_js/main.js"), "\n").expect("write");
        std::fs::write(correct.join(".gitkeep"), "").expect("write");
        std::fs::write(buggy.join("README.md"), "grade: loses x\n").expect("write");
        std::fs::write(buggy.join("z.py"), "# grade: loses draw\n").expect("write");
        let found = find(dir.path()).expect("found");
        let names: Vec<&str> = found.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "submissions/correct/a.c",
                "submissions/correct/b.py",
                "submissions/correct/split_js",
                "submissions/buggy/z.py"
            ]
        );
        assert_eq!(
            found[3].expected,
            Expected::Buggy {
                loses: vec!["draw".into()]
            }
        );
        assert!(find(&dir.path().join("nowhere")).expect("none").is_empty());
    }
}
