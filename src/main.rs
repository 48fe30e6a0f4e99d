//! The `grade` binary: everything is in the library's `cli` module, so completions, the
//! manual page and the tests see the same command line.

fn main() -> std::process::ExitCode {
    grade::cli::main()
}
