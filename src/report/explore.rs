//! The text form of an exploration's result (`grade explore`); the JSON form is its serde form.

use std::fmt::Write as _;

use crate::explore::Exploration;

/// What `grade explore` prints: how much was played, and the shrunk difference if any.
pub fn render(exploration: &Exploration) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: explored {} game(s), {} line(s) typed, seed {}, in {:.1} s",
        exploration.assignment,
        exploration.games,
        exploration.steps,
        exploration.seed,
        exploration.wall_ms as f64 / 1000.0
    );
    let Some(finding) = &exploration.finding else {
        let _ = writeln!(out, "No difference from the reference found.");
        return out;
    };
    let _ = writeln!(
        out,
        "\nGame {} differs from the reference; its {} input line(s) shrank to {} ({} runs):",
        finding.game,
        finding.original_lines,
        finding.input.len(),
        finding.shrink_runs
    );
    if let Some(board) = &finding.board_file {
        let _ = writeln!(
            out,
            "Board file ({}):",
            finding.board_name.as_deref().unwrap_or("board")
        );
        for line in board.lines() {
            let _ = writeln!(out, "    {line}");
        }
    }
    let _ = writeln!(out, "Input:");
    for (number, line) in finding.input.iter().enumerate() {
        let _ = writeln!(out, "  {:>3}  {line}", number + 1);
    }
    let _ = writeln!(
        out,
        "Check {} ({}): {}",
        finding.check.name, finding.check.kind, finding.check.detail
    );
    if let Some(difference) = &finding.check.difference {
        let _ = writeln!(
            out,
            "First difference at {} (after {} input line(s)):",
            difference.location, difference.inputs_before
        );
        let _ = writeln!(out, "  expected:");
        for line in difference.expected.lines() {
            let _ = writeln!(out, "    │ {line}");
        }
        let _ = writeln!(out, "  got:");
        for line in difference.actual.lines() {
            let _ = writeln!(out, "    │ {line}");
        }
    }
    out
}
