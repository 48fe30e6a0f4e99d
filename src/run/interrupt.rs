//! Ctrl-C and SIGTERM during a grading: the grader stops starting work, every running program
//! is killed by its own supervisor (which then removes its working directory and cgroups as
//! after any run), finished work is kept, and the grader exits with status 130.
//!
//! [`install`] blocks SIGINT, SIGTERM and SIGHUP in the calling thread before any other
//! thread exists (so every thread inherits the mask; programs get a clean mask at exec) and
//! waits for them on a thread of its own with `sigwait`: no code runs in a signal handler. A
//! second signal ends the grader at once (a second Ctrl-C), except SIGTERM after SIGTERM: a
//! batch engine such as Slurm may send it twice before its SIGKILL, and the gradebook must
//! still be written.

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// The exit status of an interrupted grader (128 + SIGINT, as shells report Ctrl-C).
pub const EXIT_INTERRUPTED: u8 = 130;

fn signal_set() -> libc::sigset_t {
    // SAFETY: sigset_t is plain data initialised by sigemptyset.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        set
    }
}

/// Starts watching for SIGINT, SIGTERM and SIGHUP. Call first thing in `main`, before any
/// thread is spawned.
pub fn install() {
    let set = signal_set();
    // SAFETY: a valid signal set.
    if unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) } != 0 {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || loop {
            let mut sig = 0;
            // SAFETY: a valid set and out-pointer.
            if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
                continue;
            }
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                // SIGTERM after SIGTERM is a batch engine's notice given twice (Slurm's time
                // limit signals the step, then the job), whose SIGKILL follows a grace period:
                // keep finishing the gradebook. Any other second signal: stop now.
                if sig == libc::SIGTERM && SIGNAL.load(Ordering::SeqCst) == libc::SIGTERM {
                    continue;
                }
                std::process::exit(i32::from(EXIT_INTERRUPTED));
            }
            SIGNAL.store(sig, Ordering::SeqCst);
        });
    if spawned.is_err() {
        // Without the watcher, signals must keep their default effect.
        // SAFETY: a valid signal set.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
    }
}

/// Whether the grader was asked to stop.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Marks the grader as interrupted (tests; the signal thread does it for real signals).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// An error for work that was not done because the grader was interrupted.
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match SIGNAL.load(Ordering::SeqCst) {
            libc::SIGTERM => "SIGTERM",
            libc::SIGHUP => "SIGHUP",
            _ => "SIGINT",
        };
        write!(f, "interrupted ({name})")
    }
}

impl std::error::Error for Interrupted {}

/// `Err(Interrupted)` once the grader was asked to stop.
pub fn check() -> Result<(), Interrupted> {
    if interrupted() {
        Err(Interrupted)
    } else {
        Ok(())
    }
}
