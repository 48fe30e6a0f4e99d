//! The registry: what each assignment *is*, in one descriptor per assignment.
//!
//! An [`AssignmentDef`] names everything a stage needs to know about one assignment — its
//! title, the handout's language, how game arguments set up its reference game, its explore
//! generator, its driver, its code requirements, its board resize — and [`ASSIGNMENTS`] lists
//! them, one line each. Every built-in assignment lives in its own folder (`nim/`, `m/`, …)
//! with the code only it needs; the stages take the piece they need from the descriptor and
//! never match on a name. Adding a built-in assignment is one folder and one line here.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::str::FromStr;

use crate::analyze::requirements::Requirement;
use crate::analyze::SourceLanguage;
use crate::drive::generate::{Game, Rng};
use crate::drive::Driver;
use crate::games::{Setup, SetupError};

/// Declares each assignment's folder (`pub mod NAME;`) and lists its descriptor in
/// [`ASSIGNMENTS`], so registering one is a single line.
macro_rules! register {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*

        /// Every built-in assignment, in the order the handouts are numbered.
        pub const ASSIGNMENTS: &[Assignment] = &[$($name::ASSIGNMENT),*];
    };
}

/// An instructor's own assignment (a directory with a reference program and YAML, no Rust),
/// registered at run time beside the built-in ones.
pub mod external;

// Every built-in assignment: one line each, in the order the handouts are numbered.
register! {
    m,
    silver_dollar,
    connect6,
    collect,
    nim,
}

/// What one assignment is: everything the stages ask of it, as data and function pointers.
pub struct AssignmentDef {
    /// The name used everywhere: CLI, cases/, reference/, docs.
    pub name: &'static str,
    /// A short human title for listings.
    pub title: &'static str,
    /// The language the handout asks for (students may hand in any supported language).
    pub handout_language: SourceLanguage,
    /// The game arguments the reference accepts, for help texts.
    pub args_usage: &'static str,
    /// Parses game arguments (files relative to the directory given) into the reference
    /// game's setup.
    pub setup: fn(&[String], &Path) -> Result<Setup, SetupError>,
    /// A setup for a person playing the reference (`grade play`) when it differs from the
    /// graded one: what the handout draws at random is drawn afresh, with a note saying how
    /// to play the same game again. `None`: the same as [`AssignmentDef::setup`].
    pub play_setup: Option<PlaySetup>,
    /// Random games for `grade explore` and `explore:` cases.
    pub explore: Explore,
    /// Compiles a case's `drive:` block into a strategy that types each line from what the
    /// program printed; `None` when the assignment has no driver.
    pub driver: Option<CompileDriver>,
    /// The handout's requirements on the code, in report order.
    pub requirements: &'static [Requirement],
    /// Rebuilding a submission for another board size (`board_size:` cases); `None` when the
    /// handout has no size to change.
    pub resize: Option<Resize>,
    /// The numbers the handout invites an instructor to change (nim's matches, connect6's
    /// N), set under `parameters:`/`variants:` in assignment.yaml (docs/variants.md).
    pub parameters: &'static [Parameter],
}

/// A number the handout invites a course to change, passed to the reference game as a game
/// argument (`--matches 25`); the student's program is written for the value it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parameter {
    /// Its name in assignment.yaml and reports (`matches`).
    pub name: &'static str,
    /// What it is, for messages and `grade list`.
    pub about: &'static str,
    /// The handout's value.
    pub handout: u32,
    /// The smallest value the reference game plays.
    pub min: u32,
    /// The largest value the reference game plays.
    pub max: u32,
    /// The reference game's argument that sets it (`--matches`); a case whose own
    /// `reference_args` already give it keeps its value (a `board_size:` case).
    pub flag: &'static str,
    /// Code requirements that look for the handout's value in the source (connect6's
    /// `board-size-constant` looks for 19): not graded in a variant that changes it, and the
    /// report says so.
    pub handout_requirements: &'static [&'static str],
}

/// Sets up the reference for `grade play`, with a note on how to replay a game drawn at random.
pub type PlaySetup = fn(&[String], &Path) -> Result<(Setup, Option<String>), SetupError>;

/// Compiles a case's `drive:` block into a driver, or says what is wrong with it.
pub type CompileDriver = fn(&yaml_serde::Value) -> Result<Driver, String>;

/// Whether an assignment's games can be generated and replayed.
#[derive(Clone, Copy)]
pub enum Explore {
    /// Random games, and the rules of the reference they are steered to exercise.
    Generator(Generator),
    /// No generator, and why (shown to whoever asks for one).
    Unavailable(&'static str),
}

/// How an assignment's random games are made and what they cover (docs/explore.md).
#[derive(Clone, Copy)]
pub struct Generator {
    /// The kinds of game a budget cycles through (game `i` in mode `i mod len`), so a few
    /// games already have one of each.
    pub modes: &'static [&'static str],
    /// One game in a mode, from a seeded random source (`None`: no game, e.g. a board
    /// without a move).
    pub generate: fn(&mut Rng, &'static str) -> Option<Game>,
    /// The assignment's rule table: every rule of the reference exploration tries to reach.
    pub rules: &'static [&'static str],
    /// The rules a game exercised, read from its input and the reference's terminal text.
    pub rules_hit: fn(&Game, &str) -> Vec<&'static str>,
    /// For games whose program reads a board file ([`Game::board_file`]): the reference's
    /// setup from the file's name and text, so a board shrunk while shrinking a finding is
    /// read again (`None`: no board file).
    pub board_setup: Option<fn(&Path, &str) -> Option<Setup>>,
}

/// A handout's "change a single variable N": how a case may run the program on another board.
#[derive(Clone, Copy)]
pub struct Resize {
    /// The largest size the reference game plays.
    pub max_size: usize,
    /// The board size the reference's game arguments ask for, if they are valid.
    pub size_of_args: fn(&[String]) -> Option<usize>,
    /// The submission's source with its board-size constant, written for the first size
    /// (the handout's or a course's variant), set to the second, or why not.
    pub edit: fn(&Path, usize, usize) -> Result<Resized, String>,
}

/// A submission's source with its board-size constant changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resized {
    /// The file changed, relative to the submission (its name for a single file).
    pub file: String,
    /// The file's new text.
    pub text: String,
    /// What was changed, for notes ("`N = 19` at connect6.cpp:14 set to 10").
    pub change: String,
}

impl AssignmentDef {
    /// The optional pieces this assignment has, for listings ("explore", "drive", …).
    pub fn capabilities(&self) -> Vec<&'static str> {
        let mut capabilities = Vec::new();
        if matches!(self.explore, Explore::Generator(_)) {
            capabilities.push("explore");
        }
        if self.driver.is_some() {
            capabilities.push("drive");
        }
        if self.resize.is_some() {
            capabilities.push("board_size");
        }
        if !self.requirements.is_empty() {
            capabilities.push("requirements");
        }
        if !self.parameters.is_empty() {
            capabilities.push("variants");
        }
        capabilities
    }
}

/// One registered assignment: a copyable handle on its descriptor, compared by name.
///
/// The handle replaces an enum with one variant per assignment, whose `match` arms made
/// every new assignment an edit in a dozen places.
#[derive(Clone, Copy)]
pub struct Assignment(&'static AssignmentDef);

impl Assignment {
    /// All registered assignments, in the order the handouts are numbered.
    pub const ALL: &'static [Assignment] = ASSIGNMENTS;

    /// The handle on a descriptor (for the registration line in each folder).
    pub const fn new(def: &'static AssignmentDef) -> Assignment {
        Assignment(def)
    }

    /// The descriptor: every piece the stages ask of this assignment.
    pub fn def(self) -> &'static AssignmentDef {
        self.0
    }

    /// The name used everywhere: CLI, cases/, reference/, docs.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// A short human title for listings.
    pub fn title(self) -> &'static str {
        self.0.title
    }

    /// The game arguments this assignment accepts, for help texts.
    pub fn args_usage(self) -> &'static str {
        self.0.args_usage
    }

    /// Parses game arguments as typed after the assignment name (`grade play NAME ARGS…`);
    /// relative file names are resolved against `base_dir`.
    pub fn setup(self, args: &[String], base_dir: &Path) -> Result<Setup, SetupError> {
        match external::find(self) {
            // An external reference program gets the files, limits and end of input its
            // assignment.yaml gives.
            Some(external) => Ok(external.default_setup(args)),
            None => (self.0.setup)(args, base_dir),
        }
    }

    /// A setup for a person playing the reference (`grade play`), with a note on how to
    /// play the same game again when the setup was drawn at random.
    pub fn play_setup(
        self,
        args: &[String],
        base_dir: &Path,
    ) -> Result<(Setup, Option<String>), SetupError> {
        match self.0.play_setup {
            Some(play_setup) => play_setup(args, base_dir),
            None => self.setup(args, base_dir).map(|setup| (setup, None)),
        }
    }

    /// Where this assignment stands in [`ASSIGNMENTS`].
    fn position(self) -> usize {
        ASSIGNMENTS
            .iter()
            .position(|a| a.name() == self.name())
            .unwrap_or(usize::MAX)
    }
}

impl PartialEq for Assignment {
    fn eq(&self, other: &Assignment) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Assignment {}

impl Hash for Assignment {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name().hash(state);
    }
}

impl PartialOrd for Assignment {
    fn partial_cmp(&self, other: &Assignment) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Registry order (the handouts' numbering), then name.
impl Ord for Assignment {
    fn cmp(&self, other: &Assignment) -> Ordering {
        (self.position(), self.name()).cmp(&(other.position(), other.name()))
    }
}

impl fmt::Debug for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Assignment({})", self.name())
    }
}

impl fmt::Display for Assignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a name that is not a registered assignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAssignment(pub String);

impl fmt::Display for UnknownAssignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = external::all().iter().map(|a| a.name()).collect();
        write!(
            f,
            "unknown assignment '{}' (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownAssignment {}

impl FromStr for Assignment {
    type Err = UnknownAssignment;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        external::all()
            .iter()
            .copied()
            .find(|a| a.name() == s)
            .ok_or_else(|| UnknownAssignment(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::CaseTree;

    #[test]
    fn names_are_unique_and_parse_back() {
        let mut names: Vec<&str> = ASSIGNMENTS.iter().map(|a| a.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ASSIGNMENTS.len(), "a name is registered twice");
        for assignment in ASSIGNMENTS {
            assert_eq!(assignment.name().parse::<Assignment>(), Ok(*assignment));
            assert!(!assignment.title().is_empty());
        }
        assert!("tic_tac_toe".parse::<Assignment>().is_err());
    }

    #[test]
    fn every_assignment_has_its_cases_and_reference_transcripts() {
        let tree = CaseTree::open(None).expect("built-in cases");
        assert_eq!(tree.assignments(), ASSIGNMENTS.to_vec());
        for assignment in ASSIGNMENTS {
            let name = assignment.name();
            let prefix = format!("reference/{name}/");
            assert!(
                tree.paths().any(|path| path.starts_with(&prefix)),
                "{name} has no reference/ transcripts"
            );
            let set = crate::cases::load(&tree, *assignment).expect("loads");
            assert!(!set.cases.is_empty(), "{name} has no cases");
            for case in &set.cases {
                assert!(
                    case.reference.is_some(),
                    "{name}/{} has no reference",
                    case.name
                );
            }
        }
    }

    #[test]
    fn order_follows_the_registry() {
        let mut sorted = ASSIGNMENTS.to_vec();
        sorted.sort();
        assert_eq!(sorted, ASSIGNMENTS.to_vec());
    }

    #[test]
    fn every_assignment_sets_up_its_reference_without_arguments_or_says_why() {
        for assignment in ASSIGNMENTS {
            // Collect needs a board file; every other game starts from no arguments.
            let setup = assignment.setup(&[], Path::new("/nonexistent"));
            if let Err(error) = setup {
                assert!(
                    matches!(error, SetupError::Usage(_)),
                    "{assignment}: {error}"
                );
            }
        }
    }
}
