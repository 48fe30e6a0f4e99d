//! Benchmark: what `grade` adds to the student's own run time and memory (issue 15).
//!
//! `cargo build --release && cargo run --release --example bench_floor [RUNS]` prints, for each
//! workload, the median of RUNS paired, interleaved runs (default 10) of the floor and of
//! `grade`, and their ratio. The floor is the least any grader can take: the already built
//! program run once per case with the case's whole input piped at once, in a plain loop, with
//! the case's files in a temporary directory. Workloads:
//!
//! * pre-built C++ Nim and connect6, Python m and collect (`.py` as handed in), pre-built Java
//!   Silver Dollar (a directory with the classes and a `run` script): one grading,
//!   `--jobs 1`, against the floor of the same cases one after another;
//! * a class of 100 pre-built Nim submissions (`--output-dir`, default jobs) against the
//!   floor on as many workers as cores;
//! * a 10 MiB output flood and a 100×100 collect board: time against the floor, and the
//!   grader's peak memory per byte of program output;
//! * re-grading an unchanged C++ Nim source (the build cache) against its first grading.
//!
//! `BENCH_GRADE=PATH` measures another `grade` binary; a second argument runs only the
//! workloads whose label contains it (`C++`, `Python`, `Java`, `class`, `flood`, `board`,
//! `regrade`). Results and the machine's load go into docs/performance.md.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a benchmark prints its measurements"
)]

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grade::assignments::Assignment;
use grade::cases::{self, Case, CaseTree};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

fn run_ok(cmd: &mut Command) {
    let status = cmd.status().expect("tool runs");
    assert!(status.success(), "{cmd:?} failed");
}

/// One case as the floor runs it: its input, arguments, files and how many runs.
struct FloorCase {
    input: Vec<u8>,
    args: Vec<String>,
    files: Vec<(String, Vec<u8>)>,
    runs: usize,
}

fn floor_cases(selected: &[&Case]) -> Vec<FloorCase> {
    selected
        .iter()
        .flat_map(|case| match case.explore {
            Some(spec) => random_games_floor(case, spec),
            None => vec![case_floor(case)],
        })
        .collect()
}

/// The floor of a random-games case: each game it plays (the same generated games, from the
/// same seed), its lines piped at once; a collect game's board in the file its argument names.
fn random_games_floor(case: &Case, spec: grade::cases::schema::ExploreSpec) -> Vec<FloorCase> {
    let seed = grade::explore::case_seed(spec.seed, spec.course_seed);
    grade::explore::generated_games(case.assignment, seed, spec.games)
        .into_iter()
        .map(|game| {
            // A driven game's lines are typed from the program's own start: the floor pipes
            // those of the case's stored reference game instead.
            if game.lines.is_empty() {
                return case_floor(case);
            }
            let mut input = game.lines.join("\n").into_bytes();
            input.push(b'\n');
            let files = match (&game.board_file, case.args.first()) {
                (Some(board), Some(name)) => vec![(name.clone(), board.clone().into_bytes())],
                _ => case.files.clone(),
            };
            FloorCase {
                input,
                args: case.args.clone(),
                files,
                runs: 1,
            }
        })
        .collect()
}

/// The floor of one fixed case: its input piped at once, as many times as it runs.
fn case_floor(case: &Case) -> FloorCase {
    // A driven case's lines depend on the program's strip: pipe the lines of the
    // stored reference game instead (a game of the same kind and length).
    let lines: Vec<String> = if case.input.is_empty() {
        case.record_reference()
            .expect("a built-in reference plays")
            .transcript
            .inputs()
            .map(String::from)
            .collect()
    } else {
        case.input.clone()
    };
    let mut input = lines.join("\n").into_bytes();
    input.push(b'\n');
    FloorCase {
        input,
        args: case.args.clone(),
        files: case.files.clone(),
        runs: case.samples.max(1),
    }
}

/// Runs `command` on one case's input, piped at once; returns the bytes it printed.
fn floor_run(command: &[String], case: &FloorCase, dir: &Path) -> usize {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .args(&case.args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = case.input.clone();
    // A program that prints a lot before reading must not deadlock the floor.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait");
    let _ = writer.join();
    out.stdout.len() + out.stderr.len()
}

fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) {
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(path, bytes).expect("write case file");
    }
}

/// The floor of one grading: every case, one after another.
fn floor_grading(command: &[String], cases: &[FloorCase]) -> Duration {
    let start = Instant::now();
    for case in cases {
        let dir = tempfile::tempdir().expect("tempdir");
        write_files(dir.path(), &case.files);
        for _ in 0..case.runs {
            floor_run(command, case, dir.path());
        }
    }
    start.elapsed()
}

/// What one `grade` process took: wall time and its peak resident memory.
struct Measured {
    wall: Duration,
    /// Peak RSS of the grade process itself, sampled from /proc every millisecond.
    sampled_peak: u64,
    /// Peak RSS reported by wait4 (the grader or its largest descendant, whichever is more).
    rusage_peak: u64,
}

fn vm_hwm(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn grade_once(grade: &Path, args: &[String], envs: &[(&str, &str)]) -> Measured {
    let start = Instant::now();
    let child = Command::new(grade)
        .args(args)
        .envs(envs.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grade runs");
    let pid = child.id();
    let mut sampled_peak = 0;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data filled by wait4.
    let mut rusage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        if let Some(hwm) = vm_hwm(pid) {
            sampled_peak = sampled_peak.max(hwm);
        }
        // SAFETY: waiting for our own child without blocking.
        let r = unsafe { libc::wait4(pid as i32, &mut status, libc::WNOHANG, &mut rusage) };
        if r == pid as i32 {
            break;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let wall = start.elapsed();
    let code = libc::WEXITSTATUS(status);
    assert!(
        libc::WIFEXITED(status) && code <= 1,
        "grade {args:?} exited with {status}"
    );
    drop(child);
    Measured {
        wall,
        sampled_peak,
        rusage_peak: rusage.ru_maxrss as u64 * 1024,
    }
}

/// A submission prepared for both sides: what grade is given, and the floor's command.
struct Subject {
    label: &'static str,
    assignment: Assignment,
    submission: PathBuf,
    command: Vec<String>,
    extra: Vec<String>,
}

fn prepare_subjects(root: &Path, work: &Path) -> Vec<Subject> {
    let programs = root.join("tests/programs");
    let cpp = |name: &str, source: &str| {
        let bin = work.join(name);
        run_ok(
            Command::new("g++")
                .args(["-O2", "-o"])
                .arg(&bin)
                .arg(programs.join(source)),
        );
        bin
    };
    let nim = cpp("nim", "nim/correct_getline.cpp");
    let connect6 = cpp("connect6", "connect6/correct_getline.cpp");
    // Pre-built Java: the classes and a `run` script with the grader's JVM options.
    let java = work.join("silver_dollar");
    std::fs::create_dir_all(java.join("classes")).expect("mkdir");
    let sources: Vec<PathBuf> = std::fs::read_dir(programs.join("silver_dollar/correct_plain"))
        .expect("java dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "java"))
        .collect();
    run_ok(
        Command::new("javac")
            .arg("-d")
            .arg(java.join("classes"))
            .args(&sources),
    );
    let script = java.join("run");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec java {} -cp \"$(dirname \"$0\")/classes\" PlayGame \"$@\"\n",
            grade::submission::JVM_OPTIONS
        ),
    )
    .expect("write run");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let python = grade::submission::python_interpreter()
        .map(|p| p.executable.display().to_string())
        .unwrap_or_else(|| "/usr/bin/python3".into());
    let py = |relative: &str| programs.join(relative);
    vec![
        Subject {
            label: "C++ nim, pre-built",
            assignment: grade::assignments::nim::ASSIGNMENT,
            command: vec![nim.display().to_string()],
            submission: nim,
            extra: vec![],
        },
        Subject {
            label: "C++ connect6, pre-built",
            assignment: grade::assignments::connect6::ASSIGNMENT,
            command: vec![connect6.display().to_string()],
            submission: connect6,
            extra: vec![],
        },
        Subject {
            label: "Python m (.py)",
            assignment: grade::assignments::m::ASSIGNMENT,
            command: vec![
                python.clone(),
                py("m/correct_plain.py").display().to_string(),
            ],
            submission: py("m/correct_plain.py"),
            extra: vec![],
        },
        Subject {
            label: "Python collect (.py)",
            assignment: grade::assignments::collect::ASSIGNMENT,
            command: vec![
                python.clone(),
                py("collect/correct_plain.py").display().to_string(),
            ],
            submission: py("collect/correct_plain.py"),
            extra: vec![],
        },
        Subject {
            label: "Java silver_dollar, pre-built",
            assignment: grade::assignments::silver_dollar::ASSIGNMENT,
            command: vec![script.display().to_string()],
            submission: java,
            extra: vec![],
        },
    ]
}

fn selected_cases(tree: &CaseTree, assignment: Assignment, only: Option<&str>) -> Vec<Case> {
    let set = cases::load(tree, assignment).expect("cases");
    set.cases
        .into_iter()
        .filter(|c| !c.robustness)
        .filter(|c| only.is_none_or(|name| c.name == name))
        .collect()
}

fn grade_args(subject: &Subject, cases_dir: Option<&Path>, jobs: bool) -> Vec<String> {
    let mut args = vec![
        subject.submission.display().to_string(),
        "-a".into(),
        subject.assignment.name().into(),
        "--format".into(),
        "json".into(),
    ];
    if jobs {
        args.extend(["--jobs".into(), "1".into()]);
    }
    if let Some(dir) = cases_dir {
        args.extend(["--cases".into(), dir.display().to_string()]);
    }
    args.extend(subject.extra.iter().cloned());
    args
}

/// Paired, interleaved runs of the floor and of grade on one subject.
fn compare(
    grade: &Path,
    runs: usize,
    subject: &Subject,
    cases: &[FloorCase],
    args: &[String],
    envs: &[(&str, &str)],
) -> (Duration, Duration, Vec<Measured>) {
    // Warm both once (page cache, the interpreter probe).
    floor_grading(&subject.command, cases);
    grade_once(grade, args, envs);
    let (mut floor, mut graded, mut measured) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..runs {
        floor.push(floor_grading(&subject.command, cases));
        let m = grade_once(grade, args, envs);
        graded.push(m.wall);
        measured.push(m);
    }
    if std::env::var_os("BENCH_VERBOSE").is_some() {
        let show = |v: &[Duration]| {
            let mut v: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
            v.sort_by(f64::total_cmp);
            v.iter()
                .map(|x| format!("{x:.1}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        eprintln!("{} floor: {}", subject.label, show(&floor));
        eprintln!("{} grade: {}", subject.label, show(&graded));
    }
    (median(floor), median(graded), measured)
}

fn row(label: &str, cases: usize, floor: Duration, graded: Duration) {
    println!(
        "| {label} | {cases} | {} | {} | {:.2}× |",
        ms(floor),
        ms(graded),
        graded.as_secs_f64() / floor.as_secs_f64()
    );
}

/// A cases tree with one collect case on a 100×100 board whose columns are each one digit:
/// selecting row 1, column 1 clears the first column every turn (100 boards, ~1 MB of output).
fn big_board_tree(root: &Path, grade: &Path, work: &Path) -> PathBuf {
    let tree = work.join("big-board");
    let cases_dir = tree.join("cases/collect");
    std::fs::create_dir_all(&cases_dir).expect("mkdir");
    std::fs::copy(
        root.join("cases/collect/assignment.yaml"),
        cases_dir.join("assignment.yaml"),
    )
    .expect("copy assignment");
    let row: Vec<String> = (0..100).map(|c| ((c * 3) % 10).to_string()).collect();
    let row = row.join(" ");
    let mut yaml = String::from(
        "name: board-100\ndescription: a 100 by 100 board cleared column by column\npoints: 10\n\
         files:\n  input.txt: |-\n",
    );
    for _ in 0..100 {
        yaml.push_str("    ");
        yaml.push_str(&row);
        yaml.push('\n');
    }
    let input: Vec<&str> = vec!["\"1 1\""; 100];
    yaml.push_str(&format!("input: [{}]\n", input.join(", ")));
    std::fs::write(cases_dir.join("board-100.yaml"), yaml).expect("write case");
    run_ok(
        Command::new(grade)
            .args(["bless", "collect", "--root"])
            .arg(&tree)
            .stdout(Stdio::null()),
    );
    tree
}

/// A C program printing 10 MiB of Nim-like lines, then exiting.
fn flood_program(work: &Path) -> PathBuf {
    let source = work.join("flood.c");
    std::fs::write(
        &source,
        "#include <stdio.h>\nint main(void){const char*l=\"Player Turn - Matches: ||||| \
         ||||| ||||| ||||| |\\n\";for(long n=0;n<10L*1024*1024;){n+=fputs(l,stdout)>=0?50:0;}\
         return 0;}\n",
    )
    .expect("write flood");
    let bin = work.join("flood");
    run_ok(
        Command::new("gcc")
            .args(["-O2", "-o"])
            .arg(&bin)
            .arg(&source),
    );
    bin
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let only = std::env::args().nth(2);
    let wanted = |name: &str| only.as_deref().is_none_or(|o| name.contains(o));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // BENCH_GRADE=PATH measures another build of grade (an older one, to compare).
    let grade = std::env::var_os("BENCH_GRADE")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/release/grade"));
    assert!(
        grade.exists(),
        "build the grader first: cargo build --release"
    );
    let work: PathBuf = tempfile::Builder::new()
        .prefix("grade-bench-")
        .tempdir()
        .expect("tempdir")
        .keep();
    std::fs::set_permissions(&work, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // The build cache lives in a directory of this run only, so every run starts cold.
    let cache = work.join("cache");
    let cache_env = cache.display().to_string();
    let envs = [("XDG_CACHE_HOME", cache_env.as_str())];
    println!(
        "load average at start: {} ({} cores)",
        load_average(),
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    let built_in = CaseTree::built_in();
    let subjects = prepare_subjects(root, &work);

    println!();
    println!("| grading (--jobs 1) | cases | floor | grade | ratio |");
    println!("|---|---|---|---|---|");
    for subject in subjects.iter().filter(|s| wanted(s.label)) {
        let selected = selected_cases(&built_in, subject.assignment, None);
        let cases = floor_cases(&selected.iter().collect::<Vec<_>>());
        let args = grade_args(subject, None, true);
        let (f, g, _) = compare(&grade, runs, subject, &cases, &args, &envs);
        row(subject.label, selected.len(), f, g);
    }

    if wanted("class") {
        // 100 copies of the pre-built Nim program, graded as a class.
        let nim = &subjects[0];
        let class = work.join("class");
        let mut paths = Vec::new();
        for i in 0..100 {
            let dir = class.join(format!("student{i:03}"));
            std::fs::create_dir_all(&dir).expect("mkdir");
            let copy = dir.join("nim");
            std::fs::copy(&nim.submission, &copy).expect("copy");
            paths.push(copy);
        }
        let selected = selected_cases(&built_in, grade::assignments::nim::ASSIGNMENT, None);
        let cases = floor_cases(&selected.iter().collect::<Vec<_>>());
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        let floor_class = || {
            let start = Instant::now();
            let next = std::sync::atomic::AtomicUsize::new(0);
            std::thread::scope(|scope| {
                for _ in 0..workers {
                    scope.spawn(|| {
                        while next.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 100 {
                            floor_grading(&nim.command, &cases);
                        }
                    });
                }
            });
            start.elapsed()
        };
        let class_runs = runs.div_ceil(3).max(1);
        let (mut floor, mut graded) = (Vec::new(), Vec::new());
        for i in 0..class_runs {
            floor.push(floor_class());
            let out = work.join(format!("class-out-{i}"));
            let mut args: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
            args.extend(["-a".into(), "nim".into(), "--output-dir".into()]);
            args.push(out.display().to_string());
            graded.push(grade_once(&grade, &args, &envs).wall);
        }
        let (f, g) = (median(floor), median(graded));
        println!(
            "| class of 100 pre-built nim ({workers} jobs; {:.1}/s floor, {:.1}/s grade) | {} | {} | {} | {:.2}× |",
            100.0 / f.as_secs_f64(),
            100.0 / g.as_secs_f64(),
            selected.len() * 100,
            ms(f),
            ms(g),
            g.as_secs_f64() / f.as_secs_f64()
        );
    }

    println!();
    println!("| output-heavy run | floor | grade | ratio | program output | grader peak (sampled / wait4) | bytes of grader per output byte (above an idle grading) |");
    println!("|---|---|---|---|---|---|---|");
    // The grader's memory on a tiny grading, to subtract: the fixed cost of the process.
    let idle = {
        let nim = &subjects[0];
        let mut args = grade_args(nim, None, true);
        args.extend(["--case".into(), "error-yes-no".into()]);
        let m: Vec<u64> = (0..3)
            .map(|_| grade_once(&grade, &args, &envs).sampled_peak)
            .collect();
        m.into_iter().min().unwrap_or(0)
    };
    let heavy: Vec<(&str, Subject, Option<PathBuf>, Option<&str>)> = vec![
        (
            "flood",
            Subject {
                label: "10 MiB flood (nim case)",
                assignment: grade::assignments::nim::ASSIGNMENT,
                command: vec![flood_program(&work).display().to_string()],
                submission: work.join("flood"),
                extra: vec![
                    "--case".into(),
                    "example-execution".into(),
                    "--output-limit".into(),
                    "16384".into(),
                ],
            },
            None,
            Some("example-execution"),
        ),
        (
            "board",
            Subject {
                label: "100×100 collect board, Python",
                assignment: grade::assignments::collect::ASSIGNMENT,
                command: subjects[3].command.clone(),
                submission: subjects[3].submission.clone(),
                extra: vec!["--output-limit".into(), "16384".into()],
            },
            Some(big_board_tree(root, &grade, &work)),
            None,
        ),
    ];
    for (name, subject, tree_dir, only_case) in heavy {
        if !wanted(name) {
            continue;
        }
        let tree = match &tree_dir {
            Some(dir) => CaseTree::open(Some(dir)).expect("cases tree"),
            None => CaseTree::built_in(),
        };
        let selected = selected_cases(&tree, subject.assignment, only_case);
        let cases = floor_cases(&selected.iter().collect::<Vec<_>>());
        let dir = tempfile::tempdir().expect("tempdir");
        write_files(dir.path(), &cases[0].files);
        let output = floor_run(&subject.command, &cases[0], dir.path());
        let args = grade_args(&subject, tree_dir.as_deref(), true);
        let (f, g, measured) = compare(&grade, runs.min(5), &subject, &cases, &args, &envs);
        let sampled = measured.iter().map(|m| m.sampled_peak).max().unwrap_or(0);
        let waited = measured.iter().map(|m| m.rusage_peak).max().unwrap_or(0);
        let mib = |b: u64| format!("{:.1} MiB", b as f64 / (1 << 20) as f64);
        println!(
            "| {} | {} | {} | {:.2}× | {} | {} / {} | {:.1} |",
            subject.label,
            ms(f),
            ms(g),
            g.as_secs_f64() / f.as_secs_f64(),
            mib(output as u64),
            mib(sampled),
            mib(waited),
            sampled.saturating_sub(idle) as f64 / output as f64
        );
    }
    println!(
        "(idle grading peak: {:.1} MiB)",
        idle as f64 / (1 << 20) as f64
    );

    if wanted("regrade") {
        println!();
        println!("| re-grading an unchanged C++ nim source (--jobs 1) | first grading (cold cache) | again (warm cache) | speed-up |");
        println!("|---|---|---|---|");
        let source = root.join("tests/programs/nim/correct_getline.cpp");
        let subject = Subject {
            label: "C++ nim source",
            assignment: grade::assignments::nim::ASSIGNMENT,
            command: vec![],
            submission: source,
            extra: vec![],
        };
        let args = grade_args(&subject, None, true);
        let (mut cold, mut warm) = (Vec::new(), Vec::new());
        for i in 0..runs.div_ceil(2).max(1) {
            let fresh = work.join(format!("cache-{i}"));
            let fresh = fresh.display().to_string();
            let envs = [("XDG_CACHE_HOME", fresh.as_str())];
            cold.push(grade_once(&grade, &args, &envs).wall);
            warm.push(grade_once(&grade, &args, &envs).wall);
        }
        let (c, w) = (median(cold), median(warm));
        println!(
            "| nim/correct_getline.cpp | {} | {} | {:.1}× |",
            ms(c),
            ms(w),
            c.as_secs_f64() / w.as_secs_f64()
        );
    }
    println!();
    println!("load average at end: {}", load_average());
    let _ = std::fs::remove_dir_all(&work);
}
