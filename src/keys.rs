//! Keys: a stable hash (the same on every machine and Rust version) and random bytes from the
//! kernel. Small helpers shared by the class run (shards, resume keys, seals), the build cache
//! and the reports (GitHub's output delimiter), kept at the bottom so none of them imports
//! another stage for them.

use std::io::{self, Read as _};

/// FNV-1a, 64 bits: a stable hash (the same on every machine and Rust version), for shard
/// assignment and resume keys.
pub(crate) fn fnv1a(bytes: &[u8], mut hash: u64) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

pub(crate) const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// A stable 64-bit hash of `bytes` continuing from `seed` (0 starts fresh).
pub fn stable_hash(bytes: &[u8], seed: u64) -> u64 {
    fnv1a(bytes, if seed == 0 { FNV_OFFSET } else { seed })
}

/// `N` bytes from the kernel's random number generator (`getrandom`, else `/dev/urandom`);
/// an error where neither gives any (then nothing is sealed: a key must not be guessable).
/// The system call itself, not glibc's wrapper (2.25+): the portable build links against glibc
/// 2.17 (scripts/build-portable).
pub fn random_bytes<const N: usize>() -> io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    let mut filled = 0;
    while filled < N {
        // SAFETY: writes at most N - filled bytes into the rest of `bytes`.
        let got = unsafe {
            libc::syscall(
                libc::SYS_getrandom,
                bytes[filled..].as_mut_ptr().cast::<libc::c_void>(),
                N - filled,
                0u32,
            )
        };
        if got > 0 {
            filled += got as usize;
            continue;
        }
        let error = io::Error::last_os_error();
        if error.kind() == io::ErrorKind::Interrupted {
            continue;
        }
        // No getrandom (a very old kernel): the same source through its device.
        let mut urandom = std::fs::File::open("/dev/urandom")?;
        urandom.read_exact(&mut bytes[filled..])?;
        return Ok(bytes);
    }
    Ok(bytes)
}
