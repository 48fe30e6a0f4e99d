//! The runner against real programs, through the real `grade run` binary.
//!
//! Programs live in tests/programs/runner/ and are compiled once per test binary into a temp
//! directory the run may read. Tests run one at a time (a lock) so CPU-limit timings hold on
//! two cores. A missing toolchain skips a test, except under CI=true where it fails.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

use std::path::{Path, PathBuf};
use std::process::Command as StdCommand;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

use assert_cmd::Command;

mod support;
use serde_json::Value;
use support::LoggedOutput;

static LOCK: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/programs/runner")
        .join(name)
}

fn skip(tool: &str) -> bool {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{tool} not found (CI=true: toolchains are required)");
    }
    println!("skipped: {tool} not found");
    true
}

fn have(tool: &str) -> bool {
    StdCommand::new(tool)
        .arg("--version")
        .logged_output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// A directory readable by the run's uid holding the compiled programs and sources.
fn bin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = support::process_temp_dir("grade-runner-tests-");
        for entry in std::fs::read_dir(src("")).expect("programs dir").flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.ends_with(".py") || name.ends_with(".js") {
                std::fs::copy(entry.path(), dir.join(&*name)).expect("copy");
            }
        }
        dir
    })
}

/// Compiles `file` once (by extension) and returns the path to run, or None to skip.
fn compiled(file: &str) -> Option<PathBuf> {
    static BUILT: Mutex<Vec<(String, Option<PathBuf>)>> = Mutex::new(Vec::new());
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = built.iter().find(|(f, _)| f == file) {
        return p.clone();
    }
    let dir = bin_dir();
    let stem = file.split('.').next().unwrap_or(file);
    let result = if file.ends_with(".c") || file.ends_with(".cpp") {
        let compiler = if file.ends_with(".c") { "gcc" } else { "g++" };
        if !have(compiler) {
            skip(compiler);
            None
        } else {
            let out = dir.join(stem);
            let ok = StdCommand::new(compiler)
                .args(["-O2", "-o"])
                .arg(&out)
                .arg(src(file))
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            assert!(ok, "compiling {file} failed");
            Some(out)
        }
    } else if file.ends_with(".java") {
        if !have("javac") || !have("java") {
            skip("javac");
            None
        } else {
            let ok = StdCommand::new("javac")
                .arg("-d")
                .arg(dir)
                .arg(src(file))
                .status()
                .map(|s| s.success())
                .unwrap_or(false);
            assert!(ok, "compiling {file} failed");
            Some(dir.join(stem))
        }
    } else {
        Some(dir.join(file))
    };
    built.push((file.to_string(), result.clone()));
    result
}

/// Whether Node.js is installed (it prints its version for `--version`).
fn have_node() -> bool {
    have("node")
}

/// The Python interpreter the run can execute (a system one: /root is closed to the run uid).
fn python() -> Option<String> {
    for p in ["/usr/bin/python3", "/usr/local/bin/python3"] {
        if Path::new(p).exists() {
            return Some(p.to_string());
        }
    }
    skip("python3");
    None
}

/// The command line for a test program: compiled binary, python script or java class.
fn program(file: &str) -> Option<Vec<String>> {
    let path = compiled(file)?;
    if file.ends_with(".py") {
        Some(vec![python()?, path.display().to_string()])
    } else if file.ends_with(".js") {
        if !have_node() {
            skip("node");
            return None;
        }
        Some(vec!["node".into(), path.display().to_string()])
    } else if file.ends_with(".java") {
        Some(vec![
            "java".into(),
            "-Xshare:auto".into(),
            "-XX:+UseSerialGC".into(),
            "-XX:TieredStopAtLevel=1".into(),
            "-cp".into(),
            bin_dir().display().to_string(),
            path.file_name()?.to_string_lossy().into_owned(),
        ])
    } else {
        Some(vec![path.display().to_string()])
    }
}

struct Run {
    json: Value,
    elapsed: Duration,
}

impl Run {
    fn ending(&self) -> &str {
        self.json["ending"].as_str().unwrap_or("?")
    }
    fn text(&self) -> &str {
        self.json["terminal_text"].as_str().unwrap_or("")
    }
}

fn unique_marker() -> String {
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    format!(
        "grade-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    )
}

/// Processes whose environment carries `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    let needle = format!("GRADE_TEST_MARKER={marker}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let path = entry.path().join("environ");
        if let Ok(env) = std::fs::read(&path) {
            if env.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
                found.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
    }
    found
}

/// Runs `grade run --json [flags] -- command` with `input`; checks no process survives.
fn grade_run(command: &[String], input: &[&str], flags: &[&str]) -> Run {
    grade_run_env(command, input, flags, &[])
}

/// [`grade_run`] with extra environment for the grader (a forced detection method).
fn grade_run_env(command: &[String], input: &[&str], flags: &[&str], env: &[(&str, &str)]) -> Run {
    let input_file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(input_file.path(), input.join("\n") + "\n").expect("write input");
    let marker = unique_marker();
    let mut cmd = Command::cargo_bin("grade").expect("grade binary");
    cmd.envs(env.iter().copied())
        .arg("run")
        .arg("--json")
        .arg("--input")
        .arg(input_file.path())
        .arg("--readable")
        .arg(bin_dir())
        .arg("--env")
        .arg(format!("GRADE_TEST_MARKER={marker}"))
        .args(flags)
        .arg("--")
        .args(command)
        .timeout(Duration::from_secs(30));
    let start = Instant::now();
    let output = cmd.logged_output().expect("grade run");
    let elapsed = start.elapsed();
    assert!(
        output.status.success(),
        "grade run failed (status {:?}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "bad JSON ({e}): {}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    let left = processes_with(&marker);
    assert!(left.is_empty(), "processes survived the run: {left:?}");
    Run { json, elapsed }
}

const SUM_TEXT: &str = "Number? 3\nAnother? 4\nSum: 7\n";

fn check_order(file: &str, terminal: bool, expect_late: bool) {
    let _g = serial();
    let Some(cmd) = program(file) else { return };
    let flags: &[&str] = if terminal { &["--terminal"] } else { &[] };
    let run = grade_run(&cmd, &["3", "4"], flags);
    assert_eq!(run.ending(), "exited", "{file}: {}", run.json);
    if expect_late {
        // Output only at exit: the inputs come first in time, the output text is right.
        assert_eq!(
            run.json["stdout"], "Number? Another? Sum: 7\n",
            "{}",
            run.json
        );
    } else {
        assert_eq!(
            run.text(),
            SUM_TEXT,
            "{file} terminal={terminal}: {}",
            run.json
        );
    }
    assert_eq!(run.json["unread_inputs"], 0);
    assert_eq!(run.json["detection"], "seccomp");
    if expect_late {
        assert_eq!(run.json["prompts_late"], true, "{file}: {}", run.json);
    } else {
        assert_eq!(run.json["prompts_late"], false, "{file}: {}", run.json);
        // The input follows its prompt directly in the event list.
        let events = run.json["events"].as_array().cloned().unwrap_or_default();
        let first_input = events
            .iter()
            .position(|e| e["input"] == "3")
            .expect("input event");
        assert_eq!(events[first_input - 1]["output"], "Number? ", "{file}");
    }
}

#[test]
fn order_c_printf_scanf() {
    check_order("c_scanf.c", false, false);
    check_order("c_scanf.c", true, false);
}

#[test]
fn c_stdio_is_line_buffered_as_on_a_terminal_and_prompts_precede_reads() {
    let _g = serial();
    let Some(cmd) = program("c_line_buffered.c") else {
        return;
    };
    for flags in [&[][..], &["--terminal"][..]] {
        let run = grade_run(&cmd, &["a", "b", "c"], flags);
        assert_eq!(run.ending(), "exited", "{flags:?}: {}", run.json);
        // Over pipes as on a terminal: both streams buffered by line, and each unflushed
        // prompt shown before the answer typed to it.
        assert_eq!(
            run.text(),
            "Move 1? a\nYou typed a\nMove 2? b\nYou typed b\nMove 3? c\nYou typed c\n\
             stdout line-buffered\nstdin line-buffered\n",
            "{flags:?}: {}",
            run.json
        );
        assert_eq!(run.json["prompts_late"], false, "{flags:?}: {}", run.json);
        let events = run.json["events"].as_array().cloned().unwrap_or_default();
        for (n, answer) in ["a", "b", "c"].iter().enumerate() {
            let at = events
                .iter()
                .position(|e| e["input"] == *answer)
                .expect("input event");
            let before = events[at - 1]["output"].as_str().unwrap_or("");
            assert!(
                before.ends_with(&format!("Move {}? ", n + 1)),
                "{flags:?}: {before:?}"
            );
        }
    }
}

#[test]
fn order_cpp_iostream() {
    check_order("cpp_iostream.cpp", false, false);
    check_order("cpp_iostream.cpp", true, false);
}

#[test]
fn order_cpp_untied_cin_is_right_text_but_late() {
    check_order("cpp_untied.cpp", false, true);
    check_order("cpp_untied.cpp", true, true);
}

#[test]
fn order_python_input() {
    check_order("py_input.py", false, false);
    check_order("py_input.py", true, false);
}

#[test]
fn order_python_print_end_readline() {
    check_order("py_readline.py", false, false);
}

#[test]
fn order_python_print_end_readline_terminal_is_right_text() {
    let _g = serial();
    let Some(cmd) = program("py_readline.py") else {
        return;
    };
    // Under a real terminal print(end="") stays in Python's line buffer until exit (as for a
    // student at a terminal): the text is still right and the prompts are marked late.
    let run = grade_run(&cmd, &["3", "4"], &["--terminal"]);
    assert_eq!(run.ending(), "exited");
    assert_eq!(
        run.json["stdout"], "Number? Another? Sum: 7\n",
        "{}",
        run.json
    );
    assert_eq!(run.json["prompts_late"], true);
}

#[test]
fn order_java_scanner() {
    check_order("Sum.java", false, false);
    check_order("Sum.java", true, false);
}

#[test]
fn order_through_sh_c() {
    let _g = serial();
    let Some(cmd) = program("c_scanf.c") else {
        return;
    };
    for flags in [&[][..], &["--terminal"][..]] {
        let run = grade_run(
            &[
                "/bin/sh".into(),
                "-c".into(),
                format!("{} && echo bye", cmd[0]),
            ],
            &["3", "4"],
            flags,
        );
        assert_eq!(run.text(), format!("{SUM_TEXT}bye\n"), "{}", run.json);
        assert_eq!(run.json["prompts_late"], false);
    }
}

#[test]
fn script_exhausted_stops_or_closes() {
    let _g = serial();
    let Some(cmd) = program("py_input.py") else {
        return;
    };
    let run = grade_run(&cmd, &["3"], &[]);
    assert_eq!(run.ending(), "waiting-for-input");
    assert_eq!(run.text(), "Number? 3\nAnother? ");
    let run = grade_run(&cmd, &["3"], &["--close-stdin"]);
    assert_eq!(run.ending(), "exited");
    assert_eq!(run.json["code"], 1, "EOFError exits 1: {}", run.json);
    assert!(run.json["events"]
        .as_array()
        .is_some_and(|e| e.iter().any(|e| e["input_closed"] == true)));
    let run = grade_run(&cmd, &["3", "4", "5", "6"], &[]);
    assert_eq!(run.ending(), "exited");
    assert_eq!(run.json["unread_inputs"], 2);
}

#[test]
fn fallback_detection_methods_keep_the_order() {
    let _g = serial();
    let Some(cmd) = program("c_scanf.c") else {
        return;
    };
    for method in ["proc-polling", "quiescence"] {
        let input_file = tempfile::NamedTempFile::new().expect("temp");
        std::fs::write(input_file.path(), "3\n4\n").expect("write");
        let out = Command::cargo_bin("grade")
            .expect("grade")
            .env("GRADE_DETECTION", method)
            .args(["run", "--json", "--readable"])
            .arg(bin_dir())
            .arg("--input")
            .arg(input_file.path())
            .arg("--")
            .args(&cmd)
            .logged_output()
            .expect("run");
        let json: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(json["detection"], method);
        assert_eq!(json["terminal_text"], SUM_TEXT, "{json}");
    }
}

/// The echo programs' transcript for `lines`: each line right after its prompt, "Bye" at
/// end of input.
fn echo_text(lines: &[&str]) -> String {
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        text += &format!("Line {i}? {line}\nYou said {line}\n");
    }
    text + &format!("Line {}? Bye\n", lines.len())
}

/// Checks that an echo program received every line, each right after its own prompt.
fn check_echo(what: &str, run: &Run, lines: &[&str], detection: &str) {
    assert_eq!(run.ending(), "exited", "{what}: {}", run.json);
    assert_eq!(run.text(), echo_text(lines), "{what}: {}", run.json);
    assert_eq!(run.json["unread_inputs"], 0, "{what}");
    assert_eq!(run.json["detection"], detection, "{what}");
    assert_eq!(run.json["prompts_late"], false, "{what}: {}", run.json);
    let events = run.json["events"].as_array().cloned().unwrap_or_default();
    for (i, line) in lines.iter().enumerate() {
        let at = events
            .iter()
            .position(|e| e["input"] == *line)
            .unwrap_or_else(|| panic!("{what}: no input event {line}"));
        let before = events[at - 1]["output"].as_str().unwrap_or("");
        assert!(
            before.ends_with(&format!("Line {i}? ")),
            "{what}: input {line} follows {before:?}"
        );
    }
}

const ECHO_LINES: [&str; 3] = ["first", "second", "third"];

/// Programs that wait for stdin to become readable (select, pselect6, poll, ppoll, epoll_wait,
/// epoll_pwait, epoll_pwait2), without a timeout and with 100 ms timeouts in a loop, reading a
/// non-blocking stdin until EAGAIN: every line arrives after its prompt, and the EAGAIN of
/// the read before the first prompt is neither a line nor the end of input.
#[test]
fn waits_for_readable_stdin_get_each_line_after_its_prompt() {
    let _g = serial();
    let Some(cmd) = program("wait_echo.c") else {
        return;
    };
    let modes = [
        "select",
        "pselect6",
        "poll",
        "ppoll",
        "epoll_wait",
        "epoll_pwait",
        "epoll_pwait2",
    ];
    for mode in modes {
        for timeout in ["-1", "100"] {
            let mut argv = cmd.clone();
            argv.extend([mode.to_string(), timeout.to_string()]);
            let run = grade_run(&argv, &ECHO_LINES, &["--close-stdin"]);
            check_echo(&format!("{mode} {timeout}"), &run, &ECHO_LINES, "seccomp");
            // Timed-out waits happen only while the program waits for a line we never
            // delay: the run takes far less than one timeout per line.
            assert!(run.elapsed < Duration::from_secs(10), "{mode}");
        }
    }
    // Without --close-stdin the run stops at the fourth prompt, waiting for input: it is
    // given end of input there (and prints "Bye" then, judged apart from the game).
    let mut argv = cmd.clone();
    argv.extend(["epoll_wait".to_string(), "-1".to_string()]);
    let run = grade_run(&argv, &ECHO_LINES, &[]);
    assert_eq!(run.ending(), "waiting-for-input", "{}", run.json);
    assert!(
        run.json["events"]
            .as_array()
            .is_some_and(|events| events.iter().any(|e| e["input_closed"] == true)),
        "{}",
        run.json
    );
    assert!(
        run.text().contains("You said third\nLine 3? "),
        "{}",
        run.json
    );
}

/// The /proc polling fallback recognises the same waits (a thread asleep in them).
#[test]
fn waits_for_readable_stdin_are_seen_by_proc_polling() {
    let _g = serial();
    let Some(cmd) = program("wait_echo.c") else {
        return;
    };
    for mode in ["select", "ppoll", "epoll_wait"] {
        let mut argv = cmd.clone();
        argv.extend([mode.to_string(), "100".to_string()]);
        let run = grade_run_env(
            &argv,
            &ECHO_LINES,
            &["--close-stdin"],
            &[("GRADE_DETECTION", "proc-polling")],
        );
        check_echo(mode, &run, &ECHO_LINES, "proc-polling");
    }
}

/// Node's readline waits in epoll_wait on a non-blocking stdin.
#[test]
fn node_readline_gets_each_line_after_its_prompt() {
    let _g = serial();
    let Some(cmd) = program("echo_readline.js") else {
        return;
    };
    for flags in [&["--close-stdin"][..], &["--close-stdin", "--terminal"][..]] {
        let run = grade_run(&cmd, &ECHO_LINES, flags);
        check_echo(&format!("node {flags:?}"), &run, &ECHO_LINES, "seccomp");
    }
}

/// Python asyncio streams wait in epoll_wait on a non-blocking stdin.
#[test]
fn python_asyncio_gets_each_line_after_its_prompt() {
    let _g = serial();
    let Some(cmd) = program("echo_asyncio.py") else {
        return;
    };
    for flags in [&["--close-stdin"][..], &["--close-stdin", "--terminal"][..]] {
        let run = grade_run(&cmd, &ECHO_LINES, flags);
        check_echo(&format!("asyncio {flags:?}"), &run, &ECHO_LINES, "seccomp");
    }
}

fn hostile(cmd: &[String], input: &[&str], flags: &[&str], ending: &str, limit: Duration) -> Run {
    let run = grade_run(cmd, input, flags);
    assert_eq!(run.ending(), ending, "{}", run.json);
    // A CPU limit is kept in CPU time: on a loaded machine the same CPU second takes longer
    // on the wall clock, which says nothing about the limit.
    let used = if ending == "cpu-limit" {
        Duration::from_secs_f64(run.json["cpu_ms"].as_f64().expect("cpu_ms in the JSON") / 1000.0)
    } else {
        run.elapsed
    };
    assert!(
        used < limit + Duration::from_secs(1),
        "took {used:?} for a limit of {limit:?}: {}",
        run.json
    );
    run
}

/// Runs one behaviour of tests/programs/runner/hostile.py through [`hostile`]; `None` when
/// python3 is missing (the test is skipped).
fn hostile_py(
    mode: &str,
    input: &[&str],
    flags: &[&str],
    ending: &str,
    limit: Duration,
) -> Option<Run> {
    let mut cmd = program("hostile.py")?;
    cmd.push(mode.into());
    Some(hostile(&cmd, input, flags, ending, limit))
}

#[test]
fn hostile_busy_loop_hits_cpu_limit() {
    let _g = serial();
    let Some(cmd) = program("busy.c") else { return };
    hostile(
        &cmd,
        &[],
        &["--cpu", "1"],
        "cpu-limit",
        Duration::from_secs(1),
    );
}

/// The grader's own CPU time (user + system, ms) from a `GRADE_PROFILE=1` run's stderr.
fn graders_own_cpu_ms(stderr: &str) -> f64 {
    let line = stderr
        .lines()
        .find(|l| l.contains("CPU: the grader"))
        .unwrap_or_else(|| panic!("no CPU line in GRADE_PROFILE's output:\n{stderr}"));
    let numbers: Vec<f64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    numbers[0] + numbers[1]
}

/// While a program runs, the grader waits for it in poll(2) and wakes every 20 ms for its
/// checks: it must not spin. A program that computes for one CPU second (then is stopped by
/// `--cpu 1`) costs the grader a few tens of ms; a supervision loop that polls with a zero
/// timeout (as it did under a memory cgroup, once the first memory-check time had passed)
/// burns as much CPU as the program.
#[test]
fn the_grader_sleeps_while_a_program_computes() {
    let _g = serial();
    let Some(cmd) = program("busy.c") else { return };
    let output = Command::cargo_bin("grade")
        .expect("grade binary")
        .env("GRADE_PROFILE", "1")
        .args(["run", "--cpu", "1", "--readable"])
        .arg(bin_dir())
        .arg("--")
        .args(&cmd)
        .write_stdin("")
        .timeout(Duration::from_secs(30))
        .logged_output()
        .expect("grade run");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let own = graders_own_cpu_ms(&stderr);
    assert!(
        own < 400.0,
        "the grader used {own:.0} ms of CPU supervising one CPU second of a program:\n{stderr}"
    );
}

#[test]
fn hostile_endless_output_hits_output_limit() {
    let _g = serial();
    let Some(cmd) = program("endless.c") else {
        return;
    };
    let run = hostile(
        &cmd,
        &[],
        &["--output-limit", "100"],
        "output-limit",
        Duration::from_secs(1),
    );
    assert_eq!(run.json["output_truncated"], true);
    assert_eq!(run.text().len(), 100 << 10, "KiB, as for grade");
}

/// A sleep longer than a run may sleep runs for real: the run, neither reading nor computing,
/// is stopped as blocked (after its wall limit, when that is under 3 s).
#[test]
fn hostile_read_then_sleep_is_stopped_as_blocked() {
    let _g = serial();
    let Some(run) = hostile_py(
        "read-then-sleep",
        &["Ann"],
        &["--wall", "1"],
        "blocked",
        Duration::from_secs(1),
    ) else {
        return;
    };
    assert_eq!(run.text(), "Name? Ann\n");
}

#[test]
fn hostile_child_keeps_stdout_open() {
    let _g = serial();
    let Some(run) = hostile_py(
        "fork-keeps-stdout",
        &[],
        &["--wall", "5"],
        "exited",
        Duration::from_secs(1),
    ) else {
        return;
    };
    assert_eq!(run.text(), "parent done\n");
}

#[test]
fn hostile_setsid_child_keeps_stdout_open() {
    let _g = serial();
    let Some(run) = hostile_py(
        "setsid-keeps-stdout",
        &[],
        &["--wall", "5"],
        "exited",
        Duration::from_secs(1),
    ) else {
        return;
    };
    assert_eq!(run.text(), "parent done\n");
}

#[test]
fn hostile_setsid_escapee_without_cgroup_is_swept() {
    let _g = serial();
    let Some(mut cmd) = program("hostile.py") else {
        return;
    };
    cmd.push("setsid-keeps-stdout".into());
    let input_file = tempfile::NamedTempFile::new().expect("temp");
    let marker = unique_marker();
    let out = Command::cargo_bin("grade")
        .expect("grade")
        .env("GRADE_NO_CGROUP", "1")
        .args(["run", "--json", "--readable"])
        .arg(bin_dir())
        .arg("--input")
        .arg(input_file.path())
        .arg("--env")
        .arg(format!("GRADE_TEST_MARKER={marker}"))
        .arg("--")
        .args(&cmd)
        .logged_output()
        .expect("run");
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(json["ending"], "exited", "{json}");
    assert!(processes_with(&marker).is_empty());
}

#[test]
fn hostile_unbounded_memory_hits_memory_limit() {
    let _g = serial();
    let Some(run) = hostile_py(
        "memory",
        &[],
        &["--memory", "100", "--wall", "5"],
        "memory-limit",
        Duration::from_secs(5),
    ) else {
        return;
    };
    assert!(run.elapsed < Duration::from_secs(3), "{:?}", run.elapsed);
}

/// `for (;;) sleep(1)`: its sleeps are cut short until they add up to what a run may sleep
/// (six times the wall limit), then it is stopped as blocked, neither at the CPU limit nor
/// at the wall limit.
#[test]
fn hostile_closed_stdout_sleeping_forever_is_stopped_as_blocked() {
    let _g = serial();
    let Some(cmd) = program("close_stdout.c") else {
        return;
    };
    let run = hostile(
        &cmd,
        &[],
        &["--wall", "1"],
        "blocked",
        Duration::from_secs(1),
    );
    assert!(run.json["slept_ms"].as_f64() > Some(6000.0), "{}", run.json);
}

#[test]
fn hostile_binary_output_survives_escaped() {
    let _g = serial();
    let Some(cmd) = program("binary_output.c") else {
        return;
    };
    let run = hostile(&cmd, &[], &[], "exited", Duration::from_secs(1));
    // Byte for byte in "stdout"; as a terminal shows it in the transcript.
    assert_eq!(run.json["stdout"], "ok\\xff\\xfe bad\0nul\r\nend\n");
    assert_eq!(run.text(), "ok\\xff\\xfe badnul\nend\n");
    let human = Command::cargo_bin("grade")
        .expect("grade")
        .args(["run", "--readable"])
        .arg(bin_dir())
        .arg("--")
        .args(&cmd)
        .logged_output()
        .expect("run");
    // The readable form is what a terminal shows: the NUL is invisible there, and "\r\n"
    // is a line end.
    let text = String::from_utf8(human.stdout).expect("the report is UTF-8");
    assert!(text.starts_with("ok\\xff\\xfe badnul\nend\n"), "{text}");
}

#[test]
fn hostile_kills_its_parent_and_everyone() {
    let _g = serial();
    let Some(cmd) = program("kill_parent.c") else {
        return;
    };
    let run = hostile(&cmd, &[], &[], "exited", Duration::from_secs(1));
    assert!(run.text().contains("still here"), "{}", run.json);
}

#[test]
fn hostile_snooper_finds_nothing() {
    let _g = serial();
    let Some(mut cmd) = program("snoop.py") else {
        return;
    };
    let secret_dir = tempfile::Builder::new()
        .prefix("grade-secret-")
        .tempdir()
        .expect("temp");
    let secret = format!("TOP-SECRET-{}", std::process::id());
    let cases = secret_dir.path().join("cases");
    std::fs::create_dir(&cases).expect("mkdir");
    // World-readable, so only the sandbox (not file modes) keeps it out.
    for dir in [secret_dir.path(), cases.as_path()] {
        std::fs::set_permissions(dir, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .expect("chmod");
    }
    let secret_file = cases.join("secret.yaml");
    std::fs::write(&secret_file, format!("answer: {secret}\n")).expect("write");
    std::fs::write(secret_dir.path().join("reference.txt"), &secret).expect("write");
    cmd.push(secret_file.display().to_string());
    let grader = assert_cmd::cargo::cargo_bin("grade");
    cmd.push(grader.display().to_string());
    let input_file = tempfile::NamedTempFile::new().expect("temp");
    let marker = unique_marker();
    let start = Instant::now();
    let out = Command::cargo_bin("grade")
        .expect("grade")
        .env("GRADE_SECRET_IN_GRADER_ENV", &secret)
        .args(["run", "--json", "--wall", "20", "--readable"])
        .arg(bin_dir())
        .arg("--input")
        .arg(input_file.path())
        .arg("--env")
        .arg(format!("GRADE_TEST_MARKER={marker}"))
        .arg("--")
        .args(&cmd)
        .logged_output()
        .expect("run");
    let json: Value = serde_json::from_slice(&out.stdout).expect("json");
    let all = json.to_string();
    assert!(all.contains("snoop done"), "{all}");
    assert!(!all.contains(&secret), "the secret leaked: {all}");
    for leak in [
        "READ-DIRECT",
        "PARENT-EXE-READ",
        "PARENT-ENVIRON-READ",
        "PARENT-MEM-READ",
    ] {
        assert!(!all.contains(leak), "{leak}: {all}");
    }
    assert!(!all.contains("exe link"), "{all}");
    let grader_bytes = std::fs::read(&grader).expect("grader");
    assert!(!all.contains("ELF"), "grader binary content leaked");
    drop(grader_bytes);
    assert!(processes_with(&marker).is_empty());
    assert!(start.elapsed() < Duration::from_secs(21));
}

#[test]
fn environment_is_clean_and_documented() {
    let _g = serial();
    let Some(mut cmd) = program("hostile.py") else {
        return;
    };
    cmd.push("env".into());
    let run = grade_run(&cmd, &[], &[]);
    let text = run.text();
    assert!(
        text.contains("PATH=/usr/local/bin:/usr/bin:/bin\n"),
        "{text}"
    );
    assert!(text.contains("LANG=C.UTF-8\n"));
    assert!(text.contains("TERM=dumb\n"));
    assert!(!text.contains("CARGO"), "{text}");
    let home = text
        .lines()
        .find_map(|l| l.strip_prefix("HOME="))
        .expect("HOME");
    assert!(home.contains("grade-run-"), "{home}");
    assert!(
        !Path::new(home).exists(),
        "the working directory is removed"
    );
}

#[test]
fn doctor_reports_every_layer() {
    let out = Command::cargo_bin("grade")
        .expect("grade")
        .arg("doctor")
        .logged_output()
        .expect("doctor");
    let text = String::from_utf8_lossy(&out.stdout);
    for layer in [
        "input detection",
        "landlock",
        "network namespace",
        "memory limit",
    ] {
        assert!(text.contains(layer), "{text}");
    }
    // Its last line says whether grading is fine here, whatever rows are off.
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("verdict: grading is fine here")
            || last.starts_with("verdict: grading runs, but the sandbox is incomplete"),
        "{text}"
    );
}

/// A layer the containment depends on switched off: the verdict names it and what it means.
#[test]
fn doctor_says_what_a_missing_layer_means() {
    let out = Command::cargo_bin("grade")
        .expect("grade")
        .arg("doctor")
        .env("GRADE_DISABLE", "landlock")
        .logged_output()
        .expect("doctor");
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    assert!(
        last.starts_with(
            "verdict: grading runs, but the sandbox is incomplete here: landlock (switched off \
             with GRADE_DISABLE) off"
        ) && last.contains("--require-sandbox refuses to grade"),
        "{text}"
    );
}

#[test]
fn hostile_fork_many_is_capped() {
    let _g = serial();
    let Some(run) = hostile_py(
        "fork-many",
        &[],
        &["--processes", "10"],
        "exited",
        Duration::from_secs(1),
    ) else {
        return;
    };
    let forked: usize = run
        .text()
        .trim()
        .strip_prefix("forked ")
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX);
    assert!(forked < 10, "{}", run.json);
}

#[test]
fn parallel_runs_in_threads_do_not_interfere() {
    let _g = serial();
    let handles: Vec<_> = (0..6)
        .map(|i| {
            std::thread::spawn(move || {
                let spec = grade::run::RunSpec {
                    files: vec![("data.txt".into(), b"x".to_vec())],
                    input: vec![format!("{i}"), "z".into()],
                    terminal: i % 2 == 1,
                    ..grade::run::RunSpec::new(vec![
                        "/bin/sh".into(),
                        "-c".into(),
                        "printf 'a? '; read a; printf 'b? '; read b; echo \"$a$b\"".into(),
                    ])
                };
                let outcome = grade::run::run(&spec).expect("run");
                assert_eq!(outcome.ending, grade::run::Ending::Exited(0));
                assert_eq!(
                    outcome.transcript.terminal_text(),
                    format!("a? {i}\nb? z\n{i}z\n")
                );
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread");
    }
}

/// Spawns share the grader's memory, and with it its dumpable flag, which a uid drop clears:
/// runs started at the same moment from several threads must all start (as root a race here
/// showed as "cannot start …: Permission denied" on a few runs in a hundred).
#[test]
fn many_runs_started_at_once_all_start() {
    let _g = serial();
    let handles: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(|| {
                for _ in 0..100 {
                    let spec = grade::run::RunSpec::new(vec!["/bin/true".into()]);
                    let outcome = grade::run::run(&spec).expect("every run starts");
                    assert_eq!(outcome.ending, grade::run::Ending::Exited(0));
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("thread");
    }
}

/// Programs are found as `execvp` finds them: on the run's own `PATH` (not the grader's), and
/// a script without `#!` is run by `/bin/sh`.
#[test]
fn programs_are_found_on_the_runs_path_and_scripts_without_shebang_run_in_sh() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let script = dir.path().join("greet");
    std::fs::write(&script, "printf '%s-%s\\n' \"$1\" \"$2\"\n").expect("write");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let spec = grade::run::RunSpec {
        readable: vec![dir.path().to_path_buf()],
        env: vec![(
            "PATH".into(),
            format!("/nonexistent:{}", dir.path().display()),
        )],
        ..grade::run::RunSpec::new(vec!["greet".into(), "a".into(), "b".into()])
    };
    let outcome = grade::run::run(&spec).expect("run");
    assert_eq!(outcome.ending, grade::run::Ending::Exited(0));
    assert_eq!(outcome.transcript.terminal_text(), "a-b\n");
}

#[test]
fn missing_program_is_a_spawn_error_not_a_panic() {
    let spec = grade::run::RunSpec::new(vec!["/nonexistent/program".into()]);
    assert!(matches!(
        grade::run::run(&spec),
        Err(grade::run::RunError::Spawn { .. })
    ));
}

/// `grade run` started in `dir` (a student's folder), returning exit code, stdout and stderr.
fn grade_run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let output = Command::cargo_bin("grade")
        .expect("grade binary")
        .current_dir(dir)
        .arg("run")
        .args(args)
        .timeout(Duration::from_secs(30))
        .logged_output()
        .expect("grade run");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A program the run cannot start, named without a path (`grade run -- python3`): the message
/// names the file found on the run's PATH (and where its link leads), not only the name.
#[test]
fn a_program_that_cannot_start_is_named_by_the_file_found_on_the_path() {
    let _guard = serial();
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).expect("mkdir");
    // Readable but not executable, and a link to it.
    std::fs::write(bin.join("game-1.0"), "#!/bin/sh\necho hi\n").expect("write");
    std::fs::set_permissions(bin.join("game-1.0"), std::fs::Permissions::from_mode(0o644))
        .expect("chmod");
    std::os::unix::fs::symlink("game-1.0", bin.join("game")).expect("symlink");
    let path = format!("PATH={}", bin.display());
    let (code, _, stderr) = grade_run_in(dir.path(), &["--env", &path, "--", "game"]);
    assert_ne!(code, 0, "{stderr}");
    let link = bin.join("game").display().to_string();
    let real = bin.join("game-1.0").display().to_string();
    assert!(
        stderr.contains(&format!("game ({link} → {real})")),
        "{stderr}"
    );
    // A name found nowhere says where it was looked for.
    let (code, _, stderr) = grade_run_in(dir.path(), &["--env", &path, "--", "nowhere"]);
    assert_ne!(code, 0, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "nowhere (not found on the run's PATH {})",
            bin.display()
        )),
        "{stderr}"
    );
}

/// `grade run -- python3` runs the python3 the run's own PATH finds, whatever comes first on
/// the grader's (a pyenv shim in a folder the run may not read; before, that folder was given
/// to the sandbox to mount and the run failed with "Permission denied").
#[test]
fn a_bare_name_is_the_runs_own_and_no_shim_of_the_graders_path_is_mounted() {
    let _guard = serial();
    use std::os::unix::fs::PermissionsExt;
    let system = ["/usr/local/bin/python3", "/usr/bin/python3", "/bin/python3"];
    if !system.iter().any(|p| Path::new(p).is_file()) {
        return;
    }
    // As pyenv's: a shim in a folder under one only its owner may enter (pyenv's /root is
    // 0700). tempfile makes its folder 0755 (umask 022): made 0700 here, or the run could
    // enter it and the old lookup (the shim's folder mounted for the run) would pass too.
    // The bug is a root grader's: each run has a uid of its own, which cannot enter it; a
    // grader running as an unprivileged user runs programs as itself, and passes either way.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let shims = dir.path().join("pyenv/shims");
    std::fs::create_dir_all(&shims).expect("mkdir");
    std::fs::write(shims.join("python3"), "#!/bin/sh\necho shim\n").expect("write");
    std::fs::set_permissions(
        shims.join("python3"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    let work = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(work.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let output = Command::cargo_bin("grade")
        .expect("grade binary")
        .current_dir(work.path())
        .env(
            "PATH",
            format!(
                "{}:{}",
                shims.display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .args(["run", "--", "python3", "-c", "print(6 * 7)"])
        .timeout(Duration::from_secs(30))
        .logged_output()
        .expect("grade run");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert!(stdout.starts_with("42\n"), "{stdout}");
}

#[test]
fn the_readme_example_runs_a_program_by_its_relative_path_and_files_keep_their_mode() {
    let _guard = serial();
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let prog = dir.path().join("prog");
    std::fs::write(
        &prog,
        "#!/bin/sh\nwhile printf 'move? ' && read -r line; do echo \"took $line\"; done\n",
    )
    .expect("write");
    std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::write(dir.path().join("moves.txt"), "3\n2\n").expect("write");
    // The README's line, as typed in the program's folder.
    let (code, stdout, stderr) =
        grade_run_in(dir.path(), &["--input", "moves.txt", "--", "./prog"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("took 3") && stdout.contains("took 2"),
        "{stdout}"
    );
    // Copied with --file, it keeps its exec bit (under another name too).
    for (file, command) in [("prog=prog", "./prog"), ("game=prog", "./game")] {
        let (code, stdout, stderr) = grade_run_in(
            dir.path(),
            &["--input", "moves.txt", "--file", file, "--", command],
        );
        assert_eq!(code, 0, "{file}: {stderr}");
        assert!(stdout.contains("took 3"), "{file}: {stdout}");
    }
    // A file that is not there is one line naming it.
    let (code, _, stderr) = grade_run_in(dir.path(), &["--", "./missing"]);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("./missing: no such file"), "{stderr}");
    // Random bytes are not run through /bin/sh.
    let bytes: Vec<u8> = (0u8..=255).rev().collect();
    std::fs::write(dir.path().join("noise"), bytes).expect("write");
    std::fs::set_permissions(
        dir.path().join("noise"),
        std::fs::Permissions::from_mode(0o755),
    )
    .expect("chmod");
    let (code, stdout, stderr) = grade_run_in(dir.path(), &["--", "./noise"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.contains("./noise: not a program: it looks like random bytes"),
        "{stderr}"
    );
}

/// Sets the process's bound on programs at once for one test, and takes it away after.
struct ProgramsAtOnce;

impl ProgramsAtOnce {
    fn set(programs: usize) -> ProgramsAtOnce {
        grade::run::slots::set_limit(programs);
        ProgramsAtOnce
    }
}

impl Drop for ProgramsAtOnce {
    fn drop(&mut self) {
        grade::run::slots::set_limit(0);
    }
}

/// A shell command that takes about `seconds` of real time without sleeping (a sleep would be
/// cut short): it reads the clock until the time has passed.
fn keep_busy(seconds: f64) -> String {
    format!(
        "end=$(( $(date +%s%N) + {} )); while [ $(date +%s%N) -lt $end ]; do :; done",
        (seconds * 1e9) as u64
    )
}

/// When each of `runs` programs (started from threads, 50 ms apart) ran, by the clock they
/// read themselves: (first line, last line) in nanoseconds, in start order.
fn program_intervals(runs: usize, body: String) -> Vec<(u128, u128)> {
    let handles: Vec<_> = (0..runs)
        .map(|i| {
            std::thread::sleep(Duration::from_millis(50));
            let body = body.clone();
            std::thread::spawn(move || {
                let spec = grade::run::RunSpec::new(vec![
                    "/bin/sh".into(),
                    "-c".into(),
                    format!("date +%s%N; {body}; date +%s%N"),
                ]);
                let outcome = grade::run::run(&spec).expect("run");
                assert_eq!(outcome.ending, grade::run::Ending::Exited(0), "run {i}");
                let text = outcome.transcript.terminal_text();
                let stamps: Vec<u128> = text.lines().filter_map(|l| l.parse().ok()).collect();
                assert_eq!(stamps.len(), 2, "{text}");
                (stamps[0], stamps[1])
            })
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("thread"))
        .collect()
}

/// `--jobs N` bounds the programs running at once, not the grader's threads: with a bound of
/// one, three runs asked for together run one after another; without a bound they overlap.
#[test]
fn the_bound_on_programs_at_once_holds_across_threads() {
    let _g = serial();
    {
        let _one = ProgramsAtOnce::set(1);
        let mut ran = program_intervals(3, keep_busy(0.3));
        ran.sort();
        for pair in ran.windows(2) {
            assert!(
                pair[0].1 <= pair[1].0,
                "two programs ran at once with a bound of one: {ran:?}"
            );
        }
    }
    let ran = program_intervals(3, keep_busy(0.5));
    let overlapping = ran.windows(2).any(|pair| pair[1].0 < pair[0].1);
    assert!(overlapping, "without a bound runs overlap: {ran:?}");
}

/// A run prepared while another program runs waits at its gate just before exec; it must hold
/// nothing of the running one. Were it to hold a copy of that program's stdin, the program
/// reading to the end of its input would never see it (and be killed at its wall limit),
/// and the waiting run would wait for it.
#[test]
fn a_run_waiting_for_its_place_holds_nothing_of_the_running_one() {
    let _g = serial();
    let _one = ProgramsAtOnce::set(1);
    let reader = std::thread::spawn(|| {
        let spec = grade::run::RunSpec {
            input: vec!["a".into(), "b".into()],
            end_of_input: grade::run::EndOfInput::Close,
            limits: grade::run::Limits {
                wall: Duration::from_secs(5),
                ..grade::run::Limits::default()
            },
            ..grade::run::RunSpec::new(vec![
                "/bin/sh".into(),
                "-c".into(),
                format!("{}; wc -l; echo read to the end", keep_busy(0.6)),
            ])
        };
        grade::run::run(&spec).expect("run")
    });
    // The second run is spawned while the first sleeps (its stdin pipe open in the grader).
    std::thread::sleep(Duration::from_millis(200));
    let waiting = grade::run::run(&grade::run::RunSpec::new(vec![
        "/bin/echo".into(),
        "after".into(),
    ]))
    .expect("run");
    let reader = reader.join().expect("thread");
    assert_eq!(
        reader.ending,
        grade::run::Ending::Exited(0),
        "{}",
        reader.transcript.terminal_text()
    );
    assert!(reader
        .transcript
        .terminal_text()
        .contains("read to the end"));
    assert_eq!(waiting.ending, grade::run::Ending::Exited(0));
    assert_eq!(waiting.transcript.terminal_text(), "after\n");
}

/// A program file still open for writing somewhere when it is started (the grader's own race:
/// a build copied from the cache, inherited by a sandbox child another thread forked) is
/// started again once it is closed, not reported as a program that cannot start.
#[test]
fn a_program_briefly_open_for_writing_starts_once_it_is_closed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let program = dir.path().join("prog");
    std::fs::write(&program, "#!/bin/sh\necho started\n").expect("write");
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // Held open for writing for 100 ms: exec meets "Text file busy" until then.
    let writer = std::fs::OpenOptions::new()
        .write(true)
        .open(&program)
        .expect("open for writing");
    let closer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        drop(writer);
    });
    let spec = grade::run::RunSpec {
        readable: vec![dir.path().to_path_buf()],
        ..grade::run::RunSpec::new(vec![program.display().to_string()])
    };
    let outcome = grade::run::run(&spec);
    closer.join().expect("closer");
    let outcome = outcome.unwrap_or_else(|e| panic!("the run did not start: {e}"));
    assert_eq!(outcome.ending, grade::run::Ending::Exited(0));
    assert_eq!(outcome.transcript.terminal_text(), "started\n");
}
