//! Node.js over a pipe, made to read its stdin as it does at a terminal.
//!
//! At a terminal Node's `process.stdin` reads only while the program consumes it (its buffer's
//! high-water mark is 0), so a program that pauses or closes its readline interface after the
//! last answer stops reading and ends. On a pipe the mark is 64 KiB: a paused stdin goes on
//! reading ahead, which keeps the program alive waiting for input nobody asked for, and
//! swallows lines typed after the game ended. A run of Node over pipes therefore preloads
//! (`NODE_OPTIONS=--require`) a few lines giving `process.stdin` the terminal's mark, as
//! libstdbuf gives C programs the terminal's line buffering.

use std::path::Path;

/// The preload's name in the run's working directory (also its `HOME`).
pub(super) const PRELOAD_NAME: &str = ".grade-node-stdin.cjs";

/// The preload: `process.stdin` keeps no more than a terminal's stdin does (nothing
/// unasked), whatever Node version; it never stops a program from starting.
pub(super) const PRELOAD: &str = r#"// grade: stdin reads no further ahead than at a terminal.
"use strict";
try {
  const original = Object.getOwnPropertyDescriptor(process, "stdin");
  if (original && original.get && original.configurable) {
    Object.defineProperty(process, "stdin", {
      configurable: true,
      enumerable: original.enumerable,
      get() {
        const stdin = original.get.call(process);
        const state = stdin && stdin._readableState;
        if (state && !stdin.isTTY && typeof state.highWaterMark === "number") {
          state.highWaterMark = 0;
        }
        return stdin;
      },
    });
  }
} catch (_) {
  // An unknown Node: it reads as it always does.
}
"#;

/// Whether `command` starts Node: `node`/`nodejs` by name, or a script whose `#!` line names
/// it (`#!/usr/bin/env node`). A relative script path is read from `workdir`.
pub(super) fn runs_node(command: &[String], workdir: &Path) -> bool {
    let Some(program) = command.first() else {
        return false;
    };
    let is_node = |word: &str| {
        let name = word.rsplit('/').next().unwrap_or(word);
        name == "node" || name == "nodejs"
    };
    if is_node(program) {
        return true;
    }
    if !program.contains('/') {
        return false;
    }
    let path = workdir.join(program);
    let mut start = [0u8; 128];
    let read = std::fs::File::open(&path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut start))
        .unwrap_or(0);
    let first_line = start[..read].split(|b| *b == b'\n').next().unwrap_or(&[]);
    let Some(shebang) = first_line.strip_prefix(b"#!") else {
        return false;
    };
    String::from_utf8_lossy(shebang)
        .split_whitespace()
        .take(2)
        .any(is_node)
}

/// `NODE_OPTIONS` preloading `preload`, before any options the run was given.
pub(super) fn options(preload: &Path, given: Option<&str>) -> String {
    let quoted = preload
        .display()
        .to_string()
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    match given {
        Some(given) if !given.trim().is_empty() => format!("--require \"{quoted}\" {given}"),
        _ => format!("--require \"{quoted}\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_is_recognised_by_name_or_shebang() {
        let dir = tempfile::tempdir().expect("tempdir");
        let command = |s: &str| vec![s.to_string(), "prog.js".to_string()];
        assert!(runs_node(&command("node"), dir.path()));
        assert!(runs_node(&command("/usr/bin/nodejs"), dir.path()));
        assert!(!runs_node(&command("python3"), dir.path()));
        assert!(!runs_node(&command("/usr/bin/nodemon"), dir.path()));
        std::fs::write(
            dir.path().join("a"),
            "#!/usr/bin/env node\nconsole.log(1)\n",
        )
        .expect("write");
        std::fs::write(dir.path().join("b"), "#!/bin/sh\nnode x.js\n").expect("write");
        std::fs::write(dir.path().join("c"), "#!/usr/local/bin/node --harmony\n").expect("write");
        assert!(runs_node(&command("./a"), dir.path()));
        assert!(!runs_node(&command("./b"), dir.path()));
        assert!(runs_node(&command("./c"), dir.path()));
        assert!(!runs_node(&command("./missing"), dir.path()));
        assert!(!runs_node(&[], dir.path()));
    }

    #[test]
    fn options_put_the_preload_first_and_quote_it() {
        let path = Path::new("/tmp/a \"b\"/.grade-node-stdin.cjs");
        assert_eq!(
            options(path, None),
            "--require \"/tmp/a \\\"b\\\"/.grade-node-stdin.cjs\""
        );
        assert_eq!(
            options(Path::new("/w/p.cjs"), Some("--max-old-space-size=64")),
            "--require \"/w/p.cjs\" --max-old-space-size=64"
        );
    }
}
