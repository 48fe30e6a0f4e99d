//! /proc inspection: which processes belong to a run, whether one of their threads is
//! blocked reading our stdin (the fallback input detection), and the kill sweep used when
//! no cgroup can kill the tree.

use std::fs;
use std::os::unix::fs::MetadataExt;

use super::waiting;

/// Whether `/proc/<pid>/task/<tid>/syscall` can be read here (needed for polling).
pub fn syscall_file_available() -> bool {
    fs::read_to_string("/proc/self/syscall").is_ok()
}

/// How one process (`pid`) looks in /proc.
#[derive(Clone, Debug)]
pub struct ProcInfo {
    /// Process id.
    pub pid: i32,
    /// Parent process id.
    pub ppid: i32,
    /// Session id.
    pub sid: i32,
    /// Real uid.
    pub uid: u32,
}

fn parse_stat(text: &str) -> Option<(char, i32, i32)> {
    // pid (comm) state ppid pgrp session ...; comm may contain spaces and parentheses.
    let rest = &text[text.rfind(')')? + 2..];
    let mut f = rest.split_whitespace();
    let state = f.next()?.chars().next()?;
    let ppid = f.next()?.parse().ok()?;
    let _pgrp = f.next()?;
    let sid = f.next()?.parse().ok()?;
    Some((state, ppid, sid))
}

/// Every process on the machine, with its parent, session and uid.
pub fn all_processes() -> Vec<ProcInfo> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in dir.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
            continue;
        };
        let Ok(stat) = fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let Some((state, ppid, sid)) = parse_stat(&stat) else {
            continue;
        };
        if state == 'Z' || state == 'X' {
            continue;
        }
        let uid = entry.metadata().map(|m| m.uid()).unwrap_or(u32::MAX);
        out.push(ProcInfo {
            pid,
            ppid,
            sid,
            uid,
        });
    }
    out
}

/// Whether a process's environment holds `marker` (our per-run `GRADE_RUN_ID=...`).
fn has_marker(pid: i32, marker: &[u8]) -> bool {
    fs::read(format!("/proc/{pid}/environ"))
        .map(|env| env.split(|&b| b == 0).any(|v| v == marker))
        .unwrap_or(false)
}

/// The run's processes without a cgroup: the session of `leader`, its descendants, processes
/// running as the per-run `uid`, and processes carrying the run's environment `marker`.
pub fn run_processes(leader: i32, uid: Option<u32>, marker: &[u8]) -> Vec<i32> {
    let all = all_processes();
    let me = std::process::id() as i32;
    let mut set: Vec<i32> = all
        .iter()
        .filter(|p| p.pid != me)
        .filter(|p| {
            p.pid == leader
                || p.sid == leader
                || uid.is_some_and(|u| p.uid == u)
                || has_marker(p.pid, marker)
        })
        .map(|p| p.pid)
        .collect();
    loop {
        let before = set.len();
        for p in &all {
            if set.contains(&p.ppid) && !set.contains(&p.pid) && p.pid != me {
                set.push(p.pid);
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// What the threads of the run are doing.
#[derive(Debug, Default, Clone, Copy)]
pub struct ThreadsState {
    /// A thread sleeps waiting for our stdin: in a blocking read of it, or in a
    /// select/poll/epoll wait for it to become readable ([`waiting`]).
    pub reading_stdin: bool,
    /// Every thread is sleeping (none runnable).
    pub all_sleeping: bool,
}

/// Looks at every thread of `pids`.
pub fn threads_state(pids: &[i32], stdin: &waiting::Stdin) -> ThreadsState {
    let mut st = ThreadsState {
        reading_stdin: false,
        all_sleeping: true,
    };
    for &pid in pids {
        let Ok(tasks) = fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        let fd0_ours = fs::metadata(format!("/proc/{pid}/fd/0"))
            .map(|m| (m.dev(), m.ino()) == stdin.id)
            .unwrap_or(false);
        for task in tasks.flatten() {
            let path = task.path();
            let Ok(stat) = fs::read_to_string(path.join("stat")) else {
                continue;
            };
            let Some((state, _, _)) = parse_stat(&stat) else {
                continue;
            };
            if state == 'R' || state == 'D' {
                st.all_sleeping = false;
                continue;
            }
            if state != 'S' || !fd0_ours {
                continue;
            }
            let tid = task.file_name().to_str().and_then(|t| t.parse().ok());
            let call = tid.and_then(|tid| {
                fs::read_to_string(path.join("syscall"))
                    .ok()
                    .and_then(|text| parse_syscall(tid, &text))
            });
            if call.is_some_and(|c| waiting::waits_for_stdin(&c, stdin)) {
                st.reading_stdin = true;
            }
        }
    }
    st
}

/// Parses /proc/T/syscall ("NR ARG0 … ARG5 SP PC", arguments in hex) of thread `tid`;
/// None when the thread is running or not in a syscall.
fn parse_syscall(tid: u32, text: &str) -> Option<waiting::Syscall> {
    let mut words = text.split_whitespace();
    let nr: i64 = words.next()?.parse().ok()?;
    if nr < 0 {
        return None;
    }
    let mut args = [0u64; 6];
    for a in &mut args {
        *a = u64::from_str_radix(words.next()?.trim_start_matches("0x"), 16).ok()?;
    }
    Some(waiting::Syscall { tid, nr, args })
}

/// The `/proc` directories of the run's live processes: where the run has a pid namespace
/// and a `/proc` of its own (`own_proc`), every process in it, seen through the leader's
/// root (`/proc/LEADER/root/proc/N`, a handful of entries); elsewhere the leader and its
/// descendants by parent in the grader's `/proc` (a double-forked orphan is then missed).
pub fn tree_dirs(leader: i32, own_proc: bool) -> Vec<std::path::PathBuf> {
    if own_proc {
        let proc = std::path::PathBuf::from(format!("/proc/{leader}/root/proc"));
        let Ok(entries) = fs::read_dir(&proc) else {
            return Vec::new();
        };
        return entries
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .map(|e| e.path())
            .collect();
    }
    let all = all_processes();
    let mut tree = vec![leader];
    loop {
        let before = tree.len();
        for p in &all {
            if tree.contains(&p.ppid) && !tree.contains(&p.pid) {
                tree.push(p.pid);
            }
        }
        if tree.len() == before {
            break;
        }
    }
    tree.iter()
        .map(|pid| std::path::PathBuf::from(format!("/proc/{pid}")))
        .collect()
}

/// The anonymous memory of the process whose `/proc` directory is `dir`, in bytes: its
/// resident memory less file-backed and shared pages (`statm`, read in constant time; pages
/// still shared after a fork count in each process); `None` once it is gone.
pub fn resident_anonymous(dir: &std::path::Path) -> Option<u64> {
    let statm = fs::read_to_string(dir.join("statm")).ok()?;
    let mut pages = statm
        .split_whitespace()
        .skip(1)
        .map(|n| n.parse::<u64>().ok());
    let (resident, shared) = (pages.next()??, pages.next()??);
    // SAFETY: sysconf has no memory-safety preconditions.
    let page = u64::try_from(unsafe { libc::sysconf(libc::_SC_PAGESIZE) }).unwrap_or(4096);
    Some(resident.saturating_sub(shared) * page)
}

/// The process's proportional share of anonymous memory (`Pss_Anon` in `smaps_rollup`: a
/// page shared after a fork counts once across the tree), else [`resident_anonymous`]. It
/// walks the process's page tables: read only to confirm a sum over the limit.
pub fn proportional_anonymous(dir: &std::path::Path) -> Option<u64> {
    let rollup = fs::read_to_string(dir.join("smaps_rollup")).unwrap_or_default();
    let kib = rollup.lines().find_map(|l| {
        l.strip_prefix("Pss_Anon:")?
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .ok()
    });
    kib.map(|k| k << 10).or_else(|| resident_anonymous(dir))
}

/// The anonymous memory of the run's tree (see [`tree_dirs`]), summed over its processes;
/// `None` while it has a single process (its own `RLIMIT_DATA` holds it). The cheap sum
/// ([`resident_anonymous`]) when it is within `limit`, else the proportional one, which
/// counts pages shared after a fork once.
pub fn tree_memory(leader: i32, own_proc: bool, limit: u64, alone_too: bool) -> Option<u64> {
    let tree = tree_dirs(leader, own_proc);
    if tree.len() < if alone_too { 1 } else { 2 } {
        return None;
    }
    let quick: u64 = tree.iter().filter_map(|dir| resident_anonymous(dir)).sum();
    if quick <= limit {
        return Some(quick);
    }
    Some(
        tree.iter()
            .filter_map(|dir| proportional_anonymous(dir))
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_with_odd_command_names_parses() {
        let s = "123 (a) b (c)) S 1 123 123 0 -1";
        assert_eq!(parse_stat(s), Some(('S', 1, 123)));
    }

    #[test]
    fn syscall_lines_parse() {
        let c = parse_syscall(7, "7 0x7ffd1234 0x1 0xffffffff 0x0 0x0 0x0 0x7ffd 0x7f00\n");
        let c = c.expect("a syscall");
        assert_eq!((c.tid, c.nr), (7, 7));
        assert_eq!(c.args[0], 0x7ffd1234);
        assert_eq!(c.args[2] as i32, -1);
        assert!(parse_syscall(7, "running\n").is_none());
        assert!(parse_syscall(7, "-1 0x7ffd 0x7f00\n").is_none());
    }

    #[test]
    fn a_lone_process_is_accounted_only_when_asked() {
        // A child with no child of its own: a tree of one. Several processes are always
        // summed (RLIMIT_DATA holds a lone one), a sanitized program's even alone.
        let Ok(mut child) = std::process::Command::new("sleep").arg("5").spawn() else {
            return;
        };
        let pid = child.id() as i32;
        let alone = tree_memory(pid, false, u64::MAX, false);
        let asked = tree_memory(pid, false, u64::MAX, true);
        let _ = child.kill();
        let _ = child.wait();
        assert_eq!(alone, None);
        assert!(asked.is_some_and(|bytes| bytes > 0), "{asked:?}");
    }

    #[test]
    fn own_process_is_listed() {
        let me = std::process::id() as i32;
        assert!(all_processes().iter().any(|p| p.pid == me));
    }
}
