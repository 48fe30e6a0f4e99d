//! Issue 31, attacks 1, 4, 8 and 9: what runs can learn from each other and from the grader,
//! through the real binary, as the test's user and again as `nobody`:
//! * a hidden case's input signalled to a visible case running beside it (byte-range locks on
//!   a system binary every run can open, abstract socket names in a shared network namespace);
//! * `grade run -- ./prog` listing the directory it was started from;
//! * eight processes of 60 MiB under a 64 MiB limit without a memory cgroup;
//! * the grader's command line and environment (`--course-seed`) read from `/proc` where the
//!   runs have no pid namespace.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::support::LoggedOutput;
use crate::{c_program, grade_as, python, run_raw, serial, support, users, As};

/// A directory `nobody` can read and list.
fn open_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    dir
}

/// An instructor's case directory for nim with `cases` (name, hidden, input line), each
/// ending the input with end of file, blessed with the real binary; readable by everyone.
fn course(dir: &Path, cases: &[(&str, bool, &str)]) -> PathBuf {
    let root = dir.join("course");
    let nim = root.join("cases/nim");
    std::fs::create_dir_all(&nim).expect("mkdir");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        repo.join("cases/nim/assignment.yaml"),
        nim.join("assignment.yaml"),
    )
    .expect("copy assignment.yaml");
    for (name, hidden, input) in cases {
        let visibility = if *hidden { "visibility: hidden\n" } else { "" };
        std::fs::write(
            nim.join(format!("{name}.yaml")),
            format!(
                "name: {name}\ndescription: a probe\npoints: 5\n{visibility}\
                 end_of_input: close\ninput: [\"{input}\"]\n"
            ),
        )
        .expect("write case");
    }
    let bless = std::process::Command::new(crate::grade_binary())
        .args(["bless", "nim", "--root"])
        .arg(&root)
        .logged_output()
        .expect("bless runs");
    assert!(
        bless.status.success(),
        "{}",
        String::from_utf8_lossy(&bless.stderr)
    );
    chmod_readable(dir);
    root
}

fn chmod_readable(path: &Path) {
    std::process::Command::new("chmod")
        .args(["-R", "a+rX"])
        .arg(path)
        .status()
        .expect("chmod");
}

/// A submission folder holding tests/programs/runner/`program` as `name`.
fn submission(dir: &Path, program: &str, name: &str) -> PathBuf {
    let folder = dir.join("submission");
    std::fs::create_dir_all(&folder).expect("mkdir");
    let file = folder.join(name);
    std::fs::copy(support::program("runner").join(program), &file).expect("copy");
    chmod_readable(dir);
    file
}

/// `grade FILE -a nim --cases ROOT --format FORMAT --jobs 2` as `who`: its stdout.
fn grade_report(who: As, file: &Path, root: &Path, format: &str, extra: &[&str]) -> String {
    let out = grade_as(who)
        .arg(file)
        .args(["-a", "nim", "--jobs", "2", "--format", format, "--cases"])
        .arg(root)
        .args(extra)
        .logged_output()
        .expect("grade runs");
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    // (The text report shows spaces in output as `·`.)
    assert!(
        report.contains("scan done") || report.contains("scan·done"),
        "{who:?}: the probes did not run:\n{report}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    report
}

#[test]
fn a_hidden_cases_input_never_reaches_a_visible_case() {
    let _g = serial();
    if !support::have("gcc") {
        return;
    }
    for who in users() {
        let dir = open_dir();
        // Two cases of one submission, graded with two jobs: the hidden one's input is the
        // secret, the visible one's output is in every report.
        let root = course(
            dir.path(),
            &[
                ("visible-probe", false, "public1"),
                ("hidden-probe", true, "zebra42"),
            ],
        );
        let file = submission(dir.path(), "side_channel.c", "nim.c");
        for format in ["json", "text"] {
            let report = grade_report(who, &file, &root, format, &[]);
            assert!(
                !report.contains("zebra42"),
                "{who:?}: the hidden input reached the {format} report:\n{report}"
            );
        }
    }
}

#[test]
fn concurrent_runs_share_no_lock_or_socket_name() {
    let _g = serial();
    if !support::have("gcc") {
        return;
    }
    for who in users() {
        let dir = open_dir();
        // Two visible cases side by side: nothing the one publishes reaches the other.
        let root = course(
            dir.path(),
            &[
                ("probe-alpha", false, "alpha1"),
                ("probe-bravo", false, "bravo2"),
            ],
        );
        let file = submission(dir.path(), "side_channel.c", "nim.c");
        let report = grade_report(who, &file, &root, "json", &[]);
        assert!(
            report.matches("scan done").count() >= 2,
            "{who:?}: both probes' output is in the report:\n{report}"
        );
        for channel in ["LOCK-LEAK", "OFD-LEAK", "NAME-LEAK"] {
            assert!(
                !report.contains(channel),
                "{who:?}: {channel}: one run read what the other published:\n{report}"
            );
        }
    }
}

#[test]
fn grade_run_mounts_the_program_not_the_directory_it_was_started_from() {
    let _g = serial();
    let Some(lister) = c_program("list_start.c") else {
        return;
    };
    for who in users() {
        // A course directory: hidden cases and students' folders, and the program copied in.
        let start = open_dir();
        let hidden = start.path().join("hidden-cases");
        let student = start.path().join("students/alice");
        std::fs::create_dir_all(&hidden).expect("mkdir");
        std::fs::create_dir_all(&student).expect("mkdir");
        std::fs::write(hidden.join("secret.yaml"), "input: [zebra42]\n").expect("write");
        std::fs::write(student.join("nim.py"), "print('alice')\n").expect("write");
        std::fs::copy(&lister, start.path().join("lister")).expect("copy");
        chmod_readable(start.path());
        let out = grade_as(who)
            .current_dir(start.path())
            .args(["run", "--json", "--", "./lister"])
            .arg(start.path())
            .logged_output()
            .expect("grade runs");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{who:?}: no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let t = crate::text(&json);
        assert!(t.contains("listing done"), "{who:?}: {json}");
        for name in [
            "hidden-cases",
            "students",
            "secret.yaml",
            "zebra42",
            "alice",
        ] {
            assert!(
                !t.contains(name),
                "{who:?}: the run saw {name} where grade was started:\n{t}"
            );
        }
        // The program itself ran from the run's working directory.
        assert!(t.contains("ENTRY ./lister"), "{who:?}: {t}");
    }
}

#[test]
fn the_memory_limit_holds_for_the_whole_tree_without_cgroups() {
    let _g = serial();
    let Some(program) = c_program("memory_tree.c") else {
        return;
    };
    for who in users() {
        let out = run_raw(
            who,
            &[program.display().to_string()],
            &["--memory-limit", "64"],
            &[("GRADE_NO_CGROUP", "1")],
        );
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{who:?}: no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let t = crate::text(&json);
        assert!(
            !t.contains("held 480 MiB"),
            "{who:?}: 8 × 60 MiB held under a 64 MiB limit: {json}"
        );
        assert_eq!(json["ending"], "memory-limit", "{who:?}: {json}");
        // The report says what the limit covered.
        let layer = json["sandbox"]
            .as_array()
            .and_then(|layers| layers.iter().find(|l| l["name"] == "memory limit"))
            .cloned()
            .unwrap_or_default();
        let detail = layer["detail"].as_str().unwrap_or("");
        assert!(
            detail.contains("whole tree") && detail.contains("accounting"),
            "{who:?}: {layer}"
        );
    }
}

#[test]
fn the_graders_command_line_and_environment_hold_no_secret_without_a_pid_namespace() {
    let _g = serial();
    if python().is_none() {
        return;
    }
    // What a student's program does where runs share the grader's /proc (Docker's default
    // seccomp profile refuses namespaces): every process's command line and environment.
    let scan = "import os\n\
        for pid in os.listdir('/proc'):\n\
        \x20   if not pid.isdigit():\n\
        \x20       continue\n\
        \x20   for name in ('cmdline', 'environ'):\n\
        \x20       try:\n\
        \x20           words = open('/proc/%s/%s' % (pid, name), 'rb').read().split(b'\\0')\n\
        \x20       except OSError:\n\
        \x20           continue\n\
        \x20       for i, w in enumerate(words):\n\
        \x20           if w.startswith(b'--course-seed') or b'COURSE_SEED=' in w:\n\
        \x20               print('SEED', name, w, words[i + 1] if i + 1 < len(words) else b'')\n\
        print('scan done')\n";
    for who in users() {
        let dir = open_dir();
        let file = dir.path().join("nim.py");
        std::fs::write(&file, scan).expect("write");
        chmod_readable(dir.path());
        for (args, env) in [
            (vec!["--course-seed", "987654321"], None),
            (vec!["--course-seed=987654321"], None),
            (vec![], Some("987654321")),
        ] {
            let mut grade = grade_as(who);
            grade
                .arg(&file)
                .args(["-a", "nim", "--case", "error-yes-no", "--format", "json"])
                .args(&args)
                .env("GRADE_DISABLE", "namespaces");
            if let Some(seed) = env {
                grade.env("GRADE_COURSE_SEED", seed);
            }
            let out = grade.logged_output().expect("grade runs");
            let report = String::from_utf8_lossy(&out.stdout);
            assert!(
                report.contains("scan done"),
                "{who:?} {args:?}: the scan did not run:\n{report}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                !report.contains("987654321"),
                "{who:?} {args:?} {env:?}: the course seed was read from /proc:\n{report}"
            );
        }
    }
}
