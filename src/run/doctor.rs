//! What `grade doctor` reports: which containment layers and which input-detection method
//! work on this machine, and why any is off. Every line is a probe of the real mechanism, not
//! a guess. The printing is in `cli::doctor`.

use std::path::Path;

use super::{capabilities, cgroup, sandbox, Capabilities, Detection, EndOfInput, Ending, RunSpec};

/// One line of the report: a layer, whether it is on, and what it does or why it is off.
#[derive(Debug, Clone)]
pub struct Layer {
    /// The layer's name.
    pub name: &'static str,
    /// Whether it is active.
    pub on: bool,
    /// What it does here, or why it is off.
    pub detail: String,
}

/// Probes every layer.
pub fn layers() -> Vec<Layer> {
    let caps = capabilities();
    let mut out = vec![input_detection()];
    out.extend(limit_layers(caps));
    out.extend(isolation_layers(caps));
    out.extend(environment_layers());
    out
}

/// Which input detection works: a real run of `/bin/sh` that reads a line, not a guess from
/// the kernel's version.
fn input_detection() -> Layer {
    let probe = super::run(&RunSpec {
        command: vec!["/bin/sh".into(), "-c".into(), "read x; echo \"$x\"".into()],
        files: Vec::new(),
        readable: Vec::new(),
        env: Vec::new(),
        input: vec!["ok".into()],
        end_of_input: EndOfInput::Stop,
        limits: super::Limits::default(),
        terminal: false,
        workdir: None,
    });
    match &probe {
        Ok(o) if o.ending == Ending::Exited(0) && o.transcript.terminal_text() == "ok\nok\n" => {
            Layer {
                name: "input detection",
                on: true,
                detail: match o.detection {
                    Detection::Seccomp => {
                        "seccomp user notification on reads of fd 0 and on select/poll/epoll waits for it (exact)".into()
                    }
                    Detection::ProcPolling => {
                        "proc-polling: seccomp refused here; /proc/<pid>/task/<tid>/syscall polled"
                            .into()
                    }
                    Detection::Quiescence => {
                        "quiescence heuristic: neither seccomp nor /proc syscall files work here"
                            .into()
                    }
                },
            }
        }
        Ok(o) => Layer {
            name: "input detection",
            on: false,
            detail: format!(
                "a test run of /bin/sh ended {:?} with {:?} ({})",
                o.ending,
                o.transcript.terminal_text(),
                o.detection.name()
            ),
        },
        Err(e) => Layer {
            name: "input detection",
            on: false,
            detail: format!("a test run failed: {e}"),
        },
    }
}

/// The resource limits (memory, processes, CPU) and how the run's tree is tracked and
/// killed: from a cgroup made for the probe, as a run's would be.
fn limit_layers(caps: &Capabilities) -> Vec<Layer> {
    let mut out = Vec::new();
    let cg = cgroup::RunCgroups::create(true, 512 << 20, 64);
    out.push(Layer {
        name: "cgroup (tracking, kill)",
        on: cg.tracks(),
        detail: match (&cg.v2, cg.tracks()) {
            (Some(d), _) => format!("per-run v2 cgroup under {}, cgroup.kill", parent(d)),
            (None, true) => "per-run v1 cgroup; kill = SIGKILL to every pid listed".into(),
            (None, false) => {
                "no cgroup can be created (read-only or not delegated): process group + /proc sweep"
                    .into()
            }
        },
    });
    out.push(Layer {
        name: "memory limit",
        on: true,
        detail: if let Some(d) = &cg.v1_memory {
            format!("v1 memory cgroup under {}", parent(d))
        } else if cg.memory_limited {
            "v2 memory.max".into()
        } else {
            "no memory cgroup: RLIMIT_DATA (private writable memory; the JVM starts)".into()
        },
    });
    out.push(Layer {
        name: "process limit",
        on: cg.pids_limited || caps.root || caps.namespaces.user,
        detail: if let Some(d) = &cg.v1_pids {
            format!("v1 pids cgroup under {}", parent(d))
        } else if cg.pids_limited {
            "v2 pids.max".into()
        } else if caps.root {
            "RLIMIT_NPROC with a per-run uid".into()
        } else if caps.namespaces.user {
            "RLIMIT_NPROC counted in the run's own user namespace".into()
        } else {
            "off: no pids cgroup and not root (RLIMIT_NPROC would count all of this user's processes)".into()
        },
    });
    out.push(Layer {
        name: "cpu time",
        on: true,
        detail: if cg.cpu().is_some() {
            "RLIMIT_CPU per process + the tree's CPU time from its cgroup (checked every 20 ms)"
                .into()
        } else {
            "RLIMIT_CPU per process only (no cgroup CPU accounting)".into()
        },
    });
    drop(cg);
    out
}

/// What keeps a run apart from the grader and other runs: its namespaces, root filesystem,
/// descriptors, Landlock, the grader lock and its own uid.
fn isolation_layers(caps: &Capabilities) -> Vec<Layer> {
    let mut out = Vec::new();
    out.push(Layer {
        name: "network namespace",
        on: caps.netns,
        detail: if caps.netns {
            "a network namespace of its own for each run (as root one of a pool, reused once its \
             run has ended): only a downed loopback, no shared socket names"
                .into()
        } else {
            "unshare(CLONE_NEWNET) refused (container without the privilege)".into()
        },
    });
    for l in super::layers::states()
        .into_iter()
        .filter(|l| matches!(l.name, "grader lock" | "descriptors" | "rootfs"))
    {
        out.push(Layer {
            name: l.name,
            on: l.active,
            detail: l.detail,
        });
    }
    for l in super::layers::namespaces::describe(caps.root) {
        out.push(Layer {
            name: l.name,
            on: l.active,
            detail: l.detail,
        });
    }
    out.push(Layer {
        name: "landlock",
        on: caps.landlock_abi > 0,
        detail: match caps.landlock_abi {
            0 => "not available in this kernel (or disabled by the LSM list)".into(),
            abi => format!(
                "ABI {abi}: read system dirs, read/write only the working dir{}{}",
                if abi >= 4 { "; no TCP" } else { "" },
                if abi >= 6 {
                    "; no signals outside the run"
                } else {
                    ""
                }
            ),
        },
    });
    out.push(Layer {
        name: "unprivileged uid",
        on: caps.root,
        detail: if caps.root {
            "per-run uid/gid in 2^30..2^31, no supplementary groups".into()
        } else {
            if caps.namespaces.user {
                "off: the grader is not root; the program keeps the grader's uid, inside its own \
                 user namespace"
                    .into()
            } else {
                "off: the grader is not root, the program keeps the grader's uid".into()
            }
        },
    });
    out
}

/// What the program finds around it: its clean environment, line-buffered C stdio, and a
/// pseudo-terminal for `--terminal`.
fn environment_layers() -> Vec<Layer> {
    let mut out = Vec::new();
    out.push(Layer {
        name: "clean environment",
        on: true,
        detail: "PATH, HOME=TMPDIR=workdir, LANG=LC_ALL=C.UTF-8, TERM; nothing inherited".into(),
    });
    let stdbuf = Path::new(sandbox::STDBUF_LIB).exists();
    out.push(Layer {
        name: "line-buffered C stdio",
        on: stdbuf,
        detail: if stdbuf {
            format!("LD_PRELOAD={} _STDBUF_O=L _STDBUF_I=L", sandbox::STDBUF_LIB)
        } else {
            format!(
                "{} missing: C printf prompts may appear late over pipes",
                sandbox::STDBUF_LIB
            )
        },
    });
    let pty = super::pty::open().is_ok();
    out.push(Layer {
        name: "pseudo-terminal",
        on: pty,
        detail: if pty {
            "available for --terminal".into()
        } else {
            "openpty failed (no /dev/pts?)".into()
        },
    });
    out
}

/// The folder a run's cgroups are made in.
fn parent(d: &Path) -> String {
    d.parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default()
}
