//! An instructor's own assignment, with no Rust: a directory holding `assignment.yaml` (with a
//! `reference:` block naming the instructor's reference program, and optionally a
//! `vocabulary:` block for random games), `cases/*.yaml` and, once `grade bless --root DIR`
//! has run, `reference/*.txt` (docs/new-assignment.md).
//!
//! The reference program is built by the submission machinery exactly as a student's program
//! of its language is, and every run of it goes through the same sandbox with limits: it is
//! trusted no more than a student's. It plays the part a built-in assignment's reference game
//! plays: [`crate::cases::own::OwnGame`] is a [`crate::games::ReferenceGame`] whose moves are the program's, so recording,
//! verifying, grading and exploring work on it unchanged.
//!
//! The command line loads it ([`load`]) from the directory its `--cases DIR` or `--root DIR`
//! names, into the registry it resolves names against: its descriptor is made once and kept
//! for the life of the process (a few hundred bytes), and it implements [`crate::assignments::AssignmentKind`], so
//! it is an [`Assignment`] like the built-in ones and no stage asks which kind it is.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::schema::{merge_limits, CaseError};
use super::schema::{
    AssignmentFile, EndOfInputSpec, FileSpec, LimitsSpec, ReferenceProgramSpec, VocabularySpec,
};
use crate::analyze::SourceLanguage;
use crate::assignments::{
    Assignment, AssignmentDef, AssignmentKind, Explore, Generator, ASSIGNMENTS,
};
use crate::console::Console;
use crate::drive::generate::{Game, Rng};
use crate::drive::Driver;
use crate::games::{Recording, ReferenceFailure, ReferenceGame, Setup, SetupError};
use crate::run::{self, EndOfInput, Ending, InputSource, Limits, RunSpec};
use crate::submission::{self, PrepareError, PrepareOptions, Submission};
use crate::terminal::decode_visible;
use crate::transcript::{Event, Stream, Transcript};

/// The file that makes a directory an external assignment.
pub const HEADER: &str = "assignment.yaml";

/// Lines of a random game at most when the vocabulary does not say.
const DEFAULT_MAX_LINES: usize = 20;

/// The one mode of a vocabulary's random games.
const VOCABULARY_MODE: &str = "vocabulary";

/// An external assignment, loaded from its directory.
pub struct OwnAssignment {
    /// Its descriptor (name, title, capabilities), like a built-in assignment's.
    def: AssignmentDef,
    /// The directory holding assignment.yaml, cases/ and reference/.
    pub dir: PathBuf,
    /// Its reference program, shared with every game set up on it.
    reference: Arc<ReferenceProgram>,
    /// The reference's arguments for random games (assignment.yaml's `reference_args`, else `args`).
    pub reference_args: Vec<String>,
    /// The files every run gets (assignment.yaml's `files`), for random games.
    pub files: Vec<(String, Vec<u8>)>,
    /// Limits of the reference's runs outside any case (random games of `grade explore`,
    /// `grade play`): assignment.yaml's `limits` with `reference.limits` over them.
    limits: Limits,
    /// `reference.limits` as written: laid over a case's limits for the reference's runs of
    /// that case.
    reference_limits: LimitsSpec,
    /// assignment.yaml's `end_of_input`, for the reference's runs outside any case.
    end_of_input: EndOfInput,
    /// What random games type.
    vocabulary: Option<VocabularySpec>,
    /// The reference's recordings of cases made in this process.
    recorded: Mutex<BTreeMap<RecordingKey, Recording>>,
}

/// An instructor's reference program: where it is, how it is built, and its build once made.
struct ReferenceProgram {
    /// assignment.yaml, for messages.
    header: PathBuf,
    /// The reference program as assignment.yaml names it, and its path.
    program_name: String,
    program: PathBuf,
    /// How the reference program is started when its folder holds several candidates.
    prepare: PrepareOptions,
    /// The built reference program, once built; released (its build directory removed) by
    /// [`AssignmentKind::release`] when the command is done with it.
    build: Mutex<Option<Arc<Submission>>>,
}

impl fmt::Debug for OwnAssignment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "OwnAssignment({}, {})",
            self.def.name,
            self.dir.display()
        )
    }
}

/// Reference recordings of an assignment's cases made in this process, by case file, input
/// and arguments: a class graded in one process runs the reference program once per case, not
/// once per student and case (it is deterministic, and `grade verify` checks that it is).
type RecordingKey = (String, Vec<String>, Vec<String>);

/// Whether `dir` is an external assignment's directory (it holds assignment.yaml itself, where
/// a case tree holds cases/NAME/assignment.yaml).
pub fn is_own_dir(dir: &Path) -> bool {
    dir.join(HEADER).is_file()
}

/// The name an external assignment's directory gives itself (assignment.yaml's `assignment`),
/// without loading the rest.
pub fn name_in(dir: &Path) -> Result<String, CaseError> {
    Ok(read_header(&dir.join(HEADER))?.assignment)
}

/// assignment.yaml at `header_path`, read and parsed, or an error naming it.
fn read_header(header_path: &Path) -> Result<AssignmentFile, CaseError> {
    let error = |message: String| CaseError {
        file: header_path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(header_path).map_err(|e| error(e.to_string()))?;
    yaml_serde::from_str(&text).map_err(|e| error(e.to_string()))
}

/// Loads the external assignment in `dir`: checked, not built (its reference program is built
/// on first use). It lives as long as the process, as a built-in assignment does.
pub fn load(dir: &Path) -> Result<&'static OwnAssignment, CaseError> {
    let header_path = dir.join(HEADER);
    let error = |message: String| CaseError {
        file: header_path.display().to_string(),
        message,
    };
    let header = read_header(&header_path)?;
    let Checked {
        reference,
        program,
        limits,
        files,
    } = checked(dir, &header).map_err(error)?;
    let name = header.assignment.clone();
    let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
    let title = leak(header.title.clone().unwrap_or_else(|| name.clone()));
    let def = descriptor(leak(name), title, &program, header.vocabulary.is_some());
    let external: &'static OwnAssignment = Box::leak(Box::new(OwnAssignment {
        def,
        dir: dir.to_path_buf(),
        reference: Arc::new(ReferenceProgram {
            header: header_path.clone(),
            program_name: reference.program.clone(),
            program,
            prepare: PrepareOptions {
                main: reference.main.clone(),
                java_main: header.java_main.clone(),
                main_file: header.main_file.clone(),
                no_cache: false,
                sanitize: false,
            },
            build: Mutex::new(None),
        }),
        reference_args: header
            .reference_args
            .clone()
            .unwrap_or_else(|| header.args.clone()),
        files,
        limits,
        reference_limits: reference.limits,
        end_of_input: match header.end_of_input {
            EndOfInputSpec::Stop => EndOfInput::Stop,
            EndOfInputSpec::Close => EndOfInput::Close,
        },
        vocabulary: header.vocabulary.clone(),
        recorded: Mutex::new(BTreeMap::new()),
    }));
    Ok(external)
}

/// What checking an external assignment's assignment.yaml yields for building it.
struct Checked {
    /// The `reference:` block.
    reference: ReferenceProgramSpec,
    /// The reference program's path.
    program: PathBuf,
    /// The reference's limits outside any case: `limits` with `reference.limits` over them.
    limits: Limits,
    /// The files every run gets, read.
    files: Vec<(String, Vec<u8>)>,
}

/// An external assignment's assignment.yaml (`header`, in `dir`) checked before anything is
/// built from it: its reference block and program, its name, limits, files and vocabulary.
fn checked(dir: &Path, header: &AssignmentFile) -> Result<Checked, String> {
    let Some(reference) = header.reference.clone() else {
        return Err(
            "no `reference:` block: an assignment of your own names its reference program \
             there (docs/new-assignment.md)"
                .into(),
        );
    };
    let name = &header.assignment;
    let plain = name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if !plain {
        return Err(format!(
            "assignment: '{name}' must be lower-case letters, digits and '_', starting with a letter"
        ));
    }
    if ASSIGNMENTS.iter().any(|a| a.name() == name) {
        return Err(format!(
            "assignment: '{name}' is a built-in assignment; give yours another name"
        ));
    }
    let program = dir.join(&reference.program);
    if std::fs::symlink_metadata(&program).is_err() {
        return Err(format!(
            "reference.program: '{}' does not exist (looked for {})",
            reference.program,
            program.display()
        ));
    }
    let base = merge_limits(Limits::default(), &header.limits)?;
    let limits = merge_limits(base, &reference.limits).map_err(|m| format!("reference.{m}"))?;
    let mut files = Vec::new();
    for (file_name, spec) in &header.files {
        let bytes = match spec {
            FileSpec::Inline(text) => text.as_bytes().to_vec(),
            FileSpec::From { from } => std::fs::read(dir.join("cases").join(from))
                .map_err(|e| format!("files: '{file_name}' from cases/{from}: {e}"))?,
        };
        files.push((file_name.clone(), bytes));
    }
    if let Some(vocabulary) = &header.vocabulary {
        check_vocabulary(vocabulary)?;
    }
    Ok(Checked {
        reference,
        program,
        limits,
        files,
    })
}

/// A `vocabulary:` block checked: something to draw from, ranges the right way round, and a
/// number of lines from 1 to 10000.
fn check_vocabulary(vocabulary: &VocabularySpec) -> Result<(), String> {
    if vocabulary.lines.is_empty() && vocabulary.integers.is_empty() {
        return Err("vocabulary: give some `lines` or `integers` to draw from".into());
    }
    if let Some(range) = vocabulary.integers.iter().find(|r| r.from > r.to) {
        return Err(format!(
            "vocabulary.integers: from {} is above to {}",
            range.from, range.to
        ));
    }
    if vocabulary.max_lines == Some(0) || vocabulary.max_lines > Some(10_000) {
        return Err("vocabulary.max_lines: give a number of lines from 1 to 10000".into());
    }
    Ok(())
}

/// An external assignment's descriptor, like a built-in's: random games only from a
/// vocabulary, and no setup of its own (it is set up from its directory).
fn descriptor(
    name: &'static str,
    title: &'static str,
    program: &Path,
    vocabulary: bool,
) -> AssignmentDef {
    let explore = if vocabulary {
        Explore::Generator(Generator {
            modes: &[VOCABULARY_MODE],
            // Random games of an external assignment are drawn from its vocabulary
            // (`AssignmentKind::random_game`): this entry is never called.
            generate: |_, _| None,
            rules: &[],
            rules_hit: crate::assignments::RulesHit::FromInput(|_| Vec::new()),
            board_setup: None,
        })
    } else {
        Explore::Unavailable(
            "this assignment has no `vocabulary:` in its assignment.yaml to draw random games from \
             (docs/new-assignment.md)",
        )
    };
    AssignmentDef {
        name,
        title,
        handout_language: SourceLanguage::of(program).unwrap_or(SourceLanguage::Python),
        args_usage: "the reference program's own arguments",
        setup: |_, _| {
            Err(SetupError::Usage(
                "an assignment of your own is set up from its directory (--cases DIR)".into(),
            ))
        },
        play_setup: None,
        explore,
        driver: None,
        requirements: &[],
        resize: None,
        parameters: &[],
        check_kinds: &[],
    }
}

impl ReferenceProgram {
    /// The reference program, built (once per process) as a student's program of its language
    /// is; or one line saying why it cannot be, naming assignment.yaml and the program.
    fn built(&self) -> Result<Arc<Submission>, CaseError> {
        let mut build = self.build.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(built) = build.as_ref() {
            return Ok(Arc::clone(built));
        }
        let built = submission::prepare(&self.program, &self.prepare).map_err(|e| {
            let why = match &e {
                PrepareError::BuildFailed(failure) => format!(
                    "did not build: {}: {}",
                    failure.command,
                    failure.first_message()
                ),
                other => other.to_string(),
            };
            CaseError {
                file: self.header.display().to_string(),
                message: format!("reference.program '{}': {why}", self.program_name),
            }
        })?;
        let built = Arc::new(built);
        *build = Some(Arc::clone(&built));
        Ok(built)
    }

    /// Runs the reference program once as `game` says (arguments, files, limits, end of
    /// input), typing what `console` gives at each read and writing to it what the program
    /// prints.
    ///
    /// It runs over pipes, never under a pseudo-terminal, whatever the case's `terminal`: its
    /// transcript is what a terminal would show either way (its output is line-buffered and
    /// flushed before each read, as at a terminal), and a terminal's echo of each line typed
    /// would only have to be taken out again.
    fn play(&self, game: &OwnGame, console: &mut dyn Console) -> Result<(), String> {
        let built = self.built().map_err(|e| e.to_string())?;
        let mut command = built.command.clone();
        command.extend(game.args.iter().cloned());
        let spec = RunSpec {
            command,
            files: game.files.clone(),
            readable: built.readable.clone(),
            env: built.env.clone(),
            input: Vec::new(),
            end_of_input: game.end_of_input,
            limits: game.limits.clone(),
            terminal: false,
            workdir: None,
        };
        let mut source = ConsoleSource {
            console,
            forwarded: 0,
            // Stopped at end of input, what it prints after is not the game's: a student's
            // program stopped there is not compared on it either.
            until_closed: game.end_of_input == EndOfInput::Stop,
        };
        let outcome = run::run_with(&spec, &mut source).map_err(|e| {
            format!(
                "the reference program {} could not run: {e}",
                self.program_name
            )
        })?;
        source.forward(&outcome.transcript, true);
        let stderr = outcome
            .transcript
            .events()
            .iter()
            .filter_map(|event| match event {
                Event::Output {
                    stream: Stream::Stderr,
                    bytes,
                } => Some(bytes.as_slice()),
                _ => None,
            })
            .collect::<Vec<&[u8]>>()
            .concat();
        let status = match outcome.ending {
            Ending::Exited(code) => Some(code),
            _ => None,
        };
        source.console.program_ended(status, &stderr);
        let given_end_of_input = outcome
            .transcript
            .events()
            .iter()
            .any(|e| matches!(e, Event::InputClosed));
        if game.end_of_input == EndOfInput::Close
            && given_end_of_input
            && matches!(outcome.ending, Ending::Exited(_))
        {
            // Given end of input it ended by itself: its game is over (a student's program
            // must end there too), not waiting for more.
            source.console.ended_after_end_of_input();
        }
        let problem = match outcome.ending {
            Ending::Exited(_) | Ending::WaitingForInput => return Ok(()),
            Ending::Signaled(signal) => format!("was killed by signal {signal}"),
            Ending::WallTimeout => format!(
                "ran out of wall time ({:.1} s; reference.limits.wall_seconds)",
                game.limits.wall.as_secs_f64()
            ),
            Ending::CpuLimit => "ran out of CPU time (reference.limits.cpu_seconds)".into(),
            Ending::MemoryLimit => "ran out of memory (reference.limits.memory_mb)".into(),
            Ending::OutputLimit => "printed too much (reference.limits.output_kb)".into(),
            Ending::DiskLimit => "wrote too much into its working directory".into(),
            Ending::Blocked(_) => format!(
                "was blocked: neither reading input nor computing for {} s, or sleeping too long",
                crate::run::pace::blocked_after(game.limits.wall).as_secs_f64()
            ),
        };
        Err(format!(
            "the reference program {} {problem}",
            self.program_name
        ))
    }
}

impl OwnAssignment {
    /// Its handle, as the stages take an assignment.
    pub fn assignment(&'static self) -> Assignment {
        Assignment::new(self)
    }

    /// The reference game of a case: the program run with `args`, with `files` in its
    /// working directory, within the case's `limits` (with `reference.limits` over them) and
    /// given end of input as the case's `end_of_input` says, as the student's program is.
    fn setup_for_case(
        &self,
        args: &[String],
        files: &[(String, Vec<u8>)],
        limits: &Limits,
        end_of_input: EndOfInput,
    ) -> Setup {
        // `reference.limits` was checked when the assignment was registered: its values
        // cannot fail over other limits.
        let limits = merge_limits(limits.clone(), &self.reference_limits)
            .unwrap_or_else(|_| self.limits.clone());
        Setup::new(OwnGame {
            reference: Arc::clone(&self.reference),
            args: args.to_vec(),
            files: files.to_vec(),
            limits,
            end_of_input,
        })
    }

    /// The reference game outside any case (random games of `grade explore`, `grade play`):
    /// assignment.yaml's arguments for it (`reference_args`, else `args`), files, limits and
    /// end of input.
    pub fn default_setup(&self, args: &[String]) -> Setup {
        self.default_setup_with_files(args, &self.files)
    }

    /// [`Self::default_setup`] with other files (`grade play --file`).
    pub fn default_setup_with_files(&self, args: &[String], files: &[(String, Vec<u8>)]) -> Setup {
        Setup::new(OwnGame {
            reference: Arc::clone(&self.reference),
            args: args.to_vec(),
            files: files.to_vec(),
            limits: self.limits.clone(),
            end_of_input: self.end_of_input,
        })
    }

    /// One random game drawn from the vocabulary with `below(n)` (a number below `n`): 1 to
    /// `max_lines` lines, each one of the `lines` or a number of one of the `integers` ranges.
    /// The reference decides where the game ends; lines it never reads are shrunk away.
    pub fn vocabulary_game(&self, below: &mut dyn FnMut(u64) -> u64) -> Option<Game> {
        let vocabulary = self.vocabulary.as_ref()?;
        let choices = vocabulary.lines.len() + vocabulary.integers.len();
        if choices == 0 {
            return None;
        }
        let max_lines = vocabulary.max_lines.unwrap_or(DEFAULT_MAX_LINES) as u64;
        let count = 1 + below(max_lines) as usize;
        let mut lines = Vec::with_capacity(count);
        for _ in 0..count {
            let choice = below(choices as u64) as usize;
            let line = match vocabulary.lines.get(choice) {
                Some(line) => line.clone(),
                None => {
                    let range = vocabulary.integers[choice - vocabulary.lines.len()];
                    let span = (range.to as i128 - range.from as i128 + 1) as u64;
                    (range.from as i128 + below(span) as i128).to_string()
                }
            };
            lines.push(line);
        }
        Some(Game {
            setup: self.default_setup(&self.reference_args),
            board_file: None,
            lines,
            free_messages: false,
            mode: VOCABULARY_MODE,
            driver: None,
        })
    }

    /// The reference program as assignment.yaml names it (`solution/game.py`), for messages.
    pub fn program_name(&self) -> &str {
        &self.reference.program_name
    }
}

impl AssignmentKind for OwnAssignment {
    fn def(&self) -> &AssignmentDef {
        &self.def
    }

    /// Its reference program with the arguments given, and its assignment's files, limits
    /// and end of input.
    fn setup(&self, args: &[String], _base_dir: &Path) -> Result<Setup, SetupError> {
        Ok(self.default_setup(args))
    }

    /// Its reference program with the arguments given, its assignment's files and `files`
    /// (`--file`) over them.
    fn play_setup(
        &self,
        args: &[String],
        _base_dir: &Path,
        files: &[(String, Vec<u8>)],
    ) -> Result<(Setup, Option<String>), SetupError> {
        let mut all = self.files.clone();
        for (name, content) in files {
            all.retain(|(n, _)| n != name);
            all.push((name.clone(), content.clone()));
        }
        Ok((self.default_setup_with_files(args, &all), None))
    }

    fn case_setup(
        &self,
        reference_args: &[String],
        files: &[(String, Vec<u8>)],
        limits: &Limits,
        end_of_input: EndOfInput,
    ) -> Result<Setup, String> {
        Ok(self.setup_for_case(reference_args, files, limits, end_of_input))
    }

    /// Builds the reference program (once per process).
    fn prepare(&self) -> Result<(), String> {
        self.reference.built().map(drop).map_err(|e| e.to_string())
    }

    fn record(
        &self,
        case_file: &str,
        setup: &Setup,
        input: &[String],
        driver: &Driver,
    ) -> Result<Recording, ReferenceFailure> {
        let args = setup
            .get::<OwnGame>()
            .map(|game| game.args.clone())
            .unwrap_or_default();
        let key = (case_file.to_string(), input.to_vec(), args);
        let recorded = || self.recorded.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(recording) = recorded().get(&key) {
            return Ok(recording.clone());
        }
        // A failed run is not kept: the next asks again.
        let recording = crate::drive::record_driven(setup, driver.source().as_mut())?;
        recorded().insert(key, recording.clone());
        Ok(recording)
    }

    /// Lines drawn from assignment.yaml's vocabulary, whatever the mode.
    fn random_game(&self, rng: &mut Rng, _mode: &'static str) -> Option<Game> {
        self.vocabulary_game(&mut |n| rng.below(n))
    }

    /// Each of its games is drawn afresh from the vocabulary.
    fn shares_first_games(&self) -> bool {
        false
    }

    fn directory(&self) -> Option<&Path> {
        Some(&self.dir)
    }

    fn files(&self) -> &[(String, Vec<u8>)] {
        &self.files
    }

    /// Removes the reference program's build directory.
    fn release(&self) {
        let _ = self
            .reference
            .build
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
    }

    fn reference_program(&self) -> Option<&str> {
        Some(&self.reference.program_name)
    }
}

/// An external assignment's reference game: its reference program, run in the sandbox as a
/// case runs the student's program.
pub struct OwnGame {
    reference: Arc<ReferenceProgram>,
    args: Vec<String>,
    files: Vec<(String, Vec<u8>)>,
    limits: Limits,
    end_of_input: EndOfInput,
}

impl fmt::Debug for OwnGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "OwnGame({}, args {:?}, {} file(s), {:?})",
            self.reference.program_name,
            self.args,
            self.files.len(),
            self.end_of_input
        )
    }
}

impl ReferenceGame for OwnGame {
    fn play(&self, console: &mut dyn Console) -> Result<(), ReferenceFailure> {
        self.reference.play(self, console).map_err(ReferenceFailure)
    }

    fn same_as(&self, other: &dyn ReferenceGame) -> bool {
        other.as_any().downcast_ref::<OwnGame>().is_some_and(|o| {
            Arc::ptr_eq(&o.reference, &self.reference)
                && o.args == self.args
                && o.files == self.files
                && o.limits == self.limits
                && o.end_of_input == self.end_of_input
        })
    }

    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn program_run(&self) -> Option<crate::games::ProgramRun<'_>> {
        Some((&self.args, &self.files))
    }
}

/// The input source of a reference program's run: at each read it shows the console what the
/// program printed since the last one, and types the line the console gives.
struct ConsoleSource<'a> {
    console: &'a mut dyn Console,
    /// Bytes of standard output already written to the console.
    forwarded: usize,
    /// Only what the program printed before it was given end of input reaches the console.
    until_closed: bool,
}

impl ConsoleSource<'_> {
    /// Writes to the console the standard output it has not seen yet (all of it when `last`;
    /// else a character cut in two by a read waits for its end).
    fn forward(&mut self, transcript: &Transcript, last: bool) {
        let mut stdout = Vec::new();
        for event in transcript.events() {
            match event {
                Event::Output {
                    stream: Stream::Stdout,
                    bytes,
                } => stdout.extend_from_slice(bytes),
                Event::InputClosed if self.until_closed => break,
                _ => {}
            }
        }
        let Some(new) = stdout.get(self.forwarded..) else {
            return;
        };
        let end = match std::str::from_utf8(new) {
            Err(e) if !last && e.error_len().is_none() => e.valid_up_to(),
            _ => new.len(),
        };
        if end > 0 {
            self.console.write(&decode_visible(&new[..end]));
            self.forwarded += end;
        }
    }
}

impl InputSource for ConsoleSource<'_> {
    fn next_line(&mut self, transcript: &Transcript) -> Option<String> {
        self.forward(transcript, false);
        self.console.read_line()
    }

    fn remaining(&self) -> usize {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignments::Registry;
    use crate::console::ScriptedConsole;

    /// An external assignment directory with this assignment.yaml and an empty program.
    fn directory(header: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("cases")).expect("mkdir");
        std::fs::write(dir.path().join("game.py"), "print('hi')\n").expect("program");
        std::fs::write(dir.path().join(HEADER), header).expect("header");
        dir
    }

    #[test]
    fn mistakes_in_assignment_yaml_name_the_file_and_the_field() {
        for (header, expected) in [
            ("assignment: nim\nchecks: []\nreference: {program: game.py}\n", "is a built-in assignment"),
            ("assignment: no_reference\nchecks: []\n", "no `reference:` block"),
            ("assignment: Bad-Name\nchecks: []\nreference: {program: game.py}\n", "lower-case"),
            ("assignment: missing_program\nchecks: []\nreference: {program: nowhere.py}\n", "'nowhere.py' does not exist"),
            ("assignment: empty_vocabulary\nchecks: []\nreference: {program: game.py}\nvocabulary: {}\n", "give some `lines`"),
            ("assignment: backwards\nchecks: []\nreference: {program: game.py}\nvocabulary: {integers: [{from: 5, to: 1}]}\n", "from 5 is above to 1"),
            ("assignment: typo\nchecks: []\nreference: {programme: game.py}\n", "programme"),
        ] {
            let dir = directory(header);
            let error = load(dir.path()).expect_err(header);
            assert_eq!(error.file, dir.path().join(HEADER).display().to_string());
            assert!(error.message.contains(expected), "{header}: {}", error.message);
        }
    }

    #[test]
    fn a_loaded_assignment_is_found_by_name_in_its_registry_only() {
        let dir = directory(
            "assignment: registered_once\ntitle: Once\nchecks: []\nreference: {program: game.py}\n",
        );
        let external = load(dir.path()).expect("loads");
        let registry = Registry::with_own(external.assignment());
        let found = registry.find("registered_once").expect("known by name");
        assert_eq!(found.title(), "Once");
        assert_eq!(found.kind().directory(), Some(dir.path()));
        assert_eq!(
            registry.all().len(),
            ASSIGNMENTS.len() + 1,
            "the built-in ones, then it"
        );
        assert!(ASSIGNMENTS[0].kind().directory().is_none());
        // Another command's registry does not know it.
        assert!(Registry::built_in().find("registered_once").is_err());
        // The explore entry says why there are no random games.
        assert!(matches!(found.def().explore, Explore::Unavailable(_)));
    }

    #[test]
    fn random_games_draw_only_from_the_vocabulary() {
        let dir = directory(
            "assignment: vocabulary_draws\nchecks: []\nreference: {program: game.py}\n\
             vocabulary: {lines: [a, b], integers: [{from: -2, to: 2}], max_lines: 5}\n",
        );
        let external = load(dir.path()).expect("loads");
        let mut state = crate::games::SplitMix64::new(7);
        let mut lengths = std::collections::BTreeSet::new();
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..200 {
            let game = external
                .vocabulary_game(&mut |n| state.next_u64() % n)
                .expect("a game");
            assert!((1..=5).contains(&game.lines.len()), "{:?}", game.lines);
            lengths.insert(game.lines.len());
            seen.extend(game.lines);
        }
        assert_eq!(lengths.len(), 5, "every length from 1 to 5: {lengths:?}");
        let expected: std::collections::BTreeSet<String> = ["a", "b", "-2", "-1", "0", "1", "2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn output_reaches_the_console_at_each_read_and_a_split_character_waits() {
        let mut console = ScriptedConsole::new(["1"]);
        let mut transcript = Transcript::new();
        transcript.push_output(Stream::Stdout, "Café? ".as_bytes());
        transcript.push_output(Stream::Stderr, b"debug");
        // "é" is two bytes: the first arrives before the read, the second after it.
        let cut = "Caf\u{e9}".len() - 1;
        let mut early = Transcript::new();
        early.push_output(Stream::Stdout, &"Café? ".as_bytes()[..cut]);
        let mut source = ConsoleSource {
            console: &mut console,
            forwarded: 0,
            until_closed: true,
        };
        assert_eq!(source.next_line(&early).as_deref(), Some("1"));
        assert_eq!(source.forwarded, 3);
        source.forward(&transcript, true);
        assert_eq!(source.next_line(&transcript), None);
        assert_eq!(console.transcript().terminal_text(), "Caf1\né? ");
    }

    #[test]
    fn stopped_at_end_of_input_what_it_prints_after_is_not_the_games() {
        let mut transcript = Transcript::new();
        transcript.push_output(Stream::Stdout, b"Guess: ");
        transcript.push_input_closed();
        transcript.push_output(Stream::Stdout, b"\nYou quit!\n");
        for (until_closed, expected) in [(true, "Guess: "), (false, "Guess: \nYou quit!\n")] {
            let mut console = ScriptedConsole::new(Vec::<String>::new());
            let mut source = ConsoleSource {
                console: &mut console,
                forwarded: 0,
                until_closed,
            };
            source.forward(&transcript, true);
            assert_eq!(console.transcript().terminal_text(), expected);
        }
    }
}
