//! `grade doctor`: prints what [`crate::run::doctor::layers`] found, and which toolchains
//! ([`crate::submission::languages::toolchains`]) submissions can be built with here: for each
//! language found, a one-line program is built and run in the sandbox exactly as a submission
//! is, so an install layout or a machine that breaks a language shows here, not as a class of
//! "not gradable" submissions.

/// A program of each language that prints `ok`: its file (a folder holding it for Java) and
/// source. The build systems (Makefile, CMake, build.sh, a Rust crate) use these compilers
/// and are not tried on their own.
const HELLO: &[(&str, &str, &str)] = &[
    (
        "Java",
        "Main.java",
        "public class Main { public static void main(String[] a) { System.out.println(\"ok\"); } }\n",
    ),
    ("C++", "hello.cpp", "#include <cstdio>\nint main() { std::puts(\"ok\"); }\n"),
    ("C", "hello.c", "#include <stdio.h>\nint main(void) { puts(\"ok\"); return 0; }\n"),
    ("Go", "hello.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"ok\") }\n"),
    ("Kotlin", "hello.kt", "fun main() { println(\"ok\") }\n"),
    ("Rust", "hello.rs", "fn main() { println!(\"ok\"); }\n"),
    ("Python", "hello.py", "print(\"ok\")\n"),
    ("JavaScript", "hello.js", "console.log(\"ok\");\n"),
    ("Ruby", "hello.rb", "puts \"ok\"\n"),
    ("Perl", "hello.pl", "print \"ok\\n\";\n"),
];

/// Builds and runs `language`'s one-line program in the sandbox, as a submission: `None` when
/// the doctor has none for it, else what went wrong, if anything.
fn try_language(language: &str) -> Option<Result<(), String>> {
    let (_, file, source) = HELLO.iter().find(|(name, _, _)| *name == language)?;
    Some((|| {
        let dir = tempfile::Builder::new()
            .prefix("grade-doctor-")
            .tempdir()
            .map_err(|e| format!("cannot make a directory for it: {e}"))?;
        let folder = dir.path().join("hello");
        std::fs::create_dir(&folder).map_err(|e| format!("cannot write it: {e}"))?;
        std::fs::write(folder.join(file), source).map_err(|e| format!("cannot write it: {e}"))?;
        let submission = if language == "Java" {
            folder
        } else {
            folder.join(file)
        };
        let built =
            crate::submission::prepare(&submission, &crate::submission::PrepareOptions::default())
                .map_err(|e| match e {
                    crate::submission::PrepareError::BuildFailed(failure) => format!(
                        "its build failed: {}",
                        failure.messages.lines().next().unwrap_or("").trim()
                    ),
                    other => other.to_string(),
                })?;
        let outcome = crate::run::run(&crate::run::RunSpec {
            command: built.command.clone(),
            readable: built.readable.clone(),
            env: built.env.clone(),
            ..crate::run::RunSpec::new(Vec::new())
        })
        .map_err(|e| e.to_string())?;
        let printed = outcome
            .transcript
            .output_text(crate::transcript::Stream::Stdout);
        match outcome.ending {
            crate::run::Ending::Exited(0) if printed.trim() == "ok" => Ok(()),
            ending => Err(format!(
                "it ended {ending:?} printing {:?}{}",
                printed.trim(),
                match outcome
                    .transcript
                    .output_text(crate::transcript::Stream::Stderr)
                {
                    e if e.trim().is_empty() => String::new(),
                    e => format!(", stderr {:?}", e.lines().next().unwrap_or("").trim()),
                }
            )),
        }
    })())
}

/// Prints the doctor report to stdout.
pub fn print() -> anyhow::Result<u8> {
    for layer in crate::run::doctor::layers() {
        println!(
            "{:<24} {:<3} {}",
            layer.name,
            if layer.on { "on" } else { "off" },
            layer.detail
        );
    }
    println!();
    println!("toolchains (what submissions can be written in here)");
    let chains = crate::submission::languages::toolchains();
    // Each found language's program built and run in the sandbox, a few at once.
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let tried = crate::parallel::in_parallel(chains.len(), jobs, |i| {
        let chain = &chains[i];
        let found = chain.tools.iter().all(|(_, found)| found.is_some());
        Some(if found {
            try_language(chain.language)
        } else {
            None
        })
    });
    for (chain, tried) in chains.iter().zip(tried) {
        let missing: Vec<&str> = chain
            .tools
            .iter()
            .filter(|(_, found)| found.is_none())
            .map(|(tool, _)| *tool)
            .collect();
        let detail = if missing.is_empty() {
            chain
                .tools
                .iter()
                .filter_map(|(_, found)| found.as_ref().map(|p| p.display().to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            format!(
                "{} not found: install {}",
                missing
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                chain.install
            )
        };
        let (works, detail) = match tried.flatten() {
            Some(Ok(())) => (
                true,
                format!("{detail}; a test program built and ran in the sandbox"),
            ),
            Some(Err(why)) => (
                false,
                format!("{detail} found, but a test program could not run in the sandbox: {why}"),
            ),
            None => (missing.is_empty(), detail),
        };
        println!(
            "{:<24} {:<3} {}",
            chain.language,
            if works { "yes" } else { "no" },
            crate::report::escape::visible(&detail)
        );
    }
    Ok(0)
}
