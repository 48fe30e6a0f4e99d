//! The check vocabulary: the settings a check is compiled with, shared by case files (which
//! deserialize them) and the comparisons (which act on them).

use serde::Deserialize;

/// How far the `transcript` check may relax before it fails (each level includes the earlier).
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Byte for byte.
    Exact,
    /// Ignoring spaces at line ends and blank lines at the very end.
    TrailingWhitespace,
    /// Also ignoring blank lines.
    BlankLines,
    /// Also treating any run of spaces as one and trimming lines.
    Whitespace,
    /// Also ignoring capitalisation.
    Case,
}

/// What a `lines` check compares between the two sides.
#[derive(Debug, Default, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Compare {
    /// The items, in order.
    #[default]
    Sequence,
    /// How many items there are.
    Count,
    /// Whether there is at least one.
    Presence,
}
