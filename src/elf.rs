//! Which C library a Linux binary needs: the newest `GLIBC_x.y` symbol version its ELF
//! version-needs table asks for, so a package or a test can say which systems start it
//! (the portable build asks for 2.17 at most; scripts/build-portable, docs/gradescope.md).

use anyhow::{bail, Context as _};

/// The newest glibc the portable build may ask for (manylinux2014: CentOS 7, Ubuntu 14.04).
pub const PORTABLE_GLIBC: GlibcVersion = GlibcVersion(2, 17);

/// A glibc release, `GLIBC_2.34` as `GlibcVersion(2, 34)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct GlibcVersion(pub u32, pub u32);

impl std::fmt::Display for GlibcVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// What starting a binary needs from the system's C library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibcNeeds {
    /// Its program interpreter (`/lib64/ld-linux-x86-64.so.2`); none for a static binary.
    pub interpreter: Option<String>,
    /// The newest `GLIBC_x.y` it asks for; none when it asks for no glibc version.
    pub newest_glibc: Option<GlibcVersion>,
}

impl LibcNeeds {
    /// Whether a system with glibc `version` (or any libc, for a static binary) starts it.
    pub fn starts_with(&self, version: GlibcVersion) -> bool {
        self.newest_glibc.is_none_or(|needed| needed <= version)
    }

    /// One line for people: "static" or "glibc 2.17 or newer".
    pub fn describe(&self) -> String {
        match (&self.interpreter, self.newest_glibc) {
            (None, None) => "static (no C library needed)".to_string(),
            (_, Some(version)) => format!("glibc {version} or newer"),
            (Some(_), None) => "a dynamic C library (no glibc version asked)".to_string(),
        }
    }
}

/// Reads a little-endian integer of `N` bytes at `at`, or fails naming what was cut.
fn int<const N: usize>(bytes: &[u8], at: usize) -> anyhow::Result<u64> {
    let field = at
        .checked_add(N)
        .and_then(|end| bytes.get(at..end))
        .with_context(|| format!("truncated ELF file (a field at byte {at})"))?;
    let mut value = [0u8; 8];
    value[..N].copy_from_slice(field);
    Ok(u64::from_le_bytes(value))
}

/// A NUL-terminated string at `at`.
fn c_str(bytes: &[u8], at: usize) -> anyhow::Result<&str> {
    let rest = bytes
        .get(at..)
        .with_context(|| format!("truncated ELF file (a name at byte {at})"))?;
    let end = rest
        .iter()
        .position(|&b| b == 0)
        .context("unterminated name in the ELF file")?;
    std::str::from_utf8(&rest[..end]).context("a name in the ELF file is not UTF-8")
}

/// A `usize` from a file field, or an error (a 64-bit value past this machine's address space).
fn size(value: u64) -> anyhow::Result<usize> {
    usize::try_from(value).context("an ELF offset too large for this machine")
}

/// `GLIBC_2.34` as 2.34; `GLIBC_ABI_DT_RELR` (packed relocations) came with 2.36; other
/// names (`GLIBC_PRIVATE`) say nothing about the release.
fn glibc_version(name: &str) -> Option<GlibcVersion> {
    if name == "GLIBC_ABI_DT_RELR" {
        return Some(GlibcVersion(2, 36));
    }
    let (major, minor) = name.strip_prefix("GLIBC_")?.split_once('.')?;
    let minor = minor.split('.').next()?;
    Some(GlibcVersion(major.parse().ok()?, minor.parse().ok()?))
}

/// What the 64-bit little-endian ELF file `bytes` (x86_64, aarch64) needs from the C library:
/// its program interpreter and the newest `GLIBC_` version in its `.gnu.version_r` section.
pub fn libc_needs(bytes: &[u8]) -> anyhow::Result<LibcNeeds> {
    if bytes.get(..4) != Some(b"\x7fELF") {
        bail!("not an ELF file");
    }
    if bytes.get(4) != Some(&2) || bytes.get(5) != Some(&1) {
        bail!("not a 64-bit little-endian ELF file");
    }
    let phoff = size(int::<8>(bytes, 0x20)?)?;
    let shoff = size(int::<8>(bytes, 0x28)?)?;
    let phentsize = size(int::<2>(bytes, 0x36)?)?;
    let phnum = size(int::<2>(bytes, 0x38)?)?;
    let shentsize = size(int::<2>(bytes, 0x3a)?)?;
    let shnum = size(int::<2>(bytes, 0x3c)?)?;

    const PT_INTERP: u64 = 3;
    let mut interpreter = None;
    for i in 0..phnum {
        let header = phoff + i * phentsize;
        if int::<4>(bytes, header)? == PT_INTERP {
            let offset = size(int::<8>(bytes, header + 8)?)?;
            interpreter = Some(c_str(bytes, offset)?.to_string());
        }
    }

    const SHT_GNU_VERNEED: u64 = 0x6fff_fffe;
    let section = |i: usize| -> anyhow::Result<(u64, usize, usize, u64)> {
        let header = shoff + i * shentsize;
        Ok((
            int::<4>(bytes, header + 4)?,         // sh_type
            size(int::<8>(bytes, header + 24)?)?, // sh_offset
            size(int::<4>(bytes, header + 40)?)?, // sh_link: the string table
            int::<4>(bytes, header + 44)?,        // sh_info: how many entries
        ))
    };
    let mut newest_glibc = None;
    for i in 0..shnum {
        let (kind, offset, link, count) = section(i)?;
        if kind != SHT_GNU_VERNEED {
            continue;
        }
        let (_, strings, _, _) = section(link)?;
        // Elf64_Verneed: vn_version, vn_cnt (u16), vn_file, vn_aux, vn_next (u32);
        // Elf64_Vernaux: vna_hash (u32), vna_flags, vna_other (u16), vna_name, vna_next (u32).
        let mut need = offset;
        for _ in 0..count {
            let aux_count = int::<2>(bytes, need + 2)?;
            let mut aux = need + size(int::<4>(bytes, need + 8)?)?;
            for _ in 0..aux_count {
                let name = c_str(bytes, strings + size(int::<4>(bytes, aux + 8)?)?)?;
                if let Some(version) = glibc_version(name) {
                    newest_glibc = newest_glibc.max(Some(version));
                }
                aux += size(int::<4>(bytes, aux + 12)?)?;
            }
            let next = size(int::<4>(bytes, need + 12)?)?;
            if next == 0 {
                break;
            }
            need += next;
        }
    }
    Ok(LibcNeeds {
        interpreter,
        newest_glibc,
    })
}

/// [`libc_needs`] of the file at `path`, errors naming it.
pub fn libc_needs_of(path: &std::path::Path) -> anyhow::Result<LibcNeeds> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    libc_needs(&bytes).with_context(|| format!("{}: cannot read its ELF headers", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_names_read_as_releases() {
        assert_eq!(glibc_version("GLIBC_2.34"), Some(GlibcVersion(2, 34)));
        assert_eq!(glibc_version("GLIBC_2.2.5"), Some(GlibcVersion(2, 2)));
        assert_eq!(
            glibc_version("GLIBC_ABI_DT_RELR"),
            Some(GlibcVersion(2, 36))
        );
        assert_eq!(glibc_version("GLIBC_PRIVATE"), None);
        assert_eq!(glibc_version("GCC_3.0"), None);
        assert!(GlibcVersion(2, 17) < GlibcVersion(2, 34));
        assert!(GlibcVersion(2, 9) < GlibcVersion(2, 17));
    }

    #[test]
    fn not_an_elf_file_is_refused_not_read() {
        assert!(libc_needs(b"#!/bin/sh\n").is_err());
        assert!(libc_needs(b"\x7fELF\x02\x01").is_err(), "truncated");
    }

    #[test]
    fn a_hand_built_version_table_is_read() {
        // A minimal ELF: no program headers; section 1 is .gnu.version_r (one need, two
        // versions: GLIBC_2.17 and GLIBC_2.34), section 2 its string table.
        let strings = b"\0libc.so.6\0GLIBC_2.17\0GLIBC_2.34\0";
        let mut verneed = Vec::new();
        verneed.extend_from_slice(&1u16.to_le_bytes()); // vn_version
        verneed.extend_from_slice(&2u16.to_le_bytes()); // vn_cnt
        verneed.extend_from_slice(&1u32.to_le_bytes()); // vn_file: "libc.so.6"
        verneed.extend_from_slice(&16u32.to_le_bytes()); // vn_aux
        verneed.extend_from_slice(&0u32.to_le_bytes()); // vn_next
        for (name, next) in [(11u32, 16u32), (22, 0)] {
            verneed.extend_from_slice(&0u32.to_le_bytes()); // vna_hash
            verneed.extend_from_slice(&0u16.to_le_bytes()); // vna_flags
            verneed.extend_from_slice(&0u16.to_le_bytes()); // vna_other
            verneed.extend_from_slice(&name.to_le_bytes());
            verneed.extend_from_slice(&next.to_le_bytes());
        }
        let verneed_at = 64u64;
        let strings_at = verneed_at + verneed.len() as u64;
        let shoff = strings_at + strings.len() as u64;
        let mut elf = vec![0u8; 64];
        elf[..6].copy_from_slice(b"\x7fELF\x02\x01");
        elf[0x28..0x30].copy_from_slice(&shoff.to_le_bytes());
        elf[0x3a..0x3c].copy_from_slice(&64u16.to_le_bytes());
        elf[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        elf.extend_from_slice(&verneed);
        elf.extend_from_slice(strings);
        let section = |kind: u32, offset: u64, link: u32, info: u32| {
            let mut header = vec![0u8; 64];
            header[4..8].copy_from_slice(&kind.to_le_bytes());
            header[24..32].copy_from_slice(&offset.to_le_bytes());
            header[40..44].copy_from_slice(&link.to_le_bytes());
            header[44..48].copy_from_slice(&info.to_le_bytes());
            header
        };
        elf.extend(section(0, 0, 0, 0));
        elf.extend(section(0x6fff_fffe, verneed_at, 2, 1));
        elf.extend(section(3, strings_at, 0, 0));
        let needs = libc_needs(&elf).expect("parses");
        assert_eq!(needs.newest_glibc, Some(GlibcVersion(2, 34)));
        assert_eq!(needs.interpreter, None);
        assert!(!needs.starts_with(PORTABLE_GLIBC));
        assert!(needs.starts_with(GlibcVersion(2, 35)));
        assert_eq!(needs.describe(), "glibc 2.34 or newer");
    }
}
