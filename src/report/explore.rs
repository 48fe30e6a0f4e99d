//! The text form of an exploration's result (`grade explore`); the JSON form is its serde form.

use std::fmt::Write as _;

use crate::escape::field;
use crate::explore::Exploration;

/// What `grade explore` prints: how much was played, and the shrunk difference if any (the
/// program's text escaped, as in every report).
pub fn render(exploration: &Exploration) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: explored {} game(s), {} line(s) typed, seed {}, in {:.1} s ({:.0} games/s)",
        exploration.assignment,
        exploration.games,
        exploration.steps,
        exploration.seed,
        exploration.wall_ms as f64 / 1000.0,
        exploration.games as f64 / (exploration.wall_ms.max(1) as f64 / 1000.0)
    );
    if let Some(case) = &exploration.case {
        let _ = writeln!(
            out,
            "Played as the case {case} plays them: its arguments, files, limits, end of input \
             and reference"
        );
    }
    if !exploration.coverage.is_empty() {
        let reached = exploration.coverage.iter().filter(|r| r.games > 0).count();
        let missed: Vec<&str> = exploration
            .coverage
            .iter()
            .filter(|r| r.games == 0)
            .map(|r| r.rule.as_str())
            .collect();
        let _ = write!(
            out,
            "Rules of the reference exercised: {reached} of {}",
            exploration.coverage.len()
        );
        if missed.is_empty() {
            let _ = writeln!(out);
        } else {
            let _ = writeln!(out, "; not reached: {}", missed.join(", "));
        }
    }
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
    if let Some(plan) = &finding.plan {
        let _ = writeln!(out, "Driven by: {}", field(plan));
    }
    if !finding.start_args.is_empty() {
        let _ = writeln!(
            out,
            "The program's own start (the reference replayed from it): {}",
            field(&finding.start_args.join(" "))
        );
    }
    let _ = writeln!(out, "Input:");
    for (number, line) in finding.input.iter().enumerate() {
        let _ = writeln!(out, "  {:>3}  {}", number + 1, field(line));
    }
    let _ = writeln!(
        out,
        "Check {} ({}): {}",
        finding.check.name,
        finding.check.kind,
        field(&finding.check.detail)
    );
    if let Some(difference) = &finding.check.difference {
        let _ = writeln!(
            out,
            "First difference at {} (after {} input line(s)):",
            difference.location, difference.inputs_before
        );
        let _ = writeln!(out, "  expected:");
        for line in field(&difference.expected).lines() {
            let _ = writeln!(out, "    │ {line}");
        }
        let _ = writeln!(out, "  got:");
        for line in field(&difference.actual).lines() {
            let _ = writeln!(out, "    │ {line}");
        }
    }
    let _ = writeln!(
        out,
        "Replay it (each line a shell command, from your program's folder):"
    );
    for command in &exploration.replay {
        let _ = writeln!(out, "    {}", field(command));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explore::Finding;
    use crate::results::{CheckResult, Difference};

    #[test]
    fn a_finding_is_shown_with_its_input_and_escaped_output() {
        let exploration = Exploration {
            assignment: "nim".into(),
            submission: "x".into(),
            seed: 1,
            games: 4,
            steps: 46,
            wall_ms: 2100,
            program: "python3 nim.py".into(),
            finding: Some(Finding {
                game: 3,
                original_lines: 23,
                input: vec!["n".into(), "4".into()],
                board_file: None,
                board_name: None,
                start_args: Vec::new(),
                plan: None,
                shrink_runs: 24,
                check: CheckResult {
                    rule: None,
                    name: "turn-order".into(),
                    kind: "lines".into(),
                    passed: false,
                    score: 0.0,
                    max_score: 1.0,
                    detail: "found 4".into(),
                    difference: Some(Difference {
                        location: "match 3".into(),
                        expected: "Cannot remove more than three matches.".into(),
                        actual: "\u{1b}[2JScore: 90/90".into(),
                        inputs_before: 2,
                        relaxation: None,
                        student_line: None,
                    }),
                },
                reference: String::new(),
                replay: Default::default(),
            }),
            replay: vec![
                "printf 'n\\n4\\n' | python3 nim.py   # your program".into(),
                "printf 'n\\n4\\n' | grade play nim   # the reference".into(),
            ],
            coverage: vec![
                crate::explore::RuleCoverage {
                    rule: "replay".into(),
                    games: 2,
                },
                crate::explore::RuleCoverage {
                    rule: "player wins".into(),
                    games: 0,
                },
            ],
            case: None,
            case_file: None,
        };
        let text = render(&exploration);
        assert!(
            text.contains("Rules of the reference exercised: 1 of 2; not reached: player wins"),
            "{text}"
        );
        assert!(
            text.contains(
                "Replay it (each line a shell command, from your program's folder):\n    \
                 printf 'n\\n4\\n' | python3 nim.py   # your program\n    \
                 printf 'n\\n4\\n' | grade play nim   # the reference\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("its 23 input line(s) shrank to 2 (24 runs)"),
            "{text}"
        );
        assert!(text.contains("    1  n\n    2  4\n"), "{text}");
        assert!(
            !text.contains('\u{1b}'),
            "no raw escape reaches the terminal: {text}"
        );
        let none = Exploration {
            finding: None,
            ..exploration
        };
        assert!(render(&none).contains("No difference from the reference found."));
        // 4 games in 2.1 s, worked by hand: about 2 a second.
        assert!(
            render(&none).contains("in 2.1 s (2 games/s)"),
            "{}",
            render(&none)
        );
    }
}
