//! Where grade is installed and what the machine does to a grading (issue 31, items 6 and 7):
//! every install layout grades a correct program in every common language (and `grade doctor`
//! says so), and a fault of the machine or of the grader — a descriptor leak, a spawn that
//! fails, a sandbox step that fails — is never a student's score. Each runs as the test's user
//! and again as `nobody`.
//!
//! Layouts that live at fixed system paths (`/usr/local/bin`, `/opt`) are built inside a
//! private mount namespace on a tmpfs (as root: `unshare --mount`; unprivileged: a user
//! namespace of its own, the grader then back at its own uid in a nested one): nothing is ever
//! written to the real `/usr/local` or `/opt`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::LoggedOutput;
use crate::{grade_binary, is_root, readable_copy, serial, support, users, As};

/// A correct program of one language, with the case it is graded on (one case keeps the
/// matrix fast; every run builds its root the same way).
struct Correct {
    language: &'static str,
    path: &'static str,
    assignment: &'static str,
    case: &'static str,
    tools: &'static [&'static str],
    /// Built again in every layout (`--no-cache`): the quick builds. The slow compilers' (C++,
    /// Java) are built once per user, in the test's own build cache, and run in every layout.
    rebuild: bool,
}

/// One correct program per language of the handouts and of most courses.
const CORRECT: &[Correct] = &[
    Correct {
        language: "C",
        path: "nim/correct_c.c",
        assignment: "nim",
        case: "example-execution",
        tools: &["gcc"],
        rebuild: true,
    },
    Correct {
        language: "C++",
        path: "nim/correct_getline.cpp",
        assignment: "nim",
        case: "example-execution",
        tools: &["g++"],
        rebuild: false,
    },
    Correct {
        language: "Python",
        path: "silver_dollar/correct_python.py",
        assignment: "silver_dollar",
        case: "missing-coin",
        tools: &["python3"],
        rebuild: true,
    },
    Correct {
        language: "Java",
        path: "silver_dollar/correct_plain",
        assignment: "silver_dollar",
        case: "missing-coin",
        tools: &["javac", "java"],
        rebuild: false,
    },
    Correct {
        language: "JavaScript",
        path: "nim/correct_readline.js",
        assignment: "nim",
        case: "example-execution",
        tools: &["node"],
        rebuild: true,
    },
];

/// Single quotes for the shell.
fn q(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// A directory every user may write in (for the outputs of `nobody`'s gradings), removed at
/// the end.
fn open_temp_dir() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("grade-layouts-")
        .tempdir()
        .expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o1777)).expect("chmod");
    dir
}

/// Where a layout puts grade, and what must be done (in a shell) to put it there.
struct Layout {
    name: &'static str,
    /// The path of grade in this layout.
    grade: PathBuf,
    /// Shell lines run before the gradings (in the private mount namespace when `private`).
    setup: String,
    /// Whether the layout lives at a fixed system path (a private mount namespace, a tmpfs).
    private: bool,
    /// Environment of the gradings (HOME, PATH as the install leaves them).
    env: Vec<(String, String)>,
    /// The directory the gradings start in.
    cwd: PathBuf,
}

/// `mkdir -p` of `dir`'s parents and a copy of the grade binary under test at `to`, readable
/// and searchable by all, as an install leaves it.
fn install_lines(to: &Path) -> String {
    let parent = to.parent().expect("a parent");
    format!(
        "mkdir -p {p} && cp {from} {to} && chmod 755 {to}\n",
        p = q(&parent.display().to_string()),
        from = q(&grade_binary().display().to_string()),
        to = q(&to.display().to_string()),
    )
}

/// Debian's `/usr/local` as the `base-files` package makes it: its directories and the
/// `man -> share/man` link, on a tmpfs over the real one.
const DEBIAN_USR_LOCAL: &str = "mount -t tmpfs -o mode=0755 tmpfs /usr/local\n\
     mkdir -p /usr/local/bin /usr/local/etc /usr/local/games /usr/local/include \
     /usr/local/lib /usr/local/sbin /usr/local/share/man /usr/local/src\n\
     ln -s share/man /usr/local/man\n";

fn path_with(dir: &Path) -> String {
    format!(
        "{}:{}",
        dir.display(),
        std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".into())
    )
}

/// Every layout the issue names, made under `temp` (or, for fixed system paths, in the
/// private namespace).
fn layouts(temp: &Path) -> Vec<Layout> {
    let home = temp.join("home");
    let cargo = home.join(".cargo/bin/grade");
    let venv = temp.join("venv");
    let autograder = temp.join("autograder");
    let checkout = grade_binary();
    let mut all = vec![
        Layout {
            name: "the checkout's target/",
            grade: checkout.clone(),
            setup: String::new(),
            private: false,
            env: Vec::new(),
            cwd: Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf(),
        },
        Layout {
            name: "cargo install (~/.cargo/bin)",
            grade: cargo.clone(),
            setup: format!(
                "{}chmod -R a+rX {}\n",
                install_lines(&cargo),
                q(&home.display().to_string())
            ),
            private: false,
            env: vec![
                ("HOME".into(), home.display().to_string()),
                ("PATH".into(), path_with(cargo.parent().expect("bin"))),
            ],
            cwd: temp.to_path_buf(),
        },
        Layout {
            name: "a wheel in a virtualenv",
            grade: venv.join("bin/grade"),
            // The wheel's layout: the binary in the venv's bin beside its python3 link
            // (tests/wheel.rs builds and installs the real wheel, slowly, under --ignored).
            setup: format!(
                "/usr/bin/python3 -m venv --without-pip {v} 2>/dev/null || \
                 {{ mkdir -p {v}/bin && ln -s /usr/bin/python3 {v}/bin/python3; }}\n{}\
                 chmod -R a+rX {v}\n",
                install_lines(&venv.join("bin/grade")),
                v = q(&venv.display().to_string()),
            ),
            private: false,
            env: vec![
                ("VIRTUAL_ENV".into(), venv.display().to_string()),
                ("PATH".into(), path_with(&venv.join("bin"))),
            ],
            cwd: temp.to_path_buf(),
        },
        Layout {
            name: "Gradescope's /autograder/source",
            // `run_autograder` reads AUTOGRADER (docs/gradescope.md): the same tree under a
            // temporary directory, the cases shipped beside the binary.
            grade: autograder.join("source/grade"),
            setup: format!(
                "{}mkdir -p {a}/source/cases && cp -r {cases}/. {a}/source/cases/ && \
                 mkdir -p {a}/source/reference && cp -r {refs}/. {a}/source/reference/ && \
                 chmod -R a+rX {a}\n",
                install_lines(&autograder.join("source/grade")),
                a = q(&autograder.display().to_string()),
                cases = q(&format!("{}/cases", env!("CARGO_MANIFEST_DIR"))),
                refs = q(&format!("{}/reference", env!("CARGO_MANIFEST_DIR"))),
            ),
            private: false,
            env: Vec::new(),
            cwd: autograder.join("source"),
        },
    ];
    all.push(Layout {
        name: "/usr/local/bin with Debian's /usr/local links",
        grade: PathBuf::from("/usr/local/bin/grade"),
        setup: format!(
            "{DEBIAN_USR_LOCAL}{}",
            install_lines(Path::new("/usr/local/bin/grade"))
        ),
        private: true,
        env: Vec::new(),
        cwd: temp.to_path_buf(),
    });
    all.push(Layout {
        name: "/opt/grade/bin with a /usr/local/bin link",
        grade: PathBuf::from("/usr/local/bin/grade"),
        setup: format!(
            "mount -t tmpfs -o mode=0755 tmpfs /opt\n{DEBIAN_USR_LOCAL}{}\
             ln -s /opt/grade/bin/grade /usr/local/bin/grade\n\
             mkdir -p /opt/grade/share/doc && ln -s ../share/doc /opt/grade/bin/doc\n",
            install_lines(Path::new("/opt/grade/bin/grade"))
        ),
        private: true,
        env: Vec::new(),
        cwd: temp.to_path_buf(),
    });
    all
}

/// One grading (or doctor) inside a layout: its arguments and extra environment.
struct Job {
    args: Vec<String>,
    env: Vec<(String, String)>,
}

/// What one job gave.
struct Done {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `jobs` with the grade of `layout`, as `who`, each job's output kept in `out`; `None`
/// (skipped, said) where the layout's private namespace cannot be made here.
fn run_in_layout(layout: &Layout, who: As, jobs: &[Job], out: &Path) -> Option<Vec<Done>> {
    let uid = unsafe { libc::getuid() };
    let gid = unsafe { libc::getgid() };
    // How the gradings become `who` again inside the layout's namespace.
    let mut prefix = String::new();
    if layout.private && !is_root() {
        prefix.push_str(&format!(
            "unshare --user --map-user={uid} --map-group={gid} "
        ));
    }
    if who == As::Nobody {
        prefix.push_str("setpriv --reuid=nobody --regid=nogroup --clear-groups ");
    }
    let mut script = String::from("set -e\n");
    script.push_str(&layout.setup);
    script.push_str("set +e\n");
    script.push_str(&format!("cd {}\n", q(&layout.cwd.display().to_string())));
    for (i, job) in jobs.iter().enumerate() {
        let env: Vec<String> = layout
            .env
            .iter()
            .chain(&job.env)
            .map(|(k, v)| q(&format!("{k}={v}")))
            .collect();
        let args: Vec<String> = job.args.iter().map(|a| q(a)).collect();
        script.push_str(&format!(
            "{prefix}env {} {} {} >{o}/{i}.out 2>{o}/{i}.err; echo $? >{o}/{i}.rc\n",
            env.join(" "),
            q(&layout.grade.display().to_string()),
            args.join(" "),
            o = q(&out.display().to_string()),
        ));
    }
    let mut command = if !layout.private {
        Command::new("sh")
    } else if is_root() {
        let mut c = Command::new("unshare");
        c.args(["--mount", "--propagation", "private", "sh"]);
        c
    } else {
        let mut c = Command::new("unshare");
        c.args(["--user", "--map-root-user", "--mount", "sh"]);
        c
    };
    let ran = command
        .arg("-c")
        .arg(&script)
        .logged_output()
        .expect("sh runs");
    if !ran.status.success() {
        if layout.private {
            println!(
                "skipped: {} ({who:?}): no private mount namespace here: {}",
                layout.name,
                String::from_utf8_lossy(&ran.stderr).trim()
            );
            return None;
        }
        panic!(
            "{}: the layout could not be made: {}",
            layout.name,
            String::from_utf8_lossy(&ran.stderr)
        );
    }
    let read = |i: usize, ext: &str| {
        std::fs::read_to_string(out.join(format!("{i}.{ext}"))).unwrap_or_default()
    };
    Some(
        (0..jobs.len())
            .map(|i| Done {
                status: read(i, "rc").trim().parse().ok(),
                stdout: read(i, "out"),
                stderr: read(i, "err"),
            })
            .collect(),
    )
}

/// The doctor's line for `language` in its toolchain table.
fn doctor_line<'a>(doctor: &'a str, language: &str) -> Option<&'a str> {
    doctor
        .lines()
        .find(|l| l.starts_with(&format!("{language:<24} ")))
}

#[test]
fn every_install_layout_grades_every_language() {
    let _g = serial();
    let programs: Vec<(&Correct, PathBuf)> = CORRECT
        .iter()
        .filter(|c| c.tools.iter().all(|t| support::have(t)))
        .map(|c| (c, readable_copy(c.path)))
        .collect();
    let temp = open_temp_dir();
    let mut failures = Vec::new();
    for layout in layouts(temp.path()) {
        for who in users() {
            let out = tempfile::Builder::new()
                .prefix("out-")
                .tempdir_in(temp.path())
                .expect("tempdir");
            std::fs::set_permissions(out.path(), std::fs::Permissions::from_mode(0o1777))
                .expect("chmod");
            // A build cache of the test's own, per user.
            let cache = (
                "XDG_CACHE_HOME".to_string(),
                temp.path()
                    .join(format!("cache-{who:?}"))
                    .display()
                    .to_string(),
            );
            let mut jobs: Vec<Job> = programs
                .iter()
                .map(|(c, path)| Job {
                    args: vec![
                        path.display().to_string(),
                        "--assignment".into(),
                        c.assignment.into(),
                        "--case".into(),
                        c.case.into(),
                        "--format".into(),
                        "json".into(),
                    ]
                    .into_iter()
                    .chain(c.rebuild.then(|| "--no-cache".to_string()))
                    .collect(),
                    env: vec![cache.clone()],
                })
                .collect();
            // The doctor's one-line programs are built once per user too; each layout still
            // runs them in its sandbox.
            jobs.push(Job {
                args: vec!["doctor".into()],
                env: vec![cache.clone()],
            });
            let Some(done) = run_in_layout(&layout, who, &jobs, out.path()) else {
                continue;
            };
            for ((c, _), done) in programs.iter().zip(&done) {
                let report: Option<serde_json::Value> = serde_json::from_str(&done.stdout).ok();
                let full = report.as_ref().is_some_and(|r| {
                    r["max_score"].as_f64().unwrap_or(0.0) > 0.0
                        && r["score"].as_f64() == r["max_score"].as_f64()
                });
                if !full || done.status != Some(0) {
                    failures.push(format!(
                        "{}, {who:?}: a correct {} program: exit {:?}, {}{}",
                        layout.name,
                        c.language,
                        done.status,
                        report.as_ref().map_or_else(
                            || format!("no report: {}", done.stderr.trim()),
                            |r| format!(
                                "{}/{}, lost {:?}, build failure {}",
                                r["score"],
                                r["max_score"],
                                support::lost_points(r),
                                r["build_failure"]
                            )
                        ),
                        ""
                    ));
                }
            }
            // `grade doctor` starts a program of every installed language in the sandbox:
            // a layout that breaks one says so there.
            let doctor = done.last().expect("doctor ran");
            for (c, _) in &programs {
                let line = doctor_line(&doctor.stdout, c.language).unwrap_or("(no line)");
                if doctor.status != Some(0) || !line.contains("ran in the sandbox") {
                    failures.push(format!(
                        "{}, {who:?}: doctor, exit {:?}, did not run a {} program in the \
                         sandbox: {line}",
                        layout.name, doctor.status, c.language
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `grade ARGS` as `who` with `env`, its descriptors limited to `files` (`ulimit -n`) when
/// given, started in `cwd`.
fn grade_limited(
    who: As,
    args: &[String],
    env: &[(&str, &str)],
    files: Option<u32>,
    cwd: &Path,
) -> std::process::Output {
    let mut script = String::new();
    if let Some(n) = files {
        script.push_str(&format!("ulimit -n {n} && "));
    }
    script.push_str("exec \"$@\"");
    let mut command = Command::new("sh");
    command.current_dir(cwd).arg("-c").arg(script).arg("sh");
    if who == As::Nobody {
        command.args([
            "setpriv",
            "--reuid=nobody",
            "--regid=nogroup",
            "--clear-groups",
        ]);
    }
    command
        .arg(grade_binary())
        .args(args)
        .envs(env.iter().copied())
        .logged_output()
        .expect("grade runs")
}

/// The gradebook's rows (header first) as fields.
fn gradebook(dir: &Path) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(dir.join("gradebook.csv")).unwrap_or_default();
    text.lines()
        .map(|line| line.split(',').map(str::to_string).collect())
        .collect()
}

/// A class of `n` students, each handing in a copy of tests/programs/`program`, in a
/// directory every user can read; returns the student folders.
fn class_of(root: &Path, n: usize, program: &str) -> Vec<PathBuf> {
    let source = support::program(program);
    let name = source.file_name().expect("a file name").to_os_string();
    (1..=n)
        .map(|i| {
            let folder = root.join(format!("student{i:02}"));
            std::fs::create_dir_all(&folder).expect("mkdir");
            std::fs::copy(&source, folder.join(&name)).expect("copy");
            folder
        })
        .collect()
}

#[test]
fn a_class_graded_with_tmpdir_in_dev_shm_keeps_full_marks() {
    let _g = serial();
    if !support::have("gcc") || !Path::new("/dev/shm").is_dir() {
        return;
    }
    for who in users() {
        let temp = open_temp_dir();
        let students = class_of(temp.path(), 12, "nim/correct_c.c");
        Command::new("chmod")
            .args(["-R", "a+rwX"])
            .arg(temp.path())
            .status()
            .expect("chmod");
        let reports = temp.path().join("reports");
        let mut args: Vec<String> = students.iter().map(|s| s.display().to_string()).collect();
        args.extend(
            ["--assignment", "nim", "--output-dir"]
                .iter()
                .map(|s| s.to_string()),
        );
        args.push(reports.display().to_string());
        // 12 gradings of about 25 runs each under 256 descriptors: one descriptor kept per
        // run would run out half way, as it did in a class at 1024.
        let out = grade_limited(
            who,
            &args,
            &[("TMPDIR", "/dev/shm")],
            Some(256),
            temp.path(),
        );
        let rows = gradebook(&reports);
        assert_eq!(
            rows.len(),
            13,
            "{who:?}: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            rows.iter()
                .map(|r| r.join(","))
                .collect::<Vec<_>>()
                .join("\n")
        );
        for row in &rows[1..] {
            assert_eq!(
                (
                    row.get(2).map(String::as_str),
                    row.get(5).map(String::as_str)
                ),
                (Some("106"), Some("full marks")),
                "{who:?}: {}",
                row.join(",")
            );
        }
        assert_eq!(out.status.code(), Some(0), "{who:?}");
    }
}

/// A grading of tests/programs/`program` on `case` with the fault hook `fault` (see
/// `GRADE_TEST_FAULT` in src/run/mod.rs), alone and in a class: both must say "not
/// gradable", with no score — never a 0, a lost case or "did not build". Returns what went
/// wrong, if anything.
fn not_gradable_failure(
    who: As,
    program: &str,
    assignment: &str,
    case: &str,
    fault: &str,
) -> Option<String> {
    let temp = open_temp_dir();
    let students = class_of(temp.path(), 1, program);
    Command::new("chmod")
        .args(["-R", "a+rwX"])
        .arg(temp.path())
        .status()
        .expect("chmod");
    let what = format!("{who:?}, {program}, {case}, {fault}");
    let mut args = vec![
        students[0].display().to_string(),
        "--assignment".into(),
        assignment.into(),
        "--case".into(),
        case.into(),
        "--no-cache".into(),
        "--format".into(),
        "json".into(),
    ];
    let env = [("GRADE_TEST_FAULT", fault)];
    let alone = grade_limited(who, &args, &env, None, temp.path());
    let stderr = String::from_utf8_lossy(&alone.stderr);
    if alone.status.code() != Some(2)
        || !stderr.contains("not gradable")
        || !alone.stdout.is_empty()
    {
        let report: Option<serde_json::Value> = serde_json::from_slice(&alone.stdout).ok();
        return Some(format!(
            "{what}: graded alone: exit {:?}, {}{}",
            alone.status.code(),
            report.map_or(String::new(), |r| format!(
                "scored {}/{} ({:?}, build failure {}) ",
                r["score"],
                r["max_score"],
                support::lost_points(&r),
                r["build_failure"]
            )),
            stderr.trim()
        ));
    }
    let reports = temp.path().join("reports");
    args.truncate(6);
    args.extend(["--output-dir".to_string(), reports.display().to_string()]);
    let class = grade_limited(who, &args, &env, None, temp.path());
    let rows = gradebook(&reports);
    let Some(row) = rows.get(1) else {
        return Some(format!(
            "{what}: no gradebook row: {}",
            String::from_utf8_lossy(&class.stderr)
        ));
    };
    (row.get(2).map(String::as_str) != Some("")
        || !row.get(5).is_some_and(|s| s.starts_with("not gradable")))
    .then(|| format!("{what}: the gradebook says {}", row.join(",")))
}

#[test]
fn a_run_error_in_any_case_or_build_is_not_gradable() {
    let _g = serial();
    if !support::have("gcc") || !support::have("python3") {
        return;
    }
    let mut failures = Vec::new();
    for who in users() {
        // The build is the process's first run (--no-cache), the program's runs follow.
        for fault in ["spawn:2", "step:2"] {
            for (program, assignment, case) in [
                ("nim/correct_c.c", "nim", "example-execution"),
                ("nim/correct_c.c", "nim", "random-games"),
                (
                    "silver_dollar/correct_python.py",
                    "silver_dollar",
                    "random-games",
                ),
            ] {
                failures.extend(not_gradable_failure(who, program, assignment, case, fault));
            }
        }
        // The compiler itself cannot be started: not a build failure of the student's.
        for fault in ["spawn:1", "step:1"] {
            failures.extend(not_gradable_failure(
                who,
                "nim/correct_c.c",
                "nim",
                "example-execution",
                fault,
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
