//! Connect6 (handout 002, C++): "Requirements: … Include suitable comments as documentation;
//! Free of compilation errors and warnings; Only constant global variables allowed; At least
//! four functions (including main()); At least two functions should have array parameter(s)."
//! and "We can simply modify the board size by change a single variable N."

use tree_sitter::Node;

use crate::analyze::requirements::cpp::{function_declarator, function_name, simple_name};
use crate::analyze::requirements::{Requirement, Verdict};
use crate::analyze::{ancestor, descendants, Program, SourceFile, SourceLanguage};
use crate::results::Finding;

/// Connect6's requirements on the code.
pub(crate) const REQUIREMENTS: &[Requirement] = &[
    Requirement {
        name: "warnings",
        quote: "Free of compilation errors and warnings;",
        language: SourceLanguage::Cpp,
        points: 2.0,
        check: warnings,
    },
    Requirement {
        name: "const-globals",
        quote: "Only constant global variables allowed;",
        language: SourceLanguage::Cpp,
        points: 2.0,
        check: const_globals,
    },
    Requirement {
        name: "four-functions",
        quote: "At least four functions (including main());",
        language: SourceLanguage::Cpp,
        points: 2.0,
        check: four_functions,
    },
    Requirement {
        name: "array-params",
        quote: "At least two functions should have array parameter(s).",
        language: SourceLanguage::Cpp,
        points: 2.0,
        check: array_params,
    },
    Requirement {
        name: "comments",
        quote: "Include suitable comments as documentation;",
        language: SourceLanguage::Cpp,
        points: 1.0,
        check: comments,
    },
    Requirement {
        name: "board-size-constant",
        quote: "We can simply modify the board size by change a single variable N.",
        language: SourceLanguage::Cpp,
        points: 1.0,
        check: board_size_constant,
    },
];

/// The board size the handout fixes.
const HANDOUT_SIZE: &str = "19";

fn warnings(program: &Program) -> Verdict {
    let findings = program.warnings.clone();
    if program.build_failed {
        return Verdict::fail("the program did not compile", findings);
    }
    match findings.len() {
        0 => Verdict::pass("g++ -Wall -Wextra printed no warning", findings),
        n => Verdict::fail(
            format!("g++ -Wall -Wextra printed {n} warning(s)"),
            findings,
        ),
    }
}

/// Whether a declaration is at file scope (possibly inside namespaces or `extern "C"`).
fn at_file_scope(node: Node) -> bool {
    ancestor(
        node,
        &[
            "function_definition",
            "compound_statement",
            "field_declaration_list",
            "lambda_expression",
            "parameter_list",
        ],
    )
    .is_none()
}

/// Whether a declaration's specifiers make it constant (`const`, `constexpr`).
fn is_const(file: &SourceFile, declaration: Node) -> bool {
    let mut cursor = declaration.walk();
    let constant = declaration.children(&mut cursor).any(|child| {
        matches!(child.kind(), "type_qualifier" | "storage_class_specifier")
            && matches!(file.text_of(child), "const" | "constexpr")
    });
    constant
}

/// The declarators of a declaration that declare variables (not function prototypes).
fn variable_declarators(declaration: Node) -> Vec<Node> {
    let mut cursor = declaration.walk();
    declaration
        .children_by_field_name("declarator", &mut cursor)
        .filter(|d| {
            let inner = if d.kind() == "init_declarator" {
                d.child_by_field_name("declarator")
            } else {
                Some(*d)
            };
            inner.is_some_and(|i| descendants(i, &["function_declarator"]).is_empty())
        })
        .collect()
}

/// The global variables of the program: (file, declaration, declarator without initialiser).
fn globals(program: &Program) -> Vec<(&SourceFile, Node<'_>, Node<'_>)> {
    let mut found = Vec::new();
    for (file, declaration) in program.all(&["declaration"]) {
        if !at_file_scope(declaration) {
            continue;
        }
        for declarator in variable_declarators(declaration) {
            let name = if declarator.kind() == "init_declarator" {
                declarator
                    .child_by_field_name("declarator")
                    .unwrap_or(declarator)
            } else {
                declarator
            };
            found.push((file, declaration, name));
        }
    }
    found
}

fn const_globals(program: &Program) -> Verdict {
    let mut findings = Vec::new();
    let mut constants = 0;
    for (file, declaration, name) in globals(program) {
        if is_const(file, declaration) {
            constants += 1;
            continue;
        }
        let type_text = declaration
            .child_by_field_name("type")
            .map_or("", |t| file.text_of(t));
        findings.push(file.finding(
            declaration,
            format!("non-const global `{type_text} {}`", file.text_of(name)),
        ));
    }
    if findings.is_empty() {
        Verdict::pass(
            format!("every global variable is constant ({constants} constant(s))"),
            Vec::new(),
        )
    } else {
        Verdict::fail(
            format!("{} global variable(s) are not constant", findings.len()),
            findings,
        )
    }
}

/// Every function definition of the program with its name.
fn functions(program: &Program) -> Vec<(&SourceFile, Node<'_>, String)> {
    program
        .all(&["function_definition"])
        .into_iter()
        .map(|(file, node)| {
            let name = function_name(file, node);
            (file, node, name)
        })
        .collect()
}

fn four_functions(program: &Program) -> Verdict {
    let functions = functions(program);
    let has_main = functions.iter().any(|(_, _, name)| name == "main");
    let findings: Vec<Finding> = functions
        .iter()
        .map(|(file, node, name)| file.finding(*node, format!("function `{name}`")))
        .collect();
    let count = functions.len();
    if count >= 4 && has_main {
        Verdict::pass(format!("{count} functions, including main"), findings)
    } else if !has_main {
        Verdict::fail(format!("{count} function(s), and no main"), findings)
    } else {
        Verdict::fail(
            format!("only {count} function(s) (including main); the handout asks for four"),
            findings,
        )
    }
}

/// Whether a parameter is an array (`char b[][N]`, `std::array<…>`).
fn is_array_parameter(file: &SourceFile, parameter: Node) -> bool {
    let declared_array = parameter
        .child_by_field_name("declarator")
        .is_some_and(|d| !descendants(d, &["array_declarator"]).is_empty());
    let array_type = parameter.child_by_field_name("type").is_some_and(|t| {
        let text = file.text_of(t).trim_start_matches("std::");
        text.starts_with("array<") || text.starts_with("array <")
    });
    declared_array || array_type
}

fn array_params(program: &Program) -> Verdict {
    let mut findings = Vec::new();
    for (file, node, name) in functions(program) {
        let Some(parameters) =
            function_declarator(node).and_then(|d| d.child_by_field_name("parameters"))
        else {
            continue;
        };
        let arrays: Vec<&str> = descendants(
            parameters,
            &["parameter_declaration", "optional_parameter_declaration"],
        )
        .into_iter()
        .filter(|p| is_array_parameter(file, *p))
        .map(|p| file.text_of(p))
        .collect();
        if !arrays.is_empty() {
            findings.push(file.finding(
                node,
                format!("`{}` takes {}", simple_name(&name), arrays.join(", ")),
            ));
        }
    }
    match findings.len() {
        n if n >= 2 => Verdict::pass(format!("{n} functions have array parameters"), findings),
        n => Verdict::fail(
            format!("{n} function(s) have array parameters; the handout asks for two"),
            findings,
        ),
    }
}

/// Whether a function is documented: a comment just before it or inside it.
fn documented(function: Node) -> bool {
    let before = function.prev_sibling().is_some_and(|p| {
        p.kind() == "comment" && p.end_position().row + 2 >= function.start_position().row
    });
    before || !descendants(function, &["comment"]).is_empty()
}

fn comments(program: &Program) -> Verdict {
    let comment_count = program.all(&["comment"]).len();
    let functions = functions(program);
    let undocumented: Vec<Finding> = functions
        .iter()
        .filter(|(_, node, _)| !documented(*node))
        .map(|(file, node, name)| file.finding(*node, format!("function `{name}` has no comment")))
        .collect();
    let documented_count = functions.len() - undocumented.len();
    if comment_count == 0 {
        return Verdict::fail("the program has no comment at all", undocumented);
    }
    if documented_count * 2 >= functions.len() {
        Verdict::pass(
            format!(
                "{comment_count} comment(s); {documented_count} of {} functions documented",
                functions.len()
            ),
            undocumented,
        )
    } else {
        Verdict::fail(
            format!(
                "only {documented_count} of {} functions have a comment before or inside them",
                functions.len()
            ),
            undocumented,
        )
    }
}

/// A constant that holds the board size: its name, and the node that defines it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizeConstant {
    /// The file it is defined in.
    pub file: String,
    /// Its name (`N`).
    pub name: String,
    /// The 1-based line of its definition.
    pub line: usize,
    /// The byte range of the value `19` in the file, to rebuild with another size.
    pub value: std::ops::Range<usize>,
}

/// The constants whose value is the handout's board size, 19: `const int N = 19;`,
/// `constexpr int N = 19;`, `#define N 19`, `enum { N = 19 }`.
pub fn size_constants(program: &Program) -> Vec<SizeConstant> {
    size_constants_of(program, HANDOUT_SIZE)
}

/// The constants whose value is `size` (a course's variant may give the board another N),
/// in the forms [`size_constants`] reads.
pub fn size_constants_of(program: &Program, size: &str) -> Vec<SizeConstant> {
    let mut found = Vec::new();
    for (file, declaration, name) in globals(program) {
        if !is_const(file, declaration) {
            continue;
        }
        let value = descendants(declaration, &["init_declarator"])
            .into_iter()
            .find(|d| d.child_by_field_name("declarator") == Some(name))
            .and_then(|d| d.child_by_field_name("value"))
            .map(|v| {
                if v.kind() == "initializer_list" {
                    v.named_child(0).unwrap_or(v)
                } else {
                    v
                }
            });
        if let Some(value) =
            value.filter(|v| v.kind() == "number_literal" && file.text_of(*v) == size)
        {
            found.push(SizeConstant {
                file: file.path.clone(),
                name: file.text_of(name).to_string(),
                line: SourceFile::line_of(declaration),
                value: value.byte_range(),
            });
        }
    }
    for (file, define) in program.all(&["preproc_def"]) {
        let (Some(name), Some(value)) = (
            define.child_by_field_name("name"),
            define.child_by_field_name("value"),
        ) else {
            continue;
        };
        // The macro's text may carry a comment: `#define N 19  // board size`.
        let text = file.text_of(value);
        let code = text[..text.find("//").or(text.find("/*")).unwrap_or(text.len())].trim();
        if code == size {
            let start = value.start_byte() + file.text_of(value).find(size).unwrap_or(0);
            found.push(SizeConstant {
                file: file.path.clone(),
                name: file.text_of(name).to_string(),
                line: SourceFile::line_of(define),
                value: start..start + size.len(),
            });
        }
    }
    for (file, enumerator) in program.all(&["enumerator"]) {
        let (Some(name), Some(value)) = (
            enumerator.child_by_field_name("name"),
            enumerator.child_by_field_name("value"),
        ) else {
            continue;
        };
        if value.kind() == "number_literal" && file.text_of(value) == size {
            found.push(SizeConstant {
                file: file.path.clone(),
                name: file.text_of(name).to_string(),
                line: SourceFile::line_of(enumerator),
                value: value.byte_range(),
            });
        }
    }
    found.sort_by(|a, b| (&a.file, a.line).cmp(&(&b.file, b.line)));
    found
}

/// Literals that spell the size out instead of using the constant: `19`, `18` (N - 1) and the
/// last column `'S'`, outside the constant's own definition.
fn hard_coded_sizes(program: &Program, constants: &[SizeConstant]) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (file, literal) in program.all(&["number_literal", "char_literal"]) {
        let text = file.text_of(literal);
        let spelled = matches!(text, "19" | "18" | "'S'" | "'s'");
        let defining = constants
            .iter()
            .any(|c| c.file == file.path && c.value.contains(&literal.start_byte()));
        let finding = file.finding(literal, format!("the board size written out as {text}"));
        // One finding per line and spelling (`char b[19][19]` is one place).
        if spelled
            && !defining
            && ancestor(literal, &["preproc_def"]).is_none()
            && !findings.contains(&finding)
        {
            findings.push(finding);
        }
    }
    findings
}

fn board_size_constant(program: &Program) -> Verdict {
    let constants = size_constants(program);
    let place = |c: &SizeConstant| Finding {
        file: c.file.clone(),
        line: Some(c.line),
        message: format!("board size constant `{} = {HANDOUT_SIZE}`", c.name),
    };
    let mut findings: Vec<Finding> = constants.iter().map(place).collect();
    let spelled = hard_coded_sizes(program, &constants);
    match constants.len() {
        0 => Verdict::fail(
            "no constant holds the board size 19: changing one variable cannot resize the board",
            spelled,
        ),
        1 if spelled.is_empty() => Verdict::pass(
            format!(
                "the board size is the single constant `{}`",
                constants[0].name
            ),
            findings,
        ),
        1 => {
            findings.extend(spelled);
            Verdict::fail(
                format!(
                    "the board size is the constant `{}`, but it is also written out elsewhere",
                    constants[0].name
                ),
                findings,
            )
        }
        n => Verdict::fail(
            format!("{n} constants equal 19: the board size is not a single variable"),
            findings,
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::analyze::requirements::tests::verdict;

    const GOOD: &str = r#"#include <iostream>
using namespace std;
const int N = 19;          // the board size
const char EMPTY = '.';

// Prints the board.
void show(const char board[][N]) {
    for (int r = 0; r < N; r++) { for (int c = 0; c < N; c++) cout << board[r][c]; cout << '\n'; }
}

// True when (r, c) is on the board and empty.
bool free_cell(const char board[N][N], int r, int c) {
    return r >= 0 && r < N && c >= 0 && c < N && board[r][c] == EMPTY;
}

int count(int a) { return a; }

/* The game. */
int main() {
    char board[N][N];
    show(board);
    return free_cell(board, 0, 0) ? count(0) : 1;
}
"#;

    const BAD: &str = r#"#include <iostream>
int turn = 0;
char board[19][19];
static int moves, *last;
int f(int);
void show() { for (int i = 0; i < 19; i++) std::cout << board[i][0]; }
int main() { show(); return 0; }
"#;

    fn check(name: &str, text: &str) -> super::Verdict {
        verdict(super::REQUIREMENTS, name, "connect6.cpp", text)
    }

    #[test]
    fn const_globals() {
        assert!(check("const-globals", GOOD).passed);
        let bad = check("const-globals", BAD);
        assert!(!bad.passed);
        let places: Vec<String> = bad
            .findings
            .iter()
            .map(|f| format!("{} at {}", f.message, f.place()))
            .collect();
        assert_eq!(
            places,
            [
                "non-const global `int turn` at connect6.cpp:2",
                "non-const global `char board[19][19]` at connect6.cpp:3",
                "non-const global `int moves` at connect6.cpp:4",
                "non-const global `int *last` at connect6.cpp:4",
            ]
        );
    }

    #[test]
    fn four_functions_and_array_params() {
        assert!(check("four-functions", GOOD).passed);
        let bad = check("four-functions", BAD);
        assert!(!bad.passed);
        assert_eq!(
            bad.detail,
            "only 2 function(s) (including main); the handout asks for four"
        );
        let arrays = check("array-params", GOOD);
        assert!(arrays.passed, "{arrays:?}");
        assert_eq!(arrays.findings.len(), 2);
        assert_eq!(arrays.findings[0].line, Some(7));
        assert!(!check("array-params", BAD).passed);
    }

    #[test]
    fn comments() {
        assert!(check("comments", GOOD).passed);
        let bad = check("comments", BAD);
        assert_eq!(bad.detail, "the program has no comment at all");
    }

    #[test]
    fn board_size_constant() {
        let good = check("board-size-constant", GOOD);
        assert!(good.passed, "{good:?}");
        assert_eq!(good.findings[0].line, Some(3));
        let bad = check("board-size-constant", BAD);
        assert!(!bad.passed);
        // `char board[19][19]` (line 3, once) and `i < 19` (line 6).
        let lines: Vec<Option<usize>> = bad.findings.iter().map(|f| f.line).collect();
        assert_eq!(lines, [Some(3), Some(6)], "{bad:?}");
        let define = check(
            "board-size-constant",
            "#define SIZE 19\nint main() { return SIZE; }\n",
        );
        assert!(define.passed, "{define:?}");
        // Issue 20: a comment after the macro's value is no part of it.
        for commented in [
            "#define N 19  // the board is N x N",
            "#define N 19 /* size */",
        ] {
            let text = format!("{commented}\nint main() {{ return N; }}\n");
            let verdict = check("board-size-constant", &text);
            assert!(verdict.passed, "{commented}: {verdict:?}");
        }
        let twice = check(
            "board-size-constant",
            "const int N = 19;\nint main() { for (int i = 0; i < N; i++) if (i == 18) return 1; }\n",
        );
        assert!(!twice.passed);
        assert_eq!(twice.findings[1].line, Some(2));
    }
}
