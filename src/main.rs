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

/// Keeps where glibc put the arguments and environment, so that the course seed can be
/// overwritten there once parsed (`grade::cli::scrub`): `/proc/PID/cmdline` shows those bytes.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[link_section = ".init_array"]
static CAPTURE_ARGUMENTS: extern "C" fn(
    std::ffi::c_int,
    *const *mut std::ffi::c_char,
    *const *mut std::ffi::c_char,
) = capture_arguments;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn capture_arguments(
    argc: std::ffi::c_int,
    argv: *const *mut std::ffi::c_char,
    envp: *const *mut std::ffi::c_char,
) {
    // SAFETY: glibc passes the process's own argc, argv and envp to .init_array functions.
    unsafe { grade::cli::scrub::capture(argc, argv, envp) };
}

fn main() -> std::process::ExitCode {
    grade::cli::main()
}
