//! `grade run`: run any command with scripted input under the sandbox and print what happened.
//!
//! The human format prints what a terminal would have shown (inputs echoed, control bytes
//! escaped), then stderr, then one line saying how the run ended; `--json` prints all of it
//! as one JSON object for scripts and tests.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::json;

use super::args::RunArgs;
use crate::run::{EndOfInput, Ending, Limits, RunSpec};
use crate::terminal::decode_visible;
use crate::transcript::{Event, Stream};

/// A run's working directory prepared by `grade run`, removed when dropped (without
/// recursion, however deep a tree the program left).
pub struct PreparedDir(Option<tempfile::TempDir>);

impl Drop for PreparedDir {
    fn drop(&mut self) {
        if let Some(dir) = self.0.take() {
            let _ = crate::run::workdir::remove_tree(&dir.keep());
        }
    }
}

/// Copies `from` to `dir/name` with its mode (an executable stays executable), refusing names
/// that leave the directory.
fn copy_in(dir: &Path, name: &str, from: &Path) -> anyhow::Result<()> {
    let relative = Path::new(name);
    if relative.as_os_str().is_empty()
        || relative
            .components()
            .any(|c| !matches!(c, std::path::Component::Normal(_)))
    {
        anyhow::bail!("--file {name}=…: the name must stay inside the working directory");
    }
    let to = dir.join(relative);
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", parent.display()))?;
    }
    // std::fs::copy keeps the permission bits.
    std::fs::copy(from, &to).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", from.display()))?;
    Ok(())
}

/// Builds the run specification from the options, with its working directory: the `--file`s
/// copied in with their modes, and a command given as a relative path (`./prog`,
/// `build/prog`) copied in too and run from there, as it would run from the current
/// directory.
pub fn spec_from_args(args: &RunArgs) -> anyhow::Result<(RunSpec, PreparedDir)> {
    let limits = crate::run::LimitOverrides::from(&args.limits).apply(&Limits::default());
    let input = match &args.input {
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            String::from_utf8_lossy(&bytes)
                .lines()
                .map(str::to_string)
                .collect()
        }
        None => Vec::new(),
    };
    let dir = tempfile::Builder::new()
        .prefix("grade-run-")
        .tempdir()
        .map_err(|e| anyhow::anyhow!("cannot make a working directory: {e}"))?;
    let prepared = PreparedDir(Some(dir));
    let workdir = prepared
        .0
        .as_ref()
        .map(|d| d.path().to_path_buf())
        .ok_or_else(|| anyhow::anyhow!("no working directory"))?;
    let mut names = Vec::new();
    for f in &args.files {
        let (name, path) = f
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--file wants NAME=PATH, got {f:?}"))?;
        copy_in(&workdir, name, Path::new(path))?;
        names.push(name.to_string());
    }
    let mut command = args.command.clone();
    if let Some(program) = command.first_mut().filter(|p| p.contains('/')) {
        // A path, not a name looked up on PATH.
        let path = PathBuf::from(program.as_str());
        let runs = if path.is_absolute() {
            path
        } else {
            let given = program.trim_start_matches("./").to_string();
            let name = if names.contains(&given) {
                given
            } else if path.is_file() {
                let name = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .ok_or_else(|| anyhow::anyhow!("{program}: not a file"))?;
                if !names.contains(&name) {
                    copy_in(&workdir, &name, &path)?;
                }
                name
            } else {
                anyhow::bail!(
                    "{program}: no such file (in the current directory, nor given with --file)"
                );
            };
            *program = format!("./{name}");
            workdir.join(name)
        };
        // It must be something Linux runs, not bytes the shell would read as commands.
        if runs.is_file() {
            if let Some(reason) = crate::submission::not_a_program(&runs) {
                anyhow::bail!("{program}: {reason}");
            }
        }
    }
    let mut env = Vec::new();
    for e in &args.env {
        let (k, v) = e
            .split_once('=')
            .ok_or_else(|| anyhow::anyhow!("--env wants KEY=VALUE, got {e:?}"))?;
        env.push((k.to_string(), v.to_string()));
    }
    let spec = RunSpec {
        command,
        files: Vec::new(),
        readable: args.readable.clone(),
        env,
        input,
        end_of_input: if args.close_stdin {
            EndOfInput::Close
        } else {
            EndOfInput::Stop
        },
        limits,
        terminal: args.terminal,
        workdir: Some(workdir),
    };
    Ok((spec, prepared))
}

/// Makes control characters visible for printing (newlines and tabs stay); see
/// [`crate::escape::visible`], the one escaping function.
pub fn escape_controls(text: &str) -> String {
    crate::escape::visible(text)
}

/// A short machine-readable name for an ending, e.g. `exited`, `cpu-limit`.
pub fn ending_name(e: Ending) -> &'static str {
    match e {
        Ending::Exited(_) => "exited",
        Ending::Signaled(_) => "signaled",
        Ending::WallTimeout => "wall-timeout",
        Ending::CpuLimit => "cpu-limit",
        Ending::MemoryLimit => "memory-limit",
        Ending::OutputLimit => "output-limit",
        Ending::DiskLimit => "disk-limit",
        Ending::WaitingForInput => "waiting-for-input",
        Ending::Blocked(_) => "blocked",
    }
}

/// Runs the command and prints its transcript and how it ended.
pub fn run_command(args: &RunArgs) -> anyhow::Result<u8> {
    let (spec, _workdir) = spec_from_args(args)?;
    let outcome = crate::run::run(&spec)?;
    let t = &outcome.transcript;
    let code = match outcome.ending {
        Ending::Exited(c) => Some(c),
        Ending::Signaled(s) => Some(s),
        _ => None,
    };
    if args.json {
        let events: Vec<_> = t
            .events()
            .iter()
            .map(|e| match e {
                Event::Output { stream, bytes } => json!({
                    "stream": if *stream == Stream::Stdout { "stdout" } else { "stderr" },
                    "output": decode_visible(bytes),
                }),
                Event::Input { line } => json!({ "input": line }),
                Event::InputClosed => json!({ "input_closed": true }),
            })
            .collect();
        let value = json!({
            "events": events,
            "terminal_text": t.terminal_text(),
            "stdout": t.raw_output_text(Stream::Stdout),
            "stderr": t.raw_output_text(Stream::Stderr),
            "ending": ending_name(outcome.ending),
            "code": code,
            "unread_inputs": outcome.unread_inputs,
            "prompts_late": outcome.prompts_late,
            "output_truncated": outcome.output_truncated,
            "wall_ms": outcome.wall.as_secs_f64() * 1000.0,
            "slept_ms": outcome.slept.as_secs_f64() * 1000.0,
            "cpu_ms": outcome.cpu.as_secs_f64() * 1000.0,
            "peak_memory_bytes": outcome.peak_memory_bytes,
            "detection": outcome.detection.name(),
            "sandbox": crate::run::layers::states(),
        });
        let text = format!("{value}\n");
        let safe =
            crate::report::github::structured(text.into_bytes(), crate::report::Format::Json);
        print!("{}", String::from_utf8_lossy(&safe));
    } else {
        for layer in crate::run::layers::states() {
            if layer.required && !layer.active {
                eprintln!(
                    "grade: WARNING: sandbox layer {} is off: {}",
                    layer.name, layer.detail
                );
            }
        }
        let mut shown = escape_controls(&t.terminal_text());
        if outcome.output_truncated {
            let _ = writeln!(
                shown,
                "\n[output cut at {} bytes]",
                spec.limits.output_bytes
            );
        }
        let err = t.output_text(Stream::Stderr);
        if !err.is_empty() {
            shown.push_str("--- stderr ---\n");
            shown.push_str(&escape_controls(&err));
        }
        let _ = writeln!(
            shown,
            "--- {}{} · {} unread input line(s){} · wall {:.1} ms{} · cpu {:.1} ms · peak {} · input detection: {}",
            ending_name(outcome.ending),
            code.map(|c| format!(" ({c})")).unwrap_or_default(),
            outcome.unread_inputs,
            if outcome.prompts_late { " · prompts late" } else { "" },
            outcome.wall.as_secs_f64() * 1000.0,
            match outcome.slept {
                Duration::ZERO => String::new(),
                slept => format!(" · slept {:.1} ms (not counted)", slept.as_secs_f64() * 1000.0),
            },
            outcome.cpu.as_secs_f64() * 1000.0,
            outcome
                .peak_memory_bytes
                .map(|b| format!("{:.1} MiB", b as f64 / 1048576.0))
                .unwrap_or_else(|| "unknown".into()),
            outcome.detection.name(),
        );
        // The program's output, fenced under GitHub Actions: it may hold workflow commands.
        print!("{}", crate::report::github::fence(&shown));
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_but_newlines_kept() {
        assert_eq!(escape_controls("a\0b\r\n\x07\x1b"), "a\\0b\\r\n\\u{7}\\e");
    }
}
