//! `grade gradescope`: grading inside Gradescope's autograder, and the autograder.zip that
//! installs it there.
//!
//! Inside the autograder, results.json is always written — also for an empty upload or a
//! submission that cannot be run, with the reason as its output — because a missing file shows
//! the student nothing at all.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::assignments::Assignment;
use crate::cases::{self, CaseTree};
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
            crate::escape::field(reason)
        ),
        "tests": [],
    });
    let mut bytes = serde_json::to_vec_pretty(&value).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// The results.json of a submission that could not be graded for a reason that is not the
/// student's ([`crate::not_gradable`]). Gradescope has no blank score (results.json needs one),
/// so the score is 0 and the output says plainly that it is not a grade; `extra_data` (kept
/// by Gradescope with the submission, in its exports) marks it for the instructor, who also
/// sees the line `grade gradescope` prints to the autograder's stdout.
fn not_gradable_results(not_gradable: &crate::not_gradable::NotGradable) -> Vec<u8> {
    let reason = crate::escape::field(&not_gradable.reason);
    let value = serde_json::json!({
        "score": 0.0,
        "execution_time": 0.0,
        "output": format!(
            "NOT GRADED: your submission could not be graded because of a problem on the \
             grading side ({}), not because of your program. The 0 shown is not a grade: your \
             instructor has been told and will grade it again.\nReason: {reason}",
            not_gradable.cause.describe()
        ),
        "extra_data": {
            "grade_status": "not_gradable",
            "cause": not_gradable.cause,
            "reason": reason,
        },
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

/// Grades the upload and writes results.json; exit status 0 once the file is written, 2 when
/// the submission was not gradable (results.json still says so; Gradescope reads the file
/// whatever the status).
pub fn run(args: &GradescopeRun) -> anyhow::Result<u8> {
    let graded = (|| -> anyhow::Result<Vec<u8>> {
        let tree = CaseTree::open(args.cases.as_deref())?;
        if let Some(root) = tree.root() {
            crate::run::sandbox::protect(root);
        }
        let set = cases::load(&tree, args.assignment)?;
        args.assignment
            .kind()
            .prepare()
            .map_err(|e| anyhow::anyhow!(e))?;
        if !set.variants.is_empty() {
            // Gradescope's upload carries no student name here: a pick would be a guess.
            anyhow::bail!("{}", per_student_variants_on_gradescope(args.assignment));
        }
        let submission = upload(&args.submission)?;
        let options = GradeOptions {
            format: Format::Gradescope,
            course_seed: crate::cli::scrub::course_seed_from_env()?,
            ..GradeOptions::default()
        };
        let result = grade::grade(&submission, &set, &options)?;
        GradescopeExporter {
            hidden: args.hidden,
        }
        .export(&result)
    })();
    let mut status = 0;
    let bytes = match graded {
        Ok(bytes) => bytes,
        Err(error) => match crate::not_gradable::not_gradable(&error) {
            Some(not_gradable) => {
                // For the instructor: Gradescope shows the autograder's stdout to them only.
                println!(
                    "grade: NOT GRADABLE: {}",
                    crate::escape::visible(&not_gradable.to_string())
                );
                status = 2;
                not_gradable_results(not_gradable)
            }
            None => failure_results(&format!("{error:#}")),
        },
    };
    if let Some(parent) = args.results.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    std::fs::write(&args.results, bytes)
        .with_context(|| format!("cannot write {}", args.results.display()))?;
    Ok(status)
}

/// A language a course accepts, for the toolchains `setup.sh` installs
/// (`grade gradescope package --languages`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CourseLanguage(&'static Toolchain);

/// A language's name, the other spellings accepted, and the Ubuntu packages that build and run
/// its submissions as docs/languages.md says.
#[derive(Debug, PartialEq, Eq)]
pub struct Toolchain {
    name: &'static str,
    aliases: &'static [&'static str],
    packages: &'static [&'static str],
}

/// The eleven languages of docs/languages.md with their Ubuntu packages (C and C++ also bring
/// `make` and `cmake`, for Makefile and CMake projects).
const TOOLCHAINS: [Toolchain; 11] = [
    Toolchain {
        name: "c",
        aliases: &[],
        packages: &["gcc", "make", "cmake"],
    },
    Toolchain {
        name: "cpp",
        aliases: &["c++"],
        packages: &["g++", "make", "cmake"],
    },
    Toolchain {
        name: "python",
        aliases: &["py"],
        packages: &["python3"],
    },
    Toolchain {
        name: "java",
        aliases: &[],
        packages: &["default-jdk-headless"],
    },
    Toolchain {
        name: "javascript",
        aliases: &["js", "node"],
        packages: &["nodejs"],
    },
    Toolchain {
        name: "go",
        aliases: &[],
        packages: &["golang-go"],
    },
    Toolchain {
        name: "rust",
        aliases: &[],
        packages: &["rustc", "cargo"],
    },
    Toolchain {
        name: "kotlin",
        aliases: &[],
        packages: &["kotlin", "default-jdk-headless"],
    },
    Toolchain {
        name: "csharp",
        aliases: &["c#", "cs"],
        packages: &["dotnet-sdk-8.0"],
    },
    Toolchain {
        name: "ruby",
        aliases: &[],
        packages: &["ruby"],
    },
    Toolchain {
        name: "perl",
        aliases: &[],
        packages: &["perl"],
    },
];

/// `--languages all`: every language of [`TOOLCHAINS`].
static EVERY_LANGUAGE: Toolchain = Toolchain {
    name: "all",
    aliases: &[],
    packages: &[],
};

impl clap::ValueEnum for CourseLanguage {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: [CourseLanguage; 12] = [
            CourseLanguage(&TOOLCHAINS[0]),
            CourseLanguage(&TOOLCHAINS[1]),
            CourseLanguage(&TOOLCHAINS[2]),
            CourseLanguage(&TOOLCHAINS[3]),
            CourseLanguage(&TOOLCHAINS[4]),
            CourseLanguage(&TOOLCHAINS[5]),
            CourseLanguage(&TOOLCHAINS[6]),
            CourseLanguage(&TOOLCHAINS[7]),
            CourseLanguage(&TOOLCHAINS[8]),
            CourseLanguage(&TOOLCHAINS[9]),
            CourseLanguage(&TOOLCHAINS[10]),
            CourseLanguage(&EVERY_LANGUAGE),
        ];
        &ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        let help = if self.0 == &EVERY_LANGUAGE {
            "the eleven languages".to_string()
        } else {
            self.0.packages.join(" ")
        };
        Some(
            clap::builder::PossibleValue::new(self.0.name)
                .aliases(self.0.aliases.iter().copied())
                .help(help),
        )
    }
}

/// The toolchains of `languages`, `all` expanded, each once, in the table's order.
fn toolchains(languages: &[CourseLanguage]) -> Vec<&'static Toolchain> {
    let every = languages.iter().any(|l| l.0 == &EVERY_LANGUAGE);
    TOOLCHAINS
        .iter()
        .filter(|t| every || languages.iter().any(|l| l.0 == *t))
        .collect()
}

/// The Ubuntu packages for `languages` (`all` is every language), each once, in order.
fn packages_for(languages: &[CourseLanguage]) -> Vec<&'static str> {
    let mut packages = vec!["coreutils"];
    for language in toolchains(languages) {
        for package in language.packages {
            if !packages.contains(package) {
                packages.push(package);
            }
        }
    }
    packages
}

/// The autograder's setup script: the toolchains of the course's languages from the
/// distribution's packages.
fn setup_sh(languages: &[CourseLanguage]) -> String {
    let names: Vec<&str> = toolchains(languages).iter().map(|t| t.name).collect();
    format!(
        "#!/usr/bin/env bash\n\
         # Installs what the students' programs need (Gradescope runs this once, as root, on\n\
         # Ubuntu): the toolchains for {} (grade gradescope package --languages).\n\
         set -euo pipefail\n\
         apt-get update\n\
         DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \\\n  {}\n\
         # This zip's own directory (Gradescope's /autograder/source, or wherever it was\n\
         # unpacked to try it).\n\
         here=\"$(cd \"$(dirname \"${{BASH_SOURCE[0]}}\")\" && pwd)\"\n\
         chmod +x \"$here/grade\"\n\
         # Which sandbox layers work in this container (also in every report).\n\
         \"$here/grade\" doctor || true\n",
        names.join(", "),
        packages_for(languages).join(" ")
    )
}

/// What `grade gradescope package` writes.
#[derive(Clone, Debug)]
pub struct Package {
    /// The assignment.
    pub assignment: Assignment,
    /// An instructor's case directory to ship, or the built-in cases.
    pub cases: Option<PathBuf>,
    /// The zip to write.
    pub output: PathBuf,
    /// Hidden cases' visibility in every results.json.
    pub hidden: HiddenVisibility,
    /// The languages whose toolchains setup.sh installs (`all` expanded by clap: every one
    /// given).
    pub languages: Vec<CourseLanguage>,
}

/// Writes `autograder.zip` for the assignment: setup.sh, run_autograder, this `grade` binary
/// and (when given) the instructor's case directory.
pub fn package(package: &Package) -> anyhow::Result<u8> {
    let (assignment, cases, output) = (
        package.assignment,
        package.cases.as_deref(),
        package.output.as_path(),
    );
    if let Some(dir) = cases {
        // Fail now, not on Gradescope, if the cases do not load.
        let set = cases::load(&CaseTree::from_dir(dir)?, assignment)?;
        if !set.variants.is_empty() {
            anyhow::bail!("{}", per_student_variants_on_gradescope(assignment));
        }
    }
    let cases_arg = if cases.is_some() {
        " --cases \"$AUTOGRADER/source/cases\""
    } else {
        ""
    };
    // The course seed of the random-games cases travels with the cases (assignment.yaml's
    // `seed`); one given in the environment when packaging is written into run_autograder.
    let course_seed = match crate::cli::scrub::course_seed_from_env()? {
        Some(seed) => format!(
            "# The course seed of the random-games cases (GRADE_COURSE_SEED when packaged).\n\
             export {}=\"${{{}:-{seed}}}\"\n",
            crate::cli::scrub::COURSE_SEED_VARIABLE,
            crate::cli::scrub::COURSE_SEED_VARIABLE
        ),
        None => String::new(),
    };
    let run_autograder = format!(
        "#!/usr/bin/env bash\n\
         # Gradescope runs this for every submission. To try it elsewhere, point AUTOGRADER at a\n\
         # directory holding source/ (this zip unpacked), submission/ and results/\n\
         # (docs/gradescope.md).\n\
         AUTOGRADER=\"${{AUTOGRADER:-/autograder}}\"\n\
         {course_seed}\
         exec \"$AUTOGRADER/source/grade\" gradescope -a {assignment}{cases_arg} \\\n  \
         --hidden-visibility {} \\\n  \
         --submission \"$AUTOGRADER/submission\" \\\n  \
         --results \"$AUTOGRADER/results/results.json\"\n",
        package.hidden.name()
    );
    let setup = setup_sh(&package.languages);
    let file = std::fs::File::create(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    let mut zip = zip::ZipWriter::new(file);
    let executable = zip::write::SimpleFileOptions::default().unix_permissions(0o755);
    let plain = zip::write::SimpleFileOptions::default().unix_permissions(0o644);
    // The grader's binary is most of the package: the fastest deflate level packs it three
    // times as fast as the default for a tenth more bytes (docs/performance.md).
    let binary_options = executable.compression_level(Some(1));
    zip.start_file("setup.sh", executable)?;
    zip.write_all(setup.as_bytes())?;
    zip.start_file("run_autograder", executable)?;
    zip.write_all(run_autograder.as_bytes())?;
    let binary = std::env::current_exe().context("cannot find the running grade binary")?;
    let bytes =
        std::fs::read(&binary).with_context(|| format!("cannot read {}", binary.display()))?;
    if let Some(note) = older_images_note(&bytes) {
        eprintln!("{note}");
    }
    zip.start_file("grade", binary_options)?;
    zip.write_all(&bytes)?;
    if let Some(dir) = cases {
        // An instructor's own assignment travels whole: assignment.yaml and its reference
        // program beside cases/ and reference/ (dot-files such as .git stay behind, and so do
        // the programs of known verdict in submissions/, which only `grade verify` grades).
        let external = crate::cases::own::is_own_dir(dir);
        let tops: &[&str] = if external {
            &[""]
        } else {
            &["cases", "reference"]
        };
        for top in tops {
            let root = dir.join(top);
            let walk = walkdir::WalkDir::new(&root)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|e| {
                    e.depth() == 0
                        || !(e.file_name().to_string_lossy().starts_with('.')
                            || external
                                && e.depth() == 1
                                && e.file_name() == crate::selftest::SUBMISSIONS)
                });
            for entry in walk {
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

/// A note when the binary being packaged needs a newer glibc than the portable build: older
/// Gradescope images (Ubuntu 20.04 has 2.31, 18.04 2.27) cannot start it.
fn older_images_note(binary: &[u8]) -> Option<String> {
    let needs = crate::elf::libc_needs(binary).ok()?;
    if needs.starts_with(crate::elf::PORTABLE_GLIBC) {
        return None;
    }
    Some(format!(
        "note: this grade binary needs {}: a Gradescope base image with an older glibc \
         cannot start it; package with the portable build (scripts/build-portable, glibc {} \
         or newer; docs/gradescope.md)",
        needs.describe(),
        crate::elf::PORTABLE_GLIBC
    ))
}

/// Why a course with per-student variants is not graded on Gradescope (docs/variants.md).
fn per_student_variants_on_gradescope(assignment: crate::assignments::Assignment) -> String {
    format!(
        "{assignment}: per-student variants (variants:) cannot be picked on Gradescope, which \
         does not tell the autograder who submitted; give the course one variant \
         (parameters:) or grade the class with `grade class/*/ --output-dir DIR`"
    )
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
