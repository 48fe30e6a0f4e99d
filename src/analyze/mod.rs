//! What the code itself must satisfy, read on a real parse (tree-sitter): the handouts'
//! requirements on the program text ([`requirements`]) and similarity between submissions
//! ([`similarity`]).
//!
//! Both read a submission's sources the same way ([`Program::load`]): the files of the
//! handout languages (C, C++, Java, Python), parsed once, never executed.

pub mod requirements;
pub mod similarity;

use std::path::Path;

use tree_sitter::{Node, Parser, Tree};

use crate::results::Finding;

/// A language `grade` can parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum SourceLanguage {
    /// C (`.c`, `.h`).
    C,
    /// C++ (`.cpp`, `.cc`, `.cxx`, `.hpp`).
    Cpp,
    /// Java (`.java`).
    Java,
    /// Python 3 (`.py`).
    Python,
}

impl SourceLanguage {
    /// The language of a file, from its extension.
    pub fn of(path: &Path) -> Option<SourceLanguage> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "c" => SourceLanguage::C,
            "cpp" | "cc" | "cxx" | "hpp" | "hh" | "h" => SourceLanguage::Cpp,
            "java" => SourceLanguage::Java,
            "py" => SourceLanguage::Python,
            _ => return None,
        })
    }

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            SourceLanguage::C => "C",
            SourceLanguage::Cpp => "C++",
            SourceLanguage::Java => "Java",
            SourceLanguage::Python => "Python",
        }
    }

    /// The tree-sitter grammar.
    fn grammar(self) -> tree_sitter::Language {
        match self {
            SourceLanguage::C => tree_sitter_c::LANGUAGE.into(),
            SourceLanguage::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            SourceLanguage::Java => tree_sitter_java::LANGUAGE.into(),
            SourceLanguage::Python => tree_sitter_python::LANGUAGE.into(),
        }
    }

    /// Which language wins when a submission mixes them: the one the grader would build
    /// (Java, then C++, then C, then Python), so requirements read the program that runs.
    fn precedence(self) -> u8 {
        match self {
            SourceLanguage::Java => 0,
            SourceLanguage::Cpp => 1,
            SourceLanguage::C => 2,
            SourceLanguage::Python => 3,
        }
    }
}

/// One parsed source file.
pub struct SourceFile {
    /// The path shown in findings: relative to the submission directory, or the file name.
    pub path: String,
    /// The file's language.
    pub language: SourceLanguage,
    /// The text (invalid UTF-8 replaced).
    pub text: String,
    /// The syntax tree (with error nodes where the code does not parse).
    pub tree: Tree,
    /// How deep the tree is.
    pub depth: usize,
}

impl SourceFile {
    /// Parses `text` as `language`; `None` only if the parser itself gives up.
    pub fn parse(path: &str, language: SourceLanguage, text: String) -> Option<SourceFile> {
        let mut parser = Parser::new();
        parser.set_language(&language.grammar()).ok()?;
        let tree = parser.parse(&text, None)?;
        let depth = tree_depth(&tree);
        Some(SourceFile {
            path: path.to_string(),
            language,
            text,
            tree,
            depth,
        })
    }

    /// The source text of a node.
    pub fn text_of(&self, node: Node) -> &str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    /// The 1-based line a node starts on.
    pub fn line_of(node: Node) -> usize {
        node.start_position().row + 1
    }

    /// A finding at `node`.
    pub fn finding(&self, node: Node, message: impl Into<String>) -> Finding {
        Finding {
            file: self.path.clone(),
            line: Some(Self::line_of(node)),
            message: message.into(),
        }
    }

    /// Every node of the tree whose kind is one of `kinds`, in source order.
    pub fn all(&self, kinds: &[&str]) -> Vec<Node<'_>> {
        descendants(self.tree.root_node(), kinds)
    }
}

/// The depth of a tree (its root alone: 1), by a cursor walk.
fn tree_depth(tree: &Tree) -> usize {
    let mut cursor = tree.walk();
    let (mut depth, mut deepest) = (1, 1);
    loop {
        if cursor.goto_first_child() {
            depth += 1;
            deepest = deepest.max(depth);
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return deepest;
            }
            depth -= 1;
        }
    }
}

/// Every node under `root` (itself included) whose kind is one of `kinds`, in source order.
pub fn descendants<'t>(root: Node<'t>, kinds: &[&str]) -> Vec<Node<'t>> {
    let mut found = Vec::new();
    let mut cursor = root.walk();
    loop {
        let node = cursor.node();
        if kinds.contains(&node.kind()) {
            found.push(node);
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == root {
                return found;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return found;
            }
        }
    }
}

/// The nearest ancestor of `node` (not itself) whose kind is one of `kinds`.
pub fn ancestor<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut current = node.parent();
    while let Some(parent) = current {
        if kinds.contains(&parent.kind()) {
            return Some(parent);
        }
        current = parent.parent();
    }
    None
}

/// The most a source file may weigh to be read (larger ones are skipped, not parsed).
const MAX_SOURCE_BYTES: u64 = 1 << 20;
/// The most source files read from one submission.
const MAX_SOURCES: usize = 200;
/// The most source bytes read from one submission, all files together.
const MAX_PROGRAM_BYTES: u64 = 4 << 20;
/// Syntax trees deeper than this are not analysed: no handout program nests like that, and
/// the checks walk up from nodes, which would cost depth × size.
pub const MAX_DEPTH: usize = 1000;

/// A submission's sources, parsed: what requirements and similarity read.
pub struct Program {
    /// The language the grader builds and runs (see `SourceLanguage::precedence`), if the
    /// submission has any parseable source.
    pub language: Option<SourceLanguage>,
    /// The files of that language, sorted by path.
    pub files: Vec<SourceFile>,
    /// The compiler's warnings, as findings (from the build, with `-Wall -Wextra`/`-Xlint`).
    pub warnings: Vec<Finding>,
    /// Whether the build failed (its errors then are in `warnings`).
    pub build_failed: bool,
}

impl Program {
    /// Reads and parses the sources of a submission (a file, or a directory up to four
    /// levels deep, links not followed). Files it cannot read are skipped.
    pub fn load(submission: &Path) -> Program {
        let mut candidates: Vec<(String, SourceLanguage, std::path::PathBuf)> = Vec::new();
        if submission.is_dir() {
            for entry in walkdir::WalkDir::new(submission)
                .max_depth(4)
                .sort_by_file_name()
                .into_iter()
                .filter_entry(|e| {
                    e.depth() == 0 || !e.file_name().to_string_lossy().starts_with('.')
                })
                .filter_map(Result::ok)
            {
                if !entry.file_type().is_file() || candidates.len() >= MAX_SOURCES {
                    continue;
                }
                if let Some(language) = SourceLanguage::of(entry.path()) {
                    let shown = entry
                        .path()
                        .strip_prefix(submission)
                        .unwrap_or(entry.path())
                        .display()
                        .to_string();
                    candidates.push((shown, language, entry.into_path()));
                }
            }
        } else if let Some(language) = SourceLanguage::of(submission) {
            let shown = submission.file_name().map_or_else(
                || submission.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            candidates.push((shown, language, submission.to_path_buf()));
        }
        // Headers count as C++ only beside C++ sources; beside C ones they are C.
        let language = candidates
            .iter()
            .filter(|(path, _, _)| !path.ends_with(".h"))
            .map(|(_, l, _)| *l)
            .min_by_key(|l| l.precedence());
        let mut files = Vec::new();
        let mut total: u64 = 0;
        for (shown, file_language, path) in candidates {
            let file_language = match (file_language, language) {
                (SourceLanguage::Cpp, Some(SourceLanguage::C)) if shown.ends_with(".h") => {
                    SourceLanguage::C
                }
                (l, _) => l,
            };
            if Some(file_language) != language {
                continue;
            }
            let Ok(metadata) = std::fs::symlink_metadata(&path) else {
                continue;
            };
            if !metadata.is_file()
                || metadata.len() > MAX_SOURCE_BYTES
                || total + metadata.len() > MAX_PROGRAM_BYTES
            {
                continue;
            }
            total += metadata.len();
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes).into_owned();
            if let Some(file) = SourceFile::parse(&shown, file_language, text) {
                files.push(file);
            }
        }
        Program {
            language,
            files,
            warnings: Vec::new(),
            build_failed: false,
        }
    }

    /// A file nested deeper than [`MAX_DEPTH`], if any: such a program is not analysed.
    pub fn too_deep(&self) -> Option<&SourceFile> {
        self.files.iter().find(|f| f.depth > MAX_DEPTH)
    }

    /// Every node of every file whose kind is one of `kinds`, with its file.
    pub fn all(&self, kinds: &[&str]) -> Vec<(&SourceFile, Node<'_>)> {
        self.files
            .iter()
            .flat_map(|file| file.all(kinds).into_iter().map(move |node| (file, node)))
            .collect()
    }
}

/// The compiler's warnings and errors in `messages` (gcc/clang `file:line:col: warning: …`,
/// javac `File.java:line: warning: …`), one finding each; the compiler's notes and the
/// source lines it quotes are left out.
pub fn compiler_findings(messages: &str) -> Vec<Finding> {
    let mut findings = Vec::new();
    for line in messages.lines() {
        let Some((place, message)) = ["warning: ", "error: "].iter().find_map(|kind| {
            line.split_once(&format!(": {kind}"))
                .map(|(p, m)| (p, format!("{kind}{m}")))
        }) else {
            continue;
        };
        let mut parts = place.split(':');
        let file = parts.next().unwrap_or("").to_string();
        let line_number = parts.next().and_then(|n| n.trim().parse::<usize>().ok());
        if file.is_empty() || file.contains(' ') {
            continue;
        }
        findings.push(Finding {
            file,
            line: line_number,
            message,
        });
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiler_messages_become_findings() {
        let gcc = "connect6.cpp: In function 'int main()':\n\
            connect6.cpp:12:9: warning: unused variable 'x' [-Wunused-variable]\n   12 |     int x;\n      |         ^\n";
        assert_eq!(
            compiler_findings(gcc),
            vec![Finding {
                file: "connect6.cpp".into(),
                line: Some(12),
                message: "warning: unused variable 'x' [-Wunused-variable]".into(),
            }]
        );
        let javac = "CoinStrip.java:7: warning: [rawtypes] found raw type: ArrayList\n1 warning\n";
        let found = compiler_findings(javac);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, Some(7));
        assert_eq!(found[0].file, "CoinStrip.java");
    }

    #[test]
    fn descendants_are_in_source_order() {
        let file = SourceFile::parse(
            "a.py",
            SourceLanguage::Python,
            "def f():\n    return 1\n\ndef g():\n    pass\n".into(),
        )
        .expect("parses");
        let names: Vec<&str> = file
            .all(&["function_definition"])
            .into_iter()
            .filter_map(|n| n.child_by_field_name("name"))
            .map(|n| file.text_of(n))
            .collect();
        assert_eq!(names, ["f", "g"]);
    }
}
