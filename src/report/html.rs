//! HTML: a student's report (the text report's content: score, cases, and for each case that
//! lost points its feedback with whitespace made visible), and the class page written beside
//! a class's reports (distribution, status counts, the students, pass rate per case, build
//! failures, slowest programs). Self-contained pages: no external resource; a student's page
//! runs no script, the class page only its sort script, allowed by its hash.

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

/// Long lines wrap inside their box (feedback, handout quotes, names without spaces): nothing
/// is cut at a box's edge or needs sideways scrolling.
const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:2em;max-width:60em;overflow-wrap:break-word}\
table{border-collapse:collapse;max-width:100%}\
td,th{border:1px solid #ccc;padding:.2em .6em;text-align:left;vertical-align:top}\
.pass{color:#186a1d}.fail{color:#a31515}.na{color:#777}\
pre{background:#f6f6f6;padding:.6em;white-space:pre-wrap;overflow-wrap:anywhere}\
q,code{overflow-wrap:anywhere}\
.bar{background:#4a78b0;height:1em;display:inline-block}\
.num{text-align:right;font-variant-numeric:tabular-nums}\
th button{font:inherit;font-weight:bold;border:0;background:none;padding:0;cursor:pointer}";

fn page(title: &str, body: &str) -> String {
    page_with_policy(title, body, CONTENT_SECURITY_POLICY)
}

/// A page under `policy` (a `<meta>` Content-Security-Policy element).
fn page_with_policy(title: &str, body: &str, policy: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         {policy}<title>{}</title><style>{STYLE}</style></head>\n<body>\n{body}</body></html>\n",
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
        // Notes about the grader itself (its build cache) are the instructor's, not the student's.
        for note in result.notes.iter().filter(|n| !super::about_the_grader(n)) {
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
        // Points and a mark per case; what a run cost is shown only where it explains a lost
        // case (below), so that a passing case never reads like an error.
        body.push_str("<table id=\"cases\">\n<tr><th>case</th><th>points</th><th></th></tr>\n");
        for case in &result.cases {
            let full = case.status == CaseStatus::Passed && case.score + 1e-9 >= case.max_score;
            let _ = writeln!(
                body,
                "<tr><td><a href=\"#case-{4}\">{0}</a></td><td>{1}</td><td class=\"{2}\">{3}</td></tr>",
                escape(&case.name),
                points_of(case.score, case.max_score),
                if full { "pass" } else { "fail" },
                if full { "✓" } else { "✗" },
                url_segment(&case.name),
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
                "<h2 id=\"case-{0}\">{0}</h2>\n<p>{1}</p>\n<pre>{2}</pre>{3}",
                escape(&case.name),
                escape(&case.description),
                escape(&case_feedback(case, Style::default())),
                resources_explaining(case)
            );
        }
        Ok(page(
            &format!("{}: {}", result.assignment, result.submission),
            &body,
        )
        .into_bytes())
    }
}

/// What a lost case's run cost (wall time, CPU time, peak memory, how it ended) when that
/// explains the loss: a limit stopped it or it was slow (the text report's rule). Empty for a
/// case with full marks, a run that never happened and a hidden case.
fn resources_explaining(case: &crate::results::CaseResult) -> String {
    use super::resources;
    let lost = case.score + 1e-9 < case.max_score;
    if !lost
        || case.visibility == crate::results::Visibility::Hidden
        || !resources::noteworthy(&case.run)
    {
        return String::new();
    }
    format!(
        "\n<p class=\"resources\">Resources: {}</p>",
        escape(&resources::line(&case.run))
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

/// One student's result as the class page reads it.
#[derive(Clone, Debug, Default)]
pub struct StudentSummary {
    /// The student.
    pub student: String,
    /// The report file beside the class page, if any.
    pub report: Option<String>,
    /// The result, or `None` when not graded: the class page shows it as a student's report
    /// would, through [`for_students`].
    pub result: Option<GradeResult>,
    /// The instructor's report beside it (hidden cases in full), if any.
    pub instructor_report: Option<String>,
    /// The gradebook's status (e.g. `not gradable: …`), when known.
    pub status: Option<String>,
}

/// The files the class page links to, beside it in the output folder.
#[derive(Clone, Copy, Debug, Default)]
pub struct ClassFiles {
    /// `changes.csv` was written (a run over an earlier one).
    pub changes: bool,
}

/// The class page: how the class did, where it lost points, and what to look at.
pub fn class_page(assignment: &str, students: &[StudentSummary]) -> String {
    class_page_with(assignment, students, "", ClassFiles::default())
}

/// The one script the class page runs: it sorts a `sortable` table by the column whose header
/// button is pressed (again: the other way), by each cell's `data-sort` when it has one, as
/// a number when both are numbers. Allowed by its hash alone ([`class_policy`]), so no other
/// script (a name that slipped past the escaping) could run.
const SORT_SCRIPT: &str = "for(const t of document.querySelectorAll('table.sortable')){\
const b=t.tBodies[0],h=[...t.querySelectorAll('thead button')];t.dataset.sortable='ready';\
h.forEach((x,c)=>x.addEventListener('click',()=>{const up=x.dataset.dir!=='up';\
for(const o of h){delete o.dataset.dir;o.parentNode.removeAttribute('aria-sort');}\
x.dataset.dir=up?'up':'down';x.parentNode.setAttribute('aria-sort',up?'ascending':'descending');\
const k=r=>{const d=r.cells[c];return d?(d.dataset.sort??d.textContent.trim()):'';};\
const rows=[...b.rows].sort((p,q)=>{const a=k(p),z=k(q),m=Number(a),n=Number(z);\
const v=(a!==''&&z!==''&&!isNaN(m)&&!isNaN(n))?m-n:a.localeCompare(z);return up?v:-v;});\
for(const r of rows)b.append(r);}));}";

/// The class page's policy: [`CONTENT_SECURITY_POLICY`] with [`SORT_SCRIPT`] allowed by its
/// SHA-256 (no inline handler, no other script).
fn class_policy() -> String {
    use sha2::Digest as _;
    let hash = base64(&sha2::Sha256::digest(SORT_SCRIPT.as_bytes()));
    CONTENT_SECURITY_POLICY.replacen(
        "default-src 'none';",
        &format!("default-src 'none'; script-src 'sha256-{hash}';"),
        1,
    )
}

/// Standard base64 with padding (RFC 4648), for the script's hash in the policy.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A share of the points as a percent with one decimal: `85.7%`.
fn percent(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// The middle value of `values` (the mean of the two middle ones for an even count).
fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

/// A student's status in the gradebook's words (`full marks`, `lost points`, `build failed`,
/// `not gradable: …`), from the result when the gradebook's is not known.
fn status_of(student: &StudentSummary, result: Option<&GradeResult>) -> String {
    if let Some(status) = &student.status {
        return status.clone();
    }
    match result {
        None => "not graded".to_string(),
        Some(r) if r.build_failure.is_some() => "build failed".to_string(),
        Some(r) if r.score + 1e-9 >= r.max_score => "full marks".to_string(),
        Some(_) => "lost points".to_string(),
    }
}

/// The class page with `sections` (HTML, already escaped) after the per-case table (the changes
/// since an earlier run), linking to the CSV files beside it. It leads with the distribution
/// (mean, median, histogram of percents), the status counts and the CSVs; then every student
/// (a sortable table with points, percent and status); then each case's pass rate in words.
pub fn class_page_with(
    assignment: &str,
    students: &[StudentSummary],
    sections: &str,
    files: ClassFiles,
) -> String {
    // What students may see of each result: the page reads nothing else.
    let shown: Vec<Option<GradeResult>> = students
        .iter()
        .map(|s| s.result.as_ref().map(for_students))
        .collect();
    let graded: Vec<(&StudentSummary, &GradeResult)> = students
        .iter()
        .zip(&shown)
        .filter_map(|(s, r)| r.as_ref().map(|r| (s, r)))
        .collect();
    let shares: Vec<f64> = graded.iter().map(|(_, r)| share_of(r)).collect();
    let mut body = format!(
        "<h1>{}: {} students</h1>\n",
        escape(assignment),
        students.len()
    );
    body.push_str(&distribution_section(&shares));
    body.push_str(&status_counts(students, &shown));
    body.push_str(&downloads(files));
    body.push_str(&students_table(students, &shown));
    body.push_str(&per_case_section(&graded));
    body.push_str(&build_failures_section(&graded));
    body.push_str(&sanitizer_section(&graded));
    body.push_str(&not_gradable_section(students));
    body.push_str(sections);
    body.push_str(&slowest_section(&graded));
    let _ = writeln!(body, "<script>{SORT_SCRIPT}</script>");
    page_with_policy(&format!("{assignment}: class"), &body, &class_policy())
}

/// The share of the points a result earned, from 0 to 1 (0 when there are none to earn).
fn share_of(result: &GradeResult) -> f64 {
    if result.max_score > 0.0 {
        result.score / result.max_score
    } else {
        0.0
    }
}

/// The distribution of the graded students' `shares`: mean and median, then the histogram
/// of percents in tenths.
fn distribution_section(shares: &[f64]) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<h2>Scores</h2>\n<p id=\"summary\">{}</p>",
        match median(shares) {
            None => "No student was graded.".to_string(),
            Some(middle) => format!(
                "Mean <b>{}</b>, median <b>{}</b> of the points, over {} graded student(s).",
                percent(shares.iter().sum::<f64>() / shares.len() as f64),
                percent(middle),
                shares.len()
            ),
        }
    );
    let mut buckets = [0usize; 11];
    for share in shares {
        buckets[((share * 10.0).floor().max(0.0) as usize).min(10)] += 1;
    }
    let most = buckets.iter().copied().max().unwrap_or(0).max(1);
    body.push_str("<table id=\"histogram\">\n");
    for (tenth, count) in buckets.iter().enumerate().rev() {
        let label = if tenth == 10 {
            "100%".to_string()
        } else {
            format!("{}–{}%", tenth * 10, tenth * 10 + 9)
        };
        let _ = writeln!(
            body,
            "<tr><td>{label}</td><td class=\"num\">{count}</td><td style=\"width:20em\"><span class=\"bar\" style=\"width:{:.2}em\"></span></td></tr>",
            20.0 * *count as f64 / most as f64
        );
    }
    body.push_str("</table>\n");
    body
}

/// How many students ended each way, in the gradebook's words (a reason after `:` aside).
fn status_counts(students: &[StudentSummary], shown: &[Option<GradeResult>]) -> String {
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    for (student, result) in students.iter().zip(shown) {
        let status = status_of(student, result.as_ref());
        let kind = status
            .split(':')
            .next()
            .unwrap_or_default()
            .trim()
            .to_string();
        *statuses.entry(kind).or_default() += 1;
    }
    let counts: Vec<String> = statuses
        .iter()
        .map(|(status, n)| format!("{}: <b>{n}</b>", escape(status)))
        .collect();
    format!(
        "<p id=\"status-counts\">Status: {}</p>\n",
        counts.join(" · ")
    )
}

/// The links to the CSV files beside the class page.
fn downloads(files: ClassFiles) -> String {
    let mut links =
        vec!["<a href=\"gradebook.csv\">gradebook.csv</a> (every student's points, for the LMS)"];
    if files.changes {
        links.push("<a href=\"changes.csv\">changes.csv</a> (what changed since the earlier run)");
    }
    format!("<p id=\"downloads\">Download: {}</p>\n", links.join(" · "))
}

/// Every student, sortable by any column: name (linking to their report), points, percent,
/// status, and a link to the instructor's view when any student has one.
fn students_table(students: &[StudentSummary], shown: &[Option<GradeResult>]) -> String {
    let instructor_column = students.iter().any(|s| s.instructor_report.is_some());
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<h2>Students</h2>\n<table id=\"students\" class=\"sortable\">\n<thead><tr>\
         <th><button type=\"button\">student</button></th><th><button type=\"button\">points</button></th>\
         <th><button type=\"button\">percent</button></th><th><button type=\"button\">status</button></th>{}</tr></thead>\n<tbody>",
        if instructor_column { "<th></th>" } else { "" }
    );
    for (student, result) in students.iter().zip(shown) {
        body.push_str(&student_row(student, result.as_ref(), instructor_column));
    }
    body.push_str("</tbody></table>\n");
    body
}

/// One student's row of the students' table.
fn student_row(
    student: &StudentSummary,
    result: Option<&GradeResult>,
    instructor_column: bool,
) -> String {
    let (points, percent_cell) = match result {
        Some(r) => {
            let share = share_of(r);
            (
                format!(
                    "<td class=\"num\" data-sort=\"{:.4}\">{}</td>",
                    r.score,
                    points_of(r.score, r.max_score)
                ),
                format!(
                    "<td class=\"num\" data-sort=\"{:.6}\">{}</td>",
                    share,
                    percent(share)
                ),
            )
        }
        None => (
            "<td class=\"num\" data-sort=\"-1\">—</td>".to_string(),
            "<td class=\"num\" data-sort=\"-1\">—</td>".to_string(),
        ),
    };
    let name = match &student.report {
        Some(link) => format!(
            "<a href=\"{}\">{}</a>",
            url_path(link),
            escape(&student.student)
        ),
        None => escape(&student.student),
    };
    let instructor = match &student.instructor_report {
        Some(link) => format!(
            "<td><a class=\"instructor\" href=\"{}\">instructor view</a></td>",
            url_path(link)
        ),
        None if instructor_column => "<td></td>".to_string(),
        None => String::new(),
    };
    format!(
        "<tr><td>{name}</td>{points}{percent_cell}<td>{}</td>{instructor}</tr>\n",
        escape(&status_of(student, result))
    )
}

/// Per case, hardest first: how many got full marks, and where the others went wrong first
/// (the check their report opens with; a hidden case's stays in the instructor views).
fn per_case_section(graded: &[(&StudentSummary, &GradeResult)]) -> String {
    let mut per_case: BTreeMap<String, (usize, usize, BTreeMap<String, usize>)> = BTreeMap::new();
    for (_, result) in graded {
        for case in &result.cases {
            let entry = per_case.entry(case.name.clone()).or_default();
            entry.1 += 1;
            if case.score + 1e-9 >= case.max_score {
                entry.0 += 1;
                continue;
            }
            let where_ = if case.visibility == crate::results::Visibility::Hidden {
                "a hidden case: see the instructor views".to_string()
            } else if let Some(check) = &case.first_difference {
                format!("the check “{check}”")
            } else {
                "no output to compare (it did not build or run)".to_string()
            };
            *entry.2.entry(where_).or_default() += 1;
        }
    }
    let mut cases: Vec<_> = per_case.into_iter().collect();
    // The hardest first: where most students lost points.
    cases.sort_by(|(a, (pa, ta, _)), (b, (pb, tb, _))| {
        (*pa as f64 / (*ta).max(1) as f64)
            .total_cmp(&(*pb as f64 / (*tb).max(1) as f64))
            .then_with(|| a.cmp(b))
    });
    let mut body = String::from(
        "<h2>Cases, hardest first</h2>\n<table id=\"per-case\">\n<thead><tr><th>case</th>\
         <th>students with full marks</th><th>where the others first lost points</th></tr></thead>\n<tbody>\n",
    );
    for (name, (passed, total, places)) in &cases {
        let mut places: Vec<(&String, &usize)> = places.iter().collect();
        places.sort_by(|a, b| b.1.cmp(a.1).then_with(|| a.0.cmp(b.0)));
        let places: Vec<String> = places
            .iter()
            .map(|(place, n)| {
                format!(
                    "{} ({n} student{})",
                    escape(place),
                    if **n == 1 { "" } else { "s" }
                )
            })
            .collect();
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{passed} of {total} ({})</td><td>{}</td></tr>",
            escape(name),
            percent(*passed as f64 / (*total).max(1) as f64),
            if places.is_empty() {
                "—".to_string()
            } else {
                places.join("; ")
            }
        );
    }
    body.push_str("</tbody></table>\n");
    body
}

/// The students whose program did not build, or `none`.
fn build_failures_section(graded: &[(&StudentSummary, &GradeResult)]) -> String {
    let failed_builds: Vec<&str> = graded
        .iter()
        .filter(|(_, r)| r.build_failure.is_some())
        .map(|(s, _)| s.student.as_str())
        .collect();
    format!(
        "<h2>Build failures</h2>\n<p id=\"build-failures\">{}</p>\n",
        if failed_builds.is_empty() {
            "none".to_string()
        } else {
            escape(&failed_builds.join(", "))
        }
    )
}

/// The students who could not be graded through no fault of theirs, with why; empty when
/// there are none.
fn not_gradable_section(students: &[StudentSummary]) -> String {
    let not_gradable: Vec<String> = students
        .iter()
        .filter_map(|s| {
            let status = s.status.as_deref()?;
            status
                .starts_with("not gradable")
                .then(|| format!("{}: {status}", s.student))
        })
        .collect();
    if not_gradable.is_empty() {
        return String::new();
    }
    let mut body = String::from(
        "<h2>Not gradable (no score: the grading machine's or grader's fault, not the \
         student's)</h2>\n<ul id=\"not-gradable\">\n",
    );
    for line in &not_gradable {
        let _ = writeln!(body, "<li>{}</li>", escape(line));
    }
    body.push_str("</ul>\n");
    body
}

/// The five students whose grading took longest, with their time.
fn slowest_section(graded: &[(&StudentSummary, &GradeResult)]) -> String {
    let mut slowest: Vec<(&StudentSummary, u64)> =
        graded.iter().map(|(s, r)| (*s, r.wall_ms)).collect();
    slowest.sort_by_key(|s| std::cmp::Reverse(s.1));
    let mut body = String::from("<h2>Slowest</h2>\n<table id=\"slowest\">\n");
    for (student, ms) in slowest.iter().take(5) {
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td class=\"num\">{:.1} s</td></tr>",
            escape(&student.student),
            *ms as f64 / 1000.0
        );
    }
    body.push_str("</table>\n");
    body
}

/// How many of the students whose C/C++ program ran under the sanitizer pass have a finding
/// (docs/sanitizers.md), and who: empty when no student's program was instrumented.
fn sanitizer_section(graded: &[(&StudentSummary, &GradeResult)]) -> String {
    let mut checked = 0;
    let mut found: Vec<&str> = Vec::new();
    for (student, result) in graded {
        let sanitizer_checks: Vec<&crate::results::CheckResult> = result
            .cases
            .iter()
            .flat_map(|case| &case.checks)
            .filter(|check| check.kind == "sanitizer")
            .filter(|check| check.detail != "nothing to compare")
            .collect();
        if sanitizer_checks.is_empty() {
            continue;
        }
        checked += 1;
        if sanitizer_checks.iter().any(|check| !check.passed) {
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
    use crate::results::{CaseResult, CheckResult, Ended, Visibility};

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

    /// Resources on a student's page explain a lost case only: a passing case's run (here one
    /// that was stopped waiting for more input, as an interactive program is) shows no figures
    /// and no ending; the case that timed out shows them under its feedback. The grader's own
    /// note (its build cache) is not the student's.
    #[test]
    fn a_students_page_shows_resources_only_where_they_explain_a_loss() {
        let mut result = sample();
        result.cases[0].run.ended = crate::results::Ended::WaitingForInput;
        result
            .notes
            .push(crate::submission::CACHED_BUILD_NOTE.to_string());
        result
            .notes
            .push("several classes declare main".to_string());
        let html = String::from_utf8(HtmlExporter.export(&result).expect("html")).expect("utf8");
        assert!(!html.contains("waiting for more input"), "{html}");
        assert!(
            !html.contains("<th>wall</th>") && !html.contains("0.04 s"),
            "{html}"
        );
        // rejects_zero lost points on its output, not for a limit: no figures either.
        assert!(!html.contains("0.05 s"), "{html}");
        // replay timed out: the figures say why.
        let replay = html.find("id=\"case-replay\"").expect("replay's details");
        let resources = html
            .find("<p class=\"resources\">Resources: wall 2.00 s")
            .expect(&html);
        assert!(resources > replay, "{html}");
        assert!(
            html[resources..].contains("timed out (wall-clock limit)"),
            "{html}"
        );
        assert!(!html.contains("cached build"), "{html}");
        assert!(
            html.contains("Note: several classes declare main"),
            "{html}"
        );
    }

    #[test]
    fn a_students_page_wraps_long_lines_inside_their_boxes() {
        // Preformatted feedback keeps its line breaks and wraps the rest.
        assert!(STYLE.contains("pre{") && STYLE.contains("white-space:pre-wrap"));
        assert!(!STYLE.contains("overflow-x:auto"));
    }

    #[test]
    fn the_policy_allows_the_sort_script_by_its_hash() {
        // RFC 4648's test vectors.
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        let policy = class_policy();
        assert!(
            policy.contains("default-src 'none'; script-src 'sha256-"),
            "{policy}"
        );
        assert!(
            !policy.contains("unsafe-inline'; img") || policy.contains("style-src 'unsafe-inline'")
        );
        assert!(!policy.contains("script-src 'unsafe"), "{policy}");
    }

    /// A check of `kind` named `name` that earned `score` of `max_score`.
    fn check(name: &str, kind: &str, passed: bool, score: f64, max_score: f64) -> CheckResult {
        CheckResult {
            name: name.into(),
            kind: kind.into(),
            passed,
            score,
            max_score,
            detail: String::new(),
            difference: None,
            rule: None,
        }
    }

    /// A case named `name` with `checks`, scored as they are.
    fn case(name: &str, visibility: Visibility, checks: Vec<CheckResult>) -> CaseResult {
        let mut case = CaseResult::not_run(
            name,
            "",
            visibility,
            checks.iter().map(|c| c.max_score).sum(),
            CaseStatus::Passed,
            Ended::Exit,
            0,
        );
        case.score = checks.iter().map(|c| c.score).sum();
        if checks.iter().any(|c| !c.passed) {
            case.status = CaseStatus::Failed;
        }
        case.checks = checks;
        case
    }

    /// A result of `cases` only, totalled.
    fn result_of(cases: Vec<CaseResult>) -> GradeResult {
        let mut result = GradeResult {
            assignment: "nim".into(),
            submission: "nim.cpp".into(),
            score: 0.0,
            max_score: 0.0,
            cases,
            build_failure: None,
            notes: Vec::new(),
            wall_ms: 0,
            sandbox: Vec::new(),
            requirements: Vec::new(),
            warnings: String::new(),
            rubric: Vec::new(),
            variant: None,
        };
        result.total(&[]);
        result
    }

    #[test]
    fn the_class_page_leads_with_the_distribution_then_students_then_cases() {
        let student = |name: &str, score: f64, status: Option<&str>| StudentSummary {
            student: name.into(),
            report: Some(format!("students/{name}.html")),
            result: Some(result_of(vec![
                case(
                    "a",
                    Visibility::Visible,
                    vec![check("turn-order", "lines", score >= 10.0, score, 10.0)],
                ),
                case("h", Visibility::Hidden, vec![]),
            ])),
            status: status.map(String::from),
            ..Default::default()
        };
        let students = vec![
            student("ann", 10.0, Some("full marks")),
            student("bo", 4.0, Some("lost points")),
            student("cy", 7.0, Some("lost points")),
            StudentSummary {
                student: "di".into(),
                status: Some("not gradable: the grading machine ran out of memory".into()),
                ..Default::default()
            },
        ];
        let html = class_page_with("nim", &students, "", ClassFiles { changes: true });
        // (100 + 40 + 70) / 3 = 70 %; the middle of 40, 70, 100 is 70 %.
        assert!(
            html.contains("Mean <b>70.0%</b>, median <b>70.0%</b>"),
            "{html}"
        );
        assert!(
            html.contains(
                "Status: full marks: <b>1</b> · lost points: <b>2</b> · not gradable: <b>1</b>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<a href=\"gradebook.csv\">gradebook.csv</a>"),
            "{html}"
        );
        assert!(
            html.contains("<a href=\"changes.csv\">changes.csv</a>"),
            "{html}"
        );
        assert!(
            html.contains(
                "<td class=\"num\" data-sort=\"0.400000\">40.0%</td><td>lost points</td>"
            ),
            "{html}"
        );
        assert!(
            html.contains("<td>di</td><td class=\"num\" data-sort=\"-1\">—</td>"),
            "{html}"
        );
        // In that order: distribution, statuses, links, students, cases.
        let at = |needle: &str| {
            html.find(needle)
                .unwrap_or_else(|| panic!("{needle}: {html}"))
        };
        assert!(at("id=\"summary\"") < at("id=\"histogram\""));
        assert!(at("id=\"histogram\"") < at("id=\"status-counts\""));
        assert!(at("id=\"status-counts\"") < at("id=\"downloads\""));
        assert!(at("id=\"downloads\"") < at("id=\"students\""));
        assert!(at("id=\"students\"") < at("id=\"per-case\""));
        // Plain words, not the checker's.
        assert!(
            html.contains(
                "<td>a</td><td>1 of 3 (33.3%)</td><td>the check “turn-order” (2 students)</td>"
            ),
            "{html}"
        );
        assert!(!html.contains("first difference"), "{html}");
        // Without an earlier run there is no changes.csv to link to.
        assert!(!class_page("nim", &students).contains("changes.csv"));
    }

    #[test]
    fn the_class_page_counts_the_programs_with_sanitizer_findings() {
        let case = |passed: bool, detail: &str| {
            let mut sanitizer = check("sanitizer", "sanitizer", passed, 0.0, 0.0);
            sanitizer.detail = detail.into();
            result_of(vec![case("a", Visibility::Visible, vec![sanitizer])])
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
        let graded: Vec<(&StudentSummary, &GradeResult)> = students
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
        let students = vec![
            StudentSummary {
                student: "ana".into(),
                report: Some("ana.html".into()),
                result: Some(sample()),
                ..Default::default()
            },
            StudentSummary {
                student: "bo".into(),
                report: None,
                result: Some(sample()),
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
        assert!(
            html.contains("<tr><td>40–49%</td><td class=\"num\">2</td>"),
            "{html}"
        );
        assert!(html.contains("<a href=\"ana.html\">ana</a>"), "{html}");
        assert!(
            html.contains("<tr><td>cy</td><td class=\"num\" data-sort=\"-1\">—</td>"),
            "{html}"
        );
        assert!(html.contains(&class_policy()), "{html}");
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
