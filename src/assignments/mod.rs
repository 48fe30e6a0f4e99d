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

use crate::analyze::requirements::Requirement;
use crate::analyze::SourceLanguage;
use crate::check::custom::CheckKindDef;
use crate::drive::generate::{Game, Rng};
use crate::drive::Driver;
use crate::games::{Recording, ReferenceFailure, Setup, SetupError};
use crate::run::{EndOfInput, Limits};

/// Declares each assignment's folder (`pub mod NAME;`) and lists its descriptor in
/// [`ASSIGNMENTS`], so registering one is a single line.
macro_rules! register {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*

        /// Every built-in assignment, in the order the handouts are numbered.
        pub const ASSIGNMENTS: &[Assignment] = &[$($name::ASSIGNMENT),*];
    };
}

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
    /// The check kinds only this assignment's case files may use (Silver Dollar's strips),
    /// besides the generic ones; see [`crate::check::custom`].
    pub check_kinds: &'static [CheckKindDef],
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
    /// The rules a game exercised.
    pub rules_hit: RulesHit,
    /// For games whose program reads a board file ([`Game::board_file`]): the reference's
    /// setup from the file's name and text, so a board shrunk while shrinking a finding is
    /// read again (`None`: no board file).
    pub board_setup: Option<fn(&Path, &str) -> Option<Setup>>,
}

/// How the rules a game exercised are read ([`Generator::rules_hit`]).
#[derive(Clone, Copy)]
pub enum RulesHit {
    /// From the game's input alone: steering plays no reference game to read them.
    FromInput(fn(&Game) -> Vec<&'static str>),
    /// From its input and the reference's terminal text (the reference plays the game; one
    /// that cannot reaches no rule).
    FromTranscript(fn(&Game, &str) -> Vec<&'static str>),
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

/// What every assignment is to the stages, built-in or an instructor's own: its descriptor,
/// and how its reference game is set up, recorded and drawn at random. The five built-in
/// assignments are their descriptors ([`AssignmentDef`] implements this with the defaults); an
/// instructor's directory is one more implementation ([`crate::cases::own`]), so no stage asks which kind
/// it holds.
pub trait AssignmentKind: Send + Sync + std::panic::RefUnwindSafe {
    /// The descriptor: name, title, generator, driver, requirements, parameters.
    fn def(&self) -> &AssignmentDef;

    /// The reference game from game arguments as typed after the assignment name (`grade play
    /// NAME ARGS…`); relative file names are resolved against `base_dir`.
    fn setup(&self, args: &[String], base_dir: &Path) -> Result<Setup, SetupError> {
        (self.def().setup)(args, base_dir)
    }

    /// The reference game for a person playing it (`grade play`), with `files` (`--file`)
    /// placed beside it, and a note on how to play the same game again when it was drawn at
    /// random.
    fn play_setup(
        &self,
        args: &[String],
        base_dir: &Path,
        files: &[(String, Vec<u8>)],
    ) -> Result<(Setup, Option<String>), SetupError> {
        if !files.is_empty() {
            return Err(SetupError::Usage(format!(
                "--file: {} is played by grade itself and reads no files but those its game \
                 arguments name (--file is for an assignment of your own, with --cases DIR)",
                self.def().name
            )));
        }
        match self.def().play_setup {
            Some(play_setup) => play_setup(args, base_dir),
            None => self.setup(args, base_dir).map(|setup| (setup, None)),
        }
    }

    /// The reference game of a case: its reference arguments, with the case's files placed in
    /// a temporary directory for them to name (read once, then removed); a reference that is a
    /// program also runs within the case's limits and end of input. The error is one line.
    fn case_setup(
        &self,
        reference_args: &[String],
        files: &[(String, Vec<u8>)],
        _limits: &Limits,
        _end_of_input: EndOfInput,
    ) -> Result<Setup, String> {
        setup_with_files(self, reference_args, files)
    }

    /// Whatever must exist before the first recording (an instructor's reference program,
    /// built), so that a grading fails at once, naming the problem, rather than per student.
    fn prepare(&self) -> Result<(), String> {
        Ok(())
    }

    /// The reference's recording of a case's `input` on `setup`, typed by `driver`. A built-in
    /// game plays again (microseconds); a reference program is run once per process per case.
    fn record(
        &self,
        case_file: &str,
        setup: &Setup,
        input: &[String],
        driver: &Driver,
    ) -> Result<Recording, ReferenceFailure> {
        let _ = (case_file, input);
        crate::drive::record_driven(setup, driver.source().as_mut())
    }

    /// One random game in `mode` (one of the generator's modes), or none (no generator, or a
    /// draw without a game, such as a board without a move).
    fn random_game(&self, rng: &mut Rng, mode: &'static str) -> Option<Game> {
        match self.def().explore {
            Explore::Generator(generator) => (generator.generate)(rng, mode),
            Explore::Unavailable(_) => None,
        }
    }

    /// Whether a class run's first random games are drawn once for every student: games of a
    /// built-in generator are; an instructor's vocabulary draws each afresh.
    fn shares_first_games(&self) -> bool {
        true
    }

    /// The directory an instructor's own assignment was loaded from (it holds
    /// assignment.yaml, cases/ and reference/ side by side); `None` for a built-in one.
    fn directory(&self) -> Option<&Path> {
        None
    }

    /// The files every run of the reference gets outside a case (an instructor's
    /// assignment.yaml `files`); a built-in game reads none.
    fn files(&self) -> &[(String, Vec<u8>)] {
        &[]
    }

    /// The reference program as its assignment.yaml names it, for messages; `None` for a
    /// built-in game, which grade plays itself.
    fn reference_program(&self) -> Option<&str> {
        None
    }

    /// The check kinds its case files may use besides the generic ones, looked up by name
    /// when a case is compiled (the descriptor's [`AssignmentDef::check_kinds`]).
    fn check_kinds(&self) -> &'static [CheckKindDef] {
        self.def().check_kinds
    }

    /// Removes what [`AssignmentKind::prepare`] made (a reference program's build
    /// directory); called when the command is done.
    fn release(&self) {}
}

impl AssignmentKind for AssignmentDef {
    fn def(&self) -> &AssignmentDef {
        self
    }
}

/// A built-in game's setup for a case: `files` written into a temporary directory, the game
/// arguments read with it as their base, the directory removed again.
fn setup_with_files<K: AssignmentKind + ?Sized>(
    kind: &K,
    reference_args: &[String],
    files: &[(String, Vec<u8>)],
) -> Result<Setup, String> {
    // A case without files needs no directory: the game reads nothing from it.
    let dir = if files.is_empty() {
        None
    } else {
        Some(tempfile::tempdir().map_err(|e| format!("cannot make a temp dir: {e}"))?)
    };
    let base = dir
        .as_ref()
        .map_or(Path::new(NO_FILES), |d| d.path())
        .to_path_buf();
    for (name, bytes) in files {
        let path = base.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| format!("cannot make the directory of {name}: {e}"))?;
        }
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write {name}: {e}"))?;
    }
    kind.setup(reference_args, &base).map_err(|e| {
        // One line: a game's usage (what `grade play` prints under its error) joins it.
        let text = e.to_string().replace(&base.display().to_string(), "");
        let text: Vec<&str> = text
            .lines()
            .map(|line| line.trim().trim_start_matches('/'))
            .filter(|line| !line.is_empty())
            .collect();
        format!(
            "reference arguments {reference_args:?}: {}",
            text.join("; ")
        )
    })
}

/// Where the reference game of a case without files looks for them: nowhere.
const NO_FILES: &str = "/nonexistent/grade-case-files";

/// The assignments one command knows: the built-in ones, then the instructor's own that its
/// `--cases DIR` (or `--root DIR`) is. The command line builds it after parsing and resolves
/// the assignment's name against it; nothing else holds a list of assignments.
#[derive(Clone, Debug)]
pub struct Registry {
    all: Vec<Assignment>,
}

impl Registry {
    /// The built-in assignments only.
    pub fn built_in() -> Registry {
        Registry {
            all: ASSIGNMENTS.to_vec(),
        }
    }

    /// The built-in assignments and `own`, an instructor's assignment, after them.
    pub fn with_own(own: Assignment) -> Registry {
        let mut all = ASSIGNMENTS.to_vec();
        if !all.contains(&own) {
            all.push(own);
        }
        Registry { all }
    }

    /// Removes what the assignments made for this command (reference programs' builds).
    pub fn release(&self) {
        for assignment in &self.all {
            assignment.kind().release();
        }
    }

    /// Every assignment it knows, built-in ones first in the handouts' order.
    pub fn all(&self) -> &[Assignment] {
        &self.all
    }

    /// The assignment called `name`, or an error listing the names it knows.
    pub fn find(&self, name: &str) -> Result<Assignment, UnknownAssignment> {
        self.all
            .iter()
            .copied()
            .find(|a| a.name() == name)
            .ok_or_else(|| UnknownAssignment {
                name: name.to_string(),
                known: self.all.iter().map(|a| a.name().to_string()).collect(),
            })
    }
}

/// One registered assignment: a copyable handle on its descriptor, compared by name.
///
/// The handle replaces an enum with one variant per assignment, whose `match` arms made
/// every new assignment an edit in a dozen places.
#[derive(Clone, Copy)]
pub struct Assignment(&'static dyn AssignmentKind);

impl Assignment {
    /// The handle on an assignment (the registration line in each folder; an instructor's
    /// directory, loaded once for the life of the process).
    pub const fn new(kind: &'static dyn AssignmentKind) -> Assignment {
        Assignment(kind)
    }

    /// What the assignment is: its setups, recordings and random games.
    pub fn kind(self) -> &'static dyn AssignmentKind {
        self.0
    }

    /// The descriptor: every piece of data the stages ask of this assignment.
    pub fn def(self) -> &'static AssignmentDef {
        self.0.def()
    }

    /// The name used everywhere: CLI, cases/, reference/, docs.
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// A short human title for listings.
    pub fn title(self) -> &'static str {
        self.def().title
    }

    /// The game arguments this assignment accepts, for help texts.
    pub fn args_usage(self) -> &'static str {
        self.def().args_usage
    }

    /// Parses game arguments as typed after the assignment name (`grade play NAME ARGS…`);
    /// relative file names are resolved against `base_dir`.
    pub fn setup(self, args: &[String], base_dir: &Path) -> Result<Setup, SetupError> {
        self.0.setup(args, base_dir)
    }

    /// A setup for a person playing the reference (`grade play`), with a note on how to
    /// play the same game again when the setup was drawn at random.
    pub fn play_setup(
        self,
        args: &[String],
        base_dir: &Path,
    ) -> Result<(Setup, Option<String>), SetupError> {
        self.0.play_setup(args, base_dir, &[])
    }

    /// The modes of its random games, in the order game `i` of a budget cycles through them
    /// (so a budget of a few games already has one of each); none without a generator.
    pub fn modes(self) -> &'static [&'static str] {
        match self.def().explore {
            Explore::Generator(generator) => generator.modes,
            Explore::Unavailable(_) => &[],
        }
    }

    /// Random game `seed` (none without a generator), in a mode drawn from the seed.
    pub fn random_game(self, seed: u64) -> Option<Game> {
        let all = self.modes();
        let draw = crate::games::SplitMix64::new(seed).next_u64() % all.len().max(1) as u64;
        let mode = *all.get(draw as usize)?;
        self.random_game_in_mode(seed, mode)
    }

    /// Random game `seed` in `mode` (one of [`Assignment::modes`]).
    pub fn random_game_in_mode(self, seed: u64, mode: &'static str) -> Option<Game> {
        self.0.random_game(&mut Rng::for_game(seed), mode)
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

/// The error for a name that is not an assignment of the [`Registry`] asked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownAssignment {
    /// The name asked for.
    pub name: String,
    /// The names the registry knows, in its order.
    pub known: Vec<String>,
}

impl fmt::Display for UnknownAssignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "invalid value '{}' for the assignment (possible values: {})",
            self.name,
            self.known.join(", ")
        )
    }
}

impl std::error::Error for UnknownAssignment {}

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
        let registry = Registry::built_in();
        for assignment in ASSIGNMENTS {
            assert_eq!(registry.find(assignment.name()), Ok(*assignment));
            assert!(!assignment.title().is_empty());
        }
        let unknown = registry.find("tic_tac_toe").expect_err("not built in");
        assert_eq!(
            unknown.to_string(),
            "invalid value 'tic_tac_toe' for the assignment \
             (possible values: m, silver_dollar, connect6, collect, nim)"
        );
    }

    #[test]
    fn every_assignment_has_its_cases_and_reference_transcripts() {
        let tree = CaseTree::open(None).expect("built-in cases");
        assert_eq!(
            tree.assignments(&Registry::built_in()),
            ASSIGNMENTS.to_vec()
        );
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

    #[test]
    fn every_requirement_quotes_its_handout() {
        // The handouts are kept in the repository (docs/handouts/) so this runs on any clone.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/handouts");
        for &assignment in crate::assignments::ASSIGNMENTS {
            if assignment.def().requirements.is_empty() {
                continue;
            }
            let file = format!("{}.txt", assignment.name());
            let text = std::fs::read_to_string(dir.join(&file))
                .unwrap_or_else(|e| panic!("docs/handouts/{file}: {e}"));
            let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            let text = flat(&text);
            for r in assignment.def().requirements {
                assert!(
                    text.contains(&flat(r.quote)),
                    "{}: {:?} not in {file}",
                    r.name,
                    r.quote
                );
            }
        }
    }

    #[test]
    fn games_are_deterministic_and_end_where_the_reference_ends() {
        for &assignment in crate::assignments::ASSIGNMENTS {
            if assignment.modes().is_empty() {
                assert_eq!(assignment.random_game(1), None);
                continue;
            }
            for seed in 0..20 {
                // (a generator may make no game, e.g. a collect board without a move)
                let Some(game) = assignment.random_game(seed) else {
                    continue;
                };
                assert_eq!(Some(&game), assignment.random_game(seed).as_ref());
                assert!(!game.lines.is_empty(), "{assignment} seed {seed}");
                let recording =
                    crate::games::record(&game.setup, &game.lines).expect("the reference plays");
                // The reference reads every line (no line is typed after its game ended).
                assert_eq!(recording.unread_lines, 0, "{assignment} seed {seed}");
            }
        }
    }
}
