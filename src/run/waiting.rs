//! Whether a syscall a thread of the run sits in means "waiting for the next input line".
//!
//! A program waits for input in one of two ways: it reads stdin and blocks, or it first waits
//! for stdin to become readable — `select`/`pselect6`/`poll`/`ppoll` with fd 0 in its read set,
//! or `epoll_wait`/`epoll_pwait`/`epoll_pwait2` on an epoll instance watching our stdin (every
//! Node.js `readline`, Python asyncio and event-loop C program) — and then reads it without
//! blocking. Both count as waiting; a read on a non-blocking stdin (it returns EAGAIN at once)
//! and a wait with a zero timeout (a mere check) do not. The same judgement serves seccomp
//! notifications (the thread is held in the syscall) and /proc polling (it sleeps in it).
//!
//! The sets live in the program's memory: they are read with `process_vm_readv`, which needs
//! the ptrace access the supervisor has over its own runs (as it needs for /proc/T/syscall).

use std::fs;
use std::os::unix::fs::MetadataExt;

/// Identity of the run's stdin: (device, inode) of the pipe or terminal.
pub type StdinId = (u64, u64);

/// One syscall a thread is in: its number and six raw arguments.
#[derive(Debug, Clone, Copy)]
pub struct Syscall {
    /// The thread (an id in the supervisor's pid namespace).
    pub tid: u32,
    /// The syscall number.
    pub nr: i64,
    /// The raw argument registers.
    pub args: [u64; 6],
}

/// The run's stdin as the supervisor knows it.
#[derive(Debug, Clone, Copy)]
pub struct Stdin {
    /// (device, inode) of the pipe or terminal.
    pub id: StdinId,
    /// Our descriptor for the open file the program got as fd 0 (its read end or terminal):
    /// when the program's fd 0 is still that same open file, its flags are read here with one
    /// `fcntl` instead of from /proc.
    pub reader: Option<std::os::fd::RawFd>,
}

/// What a syscall is, as far as input goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
// aarch64 has no select or poll system calls (only pselect6 and ppoll).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
enum Kind {
    /// read, pread64, readv, preadv, preadv2 (fd in arg 0).
    Read,
    /// select(nfds, readfds, writefds, exceptfds, timeval*).
    Select,
    /// pselect6(nfds, readfds, writefds, exceptfds, timespec*, sigmask).
    Pselect,
    /// poll(fds, nfds, timeout_ms).
    Poll,
    /// ppoll(fds, nfds, timespec*, sigmask, size).
    Ppoll,
    /// epoll_wait(epfd, events, max, timeout_ms) and epoll_pwait (same, plus a sigmask).
    EpollWait,
    /// epoll_pwait2(epfd, events, max, timespec*, sigmask, size).
    EpollPwait2,
    Other,
}

/// The syscall numbers of this architecture that can wait for stdin, by kind.
#[cfg(target_arch = "x86_64")]
const TABLE: &[(i64, Kind)] = &[
    (libc::SYS_read, Kind::Read),
    (libc::SYS_pread64, Kind::Read),
    (libc::SYS_readv, Kind::Read),
    (libc::SYS_preadv, Kind::Read),
    (libc::SYS_preadv2, Kind::Read),
    (libc::SYS_select, Kind::Select),
    (libc::SYS_pselect6, Kind::Pselect),
    (libc::SYS_poll, Kind::Poll),
    (libc::SYS_ppoll, Kind::Ppoll),
    (libc::SYS_epoll_wait, Kind::EpollWait),
    (libc::SYS_epoll_pwait, Kind::EpollWait),
    (libc::SYS_epoll_pwait2, Kind::EpollPwait2),
];
#[cfg(target_arch = "aarch64")]
const TABLE: &[(i64, Kind)] = &[
    (libc::SYS_read, Kind::Read),
    (libc::SYS_pread64, Kind::Read),
    (libc::SYS_readv, Kind::Read),
    (libc::SYS_preadv, Kind::Read),
    (libc::SYS_preadv2, Kind::Read),
    (libc::SYS_pselect6, Kind::Pselect),
    (libc::SYS_ppoll, Kind::Ppoll),
    (libc::SYS_epoll_pwait, Kind::EpollWait),
    (libc::SYS_epoll_pwait2, Kind::EpollPwait2),
];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const TABLE: &[(i64, Kind)] = &[];

fn kind(nr: i64) -> Kind {
    TABLE
        .iter()
        .find(|(n, _)| *n == nr)
        .map(|(_, k)| *k)
        .unwrap_or(Kind::Other)
}

/// The read-family syscall numbers (notified when their fd is 0).
pub fn read_syscalls() -> impl Iterator<Item = u32> {
    TABLE
        .iter()
        .filter(|(_, k)| *k == Kind::Read)
        .map(|(n, _)| *n as u32)
}

/// The waiting syscalls whose timeout is an `int` of milliseconds, with its argument index:
/// a zero timeout there is a mere check, which the seccomp filter lets through unseen.
pub fn waits_with_int_timeout() -> impl Iterator<Item = (u32, u32)> {
    TABLE.iter().filter_map(|(n, k)| match k {
        Kind::Poll => Some((*n as u32, 2)),
        Kind::EpollWait => Some((*n as u32, 3)),
        _ => None,
    })
}

/// The other waiting syscalls (timeouts behind pointers, sets in memory): all notified.
pub fn other_waits() -> impl Iterator<Item = u32> {
    TABLE
        .iter()
        .filter(|(_, k)| {
            matches!(
                k,
                Kind::Select | Kind::Pselect | Kind::Ppoll | Kind::EpollPwait2
            )
        })
        .map(|(n, _)| *n as u32)
}

/// The syscalls that only sleep (`nanosleep`, `clock_nanosleep`): notified so the
/// supervisor can cut them short ([`sleep_request`], `run::pace`).
pub fn sleep_syscalls() -> impl Iterator<Item = u32> {
    SLEEPS.iter().map(|&nr| nr as u32)
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const SLEEPS: &[i64] = &[libc::SYS_nanosleep, libc::SYS_clock_nanosleep];
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const SLEEPS: &[i64] = &[];

/// A thread's request to sleep, as its syscall states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SleepRequest {
    /// Sleep this long: `nanosleep`, `clock_nanosleep` without `TIMER_ABSTIME`, and
    /// `select`/`pselect6`/`poll`/`ppoll` on no descriptor at all with a timeout.
    For(std::time::Duration),
    /// Sleep until `at` on clock `clock` (`clock_nanosleep` with `TIMER_ABSTIME`, as Python's
    /// `time.sleep` does).
    Until {
        /// `CLOCK_REALTIME`, `CLOCK_MONOTONIC` or `CLOCK_BOOTTIME`.
        clock: libc::clockid_t,
        /// The time on that clock.
        at: std::time::Duration,
    },
}

/// What `call` asks for when it is nothing but a sleep of a known, finite length on a wall
/// clock; `None` for everything else (a wait for a descriptor, a CPU-time clock, a timeout
/// the kernel would refuse or that cannot be read, no timeout at all).
pub fn sleep_request(call: &Syscall) -> Option<SleepRequest> {
    const TIMER_ABSTIME: u64 = 1;
    let (tid, a) = (call.tid, call.args);
    if SLEEPS.first() == Some(&call.nr) {
        return read_timespec(tid, a[0]).map(SleepRequest::For);
    }
    if SLEEPS.get(1) == Some(&call.nr) {
        let clock = a[0] as libc::clockid_t;
        if ![
            libc::CLOCK_REALTIME,
            libc::CLOCK_MONOTONIC,
            libc::CLOCK_BOOTTIME,
        ]
        .contains(&clock)
        {
            return None;
        }
        let time = read_timespec(tid, a[2])?;
        return Some(if a[1] & TIMER_ABSTIME != 0 {
            SleepRequest::Until { clock, at: time }
        } else {
            SleepRequest::For(time)
        });
    }
    let nothing_watched = match kind(call.nr) {
        Kind::Select | Kind::Pselect => a[0] as i32 == 0,
        Kind::Poll | Kind::Ppoll => a[1] == 0,
        _ => false,
    };
    if !nothing_watched {
        return None;
    }
    match kind(call.nr) {
        Kind::Select => read_pair(tid, a[4], 1_000).map(SleepRequest::For),
        Kind::Pselect => read_timespec(tid, a[4]).map(SleepRequest::For),
        Kind::Poll => {
            let ms = a[2] as i32;
            (ms > 0).then(|| SleepRequest::For(std::time::Duration::from_millis(ms as u64)))
        }
        Kind::Ppoll => read_timespec(tid, a[2]).map(SleepRequest::For),
        _ => None,
    }
}

/// A `struct timespec` in the thread's memory, when it is one the kernel accepts.
fn read_timespec(tid: u32, addr: u64) -> Option<std::time::Duration> {
    read_pair(tid, addr, 1)
}

/// Two 64-bit words at `addr` (seconds, then sub-seconds in units of `unit_ns`
/// nanoseconds): a valid, non-negative time, else `None` (a null or unreadable pointer
/// included).
fn read_pair(tid: u32, addr: u64, unit_ns: u64) -> Option<std::time::Duration> {
    let mut raw = [0u8; 16];
    if !read_memory(tid, addr, &mut raw) {
        return None;
    }
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&raw[i * 8..i * 8 + 8]);
        i64::from_ne_bytes(w)
    };
    let (secs, sub) = (word(0), word(1));
    let sub_ns = u64::try_from(sub).ok()?.checked_mul(unit_ns)?;
    if secs < 0 || sub_ns >= 1_000_000_000 {
        return None;
    }
    Some(std::time::Duration::new(secs as u64, sub_ns as u32))
}

/// Whether the thread in `call` waits for input on our stdin (`stdin`): blocked (or about to
/// block) reading it, or waiting for it to become readable. False when in doubt about
/// anything but the fd's identity, so a program is never typed too early.
pub fn waits_for_stdin(call: &Syscall, stdin: &Stdin) -> bool {
    let tid = call.tid;
    let a = call.args;
    // The common case, cheaply: fd 0 is still the open file we handed the program.
    let fd0_ours = stdin.reader.filter(|&r| same_open_file(tid, 0, r));
    let waits = match kind(call.nr) {
        Kind::Read => {
            // preadv2 with RWF_NOWAIT (8) never blocks.
            let nowait = call.nr == TABLE_PREADV2 && a[5] & 8 != 0;
            let nonblocking = match fd0_ours {
                Some(reader) => status_flags(reader) & libc::O_NONBLOCK != 0,
                None => fd_nonblocking(tid, 0),
            };
            a[0] as i32 == 0 && !nowait && !nonblocking
        }
        Kind::Select => select_reads_fd0(tid, a[0] as i32, a[1]) && !zero_timeval(tid, a[4]),
        Kind::Pselect => select_reads_fd0(tid, a[0] as i32, a[1]) && !zero_timespec(tid, a[4]),
        Kind::Poll => a[2] as i32 != 0 && poll_reads_fd0(tid, a[0], a[1]),
        Kind::Ppoll => !zero_timespec(tid, a[2]) && poll_reads_fd0(tid, a[0], a[1]),
        Kind::EpollWait => a[3] as i32 != 0 && epoll_watches(tid, a[0] as i32, stdin.id),
        Kind::EpollPwait2 => !zero_timespec(tid, a[3]) && epoll_watches(tid, a[0] as i32, stdin.id),
        Kind::Other => false,
    };
    // epoll identifies the file itself; the others name fd 0, which must be our stdin.
    waits
        && (matches!(kind(call.nr), Kind::EpollWait | Kind::EpollPwait2)
            || fd0_ours.is_some()
            || fd0_is(tid, stdin.id))
}

/// Whether fd `fd` of thread `tid` and our fd `ours` are the same open file (`kcmp`; false
/// where the kernel lacks it).
fn same_open_file(tid: u32, fd: i32, ours: std::os::fd::RawFd) -> bool {
    const KCMP_FILE: libc::c_long = 0;
    // SAFETY: kcmp only compares kernel objects; no memory is passed.
    let r = unsafe {
        libc::syscall(
            libc::SYS_kcmp,
            tid as libc::pid_t,
            std::process::id() as libc::pid_t,
            KCMP_FILE,
            fd as libc::c_long,
            ours as libc::c_long,
        )
    };
    r == 0
}

/// The file status flags of our descriptor (0 when it cannot be read).
fn status_flags(fd: std::os::fd::RawFd) -> i32 {
    // SAFETY: F_GETFL reads flags of a descriptor we own.
    unsafe { libc::fcntl(fd, libc::F_GETFL) }.max(0)
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const TABLE_PREADV2: i64 = libc::SYS_preadv2;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const TABLE_PREADV2: i64 = -1;

fn fd0_is(tid: u32, stdin: StdinId) -> bool {
    fs::metadata(format!("/proc/{tid}/fd/0")).is_ok_and(|m| (m.dev(), m.ino()) == stdin)
}

/// Whether the thread's `fd` has O_NONBLOCK set (its read returns EAGAIN instead of waiting).
fn fd_nonblocking(tid: u32, fd: i32) -> bool {
    let Ok(info) = fs::read_to_string(format!("/proc/{tid}/fdinfo/{fd}")) else {
        return false;
    };
    info.lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|v| u32::from_str_radix(v.trim(), 8).ok())
        .is_some_and(|flags| flags & libc::O_NONBLOCK as u32 != 0)
}

/// Reads `buf.len()` bytes at `addr` in the thread's address space.
fn read_memory(tid: u32, addr: u64, buf: &mut [u8]) -> bool {
    if addr == 0 || buf.is_empty() {
        return false;
    }
    let local = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    let remote = libc::iovec {
        iov_base: addr as usize as *mut libc::c_void,
        iov_len: buf.len(),
    };
    // SAFETY: `local` describes our own live buffer; the kernel checks the remote range.
    let n = unsafe { libc::process_vm_readv(tid as libc::pid_t, &local, 1, &remote, 1, 0) };
    n == buf.len() as isize
}

/// Whether the timeout at `addr` (two 64-bit words: seconds, sub-seconds) is zero. A null
/// pointer means no timeout; an unreadable one is taken as a check, not a wait.
fn zero_pair(tid: u32, addr: u64) -> bool {
    if addr == 0 {
        return false;
    }
    let mut raw = [0u8; 16];
    if !read_memory(tid, addr, &mut raw) {
        return true;
    }
    raw == [0u8; 16]
}

fn zero_timeval(tid: u32, addr: u64) -> bool {
    zero_pair(tid, addr)
}

fn zero_timespec(tid: u32, addr: u64) -> bool {
    zero_pair(tid, addr)
}

/// Whether fd 0 is in a select read set (`nfds` > 0 and bit 0 of the set's first byte).
fn select_reads_fd0(tid: u32, nfds: i32, readfds: u64) -> bool {
    let mut first = [0u8; 1];
    nfds > 0 && read_memory(tid, readfds, &mut first) && first[0] & 1 != 0
}

/// Largest poll set looked at (a program polling more descriptors is still read in full up to
/// this; fd 0 sits near the front of every real set).
const MAX_POLL_FDS: u64 = 4096;

/// Whether a `struct pollfd` array asks for fd 0 to become readable.
fn poll_reads_fd0(tid: u32, fds: u64, nfds: u64) -> bool {
    let n = nfds.min(MAX_POLL_FDS) as usize;
    if n == 0 {
        return false;
    }
    let mut raw = vec![0u8; n * std::mem::size_of::<libc::pollfd>()];
    if !read_memory(tid, fds, &mut raw) {
        return false;
    }
    raw.chunks_exact(8).any(|p| {
        let fd = i32::from_ne_bytes([p[0], p[1], p[2], p[3]]);
        let events = i16::from_ne_bytes([p[4], p[5]]);
        fd == 0 && events & (libc::POLLIN | libc::POLLRDNORM) != 0
    })
}

/// Whether the epoll instance `epfd` of the thread watches our stdin for input (from
/// /proc/T/fdinfo/EPFD: one `tfd: … events: … ino: … sdev: …` line per watched file).
fn epoll_watches(tid: u32, epfd: i32, stdin: StdinId) -> bool {
    fs::read_to_string(format!("/proc/{tid}/fdinfo/{epfd}"))
        .is_ok_and(|info| epoll_info_watches(&info, stdin))
}

/// Parses an epoll fdinfo text: a watched file with (device, inode) `stdin` and EPOLLIN.
fn epoll_info_watches(info: &str, stdin: StdinId) -> bool {
    info.lines().filter(|l| l.starts_with("tfd:")).any(|line| {
        let field = |name: &str| {
            let mut words = line.split_whitespace();
            words.find(|w| w.starts_with(name)).and_then(|w| {
                let v = &w[name.len()..];
                let v = if v.is_empty() { words.next()? } else { v };
                u64::from_str_radix(v, 16).ok()
            })
        };
        let (Some(events), Some(ino), Some(sdev)) =
            (field("events:"), field("ino:"), field("sdev:"))
        else {
            return false;
        };
        // The kernel prints its own dev_t encoding (major << 20 | minor).
        let dev = libc::makedev((sdev >> 20) as u32, (sdev & 0xf_ffff) as u32);
        events & libc::EPOLLIN as u64 != 0 && (dev, ino) == stdin
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoll_fdinfo_lines_are_matched_on_file_and_input_events() {
        let info = "pos:\t0\nflags:\t02\nmnt_id:\t15\nino:\t1057\n\
                    tfd:        5 events:       19 data:                5  pos:0 ino:2a sdev:d\n\
                    tfd:        0 events:       19 data:                0  pos:0 ino:1f3 sdev:d\n";
        let dev = libc::makedev(0, 13);
        assert!(epoll_info_watches(info, (dev, 0x1f3)));
        assert!(epoll_info_watches(info, (dev, 0x2a)));
        assert!(!epoll_info_watches(info, (dev, 0x1f4)));
        assert!(!epoll_info_watches(info, (libc::makedev(0, 14), 0x1f3)));
        // EPOLLOUT only (4), or a spent EPOLLONESHOT registration: not waiting for input.
        let out_only = "tfd:        0 events:        4 data: 0 pos:0 ino:1f3 sdev:d\n";
        assert!(!epoll_info_watches(out_only, (dev, 0x1f3)));
        let kernel_dev = "tfd: 0 events: 1 data: 0 pos:0 ino:7 sdev:800003\n";
        assert!(epoll_info_watches(kernel_dev, (libc::makedev(8, 3), 7)));
    }

    /// Whether this kernel has kcmp (it may be configured out).
    fn kcmp_available() -> bool {
        let me = std::process::id() as libc::pid_t;
        // SAFETY: comparing our own fd 0 with itself.
        let r = unsafe { libc::syscall(libc::SYS_kcmp, me, me, 0_i64, 0_i64, 0_i64) };
        r != -1
    }

    #[test]
    fn every_waiting_syscall_is_in_exactly_one_filter_list() {
        let reads: Vec<u32> = read_syscalls().collect();
        let timed: Vec<u32> = waits_with_int_timeout().map(|(n, _)| n).collect();
        let other: Vec<u32> = other_waits().collect();
        if TABLE.is_empty() {
            return;
        }
        assert_eq!(reads.len(), 5);
        assert_eq!(reads.len() + timed.len() + other.len(), TABLE.len());
        for n in &timed {
            assert!(!other.contains(n) && !reads.contains(n));
        }
    }

    #[test]
    fn sleeps_are_read_from_the_threads_memory() {
        if SLEEPS.is_empty() {
            return;
        }
        use std::time::Duration;
        let me = std::process::id();
        let call = |nr: i64, args: [u64; 6]| Syscall { tid: me, nr, args };
        let ts = [1_i64, 500_000_000];
        let at = ts.as_ptr() as u64;
        let for_1_5 = Some(SleepRequest::For(Duration::from_millis(1500)));
        assert_eq!(
            sleep_request(&call(libc::SYS_nanosleep, [at, 0, 0, 0, 0, 0])),
            for_1_5
        );
        let clock = |id: libc::clockid_t, flags: u64| {
            sleep_request(&call(
                libc::SYS_clock_nanosleep,
                [id as u64, flags, at, 0, 0, 0],
            ))
        };
        assert_eq!(clock(libc::CLOCK_REALTIME, 0), for_1_5);
        assert_eq!(
            clock(libc::CLOCK_MONOTONIC, 1),
            Some(SleepRequest::Until {
                clock: libc::CLOCK_MONOTONIC,
                at: Duration::from_millis(1500)
            })
        );
        // A CPU-time clock is no sleep; a time the kernel refuses, or none, is not read.
        assert_eq!(clock(libc::CLOCK_PROCESS_CPUTIME_ID, 0), None);
        let bad = [1_i64, 1_000_000_000];
        let negative = [-1_i64, 0];
        for wrong in [bad.as_ptr() as u64, negative.as_ptr() as u64, 0] {
            assert_eq!(
                sleep_request(&call(libc::SYS_nanosleep, [wrong, 0, 0, 0, 0, 0])),
                None
            );
        }
        // select and poll sleep when they watch no descriptor at all.
        let tv = [0_i64, 300_000];
        let ppoll_nr = TABLE
            .iter()
            .find(|(_, k)| *k == Kind::Ppoll)
            .map(|(n, _)| *n);
        if let Some(ppoll) = ppoll_nr {
            assert_eq!(sleep_request(&call(ppoll, [0, 0, at, 0, 8, 0])), for_1_5);
            assert_eq!(sleep_request(&call(ppoll, [at, 1, at, 0, 8, 0])), None);
        }
        #[cfg(target_arch = "x86_64")]
        {
            let tv_at = tv.as_ptr() as u64;
            assert_eq!(
                sleep_request(&call(libc::SYS_select, [0, 0, 0, 0, tv_at, 0])),
                Some(SleepRequest::For(Duration::from_millis(300)))
            );
            assert_eq!(
                sleep_request(&call(libc::SYS_select, [1, at, 0, 0, tv_at, 0])),
                None
            );
            assert_eq!(
                sleep_request(&call(libc::SYS_poll, [0, 0, 300, 0, 0, 0])),
                Some(SleepRequest::For(Duration::from_millis(300)))
            );
            assert_eq!(
                sleep_request(&call(libc::SYS_poll, [0, 0, (-1_i32) as u64, 0, 0, 0])),
                None
            );
        }
        let _ = tv;
        // Reads and other waits are no sleeps.
        assert_eq!(
            sleep_request(&call(libc::SYS_read, [0, at, 1, 0, 0, 0])),
            None
        );
    }

    #[test]
    fn own_memory_and_fds_are_inspected() {
        let me = std::process::id();
        let value = 0x5a5a_u64.to_ne_bytes();
        let mut back = [0u8; 8];
        assert!(read_memory(me, value.as_ptr() as u64, &mut back));
        assert_eq!(back, value);
        let zero = [0u64; 2];
        assert!(zero_pair(me, zero.as_ptr() as u64));
        let some = [0u64, 100_000_000];
        assert!(!zero_pair(me, some.as_ptr() as u64));
        assert!(!zero_pair(me, 0), "a null timeout waits forever");
        let set = [libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        }];
        assert!(poll_reads_fd0(me, set.as_ptr() as u64, 1));
        let other = [libc::pollfd {
            fd: 3,
            events: libc::POLLIN,
            revents: 0,
        }];
        assert!(!poll_reads_fd0(me, other.as_ptr() as u64, 1));
        // kcmp tells a duplicate of an open file from another open file of the same pipe.
        let mut fds = [0; 2];
        // SAFETY: pipe fills two descriptors we then own and close.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let (r, w) = (fds[0], fds[1]);
        // SAFETY: duplicating and closing our own descriptors.
        let dup = unsafe { libc::dup(r) };
        assert!(same_open_file(me, r, dup) || !kcmp_available());
        assert!(!same_open_file(me, r, w));
        assert_eq!(status_flags(dup) & libc::O_NONBLOCK, 0);
        // SAFETY: as above.
        unsafe {
            libc::close(dup);
            libc::close(r);
            libc::close(w);
        }
        let fdset = [1u8, 0, 0, 0];
        assert!(select_reads_fd0(me, 1, fdset.as_ptr() as u64));
        assert!(!select_reads_fd0(me, 0, fdset.as_ptr() as u64));
    }
}
