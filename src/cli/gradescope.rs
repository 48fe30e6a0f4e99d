//! `grade gradescope`: grading inside Gradescope's autograder, and the autograder.zip that
//! installs it there.
//!
//! Inside the autograder, results.json is always written — also for an empty upload or a
//! submission that cannot be run, with the reason as its output — because a missing file shows
//! the student nothing at all.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::cases::{self, CaseTree};
use crate::games::Assignment;
use crate::grade::{self, GradeOptions};
use crate::report::gradescope::{GradescopeExporter, HiddenVisibility};
use crate::report::{Exporter, Format};

/// What `grade gradescope` grades and where it writes.
#[derive(Clone, Debug)]
pub struct GradescopeRun {
    /// The assignment.
    pub assignment: Assignment,
    /// The uploaded submission (Gradescope: /autograder/submission).
    pub submission: PathBuf,
    /// Where results.json goes (Gradescope: /autograder/results/results.json).
    pub results: PathBuf,
    /// Hidden cases' visibility.
    pub hidden: HiddenVisibility,
    /// An instructor's case directory, or the built-in cases.
    pub cases: Option<PathBuf>,
}

/// The results.json of a grading that could not happen: score 0 and the reason.
fn failure_results(reason: &str) -> Vec<u8> {
    let value = serde_json::json!({
        "score": 0.0,
        "execution_time": 0.0,
        "output": format!(
            "Your submission could not be graded: {}",
            crate::report::escape::field(reason)
        ),
        "tests": [],
    });
    let mut bytes = serde_json::to_vec_pretty(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// The submission to grade in the upload directory: the directory itself, or the single file
/// or folder it holds (an upload of one `.py`, or a project folder).
fn upload(dir: &Path) -> anyhow::Result<PathBuf> {
    let entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
        })
        .collect();
    match entries.as_slice() {
        [] => anyhow::bail!("the upload is empty"),
        [one] => Ok(one.clone()),
        _ => Ok(dir.to_path_buf()),
    }
}

/// Grades the upload and writes results.json; exit status 0 once the file is written.
pub fn run(args: &GradescopeRun) -> anyhow::Result<u8> {
    let graded = (|| -> anyhow::Result<Vec<u8>> {
        let tree = CaseTree::open(args.cases.as_deref())?;
        if let Some(root) = tree.root() {
            crate::run::sandbox::protect(root);
        }
        let set = cases::load(&tree, args.assignment)?;
        let submission = upload(&args.submission)?;
        let options = GradeOptions {
            format: Format::Gradescope,
            ..GradeOptions::default()
        };
        let result = grade::grade(&submission, &set, &options)?;
        GradescopeExporter {
            hidden: args.hidden,
        }
        .export(&result)
    })();
    let bytes = match graded {
        Ok(bytes) => bytes,
        Err(error) => failure_results(&format!("{error:#}")),
    };
    if let Some(parent) = args.results.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(&args.results, bytes)
        .with_context(|| format!("cannot write {}", args.results.display()))?;
    Ok(0)
}

/// The autograder's setup script: the toolchains from the distribution's packages.
const SETUP_SH: &str = "#!/usr/bin/env bash
# Installs what the students' programs need (Gradescope runs this once, as root, on Ubuntu).
set -euo pipefail
apt-get update
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\
  g++ gcc python3 default-jdk-headless coreutils
chmod +x /autograder/source/grade
";

/// Writes `autograder.zip` for `assignment`: setup.sh, run_autograder, this `grade` binary and
/// (when given) the instructor's case directory.
pub fn package(assignment: Assignment, cases: Option<&Path>, output: &Path) -> anyhow::Result<u8> {
    if let Some(dir) = cases {
        // Fail now, not on Gradescope, if the cases do not load.
        cases::load(&CaseTree::from_dir(dir)?, assignment)?;
    }
    let cases_arg = if cases.is_some() {
        " --cases \"$AUTOGRADER/source/cases\""
    } else {
        ""
    };
    let run_autograder = format!(
        "#!/usr/bin/env bash\n\
         # Gradescope runs this for every submission; AUTOGRADER may point elsewhere for tests.\n\
         AUTOGRADER=\"${{AUTOGRADER:-/autograder}}\"\n\
         exec \"$AUTOGRADER/source/grade\" gradescope -a {assignment}{cases_arg} \\\n  \
         --submission \"$AUTOGRADER/submission\" \\\n  \
         --results \"$AUTOGRADER/results/results.json\"\n"
    );
    let file = std::fs::File::create(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let executable = zip::write::SimpleFileOptions::default().unix_permissions(0o755);
    let plain = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    zip.start_file("setup.sh", executable)?;
    zip.write_all(SETUP_SH.as_bytes())?;
    zip.start_file("run_autograder", executable)?;
    zip.write_all(run_autograder.as_bytes())?;
    let binary = std::env::current_exe().context("cannot find the running grade binary")?;
    zip.start_file("grade", executable)?;
    zip.write_all(
        &std::fs::read(&binary).with_context(|| format!("cannot read {}", binary.display()))?,
    )?;
    if let Some(dir) = cases {
        for top in ["cases", "reference"] {
            let root = dir.join(top);
            for entry in walkdir::WalkDir::new(&root).sort_by_file_name() {
                let entry = entry.with_context(|| format!("cannot read {}", root.display()))?;
                if !entry.file_type().is_file() {
                    continue;
                }
                let relative = entry
                    .path()
                    .strip_prefix(dir)
                    .unwrap_or(entry.path())
                    .to_string_lossy()
                    .replace('\\', "/");
                zip.start_file(format!("cases/{relative}"), plain)?;
                zip.write_all(&std::fs::read(entry.path())?)?;
            }
        }
    }
    zip.finish()?;
    println!("wrote {}", output.display());
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_upload_is_a_reason_not_a_missing_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(upload(dir.path()).is_err());
        std::fs::write(dir.path().join("nim.cpp"), "int main(){}").expect("write");
        assert_eq!(upload(dir.path()).ok(), Some(dir.path().join("nim.cpp")));
        std::fs::write(dir.path().join("other.cpp"), "").expect("write");
        assert_eq!(upload(dir.path()).ok(), Some(dir.path().to_path_buf()));
        let value: serde_json::Value =
            serde_json::from_slice(&failure_results("the upload is empty")).expect("json");
        assert_eq!(value["score"], 0.0);
        assert_eq!(
            value["output"],
            "Your submission could not be graded: the upload is empty"
        );
    }
}
