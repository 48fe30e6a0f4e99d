//! The `grade` binary: everything is in the library's `cli` module, so completions, the
//! manual page and the tests see the same command line.

/// Runs before every library constructor (preloaded ones included) and before Rust's runtime:
/// a copy of `grade` started by a program under grading refuses before any code but the
/// kernel's and its own has run (see `grade::run::seccomp::GRADER_MARK`).
#[used]
#[link_section = ".preinit_array"]
static REFUSE_INSIDE_A_GRADING: extern "C" fn() = refuse_inside_a_grading;

extern "C" fn refuse_inside_a_grading() {
    grade::run::seccomp::refuse_inside_grade_sandbox();
}

fn main() -> std::process::ExitCode {
    grade::cli::main()
}
