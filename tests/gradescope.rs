//! Gradescope end to end: `grade gradescope package` builds autograder.zip, and its
//! run_autograder, run against a fake /autograder tree, always leaves a valid results.json.

mod support;

use std::io::Read as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use support::*;

/// Unpacks the zip into `source`, keeping the executable bits.
fn unpack(zip_path: &Path, source: &Path) {
    let file = std::fs::File::open(zip_path).expect("zip");
    let mut archive = zip::ZipArchive::new(file).expect("a zip archive");
    for i in 0..archive.len() {
        let mut entry = archive.by_index(i).expect("entry");
        let path = source.join(entry.name());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).expect("read entry");
        std::fs::write(&path, bytes).expect("write entry");
        if let Some(mode) = entry.unix_mode() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
        }
    }
}

fn run_autograder(root: &Path) -> serde_json::Value {
    let status = std::process::Command::new("bash")
        .arg(root.join("source/run_autograder"))
        .env("AUTOGRADER", root)
        .status()
        .expect("run_autograder runs");
    assert_eq!(status.code(), Some(0));
    let text = std::fs::read_to_string(root.join("results/results.json")).expect("results.json");
    serde_json::from_str(&text).expect("valid JSON")
}

#[test]
fn the_package_grades_uploads_and_always_writes_results() {
    let dir = tempfile::tempdir().expect("tempdir");
    let zip_path = dir.path().join("autograder.zip");
    grade()
        .args(["gradescope", "package", "-a", "nim", "-o"])
        .arg(&zip_path)
        .assert()
        .success();
    let root = dir.path().join("autograder");
    unpack(&zip_path, &root.join("source"));
    for name in ["setup.sh", "run_autograder", "grade"] {
        assert!(
            root.join("source").join(name).is_file(),
            "{name} in the zip"
        );
    }
    let submission = root.join("submission");
    std::fs::create_dir_all(&submission).expect("mkdir");

    // An empty upload: a reason, not a missing file.
    let results = run_autograder(&root);
    assert_eq!(results["score"], 0.0);
    assert!(
        results["output"]
            .as_str()
            .is_some_and(|o| o.contains("empty")),
        "{results:#}"
    );

    // A file grade cannot run: the reason again.
    std::fs::write(submission.join("nim.swift"), "print(\"hi\")").expect("write");
    let results = run_autograder(&root);
    assert_eq!(results["score"], 0.0);
    assert!(
        results["output"]
            .as_str()
            .is_some_and(|o| o.contains("nim.swift")),
        "{results:#}"
    );
    std::fs::remove_file(submission.join("nim.swift")).expect("rm");

    if have("g++") {
        std::fs::copy(
            program("nim/correct_getline.cpp"),
            submission.join("nim.cpp"),
        )
        .expect("copy");
        let results = run_autograder(&root);
        // 100 from the cases (90 fixed, 4 boundary, 6 random games), 6 from nim's two
        // requirements on the code (3 + 3).
        assert_eq!(results["score"], 106.0, "{results:#}");
        let tests = results["tests"].as_array().expect("tests");
        assert!(tests.len() >= 10);
        // Hidden cases stay visible by default, so the student's total is not hidden.
        assert!(
            tests.iter().all(|t| t["visibility"] == "visible"),
            "{results:#}"
        );
    }
}

#[test]
fn under_github_actions_lost_checks_are_annotated_and_summarised() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let summary = dir.path().join("summary.md");
    let output = grade()
        .arg(program("nim/buggy_accepts_four.cpp"))
        .args([
            "-a",
            "nim",
            "--case",
            "error-more-than-three",
            "--format",
            "json",
        ])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .logged_output()
        .expect("grade runs");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("::error title=error-more-than-three · "),
        "{stderr}"
    );
    // stdout is still the JSON report alone.
    serde_json::from_slice::<serde_json::Value>(&output.stdout).expect("JSON on stdout");
    let text = std::fs::read_to_string(&summary).expect("job summary");
    assert!(text.starts_with("### nim: "), "{text}");
    assert!(text.contains("| error-more-than-three |"), "{text}");
}

#[test]
fn hidden_visibility_takes_gradescopes_spelling_and_the_dashed_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    // An upload is a directory; this one holds a script that reads everything and says nothing.
    let submission = dir.path().join("upload");
    std::fs::create_dir(&submission).expect("mkdir");
    let script = submission.join("nim");
    std::fs::write(&script, "#!/bin/sh\ncat >/dev/null\n").expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let results = dir.path().join("results.json");
    for (given, expected) in [
        ("after_published", "after_published"),
        ("after-due-date", "after_due_date"),
        ("hidden", "hidden"),
    ] {
        grade()
            .args(["gradescope", "-a", "nim", "--hidden-visibility", given])
            .arg("--submission")
            .arg(&submission)
            .arg("--results")
            .arg(&results)
            .assert()
            .success();
        let text = std::fs::read_to_string(&results).expect("results.json");
        let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        let seen: Vec<&str> = json["tests"]
            .as_array()
            .expect("tests")
            .iter()
            .filter_map(|t| t["visibility"].as_str())
            .collect();
        // Nim's built-in cases have both kinds: visible ones stay "visible".
        assert!(seen.contains(&"visible"), "{given}: {seen:?}");
        assert!(seen.contains(&expected), "{given}: {seen:?}");
    }
    grade()
        .args(["gradescope", "-a", "nim", "--hidden-visibility", "later"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("after_due_date"));
}

/// The files of an autograder.zip written by `grade gradescope package ARGS`.
fn packaged(args: &[&str]) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let zip_path = dir.path().join("autograder.zip");
    grade()
        .args(["gradescope", "package", "-a", "nim", "-o"])
        .arg(&zip_path)
        .args(args)
        .assert()
        .success();
    let source = dir.path().join("source");
    unpack(&zip_path, &source);
    (dir, source)
}

/// The packages setup.sh installs (its apt-get install line and the one after it).
fn installed(setup: &str) -> String {
    let mut lines = setup.lines().skip_while(|l| !l.contains("apt-get install"));
    lines.next();
    lines.next().unwrap_or_default().trim().to_string()
}

#[test]
fn package_takes_the_hidden_visibility_and_the_courses_languages() {
    // By default: the handouts' four languages, hidden cases visible.
    let (_dir, source) = packaged(&[]);
    let setup = std::fs::read_to_string(source.join("setup.sh")).expect("setup.sh");
    assert_eq!(
        installed(&setup),
        "coreutils gcc make cmake g++ python3 default-jdk-headless"
    );
    let run = std::fs::read_to_string(source.join("run_autograder")).expect("run_autograder");
    assert!(run.contains("--hidden-visibility visible"), "{run}");
    // Chosen: Ubuntu's packages for Go, Rust and Ruby (docs/gradescope.md), and the
    // stricter visibility in Gradescope's spelling whichever spelling was given.
    let (_dir, source) = packaged(&[
        "--languages",
        "go,rust,ruby",
        "--hidden-visibility",
        "after-published",
    ]);
    let setup = std::fs::read_to_string(source.join("setup.sh")).expect("setup.sh");
    assert_eq!(installed(&setup), "coreutils golang-go rustc cargo ruby");
    let syntax = std::process::Command::new("bash")
        .arg("-n")
        .arg(source.join("setup.sh"))
        .status()
        .expect("bash -n");
    assert!(syntax.success(), "setup.sh parses");
    let run = std::fs::read_to_string(source.join("run_autograder")).expect("run_autograder");
    assert!(run.contains("--hidden-visibility after_published"), "{run}");
    // All eleven; an unknown language is refused with the known ones.
    let (_dir, source) = packaged(&["--languages", "all"]);
    let setup = std::fs::read_to_string(source.join("setup.sh")).expect("setup.sh");
    assert_eq!(
        installed(&setup),
        "coreutils gcc make cmake g++ python3 default-jdk-headless nodejs golang-go rustc \
         cargo kotlin dotnet-sdk-8.0 ruby perl"
    );
    grade()
        .args(["gradescope", "package", "-a", "nim", "--languages", "swift"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("possible values: c, cpp, python"));
}

#[test]
fn the_documented_local_trial_runs_as_written() {
    if !(have("g++") && have("unzip")) {
        return;
    }
    // The block of docs/gradescope.md under "Trying the package locally", run as written
    // in a directory holding the student's nim.cpp, with this grade first on PATH.
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/gradescope.md"))
            .expect("docs/gradescope.md");
    let section = docs
        .split("## Trying the package locally")
        .nth(1)
        .expect("the section");
    let block = section
        .split("```sh\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("a sh block");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::copy(
        program("nim/correct_getline.cpp"),
        dir.path().join("nim.cpp"),
    )
    .expect("copy");
    let binary = assert_cmd::cargo::cargo_bin("grade");
    let path = format!(
        "{}:{}",
        binary.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let output = std::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", block])
        .current_dir(dir.path())
        .env("PATH", path)
        .logged_output()
        .expect("bash runs the block");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Its last command prints results.json: nim's one total.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let json = &stdout[stdout.find('{').expect("results.json printed")..];
    let results: serde_json::Value = serde_json::from_str(json).expect("results.json");
    assert_eq!(results["score"], 106.0, "{results:#}");
}

#[test]
fn setup_sh_finds_its_own_directory_wherever_the_zip_is_unpacked() {
    // Unpacked somewhere other than /autograder/source, with grade not yet executable (as
    // an unzip without modes leaves it) and started from another directory: setup.sh makes
    // its own copy executable and runs its doctor.
    let (dir, source) = packaged(&["--languages", "python"]);
    let binary = source.join("grade");
    std::fs::set_permissions(&binary, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    // apt-get is stubbed: the test checks the script's paths, not Ubuntu's mirrors.
    let stubs = dir.path().join("stubs");
    std::fs::create_dir_all(&stubs).expect("mkdir");
    let apt = stubs.join("apt-get");
    std::fs::write(&apt, "#!/bin/sh\necho \"apt-get $*\"\n").expect("write stub");
    std::fs::set_permissions(&apt, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let path = format!(
        "{}:{}",
        stubs.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let output = std::process::Command::new("bash")
        .arg(source.join("setup.sh"))
        .current_dir(elsewhere.path())
        .env("PATH", path)
        .logged_output()
        .expect("setup.sh runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(0),
        "setup.sh: stdout {stdout}\nstderr {stderr}"
    );
    assert!(stdout.contains("apt-get install"), "{stdout}");
    let mode = std::fs::metadata(&binary)
        .expect("grade")
        .permissions()
        .mode();
    assert_eq!(mode & 0o111, 0o111, "setup.sh made its grade executable");
    // The doctor's report came from the unpacked binary.
    assert!(
        stdout.contains("seccomp") || stdout.contains("toolchains"),
        "{stdout}"
    );
    assert!(!stderr.contains("/autograder"), "{stderr}");
}
