//! What a regrade changed: grading a class into an output directory that holds an earlier run
//! compares each student's new score with the earlier one and says which cases moved and why
//! (the case itself changed, its weight changed, the submission changed), in `changes.csv`, on
//! the class page, and — with `--dry-run` — on standard output without writing anything.
//!
//! The earlier run is read before anything is graded: its gradebook (every student's total,
//! also those that were not gradable) and the sealed results in `.grade/` (each case's points
//! and the digests of the cases and the submission they were graded with). A stored result
//! whose seal does not verify is not believed: only its gradebook total is used.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context as _;

use super::seal::SealKey;
use super::{read_gradebook, read_text_cell, sealed_parts, state_paths, text_cell, StoredResult};
use crate::cases::Case;
use crate::report;
use crate::results::{GradeResult, GradebookRow};

/// One case of one student's grading, as compared.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaseSnapshot {
    /// Points earned.
    pub score: f64,
    /// Points possible (the case's weight).
    pub max_score: f64,
    /// The digest of the case's definition without its points (None when not recorded).
    pub digest: Option<String>,
    /// The digest of its points and its checks' weights (None when not recorded).
    pub weights: Option<String>,
}

/// One student's grading, as compared: the total, each case, and the submission's digest.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The total (None when not graded, e.g. not gradable).
    pub score: Option<f64>,
    /// The status as the gradebook says it.
    pub status: String,
    /// Each case by name (empty when the cases are not known).
    pub cases: BTreeMap<String, CaseSnapshot>,
    /// The digest of the submission's files (None when not recorded).
    pub submission: Option<String>,
    /// The points of the code requirements and the rubric's lines, as one text (None when
    /// not recorded): what a reweighing outside the cases changes.
    pub scheme: Option<String>,
}

/// The earlier run in an output directory: each student's snapshot.
#[derive(Clone, Debug, Default)]
pub struct Before {
    /// By student.
    pub students: BTreeMap<String, Snapshot>,
}

/// The digests stored with a result (`class_digests`), which a regrade compares.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Digests {
    /// The submission's files ([`submission_digest`]), when they could be read.
    pub submission: Option<String>,
    /// Each case's definition ([`case_digest`]), by case name.
    #[serde(default)]
    pub cases: BTreeMap<String, String>,
    /// Each case's weights ([`weights_digest`]), by case name.
    #[serde(default)]
    pub weights: BTreeMap<String, String>,
}

/// The digests stored with a result: the submission's, each case's and each case's weights.
pub fn digests(
    submission: Option<&str>,
    cases: &BTreeMap<String, String>,
    weights: &BTreeMap<String, String>,
) -> Digests {
    Digests {
        submission: submission.map(String::from),
        cases: cases.clone(),
        weights: weights.clone(),
    }
}

/// The digest of a case's definition without its points or its checks' weights: what it
/// sends, runs and checks. A change of weight alone leaves it as it was (that is told apart
/// as "weight changed", by [`weights_digest`]).
pub fn case_digest(case: &Case) -> String {
    let mut unweighted = case.clone();
    unweighted.points = 0.0;
    for check in &mut unweighted.checks {
        check.weight = 0.0;
    }
    format!(
        "{:016x}",
        crate::keys::stable_hash(format!("{unweighted:?}").as_bytes(), 0)
    )
}

/// The digest of how a case's points are counted: its points and each check's weight.
pub fn weights_digest(case: &Case) -> String {
    let mut text = format!("{:?}", case.points);
    for check in &case.checks {
        text.push_str(&format!(";{}={:?}", check.name, check.weight));
    }
    format!("{:016x}", crate::keys::stable_hash(text.as_bytes(), 0))
}

/// The points of a result's code requirements and rubric lines, as one text: a change in it
/// is a reweighing of the parts outside the cases.
pub fn scheme(result: &GradeResult) -> String {
    let requirements = result
        .requirements
        .iter()
        .map(|r| ('r', &r.name, r.max_score));
    let rubric = result.rubric.iter().map(|l| ('b', &l.name, l.max_score));
    requirements
        .chain(rubric)
        .map(|(mark, name, max_score)| format!("{mark}:{name}={};", report::points(max_score)))
        .collect()
}

/// The digest of a submission's files (paths and bytes), or None when one cannot be read.
pub fn submission_digest(submission: &Path) -> Option<String> {
    super::hash_files(submission, crate::keys::stable_hash(b"submission", 0))
        .map(|h| format!("{h:016x}"))
}

/// The earlier run in `dir`, or None when it holds none (no `gradebook.csv`).
pub fn before(dir: &Path, seal: Option<&SealKey>) -> anyhow::Result<Option<Before>> {
    let gradebook = dir.join("gradebook.csv");
    if !gradebook.is_file() {
        return Ok(None);
    }
    let (_, rows) = read_gradebook(&gradebook)
        .with_context(|| format!("{}: the earlier run's gradebook", gradebook.display()))?;
    let mut students = BTreeMap::new();
    for row in rows {
        let mut snapshot = Snapshot {
            score: row.score,
            status: row.status.clone(),
            ..Snapshot::default()
        };
        if let Some(stored) = stored(dir, &row.student, seal) {
            // The stored result is the one the gradebook's row came from only when they agree
            // (the gradebook rounds to hundredths).
            let agrees = row
                .score
                .is_some_and(|score| (stored.result.score - score).abs() < 0.006);
            if agrees {
                snapshot.cases = stored_cases(&stored);
                snapshot.scheme = Some(scheme(&stored.result));
                snapshot.submission = stored.class_digests.submission;
            }
        }
        students.insert(row.student, snapshot);
    }
    Ok(Some(Before { students }))
}

/// A student's stored result, when its seal verifies.
fn stored(dir: &Path, student: &str, seal: Option<&SealKey>) -> Option<StoredResult> {
    let (key_path, result_path) = state_paths(dir, student);
    let key_file = std::fs::read_to_string(key_path).ok()?;
    let mut lines = key_file.lines();
    let key = lines.next()?.trim();
    let mac = lines.next()?.trim();
    let bytes = std::fs::read(result_path).ok()?;
    if !seal?.verify(&sealed_parts(student, key, &bytes), mac) {
        return None;
    }
    StoredResult::from_bytes(&bytes)
}

/// The cases of a stored result with their digests.
fn stored_cases(stored: &StoredResult) -> BTreeMap<String, CaseSnapshot> {
    let digests = &stored.class_digests;
    stored
        .result
        .cases
        .iter()
        .map(|case| {
            (
                case.name.clone(),
                CaseSnapshot {
                    score: case.score,
                    max_score: case.max_score,
                    digest: digests.cases.get(&case.name).cloned(),
                    weights: digests.weights.get(&case.name).cloned(),
                },
            )
        })
        .collect()
}

/// A new grading's snapshot.
pub fn snapshot(
    result: &GradeResult,
    row: &GradebookRow,
    submission: Option<String>,
    case_digests: &BTreeMap<String, String>,
    case_weights: &BTreeMap<String, String>,
) -> Snapshot {
    Snapshot {
        score: row.score,
        status: row.status.clone(),
        cases: result
            .cases
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    CaseSnapshot {
                        score: c.score,
                        max_score: c.max_score,
                        digest: case_digests.get(&c.name).cloned(),
                        weights: case_weights.get(&c.name).cloned(),
                    },
                )
            })
            .collect(),
        submission,
        scheme: Some(scheme(result)),
    }
}

/// A snapshot from a gradebook row alone (a student not graded this time: not gradable,
/// interrupted, or an error).
pub fn row_snapshot(row: &GradebookRow) -> Snapshot {
    Snapshot {
        score: row.score,
        status: row.status.clone(),
        ..Snapshot::default()
    }
}

/// Why a case's points or a student's total changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// The case's input, checks or reference changed.
    CaseChanged,
    /// The case's points changed.
    WeightChanged,
    /// The student handed in other files.
    SubmissionChanged,
    /// The case is new.
    CaseAdded,
    /// The case is no longer graded.
    CaseRemoved,
    /// The student was not in the earlier run.
    NewStudent,
    /// The student is not in this run.
    NotGradedNow,
    /// The earlier or the new grading was not gradable, or failed.
    GradabilityChanged,
    /// None of the above: the grader, its options or the machine (or the earlier run did not
    /// record enough to say).
    Other,
}

impl Reason {
    /// The reason in changes.csv's words.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::CaseChanged => "case changed",
            Reason::WeightChanged => "weight changed",
            Reason::SubmissionChanged => "submission changed",
            Reason::CaseAdded => "case added",
            Reason::CaseRemoved => "case removed",
            Reason::NewStudent => "new student",
            Reason::NotGradedNow => "not graded this time",
            Reason::GradabilityChanged => "gradable before or now, not both",
            Reason::Other => "grader, options or machine changed",
        }
    }
}

/// One case whose points changed for a student.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseChange {
    /// The case.
    pub case: String,
    /// Earlier points earned and possible (None: not graded then).
    pub old: Option<(f64, f64)>,
    /// New points earned and possible (None: not graded now).
    pub new: Option<(f64, f64)>,
    /// Why, as far as can be told.
    pub why: Vec<Reason>,
}

/// One student whose grade changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The student.
    pub student: String,
    /// The earlier total (None: blank then).
    pub old_score: Option<f64>,
    /// The new total (None: blank now).
    pub new_score: Option<f64>,
    /// The cases whose points changed.
    pub cases: Vec<CaseChange>,
    /// Every reason of the cases, or the student's own.
    pub why: Vec<Reason>,
}

fn differ(a: f64, b: f64) -> bool {
    (a - b).abs() > 1e-9
}

/// Compares each student's earlier and new snapshots: the students whose total or any case's
/// points changed, in student order. `kept` names students whose stored result was reused
/// (unchanged by construction).
pub fn compare(before: &Before, after: &BTreeMap<String, Snapshot>) -> Vec<Change> {
    let students: BTreeSet<&String> = before.students.keys().chain(after.keys()).collect();
    let mut changes = Vec::new();
    for student in students {
        let (old, new) = (before.students.get(student), after.get(student));
        let change = match (old, new) {
            (None, Some(new)) => Some(Change {
                student: student.clone(),
                old_score: None,
                new_score: new.score,
                cases: Vec::new(),
                why: vec![Reason::NewStudent],
            }),
            (Some(old), None) => Some(Change {
                student: student.clone(),
                old_score: old.score,
                new_score: None,
                cases: Vec::new(),
                why: vec![Reason::NotGradedNow],
            }),
            (Some(old), Some(new)) => compare_student(student, old, new),
            (None, None) => None,
        };
        changes.extend(change);
    }
    changes
}

fn compare_student(student: &str, old: &Snapshot, new: &Snapshot) -> Option<Change> {
    let submission_changed = match (&old.submission, &new.submission) {
        (Some(a), Some(b)) => a != b,
        _ => false,
    };
    let mut cases = Vec::new();
    if !old.cases.is_empty() && !new.cases.is_empty() {
        let names: BTreeSet<&String> = old.cases.keys().chain(new.cases.keys()).collect();
        for name in names {
            let (o, n) = (old.cases.get(name), new.cases.get(name));
            let why = match (o, n) {
                (None, Some(_)) => vec![Reason::CaseAdded],
                (Some(_), None) => vec![Reason::CaseRemoved],
                (Some(o), Some(n)) => {
                    if !differ(o.score, n.score) && !differ(o.max_score, n.max_score) {
                        continue;
                    }
                    let mut why = Vec::new();
                    let reweighed =
                        matches!((&o.weights, &n.weights), (Some(a), Some(b)) if a != b);
                    if differ(o.max_score, n.max_score) || reweighed {
                        why.push(Reason::WeightChanged);
                    }
                    if matches!((&o.digest, &n.digest), (Some(a), Some(b)) if a != b) {
                        why.push(Reason::CaseChanged);
                    }
                    if submission_changed {
                        why.push(Reason::SubmissionChanged);
                    }
                    if why.is_empty() {
                        why.push(Reason::Other);
                    }
                    why
                }
                (None, None) => continue,
            };
            cases.push(CaseChange {
                case: name.clone(),
                old: o.map(|c| (c.score, c.max_score)),
                new: n.map(|c| (c.score, c.max_score)),
                why,
            });
        }
    }
    let total_changed = match (old.score, new.score) {
        (Some(a), Some(b)) => differ(a, b),
        (None, None) => false,
        _ => true,
    };
    if !total_changed && cases.is_empty() {
        return None;
    }
    let mut why: Vec<Reason> = cases.iter().flat_map(|c| c.why.iter().copied()).collect();
    if matches!((&old.scheme, &new.scheme), (Some(a), Some(b)) if a != b) {
        // The code requirements or the rubric were reweighed.
        why.push(Reason::WeightChanged);
    }
    if old.score.is_none() != new.score.is_none() {
        why.push(Reason::GradabilityChanged);
    }
    if why.is_empty() {
        why.push(if submission_changed {
            Reason::SubmissionChanged
        } else {
            Reason::Other
        });
    }
    why.sort();
    why.dedup();
    Some(Change {
        student: student.to_string(),
        old_score: old.score,
        new_score: new.score,
        cases,
        why,
    })
}

/// `earned/possible`, or empty when not graded.
fn points_cell(points: Option<(f64, f64)>) -> String {
    points.map_or_else(|| "—".to_string(), |(s, m)| report::points_of(s, m))
}

/// A case's change in one phrase: `name: 2/5 → 0/5 (case changed)`.
fn case_phrase(case: &CaseChange) -> String {
    let why: Vec<&str> = case.why.iter().map(|r| r.describe()).collect();
    format!(
        "{}: {} → {} ({})",
        case.case,
        points_cell(case.old),
        points_cell(case.new),
        why.join(", ")
    )
}

/// changes.csv's header.
pub const HEADER: [&str; 6] = [
    "student",
    "old_score",
    "new_score",
    "difference",
    "cases",
    "why",
];

/// The rows of changes.csv (as written, before CSV quoting).
pub fn records(changes: &[Change]) -> Vec<[String; 6]> {
    let number = |v: Option<f64>| v.map_or(String::new(), report::points);
    changes
        .iter()
        .map(|change| {
            let difference = match (change.old_score, change.new_score) {
                (Some(a), Some(b)) => {
                    // From the figures as printed (hundredths), so that old + difference = new
                    // on the page: 92.844 → 98.836 is 92.84 → 98.84, +6 (not +5.99).
                    let hundredths = |v: f64| (v * 100.0).round();
                    let d = (hundredths(b) - hundredths(a)) / 100.0;
                    if d > 0.0 {
                        format!("+{}", report::points(d))
                    } else {
                        report::points(d)
                    }
                }
                _ => String::new(),
            };
            let cases: Vec<String> = change.cases.iter().map(case_phrase).collect();
            let why: Vec<&str> = change.why.iter().map(|r| r.describe()).collect();
            [
                text_cell(&change.student),
                number(change.old_score),
                number(change.new_score),
                difference,
                text_cell(&cases.join("; ")),
                text_cell(&why.join("; ")),
            ]
        })
        .collect()
}

/// Writes `changes.csv`.
pub fn write_csv(path: &Path, changes: &[Change]) -> anyhow::Result<()> {
    let mut writer =
        csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    writer.write_record(HEADER)?;
    for record in records(changes) {
        writer.write_record(&record)?;
    }
    writer
        .flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Reads changes.csv back: each row's cells (the student unquoted from its formula guard).
pub fn read_csv(path: &Path) -> anyhow::Result<Vec<Vec<String>>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.with_context(|| format!("{}: a bad row", path.display()))?;
        rows.push(record.iter().map(read_text_cell).collect());
    }
    Ok(rows)
}

/// The changes as text, for `--dry-run` and the end of a regrade.
pub fn text(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "No grade changed since the earlier run.\n".to_string();
    }
    let mut out = format!(
        "{} grade(s) changed since the earlier run:\n",
        changes.len()
    );
    for (change, record) in changes.iter().zip(records(changes)) {
        let _ = writeln!(
            out,
            "  {}: {} → {} ({})",
            change.student,
            if record[1].is_empty() {
                "—"
            } else {
                &record[1]
            },
            if record[2].is_empty() {
                "—"
            } else {
                &record[2]
            },
            record[5]
        );
        for case in &change.cases {
            let _ = writeln!(out, "    {}", case_phrase(case));
        }
    }
    out
}

/// The class page's section on the changes (HTML, escaped).
pub fn html_section(changes: &[Change]) -> String {
    let mut body = String::from("<h2>Changes since the earlier run</h2>\n");
    if changes.is_empty() {
        body.push_str("<p id=\"changes\">No grade changed.</p>\n");
        return body;
    }
    body.push_str(
        "<table id=\"changes\">\n<tr><th>student</th><th>old</th><th>new</th><th>cases</th>\
         <th>why</th></tr>\n",
    );
    for (change, record) in changes.iter().zip(records(changes)) {
        let cases: Vec<String> = change.cases.iter().map(case_phrase).collect();
        let why: Vec<&str> = change.why.iter().map(|r| r.describe()).collect();
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            report::html::escape(&change.student),
            record[1],
            record[2],
            report::html::escape(&cases.join("; ")),
            report::html::escape(&why.join("; "))
        );
    }
    body.push_str("</table>\n");
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(score: f64, max: f64, digest: &str) -> CaseSnapshot {
        CaseSnapshot {
            score,
            max_score: max,
            digest: Some(digest.into()),
            weights: Some(format!("{max}")),
        }
    }

    fn student(score: f64, cases: &[(&str, CaseSnapshot)], submission: &str) -> Snapshot {
        Snapshot {
            score: Some(score),
            status: "lost points".into(),
            cases: cases
                .iter()
                .map(|(n, c)| (n.to_string(), c.clone()))
                .collect(),
            submission: Some(submission.into()),
            scheme: Some(String::new()),
        }
    }

    #[test]
    fn each_change_says_which_cases_moved_and_why() {
        let before = Before {
            students: [
                (
                    "ana".to_string(),
                    student(
                        7.0,
                        &[("a", case(5.0, 5.0, "A")), ("b", case(2.0, 5.0, "B"))],
                        "s1",
                    ),
                ),
                (
                    "bo".to_string(),
                    student(
                        5.0,
                        &[("a", case(5.0, 5.0, "A")), ("b", case(0.0, 5.0, "B"))],
                        "s2",
                    ),
                ),
                (
                    "cy".to_string(),
                    student(
                        10.0,
                        &[("a", case(5.0, 5.0, "A")), ("b", case(5.0, 5.0, "B"))],
                        "s3",
                    ),
                ),
                ("dee".to_string(), row_snapshot(&GradebookRow::default())),
            ]
            .into_iter()
            .collect(),
        };
        let after: BTreeMap<String, Snapshot> = [
            // a's weight doubled: ana earns 10 of 10 there.
            (
                "ana".to_string(),
                student(
                    12.0,
                    &[("a", case(10.0, 10.0, "A")), ("b", case(2.0, 5.0, "B"))],
                    "s1",
                ),
            ),
            // bo resubmitted: b now passes.
            (
                "bo".to_string(),
                student(
                    15.0,
                    &[("a", case(10.0, 10.0, "A")), ("b", case(5.0, 5.0, "B"))],
                    "s9",
                ),
            ),
            // cy: b's checks changed and cy now fails it; a doubled.
            (
                "cy".to_string(),
                student(
                    10.0,
                    &[("a", case(10.0, 10.0, "A")), ("b", case(0.0, 5.0, "B2"))],
                    "s3",
                ),
            ),
        ]
        .into_iter()
        .collect();
        let changes = compare(&before, &after);
        let students: Vec<&str> = changes.iter().map(|c| c.student.as_str()).collect();
        // cy's total is unchanged but two of cy's cases moved; dee is no longer graded.
        assert_eq!(students, ["ana", "bo", "cy", "dee"]);
        let records = records(&changes);
        assert_eq!(
            records[0],
            [
                "ana",
                "7",
                "12",
                "+5",
                "a: 5/5 → 10/10 (weight changed)",
                "weight changed"
            ]
            .map(String::from)
        );
        assert_eq!(
            records[1][4],
            "a: 5/5 → 10/10 (weight changed, submission changed); \
             b: 0/5 → 5/5 (submission changed)"
        );
        assert_eq!(records[1][5], "weight changed; submission changed");
        assert_eq!(
            records[2][4],
            "a: 5/5 → 10/10 (weight changed); b: 5/5 → 0/5 (case changed)"
        );
        assert_eq!(records[2][3], "0");
        assert_eq!(records[3][5], "not graded this time");
    }

    #[test]
    fn the_difference_is_of_the_printed_figures() {
        // 92.844 and 98.836 print as 92.84 and 98.84: the difference printed is 6, not the
        // 5.992 between the unrounded totals (printed 5.99).
        let change = Change {
            student: "ana".into(),
            old_score: Some(92.844),
            new_score: Some(98.836),
            cases: Vec::new(),
            why: vec![Reason::Other],
        };
        let falling = Change {
            old_score: Some(10.004),
            new_score: Some(7.996),
            ..change.clone()
        };
        let records = records(&[change, falling]);
        assert_eq!(records[0][1..4], ["92.84", "98.84", "+6"].map(String::from));
        // 10.00 → 8.00: −2 (not the −2.008 between the unrounded totals, printed −2.01).
        assert_eq!(records[1][1..4], ["10", "8", "-2"].map(String::from));
    }

    #[test]
    fn a_reweighing_is_a_weight_change() {
        let case_with = |score: f64, weights: &str| CaseSnapshot {
            score,
            max_score: 6.0,
            digest: Some("A".into()),
            weights: Some(weights.into()),
        };
        let snapshot = |score: f64, case: CaseSnapshot, scheme: &str| Snapshot {
            score: Some(score),
            status: "lost points".into(),
            cases: [("a".to_string(), case)].into_iter().collect(),
            submission: Some("s1".into()),
            scheme: Some(scheme.into()),
        };
        // A check's weight changed: the case's points moved, its definition did not.
        let before = Before {
            students: [(
                "bo".to_string(),
                snapshot(4.0, case_with(4.0, "W1"), "r:x=3;"),
            )]
            .into_iter()
            .collect(),
        };
        let after: BTreeMap<String, Snapshot> = [(
            "bo".to_string(),
            snapshot(3.0, case_with(3.0, "W2"), "r:x=3;"),
        )]
        .into_iter()
        .collect();
        let changes = compare(&before, &after);
        assert_eq!(changes[0].why, [Reason::WeightChanged]);
        assert_eq!(changes[0].cases[0].why, [Reason::WeightChanged]);
        // A code requirement's points changed: no case moved, the total did.
        let after: BTreeMap<String, Snapshot> = [(
            "bo".to_string(),
            snapshot(6.0, case_with(4.0, "W1"), "r:x=5;"),
        )]
        .into_iter()
        .collect();
        let changes = compare(&before, &after);
        assert!(changes[0].cases.is_empty());
        assert_eq!(changes[0].why, [Reason::WeightChanged]);
    }
}
