//! Style invariance (issue 20, item 7): every correct test program, built once, is run through
//! tests/support/restyle.py — a wrapper that rewrites the program's output in real time in a
//! style the handout leaves free — and graded as a submission of its own (a folder whose `run`
//! script starts the wrapper on the built program). Used by tests/fairness.rs.
#![allow(
    unreachable_pub,
    reason = "programs in many styles, shared by the fairness tests"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{have, program, tools_for, LoggedOutput};

/// JVM options as the grader passes them (src/submission.rs), so a wrapped Java program runs
/// under the same memory limit as a Java submission.
const JVM_OPTIONS: &[&str] = &[
    "-Xmx256m",
    "-Xss8m",
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-XX:CompileThresholdScaling=10",
    "-XX:CompressedClassSpaceSize=64m",
    "-XX:ReservedCodeCacheSize=64m",
    "-XX:-UsePerfData",
];

/// A correct program built once: a folder holding what runs it, and the command that runs it
/// (words; `@/` stands for the folder, wherever the grader copies it).
pub struct Built {
    /// The program's files (binary, classes or scripts).
    pub dir: PathBuf,
    /// The command, with `@/` for paths inside `dir`.
    pub command: Vec<String>,
}

fn run_tool(command: &mut Command) {
    let output = command.logged_output().expect("the build tool runs");
    assert!(
        output.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from)
        .into_iter()
        .filter_map(Result::ok)
    {
        let target = to.join(entry.path().strip_prefix(from).expect("inside"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| w.to_string()).collect()
}

/// Builds the program at `relative` (tests/programs/) into `under`, as the grader would build
/// it (same compilers and main choices); `None` when its toolchain is missing here.
pub fn build(relative: &str, under: &Path) -> Option<Built> {
    let source = program(relative);
    if !tools_for(&source).iter().all(|tool| have(tool)) {
        return None;
    }
    let dir = under.join(relative.replace('/', "_"));
    std::fs::create_dir_all(&dir).expect("mkdir");
    let binary = dir.join("prog");
    let name = source
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    let extension = source
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let files_with = |ext: &str| -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&source)
            .expect("read dir")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == ext))
            .collect();
        found.sort();
        found
    };
    let command = if source.join("Cargo.toml").is_file() {
        // Built from a copy: Cargo writes a Cargo.lock beside the manifest.
        let crate_copy = under.join("crate");
        copy_tree(&source, &crate_copy);
        let target = under.join("cargo-target");
        run_tool(
            Command::new("cargo")
                .args([
                    "build",
                    "--release",
                    "--offline",
                    "--quiet",
                    "--manifest-path",
                ])
                .arg(crate_copy.join("Cargo.toml"))
                .env("CARGO_TARGET_DIR", &target),
        );
        std::fs::copy(target.join("release/nim"), &binary).expect("copy the crate's binary");
        words(&["@/prog"])
    } else if source.is_dir() && !files_with("java").is_empty() {
        run_tool(
            Command::new("javac")
                .args(["-encoding", "UTF-8", "-d"])
                .arg(dir.join("classes"))
                .args(files_with("java")),
        );
        let main = if source.join("PlayGame.java").is_file() {
            "PlayGame"
        } else {
            "Collect"
        };
        let mut command = vec!["java".to_string()];
        command.extend(words(JVM_OPTIONS));
        command.extend(words(&["-cp", "@/classes", main]));
        command
    } else if source.is_dir() && !files_with("go").is_empty() {
        let cache = under.join("go-cache");
        run_tool(
            Command::new("go")
                .arg("build")
                .arg("-o")
                .arg(&binary)
                .args(files_with("go"))
                .env("GOCACHE", &cache)
                .env("GO111MODULE", "off")
                .env("GOFLAGS", ""),
        );
        words(&["@/prog"])
    } else if source.is_dir() && !files_with("cpp").is_empty() {
        run_tool(
            Command::new("g++")
                .args(["-O2", "-o"])
                .arg(&binary)
                .arg("-I")
                .arg(&source)
                .args(files_with("cpp")),
        );
        words(&["@/prog"])
    } else if source.is_dir() {
        // Python in a folder: the handout's file name (collect) or main.py.
        copy_tree(&source, &dir.join("src"));
        let entry = if source.join("main.py").is_file() {
            "main.py"
        } else {
            "assignment3.py"
        };
        vec!["python3".into(), format!("@/src/{entry}")]
    } else {
        match extension.as_str() {
            "c" | "cpp" => {
                let compiler = if extension == "c" { "gcc" } else { "g++" };
                run_tool(
                    Command::new(compiler)
                        .args(["-O2", "-o"])
                        .arg(&binary)
                        .arg(&source)
                        .arg("-lm"),
                );
                words(&["@/prog"])
            }
            "rs" => {
                run_tool(
                    Command::new("rustc")
                        .args(["-O", "--edition", "2021", "-o"])
                        .arg(&binary)
                        .arg(&source),
                );
                words(&["@/prog"])
            }
            interpreted => {
                std::fs::copy(&source, dir.join(&name)).expect("copy");
                let interpreter = match interpreted {
                    "py" => "python3",
                    "js" => "node",
                    "rb" => "ruby",
                    "pl" => "perl",
                    other => panic!("no build for .{other} ({relative})"),
                };
                vec![interpreter.into(), format!("@/{name}")]
            }
        }
    };
    Some(Built { dir, command })
}

/// How the wrapper restyles the output: a style and what it needs.
#[derive(Clone, Debug)]
pub struct Style {
    /// A style name of tests/support/restyle.py.
    pub name: &'static str,
    /// (pattern, replacement) pairs for `reworded` (a whole line matching a pattern).
    pub reword: Vec<(String, String)>,
    /// The lines that are a board, for `boxed` and `spaced`.
    pub board: Option<&'static str>,
}

impl Style {
    /// A style without rewording or board.
    pub fn plain(name: &'static str) -> Style {
        Style {
            name,
            reword: Vec::new(),
            board: None,
        }
    }

    fn config(&self) -> String {
        serde_json::json!({
            "style": self.name,
            "reword": self.reword,
            "board": self.board,
        })
        .to_string()
    }
}

/// The wrapper's source, kept beside this module.
pub fn wrapper_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/restyle.py")
}

/// The words of `built`'s command with `@/` resolved against `folder`, for running it here.
pub fn command_in(built: &Built, folder: &Path) -> Vec<String> {
    built
        .command
        .iter()
        .map(|w| match w.strip_prefix("@/") {
            Some(rest) => folder.join(rest).display().to_string(),
            None => w.clone(),
        })
        .collect()
}

/// A submission folder that runs `built` through the wrapper in `style`: its `run` script
/// (which the grader runs as it is), the wrapper, the style and the program's files.
pub fn submission(built: &Built, style: &Style, under: &Path) -> PathBuf {
    let folder = under.join(format!(
        "{}-{}",
        built.dir.file_name().expect("name").to_string_lossy(),
        style.name
    ));
    copy_tree(&built.dir, &folder);
    std::fs::copy(wrapper_path(), folder.join("restyle.py")).expect("copy the wrapper");
    std::fs::write(folder.join("style.json"), style.config()).expect("write the style");
    let command: Vec<String> = built
        .command
        .iter()
        .map(|w| match w.strip_prefix("@/") {
            Some(rest) => format!("\"$here/{rest}\""),
            None => w.clone(),
        })
        .collect();
    let script = format!(
        "#!/bin/sh\nhere=\"$(dirname \"$0\")\"\nexec python3 \"$here/restyle.py\" \"$here/style.json\" {} \"$@\"\n",
        command.join(" ")
    );
    let run = folder.join("run");
    std::fs::write(&run, script).expect("write run");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    folder
}

/// One event of a transcript as `grade run --json` reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Text the program printed on stdout (consecutive pieces joined).
    Output(String),
    /// A line typed when the program waited for input.
    Input(String),
}

/// The real Python interpreter (the per-run user of the sandbox cannot use a pyenv shim).
fn python() -> String {
    if Path::new("/usr/bin/python3").is_file() {
        "/usr/bin/python3".into()
    } else {
        "python3".into()
    }
}

/// Runs `built` under `grade run` (the grader's own runner: each input typed when the program
/// waits for it) with `input`, through the wrapper in `style`, or directly when `style` is
/// `None`; returns the transcript.
pub fn transcript(built: &Built, style: Option<&Style>, input: &[&str]) -> Vec<Event> {
    let scratch = tempfile::tempdir().expect("tempdir");
    let input_file = scratch.path().join("input.txt");
    std::fs::write(&input_file, input.join("\n") + "\n").expect("write input");
    let config = scratch.path().join("style.json");
    let mut command: Vec<String> = Vec::new();
    if let Some(style) = style {
        std::fs::write(&config, style.config()).expect("write the style");
        command.push(python());
        command.push(wrapper_path().display().to_string());
        command.push(config.display().to_string());
    }
    for word in command_in(built, &built.dir) {
        command.push(if word == "python3" { python() } else { word });
    }
    // The run's own user reads the program, the wrapper and the style.
    for dir in [scratch.path(), built.dir.as_path()] {
        let _ = Command::new("chmod")
            .arg("-R")
            .arg("a+rX")
            .arg(dir)
            .status();
    }
    let mut readable: Vec<PathBuf> = vec![scratch.path().to_path_buf(), built.dir.clone()];
    readable.push(wrapper_path().parent().expect("folder").to_path_buf());
    let mut grade = super::grade();
    grade
        .arg("run")
        .arg("--json")
        .arg("--input")
        .arg(&input_file);
    for path in &readable {
        grade.arg("--readable").arg(path);
    }
    let output = grade
        .arg("--")
        .args(&command)
        .logged_output()
        .expect("grade run");
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "grade run printed no JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let mut events: Vec<Event> = Vec::new();
    for event in json["events"].as_array().expect("events") {
        if event["input_closed"] == true {
            // The script ran out and the program was given end of input: what it prints
            // then is judged apart (a pause after the game, or a mid-game stop).
            break;
        }
        if let Some(line) = event["input"].as_str() {
            events.push(Event::Input(line.to_string()));
        } else if event["stream"] == "stdout" {
            let text = event["output"].as_str().unwrap_or_default();
            match events.last_mut() {
                Some(Event::Output(previous)) => previous.push_str(text),
                _ => events.push(Event::Output(text.to_string())),
            }
        }
    }
    events
}
