//! Words as a POSIX shell reads them back: the commands grade prints for a person to run (a
//! replay, the build step it used) quote what a shell would split or expand.

/// A file name as one shell word.
pub fn word(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._-/".contains(c))
    {
        name.to_string()
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}
