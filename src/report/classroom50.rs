//! Classroom 50's `result.json` (its wiki, "Advanced Autograding", "The result.json contract";
//! docs/classroom50.md): what a custom autograder leaves in the student's checkout for the
//! runner to publish as the submission's Release and the collector to gather into scores.json.
//!
//! The contract counts whole points: `score`, `max-score` and each test's `score` and
//! `max-score` are non-negative integers (the collector refuses anything else). One test per
//! part of the total (each case, each code requirement, each rubric line of its own, as in
//! Gradescope's results.json), in whole points by [`super::whole_points`], so the tests add up
//! to the total and the total is the grade's rounded half up. A hidden case is its name, its
//! points and whether it passed: nothing of its run, input or output is in the file.
//!
//! The runner's identity fields come from the environment it sets (`CLASSROOM`, `ASSIGNMENT`,
//! `SUBMISSION_TAG`, `COMMIT_URL`, `RELEASE_URL`, `REVIEW_URL`); outside the runner the ones
//! not set are left out (`assignment` is then the grade's assignment). `owner` and
//! `assignment_type` are stamped by the runner itself.

use serde_json::{json, Map, Value};

use super::{for_students, whole_points, Exporter};
use crate::results::{GradeResult, PartKind, RequirementStatus};

/// The contract's `schema` value.
pub const SCHEMA: &str = "classroom50/result/v1";

/// The runner's environment variables and the result.json field each fills, in the file's
/// order.
pub const IDENTITY: [(&str, &str); 6] = [
    ("classroom", "CLASSROOM"),
    ("assignment", "ASSIGNMENT"),
    ("submission", "SUBMISSION_TAG"),
    ("commit", "COMMIT_URL"),
    ("release", "RELEASE_URL"),
    ("review", "REVIEW_URL"),
];

/// Renders Classroom 50's result.json.
#[derive(Clone, Debug, Default)]
pub struct Classroom50Exporter {
    /// The runner's identity fields (field, value), those that are known.
    pub identity: Vec<(String, String)>,
    /// The grading's instant, `YYYY-MM-DDTHH:MM:SSZ` (None: left out).
    pub datetime: Option<String>,
}

impl Classroom50Exporter {
    /// The exporter with the identity the Classroom 50 runner put in the environment, and now.
    pub fn from_env() -> Self {
        let identity = IDENTITY
            .iter()
            .filter_map(|(field, variable)| {
                let value = std::env::var(variable).ok().filter(|v| !v.is_empty());
                // `review` falls back to the commit, as Classroom 50's own templates do.
                let value = value.or_else(|| {
                    (*field == "review")
                        .then(|| std::env::var("COMMIT_URL").ok().filter(|v| !v.is_empty()))
                        .flatten()
                });
                value.map(|v| (field.to_string(), v))
            })
            .collect();
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Classroom50Exporter {
            identity,
            datetime: Some(utc_timestamp(now)),
        }
    }
}

/// `seconds` since the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ` (UTC; the civil-from-days
/// conversion of Howard Hinnant's "chrono-Compatible Low-Level Date Algorithms").
pub fn utc_timestamp(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        of_day / 3600,
        of_day / 60 % 60,
        of_day % 60
    )
}

/// One test of result.json before whole points: its name, points earned and possible, and
/// whether it passed.
struct Row {
    name: String,
    score: f64,
    max_score: f64,
    passed: bool,
}

/// The tests of result.json: one per part of the total, from the student's copy.
fn rows(result: &GradeResult) -> Vec<Row> {
    result
        .parts()
        .into_iter()
        .map(|part| {
            let full = part.score + 1e-9 >= part.max_score;
            let passed = match part.kind {
                PartKind::Case => result
                    .cases
                    .iter()
                    .find(|c| c.name == part.name)
                    .is_some_and(|c| c.full_marks()),
                PartKind::Requirement => {
                    full && result
                        .requirements
                        .iter()
                        .find(|r| r.name == part.name)
                        .is_some_and(|r| r.status != RequirementStatus::Failed)
                }
                PartKind::Rubric => full,
            };
            Row {
                name: part.column(),
                score: part.score,
                max_score: part.max_score,
                passed,
            }
        })
        .collect()
}

/// The total as Classroom 50 (and GitHub Classroom) show it: whole points earned and possible,
/// the sums of the parts in whole points.
pub fn whole_total(result: &GradeResult) -> (u64, u64) {
    let parts: Vec<(f64, f64)> = result
        .parts()
        .iter()
        .map(|p| (p.score, p.max_score))
        .collect();
    whole_points(&parts)
        .into_iter()
        .fold((0, 0), |(s, m), (a, b)| (s + a, m + b))
}

impl Classroom50Exporter {
    /// The result.json object.
    pub fn value(&self, result: &GradeResult) -> Value {
        let result = for_students(result);
        let rows = rows(&result);
        let whole = whole_points(
            &rows
                .iter()
                .map(|r| (r.score, r.max_score))
                .collect::<Vec<_>>(),
        );
        let tests: Vec<Value> = rows
            .iter()
            .zip(&whole)
            .map(|(row, (score, max))| {
                json!({
                    "test-name": row.name,
                    "passed": row.passed,
                    "score": score,
                    "max-score": max,
                })
            })
            .collect();
        let mut object = Map::new();
        object.insert("schema".into(), SCHEMA.into());
        for (field, _) in IDENTITY {
            let known = self.identity.iter().find(|(f, _)| f == field);
            match (known, field) {
                (Some((_, value)), _) => {
                    object.insert(field.into(), value.clone().into());
                }
                (None, "assignment") => {
                    object.insert(field.into(), result.assignment.clone().into());
                }
                (None, _) => {}
            }
        }
        if let Some(datetime) = &self.datetime {
            object.insert("datetime".into(), datetime.clone().into());
        }
        object.insert(
            "score".into(),
            whole.iter().map(|w| w.0).sum::<u64>().into(),
        );
        object.insert(
            "max-score".into(),
            whole.iter().map(|w| w.1).sum::<u64>().into(),
        );
        object.insert("tests".into(), tests.into());
        Value::Object(object)
    }
}

impl Exporter for Classroom50Exporter {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        let mut bytes = serde_json::to_vec_pretty(&self.value(result))?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{assert_no_secrets, sample, with_requirements};

    fn exporter() -> Classroom50Exporter {
        Classroom50Exporter {
            identity: vec![("classroom".into(), "cs1".into())],
            datetime: Some("2026-06-01T14:32:01Z".into()),
        }
    }

    #[test]
    fn the_sample_in_whole_points_field_by_field() {
        // The sample: computer_wins 5/5, rejects_zero 2.5/5, hidden_endgame 0/5, replay 0/2.5.
        // Possible 17.5 → 18: 5, 5, 5 and 2.5 → 2 or 3; the largest remainder is replay's
        // 0.5, so 3. Earned 7.5 → 8: computer_wins keeps its 5, the two at 0 stay 0, and
        // rejects_zero (2.5, below its 5) gets 3.
        let value = exporter().value(&sample());
        let expected = json!({
            "schema": "classroom50/result/v1",
            "classroom": "cs1",
            "assignment": "nim",
            "datetime": "2026-06-01T14:32:01Z",
            "score": 8,
            "max-score": 18,
            "tests": [
                {"test-name": "computer_wins", "passed": true, "score": 5, "max-score": 5},
                {"test-name": "rejects_zero", "passed": false, "score": 3, "max-score": 5},
                {"test-name": "hidden_endgame", "passed": false, "score": 0, "max-score": 5},
                {"test-name": "replay", "passed": false, "score": 0, "max-score": 3},
            ],
        });
        assert_eq!(value, expected);
        let text =
            String::from_utf8(exporter().export(&sample()).expect("renders")).expect("utf-8");
        assert_no_secrets(&text);
    }

    #[test]
    fn a_rubric_total_in_whole_points_adds_up() {
        // 1 + 90 × 7.5/17.5 + 9 × 3/6 = 44.071 → 44 of 100.
        let value = exporter().value(&with_requirements());
        assert_eq!(value["score"], 44);
        assert_eq!(value["max-score"], 100);
        let tests = value["tests"].as_array().expect("tests");
        let sum: u64 = tests
            .iter()
            .map(|t| t["score"].as_u64().expect("int"))
            .sum();
        let max: u64 = tests
            .iter()
            .map(|t| t["max-score"].as_u64().expect("int"))
            .sum();
        assert_eq!((sum, max), (44, 100));
        assert_eq!(whole_total(&with_requirements()), (44, 100));
    }

    #[test]
    fn whole_points_keep_full_marks_and_zeros() {
        use crate::report::whole_points;
        // 5.333 + 2.667 + 8 = 16 of 24: 8 stays 8; 5 and 2, then the larger remainder
        // (0.667) takes the missing point.
        assert_eq!(
            whole_points(&[(5.333, 8.0), (2.667, 8.0), (8.0, 8.0)]),
            [(5, 8), (3, 8), (8, 8)]
        );
        // 0.9 of 1 is short of full marks: 0, though the total 0.9 rounds to 1.
        assert_eq!(whole_points(&[(0.9, 1.0), (0.0, 1.0)]), [(0, 1), (0, 1)]);
        // Full marks of 2.5 + 2.5: the maxima are 3 and 2 (5 in all), each part all of its.
        assert_eq!(whole_points(&[(2.5, 2.5), (2.5, 2.5)]), [(3, 3), (2, 2)]);
    }

    #[test]
    fn timestamps_are_utc() {
        assert_eq!(utc_timestamp(0), "1970-01-01T00:00:00Z");
        // 2026-06-01 14:32:01 UTC: 20605 days and 52321 seconds.
        assert_eq!(
            utc_timestamp(20_605 * 86_400 + 52_321),
            "2026-06-01T14:32:01Z"
        );
        // 2024-02-29 (a leap day) 23:59:59.
        assert_eq!(
            utc_timestamp(19_782 * 86_400 + 86_399),
            "2024-02-29T23:59:59Z"
        );
    }
}
