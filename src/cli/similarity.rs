//! `grade similarity`: compare submissions for shared code and print the ranked pairs.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::games::Assignment;

/// The report formats of `grade similarity`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SimilarityFormat {
    /// Ranked pairs with the longest shared runs.
    #[default]
    Text,
    /// Every pair and shared run.
    Json,
    /// A page with each pair's shared code side by side.
    Html,
}

/// Options of `grade similarity`.
#[derive(Args, Debug)]
pub struct SimilarityArgs {
    /// The submissions (files or directories), at least two.
    #[arg(required = true, num_args = 2.., value_name = "SUBMISSION")]
    pub submissions: Vec<PathBuf>,
    /// The assignment.
    #[arg(short, long)]
    pub assignment: Assignment,
    /// Starter code (a file or a directory) or the handout's text: code found in it is not
    /// counted (repeatable).
    #[arg(long, value_name = "FILE")]
    pub base: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = SimilarityFormat::Text)]
    pub format: SimilarityFormat,
    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Runs `grade similarity`; exit status 0 (the report is evidence, not a verdict).
pub fn similarity_command(args: &SimilarityArgs) -> anyhow::Result<u8> {
    let similarity =
        crate::analyze::similarity::compare(args.assignment.name(), &args.submissions, &args.base)?;
    let report = match args.format {
        SimilarityFormat::Text => crate::report::similarity::text(&similarity),
        SimilarityFormat::Json => crate::report::similarity::json(&similarity)?,
        SimilarityFormat::Html => crate::report::similarity::html(&similarity),
    };
    match &args.output {
        Some(path) => std::fs::write(path, report)
            .map_err(|e| anyhow::anyhow!("cannot write the report to {}: {e}", path.display()))?,
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(report.as_bytes())
                .and_then(|()| stdout.flush());
        }
    }
    Ok(0)
}
