//! Nim (handout 004, C++): "Use do while loops when asking the user for inputs." and "Use a
//! for loop to print the matches in groups of five."

use tree_sitter::Node;

use crate::analyze::requirements::cpp::{
    called_in_loops, called_name, enclosing_function, function_name, innermost_loop, input_reads,
    simple_name,
};
use crate::analyze::requirements::{Requirement, Verdict};
use crate::analyze::{ancestor, Program, SourceFile, SourceLanguage};
use crate::results::Finding;

/// Nim's requirements on the code.
pub(crate) const REQUIREMENTS: &[Requirement] = &[
    Requirement {
        name: "do-while-input",
        quote: "Use do while loops when asking the user for inputs.",
        language: SourceLanguage::Cpp,
        points: 3.0,
        check: do_while_input,
    },
    Requirement {
        name: "for-loop-matches",
        quote: "Use a for loop to print the matches in groups of five.",
        language: SourceLanguage::Cpp,
        points: 3.0,
        check: for_loop_matches,
    },
];

/// The simple name of the function `node` is in ("" at file scope).
/// A lambda is named by the variable it is stored in (`auto ask = [&] { cin >> n; };`).
fn function_of(file: &SourceFile, node: Node) -> String {
    let Some(function) = enclosing_function(node) else {
        return String::new();
    };
    if function.kind() == "function_definition" {
        return simple_name(&function_name(file, function)).to_string();
    }
    let holder = function.parent();
    let name = match holder.map(|h| h.kind()) {
        Some("init_declarator") => holder.and_then(|h| h.child_by_field_name("declarator")),
        Some("assignment_expression") => holder.and_then(|h| h.child_by_field_name("left")),
        _ => None,
    };
    name.map(|n| file.text_of(n).to_string())
        .unwrap_or_default()
}

/// Whether `node` runs inside a loop of one of `kinds`: its own innermost loop is one, or it
/// is in no loop and its function is called from inside one (a helper such as `readInt`).
fn in_loop_kind(file: &SourceFile, node: Node, kinds: &[&str], called_in: &[String]) -> bool {
    match innermost_loop(node) {
        Some(l) => kinds.contains(&l.kind()),
        None => called_in.contains(&function_of(file, node)),
    }
}

/// Whether a read only throws away the rest of a line, as in `while ((c = getchar()) != '\n'
/// && c != EOF);`: it is in the condition of a `while`/`for` loop whose body is empty or whose
/// condition looks for the end of the line. That loop does not ask the user for anything.
fn clears_line(file: &SourceFile, read: Node) -> bool {
    let Some(clearing) =
        innermost_loop(read).filter(|l| matches!(l.kind(), "while_statement" | "for_statement"))
    else {
        return false;
    };
    let Some(condition) = clearing.child_by_field_name("condition") else {
        return false;
    };
    let in_condition =
        condition.start_byte() <= read.start_byte() && read.end_byte() <= condition.end_byte();
    let empty_body = clearing
        .child_by_field_name("body")
        .is_none_or(|b| b.named_child_count() == 0);
    let text = file.text_of(condition);
    in_condition && (empty_body || text.contains("'\\n'") || text.contains("\"\\n\""))
}

/// Whether a read only keeps the console window open once the game is over (`cin.get();`,
/// `getchar();`, `getline(cin, pause);` with `pause` never used again): it is in no loop and
/// its value is thrown away. That read asks the user for nothing.
fn keeps_the_window_open(file: &SourceFile, read: Node) -> bool {
    if innermost_loop(read).is_some()
        || read.parent().is_none_or(|p| p.kind() != "expression_statement")
    {
        return false;
    }
    // What the read stores into: `cin >> x` or `getline(cin, x)`; nothing for `cin.get()`.
    let target = match read.kind() {
        "binary_expression" => read.child_by_field_name("right"),
        _ => read
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(1)),
    };
    let Some(target) = target else {
        return true;
    };
    if target.kind() != "identifier" {
        return false;
    }
    let name = file.text_of(target);
    let scope = enclosing_function(read).map_or(0..file.text.len(), |f| f.byte_range());
    let uses = file
        .all(&["identifier"])
        .into_iter()
        .filter(|n| scope.contains(&n.start_byte()) && file.text_of(*n) == name)
        .count();
    // Its declaration and this read.
    uses <= 2
}

/// The functions whose reads count as asked in a do-while loop: those called from one, and
/// the helpers they call outside any loop of their own (`askRemove` → `readNumber` →
/// `scanf`), across all files.
fn covered_by_do_while(program: &Program) -> Vec<String> {
    let mut covered = called_in_loops(&program.files, &["do_statement"]);
    loop {
        let before = covered.len();
        for file in &program.files {
            for call in file.all(&["call_expression"]) {
                if innermost_loop(call).is_some() {
                    continue;
                }
                let caller = function_of(file, call);
                let callee = called_name(file, call).to_string();
                if !caller.is_empty() && covered.contains(&caller) && !covered.contains(&callee) {
                    covered.push(callee);
                }
            }
        }
        if covered.len() == before {
            return covered;
        }
    }
}

fn do_while_input(program: &Program) -> Verdict {
    let called_in_do = covered_by_do_while(program);
    let mut covered = Vec::new();
    let mut uncovered = Vec::new();
    let mut clearing = Vec::new();
    for file in &program.files {
        for read in input_reads(file) {
            let text = file
                .text_of(read)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if clears_line(file, read) {
                clearing.push(file.finding(
                    read,
                    format!("`{text}` only clears the rest of a line (not asking for input)"),
                ));
            } else if keeps_the_window_open(file, read) {
                clearing.push(file.finding(
                    read,
                    format!(
                        "`{text}` only keeps the window open (its value is not used: not \
                         asking for input)"
                    ),
                ));
            } else if in_loop_kind(file, read, &["do_statement"], &called_in_do) {
                covered.push(file.finding(read, format!("`{text}` is read in a do-while loop")));
            } else {
                let how = match innermost_loop(read).map(|l| l.kind()) {
                    Some("while_statement") => "in a while loop, not a do-while loop".to_string(),
                    Some("for_statement") | Some("for_range_loop") => {
                        "in a for loop, not a do-while loop".to_string()
                    }
                    _ => match function_of(file, read).as_str() {
                        "" | "main" => "outside any loop".to_string(),
                        helper => {
                            format!("in `{helper}`, which is not called from a do-while loop")
                        }
                    },
                };
                uncovered.push(file.finding(read, format!("`{text}` is read {how}")));
            }
        }
    }
    if covered.is_empty() && uncovered.is_empty() {
        return Verdict::fail(
            "no input read (cin >>, getline, scanf) was found",
            Vec::new(),
        );
    }
    if uncovered.is_empty() {
        let detail = format!("all {} input read(s) are in do-while loops", covered.len());
        covered.extend(clearing);
        Verdict::pass(detail, covered)
    } else {
        Verdict::fail(
            format!(
                "{} of {} input read(s) are not in a do-while loop",
                uncovered.len(),
                uncovered.len() + covered.len()
            ),
            uncovered,
        )
    }
}

/// Whether a literal prints a match: a string or character literal with `|` in it, not
/// part of a condition (`c == '|'`).
fn prints_match(file: &SourceFile, literal: Node) -> bool {
    file.text_of(literal).contains('|')
        && ancestor(literal, &["condition_clause", "parenthesized_expression"]).is_none()
}

fn for_loop_matches(program: &Program) -> Verdict {
    let for_loops = ["for_statement", "for_range_loop"];
    let called_in_for = called_in_loops(&program.files, &for_loops);
    let mut in_for: Vec<Finding> = Vec::new();
    let mut elsewhere: Vec<Finding> = Vec::new();
    for file in &program.files {
        for literal in file.all(&["string_literal", "char_literal", "raw_string_literal"]) {
            if !prints_match(file, literal) {
                continue;
            }
            let text = file.text_of(literal);
            let inside_for = ancestor(literal, &for_loops)
                .is_some_and(|l| enclosing_function(l) == enclosing_function(literal))
                || in_loop_kind(file, literal, &for_loops, &called_in_for);
            if inside_for {
                in_for.push(file.finding(literal, format!("{text} printed in a for loop")));
            } else {
                elsewhere.push(file.finding(literal, format!("{text} printed outside a for loop")));
            }
        }
    }
    if !in_for.is_empty() {
        Verdict::pass("the matches are printed in a for loop", in_for)
    } else if elsewhere.is_empty() {
        Verdict::fail("no `|` is printed anywhere in the code", Vec::new())
    } else {
        Verdict::fail("the matches `|` are not printed in a for loop", elsewhere)
    }
}

#[cfg(test)]
mod tests {
    use crate::analyze::requirements::tests::verdict;

    fn check(name: &str, text: &str) -> super::Verdict {
        verdict(super::REQUIREMENTS, name, "nim.cpp", text)
    }

    const GOOD: &str = r#"#include <iostream>
using namespace std;
int readCount() {
    int n;
    cin >> n;
    return n;
}
void show(int matches) {
    for (int i = 1; i <= matches; i++) {
        cout << '|';
        if (i % 5 == 0) cout << ' ';
    }
}
int main() {
    char again;
    do {
        int n;
        do { n = readCount(); } while (n < 1 || n > 3);
        show(21 - n);
        do { cout << "Again? "; cin >> again; } while (again != 'y' && again != 'n');
    } while (again == 'y');
}
"#;

    const BAD: &str = r#"#include <iostream>
#include <string>
using namespace std;
int main() {
    int matches = 21, n;
    string line;
    while (!(cin >> n)) { cin.clear(); }
    getline(cin, line);
    int i = 0;
    while (i < matches) { cout << "|"; i++; }
    if (line[0] == '|') return 1;
}
"#;

    #[test]
    fn do_while_input() {
        let good = check("do-while-input", GOOD);
        assert!(good.passed, "{good:?}");
        assert_eq!(good.findings.len(), 2);
        let bad = check("do-while-input", BAD);
        assert!(!bad.passed);
        let lines: Vec<(Option<usize>, &str)> = bad
            .findings
            .iter()
            .map(|f| (f.line, f.message.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                (
                    Some(7),
                    "`cin >> n` is read in a while loop, not a do-while loop"
                ),
                (Some(8), "`getline(cin, line)` is read outside any loop"),
            ]
        );
    }

    #[test]
    fn a_final_pause_is_not_asking_for_input() {
        let paused = |pause: &str| {
            let end_of_main = "    } while (again == 'y');\n}";
            let text = GOOD.replacen(end_of_main, &format!("    }} while (again == 'y');\n    {pause}\n}}"), 1);
            assert_ne!(text, GOOD, "GOOD's main ends with its replay loop");
            check("do-while-input", &text)
        };
        for pause in [
            "cin.get();",
            "std::cin.get();",
            "getchar();",
            "string wait; getline(cin, wait);",
            "char c; cin >> c;",
        ] {
            let verdict = paused(pause);
            assert!(verdict.passed, "{pause}: {verdict:?}");
        }
        // A read whose value is used is a question, pause or not.
        let verdict = paused("string answer; getline(cin, answer); if (answer == \"y\") main();");
        assert!(!verdict.passed, "{verdict:?}");
    }

    #[test]
    fn for_loop_matches() {
        let good = check("for-loop-matches", GOOD);
        assert!(good.passed, "{good:?}");
        assert_eq!(good.findings[0].line, Some(10));
        let bad = check("for-loop-matches", BAD);
        assert!(!bad.passed);
        assert_eq!(bad.findings.len(), 1, "{bad:?}");
        assert_eq!(bad.findings[0].line, Some(10));
    }

    #[test]
    fn a_loop_clearing_the_rest_of_a_line_asks_for_nothing() {
        // Issue 20: the usual C idiom after scanf, in a helper called from do-while loops
        // through another helper.
        let text = r#"#include <cstdio>
#include <cstdlib>
void clearLine() {
    int c;
    while ((c = getchar()) != '\n' && c != EOF);
}
bool token(int* n) {
    int got = scanf("%d", n);
    if (got == EOF) exit(0);
    clearLine();
    return got == 1;
}
bool number(int* n) { return token(n); }
int main() {
    int n;
    do { printf("Remove (1 - 3): "); } while (!number(&n) || n < 1 || n > 3);
    do { n = getchar(); } while (n != 'y' && n != 'n');
    while (getchar() != '\n') {}
}
"#;
        let verdict = check("do-while-input", text);
        assert!(verdict.passed, "{verdict:?}");
        assert_eq!(verdict.detail, "all 2 input read(s) are in do-while loops");
        let clearing: Vec<Option<usize>> = verdict
            .findings
            .iter()
            .filter(|f| f.message.contains("only clears the rest of a line"))
            .map(|f| f.line)
            .collect();
        assert_eq!(clearing, [Some(5), Some(18)]);
        // A while loop that does more than clear a line still asks for input.
        let asking = "int main() { int n; while (scanf(\"%d\", &n) != 1) { puts(\"Again\"); } }\n";
        assert!(!check("do-while-input", asking).passed);
    }

    #[test]
    fn a_lambda_called_from_a_do_while_loop_reads_there() {
        let text = "#include <iostream>\nusing namespace std;\nint main() {\n    auto ask = [&]() { int n; cin >> n; return n; };\n    int n;\n    do { n = ask(); } while (n < 1 || n > 3);\n}\n";
        let verdict = check("do-while-input", text);
        assert!(verdict.passed, "{verdict:?}");
        let outside = "#include <iostream>\nusing namespace std;\nint main() {\n    auto ask = [&]() { int n; cin >> n; return n; };\n    int n = ask();\n}\n";
        assert!(!check("do-while-input", outside).passed);
    }
}
