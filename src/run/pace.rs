//! Time a program spends asleep is not its time (issue 30): a "Computer is thinking..." pause
//! costs neither the wall limit nor the grader's time, and a program that waits for nothing
//! is stopped in seconds instead of at the wall limit.
//!
//! * **Cut short.** A sleep of at least [`CUT_FROM`] through `nanosleep` or `clock_nanosleep`
//!   (C's `sleep`/`usleep`, C++'s `sleep_for`, Python's `time.sleep`, Rust's
//!   `thread::sleep`, Perl's `sleep`) or through `select`/`poll` on no descriptor at all
//!   (Python before 3.11) is answered at once with success: the program goes on as if the
//!   time had passed, and the time it asked for counts as slept. A shorter sleep (a runtime's spin back-off: the JVM's 1 ms, Go's 20 µs–10 ms)
//!   runs for real, and so does a sleep that resumes one cut short (the same thread asking at
//!   once for the rest of it, having read the clock: C++'s `sleep_until` on the system clock).
//! * **Not counted.** Other waits run for real (Java's `Thread.sleep` is a timed futex, Node's
//!   `setTimeout`, Go's `time.Sleep` and Python's `asyncio.sleep` a timed epoll wait, and each
//!   caller reads the clock and waits again until the time has come). While the whole run is
//!   idle — no CPU used, nothing printed, no input asked for — its wall clock stops: idle
//!   time does not count toward the wall limit; it counts as slept.
//! * **Limits.** A run may sleep [`sleep_limit`] in all (sleeps cut short and idle time).
//!   A sleep that does not fit in what is left runs for real: a thread that sleeps in a loop
//!   while another computes is not stopped, a run that idles past the limit is
//!   ([`Stall::Slept`]). A single sleep longer than that (`time.sleep(10**9)`) runs for real
//!   too: it is only a hang.
//! * **Blocked.** A run idle for [`blocked_after`] in one stretch (every thread asleep) is
//!   stopped: [`Stall::Idle`].

use std::time::{Duration, Instant};

use super::waiting::SleepRequest;

/// Sleeps shorter than this run for real (runtimes' back-off sleeps are 1 ms to 10 ms).
pub const CUT_FROM: Duration = Duration::from_millis(20);

/// A run idle this long in one stretch is blocked (or its wall limit, if shorter). A pause for
/// effect of a second or two that runs for real (Java's `Thread.sleep(2000)`) stays under it.
pub const BLOCKED_AFTER: Duration = Duration::from_secs(3);

/// How long a run with wall limit `wall` may be idle in one stretch: [`BLOCKED_AFTER`], or
/// the wall limit if that is shorter (a blocked run never takes longer than it did when idle
/// time counted).
pub fn blocked_after(wall: Duration) -> Duration {
    BLOCKED_AFTER.min(wall)
}

/// A run's CPU time grew by less than this share of a sample's interval: idle (1/20, so the
/// JVM's periodic housekeeping while `Thread.sleep` waits is idle).
const IDLE_CPU_SHARE: u32 = 20;

/// How far a sleep's end may be from the end of the sleep cut short before it, and still be
/// taken as its resumption (the program read its clock a little before we read ours).
const RESUME_TOLERANCE: Duration = Duration::from_millis(20);

/// Sleep per run at most (sleeps cut short, at the length they asked for, and idle time,
/// neither of which counts toward the wall limit): six times the wall limit, 60 s with the
/// default 10 s. A run's real time is thus at most seven times its wall limit.
pub fn sleep_limit(wall: Duration) -> Duration {
    wall * 6
}

/// Why a run was stopped as blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stall {
    /// Neither computing, nor printing, nor asking for input for [`blocked_after`].
    Idle,
    /// Slept more than [`sleep_limit`]: idle past it.
    Slept,
}

/// What to do with a sleep the program asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SleepAnswer {
    /// Return success at once, as if the time had passed.
    Cut,
    /// Let it sleep for real.
    Run,
}

/// The last sleep cut short for one thread.
#[derive(Clone, Copy, Debug)]
struct LastCut {
    tid: u32,
    request: SleepRequest,
    /// When it would have ended, on our clock.
    ends: Option<Instant>,
    /// How long it asked for (counted as cut short until it is resumed).
    asked: Duration,
}

/// One run's account of its sleeping and idle time.
#[derive(Debug)]
pub struct Pace {
    wall: Duration,
    /// Sleeps cut short, at the length they asked for.
    cut: Duration,
    /// Idle stretches that ended.
    idle: Duration,
    /// Since when the run has been idle, if it is.
    streak: Option<Instant>,
    last_sample: Instant,
    last_cpu: Option<Duration>,
    last_cuts: Vec<LastCut>,
}

impl Pace {
    /// The account of a run with wall limit `wall` that started at `start`.
    pub fn new(wall: Duration, start: Instant) -> Pace {
        Pace {
            wall,
            cut: Duration::ZERO,
            idle: Duration::ZERO,
            streak: None,
            last_sample: start,
            last_cpu: None,
            last_cuts: Vec::new(),
        }
    }

    /// Decides what becomes of a sleep thread `tid` asks for at `now`.
    pub fn on_sleep(&mut self, tid: u32, request: SleepRequest, now: Instant) -> SleepAnswer {
        let asked = match request {
            SleepRequest::For(asked) => asked,
            SleepRequest::Until { clock, at } => match clock_now(clock) {
                Some(then) => at.saturating_sub(then),
                None => return SleepAnswer::Run,
            },
        };
        if asked < CUT_FROM {
            return SleepAnswer::Run;
        }
        let ends = now.checked_add(asked);
        let previous = self.last_cuts.iter().position(|c| c.tid == tid);
        if let Some(i) = previous.filter(|&i| resumes(&self.last_cuts[i], request, ends, now)) {
            // It runs for real (and counts as idle): the cut it resumes was none.
            self.cut = self.cut.saturating_sub(self.last_cuts[i].asked);
            self.last_cuts[i].asked = Duration::ZERO;
            return SleepAnswer::Run;
        }
        if self.slept(now).saturating_add(asked) <= sleep_limit(self.wall) {
            self.cut += asked;
            let cut = LastCut {
                tid,
                request,
                ends,
                asked,
            };
            match previous {
                Some(i) => self.last_cuts[i] = cut,
                None => self.last_cuts.push(cut),
            }
            return SleepAnswer::Cut;
        }
        SleepAnswer::Run
    }

    /// Takes a sample at `now` of the run's CPU time (`None`: unknown, so not idle), given
    /// when it last printed or was answered (`active`). Returns why to stop the run, if it
    /// must be; `all_asleep` (every thread of the run asleep) confirms a stretch as blocked.
    pub fn sample(
        &mut self,
        cpu: Option<Duration>,
        active: Instant,
        now: Instant,
        all_asleep: impl FnOnce() -> bool,
    ) -> Option<Stall> {
        let since = self.last_sample;
        let interval = now.saturating_duration_since(since);
        let computing = match (cpu, self.last_cpu) {
            (Some(cpu), Some(before)) => cpu.saturating_sub(before) * IDLE_CPU_SHARE > interval,
            _ => true,
        };
        self.last_cpu = cpu;
        self.last_sample = now;
        if computing || active > since {
            if let Some(start) = self.streak.take() {
                self.idle += since.saturating_duration_since(start);
            }
            return None;
        }
        let start = *self.streak.get_or_insert(since);
        if now.saturating_duration_since(start) >= blocked_after(self.wall) {
            if all_asleep() {
                return Some(Stall::Idle);
            }
            // Something runs that the CPU figure missed (a child, without a cgroup): not idle.
            self.streak = None;
            return None;
        }
        (self.slept(now) > sleep_limit(self.wall)).then_some(Stall::Slept)
    }

    /// Idle time so far (not counted toward the wall limit).
    pub fn idle(&self, now: Instant) -> Duration {
        self.idle
            + self
                .streak
                .map_or(Duration::ZERO, |s| now.saturating_duration_since(s))
    }

    /// Time slept so far: sleeps cut short, at the length they asked for, and idle time.
    pub fn slept(&self, now: Instant) -> Duration {
        self.cut + self.idle(now)
    }
}

/// Whether `request`, ending at `ends`, resumes the sleep `previous` cut short: the same end
/// on the same clock, or (a relative sleep) the rest of it, asked for at once.
fn resumes(previous: &LastCut, request: SleepRequest, ends: Option<Instant>, now: Instant) -> bool {
    match (previous.request, request) {
        (SleepRequest::Until { clock: c0, at: a0 }, SleepRequest::Until { clock, at }) => {
            c0 == clock && a0 == at
        }
        (SleepRequest::For(before), SleepRequest::For(asked)) => {
            let (Some(end0), Some(end)) = (previous.ends, ends) else {
                return false;
            };
            let apart = end0
                .saturating_duration_since(end)
                .max(end.saturating_duration_since(end0));
            asked < before && now < end0 + RESUME_TOLERANCE && apart <= RESUME_TOLERANCE
        }
        _ => false,
    }
}

/// The time on `clock` now (for a sleep until a time of that clock).
fn clock_now(clock: libc::clockid_t) -> Option<Duration> {
    // SAFETY: timespec is plain data; clock_gettime fills it.
    let mut ts: libc::timespec = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a timespec.
    if unsafe { libc::clock_gettime(clock, &mut ts) } != 0 || ts.tv_sec < 0 {
        return None;
    }
    Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALL: Duration = Duration::from_secs(10);

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn pauses_are_cut_short_up_to_the_sleep_limit_then_run_for_real() {
        let t0 = Instant::now();
        let mut pace = Pace::new(WALL, t0);
        // 0.7 s pauses, each right after the last: cut until 60 s of them.
        let mut now = t0;
        for _ in 0..85 {
            assert_eq!(
                pace.on_sleep(7, SleepRequest::For(ms(700)), now),
                SleepAnswer::Cut
            );
            now += ms(1);
        }
        assert_eq!(pace.slept(now), ms(85 * 700));
        // 86 × 0.7 = 60.2 s: the next one runs for real.
        assert_eq!(
            pace.on_sleep(7, SleepRequest::For(ms(700)), now),
            SleepAnswer::Run
        );
        // So does one longer than the whole limit, even the first.
        let mut pace = Pace::new(WALL, t0);
        let forever = Duration::from_secs(u64::MAX);
        assert_eq!(
            pace.on_sleep(7, SleepRequest::For(ms(60_001)), t0),
            SleepAnswer::Run
        );
        assert_eq!(
            pace.on_sleep(7, SleepRequest::For(forever), t0),
            SleepAnswer::Run
        );
        assert_eq!(
            pace.on_sleep(7, SleepRequest::For(ms(60_000)), t0),
            SleepAnswer::Cut
        );
        assert_eq!(pace.slept(t0), ms(60_000));
    }

    #[test]
    fn short_sleeps_and_resumed_sleeps_run_for_real() {
        let t0 = Instant::now();
        let mut pace = Pace::new(WALL, t0);
        assert_eq!(
            pace.on_sleep(1, SleepRequest::For(ms(10)), t0),
            SleepAnswer::Run
        );
        assert_eq!(
            pace.on_sleep(1, SleepRequest::For(ms(500)), t0),
            SleepAnswer::Cut
        );
        // The same thread asks for the rest of it 1 ms later: it read its clock. The sleep
        // runs for real, and the cut no longer counts.
        assert_eq!(
            pace.on_sleep(1, SleepRequest::For(ms(499)), t0 + ms(1)),
            SleepAnswer::Run
        );
        assert_eq!(pace.slept(t0), Duration::ZERO);
        // Another thread's sleep, and the same length again, are new sleeps.
        assert_eq!(
            pace.on_sleep(2, SleepRequest::For(ms(499)), t0 + ms(1)),
            SleepAnswer::Cut
        );
        assert_eq!(
            pace.on_sleep(1, SleepRequest::For(ms(500)), t0 + ms(2)),
            SleepAnswer::Cut
        );
        // A shorter sleep that ends elsewhere is new too.
        assert_eq!(
            pace.on_sleep(1, SleepRequest::For(ms(300)), t0 + ms(3)),
            SleepAnswer::Cut
        );
        // Until a time: the very same end again resumes it, a later end is a new sleep.
        let far = clock_now(libc::CLOCK_MONOTONIC).expect("clock") + ms(400);
        let until = |at| SleepRequest::Until {
            clock: libc::CLOCK_MONOTONIC,
            at,
        };
        assert_eq!(pace.on_sleep(1, until(far), t0), SleepAnswer::Cut);
        assert_eq!(pace.on_sleep(1, until(far), t0), SleepAnswer::Run);
        assert_eq!(pace.on_sleep(1, until(far + ms(1)), t0), SleepAnswer::Cut);
        // A time already past is no sleep.
        assert_eq!(pace.on_sleep(1, until(ms(0)), t0), SleepAnswer::Run);
        // Counted: 499 + 500 + 300 ms, and the 401 ms until the later end.
        let slept = pace.slept(t0);
        let fixed = ms(499 + 500 + 300);
        assert!(
            slept > fixed + ms(390) && slept <= fixed + ms(401),
            "{slept:?}"
        );
    }

    #[test]
    fn idle_stretches_stop_the_wall_clock_and_a_long_one_is_blocked() {
        let t0 = Instant::now();
        let mut pace = Pace::new(WALL, t0);
        let cpu = ms(300);
        let mut now = t0 + ms(20);
        // The first sample knows no CPU figure before it: not idle.
        assert_eq!(pace.sample(Some(cpu), t0, now, || true), None);
        // 0.5 s without CPU, output or input: idle.
        for _ in 0..25 {
            now += ms(20);
            assert_eq!(pace.sample(Some(cpu), t0, now, || true), None);
        }
        assert_eq!(pace.idle(now), ms(500));
        // It prints: the stretch ends, and counts.
        let printed = now + ms(5);
        now += ms(20);
        assert_eq!(pace.sample(Some(cpu), printed, now, || true), None);
        assert_eq!(pace.idle(now), ms(500));
        // Busy (CPU time grew by more than 1/20 of the interval): not idle.
        now += ms(20);
        assert_eq!(pace.sample(Some(cpu + ms(2)), t0, now, || true), None);
        assert_eq!(pace.idle(now), ms(500));
        // A little housekeeping (1/40 of the time) is idle.
        now += ms(20);
        assert_eq!(
            pace.sample(Some(cpu + ms(2) + ms(1) / 2), t0, now, || true),
            None
        );
        assert_eq!(pace.idle(now), ms(520));
        // Idle until BLOCKED_AFTER: blocked, if every thread sleeps.
        let mut stall = None;
        let mut samples = 1;
        while stall.is_none() {
            now += ms(20);
            samples += 1;
            stall = pace.sample(Some(cpu + ms(3)), t0, now, || true);
        }
        assert_eq!(stall, Some(Stall::Idle));
        assert_eq!(ms(20) * samples, BLOCKED_AFTER);
        // With a wall limit under BLOCKED_AFTER, the wall limit.
        let mut pace = Pace::new(ms(1000), t0);
        let mut samples = 0;
        while pace
            .sample(Some(cpu), t0, t0 + ms(20) * (samples + 1), || true)
            .is_none()
        {
            samples += 1;
        }
        assert_eq!(ms(20) * samples, ms(1000));
        // A thread the CPU figure missed is running: the stretch was not idle.
        let mut pace = Pace::new(WALL, t0);
        let mut now = t0;
        for _ in 0..=150 {
            now += ms(20);
            assert_eq!(pace.sample(Some(cpu), t0, now, || false), None);
        }
        assert!(pace.idle(now) < BLOCKED_AFTER);
        // Without a CPU figure nothing is idle.
        let mut pace = Pace::new(WALL, t0);
        for i in 1..400 {
            assert_eq!(pace.sample(None, t0, t0 + ms(20) * i, || true), None);
        }
        assert_eq!(pace.idle(t0 + ms(8000)), Duration::ZERO);
    }

    #[test]
    fn idle_beyond_the_sleep_limit_is_too_much_sleep() {
        let t0 = Instant::now();
        let mut pace = Pace::new(WALL, t0);
        let mut now = t0;
        let mut cpu = Duration::ZERO;
        let mut stall = None;
        // 50 s of pauses cut short, then idle 2 s and a burst of work, again and again.
        for i in 0..50 {
            let at = t0 + ms(i);
            assert_eq!(
                pace.on_sleep(1, SleepRequest::For(ms(1000)), at),
                SleepAnswer::Cut
            );
        }
        for round in 0.. {
            for _ in 0..100 {
                now += ms(20);
                stall = pace.sample(Some(cpu), t0, now, || true);
                if stall.is_some() {
                    break;
                }
            }
            if stall.is_some() {
                assert_eq!(round, 5);
                break;
            }
            cpu += ms(20);
            now += ms(20);
            assert_eq!(pace.sample(Some(cpu), t0, now, || true), None);
        }
        assert_eq!(stall, Some(Stall::Slept));
        assert!(pace.slept(now) > sleep_limit(WALL));
        assert!(pace.idle(now) < ms(10_100));
    }
}
