//! `grade gradebook export --to canvas|moodle|blackboard`: a class's gradebook.csv in the
//! import layout each learning management system documents, one column for the assignment's
//! total, with the student identifier the instructor maps and the points possible.
//!
//! Sources (docs/lms.md quotes them):
//! - Canvas: a gradebook export's layout, which its import reads back — `Student`, `ID`,
//!   `SIS User ID`, `SIS Login ID`, `Section`, then one column per assignment, and a second row
//!   `Points Possible` (Ohio State's "Import a CSV file into Carmen Grades": one of name, ID
//!   or SIS User ID, then SIS Login ID, Section, the assignment).
//! - Moodle: "Grade import" (docs.moodle.org): a CSV whose columns are mapped on import, "Map
//!   from" a user column "to" `useridnumber`, `useremail` or `username`; the grade item's
//!   maximum is the item's own (Moodle has no points row).
//! - Blackboard Learn Grade Center, "Uploading or Downloading Grade Center Items for Working
//!   Offline" (library.blackboard.com): the student is identified by `Username`; a column
//!   with a Column ID (`NAME [Total Pts: N Score] |ID`, as downloads name it) updates that
//!   column, one without creates a new one; comma-delimited data is quoted.
//!
//! A student without a score (not gradable, interrupted) is a blank cell in every format: the
//! systems leave a blank as no grade, never as 0.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Context as _};

use crate::results::GradebookRow;

/// The systems `--to` accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lms {
    /// Instructure Canvas: Grades → Import.
    Canvas,
    /// Moodle: Grades → Import → CSV file.
    Moodle,
    /// Blackboard Learn (Original) Grade Center: Work Offline → Upload.
    Blackboard,
}

impl Lms {
    /// Every system, in the order `--help` lists them.
    pub const ALL: [Lms; 3] = [Lms::Canvas, Lms::Moodle, Lms::Blackboard];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Lms::Canvas => "canvas",
            Lms::Moodle => "moodle",
            Lms::Blackboard => "blackboard",
        }
    }

    /// Where the file is imported, for `--help`.
    pub fn description(self) -> &'static str {
        match self {
            Lms::Canvas => {
                "Canvas: Grades → Import (Student, ID, SIS User ID, …, Points Possible row)"
            }
            Lms::Moodle => {
                "Moodle: Grades → Import → CSV file (map the ID number column to useridnumber)"
            }
            Lms::Blackboard => {
                "Blackboard Grade Center: Work Offline → Upload (Username, quoted CSV)"
            }
        }
    }
}

/// What an export needs beyond the gradebook.
#[derive(Clone, Debug, Default)]
pub struct ExportOptions {
    /// The assignment's column title in the system ("Nim" — for Canvas and Moodle the name of
    /// the assignment or grade item it fills).
    pub column: String,
    /// Each student's identifier in the system (the `student` of gradebook.csv → the id), or
    /// empty to use the gradebook's student names as they are.
    pub ids: BTreeMap<String, String>,
    /// Blackboard only: the Column ID of an existing Grade Center column to fill.
    pub column_id: Option<String>,
}

/// Reads a mapping file: CSV with a header naming a `student` column (gradebook.csv's names)
/// and an `id` column (the system's identifier: SIS user ID, ID number, username).
pub fn read_ids(path: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let mut reader =
        csv::Reader::from_path(path).with_context(|| format!("cannot read {}", path.display()))?;
    let header: Vec<String> = reader
        .headers()
        .with_context(|| format!("{}: no header", path.display()))?
        .iter()
        .map(|h| h.trim().to_lowercase())
        .collect();
    let column = |name: &str| {
        header.iter().position(|h| h == name).with_context(|| {
            format!(
                "{}: no `{name}` column (the header must name `student` and `id`)",
                path.display()
            )
        })
    };
    let (student, id) = (column("student")?, column("id")?);
    let mut ids = BTreeMap::new();
    for (line, record) in reader.records().enumerate() {
        let record = record.with_context(|| format!("{}: row {}", path.display(), line + 2))?;
        let (Some(name), Some(value)) = (record.get(student), record.get(id)) else {
            bail!("{}: row {} has too few cells", path.display(), line + 2);
        };
        if ids
            .insert(name.trim().to_string(), value.trim().to_string())
            .is_some()
        {
            bail!("{}: student {} appears twice", path.display(), name.trim());
        }
    }
    Ok(ids)
}

/// The points possible of a gradebook: its rows' `max_score` (all the same for one assignment).
pub fn points_possible(rows: &[GradebookRow]) -> anyhow::Result<f64> {
    let mut maxima: Vec<f64> = rows.iter().filter_map(|r| r.max_score).collect();
    maxima.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
    match maxima.as_slice() {
        [] => bail!("the gradebook has no points possible (no student was graded)"),
        [one] => Ok(*one),
        _ => bail!(
            "the gradebook's rows are out of different totals ({}); export each assignment's \
             gradebook on its own",
            maxima
                .iter()
                .map(|m| super::points(*m))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A text cell that a spreadsheet must not read as a formula (see `class::text_cell`).
fn text(value: &str) -> String {
    if value.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{value}")
    } else {
        value.to_string()
    }
}

/// The rows of the export for `lms` (before CSV quoting): header first.
pub fn records(
    lms: Lms,
    rows: &[GradebookRow],
    options: &ExportOptions,
) -> anyhow::Result<Vec<Vec<String>>> {
    let possible = points_possible(rows)?;
    let unmapped: Vec<&str> = rows
        .iter()
        .filter(|r| !options.ids.is_empty() && !options.ids.contains_key(&r.student))
        .map(|r| r.student.as_str())
        .collect();
    if !unmapped.is_empty() {
        bail!(
            "{} student(s) have no identifier in the mapping file: {}",
            unmapped.len(),
            unmapped.join(", ")
        );
    }
    let id = |row: &GradebookRow| {
        text(
            options
                .ids
                .get(&row.student)
                .map_or(row.student.as_str(), String::as_str),
        )
    };
    let score = |row: &GradebookRow| row.score.map_or(String::new(), super::points);
    let column = text(&options.column);
    let mut records = Vec::with_capacity(rows.len() + 2);
    match lms {
        Lms::Canvas => {
            records.push(
                ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
                    .iter()
                    .map(|c| c.to_string())
                    .chain([column])
                    .collect(),
            );
            // Canvas's own export carries the points possible in this row, indented.
            let mut points_row = vec![String::new(); 6];
            points_row[0] = "    Points Possible".to_string();
            points_row[5] = super::points(possible);
            records.push(points_row);
            for row in rows {
                records.push(vec![
                    text(&row.student),
                    String::new(),
                    id(row),
                    String::new(),
                    String::new(),
                    score(row),
                ]);
            }
        }
        Lms::Moodle => {
            records.push(vec!["ID number".to_string(), column]);
            for row in rows {
                records.push(vec![id(row), score(row)]);
            }
        }
        Lms::Blackboard => {
            let mut title = format!("{column} [Total Pts: {} Score]", super::points(possible));
            if let Some(column_id) = &options.column_id {
                title.push_str(&format!(" |{column_id}"));
            }
            records.push(vec!["Username".to_string(), title]);
            for row in rows {
                records.push(vec![id(row), score(row)]);
            }
        }
    }
    Ok(records)
}

/// Writes the export for `lms` to `output`; returns how many students it holds.
pub fn export(
    lms: Lms,
    rows: &[GradebookRow],
    options: &ExportOptions,
    output: &Path,
) -> anyhow::Result<usize> {
    let records = records(lms, rows, options)?;
    let quote = match lms {
        // Blackboard: "Data in each column of comma-delimited files must be contained within
        // a quote character".
        Lms::Blackboard => csv::QuoteStyle::Always,
        Lms::Canvas | Lms::Moodle => csv::QuoteStyle::Necessary,
    };
    let mut writer = csv::WriterBuilder::new()
        .quote_style(quote)
        .from_path(output)
        .with_context(|| format!("cannot write {}", output.display()))?;
    for record in &records {
        writer.write_record(record)?;
    }
    writer
        .flush()
        .with_context(|| format!("cannot write {}", output.display()))?;
    Ok(rows.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(student: &str, score: Option<f64>) -> GradebookRow {
        GradebookRow {
            student: student.into(),
            submission: format!("{student}/nim.cpp"),
            score,
            max_score: Some(96.0),
            status: if score.is_some() {
                "lost points".into()
            } else {
                "not gradable: toolchain missing on the grading machine: …".into()
            },
            ..GradebookRow::default()
        }
    }

    #[test]
    fn the_totals_of_different_assignments_do_not_mix() {
        let mut rows = vec![row("ana", Some(90.0)), row("bo", None)];
        assert_eq!(points_possible(&rows).ok(), Some(96.0));
        rows[1].max_score = Some(100.0);
        assert!(points_possible(&rows).is_err());
    }

    #[test]
    fn every_student_needs_an_identifier_once_a_mapping_is_given() {
        let rows = vec![row("ana", Some(90.0)), row("bo", Some(12.5))];
        let options = ExportOptions {
            column: "Nim".into(),
            ids: [("ana".to_string(), "A1".to_string())]
                .into_iter()
                .collect(),
            column_id: None,
        };
        let error = records(Lms::Moodle, &rows, &options).expect_err("bo is unmapped");
        assert!(error.to_string().contains("bo"), "{error}");
    }
}
