//! The random-games case of the default grade (issue 19), through the real binary: boundary
//! bugs the fixed cases may miss cost points in every grading and are found by `grade
//! explore`; correct programs keep full marks whatever the course seed; a submission gets the
//! same score every time; the course seed, the budget and the switch work as documented.

mod support;

use support::*;

/// One buggy program per boundary class, in several languages: (assignment, program, class).
const BOUNDARY_BUGS: [(&str, &str, &str); 7] = [
    ("nim", "nim/buggy_wraps_32bit.c", "a number past 32 bits"),
    ("nim", "nim/buggy_negative_taken.js", "a negative number"),
    ("m", "m/buggy_position_zero.py", "zero and below the range"),
    (
        "connect6",
        "connect6/buggy_wraps_32bit.cpp",
        "a row past 32 bits",
    ),
    (
        "connect6",
        "connect6/buggy_bottom_edge.cpp",
        "the board's edge",
    ),
    ("collect", "collect/buggy_column_zero.py", "column zero"),
    (
        "collect",
        "collect/buggy_score_one_digit.py",
        "a score of 10 or more",
    ),
];

/// Correct programs, one per language and reading style, that must keep full marks.
const CORRECT: [(&str, &str); 10] = [
    ("nim", "nim/correct_getline.cpp"),
    ("nim", "nim/correct_c.c"),
    ("nim", "nim/correct_readline.js"),
    ("nim", "nim/correct_scanf_classes.cpp"),
    ("m", "m/correct_plain.py"),
    ("m", "m/correct_token_stream.py"),
    ("connect6", "connect6/correct_getline.cpp"),
    ("connect6", "connect6/correct_tokens.cpp"),
    ("collect", "collect/correct_plain.py"),
    ("collect", "collect/correct_java"),
];

fn ready(relative: &str) -> bool {
    tools_for(&program(relative)).iter().all(|t| have(t))
}

/// The random-games case of a JSON report.
fn random_games(report: &serde_json::Value) -> serde_json::Value {
    report["cases"]
        .as_array()
        .and_then(|cases| cases.iter().find(|c| c["name"] == "random-games"))
        .cloned()
        .unwrap_or_else(|| panic!("no random-games case: {report:#}"))
}

/// How a student runs the program from its folder, as the replay line must say it: the
/// interpreter and the file for a script, `./prog` for a program they build.
fn own_command(relative: &str) -> String {
    let file = relative.rsplit('/').next().unwrap_or(relative);
    match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("py") => format!("python3 {file}"),
        Some("js") => format!("node {file}"),
        _ => "./prog".to_string(),
    }
}

/// A Python or JavaScript student is told to replay the random game with their own command
/// (`python3 buggy_position_zero.py`), never `./prog`, which they have not got.
#[test]
fn the_replay_line_runs_the_program_as_its_student_does() {
    for (assignment, relative, command) in [
        (
            "m",
            "m/buggy_position_zero.py",
            "python3 buggy_position_zero.py",
        ),
        (
            "nim",
            "nim/buggy_negative_taken.js",
            "node buggy_negative_taken.js",
        ),
    ] {
        if !ready(relative) {
            continue;
        }
        let (code, report) =
            grade_json(&program(relative), assignment, &["--case", "random-games"]);
        assert_eq!(code, 1, "{relative}: {report:#}");
        let notes = random_games(&report)["notes"].to_string();
        assert!(
            notes.contains(&format!("| {command}   # your program")),
            "{relative}: {notes}"
        );
        assert!(!notes.contains("./prog"), "{relative}: {notes}");
    }
}

#[test]
fn every_boundary_bug_costs_points_in_the_default_grade_and_explore_finds_it() {
    for (assignment, relative, class) in BOUNDARY_BUGS {
        if !ready(relative) {
            continue;
        }
        let path = program(relative);
        let (code, report) = grade_json(&path, assignment, &[]);
        assert_eq!(code, 1, "{relative} ({class}) loses points");
        let case = random_games(&report);
        assert!(
            case["score"].as_f64() < case["max_score"].as_f64(),
            "{relative} ({class}): the random games catch it: {case:#}"
        );
        // The failure shows the shrunk input and the commands that replay it.
        assert!(
            case["input"].as_array().is_some_and(|i| !i.is_empty()),
            "{relative}: {case:#}"
        );
        let notes = case["notes"].to_string();
        let own = own_command(relative);
        assert!(
            (notes.contains(&format!("| {own}")) || notes.contains(&format!("{own} < moves.txt")))
                && (notes.contains(&format!("| grade play {assignment}"))
                    || notes.contains(&format!("grade play {assignment} < moves.txt"))),
            "{relative}: {notes}"
        );
        let output = grade()
            .arg("explore")
            .arg(&path)
            .args(["-a", assignment, "--games", "40", "--shrink-time", "5s"])
            .logged_output()
            .expect("grade explore runs");
        assert_eq!(
            output.status.code(),
            Some(1),
            "{relative} ({class}): {}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}

/// An instructor's case directory holding `assignment`'s header and a random-games case for
/// each of the seeds 1 to 20 this run covers (a third of them per commit in CI,
/// support::in_this_part), with 3 games each: one grading plays them all.
fn twenty_seeds(assignment: &str) -> tempfile::TempDir {
    seeded_cases(assignment, twenty_seeds_here(), 3)
}

/// The seeds of 1 to 20 this run covers.
fn twenty_seeds_here() -> Vec<u64> {
    (1..=20u64)
        .filter(|&seed| in_this_part(seed as usize, 0))
        .collect()
}

/// An instructor's case directory holding `assignment`'s header and a random-games case for
/// each seed of `seeds`, with `games` games each.
fn seeded_cases(
    assignment: &str,
    seeds: impl IntoIterator<Item = u64>,
    games: usize,
) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = dir.path().join("cases").join(assignment);
    let reference = dir.path().join("reference").join(assignment);
    std::fs::create_dir_all(&cases).expect("mkdir");
    std::fs::create_dir_all(&reference).expect("mkdir");
    std::fs::copy(
        root.join("cases").join(assignment).join("assignment.yaml"),
        cases.join("assignment.yaml"),
    )
    .expect("copy the header");
    let case = std::fs::read_to_string(
        root.join("cases")
            .join(assignment)
            .join("random-games.yaml"),
    )
    .expect("the built-in random-games case");
    let transcript = std::fs::read(
        root.join("reference")
            .join(assignment)
            .join("random-games.txt"),
    )
    .expect("its reference transcript");
    for seed in seeds {
        let name = format!("random-games-{seed}");
        let text = case
            .replace("name: random-games", &format!("name: {name}"))
            .replace("  seed: 1\n", &format!("  seed: {seed}\n"))
            .replace(
                &format!("  games: {}", games_of(&case)),
                &format!("  games: {games}"),
            );
        std::fs::write(cases.join(format!("{name}.yaml")), text).expect("write case");
        std::fs::write(reference.join(format!("{name}.txt")), &transcript).expect("write");
    }
    dir
}

/// The `games:` of a random-games case file.
fn games_of(case: &str) -> String {
    case.lines()
        .find_map(|l| l.trim().strip_prefix("games: "))
        .expect("games:")
        .to_string()
}

#[test]
fn correct_programs_keep_full_marks_on_20_seeds() {
    for (assignment, relative) in CORRECT {
        if !ready(relative) {
            continue;
        }
        let dir = twenty_seeds(assignment);
        let cases = dir.path().display().to_string();
        let (code, report) = grade_json(&program(relative), assignment, &["--cases", &cases]);
        let played = report["cases"].as_array().map_or(0, Vec::len);
        assert_eq!(
            played,
            twenty_seeds_here().len(),
            "{relative}: one case a seed"
        );
        assert_eq!(
            code, 0,
            "{relative} follows the handout on every seed: {:#}",
            report["cases"]
        );
    }
}

#[test]
fn the_same_submission_gets_the_same_score_20_times() {
    let relative = "nim/buggy_wraps_32bit.c";
    if !ready(relative) {
        return;
    }
    let path = program(relative);
    let scores: Vec<String> = (0..20)
        .map(|_| {
            let (_, report) = grade_json(&path, "nim", &["--case", "random-games"]);
            random_games(&report)["score"].to_string()
        })
        .collect();
    assert!(
        scores.iter().all(|s| *s == scores[0]),
        "one score every time: {scores:?}"
    );
    // A share of the games, not all or nothing.
    let score: f64 = scores[0].parse().expect("a number");
    assert!(score > 0.0 && score < 6.0, "{score}");
}

#[test]
fn the_course_seed_comes_from_the_environment_or_the_case_directory() {
    let relative = "nim/buggy_negative_taken.js";
    if !ready(relative) {
        return;
    }
    let path = program(relative);
    let detail =
        |report: &serde_json::Value| random_games(report)["checks"][0]["detail"].to_string();
    let (_, public) = grade_json(&path, "nim", &["--case", "random-games"]);
    assert!(detail(&public).contains("seed 1)"), "{}", detail(&public));
    let (_, from_env) = grade_json_env(
        &path,
        "nim",
        &["--case", "random-games"],
        &[("GRADE_COURSE_SEED", "12345")],
    );
    assert!(
        !detail(&from_env).contains("seed 1)"),
        "{}",
        detail(&from_env)
    );

    // assignment.yaml's seed in an instructor's directory; the environment overrides it.
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for top in ["cases", "reference"] {
        std::fs::create_dir_all(dir.path().join(top).join("nim")).expect("mkdir");
        for name in ["random-games.yaml", "random-games.txt"] {
            let from = root.join(top).join("nim").join(name);
            if from.is_file() {
                std::fs::copy(&from, dir.path().join(top).join("nim").join(name)).expect("copy");
            }
        }
    }
    let header = std::fs::read_to_string(root.join("cases/nim/assignment.yaml")).expect("header");
    std::fs::write(
        dir.path().join("cases/nim/assignment.yaml"),
        format!("{header}seed: 12345\n"),
    )
    .expect("write header");
    let cases = dir.path().display().to_string();
    let (_, from_dir) = grade_json(&path, "nim", &["--cases", &cases]);
    // (up to the shrunk input: shrinking during grading stops after 3 s, so how far it gets
    // depends on the machine's load)
    let games_and_seed = |detail: String| {
        detail
            .split(" shrunk to ")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        games_and_seed(detail(&from_dir)),
        games_and_seed(detail(&from_env)),
        "the same seed either way"
    );

    let bad = grade()
        .arg(&path)
        .args(["-a", "nim"])
        .env("GRADE_COURSE_SEED", "secret")
        .logged_output()
        .expect("grade runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("GRADE_COURSE_SEED=secret: not a number"));
}

#[test]
fn gradescope_package_carries_the_course_seed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let zip_path = dir.path().join("autograder.zip");
    grade()
        .args(["gradescope", "package", "-a", "nim", "-o"])
        .arg(&zip_path)
        .env("GRADE_COURSE_SEED", "777")
        .assert()
        .success();
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(&zip_path).expect("zip")).expect("a zip");
    let mut script = String::new();
    std::io::Read::read_to_string(
        &mut archive.by_name("run_autograder").expect("run_autograder"),
        &mut script,
    )
    .expect("read");
    assert!(
        script.contains("export GRADE_COURSE_SEED=\"${GRADE_COURSE_SEED:-777}\""),
        "{script}"
    );
}

#[test]
fn the_budget_and_the_switch() {
    let relative = "nim/correct_c.c";
    if !ready(relative) {
        return;
    }
    let path = program(relative);
    let (code, report) = grade_json(
        &path,
        "nim",
        &["--case", "random-games", "--explore-budget", "5"],
    );
    assert_eq!(code, 0, "{report:#}");
    assert!(
        random_games(&report)["checks"][0]["detail"]
            .to_string()
            .contains("5 of 5 random game(s)"),
        "{report:#}"
    );
    let (code, report) = grade_json(&path, "nim", &["--no-explore"]);
    assert_eq!(code, 0);
    assert!(
        report["cases"]
            .as_array()
            .is_some_and(|cases| cases.iter().all(|c| c["name"] != "random-games")),
        "{report:#}"
    );
    // Without the case, the total is the fixed cases' (and the requirements').
    let (_, full) = grade_json(&path, "nim", &[]);
    assert_eq!(
        full["max_score"].as_f64().unwrap_or(0.0) - report["max_score"].as_f64().unwrap_or(0.0),
        6.0
    );
    grade()
        .arg(&path)
        .args(["-a", "nim", "--explore-budget", "lots"])
        .assert()
        .code(2);
}

#[test]
fn explore_reports_the_rules_it_exercised() {
    let relative = "nim/correct_c.c";
    if !ready(relative) {
        return;
    }
    let output = grade()
        .arg("explore")
        .arg(program(relative))
        .args(["-a", "nim", "--games", "40", "--format", "json"])
        .logged_output()
        .expect("grade explore runs");
    assert_eq!(output.status.code(), Some(0));
    let json: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let coverage = json["coverage"].as_array().expect("coverage listed");
    assert!(coverage.len() >= 15, "{coverage:?}");
    let missed: Vec<&serde_json::Value> = coverage.iter().filter(|r| r["games"] == 0).collect();
    assert!(
        missed.is_empty(),
        "every rule of nim's table in 40 games: {missed:?}"
    );
    for rule in [
        "error: less than one",
        "replay of a replay",
        "number past 64 bits",
    ] {
        assert!(
            coverage.iter().any(|r| r["rule"] == rule),
            "{rule} is in the table"
        );
    }
    let text = grade()
        .arg("explore")
        .arg(program(relative))
        .args(["-a", "nim", "--games", "40"])
        .logged_output()
        .expect("grade explore runs");
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("Rules of the reference exercised: 17 of 17"),
        "{text}"
    );
}

/// Silver Dollar's buggy programs whose bug only shows with 11 coins or more (two-digit coin
/// numbers), which no fixed case types: (program, what breaks).
const SILVER_DOLLAR_BUGS: [(&str, &str); 2] = [
    (
        "silver_dollar/buggy_last_digit_coin",
        "a coin number read as its last digit",
    ),
    (
        "silver_dollar/buggy_char_coin_label",
        "a coin drawn as the character '0' + its number",
    ),
];

#[test]
fn silver_dollar_bugs_the_fixed_cases_miss_cost_points_in_the_default_grade() {
    for (relative, bug) in SILVER_DOLLAR_BUGS {
        if !ready(relative) {
            continue;
        }
        let (code, report) = grade_json(&program(relative), "silver_dollar", &[]);
        assert_eq!(code, 1, "{relative} ({bug}) loses points: {report:#}");
        // Only the random games catch it: every fixed case passes.
        let failing: Vec<&str> = report["cases"]
            .as_array()
            .expect("cases")
            .iter()
            .filter(|c| c["score"].as_f64() < c["max_score"].as_f64())
            .filter_map(|c| c["name"].as_str())
            .collect();
        assert_eq!(failing, ["random-games"], "{relative} ({bug})");
        let case = random_games(&report);
        // The failure shows the moves typed and the reference started on the program's strip.
        assert!(
            case["input"].as_array().is_some_and(|i| !i.is_empty()),
            "{relative}: {case:#}"
        );
        let notes = case["notes"].to_string();
        // (inline for a short input, from moves.txt for a long one; the reference from the
        // program's strip when it printed one it could be read from: the char-label bug's
        // first strip is unreadable, so its start is what differs)
        // (Java handouts: the student runs `java -cp . PlayGame` after javac, never ./prog)
        let own = "java -cp . PlayGame";
        assert!(
            (notes.contains(&format!("| {own}")) || notes.contains(&format!("{own} < moves.txt")))
                && notes.contains("grade play silver_dollar"),
            "{relative}: {notes}"
        );
    }
}

#[test]
fn grade_explore_plays_silver_dollar_and_reports_the_strip_and_the_moves() {
    let relative = "silver_dollar/buggy_last_digit_coin";
    if !ready(relative) {
        return;
    }
    let output = grade()
        .arg("explore")
        .arg(program(relative))
        .args(["-a", "silver_dollar", "--games", "8", "--shrink-time", "4s"])
        .logged_output()
        .expect("grade explore runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    // The strip the program drew, the reference replayed from it, and the moves: the coin
    // count first (11 or more: the bug needs a coin numbered 10), then a move.
    assert!(text.contains("The program's own start"), "{text}");
    assert!(
        text.contains("grade play silver_dollar --board '"),
        "{text}"
    );
    let coins: usize = text
        .lines()
        .skip_while(|l| !l.starts_with("Input:"))
        .nth(1)
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a coin count: {text}"));
    assert!(coins >= 11, "{text}");
    assert!(
        text.contains("Rules of the reference exercised: "),
        "{text}"
    );
}

#[test]
fn correct_silver_dollar_programs_keep_full_marks_on_another_seed() {
    let dir = std::fs::read_dir(program("silver_dollar")).expect("silver_dollar programs");
    let mut correct: Vec<String> = dir
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("correct_"))
        .collect();
    correct.sort();
    assert!(correct.len() >= 10, "{correct:?}");
    // Seed 2: the built-in random-games case, which every full grading plays, has seed 1.
    let cases = seeded_cases("silver_dollar", 2..=2, 8);
    let cases = cases.path().display().to_string();
    // A third of the programs per commit in CI (support::in_this_part), as the twenty seeds
    // of the other programs: each program plays seed 1 in every run's full gradings.
    for (row, name) in correct.into_iter().enumerate() {
        if !in_this_part(row, 0) {
            continue;
        }
        let relative = format!("silver_dollar/{name}");
        if !ready(&relative) {
            continue;
        }
        let (code, report) = grade_json(&program(&relative), "silver_dollar", &["--cases", &cases]);
        assert_eq!(
            report["cases"].as_array().map_or(0, Vec::len),
            1,
            "{relative}"
        );
        assert_eq!(code, 0, "{relative}: {:#}", report["cases"]);
    }
}
