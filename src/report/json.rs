//! The stable JSON report (docs/report-format.md): the serde form of [`GradeResult`] after
//! hidden cases have been stripped by [`for_students`].

use super::{for_students, Exporter};
use crate::results::GradeResult;

/// Renders the JSON report, pretty-printed, with a trailing newline.
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn export(&self, result: &GradeResult) -> anyhow::Result<Vec<u8>> {
        let mut bytes = serde_json::to_vec_pretty(&for_students(result))?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::{assert_no_secrets, build_failure, sample};
    use crate::report::HIDDEN_DETAIL;
    use serde_json::{json, Value};

    fn json_of(result: &GradeResult) -> Value {
        let bytes = JsonExporter.export(result).unwrap();
        serde_json::from_slice(&bytes).unwrap()
    }

    fn keys(value: &Value) -> Vec<&str> {
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        keys
    }

    #[test]
    fn has_exactly_the_documented_keys() {
        let report = json_of(&sample());
        assert_eq!(report["cases"][1]["first_difference"], "output");
        assert_eq!(
            keys(&report),
            [
                "assignment",
                "cases",
                "max_score",
                "sandbox",
                "score",
                "submission",
                "wall_ms"
            ]
        );
        for case in report["cases"].as_array().unwrap() {
            let mut expected = vec![
                "checks",
                "description",
                "input",
                "max_score",
                "name",
                "notes",
                "run",
                "score",
                "status",
                "stderr",
                "visibility",
            ];
            // A hidden case's run is withheld: a program can write its input into any figure.
            if case["visibility"] == "hidden" {
                expected.retain(|k| *k != "run");
                assert_eq!(keys(case), expected, "{case:#}");
                continue;
            }
            // Only a visible case that lost points names its first difference.
            if case.get("first_difference").is_some() {
                expected.insert(2, "first_difference");
            }
            assert_eq!(keys(case), expected);
            assert_eq!(
                case.get("first_difference").is_some(),
                case["visibility"] == "visible" && case["score"] != case["max_score"],
                "{case:#}"
            );
            assert_eq!(
                keys(&case["run"]),
                [
                    "cpu_ms",
                    "detection",
                    "ended",
                    "exit_code",
                    "output_truncated",
                    "peak_memory_kib",
                    "prompts_late",
                    "signal",
                    "unread_inputs",
                    "wall_ms"
                ]
            );
            for check in case["checks"].as_array().unwrap() {
                let mut expected = vec!["detail", "kind", "max_score", "name", "passed", "score"];
                if check.get("difference").is_some() {
                    expected.insert(1, "difference");
                }
                assert_eq!(keys(check), expected);
            }
        }
        let difference = &report["cases"][1]["checks"][0]["difference"];
        assert_eq!(
            keys(difference),
            [
                "actual",
                "expected",
                "inputs_before",
                "location",
                "relaxation"
            ]
        );
    }

    #[test]
    fn values_match_the_result() {
        let report = json_of(&sample());
        assert_eq!(report["assignment"], "nim");
        assert_eq!(report["submission"], "./student_bin");
        assert_eq!(report["score"], json!(7.5));
        assert_eq!(report["max_score"], json!(17.5));
        let statuses: Vec<&str> = report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["status"].as_str().unwrap())
            .collect();
        assert_eq!(statuses, ["passed", "failed", "failed", "failed"]);
        let failed = &report["cases"][1];
        assert_eq!(failed["visibility"], "visible");
        assert_eq!(failed["score"], json!(2.5));
        assert_eq!(failed["input"], json!(["3", "0", "1"]));
        assert_eq!(failed["checks"][0]["passed"], json!(false));
        assert_eq!(failed["checks"][0]["difference"]["inputs_before"], json!(2));
        assert_eq!(
            failed["checks"][0]["difference"]["relaxation"],
            "ignoring case"
        );
        assert_eq!(failed["run"]["ended"], "exit");
        assert_eq!(failed["run"]["exit_code"], json!(0));
        assert_eq!(failed["run"]["signal"], Value::Null);
        assert_eq!(report["cases"][3]["run"]["ended"], "timeout");
        assert_eq!(report["cases"][3]["run"]["wall_ms"], json!(2000));
    }

    #[test]
    fn hidden_case_is_stripped() {
        let bytes = JsonExporter.export(&sample()).unwrap();
        assert_no_secrets(std::str::from_utf8(&bytes).unwrap());
        let report: Value = serde_json::from_slice(&bytes).unwrap();
        let hidden = &report["cases"][2];
        assert_eq!(hidden["visibility"], "hidden");
        assert_eq!(hidden["input"], json!([]));
        assert_eq!(hidden["stderr"], "");
        assert!(hidden["checks"][0].get("difference").is_none());
        assert_eq!(hidden["checks"][0]["detail"], HIDDEN_DETAIL);
        assert_eq!(hidden["checks"][0]["score"], json!(0.0));
    }

    #[test]
    fn build_failure_is_reported() {
        let report = json_of(&build_failure());
        assert_eq!(
            report["build_failure"],
            json!({
                "command": "g++ -O2 -o nim nim.cpp",
                "messages": "nim.cpp:12:5: error: 'cout' was not declared in this scope"
            })
        );
        assert_eq!(report["score"], json!(0.0));
        for case in report["cases"].as_array().unwrap() {
            assert_eq!(case["status"], "error");
            // A hidden case's run is withheld even then: the failed build is the report's.
            if case["visibility"] == "visible" {
                assert_eq!(case["run"]["ended"], "build_failed");
            } else {
                assert_eq!(case.get("run"), None);
            }
            assert_eq!(case["score"], json!(0.0));
        }
    }
}
