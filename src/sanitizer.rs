//! The sanitizer pass of C and C++ submissions (docs/sanitizers.md): how the instrumented
//! build is compiled, the options its runs get from the grader, and the findings read from
//! what AddressSanitizer and UndefinedBehaviorSanitizer print, turned into sentences a
//! student can act on (kind, file and line, the input after which it happened).

use crate::check::Evaluation;
use crate::results::Difference;
use crate::transcript::{Event, Stream, Transcript};

/// The flags of the instrumented build, after the sources' directory is mapped away
/// (`-ffile-prefix-map`): every error is reported and the program goes on where it can, so
/// one run shows every distinct finding and the run's output is the program's own.
pub const FLAGS: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fsanitize-recover=address,undefined",
    "-fno-omit-frame-pointer",
    "-g",
    // Not optimised: it compiles in about the time of the normal -O2 build (-O1 took twice
    // as long, the most of the pass's cost on a cold cache) and no read is optimised away.
    "-O0",
];

/// What identifies the instrumented build in the build cache key besides [`FLAGS`]: change
/// it when the way it is built changes.
pub const BUILD: &str = "-fsanitize=address,undefined -fsanitize-recover=address,undefined \
    -fno-omit-frame-pointer -g -O0; relative sources; debug prefix map; v3";

/// The name of the instrumented program in the build directory, beside `program`.
pub const BINARY: &str = "program-sanitized";

/// At most this many distinct findings are shown per case (the rest are counted).
pub const SHOWN: usize = 5;

/// The environment of an instrumented run, set by the grader (after the student's, so it
/// wins): keep running after an error, no LeakSanitizer (it needs ptrace, which the seccomp
/// filter refuses), ASan's runtime may follow the preloaded line-buffering library, no
/// colours, and ASan's quarantine of freed memory within the run's memory limit. (ASan's
/// `hard_rss_limit_mb` is not used: its background thread sleeping every 100 ms reads as a
/// sleeping program to the runner's pause detection.)
pub fn env(memory_bytes: u64) -> Vec<(String, String)> {
    // Freed memory ASan keeps back to catch use after free: at most a quarter of the limit.
    let quarantine = ((memory_bytes >> 20) / 4).clamp(1, 256);
    vec![
        (
            "ASAN_OPTIONS".into(),
            format!(
                "halt_on_error=0:detect_leaks=0:verify_asan_link_order=0:abort_on_error=0:\
                 color=never:symbolize=1:print_summary=1:detect_stack_use_after_return=0:\
                 allocator_may_return_null=1:quarantine_size_mb={quarantine}"
            ),
        ),
        (
            "UBSAN_OPTIONS".into(),
            "halt_on_error=0:print_stacktrace=0:color=never:print_summary=0".into(),
        ),
    ]
}

/// One distinct problem a sanitizer reported.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What kind of error, in a few words ("stack buffer overflow").
    pub kind: String,
    /// The student's source file, relative to the submission ("connect6.cpp"); empty when
    /// the error had no frame in the student's code.
    pub file: String,
    /// The line in `file` (0 when unknown).
    pub line: u32,
    /// One sentence in plain words.
    pub explanation: String,
    /// How many input lines had been sent when it was reported.
    pub inputs_before: usize,
    /// The last of them, if any.
    pub after_input: Option<String>,
}

impl Finding {
    /// The finding as a student reads it: "stack buffer overflow at connect6.cpp:52: reads
    /// past the end of ... , after input 'R17' (input 5)".
    pub fn sentence(&self) -> String {
        let place = if self.file.is_empty() {
            String::new()
        } else if self.line > 0 {
            format!(" (line {} of {})", self.line, self.file)
        } else {
            format!(" (in {})", self.file)
        };
        let when = match &self.after_input {
            Some(line) => format!(", after input '{line}' (input {})", self.inputs_before),
            None => ", before the first input".to_string(),
        };
        format!("{}: {}{place}{when}", self.kind, self.explanation)
    }
}

/// The findings of one instrumented run, from its standard error: duplicates (same kind,
/// file and line) once, in the order they happened.
pub fn findings(transcript: &Transcript) -> Vec<Finding> {
    // Standard error with, for each chunk, how many inputs were sent before it.
    let mut text = String::new();
    let mut marks: Vec<(usize, usize, Option<String>)> = Vec::new();
    let mut inputs = 0;
    let mut last: Option<String> = None;
    for event in transcript.events() {
        match event {
            Event::Input { line } => {
                inputs += 1;
                last = Some(line.clone());
            }
            Event::Output {
                stream: Stream::Stderr,
                bytes,
            } => {
                marks.push((text.len(), inputs, last.clone()));
                text.push_str(&String::from_utf8_lossy(bytes));
            }
            _ => {}
        }
    }
    let when = |offset: usize| {
        marks
            .iter()
            .rev()
            .find(|(start, _, _)| *start <= offset)
            .map(|(_, n, line)| (*n, line.clone()))
            .unwrap_or((0, None))
    };
    let mut found: Vec<Finding> = Vec::new();
    // One bug, one finding: the same kind at the same place, or two sanitizers on the same
    // line (UBSan's index out of bounds and ASan's overflow of the same read).
    let mut push = |finding: Finding| {
        let same = |f: &Finding| {
            f.file == finding.file
                && f.line == finding.line
                && (f.kind == finding.kind || !finding.file.is_empty())
        };
        if !found.iter().any(same) {
            found.push(finding);
        }
    };
    let lines: Vec<(usize, &str)> = line_offsets(&text);
    let mut i = 0;
    while i < lines.len() {
        let (offset, line) = lines[i];
        if let Some(finding) = ubsan_line(line) {
            let (n, input) = when(offset);
            push(Finding {
                inputs_before: n,
                after_input: input,
                ..finding
            });
        } else if let Some(rest) = line
            .find("ERROR: AddressSanitizer: ")
            .map(|at| &line[at + "ERROR: AddressSanitizer: ".len()..])
        {
            // The report runs to its SUMMARY line (or the next report).
            let end = (i + 1..lines.len())
                .find(|&j| {
                    lines[j].1.starts_with("SUMMARY: AddressSanitizer")
                        || lines[j].1.contains("ERROR: AddressSanitizer: ")
                })
                .unwrap_or(lines.len() - 1);
            let report: Vec<&str> = lines[i..=end].iter().map(|(_, l)| *l).collect();
            let (n, input) = when(offset);
            push(Finding {
                inputs_before: n,
                after_input: input,
                ..asan_report(rest, &report)
            });
            i = end;
        }
        i += 1;
    }
    found
}

fn line_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        out.push((at, line.trim_end_matches(['\n', '\r'])));
        at += line.len();
    }
    out
}

/// A path of the student's: relative (the build maps the sources' directory away), not a
/// system header or the runtime's.
fn students(file: &str) -> bool {
    !file.is_empty() && !file.starts_with('/') && !file.starts_with("..") && file != "<null>"
}

/// `FILE:LINE:COL: runtime error: MESSAGE` (UBSan).
fn ubsan_line(line: &str) -> Option<Finding> {
    let at = line.find(": runtime error: ")?;
    let (place, message) = (&line[..at], &line[at + ": runtime error: ".len()..]);
    let mut parts = place.rsplitn(3, ':');
    let _column = parts.next()?;
    let line_no: u32 = parts.next()?.trim().parse().ok()?;
    let file = parts.next()?.trim().to_string();
    let (kind, explanation) = explain_ubsan(message);
    let (file, line_no) = if students(&file) {
        (file, line_no)
    } else {
        // In a system header: no place of the student's to show.
        (String::new(), 0)
    };
    Some(Finding {
        kind: kind.into(),
        file,
        line: line_no,
        explanation,
        inputs_before: 0,
        after_input: None,
    })
}

/// Kind and plain sentence of a UBSan message.
fn explain_ubsan(message: &str) -> (&'static str, String) {
    let number = |after: &str| -> Option<String> {
        let at = message.find(after)? + after.len();
        Some(
            message[at..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == '-')
                .collect(),
        )
    };
    if let Some(rest) = message.strip_prefix("index ") {
        // "index 19 out of bounds for type 'char [19]'"
        let index: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        let ty = message.split('\'').nth(1).unwrap_or_default().to_string();
        let size = ty
            .rsplit('[')
            .next()
            .and_then(|s| s.trim_end_matches(']').parse::<i64>().ok());
        let explanation = match (index.parse::<i64>().ok(), size) {
            (Some(i), Some(n)) if i < 0 => format!(
                "uses index {i} of an array of {n} elements (valid: 0 to {}): before its first element",
                n - 1
            ),
            (Some(i), Some(n)) if i == n => format!(
                "uses index {i} of an array of {n} elements (valid: 0 to {}): one past its last element",
                n - 1
            ),
            (Some(i), Some(n)) => format!(
                "uses index {i} of an array of {n} elements (valid: 0 to {})",
                n - 1
            ),
            _ => format!("uses an index outside its array ({message})"),
        };
        return ("out-of-bounds index", explanation);
    }
    if message.starts_with("signed integer overflow") {
        return (
            "signed integer overflow",
            format!(
                "an int calculation went beyond the largest (or smallest) value the type holds \
                 ({}); the result is undefined, not wrapped",
                message.trim_start_matches("signed integer overflow: ")
            ),
        );
    }
    if message.contains("shift exponent") || message.contains("shift of") {
        return (
            "invalid shift",
            format!("shifts by too many bits or shifts a negative number ({message})"),
        );
    }
    if message.contains("null pointer") {
        return (
            "null pointer dereference",
            format!("uses a null pointer ({message})"),
        );
    }
    if message.contains("misaligned address") {
        return (
            "misaligned access",
            format!("reads or writes through a pointer not aligned for its type ({message})"),
        );
    }
    if message.contains("division by zero") {
        return ("division by zero", "divides by zero".into());
    }
    if message.contains("is not a valid value for type") {
        let value = number("load of value ").unwrap_or_default();
        return (
            "invalid value",
            format!(
                "reads a value ({value}) its type cannot hold: most often a variable used \
                 before it was set ({message})"
            ),
        );
    }
    if message.contains("without returning a value") {
        return (
            "missing return",
            "a function that must return a value ended without a return statement".into(),
        );
    }
    if message.contains("pointer overflow") || message.contains("applying") {
        return (
            "pointer overflow",
            format!("computes a pointer outside its object ({message})"),
        );
    }
    ("undefined behaviour", message.to_string())
}

/// One AddressSanitizer report: `headline` follows "ERROR: AddressSanitizer: ", `report`
/// is its lines to the SUMMARY.
fn asan_report(headline: &str, report: &[&str]) -> Finding {
    let kind_word = headline.split_whitespace().next().unwrap_or("error");
    let access = report
        .iter()
        .find_map(|l| {
            let l = l.trim();
            if l.starts_with("READ of size") {
                Some("reads")
            } else if l.starts_with("WRITE of size") {
                Some("writes")
            } else {
                None
            }
        })
        .unwrap_or("uses");
    // The first frame in the student's code: `#N 0x... in FUNC FILE:LINE[:COL]`.
    let (file, line) = report
        .iter()
        .filter(|l| l.trim_start().starts_with('#'))
        .filter_map(|l| frame_place(l))
        .find(|(file, _)| students(file))
        .unwrap_or_default();
    // What the address belongs to: "[32, 393) 'board' (line 83) <== Memory access ..."
    // (stack), "global variable 'board' defined in 'x.cpp:10:6'", "N bytes after M-byte region".
    let variable = report.iter().find_map(|l| {
        if l.contains("<== Memory access") {
            let name = l.split('\'').nth(1)?;
            let decl = l
                .split("(line ")
                .nth(1)
                .and_then(|r| r.split(')').next())
                .map(|n| format!(", declared on line {n}"))
                .unwrap_or_default();
            Some(format!("'{name}'{decl}"))
        } else if l.contains("global variable '") {
            let name = l.split("global variable '").nth(1)?.split('\'').next()?;
            Some(format!("global '{name}'"))
        } else {
            None
        }
    });
    let region = report.iter().find_map(|l| {
        let at = l.find("-byte region")?;
        let size: String = l[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        Some(size)
    });
    let (kind, explanation) = match kind_word {
        "stack-buffer-overflow" => (
            "stack buffer overflow",
            format!(
                "{access} past the end (or before the start) of an array on the stack{}",
                variable.map(|v| format!(" ({v})")).unwrap_or_default()
            ),
        ),
        "global-buffer-overflow" => (
            "global buffer overflow",
            format!(
                "{access} past the end (or before the start) of a global array{}",
                variable.map(|v| format!(" ({v})")).unwrap_or_default()
            ),
        ),
        "heap-buffer-overflow" => (
            "heap buffer overflow",
            format!(
                "{access} past the end (or before the start) of memory from new/malloc{}",
                region
                    .map(|r| format!(" (a block of {r} bytes)"))
                    .unwrap_or_default()
            ),
        ),
        "heap-use-after-free" => (
            "use after free",
            format!("{access} memory that was already freed (delete/free)"),
        ),
        "stack-use-after-scope" => (
            "use after scope",
            format!("{access} a local variable after its block ended"),
        ),
        "stack-use-after-return" => (
            "use after return",
            format!("{access} a local variable of a function that already returned"),
        ),
        "double-free" | "attempting" if headline.contains("double-free") => {
            ("double free", "frees the same memory twice".to_string())
        }
        "SEGV" if headline.contains("address 0x000000000") => (
            "null pointer dereference",
            format!("{access} through a null pointer (the program crashed)"),
        ),
        "SEGV" => (
            "invalid memory access",
            format!("{access} an address it does not own (the program crashed)"),
        ),
        "stack-overflow" => (
            "stack overflow",
            "ran out of stack (a recursion that does not end?)".to_string(),
        ),
        _ => ("memory error", headline.trim().to_string()),
    };
    Finding {
        kind: kind.into(),
        file,
        line,
        explanation,
        inputs_before: 0,
        after_input: None,
    }
}

/// `FILE:LINE[:COL]` at the end of a stack frame line.
fn frame_place(frame: &str) -> Option<(String, u32)> {
    let place = frame.rsplit(' ').next()?;
    let mut parts: Vec<&str> = place.split(':').collect();
    // FILE:LINE:COL or FILE:LINE
    while parts.len() > 2 && parts.last()?.parse::<u32>().is_ok() {
        let line = parts[parts.len() - 2];
        if line.parse::<u32>().is_ok() {
            parts.pop();
        } else {
            break;
        }
    }
    let line: u32 = parts.last()?.parse().ok()?;
    parts.pop();
    Some((parts.join(":"), line))
}

/// The `sanitizer` check's verdict on a run's findings: passes when there are none; the
/// detail lists at most [`SHOWN`] of them.
pub fn evaluate(findings: &[Finding]) -> Evaluation {
    if findings.is_empty() {
        return Evaluation::pass(
            "no memory error or undefined behaviour found (AddressSanitizer and UBSan)",
        );
    }
    let mut lines: Vec<String> = vec![format!(
        "{} problem{} found by AddressSanitizer/UBSan (undefined behaviour: the output may \
         differ on another machine or compiler):",
        findings.len(),
        if findings.len() == 1 { "" } else { "s" }
    )];
    lines.extend(
        findings
            .iter()
            .take(SHOWN)
            .map(|f| format!("- {}", f.sentence())),
    );
    if findings.len() > SHOWN {
        lines.push(format!("- and {} more", findings.len() - SHOWN));
    }
    let first = &findings[0];
    Evaluation::fail(
        lines.join("\n"),
        Difference {
            location: if first.file.is_empty() {
                "the instrumented run".into()
            } else {
                format!("{}:{}", first.file, first.line)
            },
            expected: "no undefined behaviour".into(),
            actual: first.sentence(),
            inputs_before: first.inputs_before,
            relaxation: None,
            student_line: None,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(parts: &[(&str, bool)]) -> Transcript {
        let mut t = Transcript::new();
        for (text, input) in parts {
            if *input {
                t.push_input(*text);
            } else {
                t.push_output(Stream::Stderr, text.as_bytes());
            }
        }
        t
    }

    #[test]
    fn ubsan_index_is_placed_after_its_input() {
        let t = run(&[
            ("J19", true),
            (
                "edge.cpp:52:61: runtime error: index 19 out of bounds for type 'char [19]'\n",
                false,
            ),
        ]);
        let f = findings(&t);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].kind, "out-of-bounds index");
        assert_eq!((f[0].file.as_str(), f[0].line), ("edge.cpp", 52));
        assert_eq!(f[0].after_input.as_deref(), Some("J19"));
        assert!(f[0].explanation.contains("one past its last element"));
    }

    #[test]
    fn asan_report_names_the_students_frame_and_variable() {
        let report = "=================================================================\n\
==1==ERROR: AddressSanitizer: stack-buffer-overflow on address 0x7ffc at pc 0x56 bp 0x7 sp 0x7\n\
READ of size 1 at 0x7ffc72c8ee29 thread T0\n\
    #0 0x563d82618bf6 in countDirection(char const (*) [19], int, int, int, int, char) edge.cpp:52\n\
    #1 0x563d82618bf6 in main edge.cpp:101\n\
    #2 0x7f in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n\
\n\
Address 0x7ffc72c8ee29 is located in stack of thread T0 at offset 537 in frame\n\
    #0 0x563d in main edge.cpp:81\n\
\n\
  This frame has 1 object(s):\n\
    [176, 537) 'board' (line 83) <== Memory access at offset 537 overflows this variable\n\
SUMMARY: AddressSanitizer: stack-buffer-overflow edge.cpp:52 in countDirection\n";
        let f = findings(&run(&[(report, false), (report, false)]));
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].kind, "stack buffer overflow");
        assert_eq!((f[0].file.as_str(), f[0].line), ("edge.cpp", 52));
        assert!(f[0].explanation.contains("'board', declared on line 83"));
        assert_eq!(f[0].after_input, None);
    }

    #[test]
    fn system_headers_are_no_place_of_the_students() {
        let t = run(&[(
            "/usr/include/c++/12/bits/stl_vector.h:1123:2: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\n",
            false,
        )]);
        let f = findings(&t);
        assert_eq!(f[0].file, "");
        assert_eq!(f[0].kind, "signed integer overflow");
    }
}
