//! The grader's command line and environment hold no secret a run could read (issue 31):
//! where runs have no pid namespace of their own (Docker's default seccomp profile refuses
//! one), every process's `/proc/PID/cmdline` is readable to them, and `/proc/PID/environ` to
//! a program of the grader's own uid. Both show the bytes of the process's initial
//! arguments and environment, wherever they are changed later, so once the command line is
//! parsed the values of `--course-seed` and `GRADE_COURSE_SEED` are overwritten there, in
//! place. The arguments are captured from the binary's `.init_array` (glibc passes `argc`,
//! `argv` and `envp` to those functions, as it does to Rust's runtime).

use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicIsize, AtomicPtr, Ordering};
use std::sync::OnceLock;

static ARGC: AtomicIsize = AtomicIsize::new(0);
static ARGV: AtomicPtr<*mut c_char> = AtomicPtr::new(std::ptr::null_mut());
static ENVP: AtomicPtr<*mut c_char> = AtomicPtr::new(std::ptr::null_mut());

/// The course seed's variable as it was before it was hidden (`None`: not hidden yet).
static SAVED_SEED: OnceLock<Result<String, std::env::VarError>> = OnceLock::new();

/// Keeps where the process's arguments and environment strings live, to [`hide_secrets`]
/// later. Called from the binary's `.init_array` with what glibc passes there.
///
/// # Safety
/// `argv` must hold `argc` pointers and `envp` end with a null pointer, as the process's
/// own (or be null).
pub unsafe fn capture(argc: c_int, argv: *const *mut c_char, envp: *const *mut c_char) {
    ARGC.store(argc as isize, Ordering::SeqCst);
    ARGV.store(argv.cast_mut(), Ordering::SeqCst);
    ENVP.store(envp.cast_mut(), Ordering::SeqCst);
}

/// `GRADE_COURSE_SEED` as the grader was started with it, also after [`hide_secrets`].
pub fn course_seed_variable() -> Result<String, std::env::VarError> {
    match SAVED_SEED.get() {
        Some(saved) => saved.clone(),
        None => std::env::var(COURSE_SEED_VARIABLE),
    }
}

/// Overwrites the value of `--course-seed N`, `--course-seed=N` and `GRADE_COURSE_SEED=N`
/// in the process's initial arguments and environment with `x`s (what `/proc/PID/cmdline`
/// and `environ` show). Call once the command line is parsed: the parsed copies stay.
pub fn hide_secrets() {
    let _ = SAVED_SEED.set(std::env::var(COURSE_SEED_VARIABLE));
    let argc = usize::try_from(ARGC.load(Ordering::SeqCst)).unwrap_or(0);
    let argv = ARGV.load(Ordering::SeqCst);
    let envp = ENVP.load(Ordering::SeqCst);
    const FLAG: &[u8] = b"--course-seed";
    if !argv.is_null() {
        let mut value_next = false;
        for i in 0..argc {
            // SAFETY: argv holds argc pointers to NUL-terminated strings (`capture`).
            let arg = unsafe { *argv.add(i) };
            if arg.is_null() {
                break;
            }
            // SAFETY: a NUL-terminated string of the process's arguments.
            let bytes = unsafe { std::ffi::CStr::from_ptr(arg) }.to_bytes();
            let len = bytes.len();
            if value_next {
                // SAFETY: overwrites the string's own bytes, not its NUL.
                unsafe { overwrite(arg, 0, len) };
                value_next = false;
            } else if bytes == FLAG {
                value_next = true;
            } else if bytes.starts_with(FLAG) && bytes.get(FLAG.len()) == Some(&b'=') {
                // SAFETY: as above.
                unsafe { overwrite(arg, FLAG.len() + 1, len) };
            }
        }
    }
    if !envp.is_null() {
        let name = format!("{}=", COURSE_SEED_VARIABLE);
        for i in 0.. {
            // SAFETY: envp ends with a null pointer (`capture`).
            let var = unsafe { *envp.add(i) };
            if var.is_null() {
                break;
            }
            // SAFETY: a NUL-terminated string of the process's environment.
            let bytes = unsafe { std::ffi::CStr::from_ptr(var) }.to_bytes();
            if bytes.starts_with(name.as_bytes()) {
                // SAFETY: as above.
                unsafe { overwrite(var, name.len(), bytes.len()) };
            }
        }
    }
}

/// Writes `x` over bytes `from..to` of the string at `s`.
///
/// # Safety
/// `s` must point to at least `to` writable bytes.
unsafe fn overwrite(s: *mut c_char, from: usize, to: usize) {
    for k in from..to {
        // SAFETY: within the string (the caller's contract).
        unsafe { *s.add(k) = b'x' as c_char };
    }
}

/// The environment variable holding the course seed of random-games cases.
pub const COURSE_SEED_VARIABLE: &str = "GRADE_COURSE_SEED";

/// The course seed from `GRADE_COURSE_SEED`, if set; a value that is not a number is an error
/// (a typo would otherwise silently give every student the public games).
pub fn course_seed_from_env() -> anyhow::Result<Option<u64>> {
    match course_seed_variable() {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => {
            anyhow::bail!("{COURSE_SEED_VARIABLE}: not a number (a seed from 0 to 2^64-1)")
        }
        Ok(text) if text.trim().is_empty() => Ok(None),
        Ok(text) => text.trim().parse::<u64>().map(Some).map_err(|_| {
            anyhow::anyhow!("{COURSE_SEED_VARIABLE}={text}: not a number (a seed from 0 to 2^64-1)")
        }),
    }
}
