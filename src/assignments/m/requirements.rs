//! The Game of M (handout 000, Python): "Your program must maintain a list for the game board
//! and alternate turns for the players - use a loop to repeat the taking of turns."

use tree_sitter::Node;

use crate::analyze::requirements::{Requirement, Verdict};
use crate::analyze::{descendants, Program, SourceFile, SourceLanguage};
use crate::results::Finding;

/// M's requirements on the code.
pub(crate) const REQUIREMENTS: &[Requirement] = &[
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

/// Whether an expression builds a list: `[…]`, `[… for …]`, `[x] * 10`, `list(…)`, or a call
/// of one of `makers` (a function of the program that returns a new list, `make_board()`).
fn builds_list(file: &SourceFile, value: Node, makers: &[String]) -> bool {
    match value.kind() {
        "list" | "list_comprehension" => true,
        "binary_operator" => ["left", "right"]
            .iter()
            .filter_map(|side| value.child_by_field_name(side))
            .any(|side| matches!(side.kind(), "list" | "list_comprehension")),
        "call" => value.child_by_field_name("function").is_some_and(|f| {
            let called = file.text_of(f);
            called == "list" || makers.iter().any(|m| m == simple_name(called))
        }),
        _ => false,
    }
}

/// The functions of the program that return a new list: `return [EMPTY] * 10`, or a local
/// list they built and return (`cells = []` … `return cells`).
fn list_makers(program: &Program) -> Vec<String> {
    let mut makers = Vec::new();
    for (file, definition) in program.all(&["function_definition"]) {
        let local_lists: Vec<&str> = descendants(definition, &["assignment"])
            .into_iter()
            .filter(|a| {
                a.child_by_field_name("right")
                    .is_some_and(|r| builds_list(file, r, &[]))
            })
            .filter_map(|a| a.child_by_field_name("left"))
            .map(|l| file.text_of(l))
            .collect();
        let returns_list = descendants(definition, &["return_statement"])
            .into_iter()
            .filter_map(|r| r.named_child(0))
            .any(|v| builds_list(file, v, &[]) || local_lists.contains(&file.text_of(v)));
        if let (true, Some(name)) = (returns_list, definition.child_by_field_name("name")) {
            makers.push(file.text_of(name).to_string());
        }
    }
    makers
}

fn list_board(program: &Program) -> Verdict {
    let makers = list_makers(program);
    let mut lists: Vec<(String, Finding)> = Vec::new();
    for (file, assignment) in program.all(&["assignment"]) {
        let (Some(left), Some(right)) = (
            assignment.child_by_field_name("left"),
            assignment.child_by_field_name("right"),
        ) else {
            continue;
        };
        if matches!(left.kind(), "identifier" | "attribute") && builds_list(file, right, &makers) {
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
        // `self.cells[i] = n` sets the list made as `cells = […]` in the class, and the other
        // way round: compare the names without their object.
        let same = |name: &String| name == target || simple_name(name) == simple_name(target);
        if let Some((name, created)) = lists.iter().find(|(name, _)| same(name)) {
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

/// The last part of a called name (`self.ask` → `ask`, `io.read_move` → `read_move`).
fn simple_name(called: &str) -> &str {
    called.rsplit('.').next().unwrap_or(called)
}

/// Whether a call reads what the player types: `input(…)`, `sys.stdin.readline()` and the
/// like, a call of a reader (a function, method or lambda that reads, by its simple name), or
/// `next(stream)` of a reader's stream (a generator of tokens).
fn is_read(file: &SourceFile, call: Node, readers: &[String]) -> bool {
    let Some(function) = call.child_by_field_name("function") else {
        return false;
    };
    let called = file.text_of(function);
    if called == "input" || called.contains("stdin") {
        return true;
    }
    if readers.iter().any(|r| r == simple_name(called)) {
        return true;
    }
    // `next(stream)` / `stream.__next__()` where `stream` was made by a reader.
    let argument = call
        .child_by_field_name("arguments")
        .and_then(|a| a.named_child(0))
        .map(|a| file.text_of(a));
    match called {
        "next" => argument.is_some_and(|a| readers.iter().any(|r| r == simple_name(a))),
        _ => called
            .strip_suffix(".__next__")
            .is_some_and(|object| readers.iter().any(|r| r == simple_name(object))),
    }
}

/// Whether `node` reads input: a read call in it, or `sys.stdin` itself (`for line in
/// sys.stdin`, `iter(sys.stdin.read().split())`).
fn reads_input(file: &SourceFile, node: Node, readers: &[String]) -> bool {
    let stdin = |n: &Node| matches!(file.text_of(*n), "stdin" | "sys.stdin");
    if matches!(node.kind(), "identifier" | "attribute") && stdin(&node) {
        return true;
    }
    descendants(node, &["call"])
        .into_iter()
        .any(|call| is_read(file, call, readers))
        || descendants(node, &["attribute", "identifier"])
            .iter()
            .any(stdin)
}

/// The names (functions, methods, lambdas, streams) that read input, directly or through
/// one another: `def ask(p): return int(input(p))`, `tokens = iter(sys.stdin.read().split())`,
/// `stream = words()` of a generator `words` that reads.
fn input_functions(program: &Program) -> Vec<String> {
    let definitions = program.all(&["function_definition"]);
    let assignments = program.all(&["assignment"]);
    let mut names: Vec<String> = Vec::new();
    loop {
        let before = names.len();
        for (file, definition) in &definitions {
            let name = definition
                .child_by_field_name("name")
                .map_or("", |n| file.text_of(n));
            let body = definition.child_by_field_name("body");
            if !names.iter().any(|n| n == name)
                && body.is_some_and(|b| reads_input(file, b, &names))
            {
                names.push(name.to_string());
            }
        }
        for (file, assignment) in &assignments {
            let (Some(left), Some(right)) = (
                assignment.child_by_field_name("left"),
                assignment.child_by_field_name("right"),
            ) else {
                continue;
            };
            if !matches!(left.kind(), "identifier" | "attribute") {
                continue;
            }
            let name = simple_name(file.text_of(left));
            // A value read once (`n = int(input())`) is not a reader; a stream or a lambda is.
            let stream = match right.kind() {
                "lambda" => reads_input(file, right, &names),
                "call" => {
                    let called = right
                        .child_by_field_name("function")
                        .map_or("", |f| file.text_of(f));
                    (called == "iter" && reads_input(file, right, &names))
                        || names.iter().any(|n| n == simple_name(called))
                            && definitions.iter().any(|(f, d)| {
                                d.child_by_field_name("name")
                                    .is_some_and(|n| f.text_of(n) == simple_name(called))
                                    && !descendants(*d, &["yield"]).is_empty()
                            })
                }
                _ => false,
            };
            if stream && !names.iter().any(|n| n == name) {
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
    for (file, turn_loop) in program.all(&["while_statement", "for_statement"]) {
        let (kind, asks) = if turn_loop.kind() == "while_statement" {
            let body = turn_loop.child_by_field_name("body");
            let condition = turn_loop.child_by_field_name("condition");
            (
                "while",
                [body, condition]
                    .into_iter()
                    .flatten()
                    .any(|n| reads_input(file, n, &readers)),
            )
        } else {
            let body = turn_loop.child_by_field_name("body");
            let iterable = turn_loop.child_by_field_name("right");
            (
                "for",
                [body, iterable]
                    .into_iter()
                    .flatten()
                    .any(|n| reads_input(file, n, &readers)),
            )
        };
        if asks {
            loops.push(file.finding(turn_loop, format!("{kind} loop asking for moves")));
        }
    }
    if loops.is_empty() {
        Verdict::fail(
            "no loop asks for the players' moves (no input(), sys.stdin or reading helper is \
             called in a for or while loop): turns are not taken in a loop",
            Vec::new(),
        )
    } else {
        Verdict::pass("turns are taken in a loop", loops)
    }
}

#[cfg(test)]
mod tests {
    use crate::analyze::requirements::tests::verdict;

    fn check(name: &str, text: &str) -> super::Verdict {
        verdict(super::REQUIREMENTS, name, "m.py", text)
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

    #[test]
    fn turns_read_through_a_token_stream_or_a_method_are_a_loop() {
        // Issue 20: a `for` loop of turns reading through a generator of tokens.
        let stream = "import sys\n\ndef words():\n    for line in sys.stdin:\n        yield from line.split()\n\ndef main():\n    board = [None] * 10\n    moves = words()\n    for turn in range(10):\n        n = int(next(moves))\n        board[n] = n\n\nmain()\n";
        let verdict = check("loop-turns", stream);
        assert!(verdict.passed, "{verdict:?}");
        assert!(
            verdict.findings.iter().any(|f| f.place() == "m.py:10"),
            "{verdict:?}"
        );
        // A method of a class, called as `self.ask`.
        let method = "class Game:\n    def ask(self, prompt):\n        return int(input(prompt).split()[0])\n\n    def play(self):\n        for turn in range(10):\n            self.ask('Number? ')\n\nGame().play()\n";
        assert!(check("loop-turns", method).passed);
        // `while True` with `break`, the tokens from one read of the whole input.
        let tokens = "import sys\ntokens = iter(sys.stdin.read().split())\nturn = 0\nwhile True:\n    n = next(tokens)\n    turn += 1\n    if turn == 10:\n        break\n";
        assert!(check("loop-turns", tokens).passed);
        // A value read once before a loop is not a loop asking for moves.
        let once = "n = int(input())\nfor i in range(3):\n    print(n)\n";
        assert!(!check("loop-turns", once).passed);
    }

    #[test]
    fn a_board_made_by_a_function_or_kept_in_a_class_is_a_list() {
        let made = "def new_board():\n    cells = []\n    for _ in range(10):\n        cells.append(None)\n    return cells\n\nboard = new_board()\nboard[3] = 7\n";
        let verdict = check("list-board", made);
        assert!(verdict.passed, "{verdict:?}");
        assert_eq!(verdict.findings[0].place(), "m.py:7");
        let class = "class Board:\n    cells = [None] * 10\n\n    def place(self, i, n):\n        self.cells[i] = n\n";
        assert!(check("list-board", class).passed);
        // A string board is still no list.
        let text = "board = ' ' * 10\nboard = board[:3] + '7' + board[4:]\n";
        assert!(!check("list-board", text).passed);
    }
}
