//! Keys: a stable hash (the same on every machine and Rust version) and random bytes from the
//! kernel. Small helpers shared by the class run (shards, resume keys, seals), the build cache
//! and the reports (GitHub's output delimiter), kept at the bottom so none of them imports
//! another stage for them.

use std::io;

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

/// `N` bytes from the kernel's random number generator (the `getrandom` crate: the system
/// call, else `/dev/urandom`, without needing glibc 2.25's wrapper, so the portable build
/// still runs on glibc 2.17); an error where neither gives any (then nothing is sealed: a key
/// must not be guessable).
pub fn random_bytes<const N: usize>() -> io::Result<[u8; N]> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).map_err(io::Error::from)?;
    Ok(bytes)
}
