//! Supervision: the loop that drains output, answers each read with the next input line,
//! cuts sleeps short, watches for the exit and enforces the wall, CPU, disk and idle limits
//! (see `run::pace` for sleeps and idle time).

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::time::{Duration, Instant};

use super::tree::{exited_without_reaping, Tree};
use super::*;
use crate::transcript::{Stream, Transcript};

/// One output stream of the program.
pub(super) struct Output {
    pub(super) fd: Option<OwnedFd>,
    pub(super) stream: Stream,
}

/// The state of one run's supervision loop.
pub(super) struct Supervisor<'a> {
    pub(super) spec: &'a RunSpec,
    pub(super) source: &'a mut dyn InputSource,
    pub(super) transcript: Transcript,
    pub(super) outputs: [Output; 2],
    /// Our end of the program's stdin: the pipe's write end or the terminal master.
    pub(super) stdin: Option<OwnedFd>,
    /// Where unread input is counted (pipe write end, or the terminal slave).
    pub(super) stdin_probe: Option<OwnedFd>,
    pub(super) stdin_id: waiting::StdinId,
    /// The program's stdin as handed to it (our copy of the same open file).
    pub(super) stdin_reader: OwnedFd,
    pub(super) stdin_closed: bool,
    pub(super) kept: usize,
    pub(super) truncated: bool,
    pub(super) output_since_input: bool,
    pub(super) pending_late: bool,
    pub(super) prompts_late: bool,
    pub(super) killed_for: Option<Ending>,
    /// Set when the script ran out while the program's prompt had not appeared: stdin was
    /// closed so a program that buffers its output can flush it, until this moment.
    pub(super) grace_until: Option<Instant>,
    /// Output bytes kept when the grace period began.
    pub(super) kept_before_grace: usize,
    /// Set when the program asked for more input after the script: how many transcript events
    /// there were when it was given end of input, and whether its prompt had appeared.
    pub(super) asked_after_script: Option<(usize, bool)>,
    /// The program ended by itself after being given end of input that way.
    pub(super) ended_after_script: bool,
    pub(super) last_activity: Instant,
    pub(super) buf: Vec<u8>,
    /// Sleeps cut short and idle time (not counted toward the wall limit).
    pub(super) pace: pace::Pace,
    /// Without a memory cgroup: the largest sum of the tree's memory seen while it had more
    /// than one process (0: never), whose limit the supervisor enforces.
    pub(super) tree_memory_peak: u64,
}

/// How long a program whose prompt never appeared gets, after the script ends and its stdin
/// is closed, to flush its buffered output and exit. A program that reads all its input
/// before printing computes its whole game and prints it in this time.
const FLUSH_GRACE: Duration = Duration::from_millis(1000);

/// How long a program that asked for more input with its prompt shown gets, once the script
/// is used up and its stdin is closed, to end by itself (a final "press Enter" ends at end of
/// input: an exception, a failed read, a return).
const PAUSE_GRACE: Duration = Duration::from_millis(500);

/// Output kept after a pause's end of input: a farewell, an error at end of input.
const PAUSE_GRACE_OUTPUT: usize = 64 * 1024;

/// Output kept during the flush grace period beyond what came before it: a whole game's worth
/// (a full 19×19 connect6 game prints about 320 KB), still cutting a program that loops at
/// end of input short of the output limit.
const FLUSH_GRACE_OUTPUT: usize = 1024 * 1024;

/// What to do with a thread waiting for input.
enum Answer {
    Continue,
    Stop,
}

impl<'a> Supervisor<'a> {
    /// The supervisor of a run of `spec` started at `start`, typing what `source` decides
    /// on the grader's ends of its channels; nothing recorded yet.
    pub(super) fn new(
        spec: &'a RunSpec,
        source: &'a mut dyn InputSource,
        ends: GraderEnds,
        start: Instant,
    ) -> Supervisor<'a> {
        Supervisor {
            spec,
            source,
            transcript: Transcript::new(),
            outputs: [
                Output {
                    fd: Some(ends.stdout),
                    stream: Stream::Stdout,
                },
                Output {
                    fd: ends.stderr,
                    stream: Stream::Stderr,
                },
            ],
            stdin: Some(ends.stdin),
            stdin_probe: Some(ends.stdin_probe),
            stdin_id: ends.stdin_id,
            stdin_reader: ends.stdin_reader,
            stdin_closed: false,
            kept: 0,
            truncated: false,
            output_since_input: false,
            pending_late: false,
            prompts_late: false,
            killed_for: None,
            grace_until: None,
            kept_before_grace: 0,
            asked_after_script: None,
            ended_after_script: false,
            last_activity: Instant::now(),
            buf: vec![0u8; 64 * 1024],
            tree_memory_peak: 0,
            pace: pace::Pace::new(spec.limits.wall, start),
        }
    }
}

impl Supervisor<'_> {
    /// Reads what is available on both streams (until EAGAIN). Returns false on output limit.
    pub(super) fn drain(&mut self) -> bool {
        for i in 0..2 {
            while let Some(fd) = self.outputs[i].fd.as_ref() {
                // SAFETY: reading into our own buffer of the given length.
                let n = unsafe {
                    libc::read(fd.as_raw_fd(), self.buf.as_mut_ptr().cast(), self.buf.len())
                };
                if n > 0 {
                    let stream = self.outputs[i].stream;
                    if !self.record(stream, n as usize) {
                        return false;
                    }
                    continue;
                }
                if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::WouldBlock {
                    break;
                }
                if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                // EOF, or EIO on a terminal master whose slave side is gone.
                self.outputs[i].fd = None;
            }
        }
        true
    }

    /// Records `n` bytes of `self.buf`; false once the output limit is exceeded.
    fn record(&mut self, stream: Stream, n: usize) -> bool {
        self.last_activity = Instant::now();
        let limit = match self.grace_until {
            Some(_) => self.spec.limits.output_bytes.min(
                self.kept_before_grace
                    + match self.asked_after_script {
                        Some((_, true)) => PAUSE_GRACE_OUTPUT,
                        _ => FLUSH_GRACE_OUTPUT,
                    },
            ),
            None => self.spec.limits.output_bytes,
        };
        let room = limit.saturating_sub(self.kept);
        let keep = n.min(room);
        let bytes = &self.buf[..keep];
        self.transcript.push_output(stream, bytes);
        self.kept += keep;
        if stream == Stream::Stdout && keep > 0 {
            self.output_since_input = true;
            if self.pending_late {
                self.prompts_late = true;
            }
        }
        if n > room {
            // Output after a pause's end of input is judged apart (and cut when it was no
            // pause): it truncates nothing the checks read.
            self.truncated |= !matches!(self.asked_after_script, Some((_, true)));
            return false;
        }
        true
    }

    /// Bytes written to stdin and not yet read by the program.
    fn unread_input(&self) -> i32 {
        self.stdin_probe
            .as_ref()
            .map(|fd| unread_bytes(fd.as_raw_fd()))
            .unwrap_or(0)
    }

    /// The program waits for input and none is pending: send the next line (or stop/close).
    fn answer(&mut self) -> Answer {
        if !self.drain() {
            if self.grace_until.is_none() {
                self.killed_for = Some(Ending::OutputLimit);
            }
            return Answer::Stop;
        }
        let prompt_missing = !self.output_since_input;
        // After end of input a terminal program may wait again (EOF on a terminal is not
        // final): no prompt is due then.
        if prompt_missing && !self.stdin_closed {
            self.pending_late = true;
        }
        self.output_since_input = false;
        self.last_activity = Instant::now();
        if let Some(line) = self.source.next_line(&self.transcript) {
            let mut bytes = Vec::with_capacity(line.len() + 1);
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
            self.write_stdin(&bytes);
            self.transcript.push_input(line);
            return Answer::Continue;
        }
        match self.spec.end_of_input {
            EndOfInput::Stop => {
                // The program waits for more input. Its prompt has not appeared (its output
                // may be sitting in a buffer), or it has: a game that is over may be asking a
                // person to press Enter. Either way, end its input as a person would, so it
                // can flush and exit; the run still ends as waiting for input, and whether it
                // then ended by itself is kept for the checks (`RunOutcome::asked_after_script`).
                self.killed_for = Some(Ending::WaitingForInput);
                if self.grace_until.is_none() {
                    // Marked in the transcript: what comes after is never merged into the
                    // output before it.
                    self.transcript.push_input_closed();
                    self.asked_after_script =
                        Some((self.transcript.events().len(), !prompt_missing));
                    let grace = if prompt_missing {
                        FLUSH_GRACE
                    } else {
                        PAUSE_GRACE
                    };
                    self.grace_until = Some(Instant::now() + grace);
                    self.kept_before_grace = self.kept;
                }
                self.end_input();
                Answer::Continue
            }
            EndOfInput::Close => {
                if !self.stdin_closed {
                    self.transcript.push_input_closed();
                }
                self.end_input();
                Answer::Continue
            }
        }
    }

    /// Gives the program end of input: closes the pipe once, or (on a terminal, where the
    /// program may read again) types the end-of-file character at every read.
    fn end_input(&mut self) {
        if !self.stdin_closed {
            self.stdin_closed = true;
            if !self.spec.terminal {
                self.stdin = None;
                self.stdin_probe = None;
            }
        }
        if self.spec.terminal {
            self.write_stdin(&[pty::VEOF_BYTE]);
        }
    }

    fn write_stdin(&mut self, mut bytes: &[u8]) {
        let Some(fd) = self.stdin.as_ref() else {
            return;
        };
        while !bytes.is_empty() {
            // SAFETY: writing from a live slice.
            let n = unsafe { libc::write(fd.as_raw_fd(), bytes.as_ptr().cast(), bytes.len()) };
            if n <= 0 {
                if n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return; // pipe full (a line over 64 KiB) or closed: nothing more to do
            }
            bytes = &bytes[n as usize..];
        }
    }

    /// Whether a held syscall should simply continue: input is pending or closed, or the call
    /// is not a wait for our stdin (another fd, a non-blocking read, a zero-timeout check).
    fn should_continue_at_once(&self, call: &waiting::Syscall) -> bool {
        if self.stdin_closed && !self.spec.terminal {
            return true;
        }
        if self.unread_input() > 0 {
            return true;
        }
        let stdin = waiting::Stdin {
            id: self.stdin_id,
            reader: Some(self.stdin_reader.as_raw_fd()),
        };
        !waiting::waits_for_stdin(call, &stdin)
    }
}

pub(super) fn poll_outputs(sup: &Supervisor<'_>, timeout_ms: i32) {
    let mut fds: Vec<libc::pollfd> = sup
        .outputs
        .iter()
        .filter_map(|o| o.fd.as_ref())
        .map(|fd| libc::pollfd {
            fd: fd.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    // SAFETY: fds is a valid array of pollfd.
    unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
}

/// The times at which the supervision loop has something to do besides answering its file
/// descriptors; `None` where a check does not happen on this run.
#[derive(Clone, Copy, Debug)]
struct Wakeups {
    /// The wall-time limit (moved on by idle time).
    deadline: Instant,
    /// The next CPU-time and stall check.
    cpu_check: Instant,
    /// The next memory check, only where no memory cgroup holds the limit.
    memory_check: Option<Instant>,
    /// The end of the grace a run waiting for more input gets.
    grace: Option<Instant>,
    /// The /proc polling interval, where waits are not seen through seccomp and a pidfd.
    polling: Option<Duration>,
}

/// How long one poll may wait: until the earliest wake-up. A check that does not happen on
/// this run must not count, or its past time would make every poll return at once: a busy
/// loop that burned a core of the grader's for every run's whole life.
fn poll_timeout(now: Instant, wakeups: Wakeups) -> Duration {
    let Wakeups {
        deadline,
        cpu_check,
        memory_check,
        grace,
        polling,
    } = wakeups;
    let mut timeout = deadline
        .saturating_duration_since(now)
        .min(cpu_check.saturating_duration_since(now));
    for at in [memory_check, grace].into_iter().flatten() {
        timeout = timeout.min(at.saturating_duration_since(now));
    }
    if let Some(interval) = polling {
        timeout = timeout.min(interval);
    }
    timeout
}

/// The supervision loop: output, notifications, exit, limits. Returns when the run must end.
pub(super) fn supervise(
    sup: &mut Supervisor<'_>,
    tree: &Tree<'_>,
    listener: Option<&OwnedFd>,
    pidfd: Option<&OwnedFd>,
    detection: Detection,
    start: Instant,
) {
    let mut schedule = Schedule::new(start);
    let mut listener_open = listener.is_some();
    loop {
        let now = Instant::now();
        // Idle time does not count: the deadline moves with it.
        let deadline = start + sup.spec.limits.wall + sup.pace.idle(now);
        if let Some(grace) = sup.grace_until {
            if now >= grace {
                return; // killed_for is already WaitingForInput
            }
        }
        if now >= deadline {
            sup.killed_for = Some(Ending::WallTimeout);
            return;
        }
        if interrupt::interrupted() {
            return; // the caller kills the tree, cleans up and reports the interruption
        }
        let timeout = poll_timeout(
            now,
            Wakeups {
                deadline,
                cpu_check: schedule.cpu_check,
                memory_check: (!tree.cgroups.memory_limited).then_some(schedule.memory_check),
                grace: sup.grace_until,
                polling: (detection != Detection::Seccomp || pidfd.is_none())
                    .then_some(schedule.poll_interval),
            },
        );
        let open_listener = listener.filter(|_| listener_open);
        let Some(events) = wait_for_events(sup, open_listener, pidfd, timeout) else {
            return;
        };
        if events.output {
            schedule.poll_interval = Duration::from_micros(50);
            if !sup.drain() {
                if sup.grace_until.is_none() {
                    sup.killed_for = Some(Ending::OutputLimit);
                }
                return;
            }
        }
        if let Some(l) = open_listener {
            if events.listener & libc::POLLIN != 0 {
                if let Answer::Stop = sup.on_notification(l) {
                    return;
                }
            } else if events.listener & (libc::POLLHUP | libc::POLLERR) != 0 {
                listener_open = false; // every filtered process is gone
            }
        }
        let exited = events
            .exited
            .unwrap_or_else(|| exited_without_reaping(tree.leader));
        if exited {
            sup.ended_after_script = sup.asked_after_script.is_some();
            return;
        }
        if let Some(ending) = schedule.due_checks(sup, tree, Instant::now()) {
            sup.killed_for = Some(ending);
            return;
        }
        if detection != Detection::Seccomp {
            match sup.look_for_a_read(tree, detection) {
                Some(answer) => {
                    schedule.poll_interval = Duration::from_micros(50);
                    if let Answer::Stop = answer {
                        return;
                    }
                    continue;
                }
                None => {
                    schedule.poll_interval =
                        (schedule.poll_interval * 2).min(Duration::from_millis(5))
                }
            }
        }
    }
}

/// What one wait of the supervision loop saw.
struct Events {
    /// Output is ready on stdout or stderr (or one of them closed).
    output: bool,
    /// The seccomp listener's `revents` (0 when it is not polled).
    listener: libc::c_short,
    /// Whether the program's pidfd says it exited (`None` without a pidfd).
    exited: Option<bool>,
}

/// Waits up to `timeout` for output, a seccomp notification on `listener` or the exit on
/// `pidfd`, all in one `poll`, so that the loop wakes for whichever comes first; `None` when
/// the poll failed for another reason than a signal (the run then ends).
fn wait_for_events(
    sup: &Supervisor<'_>,
    listener: Option<&OwnedFd>,
    pidfd: Option<&OwnedFd>,
    timeout: Duration,
) -> Option<Events> {
    let pollin = |fd: &OwnedFd| libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    let mut fds: Vec<libc::pollfd> = Vec::with_capacity(4);
    fds.extend(sup.outputs.iter().filter_map(|o| o.fd.as_ref()).map(pollin));
    let n_out = fds.len();
    let listener_idx = listener.map(|l| {
        fds.push(pollin(l));
        fds.len() - 1
    });
    let pid_idx = pidfd.map(|p| {
        fds.push(pollin(p));
        fds.len() - 1
    });
    let ms = timeout.as_micros().div_ceil(1000).min(i32::MAX as u128) as i32;
    // SAFETY: fds is a valid pollfd array.
    let r = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
    if r < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
        return None;
    }
    Some(Events {
        output: fds[..n_out].iter().any(|f| f.revents != 0),
        listener: listener_idx.map_or(0, |i| fds[i].revents),
        exited: pid_idx.map(|i| fds[i].revents != 0),
    })
}

/// When the supervision loop next does each of its periodic checks, and how long it waits
/// between looks at /proc for a read where seccomp does not say.
struct Schedule {
    cpu_check: Instant,
    memory_check: Instant,
    disk_check: Instant,
    /// Short after any activity, doubling up to 5 ms while nothing happens.
    poll_interval: Duration,
}

impl Schedule {
    /// The first checks of a run started at `start`.
    fn new(start: Instant) -> Schedule {
        Schedule {
            cpu_check: start + Duration::from_millis(20),
            memory_check: start + Duration::from_millis(20),
            disk_check: start + Duration::from_millis(250),
            poll_interval: Duration::from_micros(50),
        }
    }

    /// The checks due at `now` — memory, CPU and pace, disk — each rescheduled; the ending
    /// of the first limit the run went over, if any.
    fn due_checks(
        &mut self,
        sup: &mut Supervisor<'_>,
        tree: &Tree<'_>,
        now: Instant,
    ) -> Option<Ending> {
        if !tree.cgroups.memory_limited && now >= self.memory_check {
            let every = if tree.own_proc { 20 } else { 100 };
            self.memory_check = now + Duration::from_millis(every);
            if let Some(ending) = check_tree_memory(sup, tree) {
                return Some(ending);
            }
        }
        if now >= self.cpu_check {
            self.cpu_check = now + Duration::from_millis(20);
            if let Some(ending) = check_cpu_and_pace(sup, tree, now) {
                return Some(ending);
            }
        }
        if now >= self.disk_check {
            // At most ~10% of the supervisor's time, however large the tree.
            let over = tree.over_disk_limit();
            self.disk_check = Instant::now() + (now.elapsed() * 10).max(Duration::from_millis(250));
            if over {
                return Some(Ending::DiskLimit);
            }
        }
        None
    }
}

/// Without a memory cgroup RLIMIT_DATA holds each process; the limit holds for the whole
/// tree by accounting: its processes' memory summed (every 20 ms, or 100 ms where the
/// grader's whole /proc must be read to find them). A sanitized program has no RLIMIT_DATA
/// (ASan reserves its shadow), so it is accounted even alone. Keeps the peak for the outcome.
fn check_tree_memory(sup: &mut Supervisor<'_>, tree: &Tree<'_>) -> Option<Ending> {
    let limits = &sup.spec.limits;
    let bytes = procpoll::tree_memory(
        tree.leader,
        tree.own_proc,
        limits.memory_bytes,
        limits.sanitized,
    )?;
    sup.tree_memory_peak = sup.tree_memory_peak.max(bytes);
    (bytes > limits.memory_bytes).then_some(Ending::MemoryLimit)
}

/// The CPU limit (read from the cgroup), and whether the run is blocked: neither reading
/// input nor computing (see `pace`).
fn check_cpu_and_pace(sup: &mut Supervisor<'_>, tree: &Tree<'_>, now: Instant) -> Option<Ending> {
    let cpu = tree.cgroups.cpu();
    if cpu.is_some_and(|c| c >= sup.spec.limits.cpu) {
        return Some(Ending::CpuLimit);
    }
    let all_asleep = || {
        let stdin = waiting::Stdin {
            id: sup.stdin_id,
            reader: Some(sup.stdin_reader.as_raw_fd()),
        };
        procpoll::threads_state(&tree.processes(), &stdin).all_sleeping
    };
    let cpu = cpu.or_else(|| tree.leader_cpu());
    let stall = sup.pace.sample(cpu, sup.last_activity, now, all_asleep)?;
    Some(Ending::Blocked(stall))
}

impl Supervisor<'_> {
    /// Answers one seccomp notification: a sleep is cut short or let run (see `pace`), a
    /// call that does not wait for our stdin goes on, and a read of it gets the next input.
    fn on_notification(&mut self, listener: &OwnedFd) -> Answer {
        let Ok(notif) = seccomp::recv(listener) else {
            return Answer::Continue;
        };
        let call = waiting::Syscall {
            tid: notif.pid,
            nr: i64::from(notif.data.nr),
            args: notif.data.args,
        };
        if let Some(sleep) = waiting::sleep_request(&call) {
            match self.pace.on_sleep(call.tid, sleep, Instant::now()) {
                pace::SleepAnswer::Cut => seccomp::return_zero(listener, notif.id),
                pace::SleepAnswer::Run => seccomp::continue_syscall(listener, notif.id),
            }
        } else if self.should_continue_at_once(&call) {
            seccomp::continue_syscall(listener, notif.id);
        } else if seccomp::id_valid(listener, notif.id) {
            match self.answer() {
                Answer::Continue => seccomp::continue_syscall(listener, notif.id),
                Answer::Stop => return Answer::Stop,
            }
        }
        Answer::Continue
    }

    /// Without seccomp, whether the program waits for input, seen from /proc (a thread
    /// asleep reading our stdin) or, as the last resort, from quiescence (every thread
    /// asleep, no output for 30 ms); when it does, it is answered. `None`: not waiting.
    fn look_for_a_read(&mut self, tree: &Tree<'_>, detection: Detection) -> Option<Answer> {
        let waiting_closed_pipe = self.stdin_closed && !self.spec.terminal;
        if waiting_closed_pipe || self.unread_input() != 0 {
            return None;
        }
        let pids = tree.processes();
        let stdin = waiting::Stdin {
            id: self.stdin_id,
            reader: Some(self.stdin_reader.as_raw_fd()),
        };
        let st = procpoll::threads_state(&pids, &stdin);
        let waiting = match detection {
            Detection::ProcPolling => st.reading_stdin,
            _ => st.all_sleeping && self.last_activity.elapsed() >= Duration::from_millis(30),
        };
        waiting.then(|| self.answer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wakeups(now: Instant) -> Wakeups {
        Wakeups {
            deadline: now + Duration::from_secs(10),
            cpu_check: now + Duration::from_millis(20),
            memory_check: None,
            grace: None,
            polling: None,
        }
    }

    #[test]
    fn a_poll_waits_until_the_next_cpu_check() {
        let now = Instant::now();
        assert_eq!(poll_timeout(now, wakeups(now)), Duration::from_millis(20));
    }

    #[test]
    fn without_a_memory_check_a_past_memory_time_does_not_wake_the_poll() {
        // Under a memory cgroup the memory check never comes and its time stays in the past.
        let now = Instant::now() + Duration::from_secs(1);
        let w = Wakeups {
            memory_check: None,
            ..wakeups(now)
        };
        assert_eq!(poll_timeout(now, w), Duration::from_millis(20));
    }

    #[test]
    fn each_wakeup_that_happens_shortens_the_wait() {
        let now = Instant::now();
        let base = wakeups(now);
        let memory = Wakeups {
            memory_check: Some(now + Duration::from_millis(7)),
            ..base
        };
        assert_eq!(poll_timeout(now, memory), Duration::from_millis(7));
        let grace = Wakeups {
            grace: Some(now + Duration::from_millis(3)),
            ..base
        };
        assert_eq!(poll_timeout(now, grace), Duration::from_millis(3));
        let polling = Wakeups {
            polling: Some(Duration::from_micros(50)),
            ..base
        };
        assert_eq!(poll_timeout(now, polling), Duration::from_micros(50));
        let deadline = Wakeups {
            deadline: now + Duration::from_millis(2),
            ..base
        };
        assert_eq!(poll_timeout(now, deadline), Duration::from_millis(2));
        let cpu = Wakeups {
            cpu_check: now + Duration::from_millis(1),
            ..base
        };
        assert_eq!(poll_timeout(now, cpu), Duration::from_millis(1));
    }

    #[test]
    fn a_check_already_due_makes_the_poll_return_at_once() {
        let now = Instant::now() + Duration::from_secs(1);
        let due = Wakeups {
            memory_check: Some(now - Duration::from_millis(5)),
            ..wakeups(now)
        };
        assert_eq!(poll_timeout(now, due), Duration::ZERO);
    }
}
