//! The files beside a source file that it uses (imports, requires, `mod`, `#include`), by its
//! language: what makes one file of a program a folder's entry point, and what a file given
//! alone needs copied beside it.

use std::path::Path;

/// The files beside `file` (names in its folder) that it uses, by its language: Python
/// `import X` / `from X import` of `X.py` or a package folder `X`; JavaScript `require("./X")`
/// or `import … from "./X"`; Ruby `require_relative "X"`; Rust `mod X;` of `X.rs` or `X/mod.rs`;
/// C and C++ `#include "X.h"` when a source `X.c`/`X.cpp`/… beside it holds what the header
/// declares (both are named; a header alone builds without its folder). Empty for other
/// languages, when it uses nothing beside it, or when it cannot be read.
pub fn files_it_uses(file: &Path) -> Vec<String> {
    let folder = folder_of(file);
    let Ok(text) = std::fs::read_to_string(file) else {
        return Vec::new();
    };
    let text = text.trim_start_matches('\u{feff}');
    let extension = super::extension(file);
    let pattern = match extension.as_str() {
        "py" => r"(?m)^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[ \t.]|import[ \t]+([A-Za-z_][\w \t,]*))",
        "js" | "mjs" | "cjs" => {
            r#"(?:require\s*\(\s*|\bfrom\s*|\bimport\s*\(?\s*)["']\./([^"'/]+)["']"#
        }
        "rb" => r#"require_relative\s*\(?\s*["'](?:\./)?([^"'/]+)["']"#,
        "rs" => r"(?m)^\s*(?:pub\s+)?mod\s+([A-Za-z_]\w*)\s*;",
        "c" | "cpp" | "cc" | "cxx" | "c++" | "h" | "hpp" | "hh" | "hxx" | "h++" => {
            r#"(?m)^\s*#\s*include\s*"([^"/]+)""#
        }
        _ => return Vec::new(),
    };
    let Ok(pattern) = regex::Regex::new(pattern) else {
        return Vec::new();
    };
    let own_name = file.file_name();
    let exists = |name: &str| {
        Some(std::ffi::OsStr::new(name)) != own_name
            && std::fs::symlink_metadata(folder.join(name)).is_ok_and(|m| m.is_file() || m.is_dir())
    };
    let mut used: Vec<String> = Vec::new();
    let names = pattern.captures_iter(text).flat_map(|captures| {
        captures
            .iter()
            .skip(1)
            .flatten()
            .flat_map(|m| m.as_str().split(','))
            .filter_map(|n| n.split_whitespace().next())
            .map(str::to_string)
            .collect::<Vec<_>>()
    });
    for name in names {
        let found: Vec<String> = match extension.as_str() {
            "py" => first_existing(&[format!("{name}.py"), name.clone()], &exists),
            "js" | "mjs" | "cjs" => {
                let candidates: Vec<String> = ["", ".js", ".mjs", ".cjs", ".json"]
                    .iter()
                    .map(|ext| format!("{name}{ext}"))
                    .collect();
                first_existing(&candidates, &exists)
            }
            "rb" => first_existing(&[format!("{name}.rb"), name.clone()], &exists),
            "rs" => first_existing(&[format!("{name}.rs"), format!("{name}/mod.rs")], &exists),
            _ => {
                // A header, with the sources beside it that define what it declares.
                let stem = Path::new(&name)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let sources: Vec<String> = ["c", "cpp", "cc", "cxx", "c++"]
                    .iter()
                    .map(|ext| format!("{stem}.{ext}"))
                    .filter(|source| exists(source))
                    .collect();
                if exists(&name) && !sources.is_empty() {
                    std::iter::once(name.clone()).chain(sources).collect()
                } else {
                    Vec::new()
                }
            }
        };
        for name in found {
            if !used.contains(&name) {
                used.push(name);
            }
        }
    }
    used
}

/// The first of `candidates` that exists, as a list of at most one.
fn first_existing(candidates: &[String], exists: &dyn Fn(&str) -> bool) -> Vec<String> {
    candidates
        .iter()
        .find(|c| exists(c))
        .cloned()
        .into_iter()
        .collect()
}

/// The folder a file given by path is in (`.` for a bare name).
pub(super) fn folder_of(file: &Path) -> &Path {
    file.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}
