//! The subcommands other than grading itself: play, record, list, show, bless, verify.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use anyhow::Context;

use crate::console::TerminalConsole;
use crate::games::{self, Assignment, Setup};

/// `grade play`: the reference game on this terminal.
pub fn play(assignment: Assignment, game_args: &[String]) -> anyhow::Result<u8> {
    let setup = Setup::from_args(assignment, game_args, Path::new("."))?;
    let stdin = std::io::stdin();
    let mut console = TerminalConsole::new(stdin.lock(), std::io::stdout().lock());
    games::play(&setup, &mut console);
    Ok(0)
}

/// `grade record`: the canonical transcript of the reference on scripted input.
pub fn record(assignment: Assignment, input: &Path, game_args: &[String]) -> anyhow::Result<u8> {
    let setup = Setup::from_args(assignment, game_args, Path::new("."))?;
    let lines = read_input_lines(input)?;
    let recording = games::record(&setup, &lines);
    print!("{}", recording.transcript.terminal_text());
    if recording.wanted_more_input {
        eprintln!(
            "grade: note: the game wanted more input than {} holds; the transcript ends there",
            input.display()
        );
    } else if recording.unread_lines > 0 {
        eprintln!(
            "grade: note: the game ended with {} input line(s) of {} unread",
            recording.unread_lines,
            input.display()
        );
    }
    Ok(0)
}

/// Reads an input script: one line per input, `-` meaning standard input.
fn read_input_lines(path: &Path) -> anyhow::Result<Vec<String>> {
    let mut text = String::new();
    if path == Path::new("-") {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read input lines from standard input")?;
    } else {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot read input file {}", path.display()))?;
        BufReader::new(file)
            .read_to_string(&mut text)
            .with_context(|| format!("cannot read input file {}", path.display()))?;
    }
    Ok(text
        .as_bytes()
        .lines()
        .map(|l| l.map(|l| l.trim_end_matches('\r').to_string()))
        .collect::<Result<_, _>>()?)
}

/// `grade list`.
pub fn list(assignment: Option<Assignment>, cases: Option<&Path>) -> anyhow::Result<u8> {
    let _ = (assignment, cases);
    anyhow::bail!("grade list is not implemented yet")
}

/// `grade show`.
pub fn show(assignment: Assignment, case: &str, cases: Option<&Path>) -> anyhow::Result<u8> {
    let _ = (assignment, case, cases);
    anyhow::bail!("grade show is not implemented yet")
}

/// `grade bless`.
pub fn bless(assignment: Option<Assignment>, root: &Path) -> anyhow::Result<u8> {
    let _ = (assignment, root);
    anyhow::bail!("grade bless is not implemented yet")
}

/// `grade verify`.
pub fn verify(assignment: Option<Assignment>, root: &Path) -> anyhow::Result<u8> {
    let _ = (assignment, root);
    anyhow::bail!("grade verify is not implemented yet")
}
