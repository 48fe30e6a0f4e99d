//! Attacks on what `grade` writes rather than on the sandbox (issue 21, attacks 3-8): workflow
//! commands for the GitHub Actions runner, spreadsheet formulas in the gradebook, script links
//! on the class page, a build cache blind to the tree's shape, edited resume state and an
//! archive of folders. Each runs as the test's user and again as `nobody`.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::LoggedOutput;
use crate::{grade_as, serial, support, users, As};

/// The workflow commands the runner knows (actions/runner's ActionCommandManager and its
/// extensions).
const RUNNER_COMMANDS: &[&str] = &[
    "add-mask",
    "add-matcher",
    "add-path",
    "debug",
    "echo",
    "endgroup",
    "error",
    "group",
    "notice",
    "remove-matcher",
    "save-state",
    "set-env",
    "set-output",
    "stop-commands",
    "warning",
];

/// One command the runner would act on.
#[derive(Debug)]
struct WorkflowCommand {
    name: String,
    properties: String,
    data: String,
}

/// The command in `line` as the runner parses it: `::name properties::data` after leading
/// whitespace, else the legacy `##[name properties]data` anywhere in the line.
fn parse(line: &str) -> Option<WorkflowCommand> {
    let split = |info: &str, data: &str| {
        let (name, properties) = info.split_once(' ').unwrap_or((info, ""));
        WorkflowCommand {
            name: name.to_string(),
            properties: properties.to_string(),
            data: data.to_string(),
        }
    };
    if let Some(rest) = line.trim_start().strip_prefix("::") {
        if let Some(end) = rest.find("::") {
            return Some(split(&rest[..end], &rest[end + 2..]));
        }
    }
    let start = line.find("##[")? + 3;
    let end = start + line[start..].find(']')?;
    Some(split(&line[start..end], &line[end + 1..]))
}

/// Every command the runner would act on in `log`, honouring `::stop-commands::TOKEN` until
/// `::TOKEN::` (or `##[TOKEN]`) as the runner does.
fn commands_in(log: &str) -> Vec<WorkflowCommand> {
    let mut found = Vec::new();
    let mut stopped: Option<String> = None;
    for line in log.lines() {
        let Some(command) = parse(line) else {
            continue;
        };
        if let Some(token) = &stopped {
            if command.name.eq_ignore_ascii_case(token) {
                stopped = None;
            }
            continue;
        }
        if !RUNNER_COMMANDS.contains(&command.name.as_str()) {
            continue;
        }
        if command.name == "stop-commands" {
            stopped = Some(command.data.clone());
        }
        found.push(command);
    }
    found
}

/// The commands of `log` that came from the student's program or names
/// (tests/programs/runner/commands.py, folders named after its lines).
fn students_commands(log: &str) -> Vec<WorkflowCommand> {
    commands_in(log)
        .into_iter()
        .filter(|c| {
            c.name == "add-mask"
                || c.name == "warning"
                || (c.name == "stop-commands" && c.data.trim() == "x")
                || c.properties.contains("title=grader")
                || c.data.trim().starts_with("Full marks")
                || c.data.trim().starts_with("Points 90/90")
        })
        .collect()
}

#[test]
fn the_runner_parser_reads_both_syntaxes_and_stops() {
    let log = "  ::error title=grader::Full marks\nsee ##[warning]x\n::stop-commands::t\n\
               ::add-mask::0/90\n::t::\n::notice::ok\n";
    let names: Vec<String> = commands_in(log).into_iter().map(|c| c.name).collect();
    assert_eq!(names, ["error", "warning", "stop-commands", "notice"]);
    assert_eq!(students_commands(log).len(), 2);
}

/// A directory `nobody` can read and write.
pub(crate) fn open_dir(prefix: &str) -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir()
        .expect("tempdir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).expect("chmod");
    dir
}

/// Makes everything under `dir` readable and writable by `nobody`.
pub(crate) fn open_up(dir: &Path) {
    let ok = std::process::Command::new("chmod")
        .args(["-R", "a+rwX"])
        .arg(dir)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "chmod -R {}", dir.display());
}

/// `grade ARGS` as `who` under GitHub Actions, with the summary and output files in `gh`.
fn grade_in_actions(who: As, args: &[&str], gh: &Path) -> Output {
    grade_as(who)
        .args(args)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", gh.join("summary.md"))
        .env("GITHUB_OUTPUT", gh.join("output"))
        .env("XDG_CACHE_HOME", gh.join("cache"))
        .logged_output()
        .expect("grade runs")
}

fn assert_no_students_commands(who: As, what: &str, out: &Output) {
    for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        let log = String::from_utf8_lossy(bytes);
        let found = students_commands(&log);
        assert!(
            found.is_empty(),
            "{who:?} {what} {stream}: the runner would obey the student: {found:?}\n{log}"
        );
    }
}

#[test]
fn student_text_never_becomes_a_workflow_command() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    for who in users() {
        let dir = open_dir("grade-commands-");
        // The folders are the students' too: their names become report and gradebook lines.
        let mut class = Vec::new();
        for name in ["::error title=grader::Full marks", "##[warning]x"] {
            let folder = dir.path().join(name);
            std::fs::create_dir(&folder).expect("mkdir");
            std::fs::copy(
                support::program("runner/commands.py"),
                folder.join("nim.py"),
            )
            .expect("copy");
            class.push(folder.display().to_string());
        }
        open_up(dir.path());
        let submission = format!("{}/nim.py", class[0]);
        let case = ["--case", "computer-first-computer-wins"];
        for format in ["text", "json", "junit", "gradescope", "html", "classroom50"] {
            let args = [
                &[submission.as_str(), "-a", "nim", "--format", format],
                &case[..],
            ]
            .concat();
            let out = grade_in_actions(who, &args, dir.path());
            assert_eq!(
                out.status.code(),
                Some(1),
                "{who:?} {format}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_no_students_commands(who, format, &out);
            // Its own annotations still reach the runner (after a text report on stdout, on
            // stdout; else on stderr).
            let stdout = String::from_utf8_lossy(&out.stdout);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                commands_in(&stdout)
                    .iter()
                    .chain(&commands_in(&stderr))
                    .any(|c| c.name == "error"),
                "{who:?} {format}: no annotation\n{stdout}\n{stderr}"
            );
            // The machine-readable formats still parse, to the same values.
            if format == "json" || format == "gradescope" {
                let value: serde_json::Value = serde_json::from_slice(&out.stdout)
                    .unwrap_or_else(|e| panic!("{who:?} {format}: not JSON ({e})"));
                assert!(
                    value.to_string().contains("##[warning]x"),
                    "{who:?} {format}: the student's line is still quoted, unchanged"
                );
            }
        }
        // A whole class: progress lines, the summary table and each report name the students.
        let class_args: Vec<&str> = class
            .iter()
            .map(String::as_str)
            .chain(["-a", "nim", "--case", "computer-first-computer-wins"])
            .collect();
        let out = grade_in_actions(who, &class_args, dir.path());
        assert_eq!(out.status.code(), Some(1), "{who:?} class");
        assert_no_students_commands(who, "class", &out);
        // An error quoting a name.
        let missing = dir.path().join("::error title=grader::Full marks.py");
        let out = grade_in_actions(
            who,
            &[missing.to_str().expect("utf-8"), "-a", "nim"],
            dir.path(),
        );
        assert_eq!(out.status.code(), Some(2), "{who:?} missing");
        assert_no_students_commands(who, "error", &out);
    }
}

/// The cells of a CSV file, parsed as a spreadsheet would.
fn cells(path: &Path) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_path(path)
        .expect("csv");
    reader
        .records()
        .map(|r| r.expect("row").iter().map(String::from).collect())
        .collect()
}

/// Copies the hostile program into `dir/NAME/nim.py` for each name.
fn class_of(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|name| {
            let folder = dir.join(name);
            std::fs::create_dir(&folder).expect("mkdir");
            std::fs::copy(
                support::program("runner/commands.py"),
                folder.join("nim.py"),
            )
            .expect("copy");
            folder
        })
        .collect()
}

fn grade_class(who: As, folders: &[PathBuf], out_dir: &Path, extra: &[&str], gh: &Path) -> Output {
    let mut cmd = grade_as(who);
    cmd.args(folders)
        .args([
            "-a",
            "nim",
            "--case",
            "computer-first-computer-wins",
            "--output-dir",
        ])
        .arg(out_dir)
        .args(extra)
        .env("XDG_CACHE_HOME", gh.join("cache"))
        .env_remove("GITHUB_ACTIONS");
    cmd.logged_output().expect("grade runs")
}

#[test]
fn names_never_become_formulas_in_the_gradebook() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    for who in users() {
        let dir = open_dir("grade-formulas-");
        let names = [
            "=HYPERLINK(\"evil.example\",\"click\")",
            "+SUM(1,1)",
            "-2+3",
            "@SUM(A1)",
            "\tTAB",
            "plain",
        ];
        let folders = class_of(dir.path(), &names);
        open_up(dir.path());
        let out_dir = dir.path().join("out");
        let out = grade_class(who, &folders, &out_dir, &[], dir.path());
        assert_eq!(
            out.status.code(),
            Some(1),
            "{who:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows = cells(&out_dir.join("gradebook.csv"));
        let header = &rows[0];
        let score = header
            .iter()
            .position(|h| h == "score")
            .expect("score column");
        assert_eq!(rows.len(), names.len() + 1, "{who:?}: {rows:?}");
        for row in &rows[1..] {
            for (column, cell) in header.iter().zip(row) {
                assert!(
                    !cell.starts_with(['=', '+', '-', '@', '\t', '\r']),
                    "{who:?}: the {column} cell {cell:?} is a formula"
                );
            }
            // Numbers stay numbers.
            assert!(row[score].parse::<f64>().is_ok(), "{who:?}: {row:?}");
        }
        // The name is all there, after the quote that makes it text.
        assert!(
            rows.iter()
                .any(|r| r[0] == "'=HYPERLINK(\"evil.example\",\"click\")"),
            "{who:?}: {rows:?}"
        );
    }
}

/// The DOM of `page` after headless Chromium loaded it, scripts (if any could run) included.
fn rendered(page: &Path) -> String {
    let output = std::process::Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"])
        .arg(format!("file://{}", page.display()))
        .logged_output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Whether `href` could leave the page's folder or run something: a scheme (`x:` before any
/// `/`), a path from the root or another host.
fn leaves_the_folder(href: &str) -> bool {
    let before_slash = href.split('/').next().unwrap_or("");
    before_slash.contains(':') || href.starts_with('/') || href.starts_with("\\")
}

#[test]
fn the_class_page_links_only_beside_itself_and_runs_no_script() {
    let _g = serial();
    if !(support::have("python3") && support::have("chromium")) {
        return;
    }
    for who in users() {
        let dir = open_dir("grade-links-");
        let names = [
            "javascript:alert(document.domain)",
            "<img src=x onerror=alert(1)>",
        ];
        let folders = class_of(dir.path(), &names);
        open_up(dir.path());
        let out_dir = dir.path().join("out");
        let out = grade_class(who, &folders, &out_dir, &["--format", "html"], dir.path());
        assert_eq!(
            out.status.code(),
            Some(1),
            "{who:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let index = std::fs::read_to_string(out_dir.join("index.html")).expect("class page");
        let hrefs: Vec<&str> = index
            .split("href=\"")
            .skip(1)
            .filter_map(|s| s.split('"').next())
            .collect();
        assert!(!hrefs.is_empty(), "{who:?}: no links\n{index}");
        for href in &hrefs {
            assert!(
                !leaves_the_folder(href),
                "{who:?}: a link to {href}\n{index}"
            );
        }
        // Every page forbids scripts: were a script to slip into one (an escaping bug), the
        // browser would still not run it.
        let mut pages: Vec<PathBuf> = walkdir::WalkDir::new(&out_dir)
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "html"))
            .collect();
        pages.sort();
        // Each student's page and the instructor's beside it, and the class page.
        assert_eq!(pages.len(), 2 * names.len() + 1, "{who:?}: {pages:?}");
        for page in pages {
            let html = std::fs::read_to_string(&page).expect("page");
            let planted = html.replacen(
                "<body>",
                "<body><script>document.body.setAttribute('data-ran','yes')</script>\
                 <img src=x onerror=\"document.body.setAttribute('data-ran','yes')\">",
                1,
            );
            let probe = dir.path().join("probe.html");
            std::fs::write(&probe, planted).expect("write");
            let dom = rendered(&probe);
            assert!(
                dom.contains("<body") && !dom.contains("data-ran=\"yes\""),
                "{who:?} {}: a script ran\n{dom}",
                page.display()
            );
        }
        // As written, the class page shows the names as text.
        let dom = rendered(&out_dir.join("index.html"));
        assert!(
            dom.contains("&lt;img src=x onerror=alert(1)&gt;") && !dom.contains("<img src=\"x\""),
            "{who:?}: {dom}"
        );
    }
}

/// Whether the kernel offers Landlock (then the build cache is on even unprivileged).
fn landlock_available() -> bool {
    // SAFETY: asks for the Landlock ABI version (LANDLOCK_CREATE_RULESET_VERSION); no memory.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32,
        )
    };
    abi > 0
}

#[test]
fn an_empty_folder_makes_another_build() {
    let _g = serial();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 && !landlock_available() {
        println!("skipped: neither root nor Landlock here, so the build cache is off");
        return;
    }
    for who in users() {
        let dir = open_dir("grade-cache-shape-");
        let cache = dir.path().join("cache");
        // The same build script in both: it builds a program that says which it saw.
        let script = "if [ -d extra ]; then word=EXTRA; else word=PLAIN; fi\n\
                      printf '#!/bin/sh\\necho %s\\n' \"$word\" > prog\nchmod +x prog\n";
        let plain = dir.path().join("plain");
        let extra = dir.path().join("extra_dir");
        for folder in [&plain, &extra] {
            std::fs::create_dir(folder).expect("mkdir");
            std::fs::write(folder.join("build.sh"), script).expect("write");
        }
        std::fs::create_dir(extra.join("extra")).expect("mkdir");
        open_up(dir.path());
        let said = |folder: &Path| {
            let out = grade_as(who)
                .arg(folder)
                .args(["-a", "nim", "--case", "computer-first-computer-wins"])
                .args(["--format", "json"])
                .env("XDG_CACHE_HOME", &cache)
                .env_remove("GITHUB_ACTIONS")
                .logged_output()
                .expect("grade runs");
            let report: serde_json::Value =
                serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                    panic!(
                        "{who:?}: no JSON ({e}): {}",
                        String::from_utf8_lossy(&out.stderr)
                    )
                });
            report.to_string()
        };
        let first = said(&plain);
        assert!(first.contains("PLAIN"), "{who:?}: {first}");
        let second = said(&extra);
        assert!(
            second.contains("EXTRA") && !second.contains("PLAIN"),
            "{who:?}: the folder with `extra/` ran the other's program: {second}"
        );
    }
}

#[test]
fn edited_resume_state_is_graded_again_not_taken() {
    let _g = serial();
    if !support::have("python3") {
        return;
    }
    for who in users() {
        let dir = open_dir("grade-resume-");
        let folders = class_of(dir.path(), &["ana"]);
        open_up(dir.path());
        let out_dir = dir.path().join("out");
        let first = grade_class(who, &folders, &out_dir, &["--format", "json"], dir.path());
        assert_eq!(
            first.status.code(),
            Some(1),
            "{who:?}: {}",
            String::from_utf8_lossy(&first.stderr)
        );
        let honest = cells(&out_dir.join("gradebook.csv"));
        let state = out_dir.join(".grade/ana.json");
        let mut stored: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&state).expect("state")).expect("json");
        let max = stored["max_score"].clone();
        stored["score"] = max.clone();
        for case in stored["cases"].as_array_mut().expect("cases") {
            case["score"] = case["max_score"].clone();
        }
        stored["class_status"] = "full marks\u{1b}[2J\u{1b}[H".into();
        stored["class_notes"] = "\u{1b}]0;pwned\u{7}".into();
        std::fs::write(&state, serde_json::to_vec(&stored).expect("json")).expect("write");
        open_up(&out_dir);
        let again = grade_class(who, &folders, &out_dir, &["--format", "json"], dir.path());
        for (stream, bytes) in [("stdout", &again.stdout), ("stderr", &again.stderr)] {
            assert!(
                !bytes.contains(&0x1b),
                "{who:?} {stream}: a raw ESC from the stored state"
            );
        }
        assert_eq!(
            again.status.code(),
            Some(1),
            "{who:?}: the edited full marks were taken"
        );
        let rows = cells(&out_dir.join("gradebook.csv"));
        assert_eq!(rows[1][2], honest[1][2], "{who:?}: score {rows:?}");
        assert_ne!(rows[1][2], max.to_string(), "{who:?}");
        assert!(
            rows[1].last().is_some_and(|n| n.contains("did not verify")),
            "{who:?}: no note {rows:?}"
        );
        assert!(
            String::from_utf8_lossy(&again.stderr).contains("did not verify"),
            "{who:?}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        // An unedited state is still taken.
        let third = grade_class(who, &folders, &out_dir, &["--format", "json"], dir.path());
        assert!(
            String::from_utf8_lossy(&third.stderr).contains("unchanged, kept"),
            "{who:?}: {}",
            String::from_utf8_lossy(&third.stderr)
        );
    }
}

#[test]
fn an_archive_of_fifty_thousand_folders_is_refused() {
    let _g = serial();
    let dir = open_dir("grade-folder-bomb-");
    let bomb = dir.path().join("bomb.zip");
    {
        let file = std::fs::File::create(&bomb).expect("create");
        let mut zip = zip::ZipWriter::new(file);
        for i in 0..50_000 {
            zip.add_directory(format!("d{i}/"), zip::write::SimpleFileOptions::default())
                .expect("dir");
        }
        zip.finish().expect("finish");
    }
    open_up(dir.path());
    for who in users() {
        let out = grade_as(who)
            .arg(&bomb)
            .args(["-a", "nim"])
            .env_remove("GITHUB_ACTIONS")
            .logged_output()
            .expect("grade runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{who:?}: {stderr}");
        assert!(
            stderr.contains("more than") && stderr.contains("files and folders"),
            "{who:?}: refused by the archive's entry count: {stderr}"
        );
    }
}

#[test]
fn a_folder_of_fifty_thousand_folders_is_refused() {
    let _g = serial();
    let dir = open_dir("grade-folder-tree-bomb-");
    let bomb = dir.path().join("bomb");
    std::fs::create_dir(&bomb).expect("mkdir");
    for i in 0..50_000 {
        std::fs::create_dir(bomb.join(format!("d{i}"))).expect("mkdir");
    }
    std::fs::write(bomb.join("nim.py"), "print('hi')\n").expect("write");
    open_up(dir.path());
    for who in users() {
        let out = grade_as(who)
            .arg(&bomb)
            .args(["-a", "nim"])
            .env_remove("GITHUB_ACTIONS")
            .logged_output()
            .expect("grade runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{who:?}: {stderr}");
        assert!(
            stderr.contains("more than 2000 files and folders"),
            "{who:?}: refused by the folder's entry count: {stderr}"
        );
    }
}
