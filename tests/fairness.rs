//! Fairness on nim, m, connect6 and collect (issue 10): printing messages without playing earns
//! (almost) nothing, pages of junk cost points while a student's extra lines never do, and
//! every hint the grader gives ("would have passed with this relaxation") is true.

mod support;

use std::path::Path;

use serde_yaml::{Mapping, Value};
use support::*;

/// The share of an assignment's points a program may earn without playing.
const NO_PLAY_SHARE: f64 = 0.05;

#[test]
fn printing_the_messages_without_playing_scores_at_most_five_percent_of_the_cases() {
    for (assignment, relative) in [
        ("nim", "misc/no_play_nim.cpp"),
        ("nim", "misc/errors_only_nim.cpp"),
        ("connect6", "misc/no_play_connect6.cpp"),
        ("m", "misc/no_play_m.py"),
        ("collect", "misc/no_play_collect.py"),
    ] {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let (_, report) = grade_json(&path, assignment, &[]);
        // The cases (what it prints); the code requirements and a rubric's "Submitted" and
        // "Compiled" lines (collect: 1 + 9 of 100, as its handout says) are graded apart.
        let cases = report["cases"].as_array().expect("cases");
        let sum = |key: &str| cases.iter().filter_map(|c| c[key].as_f64()).sum::<f64>();
        let (score, max) = (sum("score"), sum("max_score"));
        assert!(
            score <= NO_PLAY_SHARE * max,
            "{relative} plays no game but scores {score}/{max}: {:#?}",
            earned(&report)
        );
    }
}

/// A program that prints a correct start (the first board, the first prompt; Silver Dollar's
/// random strip) and plays no move: the start earns its points in the case about it only
/// (issue 20, "credit once"). Silver Dollar's `random-start` is 6 of its 65 case points, so
/// it may keep at most 10 %; the other four have no case about the first board: 5 %.
#[test]
fn printing_the_start_and_stopping_earns_only_the_case_about_the_start() {
    for (assignment, relative, bound) in [
        ("silver_dollar", "silver_dollar/buggy_start_only", 0.10),
        ("silver_dollar", "silver_dollar/lazy_no_game", 0.10),
        ("m", "m/buggy_start_only.py", NO_PLAY_SHARE),
        ("nim", "nim/buggy_start_only.cpp", NO_PLAY_SHARE),
        ("connect6", "connect6/buggy_start_only.cpp", NO_PLAY_SHARE),
        ("collect", "collect/buggy_start_only.py", NO_PLAY_SHARE),
    ] {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let (_, report) = grade_json(&path, assignment, &[]);
        let cases = report["cases"].as_array().expect("cases");
        let sum = |key: &str| cases.iter().filter_map(|c| c[key].as_f64()).sum::<f64>();
        let (score, max) = (sum("score"), sum("max_score"));
        assert!(
            max > 0.0 && score <= bound * max,
            "{relative} prints the start and stops but scores {score}/{max}: {:#?}",
            earned(&report)
        );
        // Every game case earns nothing: the start counts once, in its own case.
        if assignment == "silver_dollar" {
            for case in cases.iter().filter(|c| c["name"] != "random-start") {
                assert_eq!(case["score"], 0.0, "{relative}: {case:#}");
            }
        }
    }
}

/// Checks that earned points, for assertion messages.
fn earned(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| {
            c["checks"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|k| k["score"].as_f64() > Some(0.0))
                .map(move |k| format!("{} {}: {}", c["name"], k["name"], k["score"]))
        })
        .collect()
}

#[test]
fn pages_of_junk_cost_points_but_a_students_extra_lines_never_do() {
    if !have("g++") {
        return;
    }
    let (_, junk) = grade_json(&program("misc/junk_before_game_nim.cpp"), "nim", &[]);
    let score = junk["score"].as_f64().unwrap_or(f64::NAN);
    let max = junk["max_score"].as_f64().unwrap_or(f64::NAN);
    assert!(
        score < max - 1.0,
        "junk before a correct game: {score}/{max}"
    );
    let volume_failed = junk["cases"].as_array().into_iter().flatten().all(|c| {
        c["checks"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|k| k["name"] == "output-volume" && k["passed"] == false)
    });
    assert!(volume_failed, "every case names the junk: {junk:#}");
    // A welcome line, blank lines and a farewell: full marks.
    let (code, extra) = grade_json(&program("misc/extra_lines_nim.cpp"), "nim", &[]);
    assert_eq!(
        extra["score"],
        extra["max_score"],
        "{:#?}",
        lost_points(&extra)
    );
    assert_eq!(code, 0);
}

/// Every buggy program of the four assignments (tests/programs/README.md).
const BUGGY: [&str; 27] = [
    "nim/buggy_accepts_four.cpp",
    "nim/buggy_missing_error.cpp",
    "nim/buggy_no_reset.cpp",
    "nim/buggy_no_space_after_five.cpp",
    "nim/buggy_strategy_rem0.cpp",
    "nim/buggy_winner_swapped.cpp",
    "m/buggy_one_neighbour.py",
    "m/buggy_position_off_by_one.py",
    "m/buggy_reuse_number.py",
    "m/buggy_tie_wrong.py",
    "m/buggy_zero_division.py",
    "m/buggy_silent_reprompt.py",
    "collect/buggy_adjacent_columns.py",
    "collect/buggy_column_kept.py",
    "collect/buggy_diagonal.py",
    "collect/buggy_negative_index.py",
    "collect/buggy_no_gravity.py",
    "collect/buggy_no_initial_gameover.py",
    "collect/buggy_score_count.py",
    "collect/buggy_fixed_filename.py",
    "collect/buggy_silent_negative.py",
    "connect6/buggy_exactly_six.cpp",
    "connect6/buggy_five_wins.cpp",
    "connect6/buggy_lowercase.cpp",
    "connect6/buggy_no_antidiagonal.cpp",
    "connect6/buggy_occupied.cpp",
    "connect6/buggy_one_piece_turns.cpp",
];

/// A hint found in a report: the case, the check (name and kind) and the relaxation.
struct Hint {
    case: String,
    check: String,
    kind: String,
    relaxation: String,
}

fn hints(report: &serde_json::Value) -> Vec<Hint> {
    let mut found = Vec::new();
    for case in report["cases"].as_array().into_iter().flatten() {
        for check in case["checks"].as_array().into_iter().flatten() {
            if let Some(relaxation) = check["difference"]["relaxation"].as_str() {
                found.push(Hint {
                    case: case["name"].as_str().unwrap_or_default().to_string(),
                    check: check["name"].as_str().unwrap_or_default().to_string(),
                    kind: check["kind"].as_str().unwrap_or_default().to_string(),
                    relaxation: relaxation.to_string(),
                });
            }
        }
    }
    found
}

fn yaml(path: &Path) -> Mapping {
    let text = std::fs::read_to_string(path).expect("case file");
    serde_yaml::from_str(&text).expect("case YAML")
}

/// The check named `name` of `case` (its own checks, or the assignment's, or its extra ones).
fn find_check(assignment: &Mapping, case: &Mapping, name: &str) -> Option<Mapping> {
    let key = |k: &str| Value::String(k.to_string());
    let lists = [
        case.get(key("checks")),
        case.get(key("extra_checks")),
        assignment.get(key("checks")),
    ];
    lists
        .into_iter()
        .flatten()
        .filter_map(Value::as_sequence)
        .flatten()
        .filter_map(Value::as_mapping)
        .find(|c| {
            let default = c
                .get(key("text"))
                .or_else(|| c.get(key("kind")))
                .and_then(Value::as_str);
            let own = c.get(key("name")).and_then(Value::as_str);
            own.or(default) == Some(name)
                || (own.is_none() && c.get(key("kind")).and_then(Value::as_str) == Some(name))
        })
        .cloned()
}

/// The check that the hint claims would have passed: the same check, relaxed.
fn relaxed_check(hint: &Hint, original: Option<Mapping>) -> Mapping {
    let key = |k: &str| Value::String(k.to_string());
    let mut check = original.unwrap_or_default();
    match hint.kind.as_str() {
        "transcript" => {
            let level = match hint.relaxation.as_str() {
                "ignoring trailing spaces" => "trailing_whitespace",
                "ignoring blank lines" => "blank_lines",
                "ignoring spacing" => "whitespace",
                "ignoring capitalisation" => "case",
                other => panic!("unknown transcript relaxation {other:?}"),
            };
            check = Mapping::new();
            check.insert(key("kind"), key("transcript"));
            check.insert(key("level"), key(level));
        }
        "lines" => match hint.relaxation.as_str() {
            "ignoring capitalisation" => {
                check.insert(key("ignore_case"), Value::Bool(true));
            }
            "ignoring capitalisation and punctuation" => {
                check.insert(key("ignore_case"), Value::Bool(true));
                check.insert(key("ignore_punctuation"), Value::Bool(true));
            }
            "comparing only the numbers" => {
                check.insert(key("numbers"), Value::Bool(true));
            }
            other => panic!("unknown lines relaxation {other:?}"),
        },
        "contains" => {
            check.insert(key("exact"), Value::Bool(false));
        }
        other => panic!("a hint on a {other} check"),
    }
    check.insert(key("name"), key(&hint.check));
    check.insert(key("weight"), Value::from(1.0));
    check
}

/// Grades `path` on `hint.case` with only the relaxed check: it must pass.
fn recheck(path: &Path, assignment: &str, hint: &Hint) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tree = tempfile::tempdir().expect("tempdir");
    for part in ["cases", "reference"] {
        let from = root.join(part).join(assignment);
        let to = tree.path().join(part).join(assignment);
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in walk(&from) {
            let relative = entry.strip_prefix(&from).expect("inside");
            let target = to.join(relative);
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).expect("mkdir");
            }
            std::fs::copy(&entry, &target).expect("copy");
        }
    }
    let dir = tree.path().join("cases").join(assignment);
    let case_path = dir.join(format!("{}.yaml", hint.case));
    let header = yaml(&dir.join("assignment.yaml"));
    let mut case = yaml(&case_path);
    let check = relaxed_check(hint, find_check(&header, &case, &hint.check));
    case.remove(Value::String("extra_checks".into()));
    case.insert(
        Value::String("checks".into()),
        Value::Sequence(vec![Value::Mapping(check)]),
    );
    std::fs::write(&case_path, serde_yaml::to_string(&case).expect("YAML")).expect("write");
    let (_, report) = grade_json(
        path,
        assignment,
        &[
            "--cases",
            &tree.path().display().to_string(),
            "--case",
            &hint.case,
            "--robustness",
        ],
    );
    let checks = &report["cases"][0]["checks"];
    assert_eq!(
        checks[0]["passed"],
        true,
        "{}: the hint \"{}\" on {} in {} is false: {checks:#}",
        path.display(),
        hint.relaxation,
        hint.check,
        hint.case
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn every_hint_on_a_buggy_program_would_have_passed() {
    let mut checked = 0;
    for relative in BUGGY {
        let path = program(relative);
        if !tools_for(&path).iter().all(|t| have(t)) {
            continue;
        }
        let assignment = relative.split('/').next().unwrap_or_default();
        let (_, report) = grade_json(&path, assignment, &["--robustness"]);
        for hint in hints(&report) {
            recheck(&path, assignment, &hint);
            checked += 1;
        }
        // --strict compares whole transcripts and hints at the level that would pass: one
        // of those re-checked per program keeps this fast.
        let (_, strict) = grade_json(&path, assignment, &["--robustness", "--strict"]);
        if let Some(hint) = hints(&strict).first() {
            recheck(&path, assignment, hint);
            checked += 1;
        }
    }
    eprintln!("{checked} hints re-checked");
}

/// The case names a program lost points in.
fn cases_lost(report: &serde_json::Value) -> Vec<String> {
    report["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["score"].as_f64() < c["max_score"].as_f64())
        .filter_map(|c| c["name"].as_str().map(str::to_string))
        .collect()
}

#[test]
fn decisions_the_handout_leaves_open_cost_only_robustness_points() {
    if !have("python3") {
        return;
    }
    // Game over before the first move: the handout's double negative leaves it open.
    let path = program("collect/buggy_no_initial_gameover.py");
    let (code, report) = grade_json(&path, "collect", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&report));
    let (_, robust) = grade_json(&path, "collect", &["--robustness"]);
    assert_eq!(cases_lost(&robust), ["game-over-at-start"]);
    // A board file ending with a newline or a space: robustness only.
    let path = program("collect/fragile_board_file.py");
    let (code, report) = grade_json(&path, "collect", &[]);
    assert_eq!(code, 0, "{:#?}", lost_points(&report));
    let (_, robust) = grade_json(&path, "collect", &["--robustness"]);
    assert_eq!(
        cases_lost(&robust),
        [
            "robustness-board-file-newline",
            "robustness-board-file-trailing-space"
        ]
    );
    // Negative coordinates: its own informative message, board unchanged, full marks (it is
    // also in tests/grading.rs's CORRECT list); zero keeps the quoted message.
    let path = program("collect/correct_negative_message.py");
    let (_, report) = grade_json(&path, "collect", &["--case", "negative-coordinates"]);
    assert_eq!(report["score"], report["max_score"], "{report:#}");
    let (_, zero) = grade_json(
        &program("collect/buggy_negative_index.py"),
        "collect",
        &["--case", "out-of-bounds-zero"],
    );
    assert!(zero["score"].as_f64() < zero["max_score"].as_f64());
}

#[test]
fn a_program_that_always_opens_input_txt_loses_points() {
    if !have("python3") {
        return;
    }
    let (_, report) = grade_json(&program("collect/buggy_fixed_filename.py"), "collect", &[]);
    assert_eq!(cases_lost(&report), ["board-file-argument"]);
    let (_, right) = grade_json(
        &program("collect/correct_plain.py"),
        "collect",
        &["--case", "board-file-argument"],
    );
    assert_eq!(right["score"], right["max_score"], "{right:#}");
}

/// Restyles a Python program's output in-process (same logic, same timing): `print` and
/// `input` are replaced before the program's own code, which is appended unchanged.
/// `@REWORD@` is a Python list of (regular expression, replacement) pairs: with the style
/// "reworded", a printed line matching one whole is replaced (the program's free-wording
/// messages, in other words and languages).
const STYLE_SHIM: &str = r#"
import builtins as _b, re as _re, sys as _sys
_STYLE = "@STYLE@"
_REWORD = @REWORD@
def _reword(line):
    for pattern, replacement in _REWORD:
        if _re.fullmatch(pattern, line.strip()):
            return _re.sub(pattern, replacement, line.strip())
    return line
def _restyle(text):
    if _STYLE == "upper":
        return text.upper()
    if _STYLE == "lower":
        return text.lower()
    if _STYLE == "double":
        return text.replace("\n", "\n\n")
    if _STYLE == "trailing":
        return text.replace("\n", "   \n")
    if _STYLE == "reworded":
        return "\n".join(_reword(line) for line in text.split("\n"))
    return text
def print(*args, sep=" ", end="\n", file=None, flush=False):
    if file is not None and file is not _sys.stdout:
        _b.print(*args, sep=sep, end=end, file=file, flush=flush)
        return
    _sys.stdout.write(_restyle(sep.join(str(a) for a in args) + end))
    if _STYLE != "unflushed":
        _sys.stdout.flush()
def input(prompt=""):
    text = _restyle(str(prompt))
    if _STYLE == "prompt_line":
        text += "\n"
    _sys.stdout.write(text)
    if _STYLE == "unflushed":
        # Read without flushing (builtins.input would flush the prompt first).
        line = _sys.stdin.readline()
        if not line:
            raise EOFError
        return line.rstrip("\n")
    _sys.stdout.flush()
    return _b.input()
if _STYLE == "greeting":
    print("Hello! Welcome to my program. Have fun!")
    print()
"#;

/// (assignment, program, extra arguments, rewordings as (pattern, replacement) pairs).
type Restyled = (
    &'static str,
    &'static str,
    &'static [&'static str],
    &'static [(&'static str, &'static str)],
);

/// Every correct Python program (the shim restyles Python only), the cases to grade it on
/// (all, or a name pattern), and its messages whose wording the handout leaves free, reworded
/// (quoted messages, such as collect's "Please enter a correct size!", keep their words).
const RESTYLED: &[Restyled] = &[
    (
        "m",
        "m/correct_plain.py",
        &[],
        &[
            (r"The number must be between 0 and 9\.", "Nur 0 bis 9!"),
            (
                r"The position must be between 1 and 10\.",
                "Das Feld gibt es nicht.",
            ),
            (
                r"The number (\d+) has already been used\.",
                r"\1 hatten wir schon.",
            ),
            (r"Position (\d+) is not empty\.", r"Auf \1 liegt schon was."),
            (r"Your number must be an integer\.", "Zahl?!"),
            (r"The position must be an integer\.", "Feld?!"),
        ],
    ),
    (
        "m",
        "m/correct_boxes.py",
        &[],
        &[(r"Error: .*", "Nein, so nicht.")],
    ),
    ("m", "m/correct_own_words.py", &[], &[]),
    ("m", "m/correct_terse.py", &[], &[]),
    ("collect", "collect/correct_plain.py", &[], &[]),
    ("collect", "collect/correct_recursive.py", &[], &[]),
    (
        "collect",
        "collect/correct_negative_message.py",
        &[],
        &[(
            r"Rows and columns are numbered from 1: negative numbers are not allowed\.",
            "Minus gibt es hier nicht.",
        )],
    ),
    (
        "collect",
        "collect/correct_own_words.py",
        &[],
        &[(r"Please enter a row and a column number like: 2 3", "-1?!")],
    ),
    // Silver Dollar's random-start case starts the program 60 times: the cases with illegal
    // moves are the ones its styles matter to.
    (
        "silver_dollar",
        "silver_dollar/correct_python.py",
        &["--case", "illegal"],
        &[(
            r"That move is not legal, try again\.",
            "Geht nicht. Nochmal!",
        )],
    ),
    (
        "silver_dollar",
        "silver_dollar/correct_spanish.py",
        &["--case", "illegal"],
        &[],
    ),
];

/// A Python list literal of (pattern, replacement) pairs.
fn python_pairs(pairs: &[(&str, &str)]) -> String {
    let quote = |text: &str| format!("r'{}'", text.replace('\'', r"\x27"));
    let items: Vec<String> = pairs
        .iter()
        .map(|(pattern, replacement)| format!("({}, {})", quote(pattern), quote(replacement)))
        .collect();
    format!("[{}]", items.join(", "))
}

#[test]
fn restyled_correct_programs_keep_full_marks() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut lost = Vec::new();
    let mut graded = 0;
    for (assignment, relative, cases, reworded) in RESTYLED {
        let source = std::fs::read_to_string(program(relative)).expect("program");
        // UPPER and lower case, an empty line after every line, trailing spaces, a greeting,
        // prompts on their own line, output never flushed before a read, the free-wording
        // messages in other words: places where the handouts are silent.
        for style in [
            "upper",
            "lower",
            "double",
            "trailing",
            "greeting",
            "prompt_line",
            "unflushed",
            "reworded",
        ] {
            if style == "reworded" && reworded.is_empty() {
                continue;
            }
            let path = dir.path().join(format!(
                "{}_{style}.py",
                relative.replace('/', "_").replace(".py", "")
            ));
            let text = STYLE_SHIM
                .replace("@STYLE@", style)
                .replace("@REWORD@", &python_pairs(reworded))
                + &source;
            std::fs::write(&path, text).expect("write");
            let (_, report) = grade_json(&path, assignment, cases);
            graded += 1;
            if report["score"] != report["max_score"] {
                lost.push(format!("{relative} {style}: {:#?}", lost_points(&report)));
            }
        }
    }
    eprintln!("{graded} restyled programs graded");
    assert!(lost.is_empty(), "{lost:#?}");
}

/// The "reworded" style really rewords: the shim's replacement reaches the output (a test
/// of the test, so a pattern that never matches cannot pass unnoticed).
#[test]
fn the_reworded_style_replaces_the_messages() {
    if !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let (_, relative, _, reworded) = RESTYLED[0];
    let source = std::fs::read_to_string(program(relative)).expect("program");
    let path = dir.path().join("m_reworded.py");
    let text = STYLE_SHIM
        .replace("@STYLE@", "reworded")
        .replace("@REWORD@", &python_pairs(reworded))
        + &source;
    std::fs::write(&path, text).expect("write");
    let output = std::process::Command::new("python3")
        .arg(&path)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(b"12\n11\n5\n1\n5\n2\n")?;
            }
            child.wait_with_output()
        })
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("Nur 0 bis 9!"), "{text}");
    assert!(text.contains("Das Feld gibt es nicht."), "{text}");
    assert!(text.contains("5 hatten wir schon."), "{text}");
    assert!(!text.contains("must be between"), "{text}");
}
