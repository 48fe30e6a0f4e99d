//! The Game of M (handout 000, Python): "Your program must maintain a list for the game board
//! and alternate turns for the players - use a loop to repeat the taking of turns."

use tree_sitter::Node;

use super::{Requirement, Verdict};
use crate::analyze::{ancestor, descendants, Program, SourceFile, SourceLanguage};
use crate::results::Finding;

/// M's requirements on the code.
pub(super) const REQUIREMENTS: &[Requirement] = &[
    Requirement {
        name: "list-board",
        quote: "Your program must maintain a list for the game board",
        language: SourceLanguage::Python,
        points: 3.0,
        check: list_board,
    },
    Requirement {
        name: "loop-turns",
        quote: "use a loop to repeat the taking of turns",
        language: SourceLanguage::Python,
        points: 3.0,
        check: loop_turns,
    },
];

/// Whether an expression builds a list: `[…]`, `[… for …]`, `[x] * 10`, `list(…)`.
fn builds_list(file: &SourceFile, value: Node) -> bool {
    match value.kind() {
        "list" | "list_comprehension" => true,
        "binary_operator" => ["left", "right"]
            .iter()
            .filter_map(|side| value.child_by_field_name(side))
            .any(|side| matches!(side.kind(), "list" | "list_comprehension")),
        "call" => value
            .child_by_field_name("function")
            .is_some_and(|f| file.text_of(f) == "list"),
        _ => false,
    }
}

fn list_board(program: &Program) -> Verdict {
    let mut lists: Vec<(String, Finding)> = Vec::new();
    for (file, assignment) in program.all(&["assignment"]) {
        let (Some(left), Some(right)) = (
            assignment.child_by_field_name("left"),
            assignment.child_by_field_name("right"),
        ) else {
            continue;
        };
        if matches!(left.kind(), "identifier" | "attribute") && builds_list(file, right) {
            let name = file.text_of(left).to_string();
            let finding = file.finding(assignment, format!("list `{name}`"));
            lists.push((name, finding));
        }
    }
    // The board is the list whose elements the program sets: `board[i] = n`.
    for (file, assignment) in program.all(&["assignment"]) {
        let Some(left) = assignment
            .child_by_field_name("left")
            .filter(|l| l.kind() == "subscript")
        else {
            continue;
        };
        let Some(value) = left.child_by_field_name("value") else {
            continue;
        };
        let target = file.text_of(value);
        if let Some((name, created)) = lists.iter().find(|(name, _)| name == target) {
            let set = file.finding(assignment, format!("`{name}[…]` set"));
            return Verdict::pass(
                format!("the board is the list `{name}`"),
                vec![created.clone(), set],
            );
        }
    }
    let findings: Vec<Finding> = lists.into_iter().map(|(_, f)| f).collect();
    Verdict::fail(
        "no list whose elements are set (`board[i] = n`) was found: the board is not kept in a list",
        findings,
    )
}

/// The functions (by name) that call `input`, directly or through other functions.
fn input_functions(program: &Program) -> Vec<String> {
    let definitions = program.all(&["function_definition"]);
    let mut names: Vec<String> = Vec::new();
    loop {
        let before = names.len();
        for (file, definition) in &definitions {
            let name = definition
                .child_by_field_name("name")
                .map_or("", |n| file.text_of(n));
            if names.iter().any(|n| n == name) {
                continue;
            }
            let reads = descendants(*definition, &["call"]).into_iter().any(|call| {
                call.child_by_field_name("function").is_some_and(|f| {
                    let called = file.text_of(f);
                    called == "input" || names.iter().any(|n| n == called)
                })
            });
            if reads {
                names.push(name.to_string());
            }
        }
        if names.len() == before {
            return names;
        }
    }
}

fn loop_turns(program: &Program) -> Verdict {
    let readers = input_functions(program);
    let mut loops = Vec::new();
    for (file, call) in program.all(&["call"]) {
        let Some(function) = call.child_by_field_name("function") else {
            continue;
        };
        let called = file.text_of(function);
        if called != "input" && !readers.iter().any(|r| r == called) {
            continue;
        }
        if let Some(turn_loop) = ancestor(call, &["while_statement", "for_statement"]) {
            let kind = if turn_loop.kind() == "while_statement" {
                "while"
            } else {
                "for"
            };
            let finding = file.finding(
                turn_loop,
                format!("{kind} loop asking for moves (`{called}(…)`)"),
            );
            if !loops.contains(&finding) {
                loops.push(finding);
            }
        }
    }
    if loops.is_empty() {
        Verdict::fail(
            "no loop asks for the players' moves: turns are not taken in a loop",
            Vec::new(),
        )
    } else {
        Verdict::pass("turns are taken in a loop", loops)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::verdict;
    use crate::games::Assignment;

    fn check(name: &str, text: &str) -> super::Verdict {
        verdict(Assignment::M, name, "m.py", text)
    }

    const GOOD: &str = "EMPTY = ' '\n\ndef ask(prompt):\n    return int(input(prompt))\n\ndef main():\n    board = [EMPTY for _ in range(10)]\n    for turn in range(10):\n        n = ask('Your number? ')\n        board[n] = n\n\nmain()\n";
    const BAD: &str = "b0 = b1 = ' '\nn = int(input('Your number? '))\nif n == 1:\n    b0 = n\nword = 'x'\nletters = list(word)\n";

    #[test]
    fn list_board() {
        let good = check("list-board", GOOD);
        assert!(good.passed, "{good:?}");
        let places: Vec<String> = good.findings.iter().map(|f| f.place()).collect();
        assert_eq!(places, ["m.py:7", "m.py:10"]);
        let bad = check("list-board", BAD);
        assert!(!bad.passed);
        assert_eq!(bad.findings[0].place(), "m.py:6");
    }

    #[test]
    fn loop_turns() {
        let good = check("loop-turns", GOOD);
        assert!(good.passed, "{good:?}");
        assert_eq!(good.findings[0].place(), "m.py:8");
        assert!(!check("loop-turns", BAD).passed);
    }
}
