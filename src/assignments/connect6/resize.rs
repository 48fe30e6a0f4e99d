//! connect6's "We can simply modify the board size by change a single variable N": the edit
//! that sets a submission's board-size constant to another size, found on the parse (never by
//! searching the text), so the grader can rebuild the program and play it on a smaller board.

use std::path::Path;

use super::requirements::{size_constants_of, SizeConstant};
use crate::analyze::{descendants, Program, SourceFile, SourceLanguage};

use crate::assignments::Resized;

/// Python's and Java's board-size constants: a module-level `N = 19`, a `static final int N =
/// 19` field.
fn other_constants(program: &Program, size: &str) -> Vec<SizeConstant> {
    let mut found = Vec::new();
    let constant =
        |file: &SourceFile, name: tree_sitter::Node, value: tree_sitter::Node, line| SizeConstant {
            file: file.path.clone(),
            name: file.text_of(name).to_string(),
            line,
            value: value.byte_range(),
        };
    for file in &program.files {
        match file.language {
            SourceLanguage::Python => {
                for assignment in file.all(&["assignment"]) {
                    let top_level = assignment
                        .parent()
                        .and_then(|statement| statement.parent())
                        .is_some_and(|p| p.kind() == "module");
                    let (Some(left), Some(right)) = (
                        assignment.child_by_field_name("left"),
                        assignment.child_by_field_name("right"),
                    ) else {
                        continue;
                    };
                    if top_level
                        && left.kind() == "identifier"
                        && right.kind() == "integer"
                        && file.text_of(right) == size
                    {
                        found.push(constant(file, left, right, SourceFile::line_of(assignment)));
                    }
                }
            }
            SourceLanguage::Java => {
                for field in file.all(&["field_declaration"]) {
                    let modifiers = descendants(field, &["modifiers"])
                        .first()
                        .map(|m| file.text_of(*m).to_string())
                        .unwrap_or_default();
                    if !(modifiers.contains("static") && modifiers.contains("final")) {
                        continue;
                    }
                    for declarator in descendants(field, &["variable_declarator"]) {
                        let (Some(name), Some(value)) = (
                            declarator.child_by_field_name("name"),
                            declarator.child_by_field_name("value"),
                        ) else {
                            continue;
                        };
                        if value.kind() == "decimal_integer_literal" && file.text_of(value) == size
                        {
                            found.push(constant(file, name, value, SourceFile::line_of(field)));
                        }
                    }
                }
            }
            SourceLanguage::C | SourceLanguage::Cpp => {}
        }
    }
    found
}

/// The edit that sets the submission's single board-size constant (`from`: 19, the handout's
/// N, or a course's variant) to `size`, or why there is none: no source, no such constant, or
/// several.
pub fn board_size(submission: &Path, from: usize, size: usize) -> Result<Resized, String> {
    let from_text = from.to_string();
    let program = Program::load(submission);
    if let Some(file) = program.too_deep() {
        return Err(format!("{} is nested too deeply to be analysed", file.path));
    }
    let constants = match program.language {
        None => {
            return Err("the submission has no C, C++, Java or Python source to rebuild".into())
        }
        Some(SourceLanguage::C | SourceLanguage::Cpp) => size_constants_of(&program, &from_text),
        Some(_) => other_constants(&program, &from_text),
    };
    let constant = match constants.as_slice() {
        [] => return Err(format!("no constant holds the board size {from}, so the board cannot be resized by changing one variable")),
        [one] => one,
        several => {
            let names: Vec<String> = several.iter().map(|c| format!("`{}` ({}:{})", c.name, c.file, c.line)).collect();
            return Err(format!(
                "{} constants equal {from} ({}): the board size is not a single variable",
                several.len(),
                names.join(", ")
            ));
        }
    };
    let file = program
        .files
        .iter()
        .find(|f| f.path == constant.file)
        .ok_or_else(|| format!("{} could not be read again", constant.file))?;
    let mut text = file.text.clone();
    text.replace_range(constant.value.clone(), &size.to_string());
    Ok(Resized {
        file: constant.file.clone(),
        text,
        change: format!(
            "`{} = {from}` at {}:{} set to {size}",
            constant.name, constant.file, constant.line
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resized(name: &str, text: &str) -> Result<Resized, String> {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        board_size(&path, 19, 10)
    }

    #[test]
    fn the_single_constant_is_set_and_nothing_else_changes() {
        let cpp = "const int N = 19; // size\nint main() { int x = 19; return N + x; }\n";
        let edit = resized("c6.cpp", cpp).expect("resized");
        assert_eq!(
            edit.text,
            "const int N = 10; // size\nint main() { int x = 19; return N + x; }\n"
        );
        assert_eq!(edit.change, "`N = 19` at c6.cpp:1 set to 10");
        let define =
            resized("c6.cpp", "#define SIZE 19\nint main() { return SIZE; }\n").expect("resized");
        assert!(
            define.text.starts_with("#define SIZE 10\n"),
            "{}",
            define.text
        );
        let python = resized("c6.py", "N = 19\ndef f():\n    n = 19\n").expect("resized");
        assert_eq!(python.text, "N = 10\ndef f():\n    n = 19\n");
        let java = resized(
            "C6.java",
            "class C6 { static final int N = 19; int n = 19; }\n",
        )
        .expect("resized");
        assert_eq!(
            java.text,
            "class C6 { static final int N = 10; int n = 19; }\n"
        );
    }

    #[test]
    fn no_constant_or_several_is_a_reason() {
        let none =
            resized("c6.cpp", "int main() { char b[19][19]; return 0; }\n").expect_err("none");
        assert!(
            none.contains("no constant holds the board size 19"),
            "{none}"
        );
        let two = resized("c6.cpp", "const int N = 19;\nconst int M = 19;\n").expect_err("two");
        assert!(
            two.starts_with("2 constants equal 19 (`N` (c6.cpp:1), `M` (c6.cpp:2))"),
            "{two}"
        );
    }
}
