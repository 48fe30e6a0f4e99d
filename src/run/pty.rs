//! A pseudo-terminal for `--terminal` runs: the program's stdin and stdout are the slave, as
//! in a student's terminal; the runner reads output from and writes input to the master.
//!
//! Echo is off (the transcript records inputs itself) and output post-processing is off (no
//! `\n` → `\r\n`), so the text is the same as over pipes.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Both ends of a fresh pseudo-terminal.
#[derive(Debug)]
pub struct Pty {
    /// The runner's end (non-blocking).
    pub master: OwnedFd,
    /// The program's end.
    pub slave: OwnedFd,
}

/// Opens a pseudo-terminal, 80×24, canonical input, no echo, no output processing.
pub fn open() -> io::Result<Pty> {
    let mut master = -1;
    let mut slave = -1;
    let ws = libc::winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: out-pointers are valid; a null name and termios are allowed.
    let r = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &ws,
        )
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: openpty returned two fresh fds we own.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    for fd in [&master, &slave] {
        // SAFETY: fcntl on a valid fd.
        unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_SETFD, libc::FD_CLOEXEC) };
    }
    // SAFETY: termios is plain data filled by tcgetattr.
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(slave.as_raw_fd(), &mut t) != 0 {
            return Err(io::Error::last_os_error());
        }
        t.c_lflag &= !(libc::ECHO | libc::ECHONL | libc::ECHOE | libc::ECHOK | libc::ECHOCTL);
        t.c_oflag &= !libc::OPOST;
        if libc::tcsetattr(slave.as_raw_fd(), libc::TCSANOW, &t) != 0 {
            return Err(io::Error::last_os_error());
        }
        let flags = libc::fcntl(master.as_raw_fd(), libc::F_GETFL);
        libc::fcntl(master.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK);
    }
    Ok(Pty { master, slave })
}

/// The end-of-file character (Ctrl-D), which makes a canonical read return 0.
pub const VEOF_BYTE: u8 = 0x04;
