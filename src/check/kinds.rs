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

/// Which property of many random starting strips a `random_starts` check tests.
#[derive(Debug, Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RandomRule {
    /// Every strip is a legal start for the coin count typed.
    Legal,
    /// Every gap value from 1 to 6 occurs.
    EveryGap,
    /// The gap counts fit a uniform draw from 1 to 6 (chi-square).
    Uniform,
    /// The strips differ between runs (no fixed seed).
    Varied,
}

impl RandomRule {
    /// The rule's name as written in case files.
    pub fn name(self) -> &'static str {
        match self {
            RandomRule::Legal => "legal",
            RandomRule::EveryGap => "every_gap",
            RandomRule::Uniform => "uniform",
            RandomRule::Varied => "varied",
        }
    }
}
