//! `grade doctor`: prints what [`crate::run::doctor::layers`] found, and which toolchains
//! ([`crate::submission::languages::toolchains`]) submissions can be built with here.

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
    println!();
    println!("toolchains (what submissions can be written in here)");
    for chain in crate::submission::languages::toolchains() {
        let missing: Vec<&str> = chain
            .tools
            .iter()
            .filter(|(_, found)| found.is_none())
            .map(|(tool, _)| *tool)
            .collect();
        let detail = if missing.is_empty() {
            chain
                .tools
                .iter()
                .filter_map(|(_, found)| found.as_ref().map(|p| p.display().to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        } else {
            format!(
                "{} not found: install {}",
                missing
                    .iter()
                    .map(|t| format!("`{t}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                chain.install
            )
        };
        println!(
            "{:<24} {:<3} {}",
            chain.language,
            if missing.is_empty() { "yes" } else { "no" },
            detail
        );
    }
    Ok(0)
}
