//! Reports: one file per output format behind one trait, the way hyperfine's `export/` does it.
//!
//! Every format reads the same [`GradeResult`]. Skeleton: filled in by the reports work.

use crate::results::GradeResult;

/// The report formats `--format` accepts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable, with feedback; colour on a terminal.
    #[default]
    Text,
    /// The stable JSON report (docs/report-format.md).
    Json,
    /// JUnit XML, one testcase per case.
    Junit,
    /// Gradescope's results.json.
    Gradescope,
}

/// Settings that affect how a report is rendered but not what it says.
#[derive(Clone, Copy, Debug, Default)]
pub struct RenderOptions {
    /// Use ANSI colours (text format only).
    pub color: bool,
}

/// A report format: turns a grading result into the bytes of one file.
pub trait Exporter {
    /// Renders the whole report.
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>>;
}

/// The exporter for a format.
pub fn exporter(format: Format, options: RenderOptions) -> Box<dyn Exporter> {
    let _ = (format, options);
    Box::new(PlainSummary)
}

/// Placeholder until the formats land: one line per case.
struct PlainSummary;

impl Exporter for PlainSummary {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        let mut out = String::new();
        for case in &result.cases {
            out.push_str(&format!(
                "{} {}/{}\n",
                case.name, case.score, case.max_score
            ));
        }
        out.push_str(&format!("total {}/{}\n", result.score, result.max_score));
        Ok(out.into_bytes())
    }
}
