//! Input detection by seccomp user notification.
//!
//! The child installs a classic-BPF filter that turns every read-family syscall on fd 0 into a
//! notification for the supervisor and passes the listener fd to the parent over a socketpair.
//! The reading thread stays blocked until the parent answers, so the parent can drain the
//! prompt, write the next line and only then let the read continue: input lands exactly where
//! the program asked for it, whatever language or thread reads it.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

use libc::{
    SECCOMP_FILTER_FLAG_NEW_LISTENER, SECCOMP_IOCTL_NOTIF_ID_VALID, SECCOMP_IOCTL_NOTIF_RECV,
    SECCOMP_IOCTL_NOTIF_SEND, SECCOMP_RET_ALLOW, SECCOMP_RET_USER_NOTIF,
};

/// `SECCOMP_SET_MODE_FILTER` as the `seccomp` syscall's first argument.
const SECCOMP_SET_MODE_FILTER: libc::c_ulong = libc::SECCOMP_SET_MODE_FILTER as libc::c_ulong;

// <linux/audit.h>: AUDIT_ARCH_X86_64 = EM_X86_64 | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE
// (libc does not define the AUDIT_ARCH_* constants).
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xc000_003e;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xc000_00b7;
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const AUDIT_ARCH: u32 = 0;
/// `struct seccomp_notif`: one held syscall (`id`, and `pid`: the thread, in our pid
/// namespace).
pub type Notif = libc::seccomp_notif;

/// The `prctl` option that marks a grade sandbox: inside one, the kernel kills any process
/// that makes `prctl(GRADER_MARK, …)` (`SECCOMP_RET_KILL_PROCESS`); everywhere else the
/// unused option fails with EINVAL. The filter is inherited across fork and exec and cannot be
/// removed, and no filter the program stacks later can soften it: the kernel runs every filter
/// and acts on the highest-precedence action, and `KILL_PROCESS` is the highest there is (a
/// later `ERRNO`, `TRAP` or `ALLOW` for the same call loses). Every copy of `grade` makes that
/// call in a short-lived child with a raw system call, before any preloaded library's
/// constructor runs ([`refuse_inside_grade_sandbox`]), so no fake `prctl` can answer it.
pub const GRADER_MARK: u32 = 0x4752_4144; // "GRAD"
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const PRCTL: u32 = libc::SYS_prctl as u32;

/// `SECCOMP_RET_KILL_PROCESS`: the whole process dies with SIGSYS.
const SECCOMP_RET_KILL_PROCESS: u32 = 0x8000_0000;

/// The probe's answer, once known: 0 not yet probed, 1 outside, 2 inside, 3 unknown (the
/// probe's child could not be started or waited for).
static MARK_PROBED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Whether this process runs inside a grade sandbox (see [`GRADER_MARK`]): true also when
/// that cannot be found out (a program that stops the probe from running is refused too).
pub fn inside_grade_sandbox() -> bool {
    use std::sync::atomic::Ordering;
    let mut answer = MARK_PROBED.load(Ordering::SeqCst);
    if answer == 0 {
        answer = match probe_mark() {
            Some(false) => 1,
            Some(true) => 2,
            None => 3,
        };
        MARK_PROBED.store(answer, Ordering::SeqCst);
    }
    answer != 1
}

/// The first thing every `grade` process does (from the binary's `.preinit_array`: before
/// the constructors of any library, preloaded ones included, and before Rust's runtime):
/// when it runs inside a grade sandbox, says so on stderr and exits with status 2. Raw
/// system calls only, so no interposed libc function takes part.
pub fn refuse_inside_grade_sandbox() {
    if inside_grade_sandbox() {
        let message = b"grade: refusing to run inside a grade sandbox\n";
        // SAFETY: write of a static buffer, then the end of the process.
        unsafe {
            raw::syscall3(raw::WRITE, 2, message.as_ptr() as usize, message.len());
            raw::syscall3(raw::EXIT_GROUP, 2, 0, 0);
        }
    }
}

/// Makes the marked `prctl` in a child started with a raw `clone` and waits for it with a
/// raw `wait4`: `Some(true)` when the kernel killed it with SIGSYS (the mark), `Some(false)`
/// when it exited normally, `None` when it could not be started or waited for or ended
/// otherwise.
fn probe_mark() -> Option<bool> {
    // SAFETY: the child runs only the raw syscalls inside `fork_and_mark`; wait4 writes one int.
    unsafe {
        let pid = raw::fork_and_mark();
        if pid <= 0 {
            return None;
        }
        let mut status: libc::c_int = 0;
        loop {
            let r = raw::syscall3(
                raw::WAIT4,
                pid as usize,
                &mut status as *mut libc::c_int as usize,
                0,
            );
            if r == pid {
                break;
            }
            if r != -(libc::EINTR as isize) {
                return None;
            }
        }
        if libc::WIFSIGNALED(status) && libc::WTERMSIG(status) == libc::SIGSYS {
            Some(true)
        } else if libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0 {
            Some(false)
        } else {
            None
        }
    }
}

/// System calls without libc (whose functions a preloaded library can replace).
mod raw {
    /// `write`.
    #[cfg(target_arch = "x86_64")]
    pub(super) const WRITE: usize = 1;
    /// `exit_group`.
    #[cfg(target_arch = "x86_64")]
    pub(super) const EXIT_GROUP: usize = 231;
    /// `wait4` (its fourth argument, the rusage pointer, is always null here).
    #[cfg(target_arch = "x86_64")]
    pub(super) const WAIT4: usize = 61;
    #[cfg(target_arch = "aarch64")]
    pub(super) const WRITE: usize = 64;
    #[cfg(target_arch = "aarch64")]
    pub(super) const EXIT_GROUP: usize = 94;
    #[cfg(target_arch = "aarch64")]
    pub(super) const WAIT4: usize = 260;

    /// A system call with three arguments (the rest zero); the kernel's return value.
    ///
    /// # Safety
    /// As the system call itself.
    #[cfg(target_arch = "x86_64")]
    pub(super) unsafe fn syscall3(nr: usize, a: usize, b: usize, c: usize) -> isize {
        let ret: isize;
        // SAFETY: see the function contract.
        unsafe {
            core::arch::asm!(
                "syscall",
                inlateout("rax") nr as isize => ret,
                in("rdi") a,
                in("rsi") b,
                in("rdx") c,
                in("r10") 0usize,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack)
            );
        }
        ret
    }

    /// A system call with three arguments (the rest zero); the kernel's return value.
    ///
    /// # Safety
    /// As the system call itself.
    #[cfg(target_arch = "aarch64")]
    pub(super) unsafe fn syscall3(nr: usize, a: usize, b: usize, c: usize) -> isize {
        let ret: isize;
        // SAFETY: see the function contract.
        unsafe {
            core::arch::asm!(
                "svc #0",
                in("x8") nr,
                inlateout("x0") a as isize => ret,
                in("x1") b,
                in("x2") c,
                in("x3") 0usize,
                options(nostack)
            );
        }
        ret
    }

    /// `clone(SIGCHLD)` (a fork); the child makes `prctl(GRADER_MARK)` and exits with status
    /// 0, all in one assembly block (no Rust code, no stack use in the child). Returns the
    /// child's pid, or a negative errno.
    ///
    /// # Safety
    /// Starts a process: the caller must wait for it.
    #[cfg(target_arch = "x86_64")]
    pub(super) unsafe fn fork_and_mark() -> isize {
        let ret: isize;
        // SAFETY: the child only makes system calls and ends; the parent's registers are
        // declared clobbered.
        unsafe {
            core::arch::asm!(
                "syscall",
                "test rax, rax",
                "jnz 2f",
                "mov eax, {prctl}",
                "mov edi, {mark}",
                "xor esi, esi",
                "xor edx, edx",
                "xor r10d, r10d",
                "xor r8d, r8d",
                "syscall",
                "mov eax, {exit}",
                "xor edi, edi",
                "syscall",
                "2:",
                prctl = const libc::SYS_prctl,
                mark = const super::GRADER_MARK,
                exit = const EXIT_GROUP,
                inlateout("rax") libc::SYS_clone as isize => ret,
                inlateout("rdi") libc::SIGCHLD as usize => _,
                inlateout("rsi") 0usize => _,
                inlateout("rdx") 0usize => _,
                inlateout("r10") 0usize => _,
                inlateout("r8") 0usize => _,
                lateout("rcx") _,
                lateout("r11") _,
                options(nostack)
            );
        }
        ret
    }

    /// `clone(SIGCHLD)` (a fork); the child makes `prctl(GRADER_MARK)` and exits with status
    /// 0, all in one assembly block. Returns the child's pid, or a negative errno.
    ///
    /// # Safety
    /// Starts a process: the caller must wait for it.
    #[cfg(target_arch = "aarch64")]
    pub(super) unsafe fn fork_and_mark() -> isize {
        let ret: isize;
        // SAFETY: as for x86_64.
        unsafe {
            core::arch::asm!(
                "svc #0",
                "cbnz x0, 2f",
                "mov x8, {prctl}",
                "movz w0, {mark_lo}",
                "movk w0, {mark_hi}, lsl #16",
                "mov x1, xzr",
                "mov x2, xzr",
                "mov x3, xzr",
                "mov x4, xzr",
                "svc #0",
                "mov x8, {exit}",
                "mov x0, xzr",
                "svc #0",
                "2:",
                prctl = const libc::SYS_prctl,
                mark_lo = const super::GRADER_MARK & 0xffff,
                mark_hi = const super::GRADER_MARK >> 16,
                exit = const EXIT_GROUP,
                inlateout("x8") libc::SYS_clone as usize => _,
                inlateout("x0") libc::SIGCHLD as isize => ret,
                inlateout("x1") 0usize => _,
                inlateout("x2") 0usize => _,
                inlateout("x3") 0usize => _,
                inlateout("x4") 0usize => _,
                options(nostack)
            );
        }
        ret
    }

    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) const WRITE: usize = libc::SYS_write as usize;
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) const EXIT_GROUP: usize = libc::SYS_exit_group as usize;
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) const WAIT4: usize = libc::SYS_wait4 as usize;

    /// Elsewhere (no marker filter is installed there): libc's `syscall`.
    ///
    /// # Safety
    /// As the system call itself.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) unsafe fn syscall3(nr: usize, a: usize, b: usize, c: usize) -> isize {
        // SAFETY: see the function contract.
        unsafe { libc::syscall(nr as libc::c_long, a, b, c) as isize }
    }

    /// Elsewhere no marker filter is installed: a child that exits at once.
    ///
    /// # Safety
    /// Starts a process: the caller must wait for it.
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    pub(super) unsafe fn fork_and_mark() -> isize {
        // SAFETY: the child only exits.
        unsafe {
            let pid = libc::fork();
            if pid == 0 {
                libc::_exit(0);
            }
            pid as isize
        }
    }
}

/// The marker filter: `prctl(GRADER_MARK)` kills the process (`SECCOMP_RET_KILL_PROCESS`),
/// the rest is allowed. Empty on architectures whose syscall numbers this build does not know.
pub fn marker_filter() -> Vec<libc::sock_filter> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let stmt = |code: u32, k: u32| libc::sock_filter {
            code: code as u16,
            jt: 0,
            jf: 0,
            k,
        };
        let jump = |k: u32, jt: u8, jf: u8| libc::sock_filter {
            code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
            jt,
            jf,
            k,
        };
        let load = |offset: u32| stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, offset);
        let ret = |k: u32| stmt(libc::BPF_RET | libc::BPF_K, k);
        vec![
            load(4),                       // 0: arch
            jump(AUDIT_ARCH, 0, 4),        // 1: foreign arch -> allow (6)
            load(0),                       // 2: syscall number
            jump(PRCTL, 0, 2),             // 3: not prctl -> allow (6)
            load(16),                      // 4: args[0], low 32 bits
            jump(GRADER_MARK, 1, 0),       // 5: the mark -> kill (7)
            ret(SECCOMP_RET_ALLOW),        // 6
            ret(SECCOMP_RET_KILL_PROCESS), // 7
        ]
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        Vec::new()
    }
}

/// Installs the marker filter in the child (no-new-privileges must be set).
///
/// # Safety
/// `prog` must point to a valid filter; call only in the forked child before exec.
pub unsafe fn install_marker_in_child(prog: *const libc::sock_fprog) -> Result<(), i32> {
    // SAFETY: a valid filter program (see the function contract).
    unsafe {
        if libc::syscall(
            libc::SYS_seccomp,
            SECCOMP_SET_MODE_FILTER,
            0 as libc::c_ulong,
            prog,
        ) != 0
        {
            return Err(*libc::__errno_location());
        }
    }
    Ok(())
}

/// Whether this build knows the syscall numbers of the architecture.
pub fn supported_arch() -> bool {
    cfg!(any(target_arch = "x86_64", target_arch = "aarch64"))
}

/// The BPF program: notify on the read family of fd 0, on every syscall that can wait for
/// stdin to become readable (select, pselect6, poll, ppoll, epoll_wait, epoll_pwait,
/// epoll_pwait2) unless its `int` timeout is zero, and on the sleeps (nanosleep,
/// clock_nanosleep), which the supervisor may cut short; allow the rest. Which waits concern
/// stdin is decided by the supervisor ([`crate::run::waiting`]): the sets live in memory. A
/// program that never sleeps nor reads stdin pays two more comparisons per syscall.
pub fn filter() -> Vec<libc::sock_filter> {
    if !supported_arch() {
        return Vec::new();
    }
    use crate::run::waiting;
    use Bpf::*;
    const READ: usize = 0;
    const NOTIFY: usize = 1;
    const ALLOW: usize = 2;
    // Labels 3.. : "timeout argument i is zero -> allow" for each int-timeout argument index.
    let timeout_label = |arg: u32| 3 + arg as usize;
    const NO_EFFECT: usize = 100;
    const FCNTL: usize = 101;
    const NOT_HERE: usize = 102;
    let mut prog = vec![
        Load(4),                               // arch
        JumpEq(AUDIT_ARCH, None, Some(ALLOW)), // foreign arch -> allow
        Load(0),                               // syscall number
    ];
    // No kernel object a run can lock or watch is shared with another run (issue 31):
    // file locks, leases and inotify on a file every run can open (a system binary) signal
    // between concurrent runs. Locks and leases succeed without effect (a program that locks
    // its own files goes on, the JVM's flock of its perf-data file included); inotify and
    // fanotify are not available.
    prog.extend([
        JumpEq(libc::SYS_flock as u32, Some(NO_EFFECT), None),
        JumpEq(libc::SYS_fcntl as u32, Some(FCNTL), None),
    ]);
    prog.extend(watch_syscalls().map(|nr| JumpEq(nr, Some(NOT_HERE), None)));
    prog.extend(waiting::read_syscalls().map(|nr| JumpEq(nr, Some(READ), None)));
    let timed: Vec<(u32, u32)> = waiting::waits_with_int_timeout().collect();
    prog.extend(
        timed
            .iter()
            .map(|&(nr, arg)| JumpEq(nr, Some(timeout_label(arg)), None)),
    );
    prog.extend(waiting::other_waits().map(|nr| JumpEq(nr, Some(NOTIFY), None)));
    prog.extend(waiting::sleep_syscalls().map(|nr| JumpEq(nr, Some(NOTIFY), None)));
    prog.push(Ret(SECCOMP_RET_ALLOW));
    prog.extend([Label(READ), Load(16), JumpEq(0, Some(NOTIFY), Some(ALLOW))]);
    let mut args: Vec<u32> = timed.iter().map(|&(_, arg)| arg).collect();
    args.sort_unstable();
    args.dedup();
    for arg in args {
        prog.extend([
            Label(timeout_label(arg)),
            Load(16 + 8 * arg), // the argument's low 32 bits: the int timeout
            JumpEq(0, Some(ALLOW), Some(NOTIFY)),
        ]);
    }
    prog.push(Label(FCNTL));
    prog.push(Load(24)); // args[1], low 32 bits: the command
    prog.extend(
        LOCK_COMMANDS
            .iter()
            .map(|&cmd| JumpEq(cmd, Some(NO_EFFECT), None)),
    );
    prog.extend([
        Ret(SECCOMP_RET_ALLOW),
        Label(NO_EFFECT),
        Ret(libc::SECCOMP_RET_ERRNO), // errno 0: the call returns 0 and does nothing
        Label(NOT_HERE),
        Ret(libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32),
        Label(NOTIFY),
        Ret(SECCOMP_RET_USER_NOTIF),
        Label(ALLOW),
        Ret(SECCOMP_RET_ALLOW),
    ]);
    assemble(&prog)
}

/// The `fcntl` commands that take a lock or a lease: answered with success and no effect.
/// Testing for a lock (`F_GETLK`, `F_OFD_GETLK`) stays real and finds none a run could take.
const LOCK_COMMANDS: [u32; 5] = [
    libc::F_SETLK as u32,
    libc::F_SETLKW as u32,
    libc::F_OFD_SETLK as u32,
    libc::F_OFD_SETLKW as u32,
    libc::F_SETLEASE as u32,
];

/// The calls that watch files (inotify, fanotify): another run opening a shared file is an
/// event, so they are not available in a run (`ENOSYS`).
fn watch_syscalls() -> impl Iterator<Item = u32> {
    #[cfg(target_arch = "x86_64")]
    let old = [libc::SYS_inotify_init as u32];
    #[cfg(not(target_arch = "x86_64"))]
    let old: [u32; 0] = [];
    [
        libc::SYS_inotify_init1 as u32,
        libc::SYS_fanotify_init as u32,
    ]
    .into_iter()
    .chain(old)
}

/// One step of a filter before its forward jumps are resolved.
#[derive(Clone, Copy)]
enum Bpf {
    /// Load the 32-bit word at this offset of `struct seccomp_data`.
    Load(u32),
    /// Compare the loaded word: on equal jump to the first label, else to the second (`None`:
    /// the next instruction).
    JumpEq(u32, Option<usize>, Option<usize>),
    /// Return this action.
    Ret(u32),
    /// A jump target (emits nothing).
    Label(usize),
}

/// Resolves labels into classic-BPF relative jumps (forward only, under 256 instructions).
fn assemble(prog: &[Bpf]) -> Vec<libc::sock_filter> {
    let mut at = std::collections::HashMap::new();
    let mut n = 0usize;
    for op in prog {
        match op {
            Bpf::Label(l) => {
                at.insert(*l, n);
            }
            _ => n += 1,
        }
    }
    let mut out = Vec::with_capacity(n);
    for op in prog {
        let i = out.len();
        let offset = |label: Option<usize>| -> u8 {
            let target = label.map(|l| at[&l]).unwrap_or(i + 1);
            u8::try_from(target - (i + 1)).expect("filter jumps are short and forward")
        };
        let ins = match *op {
            Bpf::Load(k) => libc::sock_filter {
                code: (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
                jt: 0,
                jf: 0,
                k,
            },
            Bpf::JumpEq(k, t, f) => libc::sock_filter {
                code: (libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K) as u16,
                jt: offset(t),
                jf: offset(f),
                k,
            },
            Bpf::Ret(k) => libc::sock_filter {
                code: (libc::BPF_RET | libc::BPF_K) as u16,
                jt: 0,
                jf: 0,
                k,
            },
            Bpf::Label(_) => continue,
        };
        out.push(ins);
    }
    out
}

/// Installs the filter and sends the listener (or a failure byte) over `sock`.
///
/// Runs in the forked child before exec: only async-signal-safe syscalls, no allocation.
/// Never fails: when seccomp is refused the parent falls back to another detection method.
///
/// # Safety
/// `prog` must point to a valid filter that outlives the call; `sock` must be a connected
/// SOCK_SEQPACKET socket.
pub unsafe fn install_in_child(prog: *const libc::sock_fprog, sock: RawFd) {
    // SAFETY: plain syscalls on valid arguments (see the function contract).
    unsafe {
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        let listener = libc::syscall(
            libc::SYS_seccomp,
            SECCOMP_SET_MODE_FILTER,
            SECCOMP_FILTER_FLAG_NEW_LISTENER,
            prog,
        ) as RawFd;
        let mut byte = [if listener >= 0 { b'y' } else { b'n' }];
        let mut iov = libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        };
        let mut cmsg_buf = [0u64; 4];
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        if listener >= 0 {
            msg.msg_control = cmsg_buf.as_mut_ptr().cast();
            msg.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) as _;
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
            std::ptr::write_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>(), listener);
        }
        libc::sendmsg(sock, &msg, libc::MSG_NOSIGNAL);
        if listener >= 0 {
            libc::close(listener);
        }
    }
}

/// Receives what the child sent: `Some(listener)` when the filter is installed.
pub fn receive_listener(sock: &OwnedFd) -> Option<OwnedFd> {
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut cmsg_buf = [0u64; 4];
    // SAFETY: msghdr is plain data; all pointers refer to live local buffers.
    unsafe {
        let mut msg: libc::msghdr = std::mem::zeroed();
        msg.msg_iov = &mut iov;
        msg.msg_iovlen = 1;
        msg.msg_control = cmsg_buf.as_mut_ptr().cast();
        msg.msg_controllen = std::mem::size_of_val(&cmsg_buf) as _;
        let n = libc::recvmsg(
            sock.as_raw_fd(),
            &mut msg,
            libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC,
        );
        if n != 1 || byte[0] != b'y' {
            return None;
        }
        let cmsg = libc::CMSG_FIRSTHDR(&msg);
        if cmsg.is_null()
            || (*cmsg).cmsg_level != libc::SOL_SOCKET
            || (*cmsg).cmsg_type != libc::SCM_RIGHTS
        {
            return None;
        }
        let fd = std::ptr::read_unaligned(libc::CMSG_DATA(cmsg).cast::<RawFd>());
        if fd < 0 {
            return None;
        }
        Some(OwnedFd::from_raw_fd(fd))
    }
}

/// Receives one pending notification (the listener must be readable).
pub fn recv(listener: &OwnedFd) -> io::Result<Notif> {
    // SAFETY: seccomp_notif is plain data; the kernel requires it zeroed.
    let mut notif: Notif = unsafe { std::mem::zeroed() };
    // SAFETY: the kernel fills a zeroed struct of the size encoded in the ioctl number.
    let r = unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            SECCOMP_IOCTL_NOTIF_RECV,
            &mut notif as *mut Notif,
        )
    };
    if r < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(notif)
}

/// Whether the thread is still held at the syscall of notification `id`.
pub fn id_valid(listener: &OwnedFd, id: u64) -> bool {
    let mut id = id;
    // SAFETY: the ioctl reads one u64.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            SECCOMP_IOCTL_NOTIF_ID_VALID,
            &mut id as *mut u64,
        ) == 0
    }
}

/// Lets the held syscall run as if it had never been intercepted.
///
/// Errors (the thread was interrupted or died meanwhile) are harmless and ignored.
pub fn continue_syscall(listener: &OwnedFd, id: u64) {
    let mut resp = libc::seccomp_notif_resp {
        id,
        val: 0,
        error: 0,
        flags: libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
    };
    // SAFETY: the ioctl reads a struct of the size encoded in its number.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            SECCOMP_IOCTL_NOTIF_SEND,
            &mut resp as *mut libc::seccomp_notif_resp,
        );
    }
}

/// Ends the held syscall at once with return value 0 and no error, without running it: a
/// sleep cut short (the program sees it complete, as if the time had passed).
///
/// Errors (the thread was interrupted or died meanwhile) are harmless and ignored.
pub fn return_zero(listener: &OwnedFd, id: u64) {
    let mut resp = libc::seccomp_notif_resp {
        id,
        val: 0,
        error: 0,
        flags: 0,
    };
    // SAFETY: the ioctl reads a struct of the size encoded in its number.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            SECCOMP_IOCTL_NOTIF_SEND,
            &mut resp as *mut libc::seccomp_notif_resp,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_jumps_stay_inside_the_program() {
        let f = filter();
        if f.is_empty() {
            return;
        }
        for (i, ins) in f.iter().enumerate() {
            if ins.code as u32 & 0x07 == libc::BPF_JMP {
                assert!(i + 1 + (ins.jt as usize) < f.len());
                assert!(i + 1 + (ins.jf as usize) < f.len());
            }
        }
        assert_eq!(f.last().map(|i| i.k), Some(SECCOMP_RET_ALLOW));
        let m = marker_filter();
        for (i, ins) in m.iter().enumerate() {
            if ins.code as u32 & 0x07 == libc::BPF_JMP {
                assert!(i + 1 + (ins.jt as usize) < m.len());
                assert!(i + 1 + (ins.jf as usize) < m.len());
            }
        }
        assert_eq!(std::mem::size_of::<Notif>(), 80);
        assert_eq!(std::mem::size_of::<libc::seccomp_notif_resp>(), 24);
    }
}
