//! `grade doctor`: prints what [`crate::run::doctor::layers`] found.

/// Prints the doctor report to stdout.
pub fn print() -> anyhow::Result<u8> {
    for layer in crate::run::doctor::layers() {
        println!(
            "{:<24} {:<3} {}",
            layer.name,
            if layer.on { "on" } else { "off" },
            layer.detail
        );
    }
    Ok(0)
}
