//! HTML: a student's report (the text report's content: score, cases, and for each case that
//! lost points its feedback with whitespace made visible), and the class page written beside
//! a class's reports (score histogram, pass rate and most common first difference per case,
//! build failures, slowest programs). Self-contained pages: no script, no external resource.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::text::{case_feedback, Style};
use super::{for_students, points_of, Exporter};
use crate::results::{CaseStatus, GradeResult};

/// Renders a student's HTML report.
pub struct HtmlExporter;

/// Text escaped for HTML element content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A name made one relative URL path segment: every byte but the unreserved ones
/// (`A-Z a-z 0-9 - . _ ~`) percent-encoded, so no `:` can start a scheme (a student folder
/// named `javascript:alert(1)` links to `javascript%3Aalert%281%29.html`, a file beside the
/// page) and no `/`, `?` or `#` can change where it points.
pub fn url_segment(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for byte in name.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

/// A relative path beside the page (`students/NAME.html`) as a link: each component
/// [`url_segment`]-encoded, joined by `/`.
pub fn url_path(path: &str) -> String {
    path.split('/')
        .map(url_segment)
        .collect::<Vec<_>>()
        .join("/")
}

/// The policy every page carries: no script, no request anywhere; inline style and inline
/// images only (the pages need nothing else), so even markup that slipped past the escaping
/// could run nothing.
pub const CONTENT_SECURITY_POLICY: &str =
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">";

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:2em;max-width:60em}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left}\
.pass{color:#186a1d}.fail{color:#a31515}.na{color:#777}pre{background:#f6f6f6;padding:.6em;overflow-x:auto}\
.bar{background:#4a78b0;height:1em;display:inline-block}";

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         {CONTENT_SECURITY_POLICY}<title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        escape(title)
    )
}

impl Exporter for HtmlExporter {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        let result = for_students(result);
        let mut body = format!(
            "<h1>{}: {}</h1>\n<p id=\"score\">Score: <b>{}</b></p>\n",
            escape(&result.assignment),
            escape(&result.submission),
            points_of(result.score, result.max_score)
        );
        if let Some(variant) = &result.variant {
            let _ = writeln!(
                body,
                "<p id=\"variant\">Variant: {}</p>",
                escape(&variant.describe())
            );
            for note in &variant.notes {
                let _ = writeln!(body, "<p>{}</p>", escape(note));
            }
        }
        if let Some(warning) = super::sandbox_warning(&result) {
            let _ = writeln!(body, "<p class=\"fail\">{}</p>", escape(&warning));
        }
        for note in &result.notes {
            let _ = writeln!(body, "<p>Note: {}</p>", escape(note));
        }
        if let Some(failure) = &result.build_failure {
            let _ = writeln!(
                body,
                "<h2 class=\"fail\">Build failed</h2>\n<pre>$ {}\n{}</pre>\n<p>Every case scores 0.</p>",
                escape(&failure.command),
                escape(&failure.messages)
            );
        }
        body.push_str(
            "<table id=\"cases\">\n<tr><th>case</th><th>points</th><th></th><th>wall</th>\
             <th>CPU</th><th>peak memory</th><th>ended</th></tr>\n",
        );
        for case in &result.cases {
            let full = case.status == CaseStatus::Passed && case.score + 1e-9 >= case.max_score;
            let _ = writeln!(
                body,
                "<tr><td><a href=\"#case-{4}\">{0}</a></td><td>{1}</td><td class=\"{2}\">{3}</td>{5}</tr>",
                escape(&case.name),
                points_of(case.score, case.max_score),
                if full { "pass" } else { "fail" },
                if full { "✓" } else { "✗" },
                url_segment(&case.name),
                resource_cells(&case.run, case.visibility == crate::results::Visibility::Hidden)
            );
        }
        body.push_str("</table>\n");
        body.push_str(&requirements_html(&result));
        // Details for a case that lost points, and for one with full marks whose instrumented
        // run found undefined behaviour (a `sanitizer` check of weight 0), as the text says.
        for case in result.cases.iter().filter(|c| {
            c.score + 1e-9 < c.max_score
                || (c.visibility == crate::results::Visibility::Visible
                    && super::undefined_behaviour(c).is_some())
        }) {
            let _ = writeln!(
                body,
                "<h2 id=\"case-{0}\">{0}</h2>\n<p>{1}</p>\n<pre>{2}</pre>",
                escape(&case.name),
                escape(&case.description),
                escape(&case_feedback(case, Style::default()))
            );
        }
        Ok(page(
            &format!("{}: {}", result.assignment, result.submission),
            &body,
        )
        .into_bytes())
    }
}

/// A case's wall time, CPU time, peak memory and ending as table cells (empty for a run that
/// never happened or a hidden case; peak memory says when it was not measured).
fn resource_cells(run: &crate::results::RunSummary, hidden: bool) -> String {
    use super::resources;
    if !resources::ran(run) || hidden {
        return "<td></td><td></td><td></td><td></td>".to_string();
    }
    format!(
        "<td>{:.2} s</td><td>{:.2} s</td><td>{}</td><td>{}</td>",
        run.wall_ms as f64 / 1000.0,
        run.cpu_ms as f64 / 1000.0,
        escape(&resources::memory(run)),
        escape(&resources::ending(run))
    )
}

/// The code requirements (a table with each one's handout line, points and findings), the
/// compiler's warnings and the rubric; empty when the result has none.
fn requirements_html(result: &GradeResult) -> String {
    use super::requirements::{requirement_points, HEADING};
    use crate::results::RequirementStatus;
    let mut body = String::new();
    if !result.requirements.is_empty() {
        let _ = writeln!(
            body,
            "<h2 id=\"requirements\">{}</h2>\n<table id=\"requirements-table\">\n\
             <tr><th>requirement</th><th>handout</th><th>points</th><th></th><th>found</th></tr>",
            escape(HEADING)
        );
        for requirement in &result.requirements {
            let (class, mark) = match requirement.status {
                RequirementStatus::Passed => ("pass", "✓"),
                RequirementStatus::Failed => ("fail", "✗"),
                RequirementStatus::NotApplicable => ("na", "–"),
            };
            let mut found = escape(&requirement.detail);
            if requirement.status == RequirementStatus::Failed {
                for finding in &requirement.findings {
                    let _ = write!(found, "<br><code>{}</code>", escape(&finding.describe()));
                }
            }
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td><q>{}</q></td><td>{}</td><td class=\"{class}\">{mark}</td><td>{found}</td></tr>",
                escape(&requirement.name),
                escape(&requirement.quote),
                requirement_points(requirement),
            );
        }
        body.push_str("</table>\n");
    }
    if !result.warnings.is_empty() {
        let _ = writeln!(
            body,
            "<h2 id=\"warnings\">Compiler warnings</h2>\n<p>The build succeeded; warnings never fail it.</p>\n<pre>{}</pre>",
            escape(&result.warnings)
        );
    }
    if !result.rubric.is_empty() {
        body.push_str("<h2 id=\"rubric\">Rubric</h2>\n<table id=\"rubric-table\">\n");
        for line in &result.rubric {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&line.name),
                points_of(line.score, line.max_score),
                line.part.name()
            );
        }
        body.push_str("</table>\n");
    }
    body
}

/// One student's result as the class page reads it (the JSON report's fields).
#[derive(Clone, Debug, Default)]
pub struct StudentSummary {
    /// The student.
    pub student: String,
    /// The report file beside the class page, if any.
    pub report: Option<String>,
    /// The JSON report (docs/report-format.md), or `None` when not graded.
    pub result: Option<serde_json::Value>,
    /// The instructor's report beside it (hidden cases in full), if any.
    pub instructor_report: Option<String>,
    /// The gradebook's status (e.g. `not gradable: …`), when known.
    pub status: Option<String>,
}

/// The class page: how the class did, where it lost points, and what to look at.
pub fn class_page(assignment: &str, students: &[StudentSummary]) -> String {
    class_page_with(assignment, students, "")
}

/// The class page with `sections` (HTML, already escaped) after the build failures: the
/// changes since an earlier run.
pub fn class_page_with(assignment: &str, students: &[StudentSummary], sections: &str) -> String {
    let graded: Vec<(&StudentSummary, &serde_json::Value)> = students
        .iter()
        .filter_map(|s| s.result.as_ref().map(|r| (s, r)))
        .collect();
    let mut body = format!(
        "<h1>{}: {} students</h1>\n",
        escape(assignment),
        students.len()
    );
    // Histogram of score shares in tenths.
    let mut buckets = [0usize; 11];
    for (_, result) in &graded {
        let (score, max) = (
            result["score"].as_f64().unwrap_or(0.0),
            result["max_score"].as_f64().unwrap_or(0.0),
        );
        let share = if max > 0.0 { score / max } else { 0.0 };
        buckets[((share * 10.0).floor() as usize).min(10)] += 1;
    }
    body.push_str("<h2>Scores</h2>\n<table id=\"histogram\">\n");
    for (tenth, count) in buckets.iter().enumerate() {
        let label = if tenth == 10 {
            "100%".to_string()
        } else {
            format!("{}–{}%", tenth * 10, tenth * 10 + 9)
        };
        let _ = writeln!(
            body,
            "<tr><td>{label}</td><td>{count}</td><td><span class=\"bar\" style=\"width:{}em\"></span></td></tr>",
            count
        );
    }
    body.push_str("</table>\n");
    // Per case: pass rate and most common first difference.
    let mut per_case: BTreeMap<String, (usize, usize, BTreeMap<String, usize>)> = BTreeMap::new();
    for (_, result) in &graded {
        for case in result["cases"].as_array().into_iter().flatten() {
            let name = case["name"].as_str().unwrap_or("?").to_string();
            let entry = per_case.entry(name).or_default();
            entry.1 += 1;
            let full = case["score"].as_f64() >= case["max_score"].as_f64();
            if full {
                entry.0 += 1;
            } else if let Some(first) = case["checks"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|c| c["passed"] == false && c["max_score"].as_f64() > Some(0.0))
            {
                let what = format!(
                    "{}: {}",
                    first["name"].as_str().unwrap_or("?"),
                    first["detail"].as_str().unwrap_or("")
                );
                *entry.2.entry(what).or_default() += 1;
            }
        }
    }
    body.push_str(
        "<h2>Cases</h2>\n<table id=\"per-case\">\n<tr><th>case</th><th>full marks</th>\
         <th>most common first difference</th></tr>\n",
    );
    for (name, (passed, total, differences)) in &per_case {
        let common = differences
            .iter()
            .max_by_key(|(_, n)| **n)
            .map_or(String::new(), |(what, n)| {
                format!("{} ({n}×)", escape(what))
            });
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{passed}/{total}</td><td>{common}</td></tr>",
            escape(name)
        );
    }
    body.push_str("</table>\n");
    let failed_builds: Vec<&str> = graded
        .iter()
        .filter(|(_, r)| r["build_failure"].is_object())
        .map(|(s, _)| s.student.as_str())
        .collect();
    let _ = writeln!(
        body,
        "<h2>Build failures</h2>\n<p id=\"build-failures\">{}</p>",
        if failed_builds.is_empty() {
            "none".to_string()
        } else {
            escape(&failed_builds.join(", "))
        }
    );
    body.push_str(&sanitizer_section(&graded));
    let not_gradable: Vec<String> = students
        .iter()
        .filter_map(|s| {
            let status = s.status.as_deref()?;
            status
                .starts_with("not gradable")
                .then(|| format!("{}: {status}", s.student))
        })
        .collect();
    if !not_gradable.is_empty() {
        body.push_str(
            "<h2>Not gradable (no score: the grading machine's or grader's fault, not the \
             student's)</h2>\n<ul id=\"not-gradable\">\n",
        );
        for line in &not_gradable {
            let _ = writeln!(body, "<li>{}</li>", escape(line));
        }
        body.push_str("</ul>\n");
    }
    body.push_str(sections);
    let mut slowest: Vec<(&StudentSummary, u64)> = graded
        .iter()
        .map(|(s, r)| (*s, r["wall_ms"].as_u64().unwrap_or(0)))
        .collect();
    slowest.sort_by_key(|s| std::cmp::Reverse(s.1));
    body.push_str("<h2>Slowest</h2>\n<table id=\"slowest\">\n");
    for (student, ms) in slowest.iter().take(5) {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{:.1} s</td></tr>",
            escape(&student.student),
            *ms as f64 / 1000.0
        );
    }
    body.push_str("</table>\n<h2>Students</h2>\n<table id=\"students\">\n");
    for student in students {
        let points = student.result.as_ref().map_or("—".to_string(), |r| {
            points_of(
                r["score"].as_f64().unwrap_or(0.0),
                r["max_score"].as_f64().unwrap_or(0.0),
            )
        });
        let name = match &student.report {
            Some(link) => format!(
                "<a href=\"{}\">{}</a>",
                url_path(link),
                escape(&student.student)
            ),
            None => escape(&student.student),
        };
        let instructor = student
            .instructor_report
            .as_ref()
            .map_or(String::new(), |link| {
                format!(
                    "<td><a class=\"instructor\" href=\"{}\">instructor view</a></td>",
                    url_path(link)
                )
            });
        let _ = writeln!(
            body,
            "<tr><td>{name}</td><td>{points}</td>{instructor}</tr>"
        );
    }
    body.push_str("</table>\n");
    page(&format!("{assignment}: class"), &body)
}

/// How many of the students whose C/C++ program ran under the sanitizer pass have a finding
/// (docs/sanitizers.md), and who: empty when no student's program was instrumented.
fn sanitizer_section(graded: &[(&StudentSummary, &serde_json::Value)]) -> String {
    let mut checked = 0;
    let mut found: Vec<&str> = Vec::new();
    for (student, result) in graded {
        let sanitizer_checks: Vec<&serde_json::Value> = result["cases"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|case| case["checks"].as_array().into_iter().flatten())
            .filter(|check| check["kind"] == "sanitizer")
            .filter(|check| check["detail"] != "nothing to compare")
            .collect();
        if sanitizer_checks.is_empty() {
            continue;
        }
        checked += 1;
        if sanitizer_checks
            .iter()
            .any(|check| check["passed"] == false)
        {
            found.push(student.student.as_str());
        }
    }
    if checked == 0 {
        return String::new();
    }
    format!(
        "<h2>Memory errors and undefined behaviour</h2>\n<p id=\"sanitizer\">{} of {checked} \
         C/C++ programs had a finding of AddressSanitizer or UBSan{}</p>\n",
        found.len(),
        if found.is_empty() {
            String::new()
        } else {
            format!(": {}", escape(&found.join(", ")))
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{assert_no_secrets, sample};

    #[test]
    fn a_full_marks_case_with_a_sanitizer_finding_is_shown_in_detail() {
        let mut result = sample();
        let case = result
            .cases
            .iter_mut()
            .find(|c| c.visibility == crate::results::Visibility::Visible && c.score >= c.max_score)
            .expect("a visible case with full marks");
        case.checks.push(crate::report::tests::sanitizer_finding(
            "1 problem found: out-of-bounds index (line 52 of c6.cpp)",
        ));
        let html = String::from_utf8(HtmlExporter.export(&result).expect("html")).expect("utf8");
        assert!(
            html.contains(
                "Sanitizer check (no points taken): 1 problem found: out-of-bounds index \
                 (line 52 of c6.cpp)"
            ),
            "{html}"
        );
    }

    #[test]
    fn the_class_page_counts_the_programs_with_sanitizer_findings() {
        let case = |passed: bool, detail: &str| {
            serde_json::json!({"cases": [{"name": "a", "checks": [
                {"kind": "sanitizer", "passed": passed, "detail": detail}
            ]}]})
        };
        let students: Vec<StudentSummary> = [
            ("ann", case(false, "1 problem found")),
            ("bo", case(true, "no memory error")),
            ("cy", case(true, "nothing to compare")),
        ]
        .into_iter()
        .map(|(name, result)| StudentSummary {
            student: name.into(),
            result: Some(result),
            ..StudentSummary::default()
        })
        .collect();
        let graded: Vec<(&StudentSummary, &serde_json::Value)> = students
            .iter()
            .map(|s| (s, s.result.as_ref().expect("a result")))
            .collect();
        // cy's program was not instrumented (another language): two were checked, ann's found.
        assert_eq!(
            sanitizer_section(&graded),
            "<h2>Memory errors and undefined behaviour</h2>\n<p id=\"sanitizer\">1 of 2 C/C++ \
             programs had a finding of AddressSanitizer or UBSan: ann</p>\n"
        );
        assert_eq!(sanitizer_section(&graded[2..]), "");
    }

    #[test]
    fn a_students_page_escapes_and_keeps_hidden_cases_hidden() {
        let mut result = sample();
        result.submission = "<script>alert(1)</script>".into();
        let html = String::from_utf8(HtmlExporter.export(&result).expect("html")).expect("utf8");
        assert!(html.contains("&lt;script&gt;"), "{html}");
        assert!(!html.contains("<script>"));
        assert_no_secrets(&html);
        assert!(html.contains("Score: <b>7.5/17.5</b>"), "{html}");
    }

    #[test]
    fn the_class_page_counts_scores_and_differences() {
        let sample_json = serde_json::to_value(sample()).expect("json");
        let students = vec![
            StudentSummary {
                student: "ana".into(),
                report: Some("ana.html".into()),
                result: Some(sample_json.clone()),
                ..Default::default()
            },
            StudentSummary {
                student: "bo".into(),
                report: None,
                result: Some(sample_json),
                ..Default::default()
            },
            StudentSummary {
                student: "cy".into(),
                report: None,
                result: None,
                ..Default::default()
            },
        ];
        let html = class_page("nim", &students);
        // 7.5/17.5 = 42.9 %: both graded students in the 40–49 % bucket.
        assert!(html.contains("<tr><td>40–49%</td><td>2</td>"), "{html}");
        assert!(html.contains("<a href=\"ana.html\">ana</a>"), "{html}");
        assert!(html.contains("<tr><td>cy</td><td>—</td></tr>"), "{html}");
        assert!(html.contains(CONTENT_SECURITY_POLICY), "{html}");
    }

    #[test]
    fn links_from_names_are_relative_and_encoded() {
        assert_eq!(
            url_segment("javascript:alert(document.domain).html"),
            "javascript%3Aalert%28document.domain%29.html"
        );
        assert_eq!(url_segment("a/b?c#d é"), "a%2Fb%3Fc%23d%20%C3%A9");
        let students = vec![StudentSummary {
            student: "javascript:alert(1)".into(),
            report: Some("javascript:alert(1).html".into()),
            result: None,
            ..Default::default()
        }];
        let html = class_page("nim", &students);
        assert!(
            html.contains("<a href=\"javascript%3Aalert%281%29.html\">javascript:alert(1)</a>"),
            "{html}"
        );
    }
}
