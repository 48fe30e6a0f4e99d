//! A whole class through the real binary: reports named after students, the gradebook, a
//! re-run that keeps unchanged students, and shards that merge into the same gradebook.
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "a test that cannot run here says so on its output"
)]

mod support;

use std::path::{Path, PathBuf};

use support::*;

/// A class of `names.len()` students, each handing in `nim.cpp` (correct or buggy in turn).
fn class(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    let sources = [
        program("nim/correct_getline.cpp"),
        program("nim/buggy_accepts_four.cpp"),
    ];
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let folder = dir.join(name);
            std::fs::create_dir_all(&folder).expect("mkdir");
            let file = folder.join("nim.cpp");
            std::fs::copy(&sources[i % 2], &file).expect("copy");
            file
        })
        .collect()
}

fn grade_class(files: &[PathBuf], out: &Path, extra: &[&str]) -> (i32, String, String) {
    let output = grade()
        .args(files)
        .args([
            "-a",
            "nim",
            "--case",
            "error-more-than-three",
            "--output-dir",
        ])
        .arg(out)
        .args(extra)
        .logged_output()
        .expect("grade runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn sorted_rows(gradebook: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(gradebook).expect("gradebook");
    let mut rows: Vec<String> = text.lines().skip(1).map(String::from).collect();
    rows.sort();
    rows
}

#[test]
fn reports_and_gradebook_rows_are_named_after_students() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (code, table, progress) = grade_class(&files, &out, &[]);
    assert_eq!(code, 1, "bo loses points\n{table}");
    assert!(out.join("students/ana.txt").is_file() && out.join("students/bo.txt").is_file());
    assert!(progress.contains("[1/2] ana: full marks"), "{progress}");
    assert!(progress.contains("[2/2] bo: lost points"), "{progress}");
    let rows = sorted_rows(&out.join("gradebook.csv"));
    assert!(rows[0].starts_with("ana,"), "{rows:?}");
    assert!(rows[1].starts_with("bo,"), "{rows:?}");
}

/// A class's students are built ahead (the next one while this one is graded): each row is
/// what grading that student alone gives, a build that fails and an interpreted program
/// among them, with the build cache (root) and without it (`--no-cache`, where what was
/// built ahead is handed over, not found again in a cache).
#[test]
fn students_built_ahead_get_the_rows_they_get_alone() {
    if !have("g++") || !have("gcc") || !have("python3") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let mut files = Vec::new();
    for (name, source) in [
        ("ana", "nim/correct_getline.cpp"),
        ("bo", "misc/no_compile.c"),
        ("cy", "nim/buggy_accepts_four.cpp"),
        ("di", "nim/split_python"),
        ("ed", "nim/correct_c.c"),
    ] {
        let from = program(source);
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).expect("mkdir");
        if from.is_dir() {
            for entry in std::fs::read_dir(&from).expect("read").flatten() {
                std::fs::copy(entry.path(), folder.join(entry.file_name())).expect("copy");
            }
        } else {
            std::fs::copy(&from, folder.join(from.file_name().expect("name"))).expect("copy");
        }
        files.push(folder);
    }
    // Worked from the programs: ana and ed follow the handout, bo does not compile, cy
    // accepts four matches (error-more-than-three), di is a correct Python program.
    let expected = [
        ("ana", "full marks"),
        ("bo", "build failed"),
        ("cy", "lost points"),
        ("di", "full marks"),
        ("ed", "full marks"),
    ];
    for extra in [&[][..], &["--no-cache"][..]] {
        let out = dir.path().join(format!("out{}", extra.len()));
        let (code, _, progress) = grade_class(&files, &out, extra);
        assert_eq!(code, 1, "{progress}");
        let text = std::fs::read_to_string(out.join("gradebook.csv")).expect("gradebook");
        for (student, status) in expected {
            let row = text
                .lines()
                .find(|l| l.starts_with(&format!("{student},")))
                .unwrap_or_else(|| panic!("no row for {student}:\n{text}"));
            assert!(
                row.contains(status),
                "{student} {extra:?}: {row}\n{progress}"
            );
            // The same as graded alone.
            let mut args = vec!["--case", "error-more-than-three"];
            args.extend_from_slice(extra);
            let folder = &files[expected.iter().position(|e| e.0 == student).expect("one")];
            let (_, report) = grade_json(folder, "nim", &args);
            let score = report["score"].as_f64().expect("score");
            // The gradebook's score has two decimals.
            let score_field: f64 = row
                .split(',')
                .nth(2)
                .and_then(|f| f.parse().ok())
                .unwrap_or_else(|| panic!("a score in {row}"));
            assert!(
                (score_field - score).abs() <= 0.005 + 1e-9,
                "{student} {extra:?}: alone {score}, in the class {row}"
            );
        }
    }
}

#[test]
fn a_rerun_keeps_unchanged_students_and_regrades_changed_ones() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (_, _, _) = grade_class(&files, &out, &[]);
    let first = sorted_rows(&out.join("gradebook.csv"));
    let (code, _, progress) = grade_class(&files, &out, &[]);
    assert_eq!(code, 1);
    assert!(
        progress.contains("ana: full marks (unchanged, kept)"),
        "{progress}"
    );
    assert!(
        progress.contains("bo: lost points (unchanged, kept)"),
        "{progress}"
    );
    assert_eq!(sorted_rows(&out.join("gradebook.csv")), first);
    // bo resubmits a correct program: only bo is graded again.
    std::fs::copy(program("nim/correct_getline.cpp"), &files[1]).expect("resubmit");
    let (code, _, progress) = grade_class(&files, &out, &[]);
    assert_eq!(code, 0, "{progress}");
    assert!(
        progress.contains("ana: full marks (unchanged, kept)"),
        "{progress}"
    );
    assert!(progress.contains("[2/2] bo: full marks\n"), "{progress}");
    let (_, _, progress) = grade_class(&files, &out, &["--force"]);
    assert!(!progress.contains("unchanged"), "{progress}");
}

#[test]
fn three_shards_merged_equal_one_run() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let names = ["ana", "bo", "cy", "dee", "eli", "fay"];
    let files = class(dir.path(), &names);
    let whole = dir.path().join("whole");
    grade_class(&files, &whole, &[]);
    let mut parts = Vec::new();
    for k in 1..=3 {
        let part = dir.path().join(format!("part{k}"));
        grade_class(&files, &part, &["--shard", &format!("{k}/3")]);
        parts.push(part);
    }
    let merged = dir.path().join("merged.csv");
    grade()
        .args(["gradebook", "merge"])
        .args(&parts)
        .arg("-o")
        .arg(&merged)
        .assert()
        .success()
        .stdout(predicates::str::contains("6 student(s)"));
    assert_eq!(
        sorted_rows(&merged),
        sorted_rows(&whole.join("gradebook.csv"))
    );
    let header = |p: &Path| {
        std::fs::read_to_string(p)
            .expect("csv")
            .lines()
            .next()
            .map(String::from)
    };
    assert_eq!(header(&merged), header(&whole.join("gradebook.csv")));
    grade()
        .args(["gradebook", "merge"])
        .arg(&parts[0])
        .arg(&parts[0])
        .arg("-o")
        .arg(dir.path().join("twice.csv"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("appears in two shards"));
}

/// Headless Chromium on `page` with `action` (`--dump-dom`, `--screenshot=…`) in a window
/// `width` pixels wide, with a profile of its own that it leaves nothing in; its stdout.
fn chromium(page: &Path, width: u32, action: &str) -> String {
    let profile = tempfile::tempdir().expect("profile dir");
    let output = std::process::Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--window-size={width},1400"))
        .arg(action)
        .arg(format!("file://{}", page.display()))
        .logged_output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "chromium on {}: {}",
        page.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The DOM after a headless browser loaded the page (what a person's browser would show).
fn rendered(page: &Path) -> String {
    chromium(page, 1000, "--dump-dom")
}

/// What a page measures of itself in a browser `width` pixels wide: one line per element
/// whose content is wider than its box (`overflow TAG#id 812>520`, cut at its edge or behind
/// a scroll bar), `page W>V` when the page scrolls sideways, and for the class page the
/// students' order after pressing the percent column's header (`order bo,ana`). The
/// probe is a copy without the page's policy, so that the measuring script may run.
fn measured(page: &Path, width: u32) -> String {
    const MEASURE: &str = "<script>(()=>{const out=[];\
        for(const e of document.body.querySelectorAll('*')){\
        if(e.clientWidth>0&&e.scrollWidth>e.clientWidth+1)\
        out.push('overflow '+e.tagName.toLowerCase()+(e.id?'#'+e.id:'')+' '+e.scrollWidth+'>'+e.clientWidth);}\
        const d=document.documentElement;\
        if(d.scrollWidth>d.clientWidth+1)out.push('page '+d.scrollWidth+'>'+d.clientWidth);\
        const t=document.getElementById('students');\
        if(t&&t.tHead){t.tHead.querySelectorAll('button')[2].click();\
        out.push('order '+[...t.tBodies[0].rows].map(r=>r.cells[0].textContent).join(','));}\
        const p=document.createElement('pre');p.id='measured';p.textContent=out.join('\\n');\
        document.body.append(p);})()</script>";
    let html = std::fs::read_to_string(page).expect("page");
    let policy_start = html
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .expect("a policy");
    let policy_end = policy_start + html[policy_start..].find('>').expect("the policy's end") + 1;
    let probe = html[..policy_start].to_string()
        + &html[policy_end..].replacen("</body>", &format!("{MEASURE}</body>"), 1);
    let probe_path = page.with_extension("probe.html");
    std::fs::write(&probe_path, probe).expect("write the probe");
    let dom = chromium(&probe_path, width, "--dump-dom");
    let _ = std::fs::remove_file(&probe_path);
    let start = dom.find("<pre id=\"measured\">").expect(&dom) + "<pre id=\"measured\">".len();
    let end = start + dom[start..].find("</pre>").expect("the measurements' end");
    dom[start..end].to_string()
}

/// Screenshots of `pages` at `width` pixels into the test's output folder (printed), for a
/// person to look at.
fn screenshots(pages: &[(&str, &Path)], width: u32) {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pages");
    std::fs::create_dir_all(&folder).expect("screenshot folder");
    for (name, page) in pages {
        let shot = folder.join(format!("{name}-{width}.png"));
        chromium(page, width, &format!("--screenshot={}", shot.display()));
        println!("screenshot: {}", shot.display());
    }
}

/// The pages people read, at a glance, as a browser lays them out in a narrow window: no
/// line of a student's feedback (nor the handout's rule) runs past its box; resources and a
/// run's ending show only under a case that lost points; the class page leads with mean,
/// median and the histogram, the status counts and the CSVs, then the students (sortable by
/// percent, by the page's own script under its policy), then each case's pass rate.
#[test]
fn pages_read_at_a_glance_in_a_browser() {
    if !(have("g++") && have("chromium")) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (code, _, stderr) = grade_class(&files, &out, &["--format", "html"]);
    assert_eq!(code, 1, "{stderr}");
    let (ana, bo, index) = (
        out.join("students/ana.html"),
        out.join("students/bo.html"),
        out.join("index.html"),
    );
    screenshots(&[("ana", &ana), ("bo", &bo), ("class", &index)], 600);
    for page in [&ana, &bo, &index] {
        let measures = measured(page, 600);
        let overflows: Vec<&str> = measures
            .lines()
            .filter(|l| l.starts_with("overflow") || l.starts_with("page"))
            .collect();
        assert!(overflows.is_empty(), "{}: {overflows:?}", page.display());
    }
    // bo's page has feedback, all of it inside its box (the check above), and no figures for
    // a case that did not stop at a limit; ana's none at all.
    let bo_page = std::fs::read_to_string(&bo).expect("bo's page");
    assert!(bo_page.contains("<pre>"), "{bo_page}");
    let ana_page = std::fs::read_to_string(&ana).expect("ana's page");
    for page in [&ana_page, &bo_page] {
        for figure in [
            "<th>wall</th>",
            "peak memory",
            "waiting for more input",
            "cached build",
        ] {
            assert!(!page.contains(figure), "{figure}: {page}");
        }
    }
    // The class page: its order, its links, its script.
    let class_page = std::fs::read_to_string(&index).expect("class page");
    let at = |needle: &str| {
        class_page
            .find(needle)
            .unwrap_or_else(|| panic!("{needle}: {class_page}"))
    };
    assert!(at("Mean <b>") < at("id=\"histogram\""));
    assert!(at("id=\"histogram\"") < at("id=\"status-counts\""));
    assert!(at("id=\"status-counts\"") < at("<a href=\"gradebook.csv\">"));
    assert!(at("<a href=\"gradebook.csv\">") < at("id=\"students\""));
    assert!(at("id=\"students\"") < at("id=\"per-case\""));
    assert!(
        class_page.contains("full marks: <b>1</b> · lost points: <b>1</b>"),
        "{class_page}"
    );
    assert!(
        rendered(&index).contains("data-sortable=\"ready\""),
        "the sort script runs under the page's policy"
    );
    // Pressed, the percent column sorts lowest first: bo's before ana's 100 %, not by name.
    assert!(
        measured(&index, 600).contains("order bo,ana"),
        "{class_page}"
    );
}

#[test]
fn html_reports_and_the_class_page_render_in_a_browser() {
    if !(have("g++") && have("chromium")) {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let files = class(dir.path(), &["ana", "bo"]);
    let out = dir.path().join("out");
    let (code, _, _) = grade_class(&files, &out, &["--format", "html"]);
    assert_eq!(code, 1);
    let bo = rendered(&out.join("students/bo.html"));
    assert!(bo.contains("id=\"score\""), "{bo}");
    assert!(bo.contains("error-more-than-three"), "{bo}");
    // The difference keeps whitespace visible, as in the text report.
    assert!(bo.contains("expected:"), "{bo}");
    let class_page = rendered(&out.join("index.html"));
    for id in [
        "histogram",
        "per-case",
        "build-failures",
        "slowest",
        "students",
    ] {
        assert!(
            class_page.contains(&format!("id=\"{id}\"")),
            "{id}: {class_page}"
        );
    }
    assert!(
        class_page.contains("<a href=\"students/bo.html\">bo</a>"),
        "{class_page}"
    );
    assert!(
        class_page.contains("1 of 2 (50.0%)"),
        "one of two passed: {class_page}"
    );
}

/// A class handed in as one folder (`grade class/` for `grade class/*/`): each student's folder
/// is graded on its own — the buggy one loses points, the correct one does not — never one
/// student's `main.cpp` built as the whole folder's program.
#[test]
fn a_class_folder_given_as_one_submission_grades_each_student() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let classroom = dir.path().join("class");
    for (name, file, source) in [
        ("ana", "nim.cpp", "nim/correct_getline.cpp"),
        ("bo", "main.cpp", "nim/buggy_accepts_four.cpp"),
    ] {
        std::fs::create_dir_all(classroom.join(name)).expect("mkdir");
        std::fs::copy(program(source), classroom.join(name).join(file)).expect("copy");
    }
    let out = dir.path().join("out");
    let (code, _, progress) = grade_class(std::slice::from_ref(&classroom), &out, &[]);
    assert_eq!(code, 1, "bo loses points\n{progress}");
    assert!(progress.contains("2 student folders"), "{progress}");
    assert!(progress.contains("[1/2] ana: full marks"), "{progress}");
    assert!(progress.contains("[2/2] bo: lost points"), "{progress}");
    let rows = sorted_rows(&out.join("gradebook.csv"));
    assert_eq!(rows.len(), 2, "{rows:?}");
}

/// A regrade builds nothing again (the build cache) and says so once in its log, never in the
/// gradebook's notes, which are about each student's program (before: every row's notes read
/// "built earlier from the same files …").
#[test]
fn a_regrade_keeps_the_build_caches_notes_out_of_the_gradebook() {
    if !have("node") {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let files: Vec<PathBuf> = [
        ("ana", "nim/correct_readline.js"),
        ("bo", "nim/buggy_accepts_four.js"),
    ]
    .iter()
    .map(|(name, source)| {
        let folder = dir.path().join(name);
        std::fs::create_dir_all(&folder).expect("mkdir");
        let file = folder.join("nim.js");
        std::fs::copy(program(source), &file).expect("copy");
        file
    })
    .collect();
    let out = dir.path().join("out");
    let grade_class = || {
        grade()
            .args(&files)
            .args([
                "-a",
                "nim",
                "--case",
                "error-more-than-three",
                "--force",
                "--output-dir",
            ])
            .arg(&out)
            .env("XDG_CACHE_HOME", &cache)
            .logged_output()
            .expect("grade runs")
    };
    grade_class();
    let again = grade_class();
    let stderr = String::from_utf8_lossy(&again.stderr);
    let gradebook = std::fs::read_to_string(out.join("gradebook.csv")).expect("gradebook");
    assert!(!gradebook.contains("built earlier"), "{gradebook}");
    assert!(!gradebook.contains("cache"), "{gradebook}");
    // Where the cache works here (root, or Landlock), the reports say the build was reused,
    // and the log says it once for the class.
    let report = std::fs::read_to_string(out.join("instructor/ana.txt")).expect("report");
    if report.contains("cached build") {
        assert!(
            stderr.contains(
                "grade: 2 submission(s) built earlier from the same files with the same tools \
                 and options: their cached builds were used (--no-cache builds again)"
            ),
            "{stderr}"
        );
    }
}
