//! How many programs run at once in this process: `--jobs`.
//!
//! A grading's threads do more than wait for programs: between two runs a thread scores the
//! last transcript, steers the next random game and prepares the next run — its directory,
//! cgroups, Landlock ruleset, and the spawn itself: namespaces, the run's root, seccomp. The
//! bound is on *programs*, not threads: a run is prepared and spawned up to the moment
//! before `execve`, where its process waits at a gate (a pipe) until a place is free, and the
//! program that ends hands its place straight to the next gate. So that work goes on beside
//! a running program (one thread more than `--jobs`), and no more than `--jobs` programs
//! ever compete for the cores, however cases, samples and games nest.

use std::collections::VecDeque;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Mutex, PoisonError};

/// Who holds and who waits for the places.
struct Places {
    /// Programs allowed at once; 0: no bound (a process that never set one, such as a test).
    limit: usize,
    /// Places held now (programs running, or granted and about to exec).
    held: usize,
    /// Gates waiting for a place, oldest first: their ticket and the pipe's write end.
    queue: VecDeque<(u64, OwnedFd)>,
    /// Tickets granted a place and not yet turned into a [`Slot`] or given back.
    granted: Vec<u64>,
    /// The next ticket's number.
    next_ticket: u64,
}

impl Places {
    /// Gives waiting gates the places that are free.
    fn grant_free(&mut self) {
        while self.limit == 0 || self.held < self.limit {
            let Some((ticket, gate)) = self.queue.pop_front() else {
                break;
            };
            self.held += 1;
            self.granted.push(ticket);
            open_gate(&gate);
        }
    }

    /// A place given back: to the oldest waiting gate, or freed.
    fn give_back(&mut self) {
        self.held = self.held.saturating_sub(1);
        self.grant_free();
    }
}

/// Opens a gate: one byte its waiting process reads. A write into a pipe's empty buffer never
/// blocks; were it to fail, the process would wait until the grader exits, then read the
/// end of the pipe and not exec.
fn open_gate(gate: &OwnedFd) {
    // SAFETY: a one-byte write from a valid buffer into a descriptor we own.
    unsafe { libc::write(gate.as_raw_fd(), b"g".as_ptr().cast(), 1) };
}

/// A bound on programs running at once, with the gates waiting for it. The process has one
/// ([`programs`]); tests make their own.
pub struct Programs {
    places: Mutex<Places>,
}

/// The process's bound, which every run takes its place from.
pub fn programs() -> &'static Programs {
    static PROCESS: Programs = Programs::new();
    &PROCESS
}

impl Programs {
    /// No bound, no one waiting.
    pub const fn new() -> Programs {
        Programs {
            places: Mutex::new(Places {
                limit: 0,
                held: 0,
                queue: VecDeque::new(),
                granted: Vec::new(),
                next_ticket: 0,
            }),
        }
    }

    fn places(&self) -> std::sync::MutexGuard<'_, Places> {
        self.places.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Sets how many programs may run at once (`--jobs`); 0 takes the bound away.
    pub fn set_limit(&self, programs: usize) {
        let mut places = self.places();
        places.limit = programs;
        places.grant_free();
    }

    /// The bound set by [`Programs::set_limit`]; 0 when none was set.
    pub fn limit(&self) -> usize {
        self.places().limit
    }

    /// Places held now.
    pub fn held(&self) -> usize {
        self.places().held
    }

    /// Asks for a place for the process waiting on `gate`'s read end: its write end is
    /// written as soon as a place is free (at once when one is).
    pub fn request(&self, gate: OwnedFd) -> Ticket<'_> {
        let mut places = self.places();
        let ticket = places.next_ticket;
        places.next_ticket += 1;
        places.queue.push_back((ticket, gate));
        places.grant_free();
        Ticket {
            programs: self,
            number: ticket,
        }
    }
}

impl Default for Programs {
    fn default() -> Self {
        Programs::new()
    }
}

/// Sets how many programs this process runs at once (`--jobs`).
pub fn set_limit(programs_at_once: usize) {
    programs().set_limit(programs_at_once);
}

/// A pipe whose read end a run's process waits on before `execve` (close-on-exec on both
/// ends, so no program ever holds one).
pub fn gate() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors on success.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fresh descriptors, owned from here on.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A place asked for on behalf of a process waiting at a gate; dropped without
/// [`Ticket::into_slot`] (the spawn failed) it is withdrawn or, if granted, given back.
#[must_use = "a ticket dropped at once gives its place back"]
pub struct Ticket<'p> {
    programs: &'p Programs,
    number: u64,
}

impl<'p> Ticket<'p> {
    /// The place, once its process has passed the gate (it exec'd).
    pub fn into_slot(self) -> Slot<'p> {
        let (programs, number) = (self.programs, self.number);
        std::mem::forget(self);
        let mut places = programs.places();
        if let Some(at) = places.granted.iter().position(|&t| t == number) {
            places.granted.swap_remove(at);
        }
        Slot { programs }
    }
}

impl Drop for Ticket<'_> {
    fn drop(&mut self) {
        let mut places = self.programs.places();
        if let Some(at) = places.queue.iter().position(|(t, _)| *t == self.number) {
            // Never granted: withdrawn (its process is gone, or reads the end of the pipe).
            places.queue.remove(at);
        } else if let Some(at) = places.granted.iter().position(|&t| t == self.number) {
            places.granted.swap_remove(at);
            places.give_back();
        }
    }
}

/// A running program's place, handed to the next waiting gate when dropped.
#[must_use = "the place is given back when this is dropped"]
pub struct Slot<'p> {
    programs: &'p Programs,
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.programs.places().give_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// Waits at `gate` as a run's process does: one byte, or the end of the pipe.
    fn pass(gate: &OwnedFd) -> bool {
        let mut byte = 0u8;
        // SAFETY: a one-byte read into a valid buffer.
        unsafe { libc::read(gate.as_raw_fd(), (&mut byte as *mut u8).cast(), 1) == 1 }
    }

    #[test]
    fn places_pass_from_program_to_gate_and_never_exceed_the_bound() {
        let programs = Programs::new();
        programs.set_limit(2);
        let peak = AtomicUsize::new(0);
        let now = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..6 {
                scope.spawn(|| {
                    for _ in 0..20 {
                        let (wait, open) = gate().expect("pipe");
                        let ticket = programs.request(open);
                        assert!(pass(&wait), "the gate opens with a byte");
                        let slot = ticket.into_slot();
                        let here = now.fetch_add(1, Ordering::SeqCst) + 1;
                        peak.fetch_max(here, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_micros(300));
                        now.fetch_sub(1, Ordering::SeqCst);
                        drop(slot);
                    }
                });
            }
        });
        // Six threads asking, two at a time.
        assert_eq!(peak.load(Ordering::SeqCst), 2);
        assert_eq!(programs.held(), 0);
    }

    #[test]
    fn a_failed_or_withdrawn_ticket_gives_its_place_back() {
        let programs = Programs::new();
        programs.set_limit(1);
        assert_eq!(programs.limit(), 1);
        let (wait_a, open_a) = gate().expect("pipe");
        let a = programs.request(open_a);
        assert!(pass(&wait_a));
        // B waits behind A.
        let (wait_b, open_b) = gate().expect("pipe");
        let b = programs.request(open_b);
        assert_eq!(programs.held(), 1);
        // A's exec failed: its place goes on to B.
        drop(a);
        assert!(pass(&wait_b), "the place went on to the waiting gate");
        assert_eq!(programs.held(), 1);
        // C waits, then is withdrawn (its spawn failed before the gate): its gate ends.
        let (wait_c, open_c) = gate().expect("pipe");
        drop(programs.request(open_c));
        assert!(!pass(&wait_c), "a withdrawn gate reads the end of the pipe");
        assert_eq!(programs.held(), 1);
        // B ran and ended: nothing held, no grant left over.
        drop(b.into_slot());
        assert_eq!(programs.held(), 0);
        assert!(programs.places().granted.is_empty());
        // Raising the bound opens a waiting gate.
        let (wait_d, open_d) = gate().expect("pipe");
        let d = programs.request(open_d);
        let (wait_e, open_e) = gate().expect("pipe");
        let e = programs.request(open_e);
        assert!(pass(&wait_d));
        programs.set_limit(2);
        assert_eq!(programs.limit(), 2);
        assert!(pass(&wait_e), "a higher bound grants the next gate");
        drop(d.into_slot());
        drop(e.into_slot());
        assert_eq!(programs.held(), 0);
        // No bound: every gate opens at once.
        programs.set_limit(0);
        assert_eq!(programs.limit(), 0);
        let gates: Vec<_> = (0..5).map(|_| gate().expect("pipe")).collect();
        let tickets: Vec<_> = gates
            .iter()
            .map(|(_, open)| programs.request(open.try_clone().expect("dup")))
            .collect();
        assert!(gates.iter().all(|(wait, _)| pass(wait)));
        assert_eq!(programs.held(), 5);
        drop(tickets);
        assert_eq!(programs.held(), 0);
    }
}
