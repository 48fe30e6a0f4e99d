//! The sandbox layers, one file each. Every layer has the same three parts: what the parent
//! prepares before `fork` (allocating, opening, probing), what the child applies between
//! `fork` and `exec` (async-signal-safe syscalls only, every step checked), and what
//! `grade doctor` and the report say about it.

pub mod fds;
pub mod namespaces;

/// A layer as the report and `grade doctor` name it, and whether this run has it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LayerState {
    /// The layer's short name (`landlock`, `namespaces`, `uid`, `cgroup`, …).
    pub name: &'static str,
    /// Whether the layer is active for this run.
    pub active: bool,
    /// What it does here, or why it is off.
    pub detail: String,
}
