//! What C++ requirements share: functions, their names and parameters, reads and loops.

use tree_sitter::Node;

use crate::analyze::{ancestor, descendants, SourceFile};

/// Node kinds that are loops.
pub(super) const LOOPS: &[&str] = &[
    "do_statement",
    "while_statement",
    "for_statement",
    "for_range_loop",
];

/// The function declarator of a function definition (through pointer and reference
/// declarators).
pub(crate) fn function_declarator(definition: Node) -> Option<Node> {
    let declarator = definition.child_by_field_name("declarator")?;
    descendants(declarator, &["function_declarator"])
        .into_iter()
        .next()
}

/// The name of a function definition as written (`main`, `Board::show`).
pub(crate) fn function_name(file: &SourceFile, definition: Node) -> String {
    function_declarator(definition)
        .and_then(|d| d.child_by_field_name("declarator"))
        .map_or_else(|| "?".to_string(), |n| file.text_of(n).to_string())
}

/// The last part of a possibly qualified name (`Board::show` → `show`).
pub(crate) fn simple_name(name: &str) -> &str {
    name.rsplit("::").next().unwrap_or(name)
}

/// The function definition `node` is in, if any.
pub(crate) fn enclosing_function(node: Node) -> Option<Node> {
    ancestor(node, &["function_definition", "lambda_expression"])
}

/// The innermost loop around `node` inside its own function, if any.
pub(crate) fn innermost_loop(node: Node) -> Option<Node> {
    let mut current = node.parent();
    while let Some(parent) = current {
        if LOOPS.contains(&parent.kind()) {
            return Some(parent);
        }
        if matches!(parent.kind(), "function_definition" | "lambda_expression") {
            return None;
        }
        current = parent.parent();
    }
    None
}

/// The name of the function a call expression calls (`getline`, `cin.get` → `get`).
pub(crate) fn called_name<'f>(file: &'f SourceFile, call: Node) -> &'f str {
    let Some(function) = call.child_by_field_name("function") else {
        return "";
    };
    let node = match function.kind() {
        "field_expression" => function.child_by_field_name("field").unwrap_or(function),
        "qualified_identifier" => function.child_by_field_name("name").unwrap_or(function),
        _ => function,
    };
    file.text_of(node)
}

/// The leftmost operand of a chain of binary expressions (`cin >> a >> b` → `cin`).
fn leftmost(mut node: Node) -> Node {
    while node.kind() == "binary_expression" {
        match node.child_by_field_name("left") {
            Some(left) => node = left,
            None => break,
        }
    }
    node
}

/// Whether `node` is a stream named one of `streams` (`cin`, `std::cin`).
fn is_stream(file: &SourceFile, node: Node, streams: &[&str]) -> bool {
    let text = file.text_of(node);
    streams.contains(&text.trim_start_matches("std::"))
}

/// The places a program reads input: `cin >> …` chains (their outermost expression),
/// `getline`, `scanf`, `getchar`, `cin.get`, `fgets`.
pub(crate) fn input_reads<'t>(file: &'t SourceFile) -> Vec<Node<'t>> {
    let mut reads = Vec::new();
    for expression in file.all(&["binary_expression"]) {
        let is_extraction = expression
            .child_by_field_name("operator")
            .is_some_and(|o| file.text_of(o) == ">>");
        let outermost = expression
            .parent()
            .is_none_or(|p| p.kind() != "binary_expression");
        if is_extraction && outermost && is_stream(file, leftmost(expression), &["cin"]) {
            reads.push(expression);
        }
    }
    for call in file.all(&["call_expression"]) {
        let name = called_name(file, call);
        let on_cin = call
            .child_by_field_name("function")
            .and_then(|f| f.child_by_field_name("argument"))
            .is_some_and(|object| is_stream(file, object, &["cin"]));
        let reads_input = matches!(name, "getline" | "scanf" | "getchar" | "fgets" | "gets")
            || (on_cin && matches!(name, "get" | "getline" | "peek"));
        if reads_input {
            reads.push(call);
        }
    }
    reads.sort_by_key(|n| n.start_byte());
    reads
}

/// Names of the functions called from inside the loops of kinds `loop_kinds` (the call's
/// innermost loop is of that kind), across all files.
pub(crate) fn called_in_loops(files: &[SourceFile], loop_kinds: &[&str]) -> Vec<String> {
    let mut names = Vec::new();
    for file in files {
        for call in file.all(&["call_expression"]) {
            if innermost_loop(call).is_some_and(|l| loop_kinds.contains(&l.kind())) {
                names.push(called_name(file, call).to_string());
            }
        }
    }
    names.sort();
    names.dedup();
    names
}
