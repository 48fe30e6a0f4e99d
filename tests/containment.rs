//! Containment against a determined student, through the real `grade` binary, as root and as
//! an unprivileged user.
//!
//! Each attack runs once as the test's own user and, when that is root and `setpriv` exists,
//! once more with `grade` itself started as `nobody` (how students self-check and how most CI
//! runners run). Hostile programs live in tests/programs/runner/. A missing toolchain skips a
//! test, except under CI=true where it fails.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

#[path = "containment/isolation.rs"]
mod isolation;
#[path = "containment/layouts.rs"]
mod layouts;
#[path = "containment/output.rs"]
mod output;
#[path = "containment/reports.rs"]
mod reports;
mod support;
use support::LoggedOutput;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::Duration;

static LOCK: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Who starts `grade`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum As {
    /// The test's own user (root here, usually).
    Me,
    /// `setpriv --reuid=nobody --regid=nogroup --clear-groups`.
    Nobody,
}

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The users to run each attack as.
fn users() -> Vec<As> {
    let mut v = vec![As::Me];
    if is_root() {
        if Path::new("/usr/bin/setpriv").exists() || Path::new("/bin/setpriv").exists() {
            v.push(As::Nobody);
        } else {
            println!("skipped: setpriv not found, unprivileged runs not tested");
        }
    }
    v
}

fn grade_binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("grade")
}

/// A `grade` command started as `who`.
fn grade_as(who: As) -> Command {
    match who {
        As::Me => Command::new(grade_binary()),
        As::Nobody => as_nobody(&grade_binary()),
    }
}

/// `program` started as `nobody` in an unprivileged user's own environment: `HOME` and
/// `TMPDIR` a folder of its own, as a student's account gives them (root's `HOME` is closed
/// to it). With this, a root run of these tests is also their run by an unprivileged user,
/// and .ci/run does not start this binary again as `nobody` (docs/ci.md, "The nobody pass").
fn as_nobody(program: &Path) -> Command {
    static HOME: OnceLock<PathBuf> = OnceLock::new();
    let home = HOME.get_or_init(|| {
        let dir = support::process_temp_dir("grade-containment-nobody-");
        // SAFETY: chown of a folder this process just made, to nobody:nogroup (65534).
        let path = std::ffi::CString::new(dir.as_os_str().as_encoded_bytes()).expect("path");
        assert_eq!(
            unsafe { libc::chown(path.as_ptr(), 65534, 65534) },
            0,
            "chown"
        );
        dir
    });
    let mut c = Command::new("setpriv");
    c.args(["--reuid=nobody", "--regid=nogroup", "--clear-groups"])
        .arg(program)
        .env("HOME", home)
        .env("TMPDIR", home);
    c
}

/// A world-readable directory holding the compiled hostile programs.
fn bin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| support::process_temp_dir("grade-containment-tests-"))
}

/// Compiles tests/programs/runner/`file` (C) once; None (skipped) without gcc.
fn c_program(file: &str) -> Option<PathBuf> {
    static BUILT: Mutex<Vec<String>> = Mutex::new(Vec::new());
    if !support::have("gcc") {
        return None;
    }
    let out = bin_dir().join(file.trim_end_matches(".c"));
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if !built.iter().any(|f| f == file) {
        let ok = Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&out)
            .arg(support::program("runner").join(file))
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "compiling {file} failed");
        built.push(file.to_string());
    }
    Some(out)
}

/// A copy of tests/programs/`relative` (file or directory) that `nobody` can read.
fn readable_copy(relative: &str) -> PathBuf {
    let from = support::program(relative);
    let to = bin_dir().join(relative.replace('/', "_"));
    if from.is_dir() {
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in std::fs::read_dir(&from).expect("read dir").flatten() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    } else {
        std::fs::copy(&from, &to).expect("copy");
    }
    Command::new("chmod")
        .args(["-R", "a+rX"])
        .arg(&to)
        .status()
        .expect("chmod");
    to
}

/// `grade run --json` as `who` on `command`, with the hostile programs readable.
fn run_json(
    who: As,
    command: &[String],
    extra: &[&str],
    env: &[(&str, &str)],
) -> serde_json::Value {
    let out = run_raw(who, command, extra, env);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{who:?}: grade run did not print JSON ({e}); status {:?}\nstdout: {}\nstderr: {}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

fn run_raw(who: As, command: &[String], extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = grade_as(who);
    cmd.args(["run", "--json", "--readable"])
        .arg(bin_dir())
        .args(extra)
        .arg("--")
        .args(command)
        .envs(env.iter().copied());
    cmd.logged_output().expect("grade runs")
}

fn text(json: &serde_json::Value) -> String {
    json["terminal_text"].as_str().unwrap_or("").to_string()
}

fn isolation(mode: &[&str]) -> Option<Vec<String>> {
    let bin = c_program("isolation.c")?;
    let mut v = vec![bin.display().to_string()];
    v.extend(mode.iter().map(|s| s.to_string()));
    Some(v)
}

#[test]
fn inherited_descriptors_do_not_reach_the_program() {
    let _g = serial();
    let Some(cmd) = isolation(&["fds"]) else {
        return;
    };
    for who in users() {
        let dir = tempfile::tempdir().expect("tempdir");
        let secret = dir.path().join("secret");
        let gradebook = dir.path().join("gradebook.csv");
        std::fs::write(&secret, "TOP-SECRET-FD\n").expect("write");
        std::fs::write(&gradebook, "name,score\n").expect("write");
        // The grader is started with fd 7 reading a secret and fd 8 appending to a gradebook,
        // as `grade … 7<secret 8>>gradebook.csv` would.
        let mut inner = grade_as(who);
        inner
            .args(["run", "--json", "--readable"])
            .arg(bin_dir())
            .arg("--")
            .args(&cmd);
        let script = format!(
            "exec \"$@\" 7<'{}' 8>>'{}'",
            secret.display(),
            gradebook.display()
        );
        let mut sh = Command::new("/bin/sh");
        sh.arg("-c").arg(script).arg("sh").arg(inner.get_program());
        sh.args(inner.get_args());
        let out = sh.logged_output().expect("sh runs grade");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{who:?}: no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        let t = text(&json);
        assert!(t.contains("fds done"), "{who:?}: {json}");
        assert!(
            !t.contains("LEAK"),
            "{who:?}: an inherited descriptor got through: {t}"
        );
        assert!(
            !t.contains("open fd"),
            "{who:?}: descriptors above 2 are open: {t}"
        );
        assert_eq!(
            std::fs::read_to_string(&gradebook).expect("read"),
            "name,score\n",
            "{who:?}"
        );
    }
}

#[test]
fn shared_memory_does_not_cross_runs_or_outlive_them() {
    let _g = serial();
    let key = (std::process::id() % 100_000 + 700_000).to_string();
    let (Some(create), Some(find)) = (
        isolation(&["shm-create", &key]),
        isolation(&["shm-find", &key]),
    ) else {
        return;
    };
    for who in users() {
        let created = run_json(who, &create, &[], &[]);
        assert!(text(&created).contains("created"), "{who:?}: {created}");
        let found = run_json(who, &find, &[], &[]);
        assert!(text(&found).contains("shm absent"), "{who:?}: {found}");
        // Nothing left behind in the grader's own IPC namespace.
        let hex = format!("0x{:08x}", key.parse::<u32>().unwrap_or(0));
        let list = Command::new("ipcs").arg("-m").logged_output();
        if let Ok(list) = list {
            let list = String::from_utf8_lossy(&list.stdout);
            assert!(!list.contains(&hex), "{who:?}: segment left behind: {list}");
        }
    }
}

#[test]
fn posix_shared_memory_works_in_a_run_and_does_not_cross_runs() {
    let _g = serial();
    let name = format!("/grade-posix-{}", std::process::id());
    let (Some(create), Some(find)) = (
        isolation(&["posix-create", &name]),
        isolation(&["posix-find", &name]),
    ) else {
        return;
    };
    let host_files = [
        format!("/dev/shm{name}"),
        format!("/dev/shm/sem.{}", name.trim_start_matches('/')),
    ];
    for who in users() {
        // Planted in the grader's own /dev/shm: no run may see it either.
        let planted = Command::new(&find[0])
            .args(["posix-create", &name])
            .logged_output()
            .expect("isolation runs");
        assert!(
            String::from_utf8_lossy(&planted.stdout).contains("posix works"),
            "{}",
            String::from_utf8_lossy(&planted.stdout)
        );
        let seen = run_json(who, &find, &[], &[]);
        assert!(text(&seen).contains("posix shm absent"), "{who:?}: {seen}");
        assert!(text(&seen).contains("posix sem absent"), "{who:?}: {seen}");
        for file in &host_files {
            std::fs::remove_file(file).expect("planted object");
        }
        // A run makes and uses its own, which neither the next run nor the grader sees.
        let created = run_json(who, &create, &[], &[]);
        assert!(text(&created).contains("posix works"), "{who:?}: {created}");
        let found = run_json(who, &find, &[], &[]);
        assert!(
            text(&found).contains("posix shm absent"),
            "{who:?}: {found}"
        );
        assert!(
            text(&found).contains("posix sem absent"),
            "{who:?}: {found}"
        );
        for file in &host_files {
            assert!(!Path::new(file).exists(), "{who:?}: {file} left behind");
        }
    }
}

#[test]
fn keys_do_not_cross_runs() {
    let _g = serial();
    let (Some(add), Some(find)) = (isolation(&["key-add"]), isolation(&["key-find"])) else {
        return;
    };
    for who in users() {
        let before = run_uid_key_users();
        let added = run_json(who, &add, &[], &[]);
        assert!(text(&added).contains("added"), "{who:?}: {added}");
        let found = run_json(who, &find, &[], &[]);
        assert!(text(&found).contains("key absent"), "{who:?}: {found}");
        if who == As::Me && is_root() {
            // The per-uid keyrings of a run's uid belong to its user namespace: none is left
            // in the kernel's list after the run.
            // (Other graders on the machine may hold keys of their own run uids meanwhile:
            // wait for the kernel's garbage collection, then compare.)
            let mut left = Vec::new();
            for _ in 0..30 {
                std::thread::sleep(Duration::from_millis(100));
                left = run_uid_key_users()
                    .into_iter()
                    .filter(|u| !before.contains(u))
                    .collect();
                if left.is_empty() {
                    break;
                }
            }
            assert!(left.is_empty(), "key users left behind: {left:?}");
        }
    }
}

/// The uids in /proc/key-users in the range of root's per-run uids (2^30 and up).
fn run_uid_key_users() -> Vec<u64> {
    std::fs::read_to_string("/proc/key-users")
        .unwrap_or_default()
        .lines()
        // Our key-add run holds a user key besides its keyrings: a bare keyring (one key)
        // is some other run's session keyring on its way out.
        .filter(|l| {
            l.split_whitespace()
                .nth(1)
                .and_then(|n| n.parse::<u32>().ok())
                .is_some_and(|n| n >= 2)
        })
        .filter_map(|l| l.split(':').next()?.trim().parse::<u64>().ok())
        .filter(|&u| u >= 1 << 30)
        .collect()
}

#[test]
fn abstract_socket_names_are_not_shared() {
    use std::os::linux::net::SocketAddrExt;
    let _g = serial();
    let name = format!("grade-probe-{}", std::process::id());
    let Some(cmd) = isolation(&["unix-names", &name]) else {
        return;
    };
    let addr = std::os::unix::net::SocketAddr::from_abstract_name(name.as_bytes()).expect("addr");
    let _listener = std::os::unix::net::UnixListener::bind_addr(&addr).expect("bind");
    for who in users() {
        let json = run_json(who, &cmd, &[], &[]);
        let t = text(&json);
        assert!(t.contains("names done"), "{who:?}: {json}");
        assert!(
            !t.contains("LEAK-NAME"),
            "{who:?}: the grader's socket name is visible: {t}"
        );
    }
}

#[test]
fn no_terminal_but_its_own_can_be_opened() {
    let _g = serial();
    let Some(cmd) = isolation(&["ttys"]) else {
        return;
    };
    for who in users() {
        let json = run_json(who, &cmd, &[], &[]);
        let t = text(&json);
        assert!(t.contains("ttys done"), "{who:?}: {json}");
        assert!(!t.contains("OPENED"), "{who:?}: a terminal was opened: {t}");
        let json = run_json(who, &cmd, &["--terminal"], &[]);
        let t = text(&json);
        assert!(t.contains("ttys done"), "{who:?}: {json}");
        for line in t.lines().filter(|l| l.starts_with("OPENED")) {
            // /dev/tty is the run's own terminal; /dev/pts/N may be its own slave.
            assert!(
                line == "OPENED /dev/tty" || line.starts_with("OPENED /dev/pts/"),
                "{who:?}: {line}"
            );
        }
        assert!(
            t.lines()
                .filter(|l| l.starts_with("OPENED /dev/pts/"))
                .count()
                <= 1,
            "{who:?}: another terminal was opened: {t}"
        );
    }
}

/// Processes whose environment carries `marker` (as root: all of them).
fn processes_with(marker: &str) -> Vec<String> {
    let needle = format!("GRADE_TEST_MARKER={marker}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if let Ok(env) = std::fs::read(entry.path().join("environ")) {
            if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
                found.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
    }
    found
}

fn python() -> Option<String> {
    if !support::have("python3") {
        return None;
    }
    ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .map(str::to_string)
}

#[test]
fn a_double_forked_setsid_escapee_dies_with_the_run() {
    let _g = serial();
    let Some(py) = python() else { return };
    let script = readable_copy("runner/hostile.py");
    for who in users() {
        for no_cgroup in [false, true] {
            let marker = format!("containment-{}-{who:?}-{no_cgroup}", std::process::id());
            let env: &[(&str, &str)] = if no_cgroup {
                &[("GRADE_NO_CGROUP", "1")]
            } else {
                &[]
            };
            let json = run_json(
                who,
                &[
                    py.clone(),
                    script.display().to_string(),
                    "setsid-keeps-stdout".into(),
                ],
                &["--env", &format!("GRADE_TEST_MARKER={marker}")],
                env,
            );
            assert_eq!(json["ending"], "exited", "{who:?}: {json}");
            let left = processes_with(&marker);
            assert!(
                left.is_empty(),
                "{who:?} no_cgroup={no_cgroup}: survivors {left:?}"
            );
        }
    }
}

#[test]
fn the_process_limit_holds_unprivileged() {
    let _g = serial();
    let Some(py) = python() else { return };
    let script = readable_copy("runner/hostile.py");
    for who in users() {
        let json = run_json(
            who,
            &[py.clone(), script.display().to_string(), "fork-many".into()],
            &["--processes", "10"],
            &[("GRADE_NO_CGROUP", "1")],
        );
        let forked: usize = text(&json)
            .trim()
            .strip_prefix("forked ")
            .and_then(|n| n.parse().ok())
            .unwrap_or(usize::MAX);
        assert!(forked < 10, "{who:?}: {json}");
    }
}

#[test]
fn a_correct_java_program_gets_full_marks_unprivileged_and_without_cgroups() {
    let _g = serial();
    if !support::have("javac") || !support::have("java") {
        return;
    }
    let submission = readable_copy("silver_dollar/correct_plain");
    for who in users() {
        let out = grade_as(who)
            .arg(&submission)
            .args(["--assignment", "silver_dollar", "--format", "json"])
            .env("GRADE_NO_CGROUP", "1")
            .logged_output()
            .expect("grade runs");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{who:?}: no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        assert_eq!(
            report["score"],
            report["max_score"],
            "{who:?}: {:#?}",
            support::lost_points(&report)
        );
        assert_eq!(out.status.code(), Some(0), "{who:?}");
    }
}

/// Every report format of grading `submission` for nim: (format, bytes).
fn all_formats(who: As, submission: &Path) -> Vec<(&'static str, Vec<u8>)> {
    ["text", "json", "junit", "gradescope", "classroom50"]
        .into_iter()
        .map(|format| {
            let out = grade_as(who)
                .arg(submission)
                .args(["--assignment", "nim", "--format", format])
                .args(["--case", "computer-first-computer-wins"])
                .logged_output()
                .expect("grade runs");
            assert!(
                out.status.code().is_some_and(|c| c == 1),
                "{who:?} {format}: {:?} {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            );
            let mut bytes = out.stdout;
            bytes.extend_from_slice(&out.stderr);
            (format, bytes)
        })
        .collect()
}

#[test]
fn student_text_cannot_reach_a_terminal_raw_or_blow_up_a_report() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    let dir = tempfile::Builder::new()
        .prefix("grade-escapes-")
        .tempdir()
        .expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // The file name is the student's too.
    let submission = dir.path().join("evil\x1b[2J\x1b[H.py");
    std::fs::copy(support::program("runner/escapes.py"), &submission).expect("copy");
    std::fs::set_permissions(&submission, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    for who in users() {
        for (format, bytes) in all_formats(who, &submission) {
            assert!(
                !bytes.contains(&0x1b),
                "{who:?} {format}: a raw ESC reached the report"
            );
            assert!(
                !String::from_utf8_lossy(&bytes).contains('\u{9b}'),
                "{who:?} {format}: a raw CSI reached the report"
            );
            assert!(
                bytes.len() < 2 << 20,
                "{who:?} {format}: {} bytes for a case set quoting one 1 MiB line",
                bytes.len()
            );
        }
    }
}

#[test]
fn compiler_messages_are_escaped() {
    let _g = serial();
    if !support::have("gcc") {
        return;
    }
    let dir = tempfile::Builder::new()
        .prefix("grade-escapes-")
        .tempdir()
        .expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let submission = dir.path().join("broken.c");
    // gcc quotes the offending line, escape sequence included.
    std::fs::write(&submission, "int main() { \x1b[2J\x1b[HScore: 90/90 }\n").expect("write");
    std::fs::set_permissions(&submission, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    for who in users() {
        for (format, bytes) in all_formats(who, &submission) {
            assert!(
                !bytes.contains(&0x1b),
                "{who:?} {format}: a raw ESC from the compiler reached the report: {}",
                String::from_utf8_lossy(&bytes)
            );
        }
    }
}

#[test]
fn a_missing_layer_is_reported_at_the_top_or_refused() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    let submission = support::program("runner/py_input.py");
    {
        let who = As::Me;
        let out = grade_as(who)
            .arg(&submission)
            .args([
                "--assignment",
                "nim",
                "--case",
                "computer-first-computer-wins",
            ])
            .env("GRADE_DISABLE", "landlock")
            .env("NO_COLOR", "1")
            .logged_output()
            .expect("grade runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let second = text.lines().nth(1).unwrap_or("");
        assert!(
            second.starts_with("WARNING: the sandbox was incomplete")
                && second.contains("landlock"),
            "{text}"
        );
        let out = grade_as(who)
            .arg(&submission)
            .args(["--assignment", "nim", "--format", "json"])
            .args(["--case", "computer-first-computer-wins"])
            .env("GRADE_DISABLE", "landlock")
            .logged_output()
            .expect("grade runs");
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let landlock = json["sandbox"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|l| l["name"] == "landlock")
            .cloned()
            .unwrap_or_default();
        assert_eq!(landlock["active"], false, "{json}");
        assert_eq!(landlock["required"], true, "{json}");
        let out = grade_as(who)
            .arg(&submission)
            .args(["--assignment", "nim", "--require-sandbox"])
            .env("GRADE_DISABLE", "landlock")
            .logged_output()
            .expect("grade runs");
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("landlock"));
        let out = grade_as(who)
            .arg(&submission)
            .args([
                "--assignment",
                "nim",
                "--require-sandbox",
                "--format",
                "json",
            ])
            .args(["--case", "computer-first-computer-wins"])
            .logged_output()
            .expect("grade runs");
        assert_ne!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn no_copy_of_the_grader_runs_inside_a_grading() {
    let _g = serial();
    for who in users() {
        // A copy anywhere the program can execute (here: its own directory, as a submission
        // carrying the grader would have it).
        let student = support::reference_as_student("nim", &[]);
        std::fs::set_permissions(student.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let out = grade_as(who)
            .arg(student.path())
            .args(["--assignment", "nim", "--format", "json"])
            .logged_output()
            .expect("grade runs");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{who:?}: no JSON ({e}): {}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
        assert_eq!(
            report["score"], 0.0,
            "{who:?}: the grader's copy played: {report}"
        );
        assert!(
            report
                .to_string()
                .contains("refusing to run inside a grade sandbox"),
            "{who:?}: {report}"
        );
    }
}

/// A submission's runs share a prepared sandbox (its working directory, emptied between
/// them): a program that leaves files, an unreadable folder, an extended attribute, a mode
/// and times on its working directory finds none of them in its next run, and nothing of
/// the sandboxes is left once the grader has ended.
#[test]
fn nothing_passes_from_one_run_to_the_next_through_the_working_directory() {
    let _g = serial();
    if python().is_none() {
        return;
    }
    let script = readable_copy("runner/leaves_state.py");
    for who in users() {
        let tmp = tempfile::tempdir().expect("tempdir");
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o1777))
            .expect("chmod");
        let out = grade_as(who)
            .arg(&script)
            .args(["--assignment", "nim", "--format", "json"])
            .env("TMPDIR", tmp.path())
            .logged_output()
            .expect("grade runs");
        let report = String::from_utf8_lossy(&out.stdout);
        let clean = report.matches("nothing left by an earlier run").count();
        assert!(
            clean >= 10,
            "{who:?}: too few runs seen ({clean}): {report}"
        );
        assert!(
            !report.contains("LEFT BY AN EARLIER RUN"),
            "{who:?}: a run found what an earlier one left: {report}"
        );
        assert!(!report.contains("xattr refused"), "{who:?}: {report}");
        assert_eq!(run_dirs(tmp.path()), Vec::<PathBuf>::new(), "{who:?}");
    }
}

/// The run working directories (`grade-run-*`) under `dir`.
fn run_dirs(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("grade-run-"))
        })
        .collect()
}

#[test]
fn a_deep_tree_or_a_full_disk_is_capped_and_removed() {
    let _g = serial();
    let Some(py) = python() else { return };
    let script = readable_copy("runner/disk.py");
    for who in users() {
        // A private TMPDIR (on tmpfs when there is one: deep rmdirs are slow on some disks).
        let base = if Path::new("/dev/shm").is_dir() {
            tempfile::tempdir_in("/dev/shm")
        } else {
            tempfile::tempdir()
        }
        .expect("tempdir");
        std::fs::set_permissions(base.path(), std::fs::Permissions::from_mode(0o777))
            .expect("chmod");
        let tmp = base.path().display().to_string();
        // Without Landlock, whose path checks make each level slower the deeper it is.
        let json = run_json(
            who,
            &[py.clone(), script.display().to_string(), "deep-tree".into()],
            &["--cpu", "10", "--wall", "30"],
            &[("TMPDIR", &tmp), ("GRADE_DISABLE", "landlock")],
        );
        assert_eq!(json["ending"], "disk-limit", "{who:?}: {json}");
        assert!(
            run_dirs(base.path()).is_empty(),
            "{who:?}: the tree was left behind"
        );
        let json = run_json(
            who,
            &[py.clone(), script.display().to_string(), "fill".into()],
            &["--wall", "30"],
            &[("TMPDIR", &tmp)],
        );
        assert_eq!(json["ending"], "disk-limit", "{who:?}: {json}");
        assert!(
            run_dirs(base.path()).is_empty(),
            "{who:?}: files were left behind"
        );
    }
}

#[test]
fn a_symlinked_submission_or_entry_is_never_followed() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let secret = dir.path().join("hidden-case.yaml");
    std::fs::write(&secret, "TOP-SECRET-LINK\n").expect("write");
    // The submission itself is a link to the instructor's file.
    let link = dir.path().join("nim.py");
    std::os::unix::fs::symlink(&secret, &link).expect("symlink");
    let out = grade_as(As::Me)
        .arg(&link)
        .args(["--assignment", "nim"])
        .logged_output()
        .expect("grade runs");
    assert_eq!(out.status.code(), Some(2));
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(all.contains("symbolic link"), "{all}");
    assert!(!all.contains("TOP-SECRET-LINK"), "{all}");
    // A directory whose program is a link to it: not copied, so nothing to run.
    let sub = dir.path().join("student");
    std::fs::create_dir(&sub).expect("mkdir");
    std::os::unix::fs::symlink(&secret, sub.join("main.py")).expect("symlink");
    let out = grade_as(As::Me)
        .arg(&sub)
        .args(["--assignment", "nim", "--format", "json"])
        .logged_output()
        .expect("grade runs");
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!all.contains("TOP-SECRET-LINK"), "{all}");
    assert_ne!(out.status.code(), Some(0), "{all}");
}

#[test]
fn ctrl_c_kills_the_runs_cleans_up_and_keeps_finished_work() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    let base = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(base.path(), std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let class = base.path().join("class");
    for (name, program) in [("a", "m/correct_plain.py"), ("b", "runner/hostile.py")] {
        std::fs::create_dir_all(class.join(name)).expect("mkdir");
        std::fs::copy(support::program(program), class.join(name).join("main.py")).expect("copy");
    }
    // b: hostile.py without arguments fails at once; make it sleep instead (longer than a
    // run may sleep, so for real: shorter sleeps are cut short).
    std::fs::write(
        class.join("b/main.py"),
        "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(10**6)\ntime.sleep(10**6)\n",
    )
    .expect("write");
    Command::new("chmod")
        .args(["-R", "a+rwX"])
        .arg(base.path())
        .status()
        .expect("chmod");
    let tmp = base.path().join("tmp");
    std::fs::create_dir(&tmp).expect("mkdir");
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let out_dir = base.path().join("reports");
    for who in users() {
        let _ = std::fs::remove_dir_all(&out_dir);
        let mut child = grade_as(who)
            .arg(class.join("a"))
            .arg(class.join("b"))
            .args(["--assignment", "m", "--wall-limit", "60", "--output-dir"])
            .arg(&out_dir)
            .env("TMPDIR", &tmp)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("grade starts");
        // Wait until b is running (its working directory exists), then press Ctrl-C. (Each of b's
        // runs is stopped as blocked after 3 s, and b has 13 cases.)
        let started = std::time::Instant::now();
        while run_dirs(&tmp).is_empty() || !out_dir.join("students/a.txt").exists() {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{who:?}: b never started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(300));
        // As nobody, setpriv execs grade in place: the pid is grade's.
        // SAFETY: kill has no memory-safety preconditions.
        unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
        let stopped = std::time::Instant::now();
        let status = child.wait().expect("wait");
        assert!(
            stopped.elapsed() < Duration::from_secs(5),
            "{who:?}: slow to stop"
        );
        assert_eq!(status.code(), Some(130), "{who:?}");
        assert!(
            run_dirs(&tmp).is_empty(),
            "{who:?}: working directories left"
        );
        let summary = std::fs::read_to_string(out_dir.join("gradebook.csv")).expect("gradebook");
        assert!(summary.contains("full marks"), "{who:?}: {summary}");
        assert!(
            summary.contains("incomplete: interrupted"),
            "{who:?}: {summary}"
        );
        // Nothing of b survives: no process has its working directory under our TMPDIR.
        std::thread::sleep(Duration::from_millis(100));
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            if let Ok(cwd) = std::fs::read_link(entry.path().join("cwd")) {
                assert!(
                    !cwd.starts_with(&tmp),
                    "{who:?}: {:?} survived",
                    entry.path()
                );
            }
        }
        let cgroups = std::fs::read_dir("/sys/fs/cgroup/pids")
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(&format!("grade-run-{}-", child.id()))
            })
            .count();
        assert_eq!(cgroups, 0, "{who:?}: cgroup directories left");
    }
}

#[test]
fn parallel_terminal_runs_never_see_each_others_descriptors() {
    let _g = serial();
    let Some(cmd) = isolation(&["fds"]) else {
        return;
    };
    // Runs spawned at the same moment from several threads, half of them under a terminal:
    // none may inherit another's terminal or pipes.
    let handles: Vec<_> = (0..8)
        .map(|i| {
            let cmd = cmd.clone();
            std::thread::spawn(move || {
                let spec = grade::run::RunSpec {
                    command: cmd,
                    files: Vec::new(),
                    readable: vec![bin_dir().to_path_buf()],
                    env: Vec::new(),
                    input: Vec::new(),
                    end_of_input: grade::run::EndOfInput::Stop,
                    limits: grade::run::Limits::default(),
                    terminal: i % 2 == 0,
                    workdir: None,
                };
                let outcome = grade::run::run(&spec).expect("run");
                outcome.transcript.terminal_text()
            })
        })
        .collect();
    for h in handles {
        let text = h.join().expect("thread");
        assert!(text.contains("fds done"), "{text}");
        assert!(
            !text.contains("open fd"),
            "a descriptor leaked into a run: {text}"
        );
    }
}

#[test]
fn a_run_sees_only_its_own_processes_where_proc_can_be_private() {
    let _g = serial();
    for who in users() {
        let doctor = grade_as(who).arg("doctor").logged_output().expect("doctor");
        if !String::from_utf8_lossy(&doctor.stdout).contains("a private /dev/pts and /proc") {
            println!("skipped for {who:?}: no private /proc on this kernel (doctor says so)");
            continue;
        }
        let json = run_json(
            who,
            &[
                "/bin/sh".into(),
                "-c".into(),
                "ls /proc | grep -c '^[0-9]'; ls /dev/pts 2>&1 | head -1".into(),
            ],
            &[],
            &[],
        );
        let t = text(&json);
        let count: usize = t
            .lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or(usize::MAX);
        // sh, ls, grep (and a head): nothing of the grader or other runs.
        assert!(count <= 5, "{who:?}: {count} processes visible: {json}");
    }
}

/// The system's python3 for a run of the library's runner, or `None` (the test is skipped,
/// saying so; under `CI=true` a missing python3 fails).
fn system_python() -> Option<&'static str> {
    let found = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    if found.is_none() {
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("python3 is required under CI=true");
        }
        println!("skipped: python3 not found");
    }
    found
}

/// A run of `python -c CODE` with no input (end of input at once) and the default limits.
fn python_spec(python: &str, code: String) -> grade::run::RunSpec {
    grade::run::RunSpec {
        command: vec![python.to_string(), "-c".into(), code],
        files: Vec::new(),
        readable: Vec::new(),
        env: Vec::new(),
        input: Vec::new(),
        end_of_input: grade::run::EndOfInput::Close,
        limits: grade::run::Limits::default(),
        terminal: false,
        workdir: None,
    }
}

/// Two runs of one grader at the same time (as the cases of one submission run): one listens
/// on an abstract socket name, the other cannot connect to it, whether each run has its own
/// network namespace or the grader's runs share one (as root with Landlock ABI 6 and later).
#[test]
fn concurrent_runs_cannot_reach_each_others_abstract_sockets() {
    use grade::run::run;
    let _g = serial();
    let Some(python) = system_python() else {
        return;
    };
    let name = format!("grade-concurrent-{}", std::process::id());
    let listen = format!(
        "import socket, threading\ns = socket.socket(socket.AF_UNIX)\ns.bind('\\0{name}')\n\
         s.listen()\nprint('listening', flush=True)\nthreading.Event().wait(2)\n"
    );
    // Waits on an event, not time.sleep: sleeps are cut short, waits run for real.
    let connect = format!(
        "import socket, threading\nthreading.Event().wait(0.5)\nc = socket.socket(socket.AF_UNIX)\n\
         try:\n    c.connect('\\0{name}')\n    print('REACHED')\n\
         except OSError as e:\n    print('refused', e.errno)\n"
    );
    let spec = |code: String| python_spec(python, code);
    let (listener, connector) = std::thread::scope(|scope| {
        let listener = scope.spawn(|| run(&spec(listen)));
        let connector = scope.spawn(|| run(&spec(connect)));
        (listener.join(), connector.join())
    });
    let listener = listener.expect("thread").expect("listener runs");
    let connector = connector.expect("thread").expect("connector runs");
    let heard = listener
        .transcript
        .output_text(grade::transcript::Stream::Stdout);
    assert!(heard.contains("listening"), "{heard}");
    let said = connector
        .transcript
        .output_text(grade::transcript::Stream::Stdout);
    assert!(
        said.starts_with("refused"),
        "one run reached another's socket: {said}"
    );
}

/// As root, runs take their network namespace from a pool instead of making one each: a run
/// that starts after another has ended is in the same namespace (its sockets gone with its
/// processes: the name the first bound is free again, and nothing is listed), two runs at
/// once are in different ones, and no run holds a descriptor of a pooled namespace.
#[test]
fn network_namespaces_are_reused_only_once_their_run_has_ended() {
    use grade::run::run;
    let _g = serial();
    let Some(python) = system_python() else {
        return;
    };
    let name = format!("grade-pool-{}", std::process::id());
    // Prints its network namespace, whether the name was free, the names listed and any
    // descriptor it holds of a namespace; then waits (an event, not a sleep, which is cut).
    let probe = |wait: f64| {
        format!(
            "import os, socket, threading\n\
             print('ns', os.readlink('/proc/self/ns/net'))\n\
             s = socket.socket(socket.AF_UNIX)\n\
             try:\n    s.bind('\\0{name}')\n    print('bound')\n\
             except OSError as e:\n    print('taken', e.errno)\n\
             listed = open('/proc/net/unix').read().count('{name}')\n\
             print('listed', listed)\n\
             def link(f):\n    try:\n        return os.readlink('/proc/self/fd/' + f)\n    except OSError:\n        return ''\n\
             fds = [link(f) for f in os.listdir('/proc/self/fd')]\n\
             print('held', [f for f in fds if f.startswith('net:')])\n\
             threading.Event().wait({wait})\n"
        )
    };
    let spec = |code: String| python_spec(python, code);
    let said = |outcome: grade::run::RunOutcome| {
        outcome
            .transcript
            .output_text(grade::transcript::Stream::Stdout)
    };
    let namespace = |text: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix("ns "))
            .unwrap_or_else(|| panic!("no namespace printed: {text}"))
            .to_string()
    };
    let first = said(run(&spec(probe(0.0))).expect("first run"));
    let second = said(run(&spec(probe(0.0))).expect("second run"));
    for text in [&first, &second] {
        assert!(text.contains("bound\n"), "the name was not free: {text}");
        assert!(text.contains("listed 1\n"), "{text}");
        assert!(
            text.contains("held []\n"),
            "a run holds a namespace: {text}"
        );
    }
    // As root and unprivileged alike (an unprivileged grader's pool lives in a user
    // namespace of its own).
    assert_eq!(
        namespace(&first),
        namespace(&second),
        "the second run should reuse the first's namespace"
    );
    let (a, b) = std::thread::scope(|scope| {
        let a = scope.spawn(|| run(&spec(probe(1.0))));
        let b = scope.spawn(|| run(&spec(probe(1.0))));
        (a.join(), b.join())
    });
    let a = said(a.expect("thread").expect("run a"));
    let b = said(b.expect("thread").expect("run b"));
    assert_ne!(
        namespace(&a),
        namespace(&b),
        "two runs at once share a network namespace:\n{a}\n{b}"
    );
    for text in [&a, &b] {
        assert!(text.contains("bound\n"), "the name was taken: {text}");
    }
    // The same again in an unprivileged grader: this test, run as nobody.
    const AS_NOBODY: &str = "GRADE_CONTAINMENT_POOL_AS_NOBODY";
    if users().contains(&As::Nobody) && std::env::var_os(AS_NOBODY).is_none() {
        let this = std::env::current_exe().expect("the test binary");
        let out = as_nobody(&this)
            .args([
                "--exact",
                "network_namespaces_are_reused_only_once_their_run_has_ended",
            ])
            .args(["--nocapture", "--test-threads=1"])
            .env(AS_NOBODY, "1")
            .logged_output()
            .expect("the test binary runs as nobody");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && said.contains("1 passed"),
            "as nobody: {said}{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Removes what a test created outside its temporary directories (a fixed system path such as
/// /usr/local/bin or /opt), even when the test fails.
struct RemoveOnDrop(Vec<PathBuf>);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        for path in &self.0 {
            if path.is_dir() {
                let _ = std::fs::remove_dir_all(path);
            } else {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

/// Copies the grade binary under test to `to` (its parents created, everything readable and
/// searchable by all, as an install leaves it).
fn install_grade(to: &Path) {
    let parent = to.parent().expect("a parent");
    std::fs::create_dir_all(parent).expect("mkdir");
    std::fs::copy(grade_binary(), to).expect("copy grade");
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    open_parents(to);
}

/// Makes every directory above `path` searchable by all (temp dirs are 0700).
fn open_parents(path: &Path) {
    let mut dir = path.parent();
    while let Some(d) = dir {
        if d == Path::new("/") || d == Path::new("/tmp") {
            break;
        }
        let mode = std::fs::metadata(d)
            .map(|m| m.permissions().mode())
            .unwrap_or(0);
        let _ = std::fs::set_permissions(d, std::fs::Permissions::from_mode(mode | 0o755));
        dir = d.parent();
    }
}

/// An instructor's case tree under `root` (`cases/nim/…-hidden.yaml`, `reference/nim/…`), a
/// copy of the built-in hidden Nim case and a visible one; returns the files.
fn hidden_case_tree(root: &Path) -> Vec<PathBuf> {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for (dir, name) in [
        ("cases/nim", "errors-mixed-hidden.yaml"),
        ("reference/nim", "errors-mixed-hidden.txt"),
        ("cases/nim", "assignment.yaml"),
        ("cases/nim", "example-execution.yaml"),
        ("reference/nim", "example-execution.txt"),
    ] {
        std::fs::create_dir_all(root.join(dir)).expect("mkdir");
        let to = root.join(dir).join(name);
        std::fs::copy(repo.join(dir).join(name), &to).expect("copy case");
        open_parents(&to);
        files.push(to);
    }
    Command::new("chmod")
        .args(["-R", "a+rX"])
        .arg(root)
        .status()
        .expect("chmod");
    files
}

/// Runs the copy of grade at `grade` (as `who`, with `env`) on the hostile `reach` program
/// aimed at `secrets`; fails if any of them could be read or executed. `/usr/bin/env` is
/// aimed at too and must be reachable: the program did run and can read what it should.
fn assert_unreachable(
    layout: &str,
    who: As,
    grade: &Path,
    secrets: &[PathBuf],
    env: &[(&str, String)],
) {
    let Some(reach) = c_program("reach.c") else {
        return;
    };
    let mut cmd = match who {
        As::Me => Command::new(grade),
        As::Nobody => as_nobody(grade),
    };
    cmd.args(["run", "--json", "--readable"])
        .arg(bin_dir())
        .arg("--")
        .arg(&reach)
        .args(secrets)
        .arg("/usr/bin/env")
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())));
    let out = cmd.logged_output().expect("grade runs");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{layout}, {who:?}: no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let t = text(&json);
    assert!(t.contains("done"), "{layout}, {who:?}: {json}");
    assert!(
        t.contains("READ /usr/bin/env") && t.contains("EXEC /usr/bin/env"),
        "{layout}, {who:?}: the hostile program could not even use the system: {t}"
    );
    for secret in secrets {
        for verb in ["READ", "EXEC"] {
            assert!(
                !t.contains(&format!("{verb} {}\n", secret.display())),
                "{layout}, {who:?}: {verb} {} got through:\n{t}",
                secret.display()
            );
        }
    }
}

/// A name no other test run uses, for fixed system paths.
fn unique(prefix: &str) -> String {
    format!(
        "{prefix}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    )
}

#[test]
fn a_checkout_under_opt_with_cargos_hard_link_is_out_of_reach() {
    let _g = serial();
    if !is_root() {
        println!("skipped: creating a checkout under /opt needs root");
        return;
    }
    // Cargo's layout: target/release/grade and its hard link target/release/deps/grade-HASH,
    // the repository's cases/ and reference/ beside target/ (issue 21, attack 1).
    let checkout = Path::new("/opt").join(unique("grade-containment"));
    let _cleanup = RemoveOnDrop(vec![checkout.clone()]);
    let grade = checkout.join("target/release/grade");
    install_grade(&grade);
    let link = checkout.join("target/release/deps/grade-0123456789abcdef");
    std::fs::create_dir_all(link.parent().expect("deps")).expect("mkdir deps");
    std::fs::hard_link(&grade, &link).expect("hard link");
    open_parents(&link);
    let mut secrets = hidden_case_tree(&checkout);
    secrets.extend([grade.clone(), link]);
    for who in users() {
        assert_unreachable("/opt checkout", who, &grade, &secrets, &[]);
    }
}

#[test]
fn a_cargo_install_or_a_virtualenv_in_a_home_is_out_of_reach() {
    let _g = serial();
    for who in users() {
        let home = tempfile::tempdir().expect("tempdir");
        let home_dir = home.path();
        std::fs::set_permissions(home_dir, std::fs::Permissions::from_mode(0o755)).expect("chmod");
        // `cargo install`: ~/.cargo/bin/grade, with HOME pointing there.
        let cargo_copy = home_dir.join(".cargo/bin/grade");
        install_grade(&cargo_copy);
        // The Python wheel in a virtualenv: venv/bin/grade beside venv/bin/python3, the venv's
        // bin first on PATH.
        let venv = home_dir.join("venv");
        let venv_copy = venv.join("bin/grade");
        install_grade(&venv_copy);
        let _ = std::os::unix::fs::symlink("/usr/bin/python3", venv.join("bin/python3"));
        let record = venv.join("lib/python3/site-packages/grade_autograder-0.1.0.dist-info/RECORD");
        std::fs::create_dir_all(record.parent().expect("dist-info")).expect("mkdir");
        std::fs::write(&record, "../../../bin/grade,,\n").expect("record");
        Command::new("chmod")
            .args(["-R", "a+rX"])
            .arg(home_dir)
            .status()
            .expect("chmod");
        let secrets = vec![cargo_copy.clone(), venv_copy.clone(), record];
        let path = format!(
            "{}:{}",
            venv.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let env = [("HOME", home_dir.display().to_string()), ("PATH", path)];
        assert_unreachable("~/.cargo/bin", who, &cargo_copy, &secrets, &env);
        assert_unreachable("virtualenv", who, &venv_copy, &secrets, &env);
    }
}

#[test]
fn a_copy_in_usr_local_bin_or_the_gradescope_layout_is_out_of_reach() {
    let _g = serial();
    if !is_root() {
        println!("skipped: installing into /usr/local/bin and /autograder needs root");
        return;
    }
    let usr_local = Path::new("/usr/local/bin").join(unique("grade-containment"));
    let mut cleanup = RemoveOnDrop(vec![usr_local.clone()]);
    install_grade(&usr_local);
    for who in users() {
        assert_unreachable(
            "/usr/local/bin",
            who,
            &usr_local,
            std::slice::from_ref(&usr_local),
            &[],
        );
    }
    // Gradescope's package: /autograder/source/grade and its cases beside it.
    let autograder = Path::new("/autograder");
    if autograder.exists() {
        println!("skipped: /autograder exists here, the Gradescope layout is not tested");
        return;
    }
    cleanup.0.push(autograder.to_path_buf());
    let grade = autograder.join("source/grade");
    install_grade(&grade);
    let mut secrets = hidden_case_tree(&autograder.join("source/cases"));
    secrets.push(grade.clone());
    for who in users() {
        assert_unreachable("/autograder/source", who, &grade, &secrets, &[]);
    }
}

#[test]
fn the_checkouts_own_target_is_out_of_reach() {
    let _g = serial();
    // The binary under test where Cargo built it, its hard links in deps/, the repository's
    // cases and references.
    let grade = grade_binary();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut secrets: Vec<PathBuf> = vec![
        grade.clone(),
        repo.join("cases/nim/errors-mixed-hidden.yaml"),
        repo.join("reference/nim/errors-mixed-hidden.txt"),
    ];
    if let Some(deps) = grade.parent().map(|d| d.join("deps")) {
        use std::os::unix::fs::MetadataExt;
        let inode = std::fs::metadata(&grade).map(|m| m.ino()).unwrap_or(0);
        secrets.extend(
            std::fs::read_dir(deps)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.ino() == inode)),
        );
    }
    for who in users() {
        assert_unreachable("the checkout's target/", who, &grade, &secrets, &[]);
    }
}

#[test]
fn an_instructors_cases_anywhere_are_out_of_reach_of_a_graded_submission() {
    let _g = serial();
    let Some(py) = python() else { return };
    let _ = py;
    for who in users() {
        // `--cases DIR` in a directory of the instructor's own, the submission told where.
        let course = tempfile::tempdir().expect("tempdir");
        std::fs::set_permissions(course.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let secrets = hidden_case_tree(course.path());
        let submission = tempfile::tempdir().expect("tempdir");
        std::fs::set_permissions(submission.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
        let list: Vec<String> = secrets
            .iter()
            .map(|p| format!("{:?}", p.display().to_string()))
            .collect();
        let program = submission.path().join("nim.py");
        std::fs::write(
            &program,
            format!(
                "for path in [{}]:\n    try:\n        with open(path, 'rb') as f:\n            print('READ', path, f.read(40))\n    except OSError as e:\n        print('denied', path, e.errno)\nprint('done')\n",
                list.join(", ")
            ),
        )
        .expect("write");
        std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let out = grade_as(who)
            .arg(&program)
            .args(["--assignment", "nim", "--format", "json", "--cases"])
            .arg(course.path())
            .logged_output()
            .expect("grade runs");
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(
            report.contains("done"),
            "{who:?}: {report}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(report.contains("denied"), "{who:?}: {report}");
        assert!(
            !report.contains("READ"),
            "{who:?}: a hidden file was read: {report}"
        );
    }
}

#[test]
fn a_masked_grader_lock_still_refuses() {
    let _g = serial();
    // Issue 21, attack 2: the program stacks a seccomp filter answering the lock's prctl with
    // EINVAL (or success), preloads a prctl that returns 0 and runs a copy of grade as
    // `grade play nim`. The copy is where the program can execute it (--readable, as a
    // submission carrying it would have it).
    let Some(mask) = c_program("mask_lock.c") else {
        return;
    };
    let fake = bin_dir().join("fake_prctl.so");
    let ok = Command::new("gcc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&fake)
        .arg(support::program("runner/fake_prctl.c"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "compiling fake_prctl.c failed");
    let copy = bin_dir().join("grade-copy");
    std::fs::copy(grade_binary(), &copy).expect("copy grade");
    std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    for who in users() {
        for errno in ["einval", "zero"] {
            let command = [
                mask.display().to_string(),
                copy.display().to_string(),
                fake.display().to_string(),
                errno.to_string(),
            ];
            let json = run_json(who, &command, &[], &[]);
            let events = json["events"].to_string();
            assert!(events.contains("mask installed"), "{who:?} {errno}: {json}");
            assert!(
                events.contains("refusing to run inside a grade sandbox"),
                "{who:?} {errno}: the masked copy was not refused: {events}"
            );
            assert!(
                !events.contains("The game of Nim"),
                "{who:?} {errno}: the copy played the reference: {events}"
            );
            assert_eq!(json["code"], 2, "{who:?} {errno}: {json}");
        }
        // The same attack with the lock off plays the reference: the attack itself works.
        let command = [
            mask.display().to_string(),
            copy.display().to_string(),
            fake.display().to_string(),
            "einval".to_string(),
        ];
        let json = run_json(who, &command, &[], &[("GRADE_DISABLE", "grader-lock")]);
        assert!(
            json["events"].to_string().contains("The game of Nim"),
            "{who:?}: without the lock the copy should play: {json}"
        );
    }
}

#[test]
fn a_run_without_its_own_root_is_reported_and_refused() {
    let _g = serial();
    let Some(cmd) = isolation(&["fds"]) else {
        return;
    };
    for who in users() {
        let json = run_json(who, &cmd, &[], &[]);
        let rootfs = |json: &serde_json::Value| {
            json["sandbox"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|l| l["name"] == "rootfs")
                .cloned()
                .unwrap_or_default()
        };
        assert_eq!(rootfs(&json)["required"], true, "{who:?}: {json}");
        let json = run_json(who, &cmd, &[], &[("GRADE_DISABLE", "rootfs")]);
        assert_eq!(rootfs(&json)["active"], false, "{who:?}: {json}");
        let out = grade_as(who)
            .arg(support::program("nim/correct_c.c"))
            .args(["--assignment", "nim", "--require-sandbox"])
            .env("GRADE_DISABLE", "rootfs")
            .logged_output()
            .expect("grade runs");
        assert_eq!(out.status.code(), Some(2), "{who:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("rootfs"),
            "{who:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// The run's own root covers the host's old root instead of detaching it (docs/performance.md):
/// a program can neither unmount the cover (no capability) nor, in a user and mount namespace
/// of its own, lift it (the kernel locks the two together), so nothing of the host shows.
#[test]
fn the_covered_old_root_stays_out_of_reach() {
    let _g = serial();
    let Some(bin) = c_program("old_root.c") else {
        return;
    };
    for who in users() {
        let json = run_json(who, &[bin.display().to_string()], &[], &[]);
        let t = text(&json);
        assert!(t.contains("old root done"), "{who:?}: {json}");
        assert!(!t.contains("reached"), "{who:?}: {t}");
    }
}

/// A run's `/etc` is one directory the grader prepared once (docs/performance.md): it reads
/// the same system files as before, byte for byte, finds nothing the list leaves out (the
/// shadow file, the host name), writes nothing there, lists no other name, never sees where
/// the copy lives, and the copy is gone when the grader exits.
#[test]
fn a_runs_etc_holds_what_it_did_and_no_more() {
    let _g = serial();
    let script =
        "for f in passwd group hosts nsswitch.conf; do echo \"== $f\"; cat /etc/$f; done; \
         for f in shadow gshadow hostname sudoers; do test -e /etc/$f && echo \"THERE $f\"; done; \
         echo x >> /etc/hosts 2>/dev/null && echo WROTE-HOSTS; \
         touch /etc/new 2>/dev/null && echo MADE-NEW; \
         mkdir /etc/ld.so.conf.d/x 2>/dev/null && echo MADE-DIR; \
         ls -a /tmp | grep grade-etc && echo SEES-COPY; \
         echo LISTING; ls /etc 2>/dev/null; echo END";
    let command: Vec<String> = ["/bin/sh", "-c", script].map(String::from).to_vec();
    let mut expected = String::new();
    for f in ["passwd", "group", "hosts", "nsswitch.conf"] {
        expected.push_str(&format!("== {f}\n"));
        expected.push_str(&std::fs::read_to_string(Path::new("/etc").join(f)).unwrap_or_default());
    }
    let listed_may_be = [
        "passwd",
        "group",
        "hosts",
        "nsswitch.conf",
        "ld.so.cache",
        "ld.so.conf",
        "ld.so.conf.d",
        "alternatives",
        "ssl",
        "localtime",
        "perl",
        "dotnet",
    ];
    for who in users() {
        let temp = tempfile::tempdir().expect("tempdir");
        std::fs::set_permissions(temp.path(), std::fs::Permissions::from_mode(0o1777))
            .expect("chmod");
        let tmpdir = temp.path().display().to_string();
        let json = run_json(who, &command, &[], &[("TMPDIR", tmpdir.as_str())]);
        let t = text(&json).replace("\r\n", "\n");
        assert!(t.starts_with(&expected), "{who:?}: {t}");
        for bad in ["THERE", "WROTE-HOSTS", "MADE-NEW", "MADE-DIR", "SEES-COPY"] {
            assert!(!t.contains(bad), "{who:?}: {bad}: {t}");
        }
        let listing = t
            .split("LISTING\n")
            .nth(1)
            .and_then(|rest| rest.split("END").next())
            .unwrap_or_default();
        for name in listing.split_whitespace() {
            assert!(
                listed_may_be.contains(&name)
                    || name.starts_with("java")
                    || name.starts_with("python3"),
                "{who:?}: /etc/{name} in a run: {t}"
            );
        }
        let left: Vec<String> = std::fs::read_dir(temp.path())
            .expect("read temp dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("grade-etc-"))
            .collect();
        assert!(left.is_empty(), "{who:?}: left behind: {left:?}");
    }
}
