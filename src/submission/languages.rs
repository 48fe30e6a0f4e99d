//! The languages and build systems a submission can be in: one [`Language`] entry each in
//! [`LANGUAGES`], saying how it is recognised (file extensions, project files), which tools it
//! needs and how to install them, how its entry point is chosen and how it is built.
//!
//! Adding a language is adding an entry (and, when its build is new, one build function).

use std::path::{Path, PathBuf};

use super::{
    find_tool, is_executable, python_interpreter, run_build_in, BuildStep, PrepareError,
    PrepareOptions, JVM_OPTIONS,
};

/// One language or build system.
#[derive(Debug)]
pub struct Language {
    /// Its name in messages ("Go").
    pub name: &'static str,
    /// File extensions of its sources, lower case, without the dot.
    pub extensions: &'static [&'static str],
    /// Files at the top of a folder that make the folder this kind of project whatever else it
    /// holds (`Makefile`, `Cargo.toml`; `*.csproj` matches by extension).
    pub project_files: &'static [&'static str],
    /// Programs it needs on PATH, to build or to run.
    pub tools: &'static [&'static str],
    /// What to install for them, as a student or instructor would say it.
    pub install: &'static str,
    /// How the file that starts the program is found.
    pub entry: Entry,
    /// Builds the submission and returns how to run it.
    pub build: fn(&Build<'_>) -> Result<Built, PrepareError>,
}

/// How a language's entry point is found among its sources.
#[derive(Debug, Clone, Copy)]
pub enum Entry {
    /// All sources form one program (C, C++, Java, Go, Kotlin, C#, build systems).
    Whole,
    /// One file is run and the others are its modules: it is the one `--main` or the handout
    /// names, the only one, the only one with a conventional name, or the only one holding
    /// one of the `guards` (spaces ignored).
    Script {
        conventional: &'static [&'static str],
        guards: &'static [&'static str],
    },
}

/// What a build function is given.
pub struct Build<'a> {
    /// The path the user gave (for messages).
    pub original: &'a Path,
    /// The private copy of the submission, where the build runs.
    pub dir: &'a Path,
    /// The file that starts the program (script languages, single files).
    pub entry: Option<&'a Path>,
    /// Every source file of the language in the submission, sorted.
    pub sources: &'a [PathBuf],
    /// What the assignment and the user said.
    pub options: &'a PrepareOptions,
    /// The language being built.
    pub language: &'static Language,
}

/// How to run a built submission.
#[derive(Debug, Default)]
pub struct Built {
    /// The command line (the case's arguments are appended).
    pub command: Vec<String>,
    /// Paths outside the working directory the program reads, besides the build directory.
    pub readable: Vec<PathBuf>,
    /// Environment the program needs.
    pub env: Vec<(String, String)>,
    /// What the student should know about how it was built or run.
    pub notes: Vec<String>,
    /// What the compiler warned about in a build that succeeded (C, C++, Java).
    pub warnings: String,
    /// The command of the instrumented build (C, C++ with `sanitize`); empty when none.
    pub sanitized: Vec<String>,
    /// The build as its student types it in their folder, for a report's replay commands
    /// (`gcc -O2 -o prog main.c -lm`, `javac -encoding UTF-8 -d . Main.java`, `make`,
    /// `cargo build --release --offline --quiet`, `go build -o program .`); none for a
    /// language that is run, not built.
    pub replay_build: Option<String>,
}

/// A build step as its student would type it in their folder: every path inside the build
/// directory `dir` made relative to it (`-I` folders too), each word quoted for the shell.
fn replay_line(dir: &Path, program: &str, args: &[String]) -> String {
    let place = dir.display().to_string();
    let relative = |word: &str| -> String {
        if word == place {
            return ".".to_string();
        }
        if let Some(rest) = word.strip_prefix(&format!("{place}/")) {
            return rest.to_string();
        }
        match word.strip_prefix("-I") {
            Some(folder) if folder == place => "-I.".to_string(),
            Some(folder) => match folder.strip_prefix(&format!("{place}/")) {
                Some(rest) => format!("-I{rest}"),
                None => word.to_string(),
            },
            None => word.to_string(),
        }
    };
    std::iter::once(program.to_string())
        .chain(args.iter().map(|a| crate::shell::word(&relative(a))))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every language and build system, in the order they are tried on a folder: build systems
/// and project files first, then languages by their sources' extensions.
pub static LANGUAGES: &[Language] = &[
    Language {
        name: "Makefile",
        extensions: &[],
        project_files: &["Makefile", "makefile", "GNUmakefile"],
        tools: &["make"],
        install: "make",
        entry: Entry::Whole,
        build: build_make,
    },
    Language {
        name: "CMake",
        extensions: &[],
        project_files: &["CMakeLists.txt"],
        tools: &["cmake", "make"],
        install: "cmake",
        entry: Entry::Whole,
        build: build_cmake,
    },
    Language {
        name: "build.sh",
        extensions: &[],
        project_files: &["build.sh"],
        tools: &["sh"],
        install: "a POSIX shell",
        entry: Entry::Whole,
        build: build_script,
    },
    Language {
        name: "Rust crate",
        extensions: &[],
        project_files: &["Cargo.toml"],
        tools: &["cargo", "rustc"],
        install: "rustc and cargo (Debian: apt install rustc cargo)",
        entry: Entry::Whole,
        build: build_cargo,
    },
    Language {
        name: "Java",
        extensions: &["java"],
        project_files: &[],
        tools: &["javac", "java"],
        install: "a JDK (Debian: apt install default-jdk)",
        entry: Entry::Whole,
        build: build_java,
    },
    Language {
        name: "C++",
        extensions: &["cpp", "cc", "cxx", "c++"],
        project_files: &[],
        tools: &["g++"],
        install: "g++",
        entry: Entry::Whole,
        build: build_cpp,
    },
    Language {
        name: "C",
        extensions: &["c"],
        project_files: &[],
        tools: &["gcc"],
        install: "gcc",
        entry: Entry::Whole,
        build: build_c,
    },
    Language {
        name: "Go",
        extensions: &["go"],
        project_files: &["go.mod"],
        tools: &["go"],
        install: "golang (Debian: apt install golang-go)",
        entry: Entry::Whole,
        build: build_go,
    },
    Language {
        name: "Kotlin",
        extensions: &["kt"],
        project_files: &[],
        tools: &["kotlinc", "java"],
        install: "kotlin (kotlinc) and a JDK",
        entry: Entry::Whole,
        build: build_kotlin,
    },
    Language {
        name: "C#",
        extensions: &["cs"],
        project_files: &["*.csproj"],
        tools: &["dotnet"],
        install: "the .NET SDK (dotnet)",
        entry: Entry::Whole,
        build: build_dotnet,
    },
    Language {
        name: "Rust",
        extensions: &["rs"],
        project_files: &[],
        tools: &["rustc"],
        install: "rustc (Debian: apt install rustc)",
        entry: Entry::Script {
            conventional: &["main.rs"],
            guards: &["fnmain("],
        },
        build: build_rustc,
    },
    Language {
        name: "Python",
        extensions: &["py"],
        project_files: &[],
        tools: &["python3"],
        install: "python3",
        entry: Entry::Script {
            conventional: &["main.py", "__main__.py"],
            guards: &["__name__==\"__main__\"", "__name__=='__main__'"],
        },
        build: build_python,
    },
    Language {
        name: "JavaScript",
        extensions: &["js", "mjs", "cjs"],
        project_files: &[],
        tools: &["node"],
        install: "Node.js (Debian: apt install nodejs)",
        entry: Entry::Script {
            conventional: &["main.js", "index.js", "main.mjs", "index.mjs"],
            guards: &["require.main===module", "import.meta.main"],
        },
        build: build_node,
    },
    Language {
        name: "Ruby",
        extensions: &["rb"],
        project_files: &[],
        tools: &["ruby"],
        install: "ruby",
        entry: Entry::Script {
            conventional: &["main.rb"],
            guards: &["__FILE__==$0", "__FILE__==$PROGRAM_NAME"],
        },
        build: build_ruby,
    },
    Language {
        name: "Perl",
        extensions: &["pl"],
        project_files: &[],
        tools: &["perl"],
        install: "perl",
        entry: Entry::Script {
            conventional: &["main.pl"],
            guards: &[],
        },
        build: build_perl,
    },
];

/// A ready-made program: an executable file or a shebang script of any interpreter.
pub static EXECUTABLE: Language = Language {
    name: "executable",
    extensions: &[],
    project_files: &[],
    tools: &[],
    install: "",
    entry: Entry::Whole,
    build: build_executable,
};

/// The language whose sources have this extension.
pub fn by_extension(ext: &str) -> Option<&'static Language> {
    LANGUAGES.iter().find(|l| l.extensions.contains(&ext))
}

/// Whether the top of `dir` holds one of `language`'s project files.
pub fn has_project_file(language: &Language, dir: &Path) -> bool {
    language
        .project_files
        .iter()
        .any(|pattern| match pattern.strip_prefix("*.") {
            Some(ext) => std::fs::read_dir(dir).is_ok_and(|entries| {
                entries
                    .filter_map(Result::ok)
                    .any(|e| super::extension(&e.path()) == ext && e.path().is_file())
            }),
            None => dir.join(pattern).is_file(),
        })
}

/// One toolchain as `grade doctor` reports it.
#[derive(Debug, Clone)]
pub struct Toolchain {
    /// The language or build system.
    pub language: &'static str,
    /// Each tool it needs and where it was found (None: missing).
    pub tools: Vec<(&'static str, Option<PathBuf>)>,
    /// What to install when something is missing.
    pub install: &'static str,
}

/// Which toolchains this machine has, for `grade doctor`.
pub fn toolchains() -> Vec<Toolchain> {
    LANGUAGES
        .iter()
        .map(|l| Toolchain {
            language: l.name,
            tools: l.tools.iter().map(|t| (*t, find_tool(t))).collect(),
            install: l.install,
        })
        .collect()
}

/// The candidates shown relative to the submission, for messages.
fn shown(dir: &Path, files: &[&PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.strip_prefix(dir).unwrap_or(f).display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The files among `candidates` that `name` designates: a path relative to the submission
/// (`src/game.py`), else a file name anywhere in it (`game.py`).
fn named<'a>(dir: &Path, candidates: &[&'a PathBuf], name: &str) -> Vec<&'a PathBuf> {
    let exact: Vec<&PathBuf> = candidates
        .iter()
        .copied()
        .filter(|f| f.strip_prefix(dir).is_ok_and(|r| r == Path::new(name)))
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    candidates
        .iter()
        .copied()
        .filter(|f| f.file_name().is_some_and(|n| n == name))
        .collect()
}

/// Chooses the file that starts the program among `candidates` (see [`Entry::Script`]):
/// `--main`, the handout's file name, the only file, the only conventional name (the shallowest
/// ones), the only file with an entry-point guard, the only file no other one uses
/// ([`super::imports::files_it_uses`]). `Err` holds the one-line reason.
pub fn choose_entry(
    language: &Language,
    dir: &Path,
    candidates: &[&PathBuf],
    conventional: &[&str],
    guards: &[&str],
    options: &PrepareOptions,
) -> Result<PathBuf, String> {
    if let Some(main) = &options.main {
        return match named(dir, candidates, main).as_slice() {
            [one] => Ok((*one).clone()),
            [] => Err(format!(
                "--main {main} names none of its {} files ({})",
                language.name,
                shown(dir, candidates)
            )),
            many => Err(format!(
                "--main {main} matches several files ({}); give its path in the submission",
                shown(dir, many)
            )),
        };
    }
    if let Some(handout) = &options.main_file {
        if let [one] = named(dir, candidates, handout).as_slice() {
            return Ok((*one).clone());
        }
    }
    if let [one] = candidates {
        return Ok((*one).clone());
    }
    let depth = |f: &PathBuf| f.strip_prefix(dir).map_or(0, |r| r.components().count());
    let conventional: Vec<&PathBuf> = candidates
        .iter()
        .copied()
        .filter(|f| {
            f.file_name()
                .is_some_and(|n| conventional.iter().any(|c| n == *c))
        })
        .collect();
    if let Some(shallowest) = conventional.iter().map(|f| depth(f)).min() {
        let top: Vec<&PathBuf> = conventional
            .iter()
            .copied()
            .filter(|f| depth(f) == shallowest)
            .collect();
        if let [one] = top.as_slice() {
            return Ok((*one).clone());
        }
    }
    let guarded: Vec<&PathBuf> = candidates
        .iter()
        .copied()
        .filter(|f| {
            std::fs::read_to_string(f).is_ok_and(|text| {
                let compact: String = text.split_whitespace().collect();
                guards.iter().any(|g| compact.contains(g))
            })
        })
        .collect();
    if let [one] = guarded.as_slice() {
        return Ok((*one).clone());
    }
    // The only file no other one uses (imports, requires): the others are its modules.
    let used: Vec<PathBuf> = candidates
        .iter()
        .flat_map(|f| {
            let folder = f.parent().map(Path::to_path_buf).unwrap_or_default();
            super::imports::files_it_uses(f)
                .into_iter()
                .map(move |name| folder.join(name))
        })
        .collect();
    let unused: Vec<&PathBuf> = candidates
        .iter()
        .copied()
        .filter(|f| !used.contains(f))
        .collect();
    if let [one] = unused.as_slice() {
        return Ok((*one).clone());
    }
    Err(format!(
        "it holds several {} files that could start the program ({}); choose one with --main FILE",
        language.name,
        shown(dir, candidates)
    ))
}

// ---- builds -------------------------------------------------------------------------------

fn arg(path: &Path) -> String {
    path.display().to_string()
}

fn entry_of<'a>(build: &'a Build<'_>) -> Result<&'a Path, PrepareError> {
    build.entry.ok_or_else(|| PrepareError::Unrecognised {
        path: build.original.to_path_buf(),
        reason: format!("no {} file to run", build.language.name),
    })
}

fn build_executable(build: &Build<'_>) -> Result<Built, PrepareError> {
    let entry = entry_of(build)?;
    // Random bytes, a Windows or macOS binary, a class file: one line saying so, instead of
    // the shell reading it as commands.
    if let Some(reason) = super::not_a_program(entry) {
        let reason = match entry.file_name() {
            Some(name) if build.original.is_dir() => {
                format!("{} {reason}", name.to_string_lossy())
            }
            _ => reason,
        };
        return Err(PrepareError::Unrecognised {
            path: build.original.to_path_buf(),
            reason,
        });
    }
    Ok(Built {
        command: vec![arg(entry)],
        ..Built::default()
    })
}

/// Compiles C or C++ sources as one program (every source, every folder holding headers on
/// the include path); with several `main` functions, the one `--main` or a `main.*` names.
fn build_native(
    build: &Build<'_>,
    compiler: &str,
    c_sources: &[PathBuf],
) -> Result<Built, PrepareError> {
    let defines_main = regex::Regex::new(r"(?m)^\s*(?:int|void|signed|auto)\s+main\s*\(")
        .expect("a valid pattern");
    let all: Vec<&PathBuf> = build.sources.iter().chain(c_sources).collect();
    let mains: Vec<&PathBuf> = all
        .iter()
        .copied()
        .filter(|f| std::fs::read_to_string(f).is_ok_and(|t| defines_main.is_match(&t)))
        .collect();
    let mut notes = Vec::new();
    let excluded: Vec<&PathBuf> = if mains.len() > 1 {
        let conventional = ["main.cpp", "main.cc", "main.cxx", "main.c"];
        let chosen = choose_entry(
            build.language,
            build.dir,
            &mains,
            &conventional,
            &[],
            build.options,
        )
        .map_err(|reason| PrepareError::Unrecognised {
            path: build.original.to_path_buf(),
            reason: reason.replace(
                "files that could start the program",
                "files that define main",
            ),
        })?;
        notes.push(format!(
            "several files define main ({}); {} was built",
            shown(build.dir, &mains),
            shown(build.dir, &[&chosen])
        ));
        mains.into_iter().filter(|m| **m != chosen).collect()
    } else {
        Vec::new()
    };
    let binary = build.dir.join("program");
    // Every common warning on: handouts grade "free of warnings"; warnings never fail a build.
    let mut args: Vec<String> = Vec::new();
    let mut include_dirs: Vec<PathBuf> = walkdir::WalkDir::new(build.dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_type().is_file()
                && ["h", "hpp", "hh", "hxx", "h++"].contains(&super::extension(e.path()).as_str())
        })
        .filter_map(|e| e.path().parent().map(Path::to_path_buf))
        .collect();
    include_dirs.sort();
    include_dirs.dedup();
    args.extend(include_dirs.iter().map(|d| format!("-I{}", d.display())));
    args.extend(
        build
            .sources
            .iter()
            .filter(|s| !excluded.contains(s))
            .map(|s| arg(s)),
    );
    let c_kept: Vec<String> = c_sources
        .iter()
        .filter(|s| !excluded.contains(s))
        .map(|s| arg(s))
        .collect();
    if !c_kept.is_empty() {
        // C files beside C++ ones are compiled as C.
        args.push("-x".into());
        args.push("c".into());
        args.extend(c_kept);
        args.push("-x".into());
        args.push("none".into());
    }
    args.push("-lm".into());
    let mut plain: Vec<String> = ["-O2", "-Wall", "-Wextra", "-o"]
        .iter()
        .map(|a| a.to_string())
        .collect();
    plain.push(arg(&binary));
    plain.extend(args.iter().cloned());
    let warnings = run_build_in(build, &BuildStep::new(compiler, plain))?;
    // As the student builds it: the program named `prog`, as the replay runs it.
    let mut typed: Vec<String> = vec!["-O2".into(), "-o".into(), "prog".into()];
    typed.extend(args.iter().cloned());
    let replay_build = Some(replay_line(build.dir, compiler, &typed));
    let sanitized = if build.options.sanitize {
        sanitized_build(build, compiler, &args, &mut notes)
    } else {
        Vec::new()
    };
    Ok(Built {
        command: vec![arg(&binary)],
        notes,
        warnings,
        sanitized,
        replay_build,
        ..Built::default()
    })
}

/// The same program built again with AddressSanitizer and UBSan (`crate::sanitizer::FLAGS`),
/// its sources named relative to the submission so that findings name the student's files; the command that runs it, or none (with a note) when it does not build.
fn sanitized_build(
    build: &Build<'_>,
    compiler: &str,
    sources: &[String],
    notes: &mut Vec<String>,
) -> Vec<String> {
    let binary = build.dir.join(crate::sanitizer::BINARY);
    let mut args: Vec<String> = crate::sanitizer::FLAGS
        .iter()
        .map(|a| a.to_string())
        .collect();
    // The directory the compiler ran in, as libasan's symboliser joins it to a file name.
    args.push(format!("-fdebug-prefix-map={}=.", build.dir.display()));
    args.push("-w".into());
    args.push("-o".into());
    args.push(arg(&binary));
    // Sources named relative to the build directory (where the compiler runs): UBSan's
    // locations and the debug information libasan symbolises with then name the student's
    // files as in the submission, never the grader's temporary directory.
    let place = format!("{}/", build.dir.display());
    args.extend(sources.iter().map(|s| match s.strip_prefix(&place) {
        Some(relative) if !relative.starts_with('-') => relative.to_string(),
        _ => s.clone(),
    }));
    match run_build_in(build, &BuildStep::new(compiler, args)) {
        Ok(_) => vec![arg(&binary)],
        Err(error) => {
            let why = match error {
                PrepareError::BuildFailed(failure) => failure
                    .messages
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("the compiler failed")
                    .to_string(),
                other => other.to_string(),
            };
            notes.push(format!(
                "the build with AddressSanitizer and UBSan failed ({why}): the sanitizer checks \
                 were not run (nothing lost)"
            ));
            Vec::new()
        }
    }
}

fn build_cpp(build: &Build<'_>) -> Result<Built, PrepareError> {
    let c_sources: Vec<PathBuf> = sources_with(build.dir, &["c"]);
    build_native(build, "g++", &c_sources)
}

fn build_c(build: &Build<'_>) -> Result<Built, PrepareError> {
    build_native(build, "gcc", &[])
}

/// Regular files under `dir` (submission depth) with one of `exts`, sorted.
pub fn sources_with(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .max_depth(super::SOURCE_DEPTH)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && exts.contains(&super::extension(e.path()).as_str()))
        .map(|e| e.into_path())
        .collect();
    found.sort();
    found
}

/// Java: every source of a folder, or one file given alone with its folder's sources staged
/// beside it ([`super::habits::stage_java_folder`]) for javac to find the classes it uses, as
/// `javac PlayGame.java` does in that folder.
fn build_java(build: &Build<'_>) -> Result<Built, PrepareError> {
    let sources: Vec<String> = build.sources.iter().map(|s| arg(s)).collect();
    let sourcepath = build.entry.map(|_| build.dir);
    // As the student builds it in their folder: the classes beside the sources, where
    // `java -cp . Main` finds them.
    let mut typed: Vec<String> = vec!["-encoding".into(), "UTF-8".into(), "-d".into(), ".".into()];
    if sourcepath.is_some() {
        typed.extend(["-sourcepath".to_string(), ".".to_string()]);
    }
    typed.extend(sources.iter().cloned());
    let replay_build = Some(replay_line(build.dir, "javac", &typed));
    let (command, note, warnings) = super::build_java(build, sources, sourcepath)?;
    Ok(Built {
        command,
        notes: note.into_iter().collect(),
        warnings,
        replay_build,
        ..Built::default()
    })
}

fn build_python(build: &Build<'_>) -> Result<Built, PrepareError> {
    let entry = entry_of(build)?;
    let python = python_interpreter().ok_or(PrepareError::MissingTool {
        tool: "python3".into(),
        language: build.language.name,
        install: build.language.install,
    })?;
    // A syntax error in any module is a build failure reported once, not a traceback in
    // every case.
    let mut args = vec!["-m".to_string(), "py_compile".to_string()];
    args.extend(build.sources.iter().map(|s| arg(s)));
    let mut step = BuildStep::new("python3", args);
    step.program = Some(python.executable.clone());
    step.readable = python.readable.clone();
    step.env = vec![("PYTHONDONTWRITEBYTECODE".into(), "1".into())];
    run_build_in(build, &step)?;
    Ok(Built {
        command: vec![arg(&python.executable), arg(entry)],
        readable: python.readable.clone(),
        ..Built::default()
    })
}

/// An interpreted language: a syntax check (`check_flag`) at build time, then `tool entry`.
fn build_interpreted(
    build: &Build<'_>,
    tool: &str,
    check_flag: &str,
) -> Result<Built, PrepareError> {
    let entry = entry_of(build)?;
    run_build_in(
        build,
        &BuildStep::new(tool, vec![check_flag.to_string(), arg(entry)]),
    )?;
    let program = find_tool(tool).ok_or_else(|| missing(build, tool))?;
    Ok(Built {
        command: vec![arg(&program), arg(entry)],
        ..Built::default()
    })
}

fn build_node(build: &Build<'_>) -> Result<Built, PrepareError> {
    build_interpreted(build, "node", "--check")
}

fn build_ruby(build: &Build<'_>) -> Result<Built, PrepareError> {
    build_interpreted(build, "ruby", "-c")
}

fn build_perl(build: &Build<'_>) -> Result<Built, PrepareError> {
    build_interpreted(build, "perl", "-c")
}

fn missing(build: &Build<'_>, tool: &str) -> PrepareError {
    PrepareError::MissingTool {
        tool: tool.to_string(),
        language: build.language.name,
        install: build.language.install,
    }
}

/// Go: with a go.mod the module's main package (`go build .`), else the `.go` files of the
/// folder holding `func main` built together. Offline, with caches in the build directory.
fn build_go(build: &Build<'_>) -> Result<Built, PrepareError> {
    let binary = build.dir.join("program");
    let mut args = vec!["build".to_string(), "-o".to_string(), arg(&binary)];
    if build.dir.join("go.mod").is_file() {
        args.push(".".into());
    } else {
        let main_dir = build
            .sources
            .iter()
            .find(|f| {
                std::fs::read_to_string(f).is_ok_and(|t| {
                    let compact: String = t.split_whitespace().collect();
                    compact.contains("packagemain") && compact.contains("funcmain()")
                })
            })
            .and_then(|f| f.parent())
            .unwrap_or(build.dir);
        args.extend(
            build
                .sources
                .iter()
                .filter(|f| f.parent() == Some(main_dir))
                .filter(|f| !f.to_string_lossy().ends_with("_test.go"))
                .map(|f| arg(f)),
        );
    }
    let mut step = BuildStep::new("go", args);
    let cache = build.dir.join(".go");
    step.env = vec![
        ("GOCACHE".into(), arg(&cache.join("cache"))),
        ("GOPATH".into(), arg(&cache.join("path"))),
        ("GOPROXY".into(), "off".into()),
        ("GOFLAGS".into(), "-mod=mod".into()),
        ("GOTOOLCHAIN".into(), "local".into()),
        ("GO111MODULE".into(), "auto".into()),
        ("CGO_ENABLED".into(), "0".into()),
    ];
    step.readable = go_root().into_iter().collect();
    run_build_in(build, &step)?;
    Ok(Built {
        command: vec![arg(&binary)],
        replay_build: Some(replay_line(build.dir, "go", &step.args)),
        ..Built::default()
    })
}

/// The Go installation the `go` on PATH belongs to (its standard library lives there).
fn go_root() -> Option<PathBuf> {
    let go = std::fs::canonicalize(find_tool("go")?).ok()?;
    // <root>/bin/go
    go.parent()?.parent().map(Path::to_path_buf)
}

/// The Rust installation of `rustc` (its standard library), when outside the system folders.
fn rust_sysroot() -> Option<PathBuf> {
    let rustc = find_tool("rustc")?;
    let out = std::process::Command::new(rustc)
        .args(["--print", "sysroot"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    Some(PathBuf::from(text.trim()))
}

/// A Rust program without Cargo.toml: `rustc -O` on the file with `fn main` (its `mod`s are
/// found beside it).
fn build_rustc(build: &Build<'_>) -> Result<Built, PrepareError> {
    let entry = entry_of(build)?;
    let binary = build.dir.join("program");
    let args = vec![
        "-O".to_string(),
        "--edition".to_string(),
        "2021".to_string(),
        "-o".to_string(),
        arg(&binary),
        arg(entry),
    ];
    let mut step = BuildStep::new("rustc", args);
    step.readable = rust_sysroot().into_iter().collect();
    run_build_in(build, &step)?;
    Ok(Built {
        command: vec![arg(&binary)],
        replay_build: Some(replay_line(build.dir, "rustc", &step.args)),
        ..Built::default()
    })
}

/// A Cargo crate: `cargo build --release --offline` (no downloads: a crate needing
/// dependencies from a registry fails to build, and says so).
fn build_cargo(build: &Build<'_>) -> Result<Built, PrepareError> {
    let target = build.dir.join("target");
    let mut step = BuildStep::new(
        "cargo",
        vec![
            "build".into(),
            "--release".into(),
            "--offline".into(),
            "--quiet".into(),
        ],
    );
    step.env = vec![
        ("CARGO_HOME".into(), arg(&build.dir.join(".cargo"))),
        ("CARGO_TARGET_DIR".into(), arg(&target)),
    ];
    if let Some(rustc) = find_tool("rustc") {
        step.env.push(("RUSTC".into(), arg(&rustc)));
    }
    step.readable = rust_sysroot().into_iter().collect();
    let release = target.join("release");
    let built = new_executables(build, &step, &release, 1)?;
    Ok(Built {
        command: vec![arg(&built)],
        // Into the crate's own target/ folder, where the grader's build went too, whatever
        // CARGO_TARGET_DIR the student's shell has.
        replay_build: Some(replay_line(
            build.dir,
            "cargo",
            &[
                step.args.as_slice(),
                &["--target-dir".into(), "target".into()],
            ]
            .concat(),
        )),
        ..Built::default()
    })
}

fn build_kotlin(build: &Build<'_>) -> Result<Built, PrepareError> {
    let jar = build.dir.join("program.jar");
    let mut args = build.sources.iter().map(|s| arg(s)).collect::<Vec<_>>();
    args.extend(["-include-runtime".into(), "-d".into(), arg(&jar)]);
    // As the student builds it in their folder: the jar beside the sources, where
    // `java -jar program.jar` runs it.
    let replay_build = Some(replay_line(build.dir, "kotlinc", &args));
    run_build_in(build, &BuildStep::new("kotlinc", args))?;
    let java = find_tool("java").ok_or_else(|| missing(build, "java"))?;
    let mut command = vec![arg(&java)];
    command.extend(JVM_OPTIONS.split_whitespace().map(String::from));
    command.extend(["-jar".to_string(), arg(&jar)]);
    Ok(Built {
        command,
        replay_build,
        ..Built::default()
    })
}

/// C#: the student's .csproj, or a minimal console project over the sources for the
/// installed SDK; `dotnet build` offline, then `dotnet program.dll`.
fn build_dotnet(build: &Build<'_>) -> Result<Built, PrepareError> {
    let dotnet = find_tool("dotnet").ok_or_else(|| missing(build, "dotnet"))?;
    let has_project = has_project_file(build.language, build.dir);
    // The project file grade writes when the student has none: written in their folder too
    // by the replay, before the build.
    let mut written_project = None;
    let assembly = if has_project {
        std::fs::read_dir(build.dir)
            .ok()
            .and_then(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.path())
                    .find(|p| super::extension(p) == "csproj")
            })
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "program".into())
    } else {
        let version = std::process::Command::new(&dotnet)
            .arg("--version")
            .stdin(std::process::Stdio::null())
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .unwrap_or_default();
        let major = version.split('.').next().unwrap_or("8").trim().to_string();
        let project = format!(
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    \
             <OutputType>Exe</OutputType>\n    <TargetFramework>net{major}.0</TargetFramework>\n    \
             <AssemblyName>program</AssemblyName>\n    <Nullable>disable</Nullable>\n    \
             <ImplicitUsings>enable</ImplicitUsings>\n  </PropertyGroup>\n</Project>\n"
        );
        std::fs::write(build.dir.join("program.csproj"), &project).map_err(|e| {
            PrepareError::Unreadable {
                path: build.original.to_path_buf(),
                reason: format!("cannot write the project file: {e}"),
            }
        })?;
        written_project = Some(project);
        "program".into()
    };
    let out = build.dir.join("out");
    let mut step = BuildStep::new(
        "dotnet",
        vec![
            "build".into(),
            "-c".into(),
            "Release".into(),
            "-o".into(),
            arg(&out),
            "--nologo".into(),
        ],
    );
    step.env = dotnet_env(build.dir);
    step.readable = std::fs::canonicalize(&dotnet)
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .into_iter()
        .collect();
    run_build_in(build, &step)?;
    Ok(Built {
        command: vec![arg(&dotnet), arg(&out.join(format!("{assembly}.dll")))],
        readable: step.readable.clone(),
        env: dotnet_env(build.dir),
        replay_build: Some(dotnet_replay_build(
            written_project.as_deref(),
            &replay_line(build.dir, "dotnet", &step.args),
        )),
        ..Built::default()
    })
}

/// A C# build as its student types it in their folder, one command a line: the project file
/// grade wrote for sources without one (`project`, written out in pieces), then `build`
/// (`dotnet build -c Release -o out --nologo`).
fn dotnet_replay_build(project: Option<&str>, build: &str) -> String {
    let mut lines = project.map_or_else(Vec::new, |text| {
        crate::shell::write_file("program.csproj", text.as_bytes())
    });
    lines.push(build.to_string());
    lines.join("\n")
}

fn dotnet_env(dir: &Path) -> Vec<(String, String)> {
    vec![
        ("DOTNET_CLI_HOME".into(), arg(&dir.join(".dotnet"))),
        ("NUGET_PACKAGES".into(), arg(&dir.join(".nuget"))),
        ("DOTNET_NOLOGO".into(), "1".into()),
        ("DOTNET_CLI_TELEMETRY_OPTOUT".into(), "1".into()),
        ("DOTNET_SKIP_FIRST_TIME_EXPERIENCE".into(), "1".into()),
    ]
}

/// Executable files under `under` (to `depth` levels) with their modification times.
fn executables_in(under: &Path, depth: usize) -> Vec<(PathBuf, Option<std::time::SystemTime>)> {
    let mut found: Vec<(PathBuf, Option<std::time::SystemTime>)> = walkdir::WalkDir::new(under)
        .max_depth(depth)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_executable(e.path()))
        .filter(|e| !e.path().components().any(|c| c.as_os_str() == "CMakeFiles"))
        .filter(|e| {
            !["sh", "py", "pl", "rb", "js", "d", "o", "so", "a"]
                .contains(&super::extension(e.path()).as_str())
        })
        .map(|e| {
            let modified = e.metadata().ok().and_then(|m| m.modified().ok());
            (e.into_path(), modified)
        })
        .collect();
    found.sort();
    found
}

/// Runs `step`, then returns the one program it built under `under`: an executable that is
/// new or changed (the one `--main` names; else one named `program`, `main` or `a.out`).
fn new_executables(
    build: &Build<'_>,
    step: &BuildStep,
    under: &Path,
    depth: usize,
) -> Result<PathBuf, PrepareError> {
    let before = executables_in(build.dir, super::SOURCE_DEPTH + 2);
    run_build_in(build, step)?;
    let built: Vec<PathBuf> = executables_in(under, depth)
        .into_iter()
        .filter(|now| !before.contains(now))
        .map(|(p, _)| p)
        .collect();
    let refs: Vec<&PathBuf> = built.iter().collect();
    if refs.is_empty() {
        return Err(PrepareError::Unrecognised {
            path: build.original.to_path_buf(),
            reason: format!(
                "its {} build finished but made no program to run",
                build.language.name
            ),
        });
    }
    let options = PrepareOptions {
        main_file: None,
        ..build.options.clone()
    };
    choose_entry(
        build.language,
        build.dir,
        &refs,
        &["program", "main", "a.out"],
        &[],
        &options,
    )
    .map_err(|reason| PrepareError::Unrecognised {
        path: build.original.to_path_buf(),
        reason: reason.replace(
            &format!(
                "holds several {} files that could start the program",
                build.language.name
            ),
            &format!("{} build made several programs", build.language.name),
        ),
    })
}

fn build_make(build: &Build<'_>) -> Result<Built, PrepareError> {
    let step = BuildStep::new("make", vec![]);
    let program = new_executables(build, &step, build.dir, super::SOURCE_DEPTH + 2)?;
    Ok(Built {
        command: vec![arg(&program)],
        replay_build: Some("make".into()),
        ..Built::default()
    })
}

fn build_cmake(build: &Build<'_>) -> Result<Built, PrepareError> {
    let out = build.dir.join("build");
    let configure = BuildStep::new(
        "cmake",
        vec![
            "-S".into(),
            arg(build.dir),
            "-B".into(),
            arg(&out),
            "-DCMAKE_BUILD_TYPE=Release".into(),
        ],
    );
    run_build_in(build, &configure)?;
    let compile = BuildStep::new("cmake", vec!["--build".into(), arg(&out)]);
    let program = new_executables(build, &compile, &out, 4)?;
    Ok(Built {
        command: vec![arg(&program)],
        replay_build: Some(format!(
            "{} && {}",
            replay_line(build.dir, "cmake", &configure.args),
            replay_line(build.dir, "cmake", &compile.args)
        )),
        ..Built::default()
    })
}

fn build_script(build: &Build<'_>) -> Result<Built, PrepareError> {
    let step = BuildStep::new("sh", vec![arg(&build.dir.join("build.sh"))]);
    let program = new_executables(build, &step, build.dir, super::SOURCE_DEPTH + 2)?;
    Ok(Built {
        command: vec![arg(&program)],
        replay_build: Some(replay_line(build.dir, "sh", &step.args)),
        ..Built::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// C# without a project file: the project grade wrote is written in the student's folder
    /// first, in pieces a report shows whole, then built as grade built it.
    #[test]
    fn a_replayed_csharp_build_writes_the_project_grade_wrote() {
        let project = "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    \
                       <OutputType>Exe</OutputType>\n    <TargetFramework>net8.0</TargetFramework>\n    \
                       <AssemblyName>program</AssemblyName>\n  </PropertyGroup>\n</Project>\n";
        let build = "dotnet build -c Release -o out --nologo";
        let replay = dotnet_replay_build(Some(project), build);
        let lines: Vec<&str> = replay.lines().collect();
        assert_eq!(
            lines,
            [
                // 120 characters of printf text a piece: 33 + 2 + 17 + 2 + 32 + 2 + 32.
                "printf '<Project Sdk=\"Microsoft.NET.Sdk\">\\n  <PropertyGroup>\\n    \
                 <OutputType>Exe</OutputType>\\n    <TargetFramework>net8.0</Tar' > program.csproj",
                "printf 'getFramework>\\n    <AssemblyName>program</AssemblyName>\\n  \
                 </PropertyGroup>\\n</Project>\\n' >> program.csproj",
                build,
            ]
        );
        // With the student's own project: the build alone.
        assert_eq!(dotnet_replay_build(None, build), build);
    }

    #[test]
    fn a_replayed_build_names_the_students_own_files() {
        let dir = Path::new("/tmp/grade-build-x");
        let args: Vec<String> = [
            "-O2",
            "-o",
            "prog",
            "-I/tmp/grade-build-x",
            "-I/tmp/grade-build-x/include",
            "/tmp/grade-build-x/main.cpp",
            "/tmp/grade-build-x/src/my board.cpp",
            "-lm",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        assert_eq!(
            replay_line(dir, "g++", &args),
            "g++ -O2 -o prog -I. -Iinclude main.cpp 'src/my board.cpp' -lm"
        );
        // The folder itself is `.` (docs/explore.md: `cmake -S . -B build`); paths outside it,
        // and a folder that only starts with its name, stay as they are.
        let args: Vec<String> = [
            "-S",
            "/tmp/grade-build-x",
            "-B",
            "/tmp/grade-build-x/build",
            "-I/usr/include/x",
            "-I/tmp/grade-build-xy",
            "/tmp/grade-build-xy/a.c",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        assert_eq!(
            replay_line(dir, "cmake", &args),
            "cmake -S . -B build -I/usr/include/x -I/tmp/grade-build-xy /tmp/grade-build-xy/a.c"
        );
    }

    fn files(dir: &Path, names: &[(&str, &str)]) -> Vec<PathBuf> {
        names
            .iter()
            .map(|(name, text)| {
                let path = dir.join(name);
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).expect("mkdir");
                }
                std::fs::write(&path, text).expect("write");
                path
            })
            .collect()
    }

    fn choose(names: &[(&str, &str)], options: &PrepareOptions) -> Result<String, String> {
        let dir = tempfile::tempdir().expect("dir");
        let paths = files(dir.path(), names);
        let refs: Vec<&PathBuf> = paths.iter().collect();
        let python = by_extension("py").expect("python");
        let Entry::Script {
            conventional,
            guards,
        } = python.entry
        else {
            panic!("Python is a script language");
        };
        choose_entry(python, dir.path(), &refs, conventional, guards, options).map(|p| {
            p.strip_prefix(dir.path())
                .expect("inside")
                .display()
                .to_string()
        })
    }

    #[test]
    fn python_entry_points_are_found_in_order() {
        let none = PrepareOptions::default();
        let plain = "print(1)\n";
        let guarded = "def main():\n    pass\nif __name__ == '__main__':\n    main()\n";
        assert_eq!(choose(&[("nim.py", plain)], &none).as_deref(), Ok("nim.py"));
        assert_eq!(
            choose(&[("helpers.py", plain), ("main.py", plain)], &none).as_deref(),
            Ok("main.py")
        );
        assert_eq!(
            choose(
                &[("game/__main__.py", plain), ("game/board.py", plain)],
                &none
            )
            .as_deref(),
            Ok("game/__main__.py")
        );
        assert_eq!(
            choose(&[("board.py", plain), ("game.py", guarded)], &none).as_deref(),
            Ok("game.py")
        );
        let handout = PrepareOptions {
            main_file: Some("assignment3.py".into()),
            ..PrepareOptions::default()
        };
        assert_eq!(
            choose(&[("assignment3.py", plain), ("main.py", guarded)], &handout).as_deref(),
            Ok("assignment3.py")
        );
        let chosen = PrepareOptions {
            main: Some("b.py".into()),
            ..PrepareOptions::default()
        };
        assert_eq!(
            choose(&[("a.py", guarded), ("b.py", guarded)], &chosen).as_deref(),
            Ok("b.py")
        );
        let e = choose(&[("a.py", guarded), ("b.py", guarded)], &none).expect_err("ambiguous");
        assert_eq!(
            e,
            "it holds several Python files that could start the program (a.py, b.py); choose one with --main FILE"
        );
        // The only file no other one imports starts the program.
        assert_eq!(
            choose(&[("game.py", "import board\n"), ("board.py", plain)], &none).as_deref(),
            Ok("game.py")
        );
        assert!(choose(&[("a.py", plain), ("b.py", plain)], &none).is_err());
        let e = choose(&[("a.py", plain)], &chosen).expect_err("no such file");
        assert_eq!(e, "--main b.py names none of its Python files (a.py)");
    }

    #[test]
    fn every_extension_and_project_file_belongs_to_one_entry() {
        let mut seen: Vec<&str> = Vec::new();
        for language in LANGUAGES {
            for ext in language.extensions.iter().chain(language.project_files) {
                assert!(!seen.contains(ext), "{ext} appears twice");
                seen.push(ext);
            }
            assert!(!language.tools.is_empty(), "{}", language.name);
            assert!(!language.install.is_empty(), "{}", language.name);
            assert!(
                !language.extensions.is_empty() || !language.project_files.is_empty(),
                "{} cannot be recognised",
                language.name
            );
        }
    }

    #[test]
    fn project_files_match_names_and_extensions() {
        let dir = tempfile::tempdir().expect("dir");
        let csharp = LANGUAGES.iter().find(|l| l.name == "C#").expect("C#");
        assert!(!has_project_file(csharp, dir.path()));
        std::fs::write(dir.path().join("Nim.csproj"), "<Project/>").expect("write");
        assert!(has_project_file(csharp, dir.path()));
        let make = &LANGUAGES[0];
        assert!(!has_project_file(make, dir.path()));
        std::fs::write(dir.path().join("Makefile"), "all:\n").expect("write");
        assert!(has_project_file(make, dir.path()));
    }
}
