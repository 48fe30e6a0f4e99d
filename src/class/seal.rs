//! Seals for what `grade` keeps in a place others may write (a class's `OUTDIR/.grade/`): an
//! HMAC-SHA-256 under a random key that lives outside that place, in the grader's private
//! cache directory (`$XDG_CACHE_HOME/grade/resume-key`, mode 0600), so a stored result that
//! was edited — a score raised, a status full of escape sequences — no longer verifies and is
//! graded again instead of being taken.

use std::io::{self, Write as _};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};

use hmac::{Hmac, Mac};

use crate::keys::random_bytes;
use sha2::Sha256;

/// The sealing key: read from the grader's cache directory, made there on first use.
#[derive(Clone)]
pub struct SealKey {
    key: [u8; 32],
}

impl SealKey {
    /// The key in `dir` (the grader's private cache directory), created with mode 0600 when
    /// missing; `None` when it can be neither read nor made.
    pub fn in_dir(dir: &Path) -> Option<SealKey> {
        let path = dir.join("resume-key");
        if let Some(key) = Self::read(&path) {
            return Some(key);
        }
        let key: [u8; 32] = random_bytes().ok()?;
        let made = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&path)
            .and_then(|mut f| f.write_all(&key));
        match made {
            Ok(()) => Some(SealKey { key }),
            // Another grader made it first: use theirs.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Self::read(&path),
            Err(_) => None,
        }
    }

    /// The grader's own key (`$XDG_CACHE_HOME/grade`, else `~/.cache/grade`), where runs
    /// cannot reach it; `None` where there is no such place (then nothing stored is trusted).
    pub fn grader() -> Option<SealKey> {
        let builds: PathBuf = crate::submission::cache::directory(false)?;
        Self::in_dir(builds.parent()?)
    }

    fn read(path: &Path) -> Option<SealKey> {
        let bytes = std::fs::read(path).ok()?;
        let key: [u8; 32] = bytes.as_slice().try_into().ok()?;
        Some(SealKey { key })
    }

    fn mac(&self, parts: &[&[u8]]) -> Hmac<Sha256> {
        // HMAC takes a key of any length; 32 bytes always fits.
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.key)
            .unwrap_or_else(|_| unreachable!("HMAC accepts any key length"));
        for part in parts {
            mac.update(&(part.len() as u64).to_le_bytes());
            mac.update(part);
        }
        mac
    }

    /// The seal of `parts` (each length-prefixed, so no two lists seal alike), in hex.
    pub fn seal(&self, parts: &[&[u8]]) -> String {
        self.mac(parts)
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    }

    /// A name for this key that tells nothing of it (a seal of a fixed label, cut to 64 bits),
    /// stored beside seals: a seal under another key then reads as made elsewhere — another
    /// machine's or user's cache — rather than as edited.
    pub fn id(&self) -> String {
        let mut id = self.seal(&[b"grade resume key id"]);
        id.truncate(16);
        id
    }

    /// Whether `seal` is the seal of `parts` (compared in constant time).
    pub fn verify(&self, parts: &[&[u8]], seal: &str) -> bool {
        let Some(bytes) = (0..seal.len() / 2)
            .map(|i| u8::from_str_radix(seal.get(2 * i..2 * i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()
        else {
            return false;
        };
        seal.len() == 64 && self.mac(parts).verify_slice(&bytes).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seal_verifies_only_unchanged_parts_under_the_same_key() {
        let dir = tempfile::tempdir().expect("tempdir");
        let key = SealKey::in_dir(dir.path()).expect("key");
        let mode = std::os::unix::fs::PermissionsExt::mode(
            &std::fs::metadata(dir.path().join("resume-key"))
                .expect("key file")
                .permissions(),
        );
        assert_eq!(mode & 0o777, 0o600);
        let seal = key.seal(&[b"ana", b"{\"score\": 3}"]);
        assert!(key.verify(&[b"ana", b"{\"score\": 3}"], &seal));
        assert!(!key.verify(&[b"ana", b"{\"score\": 90}"], &seal));
        assert!(!key.verify(&[b"an", b"a{\"score\": 3}"], &seal));
        assert!(!key.verify(&[b"ana", b"{\"score\": 3}"], "00"));
        assert!(!key.verify(&[b"ana", b"{\"score\": 3}"], "zz"));
        // The same directory gives the same key; another directory another.
        let again = SealKey::in_dir(dir.path()).expect("key");
        assert!(again.verify(&[b"ana", b"{\"score\": 3}"], &seal));
        let other = tempfile::tempdir().expect("tempdir");
        let other = SealKey::in_dir(other.path()).expect("key");
        assert!(!other.verify(&[b"ana", b"{\"score\": 3}"], &seal));
        // A key's name is the same for the same key, another for another, and not the key.
        assert_eq!(key.id(), again.id());
        assert_ne!(key.id(), other.id());
        assert_eq!(key.id().len(), 16);
        assert_ne!(
            random_bytes::<16>().expect("random"),
            random_bytes::<16>().expect("random")
        );
    }
}
