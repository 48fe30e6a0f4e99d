//! The build cache, through the real `grade` binary: grading an unchanged C++ submission again
//! reuses its build (the report says so), a changed source is built again, `--no-cache` always
//! builds, and a submission can neither read nor write the cache.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::path::Path;

use support::{grade_json_env, have, program};

const NOTE: &str = "the cached build was used";

/// Whether the report carries the cached-build note.
fn from_cache(report: &serde_json::Value) -> bool {
    report["notes"].as_array().is_some_and(|notes| {
        notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains(NOTE)))
    })
}

/// The cache is on where runs cannot reach it: as root (a uid per run) or with Landlock.
fn cache_expected() -> bool {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    // SAFETY: asks for the Landlock ABI version (LANDLOCK_CREATE_RULESET_VERSION); no memory.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32,
        )
    };
    let landlock = abi > 0;
    if !root && !landlock {
        eprintln!("skipped: neither root nor Landlock here, so the build cache is off");
    }
    root || landlock
}

fn cache_env(dir: &Path) -> [(&'static str, String); 1] {
    [("XDG_CACHE_HOME", dir.display().to_string())]
}

#[test]
fn an_unchanged_submission_reuses_its_build_a_changed_one_or_no_cache_builds_again() {
    if !have("g++") || !cache_expected() {
        return;
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let env = cache_env(cache.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let work = tempfile::tempdir().expect("tempdir");
    let submission = work.path().join("nim.cpp");
    std::fs::copy(program("nim/correct_getline.cpp"), &submission).expect("copy");
    let case = ["--case", "example-execution"];

    let (code, first) = grade_json_env(&submission, "nim", &case, &env);
    assert_eq!(code, 0, "{first}");
    assert!(
        !from_cache(&first),
        "a first grading builds: {}",
        first["notes"]
    );
    let (code, again) = grade_json_env(&submission, "nim", &case, &env);
    assert_eq!(code, 0, "{again}");
    assert!(from_cache(&again), "unchanged: {}", again["notes"]);
    assert_eq!(first["cases"][0]["score"], again["cases"][0]["score"]);

    let (_, bypassed) = grade_json_env(
        &submission,
        "nim",
        &[&case[..], &["--no-cache"]].concat(),
        &env,
    );
    assert!(!from_cache(&bypassed), "--no-cache: {}", bypassed["notes"]);

    // The same file name with another program inside (the computer's winning line swapped):
    // built again, and graded as what it now is.
    std::fs::copy(program("nim/buggy_winner_swapped.cpp"), &submission).expect("copy");
    let (code, changed) = grade_json_env(&submission, "nim", &case, &env);
    assert!(!from_cache(&changed), "changed: {}", changed["notes"]);
    assert_eq!(code, 1, "the swapped winner loses points: {changed}");
}

#[test]
fn a_submission_can_neither_read_nor_write_the_build_cache() {
    if !have("gcc") || !cache_expected() {
        return;
    }
    let cache = tempfile::tempdir().expect("tempdir");
    let env = cache_env(cache.path());
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let builds = cache.path().join("grade/builds");
    // A first build fills the cache with an entry to look for.
    let (_, _) = grade_json_env(
        &program("nim/correct_c.c"),
        "nim",
        &["--case", "error-yes-no"],
        &env,
    );
    let entries: Vec<_> = std::fs::read_dir(&builds)
        .expect("the cache directory exists")
        .filter_map(Result::ok)
        .collect();
    assert!(!entries.is_empty(), "a build was stored");
    let entry = entries[0].path();
    // A program that tries to list the cache, read the stored key, and add a file, and says
    // on stderr what it could do.
    let work = tempfile::tempdir().expect("tempdir");
    let submission = work.path().join("snoop.c");
    std::fs::write(
        &submission,
        format!(
            r#"#include <dirent.h>
#include <stdio.h>
int main(void) {{
    DIR *d = opendir("{builds}");
    FILE *k = fopen("{entry}/key", "r");
    FILE *w = fopen("{builds}/planted", "w");
    fprintf(stderr, "list:%s read:%s write:%s\n", d ? "yes" : "no", k ? "yes" : "no",
            w ? "yes" : "no");
    return 0;
}}
"#,
            builds = builds.display(),
            entry = entry.display()
        ),
    )
    .expect("write");
    // Graded twice: built fresh, then run from the cache; neither run reaches the cache.
    for _ in 0..2 {
        let (_, report) = grade_json_env(&submission, "nim", &["--case", "error-yes-no"], &env);
        let stderr = report["cases"][0]["stderr"].as_str().unwrap_or("");
        assert_eq!(stderr, "list:no read:no write:no\n", "{report}");
    }
    assert!(!builds.join("planted").exists());
}
