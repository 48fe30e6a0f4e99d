//! `grade run`: run any command with scripted input under the sandbox and print what happened.
//! Skeleton: filled in by the runner work.

use std::path::PathBuf;

use clap::Args;

/// Options of `grade run`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// A file of input lines to send, one per line.
    #[arg(short, long)]
    pub input: Option<PathBuf>,
    /// The command to run and its arguments.
    #[arg(trailing_var_arg = true, required = true)]
    pub command: Vec<String>,
}

/// Runs the command and prints its transcript and how it ended.
pub fn run_command(args: &RunArgs) -> anyhow::Result<u8> {
    let _ = args;
    anyhow::bail!("grade run is not implemented yet")
}
