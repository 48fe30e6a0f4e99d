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
    SECCOMP_IOCTL_NOTIF_SEND, SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO, SECCOMP_RET_USER_NOTIF,
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

/// The `prctl` option that marks a grade sandbox: inside one, `prctl(GRADER_MARK, …)` fails
/// with [`GRADER_MARK_ERRNO`] (an unused option fails with EINVAL everywhere else). The
/// filter that answers it is inherited across fork and exec and cannot be removed, so a
/// program cannot hide from `grade` that it runs inside a grading, whatever copy of the
/// grader binary it found: every copy refuses to run there ([`inside_grade_sandbox`]).
pub const GRADER_MARK: u32 = 0x4752_4144; // "GRAD"
/// The errno of the marked `prctl`.
pub const GRADER_MARK_ERRNO: u32 = 3141;
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
const PRCTL: u32 = libc::SYS_prctl as u32;

/// Whether this process runs inside a grade sandbox (see [`GRADER_MARK`]).
pub fn inside_grade_sandbox() -> bool {
    // SAFETY: an unknown prctl option has no effect.
    let r = unsafe { libc::prctl(GRADER_MARK as libc::c_int, 0, 0, 0, 0) };
    r == -1 && io::Error::last_os_error().raw_os_error() == Some(GRADER_MARK_ERRNO as i32)
}

/// The marker filter: `prctl(GRADER_MARK)` fails with [`GRADER_MARK_ERRNO`], the rest is
/// allowed. Empty on architectures whose syscall numbers this build does not know.
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
            load(4),                                    // 0: arch
            jump(AUDIT_ARCH, 0, 4),                     // 1: foreign arch -> allow (6)
            load(0),                                    // 2: syscall number
            jump(PRCTL, 0, 2),                          // 3: not prctl -> allow (6)
            load(16),                                   // 4: args[0], low 32 bits
            jump(GRADER_MARK, 1, 0),                    // 5: the mark -> errno (7)
            ret(SECCOMP_RET_ALLOW),                     // 6
            ret(SECCOMP_RET_ERRNO | GRADER_MARK_ERRNO), // 7
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

/// The BPF program: notify on the read family of fd 0 and on every syscall that can wait for
/// stdin to become readable (select, pselect6, poll, ppoll, epoll_wait, epoll_pwait,
/// epoll_pwait2) unless its `int` timeout is zero; allow the rest. Which waits concern stdin
/// is decided by the supervisor ([`crate::run::waiting`]): the sets live in memory.
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
    let mut prog = vec![
        Load(4),                               // arch
        JumpEq(AUDIT_ARCH, None, Some(ALLOW)), // foreign arch -> allow
        Load(0),                               // syscall number
    ];
    prog.extend(waiting::read_syscalls().map(|nr| JumpEq(nr, Some(READ), None)));
    let timed: Vec<(u32, u32)> = waiting::waits_with_int_timeout().collect();
    prog.extend(
        timed
            .iter()
            .map(|&(nr, arg)| JumpEq(nr, Some(timeout_label(arg)), None)),
    );
    prog.extend(waiting::other_waits().map(|nr| JumpEq(nr, Some(NOTIFY), None)));
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
    prog.extend([
        Label(NOTIFY),
        Ret(SECCOMP_RET_USER_NOTIF),
        Label(ALLOW),
        Ret(SECCOMP_RET_ALLOW),
    ]);
    assemble(&prog)
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
