//! Same program, same grade, whatever shape it is handed in as: every correct test program as
//! it stands, in a folder with the files students leave beside their code (a README, notes, an
//! IDE's project files), zipped, tarred, nested one folder down, and through `grade gradescope`
//! on an upload directory as Gradescope hands it over. Every shape must get full marks and the
//! very same score.

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};

use support::*;

/// The shapes a submission arrives in, each built from the program as it stands in the tree.
#[derive(Clone, Copy, Debug)]
enum Shape {
    AsItStands,
    FolderWithExtras,
    Zip,
    TarGz,
    NestedFolder,
    Gradescope,
}

const SHAPES: [Shape; 6] = [
    Shape::AsItStands,
    Shape::FolderWithExtras,
    Shape::Zip,
    Shape::TarGz,
    Shape::NestedFolder,
    Shape::Gradescope,
];

/// Files students leave beside their code, none of them a program.
const EXTRAS: [(&str, &str); 5] = [
    ("README.md", "# My game\nRun it with the usual command.\n"),
    ("notes/design.txt", "turn loop, then the board\n"),
    (".idea/workspace.xml", "<project version=\"4\"/>\n"),
    (".vscode/settings.json", "{ \"editor.tabSize\": 4 }\n"),
    ("sample_run.log", "Enter your move: 3\n"),
];

/// Copies `program` (a file or a folder of regular files) into `folder`.
fn copy_into(program: &Path, folder: &Path) {
    std::fs::create_dir_all(folder).expect("mkdir");
    if program.is_file() {
        std::fs::copy(program, folder.join(program.file_name().expect("name"))).expect("copy");
        return;
    }
    for entry in walkdir::WalkDir::new(program)
        .into_iter()
        .filter_map(Result::ok)
    {
        let target = folder.join(entry.path().strip_prefix(program).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// The program in a folder named after it, with [`EXTRAS`] beside its code.
fn folder_with_extras(program: &Path, under: &Path) -> PathBuf {
    let folder = under.join(program.file_stem().expect("name"));
    copy_into(program, &folder);
    for (name, text) in EXTRAS {
        let path = folder.join(name);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    }
    folder
}

/// `folder` zipped under its own name as top folder (as a desktop's "Compress" does).
fn zipped(folder: &Path, zip_path: &Path) {
    let top = folder
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(zip_path).expect("create zip"));
    let options = zip::write::SimpleFileOptions::default();
    for entry in walkdir::WalkDir::new(folder)
        .into_iter()
        .filter_map(Result::ok)
    {
        let relative = entry.path().strip_prefix(folder).expect("inside");
        let name = format!("{top}/{}", relative.display());
        if entry.file_type().is_dir() {
            zip.add_directory(format!("{}/", name.trim_end_matches('/')), options)
                .expect("dir");
        } else {
            zip.start_file(name, options).expect("start");
            zip.write_all(&std::fs::read(entry.path()).expect("read"))
                .expect("write");
        }
    }
    zip.finish().expect("finish");
}

/// Builds `shape` of `program` under `dir`; returns what to hand to `grade`.
fn build(shape: Shape, program: &Path, dir: &Path) -> PathBuf {
    match shape {
        Shape::AsItStands => program.to_path_buf(),
        Shape::FolderWithExtras => folder_with_extras(program, dir),
        Shape::Zip => {
            let folder = folder_with_extras(program, &dir.join("for-zip"));
            let path = dir.join("submission.zip");
            zipped(&folder, &path);
            path
        }
        Shape::TarGz => {
            let folder = folder_with_extras(program, &dir.join("for-tar"));
            let path = dir.join("submission.tar.gz");
            let status = std::process::Command::new("tar")
                .arg("-czf")
                .arg(&path)
                .arg("-C")
                .arg(folder.parent().expect("parent"))
                .arg(folder.file_name().expect("name"))
                .status()
                .expect("tar runs");
            assert!(status.success(), "tar failed");
            path
        }
        Shape::NestedFolder => {
            let outer = dir.join("handed-in");
            folder_with_extras(program, &outer);
            outer
        }
        // Gradescope's upload directory holds what the student dragged in: here the files of
        // the program's folder (or the single file) at its top.
        Shape::Gradescope => {
            let upload = dir.join("upload");
            copy_into(program, &upload);
            upload
        }
    }
}

/// A copy of the built-in cases of `assignment` without its random-games case, for
/// `--cases`: the games drawn there run the same program on generated input, whatever shape it
/// came in, so they are played once per program (its full grading) rather than once a shape.
fn fixed_cases(assignment: &str) -> tempfile::TempDir {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tree = tempfile::tempdir().expect("tempdir");
    for part in ["cases", "reference"] {
        let from = root.join(part).join(assignment);
        for entry in walkdir::WalkDir::new(&from)
            .into_iter()
            .filter_map(Result::ok)
        {
            let relative = entry.path().strip_prefix(&from).expect("inside");
            let target = tree.path().join(part).join(assignment).join(relative);
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&target).expect("mkdir");
            } else if relative
                .file_stem()
                .is_none_or(|stem| stem != "random-games")
            {
                std::fs::copy(entry.path(), &target).expect("copy");
            }
        }
    }
    tree
}

/// The score `grade` gives `submission` in `shape` (Gradescope: read from results.json), only
/// the cases matching `case` when given, from the case directory `cases` when given.
fn score(
    shape: Shape,
    submission: &Path,
    assignment: &str,
    (case, cases): (Option<&str>, Option<&Path>),
    dir: &Path,
) -> (f64, String) {
    let cases_arg: Vec<String> = cases
        .map(|c| vec!["--cases".to_string(), c.display().to_string()])
        .unwrap_or_default();
    if let Shape::Gradescope = shape {
        let results = dir.join("results.json");
        let output = grade()
            .args(["gradescope", "-a", assignment, "--submission"])
            .arg(submission)
            .arg("--results")
            .arg(&results)
            .args(&cases_arg)
            .logged_output()
            .expect("grade runs");
        let text = std::fs::read_to_string(&results).unwrap_or_else(|e| {
            panic!(
                "no results.json ({e}): {}",
                String::from_utf8_lossy(&output.stderr)
            )
        });
        let json: serde_json::Value = serde_json::from_str(&text).expect("results.json");
        let score = json["score"].as_f64().expect("score");
        return (score, format!("{:#}", json["output"]));
    }
    let mut filter: Vec<&str> = case.map(|c| vec!["--case", c]).unwrap_or_default();
    filter.extend(cases_arg.iter().map(String::as_str));
    let (_, report) = grade_json(submission, assignment, &filter);
    let score = report["score"].as_f64().expect("score");
    let max = report["max_score"].as_f64().expect("max_score");
    assert_eq!(
        score,
        max,
        "{shape:?} of {}: {:#?}",
        submission.display(),
        lost_points(&report)
    );
    (score, format!("{:#?}", lost_points(&report)))
}

/// Every correct test program of `assignment`, in every shape: full marks, the same score.
/// Without `quick_case`, each program is graded in full once (random games too; here unless
/// tests/grading.rs does, [`FULLY_GRADED_CORRECT`]) and in every shape on the fixed cases
/// ([`fixed_cases`]).
/// With `quick_case`, the programs are compared on the cases matching it (Gradescope's upload
/// grades every case, so it is tried on the first program only, against its full grading).
fn every_correct_program_in_every_shape(assignment: &str, quick_case: Option<&str>) {
    let fixed = quick_case.is_none().then(|| fixed_cases(assignment));
    let mut programs: Vec<PathBuf> = std::fs::read_dir(program(assignment))
        .expect("the assignment's programs")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("correct"))
        })
        .collect();
    programs.sort();
    assert!(!programs.is_empty(), "no correct programs for {assignment}");
    for (index, program) in programs.iter().enumerate() {
        if !tools_for(program).iter().all(|tool| have(tool)) {
            continue;
        }
        let shapes: Vec<(Shape, Option<&str>)> = match quick_case {
            // The program as it stands is graded in full below: the other shapes on the
            // fixed cases, each with full marks (so all with the same score).
            None => SHAPES
                .iter()
                .filter(|shape| !matches!(shape, Shape::AsItStands))
                .map(|&shape| (shape, None))
                .collect(),
            Some(case) => {
                let mut quick: Vec<(Shape, Option<&str>)> = SHAPES
                    .iter()
                    .filter(|shape| !matches!(shape, Shape::Gradescope))
                    .map(|&shape| (shape, Some(case)))
                    .collect();
                if index == 0 {
                    quick.extend([(Shape::AsItStands, None), (Shape::Gradescope, None)]);
                }
                quick
            }
        };
        let mut scores: Vec<(Shape, Option<&str>, f64)> = Vec::new();
        // tests/grading.rs grades the programs it lists in full already.
        let graded_in_full = FULLY_GRADED_CORRECT
            .iter()
            .any(|(_, relative)| support::program(relative) == *program);
        if fixed.is_some() && !graded_in_full {
            // The full grading, as the program stands (random games too): full marks.
            let (_, report) = grade_json(program, assignment, &[]);
            assert_eq!(
                report["score"],
                report["max_score"],
                "{}: {:#?}",
                program.display(),
                lost_points(&report)
            );
        }
        for (column, (shape, case)) in shapes.into_iter().enumerate() {
            // A third of the (program, shape) grid per commit in CI; the first program's two
            // full gradings (as it stands and through Gradescope, compared) every time.
            let full_pair = quick_case.is_some() && case.is_none();
            if !full_pair && !in_this_part(index, column) {
                continue;
            }
            let dir = tempfile::tempdir().expect("tempdir");
            let submission = build(shape, program, dir.path());
            let cases = fixed.as_ref().map(|f| f.path());
            let (score, detail) = score(shape, &submission, assignment, (case, cases), dir.path());
            if let Some((first_shape, _, first)) = scores.iter().find(|(_, c, _)| *c == case) {
                assert_eq!(
                    score,
                    *first,
                    "{} scored {first} as {first_shape:?} but {score} as {shape:?}: {detail}",
                    program.display()
                );
            }
            scores.push((shape, case, score));
        }
    }
}

#[test]
fn nim_in_every_shape() {
    every_correct_program_in_every_shape("nim", None);
}

#[test]
fn m_in_every_shape() {
    every_correct_program_in_every_shape("m", None);
}

#[test]
fn connect6_in_every_shape() {
    every_correct_program_in_every_shape("connect6", None);
}

#[test]
fn collect_in_every_shape() {
    every_correct_program_in_every_shape("collect", None);
}

/// Silver Dollar's full grading starts each program 60 times for its random strip: the shapes
/// are compared on the random games, and one program goes through every case and Gradescope.
#[test]
fn silver_dollar_in_every_shape() {
    every_correct_program_in_every_shape("silver_dollar", Some("random-game"));
}
