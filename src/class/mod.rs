//! A whole class: many submissions graded one after another (each one's cases in parallel),
//! named after their students, with progress, a gradebook, resumption of an interrupted or
//! repeated run, and shards for spreading a large course over a batch engine.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};

use crate::cases::CaseSet;
use crate::grade::{self, GradeOptions};
use crate::keys::{fnv1a, FNV_OFFSET};
use crate::report::{self, Format};
use crate::results::{GradeResult, GradebookRow};
use crate::run;

pub mod changes;
pub mod record;
pub mod seal;

use seal::SealKey;

/// One shard of a class: part `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which part, from 1.
    pub index: u64,
    /// How many parts.
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let (index, count) = text
            .split_once('/')
            .ok_or_else(|| format!("'{text}': expected K/N, e.g. 2/5"))?;
        let parse = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("'{text}': K and N are whole numbers"))
        };
        let (index, count) = (parse(index)?, parse(count)?);
        if count == 0 || index == 0 || index > count {
            return Err(format!("'{text}': K must be from 1 to N"));
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// Whether `student` belongs to this shard (a stable partition by name).
    pub fn holds(&self, student: &str) -> bool {
        fnv1a(student.as_bytes(), FNV_OFFSET) % self.count == self.index - 1
    }
}

/// The student each submission belongs to: its file or directory name (an archive's without
/// `.zip`/`.tar.gz`); when several share one (`class/*/nim.cpp`), the directory it is in.
///
/// A name becomes a file name (`OUTDIR/students/NAME.EXT`, `OUTDIR/instructor/NAME.EXT`), so
/// it is made one safe path component first: `/` and control characters become `_`, leading
/// dots are dropped (no hidden file, no `.` or `..`), and an empty name is `submission`. Then
/// names equal ignoring case are told apart by a number (`bob`, `Bob-2`): every report keeps
/// a file of its own on a case-insensitive file system, or in a zip opened on one.
pub fn student_names(submissions: &[PathBuf]) -> Vec<String> {
    let base = |p: &Path| {
        p.file_name().map_or_else(
            || "submission".to_string(),
            |n| {
                let name = n.to_string_lossy().into_owned();
                match crate::submission::archive::format_of(p) {
                    Some(_) => [".zip", ".tar.gz", ".tgz"]
                        .iter()
                        .find_map(|s| {
                            name.to_lowercase()
                                .ends_with(s)
                                .then(|| name[..name.len() - s.len()].to_string())
                        })
                        .filter(|stem| !stem.is_empty())
                        .unwrap_or(name),
                    None => name,
                }
            },
        )
    };
    let safe = |name: &str| {
        let name: String = name
            .chars()
            .map(|c| if c == '/' || c.is_control() { '_' } else { c })
            .collect::<String>()
            .trim_start_matches('.')
            .to_string();
        if name.is_empty() {
            "submission".to_string()
        } else {
            name
        }
    };
    let bases: Vec<String> = submissions.iter().map(|p| base(p)).collect();
    let mut names: Vec<String> = Vec::with_capacity(submissions.len());
    for (path, name) in submissions.iter().zip(&bases) {
        let shared = bases.iter().filter(|b| *b == name).count() > 1;
        let chosen = match path.parent().and_then(|p| p.file_name()) {
            Some(parent) if shared => safe(&parent.to_string_lossy()),
            _ => safe(name),
        };
        let taken = |n: &str| names.iter().any(|t| t.to_lowercase() == n.to_lowercase());
        let mut unique = chosen.clone();
        let mut n = 1;
        while taken(&unique) {
            n += 1;
            unique = format!("{chosen}-{n}");
        }
        names.push(unique);
    }
    names
}

/// Where a class's student reports go, under the output directory: `students/NAME.EXT`,
/// where no student's name can reach the class's own files (`index.html`, `gradebook.csv`,
/// `changes.csv`) or an instructor's report.
pub const STUDENTS_DIR: &str = "students";

pub use report::audience::INSTRUCTOR_DIR;

/// A student's report, relative to the output directory: `students/NAME.EXT`.
pub fn student_report(student: &str, extension: &str) -> String {
    format!("{STUDENTS_DIR}/{student}.{extension}")
}

/// What identifies a grading: the grader's version, the cases, and the submission's files.
/// An unchanged key means the stored result can be reused.
fn resume_key(submission: &Path, cases_digest: u64, options: &GradeOptions) -> Option<String> {
    let mut hash = fnv1a(env!("CARGO_PKG_VERSION").as_bytes(), FNV_OFFSET);
    hash = fnv1a(&cases_digest.to_le_bytes(), hash);
    hash = fnv1a(format!("{options:?}").as_bytes(), hash);
    hash = hash_files(submission, hash)?;
    Some(format!("{hash:016x}"))
}

/// `hash` continued over the submission's files (each one's path in it, then its bytes, in
/// path order); None when one cannot be read.
fn hash_files(submission: &Path, mut hash: u64) -> Option<u64> {
    let mut files: Vec<PathBuf> = walkdir::WalkDir::new(submission)
        .follow_links(false)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    files.sort();
    for file in files {
        hash = fnv1a(
            file.strip_prefix(submission)
                .ok()?
                .to_string_lossy()
                .as_bytes(),
            hash,
        );
        hash = fnv1a(&std::fs::read(&file).ok()?, hash);
    }
    Some(hash)
}

fn row_of(student: &str, result: &GradeResult) -> GradebookRow {
    let status = if result.build_failure.is_some() {
        "build failed"
    } else if result.full_marks() {
        "full marks"
    } else {
        "lost points"
    };
    let mut notes: Vec<String> = result
        .cases
        .iter()
        .filter(|c| {
            !matches!(
                c.run.ended,
                crate::results::Ended::Exit
                    | crate::results::Ended::WaitingForInput
                    | crate::results::Ended::BuildFailed
            )
        })
        .map(|c| format!("{}: {}", c.name, c.run.ended.describe()))
        .collect();
    // How the grader worked (its build cache) is for the instructor's log, not a student's row.
    notes.extend(
        result
            .notes
            .iter()
            .filter(|n| !report::about_the_grader(n))
            .cloned(),
    );
    GradebookRow {
        student: student.to_string(),
        submission: result.submission.clone(),
        score: Some(result.score),
        max_score: Some(result.max_score),
        status: status.to_string(),
        parts: result
            .parts()
            .iter()
            .map(|p| (p.column(), p.score))
            .collect(),
        notes: crate::escape::visible(&notes.join("; ")),
        variant: result
            .variant
            .as_ref()
            .map_or_else(String::new, |v| crate::escape::visible(&v.label)),
    }
}

/// A text cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, carriage return
/// first) made plain text with a leading `'` (OWASP's rule for CSV injection). Number cells
/// are not text cells and stay numbers.
fn text_cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// A text cell as written by [`text_cell`], read back.
fn read_text_cell(cell: &str) -> String {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.starts_with(['=', '+', '-', '@', '\t', '\r']) => rest.to_string(),
        _ => cell.to_string(),
    }
}

/// The gradebook's point columns for grading `cases` of `set`: each case, each code
/// requirement, and each rubric line that counts neither (`submitted`, `compiled`), in the
/// order of [`GradeResult::parts`].
pub fn columns(set: &CaseSet, cases: &[&crate::cases::Case]) -> Vec<String> {
    use crate::results::{column_name, PartKind, RubricPart};
    let requirements = set.requirements();
    let requirement_points: f64 = requirements.iter().map(|(_, p)| p).sum();
    let mut columns: Vec<String> = cases.iter().map(|c| c.name.clone()).collect();
    let rubric_counts =
        |part: RubricPart| set.rubric.is_empty() || set.rubric.iter().any(|(_, p, _)| *p == part);
    if rubric_counts(RubricPart::Requirements) {
        columns.extend(
            requirements
                .iter()
                .map(|(name, _)| column_name(PartKind::Requirement, name)),
        );
    }
    for (name, part, _) in &set.rubric {
        let alone = match part {
            RubricPart::Submitted | RubricPart::Compiled => true,
            RubricPart::Cases => cases.is_empty(),
            RubricPart::Requirements => requirement_points <= 0.0,
        };
        if alone {
            columns.push(column_name(PartKind::Rubric, name));
        }
    }
    columns
}

/// The fixed columns before the point columns.
const LEADING: [&str; 6] = [
    "student",
    "submission",
    "score",
    "max_score",
    "percent",
    "status",
];

/// The gradebook column, before `notes`, of each student's variant (when a course has any).
const VARIANT: &str = "variant";

/// Writes `rows` as `gradebook.csv`: the student, the total, its percentage and status, one
/// column per part of the total (`columns`, see [`columns`]), and notes.
pub fn write_gradebook(
    path: &Path,
    columns: &[String],
    rows: &[GradebookRow],
) -> anyhow::Result<()> {
    let mut writer =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut header: Vec<String> = LEADING.iter().map(|c| c.to_string()).collect();
    header.extend(columns.iter().map(|c| text_cell(c)));
    // A course with variants has a column saying each student's; others keep the layout.
    let variants = rows.iter().any(|r| !r.variant.is_empty());
    if variants {
        header.push(VARIANT.to_string());
    }
    header.push("notes".to_string());
    writer.write_record(&header)?;
    let number = |v: Option<f64>| v.map_or(String::new(), report::points);
    for row in rows {
        // Of the points as written (two decimals), so a gradebook read back and merged says
        // the same.
        let written = |v: f64| (v * 100.0).round() / 100.0;
        let percent = match (row.score, row.max_score) {
            (Some(score), Some(max)) => Some(crate::results::percent(written(score), written(max))),
            _ => None,
        };
        let mut record = vec![
            text_cell(&row.student),
            text_cell(&row.submission),
            number(row.score),
            number(row.max_score),
            number(percent),
            text_cell(&row.status),
        ];
        record.extend(columns.iter().map(|c| number(row.parts.get(c).copied())));
        if variants {
            record.push(text_cell(&row.variant));
        }
        record.push(text_cell(&row.notes));
        writer.write_record(&record)?;
    }
    writer
        .flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Reads a gradebook written by [`write_gradebook`]: its point columns and rows.
pub fn read_gradebook(path: &Path) -> anyhow::Result<(Vec<String>, Vec<GradebookRow>)> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let header: Vec<String> = reader
        .headers()
        .with_context(|| format!("{}: no header", path.display()))?
        .iter()
        .map(String::from)
        .collect();
    let first = LEADING.len();
    if header.len() <= first
        || header[..first] != LEADING
        || header.last().map(String::as_str) != Some("notes")
    {
        bail!("{}: not a gradebook written by this grade", path.display());
    }
    let variant_column = (header.len() >= first + 2 && header[header.len() - 2] == VARIANT)
        .then(|| header.len() - 2);
    let columns: Vec<String> = header[first..variant_column.unwrap_or(header.len() - 1)]
        .iter()
        .map(|c| read_text_cell(c))
        .collect();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.with_context(|| format!("{}: a bad row", path.display()))?;
        let get = |i: usize| read_text_cell(record.get(i).unwrap_or(""));
        let number = |i: usize| record.get(i).and_then(|v| v.parse::<f64>().ok());
        rows.push(GradebookRow {
            student: get(0),
            submission: get(1),
            score: number(2),
            max_score: number(3),
            status: get(5),
            parts: columns
                .iter()
                .enumerate()
                .filter_map(|(i, c)| number(first + i).map(|v| (c.clone(), v)))
                .collect(),
            notes: get(header.len() - 1),
            variant: variant_column.map(get).unwrap_or_default(),
        });
    }
    Ok((columns, rows))
}

/// What `grade gradebook merge` checks, and which of its refusals become warnings.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// How many parts there must be (`--expect N`, the N of `--shard K/N`).
    pub expect: Option<u64>,
    /// A missing part (no gradebook, or a shard no part graded) is a warning.
    pub allow_missing: bool,
    /// Students left ungraded by an interruption (`incomplete: interrupted`) are a warning.
    pub allow_interrupted: bool,
    /// Parts graded with other options, cases or grader versions are a warning.
    pub allow_different_options: bool,
    /// Parts graded with another course seed are a warning.
    pub allow_different_seed: bool,
    /// Parts graded with a sandbox layer off that another part had on are a warning.
    pub allow_weaker_sandbox: bool,
}

/// The kinds of problem a merge finds, each refused unless allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Problem {
    Missing,
    Interrupted,
    Options,
    Seed,
    Sandbox,
}

impl Problem {
    fn flag(self) -> &'static str {
        match self {
            Problem::Missing => "--allow-missing",
            Problem::Interrupted => "--allow-interrupted",
            Problem::Options => "--allow-different-options",
            Problem::Seed => "--allow-different-seed",
            Problem::Sandbox => "--allow-weaker-sandbox",
        }
    }

    fn allowed(self, options: &MergeOptions) -> bool {
        match self {
            Problem::Missing => options.allow_missing,
            Problem::Interrupted => options.allow_interrupted,
            Problem::Options => options.allow_different_options,
            Problem::Seed => options.allow_different_seed,
            Problem::Sandbox => options.allow_weaker_sandbox,
        }
    }
}

/// A problem a merge found, with the line that says it (naming the part).
type Found = (Problem, String);

/// A merged gradebook: its students, and the warnings about what was merged anyway.
#[derive(Debug)]
pub struct Merged {
    /// Students in the merged gradebook.
    pub rows: usize,
    /// One line per problem allowed by an `--allow-…` option, naming the part.
    pub warnings: Vec<String>,
}

/// One part as read: its name as given, its point columns, rows and record.
struct Part {
    name: String,
    columns: Vec<String>,
    rows: Vec<GradebookRow>,
    record: Option<record::Record>,
}

/// `grade gradebook merge`: the gradebooks of several shards' output directories as one
/// (rows sorted by student), written to `output`. Refuses, naming the part, a missing part,
/// interrupted rows, parts graded with other options, course seed or a weaker sandbox
/// (each a warning with its `--allow-…` option); a part with other cases, or a student in
/// two parts, always.
pub fn merge_gradebooks(
    dirs: &[PathBuf],
    output: &Path,
    options: &MergeOptions,
) -> anyhow::Result<Merged> {
    let (parts, mut problems) = read_parts(dirs)?;
    // Never merged: parts graded against other cases, or a student in two parts.
    let (columns, mut rows) = joined_rows(&parts)?;
    problems.extend(missing_parts(&parts, options.expect)?);
    problems.extend(interrupted_parts(&parts));
    problems.extend(record_problems(&parts));
    let warnings = refuse_or_warn(&problems, options)?;
    rows.sort_by(|a, b| a.student.cmp(&b.student));
    write_gradebook(output, &columns, &rows)?;
    Ok(Merged {
        rows: rows.len(),
        warnings,
    })
}

/// The parts named by `dirs` (an output directory, or a gradebook file in one) as read, and
/// a problem for each that has no gradebook yet.
fn read_parts(dirs: &[PathBuf]) -> anyhow::Result<(Vec<Part>, Vec<Found>)> {
    let mut problems: Vec<Found> = Vec::new();
    let mut parts: Vec<Part> = Vec::new();
    for dir in dirs {
        let (path, folder) = if dir.is_dir() {
            (dir.join("gradebook.csv"), dir.clone())
        } else {
            let folder = dir
                .parent()
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            (dir.clone(), folder)
        };
        if !path.exists() {
            problems.push((
                Problem::Missing,
                format!(
                    "{}: no gradebook.csv (the part did not finish: cancelled, timed out or \
                     failed before writing it)",
                    dir.display()
                ),
            ));
            continue;
        }
        let (columns, rows) = read_gradebook(&path)?;
        let record = record::Record::read(&folder)?;
        parts.push(Part {
            name: dir.display().to_string(),
            columns,
            rows,
            record,
        });
    }
    Ok((parts, problems))
}

/// The parts' point columns and rows together; an error when parts were graded against
/// other cases or a student is in two parts, which no option merges anyway.
fn joined_rows(parts: &[Part]) -> anyhow::Result<(Vec<String>, Vec<GradebookRow>)> {
    let mut case_names: Option<(&str, &Vec<String>)> = None;
    let mut rows: Vec<GradebookRow> = Vec::new();
    for part in parts {
        match case_names {
            None => case_names = Some((&part.name, &part.columns)),
            Some((first, existing)) if *existing != part.columns => bail!(
                "{}: its cases ({}) differ from {first}'s ({})",
                part.name,
                part.columns.join(", "),
                existing.join(", ")
            ),
            Some(_) => {}
        }
        for row in &part.rows {
            if rows.iter().any(|r| r.student == row.student) {
                bail!(
                    "{}: student {} appears in two shards",
                    part.name,
                    row.student
                );
            }
            rows.push(row.clone());
        }
    }
    let columns = case_names.map(|(_, c)| c.clone()).unwrap_or_default();
    Ok((columns, rows))
}

/// The parts that should be there and are not: N of `--expect`, else the N their shards
/// were graded as. An error when a part was graded as another N, or more parts are given.
fn missing_parts(parts: &[Part], expect: Option<u64>) -> anyhow::Result<Vec<Found>> {
    let counts: Vec<u64> = parts
        .iter()
        .filter_map(|p| p.record.as_ref()?.shard().map(|(_, n)| n))
        .collect();
    let expected = expect.or_else(|| {
        counts
            .first()
            .copied()
            .filter(|n| counts.iter().all(|c| c == n))
    });
    let Some(n) = expected else {
        return Ok(Vec::new());
    };
    for part in parts {
        if let Some((k, count)) = part.record.as_ref().and_then(record::Record::shard) {
            if count != n {
                bail!(
                    "{}: graded as shard {k}/{count}, but the parts are {n} (--expect {n})",
                    part.name
                );
            }
        }
    }
    let found: Vec<u64> = parts
        .iter()
        .filter_map(|p| p.record.as_ref()?.shard().map(|(k, _)| k))
        .collect();
    let read = u64::try_from(parts.len()).unwrap_or(u64::MAX);
    if read > n {
        bail!("{read} parts given, but --expect {n}");
    }
    let unnamed = n - read;
    let absent: Vec<String> = (1..=n)
        .filter(|k| !found.contains(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if unnamed == 0 {
        return Ok(Vec::new());
    }
    let which = if found.len() == parts.len() {
        format!(" (shard {} missing)", absent.join(", "))
    } else {
        String::new()
    };
    Ok(vec![(
        Problem::Missing,
        format!("{n} parts expected, {read} found{which}: its students are not in the gradebook"),
    )])
}

/// A problem for each part with students an interruption left ungraded.
fn interrupted_parts(parts: &[Part]) -> Vec<Found> {
    let mut problems = Vec::new();
    for part in parts {
        let interrupted: Vec<&str> = part
            .rows
            .iter()
            .filter(|r| r.status.starts_with("incomplete"))
            .map(|r| r.student.as_str())
            .collect();
        if !interrupted.is_empty() {
            problems.push((
                Problem::Interrupted,
                format!(
                    "{}: {} student(s) not graded (interrupted: {}); grade the part again with \
                     the same --output-dir to finish it",
                    part.name,
                    interrupted.len(),
                    interrupted.join(", ")
                ),
            ));
        }
    }
    problems
}

/// How each part was graded, against the first part's record and the strongest sandbox any
/// part had: a problem for each difference, and for a part with no record.
fn record_problems(parts: &[Part]) -> Vec<Found> {
    let first = parts
        .iter()
        .find_map(|p| p.record.as_ref().map(|r| (p.name.as_str(), r)));
    let strongest: std::collections::BTreeSet<&str> = parts
        .iter()
        .filter_map(|p| p.record.as_ref())
        .flat_map(|r| r.sandbox_on.iter().map(String::as_str))
        .collect();
    let mut problems = Vec::new();
    for part in parts {
        let Some(record) = &part.record else {
            problems.push((
                Problem::Options,
                format!(
                    "{}: no {} beside its gradebook (graded by an older grade?): its options, \
                     course seed and sandbox cannot be compared",
                    part.name,
                    record::RECORD_FILE
                ),
            ));
            continue;
        };
        if let Some(first) = first {
            problems.extend(unlike_first(&part.name, record, first));
        }
        let weaker: Vec<&str> = strongest
            .iter()
            .copied()
            .filter(|l| !record.sandbox_on.iter().any(|on| on == l))
            .collect();
        if !weaker.is_empty() {
            problems.push((
                Problem::Sandbox,
                format!(
                    "{}: graded with a weaker sandbox: {} off here, on in another part \
                     (grade with --require-sandbox where every layer works)",
                    part.name,
                    weaker.join(", ")
                ),
            ));
        }
    }
    problems
}

/// How the part `name` (graded as `record` says) differs from the first part: its options,
/// then its course seed.
fn unlike_first(
    name: &str,
    record: &record::Record,
    (first_name, first): (&str, &record::Record),
) -> Vec<Found> {
    let mut problems = Vec::new();
    let differences = record.option_differences(first);
    if !differences.is_empty() {
        problems.push((
            Problem::Options,
            format!(
                "{name}: graded with {}, unlike {first_name}",
                differences.join(", ")
            ),
        ));
    }
    if record.course_seed != first.course_seed {
        let said = |s: &Option<String>| {
            s.as_ref()
                .map_or("no course seed".to_string(), |f| format!("course seed {f}"))
        };
        problems.push((
            Problem::Seed,
            format!(
                "{name}: graded with another course seed than {first_name} ({} there, {} \
                 here; fingerprints, not seeds)",
                said(&first.course_seed),
                said(&record.course_seed)
            ),
        ));
    }
    problems
}

/// The merge refused when a problem is not allowed by its `--allow-…` option (one said in
/// the error, several each on standard error); else the warnings for those merged anyway.
fn refuse_or_warn(problems: &[Found], options: &MergeOptions) -> anyhow::Result<Vec<String>> {
    let refused: Vec<&Found> = problems
        .iter()
        .filter(|(p, _)| !p.allowed(options))
        .collect();
    match refused.as_slice() {
        [] => {}
        [(problem, line)] => bail!(
            "{line}; nothing merged ({} to merge anyway)",
            problem.flag()
        ),
        several => {
            return Err(MergeRefused {
                problems: several
                    .iter()
                    .map(|(problem, line)| format!("{line} ({} merges anyway)", problem.flag()))
                    .collect(),
            }
            .into());
        }
    }
    Ok(problems
        .iter()
        .map(|(p, line)| format!("{line} (merged anyway: {})", p.flag()))
        .collect())
}

/// Parts of a class run that were not merged, for several reasons: each is a line of its own
/// (the command line shows them above the error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeRefused {
    /// Each reason, with the switch that merges anyway.
    pub problems: Vec<String>,
}

impl std::fmt::Display for MergeRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "nothing merged: {} problems above", self.problems.len())
    }
}

impl std::error::Error for MergeRefused {}

/// What a class run tells whoever runs it, as it goes: the command line draws it (a progress
/// bar on a terminal or a line per student, notes on standard error, the summary on standard
/// output); the run itself prints nothing but the reports it was asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClassEvent<'a> {
    /// The run starts on `total` students.
    Started {
        /// Students in this run.
        total: usize,
    },
    /// A student is done.
    Graded {
        /// Their place in the run, from 1.
        position: usize,
        /// Students in this run.
        total: usize,
        /// Their name.
        student: &'a str,
        /// What happened ("full marks", "lost points (unchanged, kept)", an error).
        outcome: &'a str,
        /// Students who lost points or failed so far.
        failures: usize,
    },
    /// A line for the log: a student who could not be graded, a stored result graded again,
    /// work reused, an earlier run that could not be read.
    Note(&'a str),
    /// A student's report was written on standard output (no output directory).
    ReportWritten,
    /// Every student is done.
    Finished,
    /// The class summary, once at the end.
    Summary(&'a str),
}

/// Where a student's stored result and resume key live.
fn state_paths(dir: &Path, student: &str) -> (PathBuf, PathBuf) {
    let state = dir.join(".grade");
    (
        state.join(format!("{student}.key")),
        state.join(format!("{student}.json")),
    )
}

/// What the output directory holds for a student from an earlier run.
enum Stored {
    /// A result for this very submission, sealed by this grader: its row.
    Kept(Box<GradebookRow>),
    /// Nothing usable for this submission (none, or for other files, cases or options).
    Missing,
    /// A result that claims to be for this submission but whose seal does not verify under
    /// the key it names, this grader's: edited since it was written.
    Unverified,
    /// A result sealed under another key (another machine's or user's cache), or that this
    /// grader cannot check (it has no key): graded elsewhere, so graded again here.
    Elsewhere,
}

/// A student's result as a class run keeps it (`.grade/NAME.json`): the result as the student
/// sees it ([`report::for_students`]), with the gradebook row's own columns and what a regrade
/// compares. Written as a JSON object with sorted keys.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct StoredResult {
    /// The redacted result.
    #[serde(flatten)]
    result: GradeResult,
    /// The gradebook's status (absent in a result stored before rows were: graded again).
    class_status: Option<String>,
    /// The gradebook's notes.
    #[serde(default)]
    class_notes: String,
    /// The gradebook's points per column (absent as `class_status` may be).
    class_parts: Option<BTreeMap<String, f64>>,
    /// The digests of the submission and the cases it was graded with.
    #[serde(default)]
    class_digests: changes::Digests,
}

impl StoredResult {
    /// The stored result's bytes: through a JSON value, whose keys are sorted, as every
    /// stored result has been written.
    fn to_bytes(&self) -> serde_json::Result<Vec<u8>> {
        serde_json::to_vec(&serde_json::to_value(self)?)
    }

    /// The stored result read from its bytes, or None when they are not one.
    fn from_bytes(bytes: &[u8]) -> Option<StoredResult> {
        serde_json::from_slice(bytes).ok()
    }
}

/// What is sealed for a student: who, the resume key and the stored result's bytes.
fn sealed_parts<'a>(student: &'a str, key: &'a str, result: &'a [u8]) -> [&'a [u8]; 4] {
    [
        b"grade resume 1",
        student.as_bytes(),
        key.as_bytes(),
        result,
    ]
}

/// A stored result's gradebook row and result, when its key still matches and its seal
/// verifies under `seal` (the grader's key); the row's text is escaped again on the way in
/// (the result is, by [`report::for_students`], wherever it is shown).
fn resumed(
    dir: &Path,
    student: &str,
    key: &str,
    seal: Option<&SealKey>,
) -> (Stored, Option<GradeResult>) {
    let (key_path, result_path) = state_paths(dir, student);
    let Ok(stored_key) = std::fs::read_to_string(key_path) else {
        return (Stored::Missing, None);
    };
    let mut lines = stored_key.lines();
    if lines.next().map(str::trim) != Some(key) {
        return (Stored::Missing, None);
    }
    let Ok(bytes) = std::fs::read(result_path) else {
        return (Stored::Missing, None);
    };
    let (mac, key_id) = (lines.next().map(str::trim), lines.next().map(str::trim));
    let verified = match (seal, mac) {
        (Some(seal), Some(mac)) => seal.verify(&sealed_parts(student, key, &bytes), mac),
        _ => false,
    };
    if !verified {
        // Edited only when sealed under this very key; else made where this key is not.
        return match seal {
            Some(seal) if key_id == Some(seal.id().as_str()) => (Stored::Unverified, None),
            _ => (Stored::Elsewhere, None),
        };
    }
    let Some(stored) = StoredResult::from_bytes(&bytes) else {
        return (Stored::Unverified, None);
    };
    let field = crate::escape::field;
    // The row's columns as stored with it (a result stored without them is graded again).
    let (Some(status), Some(parts)) = (&stored.class_status, &stored.class_parts) else {
        return (Stored::Unverified, None);
    };
    let result = stored.result;
    let row = GradebookRow {
        student: student.to_string(),
        submission: field(&result.submission),
        score: Some(result.score),
        max_score: Some(result.max_score),
        status: field(status),
        parts: parts.clone(),
        notes: field(&stored.class_notes),
        variant: result
            .variant
            .as_ref()
            .map_or_else(String::new, |v| field(&v.label)),
    };
    (Stored::Kept(Box::new(row)), Some(result))
}

fn store(
    dir: &Path,
    student: &str,
    key: &str,
    seal: Option<&SealKey>,
    result: &GradeResult,
    row: &GradebookRow,
    digests: changes::Digests,
) -> anyhow::Result<()> {
    let (key_path, result_path) = state_paths(dir, student);
    if let Some(parent) = key_path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let bytes = StoredResult {
        result: report::for_students(result),
        class_status: Some(row.status.clone()),
        class_notes: row.notes.clone(),
        class_parts: Some(row.parts.clone()),
        class_digests: digests,
    }
    .to_bytes()?;
    std::fs::write(&result_path, &bytes)
        .with_context(|| format!("cannot write {}", result_path.display()))?;
    // Without the grader's key nothing is sealed, and nothing will be taken back.
    let (mac, key_id) = seal.map_or((String::new(), String::new()), |s| {
        (s.seal(&sealed_parts(student, key, &bytes)), s.id())
    });
    std::fs::write(&key_path, format!("{key}\n{mac}\n{key_id}\n"))
        .with_context(|| format!("cannot write {}", key_path.display()))?;
    Ok(())
}

/// What grading a whole class adds to [`GradeOptions`]: where the reports go and which
/// students this run covers. Kept apart so that grading one submission knows nothing of classes.
#[derive(Debug, Default, Clone)]
pub struct ClassOptions {
    /// Write one report per submission into this directory (`students/NAME.EXT`, the
    /// instructor's in `instructor/NAME.EXT`), plus
    /// gradebook.csv; a re-run skips students whose result is still valid.
    pub output_dir: Option<PathBuf>,
    /// Grade again the students whose stored result in `output_dir` is still valid.
    pub force: bool,
    /// Grade only this part of the class (a stable split by student name).
    pub shard: Option<Shard>,
    /// Grading a class into `output_dir`: show what would change (`changes.csv`) without
    /// writing anything.
    pub dry_run: bool,
}

impl ClassOptions {
    /// Where reports go: the output directory, but nowhere on a dry run.
    fn writes_to(&self) -> Option<&PathBuf> {
        self.output_dir.as_ref().filter(|_| !self.dry_run)
    }
}

/// The note a student's row and progress line carry when a stored result did not verify.
const UNVERIFIED: &str = "the stored result did not verify (edited?), so it was graded again";

/// What the progress line says of a stored result sealed elsewhere (another node's or user's
/// cache, or none here): not a sign of tampering, only work to do again.
const ELSEWHERE: &str = "graded elsewhere; regrading";

/// Grades several submissions, writing one report each (`students/NAME.EXT`), an
/// instructor's report (`instructor/NAME.EXT`, hidden cases in full), `gradebook.csv`, the
/// class page (`index.html`) and,
/// over an earlier run, `changes.csv` into `--output-dir`; or the reports to standard output
/// in text. With `--dry-run` nothing is written: what a regrade would change is printed.
pub fn grade_class(
    submissions: &[PathBuf],
    set: &CaseSet,
    cases_digest: u64,
    options: &GradeOptions,
    class: &ClassOptions,
    cases_for: &dyn Fn(&str) -> anyhow::Result<CaseSet>,
    events: &dyn Fn(ClassEvent),
) -> anyhow::Result<u8> {
    if class.output_dir.is_none() && options.format != Format::Text {
        bail!("grading several submissions with --format other than text needs --output-dir DIR");
    }
    let output_dir = class.writes_to();
    if let Some(dir) = output_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let names = student_names(submissions);
    let chosen: Vec<(&PathBuf, &String)> = submissions
        .iter()
        .zip(&names)
        .filter(|(_, name)| class.shard.is_none_or(|s| s.holds(name)))
        .collect();
    let selected = grade::select_cases(set, options)?;
    let columns = columns(set, &selected);
    let job = ClassRun::new(
        set,
        cases_digest,
        options,
        class,
        cases_for,
        &selected,
        events,
    )
    .over(chosen.len());
    events(ClassEvent::Started {
        total: chosen.len(),
    });
    // The earlier run, read before anything is graded over it.
    let before = earlier_run(class, job.seal.as_ref(), events);
    if let Some(dir) = output_dir {
        for sub in [STUDENTS_DIR, INSTRUCTOR_DIR] {
            std::fs::create_dir_all(dir.join(sub))
                .with_context(|| format!("cannot create {}", dir.join(sub).display()))?;
        }
    }
    let mut tally = Tally::new();
    // The next student is built while this one is graded: a build is one process (the
    // compiler) that would leave the other cores idle. Not with variants: each student's
    // cases are looked up as they are graded. `GRADE_BUILD_AHEAD=0`: each student built as
    // they are graded (to measure what building ahead gains, docs/performance.md).
    let build_ahead = job.set.variants.is_empty()
        && std::env::var_os("GRADE_BUILD_AHEAD").is_none_or(|v| v != "0");
    std::thread::scope(|scope| -> anyhow::Result<()> {
        // The next student: what is stored for them, looked up once, and their build.
        type Next<'s> = (
            usize,
            StudentAhead,
            Option<std::thread::ScopedJoinHandle<'s, grade::BuiltForGrading>>,
        );
        let mut ahead: Option<Next<'_>> = None;
        for (done, (submission, student)) in chosen.iter().enumerate() {
            if run::interrupt::interrupted() {
                // Keep what is finished; say what is not.
                for (rest, name) in &chosen[done..] {
                    tally.rows.push(interrupted_row(name, rest));
                }
                break;
            }
            let this = match ahead.take() {
                Some((index, stored, handle)) if index == done => StudentAhead {
                    built: handle.and_then(|h| h.join().ok()),
                    ..stored
                },
                _ => stored_for(&job, submission, student),
            };
            if let Some(&(next, next_student)) = chosen.get(done + 1) {
                let stored = stored_for(&job, next, next_student);
                let handle =
                    (build_ahead && !is_kept(&job, next_student, &stored.stored)).then(|| {
                        let (set, options) = (job.set, job.options);
                        scope.spawn(move || grade::build_for_grading(next, set, options))
                    });
                ahead = Some((done + 1, stored, handle));
            }
            grade_student(
                &job,
                before.as_ref(),
                done + 1,
                this,
                submission,
                student,
                &mut tally,
            )?;
        }
        Ok(())
    })?;
    (job.events)(ClassEvent::Finished);
    log_reuse(&job, tally.cached_builds, tally.elsewhere);
    // Over an earlier run: what changed, for everyone this run covers.
    let changes = before
        .map(|before| what_changed(before, class.shard.is_some(), &mut tally.after, &tally.rows));
    if let Some(dir) = output_dir {
        write_class_files(
            &job,
            dir,
            &columns,
            &tally.rows,
            &mut tally.summaries,
            changes.as_deref(),
        )?;
    }
    let summary = class_summary(set, &tally.rows, changes.as_deref(), class.dry_run);
    (job.events)(ClassEvent::Summary(&summary));
    Ok(exit_status(tally.any_error, tally.all_full))
}

/// What every student of a class run is graded with, gathered once, so that each step of
/// the run takes it as one argument.
struct ClassRun<'a> {
    set: &'a CaseSet,
    cases_digest: u64,
    options: &'a GradeOptions,
    class: &'a ClassOptions,
    /// Each student's cases, when the course has variants.
    cases_for: &'a dyn Fn(&str) -> anyhow::Result<CaseSet>,
    /// What identifies a grading for resumption: neither who reads it nor a dry run.
    keyed: GradeOptions,
    /// Where reports go: nowhere on a dry run.
    output_dir: Option<&'a PathBuf>,
    /// The points of the selected cases, out of which a failed grading scores.
    max_points: f64,
    /// Each selected case's digest, and its weights' digest, for `changes.csv`.
    case_digests: BTreeMap<String, String>,
    case_weights: BTreeMap<String, String>,
    /// Whoever runs the class is told how it goes.
    events: &'a dyn Fn(ClassEvent),
    /// Students in this run.
    students: usize,
    /// The key stored results are sealed with.
    seal: Option<SealKey>,
}

impl<'a> ClassRun<'a> {
    /// The run of `selected` cases of `set`, telling `events` how it goes (over no student
    /// until [`ClassRun::over`] says how many).
    fn new(
        set: &'a CaseSet,
        cases_digest: u64,
        options: &'a GradeOptions,
        class: &'a ClassOptions,
        cases_for: &'a dyn Fn(&str) -> anyhow::Result<CaseSet>,
        selected: &[&crate::cases::Case],
        events: &'a dyn Fn(ClassEvent),
    ) -> ClassRun<'a> {
        ClassRun {
            set,
            cases_digest,
            options,
            class,
            cases_for,
            keyed: GradeOptions {
                audience: report::audience::Audience::Student,
                ..options.clone()
            },
            output_dir: class.writes_to(),
            max_points: set.total_of(selected.iter().copied()),
            case_digests: selected
                .iter()
                .map(|c| (c.name.clone(), changes::case_digest(c)))
                .collect(),
            case_weights: selected
                .iter()
                .map(|c| (c.name.clone(), changes::weights_digest(c)))
                .collect(),
            events,
            students: 0,
            // The key stored results are sealed with, kept where neither runs nor students
            // reach.
            seal: class.output_dir.as_ref().and_then(|_| SealKey::grader()),
        }
    }

    /// The run over `students` students (the progress lines count them).
    fn over(self, students: usize) -> ClassRun<'a> {
        ClassRun { students, ..self }
    }

    /// A student's report, relative to the output directory.
    fn report_name(&self, student: &str) -> String {
        student_report(student, self.options.format.extension())
    }

    /// A student's instructor report, relative to the output directory.
    fn instructor_name(&self, student: &str) -> String {
        report::audience::instructor_file(student, self.options.format.extension())
    }
}

/// What a class run gathers student by student: the gradebook's rows, the class page's
/// summaries, the snapshots `changes.csv` compares, and what the log and exit status say.
struct Tally {
    rows: Vec<GradebookRow>,
    summaries: Vec<report::html::StudentSummary>,
    after: BTreeMap<String, changes::Snapshot>,
    all_full: bool,
    any_error: bool,
    /// Students who lost points or failed so far, for the progress display.
    failures: usize,
    /// Stored results sealed elsewhere, so graded again.
    elsewhere: usize,
    /// Submissions whose build came from the build cache, said once in the log at the end.
    cached_builds: usize,
}

impl Tally {
    /// Nothing gathered yet: full marks until a student falls short.
    fn new() -> Tally {
        Tally {
            rows: Vec::new(),
            summaries: Vec::new(),
            after: BTreeMap::new(),
            all_full: true,
            any_error: false,
            failures: 0,
            elsewhere: 0,
            cached_builds: 0,
        }
    }

    /// A student's row added, and what happened (`outcome`) told.
    fn finish_row(
        &mut self,
        job: &ClassRun,
        position: usize,
        student: &str,
        row: GradebookRow,
        outcome: &str,
    ) {
        self.failures += usize::from(row.status != "full marks");
        (job.events)(ClassEvent::Graded {
            position,
            total: job.students,
            student,
            outcome,
            failures: self.failures,
        });
        self.rows.push(row);
    }
}

/// The earlier run in the output directory, if any; one this grader cannot read is said on
/// standard error and is no reason not to grade.
fn earlier_run(
    class: &ClassOptions,
    seal: Option<&SealKey>,
    events: &dyn Fn(ClassEvent),
) -> Option<changes::Before> {
    let dir = class.output_dir.as_ref()?;
    changes::before(dir, seal).unwrap_or_else(|error| {
        events(ClassEvent::Note(&format!(
            "grade: {}: no changes.csv this time",
            crate::escape::visible(&format!("{error:#}"))
        )));
        None
    })
}

/// The row of a student an interruption left ungraded.
fn interrupted_row(student: &str, submission: &Path) -> GradebookRow {
    GradebookRow {
        student: student.to_string(),
        submission: crate::escape::visible(&submission.display().to_string()),
        status: "incomplete: interrupted".into(),
        ..GradebookRow::default()
    }
}

/// What a class run knows of a student before grading them: what is stored for their
/// submission (looked up once, [`stored_for`]) and their build when it was made ahead.
struct StudentAhead {
    stored: Stored,
    result: Option<GradeResult>,
    built: Option<grade::BuiltForGrading>,
}

/// One student of a class run: their stored result kept while it is still valid, else
/// graded (from the build made ahead, when there is one); either way a row and a progress
/// line.
fn grade_student(
    job: &ClassRun,
    before: Option<&changes::Before>,
    position: usize,
    ahead: StudentAhead,
    submission: &Path,
    student: &str,
    tally: &mut Tally,
) -> anyhow::Result<()> {
    let StudentAhead {
        stored,
        result,
        built,
    } = ahead;
    let kept = is_kept(job, student, &stored);
    let mut unverified = false;
    match (stored, &job.class.output_dir) {
        (Stored::Kept(row), Some(dir)) if kept => {
            keep_stored(job, before, dir, student, &row, result, tally);
            let outcome = format!("{} (unchanged, kept)", row.status);
            tally.finish_row(job, position, student, *row, &outcome);
            return Ok(());
        }
        (Stored::Unverified, _) => unverified = true,
        (Stored::Elsewhere, _) => {
            tally.elsewhere += 1;
            (job.events)(ClassEvent::Note(&format!("grade: {student}: {ELSEWHERE}")));
        }
        (Stored::Missing | Stored::Kept(_), _) => {}
    }
    // Each student's variant (the same cases for all when the course has none).
    let graded = if job.set.variants.is_empty() {
        let built =
            built.unwrap_or_else(|| grade::build_for_grading(submission, job.set, job.options));
        grade::grade_built(submission, job.set, job.options, built)
    } else {
        (job.cases_for)(student).and_then(|own| grade::grade(submission, &own, job.options))
    };
    let mut row = match graded {
        Ok(result) => graded_row(job, submission, student, &result, tally)?,
        Err(_) if run::interrupt::interrupted() => interrupted_row(student, submission),
        Err(error) => error_row(job, submission, student, &error, tally),
    };
    if unverified {
        row.notes = if row.notes.is_empty() {
            UNVERIFIED.to_string()
        } else {
            format!("{}; {UNVERIFIED}", row.notes)
        };
    }
    let outcome = if unverified {
        format!("{} ({UNVERIFIED})", row.status)
    } else {
        row.status.clone()
    };
    tally.finish_row(job, position, student, row, &outcome);
    Ok(())
}

/// What is stored for `student`'s `submission` in the output folder (nothing without one, or
/// with `--force`), not yet built.
fn stored_for(job: &ClassRun, submission: &Path, student: &str) -> StudentAhead {
    let class = job.class;
    let (stored, result) = match class.output_dir.as_ref().filter(|_| !class.force) {
        Some(dir) => match resume_key(submission, job.cases_digest, &job.keyed) {
            Some(key) => resumed(dir, student, &key, job.seal.as_ref()),
            None => (Stored::Missing, None),
        },
        None => (Stored::Missing, None),
    };
    StudentAhead {
        stored,
        result,
        built: None,
    }
}

/// True when `student`'s stored result is kept as it is: stored for this very submission,
/// with its report where this grader writes it (an earlier version wrote reports elsewhere:
/// graded again).
fn is_kept(job: &ClassRun, student: &str, stored: &Stored) -> bool {
    matches!(stored, Stored::Kept(_))
        && job
            .class
            .output_dir
            .as_ref()
            .is_some_and(|dir| dir.join(job.report_name(student)).is_file())
}

/// A student's stored result taken as it is: their earlier snapshot stands (unchanged by
/// construction) and the class page links to the reports already in `dir`.
fn keep_stored(
    job: &ClassRun,
    before: Option<&changes::Before>,
    dir: &Path,
    student: &str,
    row: &GradebookRow,
    result: Option<GradeResult>,
    tally: &mut Tally,
) {
    if let Some(old) = before.and_then(|b| b.students.get(student)) {
        tally.after.insert(student.to_string(), old.clone());
    }
    tally.summaries.push(report::html::StudentSummary {
        student: student.to_string(),
        report: Some(job.report_name(student)),
        instructor_report: Some(job.instructor_name(student))
            .filter(|name| dir.join(name).is_file()),
        result,
        ..Default::default()
    });
    tally.all_full &= row.status == "full marks";
}

/// A graded student's row, with their snapshot and class-page summary noted, their reports
/// written and the result published where the run is on GitHub Actions.
fn graded_row(
    job: &ClassRun,
    submission: &Path,
    student: &str,
    result: &GradeResult,
    tally: &mut Tally,
) -> anyhow::Result<GradebookRow> {
    tally.cached_builds += usize::from(result.notes.iter().any(|n| report::about_the_grader(n)));
    let shown = report::for_students(result);
    let row = row_of(student, &shown);
    let submission_digest = changes::submission_digest(submission);
    tally.after.insert(
        student.to_string(),
        changes::snapshot(
            result,
            &row,
            submission_digest.clone(),
            &job.case_digests,
            &job.case_weights,
        ),
    );
    tally.summaries.push(report::html::StudentSummary {
        student: student.to_string(),
        report: job.output_dir.map(|_| job.report_name(student)),
        instructor_report: job.output_dir.map(|_| job.instructor_name(student)),
        // The class page shows it through `for_students` (here: once more).
        result: Some(shown),
        ..Default::default()
    });
    write_reports(
        job,
        submission,
        student,
        result,
        &row,
        submission_digest.as_deref(),
    )?;
    if !job.class.dry_run {
        crate::report::github::publish(
            result,
            crate::report::github::Audience::Class,
            job.class.output_dir.is_none(),
        )?;
    }
    tally.all_full &= result.full_marks();
    Ok(row)
}

/// A graded student's reports: the student's and the instructor's into the output
/// directory, with the result stored for a later run; else the report on standard output
/// (nothing on a dry run).
fn write_reports(
    job: &ClassRun,
    submission: &Path,
    student: &str,
    result: &GradeResult,
    row: &GradebookRow,
    submission_digest: Option<&str>,
) -> anyhow::Result<()> {
    let options = job.options;
    match job.output_dir {
        Some(dir) => {
            let path = dir.join(job.report_name(student));
            crate::report::write(result, options.format, Some(&path))?;
            report::audience::write_for(
                result,
                options.format,
                Some(&dir.join(job.instructor_name(student))),
                report::audience::Audience::Instructor,
            )?;
            if let Some(key) = resume_key(submission, job.cases_digest, &job.keyed) {
                let digests =
                    changes::digests(submission_digest, &job.case_digests, &job.case_weights);
                store(dir, student, &key, job.seal.as_ref(), result, row, digests)?;
            }
        }
        None if job.class.dry_run => {}
        None => {
            report::audience::write_for(result, options.format, None, options.audience)?;
            (job.events)(ClassEvent::ReportWritten);
        }
    }
    Ok(())
}

/// The row of a student whose grading failed, said on standard error: no score when it was
/// not the student's doing (not gradable), else 0.
fn error_row(
    job: &ClassRun,
    submission: &Path,
    student: &str,
    error: &anyhow::Error,
    tally: &mut Tally,
) -> GradebookRow {
    tally.any_error = true;
    let not_gradable = crate::not_gradable::not_gradable(error);
    let line = crate::escape::visible(&format!("{error:#}"));
    (job.events)(ClassEvent::Note(&format!("grade: {student}: {line}")));
    let row = GradebookRow {
        student: student.to_string(),
        submission: crate::escape::visible(&submission.display().to_string()),
        // Not the student's doing: no score (blank in the gradebook), not a 0.
        score: if not_gradable.is_some() {
            None
        } else {
            Some(0.0)
        },
        max_score: Some(job.max_points),
        status: match not_gradable {
            Some(n) => crate::escape::visible(&crate::not_gradable::status(n)),
            None => format!("error: {line}"),
        },
        ..GradebookRow::default()
    };
    tally
        .after
        .insert(student.to_string(), changes::row_snapshot(&row));
    row
}

/// What the log says once at the end of a class run about work taken from elsewhere: cached
/// builds, and stored results graded again because they were sealed elsewhere.
fn log_reuse(job: &ClassRun, cached_builds: usize, elsewhere: usize) {
    let sealed = job.seal.is_some();
    if cached_builds > 0 {
        (job.events)(ClassEvent::Note(&format!(
            "grade: {cached_builds} submission(s) built earlier from the same files with the same \
             tools and options: their cached builds were used (--no-cache builds again)"
        )));
    }
    if elsewhere > 0 {
        let why = if sealed {
            "sealed with another machine's or user's key"
        } else {
            "this grader has no writable cache ($XDG_CACHE_HOME/grade) to check them with"
        };
        (job.events)(ClassEvent::Note(&format!(
            "grade: {elsewhere} stored result(s) were graded elsewhere ({why}), so they were \
             graded again; to keep results across nodes, give every task the same private \
             $XDG_CACHE_HOME (docs/scale.md)"
        )));
    }
}

/// What changed since the earlier run, for everyone this run covers (a shard compares only
/// its own students); a student with no snapshot yet is compared by their row.
fn what_changed(
    mut before: changes::Before,
    shard: bool,
    after: &mut BTreeMap<String, changes::Snapshot>,
    rows: &[GradebookRow],
) -> Vec<changes::Change> {
    if shard {
        before.students.retain(|s, _| after.contains_key(s));
    }
    for row in rows {
        after
            .entry(row.student.clone())
            .or_insert_with(|| changes::row_snapshot(row));
    }
    changes::compare(&before, after)
}

/// The class's files in the output directory: `gradebook.csv`, the record of how it was
/// graded, `changes.csv` over an earlier run, and the class page (`index.html`).
fn write_class_files(
    job: &ClassRun,
    dir: &Path,
    columns: &[String],
    rows: &[GradebookRow],
    summaries: &mut Vec<report::html::StudentSummary>,
    changes: Option<&[changes::Change]>,
) -> anyhow::Result<()> {
    let (set, options) = (job.set, job.options);
    write_gradebook(&dir.join("gradebook.csv"), columns, rows)?;
    // How it was graded, for `grade gradebook merge` to compare parts.
    record::Record::new(
        &set.assignment.to_string(),
        job.cases_digest,
        options,
        options.course_seed.or(set.course_seed),
        job.class.shard,
    )
    .write(dir)?;
    if let Some(changes) = changes {
        changes::write_csv(&dir.join("changes.csv"), changes)?;
    }
    for row in rows {
        if let Some(summary) = summaries.iter_mut().find(|s| s.student == row.student) {
            summary.status = Some(row.status.clone());
            continue;
        }
        summaries.push(report::html::StudentSummary {
            student: row.student.clone(),
            status: Some(row.status.clone()),
            ..Default::default()
        });
    }
    let page = dir.join("index.html");
    let sections = changes.map(changes::html_section).unwrap_or_default();
    std::fs::write(
        &page,
        report::html::class_page_with(
            set.assignment.name(),
            summaries,
            &sections,
            report::html::ClassFiles {
                changes: changes.is_some(),
            },
        ),
    )
    .with_context(|| format!("cannot write {}", page.display()))
}

/// The class run's summary for standard output: each student's points and status, then what
/// changed over an earlier run.
fn class_summary(
    set: &CaseSet,
    rows: &[GradebookRow],
    changes: Option<&[changes::Change]>,
    dry_run: bool,
) -> String {
    let width = rows
        .iter()
        .map(|r| r.student.chars().count())
        .max()
        .unwrap_or(10);
    let mut summary = format!("{} submissions of {}:\n", rows.len(), set.assignment);
    for row in rows {
        let points = match (row.score, row.max_score) {
            (Some(s), Some(m)) => report::points_of(s, m),
            _ => "—".to_string(),
        };
        let _ = writeln!(
            summary,
            "  {:<width$}  {points:>7}  {}",
            row.student, row.status
        );
    }
    if let Some(changes) = changes {
        summary.push_str(&changes::text(changes));
        if dry_run {
            summary.push_str("(dry run: nothing was written)\n");
        }
    }
    summary
}

/// A class run's exit status: interrupted, an error, full marks for all, or points lost.
fn exit_status(any_error: bool, all_full: bool) -> u8 {
    if run::interrupt::interrupted() {
        run::interrupt::EXIT_INTERRUPTED
    } else if any_error {
        2
    } else if all_full {
        0
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn students_are_named_after_their_folder_when_files_share_a_name() {
        let paths: Vec<PathBuf> = [
            "class/ana/nim.cpp",
            "class/bo/nim.cpp",
            "solo.py",
            "x/solo.py",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(student_names(&paths), vec!["ana", "bo", "solo.py", "x"]);
        let same: Vec<PathBuf> = ["a/nim.cpp", "a/nim.cpp"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(student_names(&same), vec!["a", "a-2"]);
        assert_eq!(student_names(&[PathBuf::from("/")]), vec!["submission"]);
        let archives: Vec<PathBuf> = ["class/jdoe-lab1.zip", "class/ana.TAR.GZ", "class/bo.tgz"]
            .iter()
            .map(PathBuf::from)
            .collect();
        assert_eq!(student_names(&archives), vec!["jdoe-lab1", "ana", "bo"]);
        // A name is one file name of its own: no leading dot, no `.`/`..`, and none equal to
        // another ignoring case (numbered apart, after the dots are dropped).
        let tricky: Vec<PathBuf> = [
            "c/.hidden",
            "c/hidden",
            "c/...",
            "c/Bob",
            "c/bob",
            "c/BOB-2",
            "c/..",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(
            student_names(&tricky),
            vec![
                "hidden",
                "hidden-2",
                "submission",
                "Bob",
                "bob-2",
                "BOB-2-2",
                "submission-2"
            ]
        );
        assert_eq!(student_report("index", "html"), "students/index.html");
    }

    #[test]
    fn the_build_caches_note_stays_out_of_the_gradebook() {
        let mut result = crate::report::tests::sample();
        result.notes = vec![
            crate::submission::CACHED_BUILD_NOTE.to_string(),
            "several classes declare main: Game was run".into(),
        ];
        let row = row_of("ana", &report::for_students(&result));
        assert!(!row.notes.contains("cache"), "{}", row.notes);
        assert!(
            row.notes
                .contains("several classes declare main: Game was run"),
            "{}",
            row.notes
        );
    }

    #[test]
    fn a_hidden_cases_ending_stays_out_of_the_gradebook() {
        let mut result = crate::report::tests::sample();
        result.cases[2].run.ended = crate::results::Ended::MemoryLimit;
        let row = row_of("ana", &report::for_students(&result));
        assert!(!row.notes.contains("hidden_endgame"), "{}", row.notes);
        assert!(row.notes.contains("replay: timed out"), "{}", row.notes);
    }

    #[test]
    fn shards_partition_a_class() {
        let shards: Vec<Shard> = (1..=3).map(|k| Shard { index: k, count: 3 }).collect();
        for n in 0..200 {
            let name = format!("student{n}");
            assert_eq!(
                shards.iter().filter(|s| s.holds(&name)).count(),
                1,
                "{name}"
            );
        }
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/3", "4/3", "1/0", "x", "1/x"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        // FNV-1a of the empty string is its offset basis; of "a", a published value.
        assert_eq!(fnv1a(b"", FNV_OFFSET), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a", FNV_OFFSET), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn gradebooks_round_trip_and_merge() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cases = vec!["a".to_string(), "b".to_string()];
        let row = |student: &str, score: f64| GradebookRow {
            student: student.into(),
            submission: format!("{student}/x.py"),
            score: Some(score),
            max_score: Some(10.0),
            status: "lost points".into(),
            parts: [("a".to_string(), score), ("b".to_string(), 0.0)]
                .into_iter()
                .collect(),
            notes: "b: timed out, \"quoted\"".into(),
            // A course with variants: each row says its student's (the column reads back).
            variant: format!("matches={}", 20 + score as u32),
        };
        let one = dir.path().join("one");
        let two = dir.path().join("two");
        std::fs::create_dir_all(&one).expect("mkdir");
        std::fs::create_dir_all(&two).expect("mkdir");
        write_gradebook(&one.join("gradebook.csv"), &cases, &[row("zed", 4.0)]).expect("write");
        write_gradebook(&two.join("gradebook.csv"), &cases, &[row("amy", 7.5)]).expect("write");
        let (names, rows) = read_gradebook(&one.join("gradebook.csv")).expect("read");
        assert_eq!(names, cases);
        assert_eq!(rows, vec![row("zed", 4.0)]);
        let merged = dir.path().join("all.csv");
        // Gradebooks without a record of how they were graded merge only when allowed.
        let bare = MergeOptions {
            allow_different_options: true,
            ..MergeOptions::default()
        };
        assert!(merge_gradebooks(
            &[one.clone(), two.clone()],
            &merged,
            &MergeOptions::default()
        )
        .is_err());
        let done = merge_gradebooks(&[one.clone(), two], &merged, &bare).expect("merge");
        assert_eq!(done.rows, 2);
        assert_eq!(done.warnings.len(), 2, "{:?}", done.warnings);
        let (_, rows) = read_gradebook(&merged).expect("read");
        assert_eq!(rows, vec![row("amy", 7.5), row("zed", 4.0)]);
        assert!(
            merge_gradebooks(&[one.clone(), one], &merged, &bare).is_err(),
            "a student twice"
        );
    }

    #[test]
    fn formula_cells_are_text_and_read_back_as_written() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("gradebook.csv");
        let cases = vec!["-case".to_string()];
        let row = GradebookRow {
            student: "=HYPERLINK(\"http://x\",\"click\")".into(),
            submission: "+1".into(),
            score: Some(2.5),
            max_score: Some(10.0),
            status: "@SUM(A1)".into(),
            parts: [("-case".to_string(), 2.5)].into_iter().collect(),
            notes: "\tx".into(),
            variant: String::new(),
        };
        write_gradebook(&path, &cases, std::slice::from_ref(&row)).expect("write");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text.lines().nth(1),
            Some(
                "\"'=HYPERLINK(\"\"http://x\"\",\"\"click\"\")\",'+1,2.5,10,25,'@SUM(A1),2.5,'\tx"
            ),
            "{text}"
        );
        assert!(text.starts_with("student,submission,score,max_score,percent,status,'-case,notes"));
        let (names, rows) = read_gradebook(&path).expect("read");
        assert_eq!((names, rows), (cases, vec![row]));
    }

    /// A stored result is written byte for byte as before it was typed (a JSON object with
    /// sorted keys, the row's columns and digests beside the redacted result), reads back as
    /// written, and one stored before the row's columns or the digests were reads too.
    #[test]
    fn a_stored_result_is_written_as_before_and_reads_back_typed() {
        let result = crate::report::tests::with_requirements();
        let row = row_of("ana", &report::for_students(&result));
        let cases: BTreeMap<String, String> = [("replay".to_string(), "00ff".to_string())].into();
        let weights: BTreeMap<String, String> = [("replay".to_string(), "0a0b".to_string())].into();
        let stored = StoredResult {
            result: report::for_students(&result),
            class_status: Some(row.status.clone()),
            class_notes: row.notes.clone(),
            class_parts: Some(row.parts.clone()),
            class_digests: changes::digests(Some("abcd"), &cases, &weights),
        };
        let bytes = stored.to_bytes().expect("json");
        // As the untyped writer put it together.
        let mut value = serde_json::to_value(report::for_students(&result)).expect("json");
        value["class_status"] = serde_json::json!("lost points");
        value["class_notes"] = serde_json::json!(row.notes);
        value["class_parts"] = serde_json::to_value(&row.parts).expect("json");
        value["class_digests"] = serde_json::json!({
            "submission": "abcd", "cases": {"replay": "00ff"}, "weights": {"replay": "0a0b"}
        });
        assert_eq!(
            String::from_utf8(bytes.clone()).expect("utf-8"),
            serde_json::to_string(&value).expect("json")
        );
        assert!(bytes.starts_with(br#"{"assignment":"nim","cases":[{"checks":"#));
        let back = StoredResult::from_bytes(&bytes).expect("reads back");
        assert_eq!(back.result, report::for_students(&result));
        assert_eq!(back.class_status.as_deref(), Some("lost points"));
        assert_eq!(back.class_parts, Some(row.parts.clone()));
        assert_eq!(back.class_digests.cases, cases);
        assert_eq!(back.class_digests.submission.as_deref(), Some("abcd"));
        // Stored before the gradebook's columns and the digests were: read, without them.
        for key in [
            "class_status",
            "class_notes",
            "class_parts",
            "class_digests",
        ] {
            value.as_object_mut().expect("object").remove(key);
        }
        let older = StoredResult::from_bytes(&serde_json::to_vec(&value).expect("json"))
            .expect("reads back");
        assert_eq!(older.result, report::for_students(&result));
        assert_eq!((older.class_status, older.class_parts), (None, None));
        assert_eq!(older.class_digests, changes::Digests::default());
    }
}
