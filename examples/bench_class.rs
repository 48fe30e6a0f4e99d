//! Benchmark: a whole class in many languages, graded as an instructor grades it (issue 36).
//!
//! `cargo build --release && cargo run --release --example bench_class [STUDENTS]` makes a
//! class of STUDENTS (default 300) Nim submissions from the test suite's correct programs in
//! C++, Python, C, JavaScript, Ruby, Perl and Rust, in about the shares a course sees (the
//! handout's C++ first), each made a submission of its own by a comment naming its student, so
//! that every compiled one is compiled (no build is shared through the build cache). It grades
//! them with `grade DIR... -a nim --output-dir OUT` (default jobs, every case, the sanitizer
//! pass and the random games included), first from an empty build cache (a class's first run),
//! then again into a new folder with the cache kept (a regrade), and prints for each the wall
//! time, submissions per second, the CPU of the grader and everything it ran, and the grader's
//! own peak memory (its `VmHWM`, read every 20 ms); every student must get full marks.
//!
//! `BENCH_GRADE=PATH` measures another `grade` binary. Tools a language needs that are not
//! installed leave its share to C++ (said on the output). Results go into docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A language of the class: the test program it starts from, the comment that makes each copy
/// its own, the share of the class in it, and the tools grading it needs.
struct Language {
    name: &'static str,
    program: &'static str,
    /// The file (inside a folder program) the student's comment is appended to.
    file: Option<&'static str>,
    comment: &'static str,
    percent: usize,
    tools: &'static [&'static str],
}

const LANGUAGES: [Language; 7] = [
    Language {
        name: "C++",
        program: "nim/correct_getline.cpp",
        file: None,
        comment: "//",
        percent: 45,
        tools: &["g++"],
    },
    Language {
        name: "Python",
        program: "nim/split_python",
        file: Some("main.py"),
        comment: "#",
        percent: 25,
        tools: &["python3"],
    },
    Language {
        name: "C",
        program: "nim/correct_c.c",
        file: None,
        comment: "//",
        percent: 10,
        tools: &["gcc"],
    },
    Language {
        name: "JavaScript",
        program: "nim/correct_readline.js",
        file: None,
        comment: "//",
        percent: 8,
        tools: &["node"],
    },
    Language {
        name: "Ruby",
        program: "nim/correct.rb",
        file: None,
        comment: "#",
        percent: 4,
        tools: &["ruby"],
    },
    Language {
        name: "Perl",
        program: "nim/correct.pl",
        file: None,
        comment: "#",
        percent: 4,
        tools: &["perl"],
    },
    Language {
        name: "Rust",
        program: "nim/correct.rs",
        file: None,
        comment: "//",
        percent: 4,
        tools: &["rustc"],
    },
];

/// Copies a program (a file, or a folder of files) into the folder `to`.
fn copy_program(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    if from.is_file() {
        std::fs::copy(from, to.join(from.file_name().expect("name"))).expect("copy");
        return;
    }
    for entry in std::fs::read_dir(from).expect("read program folder") {
        let path = entry.expect("entry").path();
        if path.is_file() {
            std::fs::copy(&path, to.join(path.file_name().expect("name"))).expect("copy");
        } else {
            copy_program(&path, &to.join(path.file_name().expect("name")));
        }
    }
}

/// The language of each student, in the shares of [`LANGUAGES`] (those whose tools are
/// missing here give their share to C++).
fn class_plan(students: usize) -> Vec<&'static Language> {
    let mut plan = Vec::with_capacity(students);
    for language in &LANGUAGES {
        let count = students * language.percent / 100;
        // Found as the grader finds it (as root, only where a run's own user can reach it).
        let usable = language
            .tools
            .iter()
            .all(|t| grade::submission::find_tool(t).is_some());
        if !usable {
            println!(
                "{} not installed: its share is graded as C++",
                language.name
            );
        }
        let chosen = if usable { language } else { &LANGUAGES[0] };
        plan.extend(std::iter::repeat_n(chosen, count));
    }
    while plan.len() < students {
        plan.push(&LANGUAGES[0]);
    }
    plan
}

/// Writes student `index`'s submission: the language's program with a comment of its own.
fn write_submission(language: &Language, index: usize, programs: &Path, dir: &Path) {
    let source = programs.join(language.program);
    copy_program(&source, dir);
    let file = match language.file {
        Some(name) => dir.join(name),
        None => dir.join(source.file_name().expect("name")),
    };
    let mut text = std::fs::read_to_string(&file).expect("read the program");
    text.push_str(&format!(
        "\n{} student {index:03}: the class benchmark\n",
        language.comment
    ));
    std::fs::write(&file, text).expect("write the program");
}

/// The peak resident memory (`VmHWM`, kB) of a live process, if it can still be read.
fn peak_kb_of(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
}

/// CPU seconds (user + system) of this process's waited-for children so far.
fn children_cpu() -> f64 {
    // SAFETY: getrusage writes into the zeroed struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// What grading the class once took.
struct Graded {
    wall: f64,
    cpu: f64,
    peak_kb: u64,
    statuses: Vec<String>,
    full: usize,
}

/// Grades `submissions` as a class into `out`, with the build cache under `cache`.
fn grade_class(grade: &Path, submissions: &[PathBuf], out: &Path, cache: &Path) -> Graded {
    let cpu_before = children_cpu();
    let started = Instant::now();
    let mut child = Command::new(grade)
        .args(submissions)
        .args(["-a", "nim", "--output-dir"])
        .arg(out)
        .env("XDG_CACHE_HOME", cache)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("grade starts");
    let mut peak_kb = 0;
    let status = loop {
        if let Some(kb) = peak_kb_of(child.id()) {
            peak_kb = peak_kb.max(kb);
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let wall = started.elapsed().as_secs_f64();
    let cpu = children_cpu() - cpu_before;
    assert!(
        status.code().is_some_and(|c| c <= 1),
        "grade ended {status}"
    );
    // Every student follows the handout: each must get full marks.
    let mut gradebook = csv::Reader::from_path(out.join("gradebook.csv")).expect("gradebook.csv");
    let status_column = gradebook
        .headers()
        .expect("header")
        .iter()
        .position(|h| h == "status")
        .expect("a status column");
    let statuses: Vec<String> = gradebook
        .records()
        .map(|r| r.expect("row")[status_column].to_string())
        .collect();
    let full = statuses.iter().filter(|s| *s == "full marks").count();
    Graded {
        wall,
        cpu,
        peak_kb,
        statuses,
        full,
    }
}

fn main() {
    let students: usize = std::env::args()
        .nth(1)
        .map(|s| s.parse().expect("STUDENTS is a number"))
        .unwrap_or(300);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let programs = root.join("tests/programs");
    let grade = std::env::var_os("BENCH_GRADE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/grade"));
    assert!(grade.is_file(), "build grade first: cargo build --release");
    let work = tempfile::tempdir().expect("tempdir");
    let class = work.path().join("class");
    let plan = class_plan(students);
    let mut submissions = Vec::with_capacity(students);
    for (index, language) in plan.iter().enumerate() {
        let dir = class.join(format!("s{index:03}"));
        write_submission(language, index, &programs, &dir);
        submissions.push(dir);
    }
    let mut mix: Vec<(&str, usize)> = Vec::new();
    for language in &plan {
        match mix.iter_mut().find(|(name, _)| *name == language.name) {
            Some((_, n)) => *n += 1,
            None => mix.push((language.name, 1)),
        }
    }
    // An empty build cache: every compiled submission is compiled, as in a class's first run;
    // then the class again into a new folder with the cache kept (a regrade, a resumed class).
    let cache = work.path().join("cache");
    let first = grade_class(&grade, &submissions, &work.path().join("out-first"), &cache);
    let again = grade_class(&grade, &submissions, &work.path().join("out-again"), &cache);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "class of {students} nim submissions ({}) on {cores} cores, load {}",
        mix.iter()
            .map(|(name, n)| format!("{n} {name}"))
            .collect::<Vec<_>>()
            .join(", "),
        load.split_whitespace()
            .take(3)
            .collect::<Vec<_>>()
            .join(" ")
    );
    println!(
        "| class of {students} | wall | submissions/s | CPU (grade and all it ran) | CPU per submission | grade's peak memory | full marks |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (label, graded) in [
        ("first run (builds)", &first),
        ("again (build cache)", &again),
    ] {
        println!(
            "| {label} | {:.1} s | {:.2} | {:.1} s | {:.2} s | {:.1} MiB | {} of {} |",
            graded.wall,
            students as f64 / graded.wall,
            graded.cpu,
            graded.cpu / students as f64,
            graded.peak_kb as f64 / 1024.0,
            graded.full,
            graded.statuses.len()
        );
    }
    for graded in [&first, &again] {
        assert_eq!(
            graded.full, students,
            "students without full marks: {:?}",
            graded.statuses
        );
    }
}
