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

/// The doctor's last line: whether grading is fine here, and if not what is missing and what
/// it means. `required_off` are the layers the containment depends on that are off (name and
/// why), `other_off` the rows marked off that have a fallback, `unbuildable` the languages
/// whose submissions cannot be built here, `buildable` how many can.
fn verdict(
    required_off: &[(String, String)],
    other_off: &[String],
    unbuildable: &[&str],
    buildable: usize,
) -> String {
    let mut line = if !required_off.is_empty() {
        let missing: Vec<String> = required_off
            .iter()
            .map(|(name, why)| format!("{name} ({why})"))
            .collect();
        format!(
            "verdict: grading runs, but the sandbox is incomplete here: {} off, so student code \
             would run with less containment than docs/security.md promises; every report says \
             so and --require-sandbox refuses to grade",
            missing.join("; ")
        )
    } else if other_off.is_empty() {
        "verdict: grading is fine here: every sandbox layer is on".to_string()
    } else {
        format!(
            "verdict: grading is fine here: every layer the sandbox requires is on; the row(s) \
             marked off ({}) use the fallback their line names",
            other_off.join(", ")
        )
    };
    if buildable == 0 {
        line.push_str(
            "; but no language can be built here: every submission would be not gradable",
        );
    } else if !unbuildable.is_empty() {
        line.push_str(&format!(
            "; submissions in {} cannot be built here (see their lines)",
            unbuildable.join(", ")
        ));
    }
    line
}

/// Prints the doctor report to stdout.
pub fn print() -> anyhow::Result<u8> {
    let required: Vec<(String, String)> = crate::run::layers::states()
        .into_iter()
        .filter(|l| l.required && !l.active)
        .map(|l| (l.name.to_string(), l.detail))
        .collect();
    let mut other_off = Vec::new();
    for layer in crate::run::doctor::layers() {
        if !layer.on && !required.iter().any(|(name, _)| name == layer.name) {
            other_off.push(layer.name.to_string());
        }
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
    let (mut buildable, mut unbuildable) = (0, Vec::new());
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
            crate::escape::visible(&detail)
        );
        if works {
            buildable += 1;
        } else {
            unbuildable.push(chain.language);
        }
    }
    println!();
    println!(
        "{}",
        crate::escape::visible(&verdict(&required, &other_off, &unbuildable, buildable))
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_says_whether_grading_is_fine_and_what_is_missing() {
        assert_eq!(
            verdict(&[], &[], &[], 3),
            "verdict: grading is fine here: every sandbox layer is on"
        );
        assert_eq!(
            verdict(&[], &["unprivileged uid".into()], &["Kotlin", "C#"], 12),
            "verdict: grading is fine here: every layer the sandbox requires is on; the row(s) \
             marked off (unprivileged uid) use the fallback their line names; submissions in \
             Kotlin, C# cannot be built here (see their lines)"
        );
        let incomplete = verdict(
            &[("landlock".into(), "switched off with GRADE_DISABLE".into())],
            &[],
            &[],
            0,
        );
        assert!(
            incomplete.starts_with(
                "verdict: grading runs, but the sandbox is incomplete here: landlock (switched \
                 off with GRADE_DISABLE) off"
            ),
            "{incomplete}"
        );
        assert!(
            incomplete.contains("--require-sandbox refuses"),
            "{incomplete}"
        );
        assert!(
            incomplete.ends_with("every submission would be not gradable"),
            "{incomplete}"
        );
    }
}
