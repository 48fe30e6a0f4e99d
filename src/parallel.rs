//! The one work queue: a grading's cases, a case's samples and exploration's games all run
//! through [`in_parallel`], kept here so grading and exploration share it without importing
//! each other.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Calls `work` for every index below `count` on up to `jobs` threads; each slot holds what
/// `work` returned for its index (`None` where it returned `None` or never ran). The one work
/// queue of a grading's cases, a case's samples and exploration's games.
pub fn in_parallel<R: Send>(
    count: usize,
    jobs: usize,
    work: impl Fn(usize) -> Option<R> + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let slots: Mutex<Vec<Option<R>>> = Mutex::new((0..count).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                if index >= count {
                    break;
                }
                let Some(result) = work(index) else {
                    break;
                };
                if let Ok(mut slots) = slots.lock() {
                    slots[index] = Some(result);
                }
            });
        }
    });
    slots
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
