//! A pseudo-terminal for `--terminal` runs: the program's stdin and stdout are the slave, as
//! in a student's terminal; the runner reads output from and writes input to the master.
//!
//! Echo is off (the transcript records inputs itself) and output post-processing is off (no
//! `\n` → `\r\n`), so the text is the same as over pipes.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;

/// Both ends of a fresh pseudo-terminal.
#[derive(Debug)]
pub struct Pty {
    /// The runner's end (non-blocking).
    pub master: OwnedFd,
    /// The program's end.
    pub slave: OwnedFd,
    /// The slave's path (`/dev/pts/N`): the only terminal a run may open by name.
    pub slave_path: std::path::PathBuf,
}

/// Opens a pseudo-terminal, 80×24, canonical input, no echo, no output processing.
///
/// Both ends are opened close-on-exec (`posix_openpt(O_CLOEXEC)`, `TIOCGPTPEER` or an
/// `O_CLOEXEC` open of the slave): a run spawned by another thread at the same moment never
/// inherits another case's terminal.
pub fn open() -> io::Result<Pty> {
    let ws = libc::winsize {
        ws_row: 24,
        ws_col: 80,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    let flags = libc::O_RDWR | libc::O_NOCTTY | libc::O_CLOEXEC;
    // SAFETY: posix_openpt returns a fresh fd or -1.
    let m = unsafe { libc::posix_openpt(flags) };
    if m < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh fd we own.
    let master = unsafe { OwnedFd::from_raw_fd(m) };
    let mut name = [0 as libc::c_char; 128];
    // SAFETY: grantpt/unlockpt on our master; ptsname_r fills a buffer of the given length.
    unsafe {
        if libc::grantpt(m) != 0
            || libc::unlockpt(m) != 0
            || libc::ptsname_r(m, name.as_mut_ptr(), name.len()) != 0
        {
            return Err(io::Error::last_os_error());
        }
    }
    // SAFETY: ptsname_r wrote a NUL-terminated string into `name`.
    let path = unsafe { std::ffi::CStr::from_ptr(name.as_ptr()) };
    let slave_path = std::path::PathBuf::from(std::ffi::OsStr::from_bytes(path.to_bytes()));
    // SAFETY: TIOCGPTPEER opens the peer of our master; the fallback opens it by name.
    let s = unsafe {
        let fd = libc::ioctl(m, libc::TIOCGPTPEER, flags);
        if fd >= 0 {
            fd
        } else {
            libc::open(path.as_ptr(), flags)
        }
    };
    if s < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a fresh fd we own.
    let slave = unsafe { OwnedFd::from_raw_fd(s) };
    // SAFETY: TIOCSWINSZ reads one winsize.
    unsafe { libc::ioctl(s, libc::TIOCSWINSZ, &ws) };
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
    Ok(Pty {
        master,
        slave,
        slave_path,
    })
}

/// The end-of-file character (Ctrl-D), which makes a canonical read return 0.
pub const VEOF_BYTE: u8 = 0x04;
