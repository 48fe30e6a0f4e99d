//! What each run cost, where people read: a case's wall time, CPU time, peak memory, how the
//! run ended and which limit stopped it, as the JSON report records them (`run`), in the words
//! and names every other format shows them with. A figure the machine could not measure (peak
//! memory without a cgroup) says so instead of showing 0.

use crate::results::{Ended, RunSummary};

/// A case's run is called slow in the text report from this much wall time on (the text report
/// shows the figures of slow runs and runs stopped at a limit; other formats always do).
pub const SLOW_MS: u64 = 1000;

/// What a report says for peak memory where it was not measured.
pub const MEMORY_UNMEASURED: &str = "not measured (no cgroup on this machine)";

/// What a report adds to a peak that is only the largest single process's (no cgroup).
pub const LARGEST_PROCESS: &str = "largest process only: no cgroup on this machine";

/// The limit that stopped a run, if one did.
pub fn limit_hit(ended: Ended) -> Option<&'static str> {
    match ended {
        Ended::Timeout => Some("wall-clock limit"),
        Ended::CpuLimit => Some("CPU-time limit"),
        Ended::MemoryLimit => Some("memory limit"),
        Ended::OutputLimit => Some("output limit"),
        Ended::Blocked => Some("idle limit"),
        _ => None,
    }
}

/// Whether the case ran at all (not for a build that failed or a program that never started).
pub fn ran(run: &RunSummary) -> bool {
    run.ended != Ended::BuildFailed && !run.detection.is_empty()
}

/// Whether the text report shows the figures: a limit stopped the run, or it was slow.
pub fn noteworthy(run: &RunSummary) -> bool {
    ran(run) && (limit_hit(run.ended).is_some() || run.wall_ms >= SLOW_MS)
}

/// Seconds with two decimals: `0.04 s`.
fn seconds(ms: u64) -> String {
    format!("{:.2} s", ms as f64 / 1000.0)
}

/// Peak memory in MiB with one decimal, or [`MEMORY_UNMEASURED`].
pub fn memory(run: &RunSummary) -> String {
    match (run.peak_memory_kib, &run.peak_memory_note) {
        (Some(kib), None) => format!("{:.1} MiB", kib as f64 / 1024.0),
        (Some(kib), Some(note)) => format!("{:.1} MiB ({note})", kib as f64 / 1024.0),
        (None, _) => MEMORY_UNMEASURED.to_string(),
    }
}

/// How the run ended, with the limit when one stopped it: `timed out (wall-clock limit)`.
pub fn ending(run: &RunSummary) -> String {
    match (run.ended, run.exit_code, run.signal) {
        (Ended::Exit, Some(code), _) => format!("exited with status {code}"),
        (Ended::Signal, _, Some(signal)) => format!("killed by signal {signal}"),
        (ended, _, _) => match limit_hit(ended) {
            Some(limit) => format!("{} ({limit})", ended.describe()),
            None => ended.describe().to_string(),
        },
    }
}

/// The figures in one line: `wall 0.04 s, CPU 0.02 s, peak memory 2.0 MiB; exited with
/// status 0` (with `, slept 8.40 s (not counted)` after the wall time when it slept).
pub fn line(run: &RunSummary) -> String {
    let slept = match run.slept_ms {
        0 => String::new(),
        ms => format!(", slept {} (not counted)", seconds(ms)),
    };
    format!(
        "wall {}{slept}, CPU {}, peak memory {}; {}",
        seconds(run.wall_ms),
        seconds(run.cpu_ms),
        memory(run),
        ending(run)
    )
}

/// The figures as named properties (JUnit): wall and CPU in milliseconds, peak memory in KiB
/// (or the reason it is missing), how it ended, and the limit that stopped it (`none`).
pub fn properties(run: &RunSummary) -> Vec<(&'static str, String)> {
    let mut properties = vec![
        ("wall_ms", run.wall_ms.to_string()),
        ("slept_ms", run.slept_ms.to_string()),
        ("cpu_ms", run.cpu_ms.to_string()),
        (
            "peak_memory_kib",
            run.peak_memory_kib
                .map_or_else(|| MEMORY_UNMEASURED.to_string(), |k| k.to_string()),
        ),
        (
            "ended",
            serde_json::to_value(run.ended)
                .ok()
                .and_then(|v| v.as_str().map(String::from))
                .unwrap_or_default(),
        ),
        ("limit", limit_hit(run.ended).unwrap_or("none").to_string()),
    ];
    if let Some(note) = &run.peak_memory_note {
        properties.push(("peak_memory_note", note.clone()));
    }
    properties
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_say_what_ended_the_run_and_what_was_not_measured() {
        let mut run = RunSummary::not_run(Ended::Exit, 0);
        run.detection = "seccomp".into();
        run.exit_code = Some(0);
        run.wall_ms = 41;
        run.cpu_ms = 20;
        run.peak_memory_kib = Some(2048);
        assert_eq!(
            line(&run),
            "wall 0.04 s, CPU 0.02 s, peak memory 2.0 MiB; exited with status 0"
        );
        assert!(!noteworthy(&run));
        run.ended = Ended::Timeout;
        run.exit_code = None;
        run.wall_ms = 2000;
        run.peak_memory_note = Some(LARGEST_PROCESS.into());
        assert_eq!(
            memory(&run),
            "2.0 MiB (largest process only: no cgroup on this machine)"
        );
        run.peak_memory_kib = None;
        assert_eq!(
            line(&run),
            "wall 2.00 s, CPU 0.02 s, peak memory not measured (no cgroup on this machine); \
             timed out (wall-clock limit)"
        );
        assert!(noteworthy(&run));
        let properties = properties(&run);
        assert!(properties.contains(&("ended", "timeout".to_string())));
        assert!(properties.contains(&("limit", "wall-clock limit".to_string())));
        run.ended = Ended::Blocked;
        run.slept_ms = 8400;
        assert_eq!(
            line(&run),
            "wall 2.00 s, slept 8.40 s (not counted), CPU 0.02 s, peak memory not measured \
             (no cgroup on this machine); was blocked: neither reading input nor computing \
             (stopped) (idle limit)"
        );
        assert!(!ran(&RunSummary::not_run(Ended::BuildFailed, 3)));
    }

    #[test]
    fn every_format_shows_the_figures_where_people_read() {
        use crate::report::{exporter, Format, RenderOptions};
        // The sample's "replay" case timed out after 2 s (peak memory 2 MiB); "computer_wins"
        // passed in 41 ms.
        let result = crate::report::tests::sample();
        let render = |format| {
            String::from_utf8(
                exporter(format, RenderOptions::default())
                    .export(&result)
                    .expect("renders"),
            )
            .expect("utf-8")
        };
        let timeout = "wall 2.00 s, CPU 1.00 s, peak memory 2.0 MiB; timed out (wall-clock limit)";
        let text = render(Format::Text);
        assert!(text.contains(&format!("Resources: {timeout}")), "{text}");
        // A quick clean run is not worth a line in the text report.
        assert!(!text.contains("wall 0.04 s"), "{text}");
        let gradescope = render(Format::Gradescope);
        assert!(
            gradescope.contains(&format!("Resources: {timeout}")),
            "{gradescope}"
        );
        assert!(
            gradescope.contains(
                "Resources: wall 0.04 s, CPU 0.02 s, peak memory 2.0 MiB; exited with status 0"
            ),
            "{gradescope}"
        );
        let junit = render(Format::Junit);
        for property in [
            r#"<property name="wall_ms" value="2000"/>"#,
            r#"<property name="cpu_ms" value="1000"/>"#,
            r#"<property name="peak_memory_kib" value="2048"/>"#,
            r#"<property name="ended" value="timeout"/>"#,
            r#"<property name="limit" value="wall-clock limit"/>"#,
        ] {
            assert!(junit.contains(property), "{property}:\n{junit}");
        }
        // HTML: under the case that lost points for it; a quick passing run shows none.
        let html = render(Format::Html);
        assert!(
            html.contains(&format!("<p class=\"resources\">Resources: {timeout}</p>")),
            "{html}"
        );
        assert!(!html.contains("wall 0.04 s"), "{html}");
        let json = render(Format::Json);
        assert!(json.contains("\"peak_memory_kib\": 2048"), "{json}");
    }
}
