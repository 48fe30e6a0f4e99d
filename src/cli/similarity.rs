//! `grade similarity`: compare submissions for shared code and print the ranked pairs.

use std::path::Path;

use super::args::{SimilarityArgs, SimilarityFormat};
use crate::assignments::Registry;

/// Reads each submission for comparison: a file or folder as it is, an archive (`.zip`,
/// `.tar.gz`) unpacked safely into a directory kept in `unpacked`, named without its suffix.
fn load(
    path: &Path,
    unpacked: &mut Vec<tempfile::TempDir>,
) -> anyhow::Result<crate::analyze::similarity::Fingerprinted> {
    use crate::analyze::similarity::Fingerprinted;
    use crate::submission::archive;
    if std::fs::symlink_metadata(path).is_err() {
        anyhow::bail!("cannot read submission {}", path.display());
    }
    let Some(format) = archive::format_of(path).filter(|_| path.is_file()) else {
        return Ok(Fingerprinted::load(path));
    };
    let dir = tempfile::Builder::new()
        .prefix("grade-similarity-")
        .tempdir()?;
    archive::unpack(path, format, dir.path(), crate::submission::ARCHIVE_CAPS)
        .map_err(|e| anyhow::anyhow!("cannot unpack {}: {e}", path.display()))?;
    let file_name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let lower = file_name.to_lowercase();
    let stem_len = [".tar.gz", ".tgz", ".zip"]
        .iter()
        .find(|suffix| lower.ends_with(*suffix))
        .map_or(file_name.len(), |suffix| file_name.len() - suffix.len());
    let name = file_name.get(..stem_len).unwrap_or(&file_name).to_string();
    let loaded = Fingerprinted::load_as(&name, path, &archive::top_folder(dir.path()));
    unpacked.push(dir);
    Ok(loaded)
}

/// Runs `grade similarity`; exit status 0 (the report is evidence, not a verdict).
pub fn similarity_command(args: &SimilarityArgs) -> anyhow::Result<u8> {
    let assignment = Registry::built_in().find(&args.assignment.0)?;
    let mut unpacked = Vec::new();
    let loaded = args
        .submissions
        .iter()
        .map(|p| load(p, &mut unpacked))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let similarity =
        crate::analyze::similarity::compare_loaded(assignment.name(), loaded, &args.base)?;
    let (report, format) = match args.format {
        SimilarityFormat::Text => (
            crate::report::similarity::text(&similarity),
            crate::report::Format::Text,
        ),
        SimilarityFormat::Json => (
            crate::report::similarity::json(&similarity)?,
            crate::report::Format::Json,
        ),
        SimilarityFormat::Html => (
            crate::report::similarity::html(&similarity),
            crate::report::Format::Html,
        ),
    };
    // Names and code are the students': under GitHub Actions nothing may read as a command.
    let report = if crate::report::github::active() {
        let safe = crate::report::github::structured(report.into_bytes(), format);
        let safe = String::from_utf8_lossy(&safe).into_owned();
        if format == crate::report::Format::Text && args.output.is_none() {
            crate::report::github::fence(&safe)
        } else {
            safe
        }
    } else {
        report
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
