//! docs/github-actions.md's workflow, run as written: its YAML is read from the document, the
//! reporter step must read the grade step's output, and the `run:` steps (all but the install,
//! as after a cache hit, with the `grade` under test on PATH) run in a student's repository
//! with `GITHUB_ACTIONS=true` and the runner's files; then the Classroom result, the job
//! summary and the annotations are checked as GitHub and Classroom's reporter read them.

mod support;
use support::LoggedOutput;

use std::path::Path;
use std::process::Command;

/// The first ```yaml block of docs/github-actions.md.
fn documented_workflow() -> yaml_serde::Value {
    let doc = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/github-actions.md"),
    )
    .expect("docs/github-actions.md");
    let start = doc.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = start + doc[start..].find("```").expect("the block ends");
    yaml_serde::from_str(&doc[start..end]).expect("the workflow is YAML")
}

/// Standard base64, as the reporter's `Buffer.from(…, "base64")` reads it.
fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut out = Vec::new();
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | (u32::from(d) << (18 - 6 * i)));
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

fn text<'a>(value: &'a yaml_serde::Value, key: &str) -> Option<&'a str> {
    value.get(key).and_then(yaml_serde::Value::as_str)
}

#[test]
fn the_documented_classroom_workflow_reports_the_score() {
    if !support::have("g++") {
        return;
    }
    let workflow = documented_workflow();
    let job = workflow["jobs"]
        .as_mapping()
        .and_then(|jobs| jobs.values().next())
        .expect("a job")
        .clone();
    let steps = job["steps"].as_sequence().expect("steps").clone();

    // The install: grade from its repository at a commit (it publishes no release tags),
    // cached; no made-up address.
    let repo = text(&workflow["env"], "GRADE_REPO").expect("GRADE_REPO");
    assert!(
        repo.starts_with("OWNER/"),
        "the placeholder is named OWNER: {repo}"
    );
    assert_eq!(
        text(&workflow["env"], "GRADE_REV"),
        Some("COMMIT"),
        "the commit to install, a placeholder"
    );
    let install = steps
        .iter()
        .find(|s| text(s, "run").is_some_and(|r| r.contains("cargo install")))
        .expect("an install step");
    let command = text(install, "run").unwrap_or_default();
    assert!(
        command.contains("--locked")
            && command.contains("--git")
            && command.contains("--rev \"$GRADE_REV\"")
            && !command.contains("--tag"),
        "{command}"
    );
    let key = text(
        &steps
            .iter()
            .find(|s| text(s, "uses").is_some_and(|u| u.starts_with("actions/cache@")))
            .expect("a cache step")["with"],
        "key",
    )
    .unwrap_or_default()
    .to_string();
    assert!(key.contains("env.GRADE_REV"), "cached per commit: {key}");
    assert!(
        text(install, "if").is_some_and(|c| c.contains("cache-hit")),
        "installed only on a cache miss"
    );
    let cache = steps
        .iter()
        .find(|s| text(s, "uses").is_some_and(|u| u.starts_with("actions/cache@")))
        .expect("a cache step");
    assert_eq!(text(&cache["with"], "path"), Some("~/.cargo/bin/grade"));

    // The reporter reads each runner's result from ID_RESULTS = steps.ID.outputs.result.
    let reporter = steps
        .iter()
        .find(|s| text(s, "uses").is_some_and(|u| u.contains("/autograding-grading-reporter@")))
        .expect("the Classroom reporter");
    let runners = text(&reporter["with"], "runners").expect("runners");
    for runner in runners.split(',').map(str::trim) {
        assert!(
            steps.iter().any(|s| text(s, "id") == Some(runner)),
            "no step with id {runner}"
        );
        let variable = format!("{}_RESULTS", runner.to_uppercase());
        assert_eq!(
            text(&reporter["env"], &variable).map(|v| v.replace(' ', "")),
            Some(format!("${{{{steps.{runner}.outputs.result}}}}")),
            "{variable}"
        );
    }

    // A student's repository: a C++ nim program that loses points, and the workflow file.
    let repository = tempfile::tempdir().expect("tempdir");
    std::fs::copy(
        support::program("nim/buggy_winner_swapped.cpp"),
        repository.path().join("nim.cpp"),
    )
    .expect("copy");
    std::fs::write(repository.path().join("README.md"), "# Nim\n").expect("write");
    std::fs::create_dir_all(repository.path().join(".github/workflows")).expect("mkdir");
    std::fs::write(
        repository.path().join(".github/workflows/classroom.yml"),
        yaml_serde::to_string(&workflow).expect("yaml"),
    )
    .expect("write");
    let runner_files = tempfile::tempdir().expect("tempdir");
    let output = runner_files.path().join("output");
    let summary = runner_files.path().join("summary.md");
    let grade = assert_cmd::cargo::cargo_bin("grade");
    let path = format!(
        "{}:{}",
        grade.parent().expect("bin dir").display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut log_of_grade = String::new();
    let mut ran = Vec::new();
    for step in &steps {
        let Some(script) = text(step, "run") else {
            continue;
        };
        if text(step, "if").is_some_and(|c| c.contains("cache-hit")) {
            continue; // the install, skipped as after a cache hit
        }
        assert!(
            !script.contains("${{"),
            "a run step must run as written: {script}"
        );
        let mut shell = Command::new("bash");
        shell
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(repository.path())
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("XDG_CACHE_HOME", runner_files.path().join("cache"))
            .env("PATH", &path);
        for (name, value) in workflow["env"].as_mapping().into_iter().flatten() {
            shell.env(
                name.as_str().expect("a name"),
                value.as_str().expect("a value"),
            );
        }
        let out = shell.logged_output().expect("bash runs");
        let name = text(step, "name").unwrap_or("a step");
        assert!(
            out.status.success(),
            "{name} failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if text(step, "id") == Some("grade") {
            // The text report and its annotations on stdout, errors on stderr.
            log_of_grade = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        ran.push(name.to_string());
    }
    assert!(ran.iter().any(|n| n == "Grade"), "{ran:?}");

    // The step output, as the reporter decodes it.
    let outputs = std::fs::read_to_string(&output).expect("GITHUB_OUTPUT written");
    let encoded = outputs
        .lines()
        .find_map(|l| l.strip_prefix("result="))
        .expect("a result output");
    let result: serde_json::Value =
        serde_json::from_slice(&decode_base64(encoded)).expect("base64 JSON");
    assert_eq!(result["version"], 1, "{result}");
    assert_eq!(result["status"], "fail", "{result}");
    let tests = result["tests"].as_array().expect("tests");
    // Whole points, as the reporter adds them up into `Points SUM/MAX`: integers, so the sum
    // it posts is an integer too (never `Points 102.179/106`).
    let points: u64 = tests
        .iter()
        .map(|t| {
            t["score"]
                .as_u64()
                .unwrap_or_else(|| panic!("whole points: {t}"))
        })
        .sum();
    let max = result["max_score"]
        .as_u64()
        .expect("max_score in whole points");
    assert!(tests
        .iter()
        .all(|t| t["name"].is_string() && t["status"].is_string()));

    // The job summary says the same score, and lists the code requirements with points.
    let summary = std::fs::read_to_string(&summary).expect("job summary");
    let heading = summary.lines().next().unwrap_or_default();
    let score = heading
        .rsplit(' ')
        .next()
        .and_then(|s| s.split_once('/'))
        .map(|(a, b)| {
            (
                a.parse::<f64>().expect("score"),
                b.parse::<f64>().expect("max"),
            )
        })
        .expect("### nim: SCORE/MAX");
    assert!(heading.starts_with("### nim: "), "{summary}");
    // The Classroom total is the two-decimal one rounded half up; where they differ, the
    // summary says the whole-point one too, so the two totals a student sees agree.
    assert_eq!(
        (score.0 + 1e-9).round() as u64,
        points,
        "{points} vs {summary}"
    );
    assert_eq!(score.1.round() as u64, max, "{max} vs {summary}");
    if score.0.fract() != 0.0 || score.1.fract() != 0.0 {
        assert!(
            summary.contains(&format!("count whole points: {points}/{max}")),
            "{summary}"
        );
    }
    assert!(points < max, "{result}");
    assert!(summary.contains("#### Code requirements"), "{summary}");
    assert!(
        summary.contains("| do-while-input | 3/3 | ✓ |"),
        "{summary}"
    );

    // At most the 10 annotations GitHub shows, the largest loss first.
    let annotations: Vec<&str> = log_of_grade
        .lines()
        .filter(|l| l.starts_with("::error ") || l.starts_with("::notice "))
        .collect();
    assert!(
        !annotations.is_empty() && annotations.len() <= 10,
        "{log_of_grade}"
    );
    let losses: Vec<f64> = annotations
        .iter()
        .filter_map(|l| {
            let title = l.split("::").nth(1)?;
            let lost = title.rsplit("(−").next()?.strip_suffix(')')?;
            lost.parse::<f64>().ok()
        })
        .collect();
    assert!(!losses.is_empty(), "{log_of_grade}");
    assert!(
        losses.windows(2).all(|w| w[0] >= w[1]),
        "largest loss first: {losses:?}"
    );
}
