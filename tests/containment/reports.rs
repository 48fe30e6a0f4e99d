//! Attacks on what reports say and where they go (issue 31, attacks 2, 3 and 5): a hidden
//! case's run figures (exit status, CPU time, peak memory) read back from a student's reports,
//! the course seed computed from the seed a random-games report prints (or read from a
//! variant's report), and student folders named like report files (`bob.instructor`, `index`,
//! dot-names, names equal but for case). Each runs as the test's user and again as `nobody`.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::output::{open_dir, open_up};
use crate::support::LoggedOutput;
use crate::{grade_as, serial, support, users, As};

/// What an instructor's report marks a hidden case with (src/report/audience.rs).
const HIDDEN_MARK: &str = "[hidden from students]";

/// The exit status the hostile program ends the hidden case with.
const SIGNAL_STATUS: &str = "173";

/// A folder `dir/NAME` holding `program` (tests/programs/`program`) as `file`.
fn student(dir: &Path, name: &str, program: &str, file: &str) -> PathBuf {
    let folder = dir.join(name);
    std::fs::create_dir(&folder).expect("mkdir");
    std::fs::copy(support::program(program), folder.join(file)).expect("copy");
    folder
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Every number in `text` (runs of digits with at most one decimal point).
fn numbers(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (c == '.' && !current.is_empty() && !current.contains('.')) {
            current.push(c);
        } else if !current.is_empty() {
            found.push(current.trim_end_matches('.').to_string());
            current.clear();
        }
    }
    found
}

/// Fails when `text`, a student's view of a grading whose only case is the hidden one, shows
/// any figure of that case's run: its exit status, its peak memory (75 MiB and up, in KiB or
/// MiB), or any time other than zero (the hidden run's time in any unit, or a total that
/// includes it).
fn assert_no_figures(who: As, what: &str, text: &str) {
    let numbers = numbers(text);
    assert!(
        !numbers.iter().any(|n| n == SIGNAL_STATUS),
        "{who:?} {what}: the hidden case's exit status {SIGNAL_STATUS} is shown:\n{text}"
    );
    assert!(
        !text.contains("MiB")
            && !numbers.iter().any(|n| n
                .parse::<f64>()
                .is_ok_and(|v| (75.0 * 1024.0..=96.0 * 1024.0).contains(&v))),
        "{who:?} {what}: the hidden case's peak memory is shown:\n{text}"
    );
    // Times: JSON milliseconds and seconds, JUnit's time attributes, "0.41 s" in text.
    let zero = |v: &serde_json::Value| v.is_null() || v.as_f64() == Some(0.0);
    if let Ok(json) = serde_json::from_str::<serde_json::Value>(text) {
        let mut stack = vec![("".to_string(), &json)];
        while let Some((key, value)) = stack.pop() {
            match value {
                serde_json::Value::Object(map) => {
                    assert!(
                        !map.contains_key("run") || map.get("visibility").is_none(),
                        "{who:?} {what}: the hidden case keeps its run: {value:#}"
                    );
                    stack.extend(map.iter().map(|(k, v)| (k.clone(), v)));
                }
                serde_json::Value::Array(items) => {
                    stack.extend(items.iter().map(|v| (key.clone(), v)));
                }
                _ if [
                    "wall_ms",
                    "cpu_ms",
                    "execution_time",
                    "duration",
                    "exit_code",
                ]
                .contains(&key.as_str()) =>
                {
                    assert!(zero(value), "{who:?} {what}: {key} is {value}:\n{text}");
                }
                _ => {}
            }
        }
    }
    for attribute in text.split("time=\"").skip(1) {
        let value = attribute.split('"').next().unwrap_or_default();
        assert!(
            value.parse::<f64>().is_ok_and(|v| v == 0.0),
            "{who:?} {what}: a time of {value} s is shown:\n{text}"
        );
    }
    for (i, _) in text.match_indices(" s") {
        // A unit, not a word ("1 students").
        if text[i + 2..].starts_with(|c: char| c.is_alphanumeric()) {
            continue;
        }
        let before = &text[..i];
        let number: String = before
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect::<Vec<char>>()
            .into_iter()
            .rev()
            .collect();
        if let Ok(seconds) = number.parse::<f64>() {
            assert!(
                seconds == 0.0,
                "{who:?} {what}: a time of {number} s is shown:\n{text}"
            );
        }
    }
}

/// Standard base64, decoded (the Classroom result in `$GITHUB_OUTPUT`).
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::new();
    let (mut bits, mut count) = (0u32, 0);
    for byte in text.bytes() {
        let Some(value) = ALPHABET.iter().position(|&a| a == byte) else {
            continue;
        };
        bits = (bits << 6) | value as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}

/// Every file under `dir` with its path relative to it.
fn files_under(dir: &Path) -> Vec<(String, PathBuf)> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            let relative = e
                .path()
                .strip_prefix(dir)
                .expect("under dir")
                .display()
                .to_string();
            (relative, e.into_path())
        })
        .collect()
}

#[test]
fn a_hidden_cases_run_figures_reach_no_student() {
    let _g = serial();
    if !support::have("gcc") {
        println!("skipped: no gcc");
        return;
    }
    for who in users() {
        let dir = open_dir("grade-hidden-figures-");
        let ana = student(dir.path(), "ana", "reports/hidden_figures.c", "nim.c");
        let gh = dir.path().join("gh");
        std::fs::create_dir(&gh).expect("mkdir");
        open_up(dir.path());
        let grade = |submission: &Path, extra: &[&str], actions: bool| -> Output {
            let mut command = grade_as(who);
            command
                .arg(submission)
                .args(["-a", "nim", "--case", "errors-mixed-hidden"])
                .args(extra)
                .env("XDG_CACHE_HOME", dir.path().join("cache"))
                .env_remove("GITHUB_ACTIONS");
            if actions {
                command
                    .env("GITHUB_ACTIONS", "true")
                    .env("GITHUB_STEP_SUMMARY", gh.join("summary.md"))
                    .env("GITHUB_OUTPUT", gh.join("output"));
            }
            command.logged_output().expect("grade runs")
        };

        // The instructor sees what the program did: it did signal.
        let out = grade(
            &ana,
            &["--format", "json", "--audience", "instructor"],
            false,
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{who:?}: no JSON ({e}): {}", stderr(&out)));
        let run = &report["cases"][0]["run"];
        assert_eq!(run["exit_code"], 173, "{who:?}: {report:#}");
        assert!(run["cpu_ms"].as_u64() >= Some(350), "{who:?}: {run}");
        assert!(
            // It touches 77 MiB; what is measured resident can fall a few pages short.
            run["peak_memory_kib"].as_u64() >= Some(75 * 1024),
            "{who:?}: {run}"
        );

        // Every format a student reads, on standard output.
        for format in ["text", "json", "junit", "gradescope", "html", "classroom50"] {
            let out = grade(&ana, &["--format", format], false);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{who:?} {format}: {}",
                stderr(&out)
            );
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(
                text.contains("errors-mixed-hidden"),
                "{who:?} {format}: {text}"
            );
            assert_no_figures(who, format, &text);
        }

        // Under GitHub Actions: the annotations, the job summary and the Classroom result.
        let out = grade(&ana, &["--format", "json"], true);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{who:?} actions: {}",
            stderr(&out)
        );
        assert_no_figures(who, "actions stdout", &String::from_utf8_lossy(&out.stdout));
        assert_no_figures(who, "annotations", &stderr(&out));
        let summary = std::fs::read_to_string(gh.join("summary.md")).expect("job summary");
        assert!(
            summary.contains("errors-mixed-hidden"),
            "{who:?}: {summary}"
        );
        assert_no_figures(who, "job summary", &summary);
        let output = std::fs::read_to_string(gh.join("output")).expect("step output");
        let classroom = output
            .lines()
            .find_map(|l| l.strip_prefix("result="))
            .map(|b| String::from_utf8_lossy(&base64_decode(b)).into_owned())
            .unwrap_or_else(|| panic!("{who:?}: no result in {output}"));
        assert!(
            classroom.contains("errors-mixed-hidden"),
            "{who:?}: {classroom}"
        );
        assert_no_figures(who, "Classroom result", &classroom);

        // A class: every file it writes but the instructor's reports (the student reports,
        // the gradebook, the class page, the stored result).
        for format in ["text", "json", "junit", "gradescope", "html", "classroom50"] {
            let out_dir = dir.path().join(format!("class-{format}"));
            let out = grade(
                &ana,
                &[
                    "--format",
                    format,
                    "--output-dir",
                    out_dir.to_str().expect("utf-8"),
                ],
                false,
            );
            assert_eq!(
                out.status.code(),
                Some(1),
                "{who:?} class {format}: {}",
                stderr(&out)
            );
            let files = files_under(&out_dir);
            let mut instructor = 0;
            for (relative, path) in &files {
                let text =
                    String::from_utf8_lossy(&std::fs::read(path).expect("read")).into_owned();
                if relative.ends_with(".key") {
                    // The resume key and its seal: two hashes in hex, no figure.
                    continue;
                }
                if relative.contains("instructor") {
                    // Classroom 50's result.json is points and pass/fail for anyone.
                    if format != "classroom50" {
                        assert!(text.contains(SIGNAL_STATUS), "{who:?} {relative}: {text}");
                    }
                    instructor += 1;
                    continue;
                }
                assert_no_figures(who, &format!("class {relative}"), &text);
            }
            assert_eq!(instructor, 1, "{who:?} {format}: {files:?}");
            assert!(files.len() >= 4, "{who:?} {format}: {files:?}");
        }
    }
}

/// SplitMix64's first output from `state` (src/games: `SplitMix64::new(state).next_u64()`).
fn splitmix(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The state SplitMix64 started from, given its first output: each step undone.
fn unsplitmix(output: u64) -> u64 {
    let unshift = |mut z: u64, shift: u32| {
        let mut x = z;
        for _ in 0..64 / shift {
            x = z ^ (x >> shift);
        }
        z = x;
        z
    };
    // The inverse of an odd multiplier modulo 2^64 (Newton's iteration).
    let inverse = |a: u64| {
        let mut x = a;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
    };
    let mut z = unshift(output, 31);
    z = z.wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
    z = unshift(z, 27);
    z = z.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
    z = unshift(z, 30);
    z.wrapping_sub(0x9E37_79B9_7F4A_7C15)
}

/// The seed a random-games check's detail prints (`…, seed N)` or `seed N;`).
fn printed_seed(detail: &str) -> Option<u64> {
    let after = detail.split("seed ").nth(1)?;
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn a_printed_seed_gives_away_no_course_seed() {
    let _g = serial();
    if !support::have("python3") {
        println!("skipped: no python3");
        return;
    }
    // The attack undoes the mix exactly.
    for state in [0, 1, 7, 12345, u64::MAX, 0x0123_4567_89ab_cdef] {
        assert_eq!(unsplitmix(splitmix(state)), state);
    }
    let course: u64 = 0x5eed_0fc0_52e5_1a7b;
    let course_text = course.to_string();
    for who in users() {
        let dir = open_dir("grade-seed-");
        let ana = student(dir.path(), "ana", "reports/plays_nothing.py", "nim.py");
        // A course with per-student variants and that seed.
        let root = dir.path().join("course");
        let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
        for top in ["cases", "reference"] {
            let to = root.join(top).join("nim");
            std::fs::create_dir_all(&to).expect("mkdir");
            for entry in std::fs::read_dir(repo.join(top).join("nim")).expect("built-in cases") {
                let path = entry.expect("entry").path();
                std::fs::copy(&path, to.join(path.file_name().expect("name"))).expect("copy");
            }
        }
        let header = root.join("cases/nim/assignment.yaml");
        let mut text = std::fs::read_to_string(&header).expect("header");
        text.push_str(&format!(
            "seed: {course}\nvariants:\n  - matches: 21\n  - matches: 25\n"
        ));
        std::fs::write(&header, text).expect("write header");
        open_up(dir.path());
        let grade = |extra: &[&str], env: &[(&str, &str)]| -> Output {
            grade_as(who)
                .arg(&ana)
                .args(["-a", "nim"])
                .args(extra)
                .env("XDG_CACHE_HOME", dir.path().join("cache"))
                .env_remove("GITHUB_ACTIONS")
                .env_remove("GRADE_COURSE_SEED")
                .envs(env.iter().copied())
                .logged_output()
                .expect("grade runs")
        };

        // One failing random-games report, the course seed in the environment.
        let out = grade(
            &["--case", "random-games", "--format", "json"],
            &[("GRADE_COURSE_SEED", &course_text)],
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{who:?}: no JSON ({e}): {}", stderr(&out)));
        let detail = report["cases"][0]["checks"][0]["detail"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let printed =
            printed_seed(&detail).unwrap_or_else(|| panic!("{who:?}: no seed printed: {report:#}"));
        // The random-games case's own seed is public (cases/nim/random-games.yaml: 1).
        assert_ne!(printed, 1, "{who:?}: the course seed changed nothing");
        assert_ne!(
            unsplitmix(printed ^ 1),
            course,
            "{who:?}: the printed seed {printed} gives the course seed away"
        );
        assert!(
            !String::from_utf8_lossy(&out.stdout).contains(&course_text),
            "{who:?}: {report:#}"
        );

        // A course with variants: every report names the variant, none the seed.
        let course_dir = root.to_str().expect("utf-8");
        for format in ["text", "json", "junit", "gradescope", "html"] {
            let out = grade(
                &[
                    "--cases",
                    course_dir,
                    "--case",
                    "computer-first-computer-wins",
                    "--format",
                    format,
                ],
                &[],
            );
            let text = String::from_utf8_lossy(&out.stdout);
            let named = match format {
                "json" => serde_json::from_str::<serde_json::Value>(&text)
                    .is_ok_and(|r| r["variant"]["student"] == "ana" && r["variant"]["of"] == 2),
                "junit" => out.status.code() == Some(1),
                _ => text.contains("of 2 for ana"),
            };
            assert!(
                named,
                "{who:?} {format}: no variant named: {text}\n{}",
                stderr(&out)
            );
            assert!(
                !text.contains(&course_text),
                "{who:?} {format}: the course seed is printed:\n{text}"
            );
        }
    }
}

/// The class page's rows: (student as shown, link to the report, link to the instructor's).
fn class_rows(page: &str) -> Vec<(String, String, String)> {
    let table = page
        .split("<table id=\"students\"")
        .nth(1)
        .unwrap_or_default();
    table
        .split("<tr><td>")
        .skip(1)
        .filter_map(|row| {
            let link = row
                .split("<a href=\"")
                .nth(1)?
                .split('"')
                .next()?
                .to_string();
            let name = row.split("\">").nth(1)?.split("</a>").next()?.to_string();
            let instructor = row
                .split("class=\"instructor\" href=\"")
                .nth(1)?
                .split('"')
                .next()?
                .to_string();
            Some((name, link, instructor))
        })
        .collect()
}

/// A link of the class page as a path beside it (`%XX` decoded).
fn unlink(link: &str) -> String {
    let bytes = link.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(byte) = u8::from_str_radix(&link[i + 1..i + 3], 16) {
                out.push(byte);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn student_names_cannot_take_a_report_or_the_class_page() {
    let _g = serial();
    if !support::have("python3") {
        println!("skipped: no python3");
        return;
    }
    // Every name a report or the class page could be taken with; `.hidden` and `hidden`, and
    // `Bob` and `bob`, are one file name once a dot is dropped or case is ignored (a
    // case-insensitive file system, a zip opened on one): each student gets a name of their
    // own, told apart by a number.
    let names = [
        "bob",
        "bob.instructor",
        "index",
        "gradebook",
        "changes",
        "...",
        ".hidden",
        "hidden",
        "Bob",
    ];
    for who in users() {
        let dir = open_dir("grade-names-");
        let class = dir.path().join("class");
        std::fs::create_dir(&class).expect("mkdir");
        let folders: Vec<PathBuf> = names
            .iter()
            .map(|name| student(&class, name, "reports/quiet.py", "nim.py"))
            .collect();
        open_up(dir.path());
        let out_dir = dir.path().join("out");
        let grade_class = || {
            let out = grade_as(who)
                .args(&folders)
                .args([
                    "-a",
                    "nim",
                    "--case",
                    "errors-mixed-hidden",
                    "--format",
                    "html",
                ])
                .arg("--output-dir")
                .arg(&out_dir)
                .env("XDG_CACHE_HOME", dir.path().join("cache"))
                .env_remove("GITHUB_ACTIONS")
                .logged_output()
                .expect("grade runs");
            assert_eq!(out.status.code(), Some(1), "{who:?}: {}", stderr(&out));
        };
        grade_class();
        // Again: over the first run, changes.csv is written too.
        grade_class();

        // The class files are the class's.
        let page = std::fs::read_to_string(out_dir.join("index.html")).expect("class page");
        assert!(
            page.contains(&format!("<h1>nim: {} students</h1>", names.len())),
            "{who:?}: index.html is not the class page:\n{page}"
        );
        let gradebook = std::fs::read_to_string(out_dir.join("gradebook.csv")).expect("gradebook");
        assert!(
            gradebook.starts_with("student,submission,score"),
            "{who:?}: {gradebook}"
        );
        assert_eq!(
            gradebook.lines().count(),
            names.len() + 1,
            "{who:?}: {gradebook}"
        );
        let changes = std::fs::read_to_string(out_dir.join("changes.csv")).expect("changes");
        assert!(
            changes.starts_with("student,old_score"),
            "{who:?}: {changes}"
        );

        // Each student's report, as the class page links it, is that student's and shows the
        // hidden case as a student may see it; the instructor's beside it is that student's,
        // in full.
        let rows = class_rows(&page);
        assert_eq!(rows.len(), names.len(), "{who:?}: {rows:?}\n{page}");
        let whose = |path: &Path, instructors: bool| -> String {
            let report = std::fs::read_to_string(path)
                .unwrap_or_else(|e| panic!("{who:?}: {}: {e}", path.display()));
            let prefix = format!("{}/", class.display());
            let at = report
                .find(&prefix)
                .unwrap_or_else(|| panic!("{who:?}: {} names no student", path.display()));
            let folder: String = report[at + prefix.len()..]
                .chars()
                .take_while(|c| *c != '<')
                .collect();
            assert_eq!(
                report.contains(HIDDEN_MARK),
                instructors,
                "{who:?}: {} shows the hidden case as the other audience would",
                path.display()
            );
            folder
        };
        let mut owners = Vec::new();
        let mut files = Vec::new();
        for (name, link, instructor) in &rows {
            let (report, full) = (unlink(link), unlink(instructor));
            for file in [&report, &full] {
                let base = file.rsplit('/').next().unwrap_or_default();
                assert!(
                    !base.starts_with('.') && !file.split('/').any(|p| p == ".."),
                    "{who:?}: {name}'s report is {file}"
                );
                files.push(file.to_lowercase());
            }
            let student_report = whose(&out_dir.join(&report), false);
            let instructor_report = whose(&out_dir.join(&full), true);
            assert_eq!(
                student_report, instructor_report,
                "{who:?}: {name}'s reports ({report}, {full}) are two students'"
            );
            owners.push(student_report);
        }
        owners.sort();
        let mut expected: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        expected.sort();
        assert_eq!(
            owners, expected,
            "{who:?}: each student has one report: {rows:?}"
        );
        let mut distinct = files.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(
            distinct.len(),
            files.len(),
            "{who:?}: two reports are one file ignoring case: {files:?}"
        );
    }
}
