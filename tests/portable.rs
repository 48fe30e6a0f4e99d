//! The portable build (scripts/build-portable) starts on Linux systems older than the build
//! machine: its ELF asks for glibc 2.17 at most, where the normal `cargo build` asks for the
//! build machine's (2.34 and newer), and it still grades. With an old root filesystem
//! (scripts/old-glibc-root: Debian 11's glibc 2.31, as Ubuntu 20.04's) it is started there.
//! The portable binary is target/portable/<arch>/grade or GRADE_PORTABLE_BIN; without it these
//! tests say they were skipped, unless GRADE_PORTABLE_REQUIRED=1 (the release workflow).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::path::{Path, PathBuf};
use std::process::Command;

use grade::elf::{libc_needs_of, GlibcVersion, PORTABLE_GLIBC};
use support::*;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The portable binary, or None (with the skip said) when it was not built.
fn portable() -> Option<PathBuf> {
    let path = std::env::var_os("GRADE_PORTABLE_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            root()
                .join("target/portable")
                .join(std::env::consts::ARCH)
                .join("grade")
        });
    if path.is_file() {
        return Some(path);
    }
    if std::env::var("GRADE_PORTABLE_REQUIRED").is_ok_and(|v| v == "1") {
        panic!(
            "GRADE_PORTABLE_REQUIRED=1 but {} is missing: run scripts/build-portable",
            path.display()
        );
    }
    // Not under CI=true either: .ci/run does not build it (a zig build of the whole crate
    // does not fit its budget); the release workflow builds it and requires these tests.
    eprintln!(
        "skipped: no portable binary at {} (scripts/build-portable builds it)",
        path.display()
    );
    None
}

/// The old root filesystem made by scripts/old-glibc-root, or None (skip said).
fn old_root() -> Option<PathBuf> {
    let path = std::env::var_os("GRADE_OLD_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target/old-glibc-root"));
    if loader(&path).is_some() {
        return Some(path);
    }
    eprintln!(
        "skipped: no old root filesystem at {} (scripts/old-glibc-root makes one)",
        path.display()
    );
    None
}

/// The old root's dynamic loader, its absolute symlink (`/lib64/ld-linux-x86-64.so.2 ->
/// /lib/x86_64-linux-gnu/ld-2.31.so`) followed inside the root, not on the host.
fn loader(old: &Path) -> Option<PathBuf> {
    ["lib64/ld-linux-x86-64.so.2", "lib/ld-linux-aarch64.so.1"]
        .iter()
        .map(|l| old.join(l))
        .filter(|l| l.symlink_metadata().is_ok())
        .map(|l| match std::fs::read_link(&l) {
            Ok(target) if target.is_absolute() => {
                old.join(target.strip_prefix("/").unwrap_or(&target))
            }
            Ok(target) => l.parent().unwrap_or(old).join(target),
            Err(_) => l,
        })
        .find(|l| l.is_file())
}

/// The old root's glibc release, from its libc.so.6's own version table name (libc-2.31.so).
const OLD_ROOT_GLIBC: GlibcVersion = GlibcVersion(2, 31);

#[test]
fn the_normal_build_asks_for_a_newer_glibc_and_packaging_it_says_so() {
    // The check can fail: the test build of grade (cargo's, on a machine with glibc 2.34 or
    // newer) asks for __libc_start_main@GLIBC_2.34 and so does not start on Ubuntu 20.04.
    let normal = Path::new(env!("CARGO_BIN_EXE_grade"));
    let needs = libc_needs_of(normal).expect("the test build is an ELF file");
    assert!(
        needs.interpreter.is_some(),
        "the normal build is dynamic: {needs:?}"
    );
    assert!(
        !needs.starts_with(PORTABLE_GLIBC),
        "the normal build asks for {} (a build machine older than glibc 2.18?)",
        needs.describe()
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let output = grade()
        .args(["gradescope", "package", "-a", "nim", "-o"])
        .arg(dir.path().join("autograder.zip"))
        .logged_output()
        .expect("grade runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("note: this grade binary needs glibc")
            && stderr.contains("scripts/build-portable"),
        "{stderr}"
    );
}

#[test]
fn the_portable_binary_asks_for_glibc_2_17_at_most_and_grades() {
    let Some(portable) = portable() else { return };
    let needs = libc_needs_of(&portable).expect("the portable binary is an ELF file");
    assert!(
        needs.starts_with(PORTABLE_GLIBC),
        "{} asks for {}, more than glibc {PORTABLE_GLIBC}",
        portable.display(),
        needs.describe()
    );
    let version = Command::new(&portable)
        .arg("--version")
        .logged_output()
        .expect("the portable binary starts");
    assert!(
        String::from_utf8_lossy(&version.stdout).starts_with("grade "),
        "{version:?}"
    );
    // It grades (sandbox and all) and packages itself for Gradescope without the note.
    if have("gcc") {
        let output = Command::new(&portable)
            .arg(program("nim/correct_c.c"))
            .args(["-a", "nim", "--format", "json"])
            .logged_output()
            .expect("the portable binary grades");
        assert_eq!(
            output.status.code(),
            Some(0),
            "stdout {}\nstderr {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let output = Command::new(&portable)
        .args(["gradescope", "package", "-a", "nim", "-o"])
        .arg(dir.path().join("autograder.zip"))
        .logged_output()
        .expect("the portable binary packages");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        !String::from_utf8_lossy(&output.stderr).contains("note: this grade binary needs"),
        "{output:?}"
    );
}

/// Runs `binary args` with the old root's C library: chrooted into it as root, else through
/// its dynamic loader (the program's files stay the host's; the C library is the old one).
fn in_old_root(old: &Path, binary: &Path, args: &[&str]) -> std::process::Output {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let copy = old.join("grade-under-test");
        std::fs::copy(binary, &copy).expect("copy the binary into the old root");
        let output = Command::new("chroot")
            .arg(old)
            .arg("/grade-under-test")
            .args(args)
            .logged_output()
            .expect("chroot runs");
        let _ = std::fs::remove_file(&copy);
        return output;
    }
    Command::new(loader(old).expect("the old root's loader"))
        .arg("--library-path")
        .arg(old.join(format!("lib/{}-linux-gnu", std::env::consts::ARCH)))
        .arg(binary)
        .args(args)
        .logged_output()
        .expect("the old loader runs")
}

#[test]
fn in_an_old_root_filesystem_the_portable_binary_starts_and_the_normal_one_does_not() {
    let Some(old) = old_root() else { return };
    let normal = Path::new(env!("CARGO_BIN_EXE_grade"));
    let output = in_old_root(&old, normal, &["--version"]);
    assert_ne!(output.status.code(), Some(0), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("GLIBC_2.3"),
        "the old glibc refuses the normal build: {output:?}"
    );
    assert!(!libc_needs_of(normal)
        .expect("ELF")
        .starts_with(OLD_ROOT_GLIBC));
    let Some(portable) = portable() else { return };
    let output = in_old_root(&old, &portable, &["--version"]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(
        String::from_utf8_lossy(&output.stdout).starts_with("grade "),
        "{output:?}"
    );
    let output = in_old_root(&old, &portable, &["list"]);
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("nim"),
        "{output:?}"
    );
}
