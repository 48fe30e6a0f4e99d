//! The sandbox layers, one file each. Every layer has the same three parts: what the parent
//! prepares before `fork` (allocating, opening, probing), what the child applies between
//! `fork` and `exec` (async-signal-safe syscalls only, every step checked), and what
//! `grade doctor` and the report say about it.

pub mod cgroup;
pub mod fds;
pub mod landlock;
pub mod limits;
pub mod namespaces;
pub mod protected;
pub mod pty;
pub mod rootfs;
pub mod seccomp;
pub mod uid;

/// A layer as the report and `grade doctor` name it, and whether this run has it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LayerState {
    /// The layer's short name (`landlock`, `namespaces`, `uid`, `cgroup`, …).
    pub name: &'static str,
    /// Whether the layer is active for this run.
    pub active: bool,
    /// Whether the containment promised in docs/security.md depends on it.
    pub required: bool,
    /// What it does here, or why it is off.
    pub detail: String,
}

/// The layers every run of this grader process gets, from the probes (cached) and
/// `GRADE_DISABLE`: what reports record and `--require-sandbox` checks.
pub fn states() -> Vec<LayerState> {
    let caps = super::capabilities();
    let off = super::disabled_layers();
    let mut v = Vec::new();
    v.push(LayerState {
        name: "landlock",
        active: caps.landlock_abi > 0 && !off.landlock,
        required: true,
        detail: match (caps.landlock_abi, off.landlock) {
            (_, true) => "switched off with GRADE_DISABLE".into(),
            (0, _) => "not available in this kernel: programs can read every file their uid can \
                       (hidden cases, references, the grader)"
                .into(),
            (abi, _) => format!(
                "ABI {abi}: read-only system dirs, the working dir writable, the grader and \
                 instructor's cases unreadable"
            ),
        },
    });
    for mut l in namespaces::describe(caps.root) {
        if l.name == "namespaces" {
            l.required = true;
            if off.namespaces {
                l.active = false;
                l.detail = "switched off with GRADE_DISABLE".into();
            }
        }
        v.push(l);
    }
    let rootfs = caps.namespaces.rootfs && !off.rootfs && !off.namespaces;
    v.push(LayerState {
        name: "rootfs",
        active: rootfs,
        required: true,
        detail: if rootfs {
            "each run's own root filesystem: the system directories, a minimal /etc, /dev, its \
             own /proc and /tmp, its toolchain and working directory, nothing else (the grader, \
             its cases and references, other submissions, reports and caches are absent)"
                .into()
        } else if off.rootfs || off.namespaces {
            "switched off with GRADE_DISABLE".into()
        } else {
            "not available here (the kernel refused a user or mount namespace, a tmpfs or \
             pivot_root): programs see the grader's filesystem, within Landlock"
                .into()
        },
    });
    let lock = !off.grader_lock && !super::seccomp::marker_filter().is_empty();
    v.push(LayerState {
        name: "grader lock",
        active: lock,
        required: true,
        detail: if lock {
            "a seccomp mark the program can neither remove nor mask (the kernel kills whatever \
             makes the marked call): every copy of grade refuses to run inside a grading (no \
             `grade play` as the reference)"
                .into()
        } else {
            "off: a copy of grade the program can execute would play the reference".into()
        },
    });
    v.push(LayerState {
        name: "descriptors",
        active: true,
        required: true,
        detail: "only stdin, stdout and stderr reach the program".into(),
    });
    v.push(LayerState {
        name: "uid",
        active: (caps.root && !off.uid) || caps.namespaces.user,
        required: false,
        detail: if caps.root && !off.uid {
            "a per-run unprivileged uid".into()
        } else if caps.namespaces.user {
            "the grader's uid, in the run's own user namespace".into()
        } else {
            "the grader's own uid: programs can signal and read what the grader's user can, \
             within Landlock"
                .into()
        },
    });
    let cg = cgroup_support(!off.cgroup);
    v.push(LayerState {
        name: "cgroup",
        active: cg.tracks(),
        required: false,
        detail: if cg.tracks() {
            "per-run cgroup: memory, processes, CPU time of the whole tree".into()
        } else {
            "none: rlimits per process (DATA, NPROC in the run's user namespace, CPU)".into()
        },
    });
    let own_user = (caps.root && !off.uid) || (caps.namespaces.user && !off.namespaces);
    v.push(LayerState {
        name: "process limit",
        active: cg.pids_limited || own_user,
        required: false,
        detail: if cg.pids_limited {
            "a pids cgroup per run".into()
        } else if own_user {
            "RLIMIT_NPROC for the run's own user".into()
        } else {
            "off: no pids cgroup and no user of the run's own to count".into()
        },
    });
    v.push(LayerState {
        name: "memory limit",
        active: true,
        required: false,
        detail: if cg.memory_limited {
            "whole tree, by cgroup: a memory cgroup per run".into()
        } else {
            "whole tree, by accounting: the anonymous memory of the run's processes summed \
             every 20 ms (each one's proportional share), and RLIMIT_DATA per process"
                .into()
        },
    });
    v
}

/// What a run's cgroups give on this machine (probed once per process and setting: the
/// report asks on every grading).
fn cgroup_support(enabled: bool) -> CgroupSupport {
    static ON: std::sync::OnceLock<CgroupSupport> = std::sync::OnceLock::new();
    static OFF: std::sync::OnceLock<CgroupSupport> = std::sync::OnceLock::new();
    let probe = || {
        let cg = cgroup::RunCgroups::create(enabled, 512 << 20, 64);
        CgroupSupport {
            tracks: cg.tracks(),
            pids_limited: cg.pids_limited,
            memory_limited: cg.memory_limited,
        }
    };
    *if enabled { &ON } else { &OFF }.get_or_init(probe)
}

/// The parts of [`cgroup::RunCgroups`] the report describes.
#[derive(Clone, Copy)]
struct CgroupSupport {
    tracks: bool,
    pids_limited: bool,
    memory_limited: bool,
}

impl CgroupSupport {
    fn tracks(&self) -> bool {
        self.tracks
    }
}
