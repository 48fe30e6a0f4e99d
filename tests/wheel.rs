//! The Python wheel (scripts/build-wheel) installs `grade` into a fresh virtual environment,
//! where it grades a submission. Run by .ci/run after building the wheel:
//! `PROFILE=dev scripts/build-wheel && cargo test --test wheel -- --ignored` (the newest wheel
//! under target/wheels/, or the one `GRADE_WHEEL` names).

mod support;

use support::*;

/// The wheel named by `GRADE_WHEEL` (.ci/run names the one it just built), else the newest
/// one for this machine under target/wheels/PROFILE/.
fn the_wheel_to_test() -> std::path::PathBuf {
    if let Some(wheel) = std::env::var_os("GRADE_WHEEL") {
        return wheel.into();
    }
    let wheels = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wheels");
    walkdir::WalkDir::new(&wheels)
        .max_depth(2)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        // This machine's wheel (an aarch64 one cross-built beside it does not install here).
        .filter(|p| {
            p.to_string_lossy()
                .ends_with(&format!("_{}.whl", std::env::consts::ARCH))
        })
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .unwrap_or_else(|| {
            panic!(
                "no wheel for this machine under {}: run scripts/build-wheel",
                wheels.display()
            )
        })
}

#[test]
#[ignore = "needs the wheel: PROFILE=dev scripts/build-wheel, then run with --ignored"]
fn the_wheel_installs_grade_in_a_fresh_venv() {
    let wheel = the_wheel_to_test();
    if !have("python3") {
        return;
    }
    // The wheel's files: the binary as a script, and the manual page as data for
    // <prefix>/share/man/man1 (a wheel is a zip; Python's zipfile lists it).
    let listing = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))",
        ])
        .arg(&wheel)
        .logged_output()
        .expect("python3 lists the wheel");
    let names = String::from_utf8_lossy(&listing.stdout);
    for suffix in [".data/scripts/grade", ".data/data/share/man/man1/grade.1"] {
        assert!(
            names.lines().any(|n| n.ends_with(suffix)),
            "{} holds no *{suffix}:\n{names}",
            wheel.display()
        );
    }
    let venv = tempfile::tempdir().expect("tempdir");
    let status = std::process::Command::new("python3")
        .args(["-m", "venv"])
        .arg(venv.path())
        .status()
        .expect("python3 -m venv");
    assert!(status.success());
    let status = std::process::Command::new(venv.path().join("bin/pip"))
        .args(["install", "--no-index", "--quiet"])
        .arg(&wheel)
        .status()
        .expect("pip install");
    assert!(status.success(), "pip installs the wheel offline");
    let grade = venv.path().join("bin/grade");
    // `man grade` finds the page from the venv's bin/ on PATH (man maps bin to ../share/man).
    let page = venv.path().join("share/man/man1/grade.1");
    assert!(page.is_file(), "{} installed", page.display());
    if have("man") {
        let found = std::process::Command::new("man")
            .args(["-w", "grade"])
            .env_remove("MANPATH")
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", venv.path().join("bin").display()),
            )
            .logged_output()
            .expect("man -w runs");
        assert_eq!(
            String::from_utf8_lossy(&found.stdout).trim(),
            page.display().to_string(),
            "{}",
            String::from_utf8_lossy(&found.stderr)
        );
    }
    let version = std::process::Command::new(&grade)
        .arg("--version")
        .logged_output()
        .expect("the installed grade runs");
    assert!(
        String::from_utf8_lossy(&version.stdout).starts_with("grade "),
        "{version:?}"
    );
    let output = std::process::Command::new(&grade)
        .arg(program("m/correct_plain.py"))
        .args(["-a", "m", "--case", "used-number"])
        .logged_output()
        .expect("grade from the wheel grades");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
}
