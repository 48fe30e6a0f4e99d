//! `grade similarity` reports: text (ranked pairs), JSON (everything but the sources) and a
//! self-contained HTML page with the shared regions of each pair side by side. Every one is
//! worded as what it is: where to look, not a finding of plagiarism.

use std::fmt::Write as _;

use super::html::escape;
use crate::analyze::similarity::{Pair, Similarity};

/// What every report says first.
pub const CAVEAT: &str = "Pairs are ranked by how much of one program is code the other \
shares, after renaming, layout, comments, literals and the order of functions are set aside. \
A high share is a reason for a person to read both programs side by side; it is not a finding \
of plagiarism: starter code, the handout's own examples, and short or tightly specified \
programs are shared legitimately.";

/// Pairs listed in text and HTML (JSON has them all).
const LISTED: usize = 25;
/// Shared runs listed per pair.
const BLOCKS: usize = 8;

fn percent(share: f64) -> String {
    format!("{:.0}%", share * 100.0)
}

fn names<'s>(similarity: &'s Similarity, pair: &Pair) -> (&'s str, &'s str) {
    (
        similarity.submissions[pair.a].name.as_str(),
        similarity.submissions[pair.b].name.as_str(),
    )
}

/// The text report.
pub fn text(similarity: &Similarity) -> String {
    let mut out = format!(
        "Similarity of {} submissions for {} ({} pairs compared; k = {}, window = {})\n",
        similarity.submissions.len(),
        similarity.assignment,
        similarity.pairs.len(),
        similarity.k,
        similarity.window
    );
    if !similarity.base.is_empty() {
        let _ = writeln!(out, "Code in {} was excluded.", similarity.base.join(", "));
    }
    let _ = writeln!(out, "{CAVEAT}\n");
    for submission in similarity
        .submissions
        .iter()
        .filter(|s| s.language.is_none())
    {
        let _ = writeln!(
            out,
            "Note: {} has no C, C++, Java or Python source; it was not compared.",
            submission.name
        );
    }
    let width = similarity
        .pairs
        .iter()
        .take(LISTED)
        .map(|p| {
            let (a, b) = names(similarity, p);
            a.chars().count() + b.chars().count() + 5
        })
        .max()
        .unwrap_or(0);
    for (rank, pair) in similarity.pairs.iter().take(LISTED).enumerate() {
        let (a, b) = names(similarity, pair);
        let label = format!("{a} <-> {b}");
        let _ = writeln!(
            out,
            "{:>3}. {label:width$}  {} of {a}, {} of {b} shared",
            rank + 1,
            percent(pair.share_a),
            percent(pair.share_b)
        );
        for block in pair.blocks.iter().take(3) {
            let _ = writeln!(
                out,
                "       {}:{}-{}  ~  {}:{}-{}  ({} tokens)",
                block.a_file,
                block.a_lines.0,
                block.a_lines.1,
                block.b_file,
                block.b_lines.0,
                block.b_lines.1,
                block.tokens
            );
        }
    }
    if similarity.pairs.len() > LISTED {
        let _ = writeln!(
            out,
            "… {} more pairs (see --format json)",
            similarity.pairs.len() - LISTED
        );
    }
    out
}

/// The JSON report.
pub fn json(similarity: &Similarity) -> anyhow::Result<String> {
    #[derive(serde::Serialize)]
    struct Report<'s> {
        note: &'static str,
        #[serde(flatten)]
        similarity: &'s Similarity,
    }
    let mut text = serde_json::to_string_pretty(&Report {
        note: CAVEAT,
        similarity,
    })?;
    text.push('\n');
    Ok(text)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}\
.side{display:flex;gap:1em}.side>div{flex:1;min-width:0}\
pre{background:#f6f6f6;padding:.4em;overflow-x:auto;font-size:.85em;margin:0}\
.m0{background:#ffe08a}.m1{background:#b7e4c7}.m2{background:#a9d6f5}.m3{background:#f5c2e7}\
.m4{background:#d9c2f5}.m5{background:#ffc9a9}.m6{background:#c2f5ec}.m7{background:#e4e4a9}\
.note{max-width:60em}";

/// The lines of one file with the lines of each block marked (`m0`…`m7`, one colour per block).
fn marked_source(text: &str, ranges: &[(u32, u32, usize)]) -> String {
    let mut out = String::new();
    for (index, line) in text.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let block = ranges
            .iter()
            .find(|(first, last, _)| (*first..=*last).contains(&number));
        let escaped = escape(&crate::escape::field(line));
        match block {
            Some((_, _, colour)) => {
                let _ = writeln!(
                    out,
                    "<span class=\"m{}\">{number:>4}  {escaped}</span>",
                    colour % 8
                );
            }
            None => {
                let _ = writeln!(out, "{number:>4}  {escaped}");
            }
        }
    }
    out
}

/// The HTML report: the ranked pairs, then each listed pair's files side by side with the
/// shared runs in matching colours.
pub fn html(similarity: &Similarity) -> String {
    let mut body = format!(
        "<h1>Similarity: {} ({} submissions)</h1>\n<p class=\"note\">{}</p>\n",
        escape(&similarity.assignment),
        similarity.submissions.len(),
        escape(CAVEAT)
    );
    if !similarity.base.is_empty() {
        let _ = writeln!(
            body,
            "<p>Code in {} was excluded.</p>",
            escape(&similarity.base.join(", "))
        );
    }
    body.push_str("<table id=\"pairs\">\n<tr><th>#</th><th>pair</th><th>shared of the first</th><th>shared of the second</th></tr>\n");
    for (rank, pair) in similarity.pairs.iter().take(LISTED).enumerate() {
        let (a, b) = names(similarity, pair);
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td><a href=\"#pair-{}\">{} ↔ {}</a></td><td>{}</td><td>{}</td></tr>",
            rank + 1,
            rank + 1,
            escape(a),
            escape(b),
            percent(pair.share_a),
            percent(pair.share_b)
        );
    }
    body.push_str("</table>\n");
    for (rank, pair) in similarity.pairs.iter().take(LISTED).enumerate() {
        if pair.blocks.is_empty() {
            continue;
        }
        let (a, b) = names(similarity, pair);
        let _ = writeln!(
            body,
            "<h2 id=\"pair-{}\">{}. {} ↔ {}: {} and {} shared</h2>",
            rank + 1,
            rank + 1,
            escape(a),
            escape(b),
            percent(pair.share_a),
            percent(pair.share_b)
        );
        let blocks: Vec<_> = pair.blocks.iter().take(BLOCKS).collect();
        body.push_str("<div class=\"side\">\n");
        for (side, index) in [(0, pair.a), (1, pair.b)] {
            body.push_str("<div>\n");
            for (file, text) in &similarity.sources[index] {
                let ranges: Vec<(u32, u32, usize)> = blocks
                    .iter()
                    .enumerate()
                    .filter(|(_, block)| {
                        if side == 0 {
                            &block.a_file == file
                        } else {
                            &block.b_file == file
                        }
                    })
                    .map(|(colour, block)| {
                        let lines = if side == 0 {
                            block.a_lines
                        } else {
                            block.b_lines
                        };
                        (lines.0, lines.1, colour)
                    })
                    .collect();
                if ranges.is_empty() {
                    continue;
                }
                let name = &similarity.submissions[index].name;
                let title = if name == file {
                    file.clone()
                } else {
                    format!("{name}/{file}")
                };
                let _ = writeln!(
                    body,
                    "<h3>{}</h3>\n<pre>{}</pre>",
                    escape(&title),
                    marked_source(text, &ranges)
                );
            }
            body.push_str("</div>\n");
        }
        body.push_str("</div>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{}<title>Similarity: {}</title>\
         <style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        super::html::CONTENT_SECURITY_POLICY,
        escape(&similarity.assignment)
    )
}
