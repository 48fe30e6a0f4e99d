//! Loading test cases: YAML case files and their reference transcripts, built into the binary
//! or read from an instructor's directory with the same layout (`cases/NAME/`, `reference/NAME/`).

pub mod compile;
/// An instructor's own assignment (a directory with a reference program and YAML, no Rust):
/// one more implementation of an assignment, loaded by the command line into its registry.
pub mod own;
pub mod schema;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::assignments::{Assignment, Explore};
use crate::check::Check;
use crate::drive::{self, Driver};
use crate::games::{Recording, ReferenceFailure, Setup};
use crate::results::Visibility;
use crate::run::{EndOfInput, Limits};
use crate::variants::Variant;
pub use schema::CaseError;
use schema::{merge_limits, AssignmentFile, CaseFile, CheckSpec, EndOfInputSpec, FileSpec};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/embedded_cases.rs"));
}

/// The files of a case tree (`cases/` and `reference/`), keyed by path relative to its root.
#[derive(Debug, Clone)]
pub struct CaseTree {
    files: BTreeMap<String, Vec<u8>>,
    root: Option<PathBuf>,
    /// For an external assignment's directory (assignment.yaml, cases/, reference/ at its
    /// top), the assignment's name: its files are keyed as a tree's (`cases/NAME/…`,
    /// `reference/NAME/…`) and [`CaseTree::disk_path`] maps them back.
    external: Option<String>,
}

impl CaseTree {
    /// The cases and reference transcripts built into this binary.
    pub fn built_in() -> CaseTree {
        CaseTree {
            files: embedded::FILES
                .iter()
                .map(|(path, bytes)| (path.to_string(), bytes.to_vec()))
                .collect(),
            root: None,
            external: None,
        }
    }

    /// The tree under `root`, which holds `cases/` and `reference/`; `root` may also be the
    /// `cases/` directory itself, with `reference/` beside it.
    pub fn from_dir(root: &Path) -> Result<CaseTree, CaseError> {
        let root = if root.file_name().is_some_and(|n| n == "cases") && !root.join("cases").is_dir()
        {
            root.parent().unwrap_or(Path::new(".")).to_path_buf()
        } else {
            root.to_path_buf()
        };
        if own::is_own_dir(&root) {
            return CaseTree::from_external_dir(&root);
        }
        if !root.join("cases").is_dir() {
            return Err(CaseError {
                file: root.display().to_string(),
                message: "no cases/ directory here (expected cases/NAME/assignment.yaml)".into(),
            });
        }
        let mut files = BTreeMap::new();
        for top in ["cases", "reference"] {
            for (relative, bytes) in files_below(&root.join(top))? {
                files.insert(format!("{top}/{relative}"), bytes);
            }
        }
        Ok(CaseTree {
            files,
            root: Some(root),
            external: None,
        })
    }

    /// The tree of an instructor's own assignment's directory (docs/new-assignment.md): names the
    /// assignment and keys its files as a tree's, `cases/NAME/…` and `reference/NAME/…`.
    fn from_external_dir(root: &Path) -> Result<CaseTree, CaseError> {
        let assignment = own::name_in(root)?;
        let header = root.join(own::HEADER);
        if !root.join("cases").is_dir() {
            return Err(CaseError {
                file: header.display().to_string(),
                message: "no cases/ directory beside it (expected cases/CASE.yaml)".into(),
            });
        }
        let read = |path: &Path| {
            std::fs::read(path).map_err(|e| CaseError {
                file: path.display().to_string(),
                message: e.to_string(),
            })
        };
        let mut files = BTreeMap::new();
        files.insert(
            format!("cases/{assignment}/assignment.yaml"),
            read(&header)?,
        );
        for top in ["cases", "reference"] {
            for (relative, bytes) in files_below(&root.join(top))? {
                files.insert(format!("{top}/{assignment}/{relative}"), bytes);
            }
        }
        Ok(CaseTree {
            files,
            root: Some(root.to_path_buf()),
            external: Some(assignment),
        })
    }

    /// Where a file of the tree lives (or is to be written) on disk, for trees read from disk.
    pub fn disk_path(&self, relative: &str) -> Option<PathBuf> {
        let root = self.root.as_ref()?;
        if let Some(name) = &self.external {
            if relative == format!("cases/{name}/assignment.yaml") {
                return Some(root.join(own::HEADER));
            }
            for top in ["cases", "reference"] {
                if let Some(rest) = relative.strip_prefix(&format!("{top}/{name}/")) {
                    return Some(root.join(top).join(rest));
                }
            }
        }
        Some(root.join(relative))
    }

    /// The tree at `dir`, or the built-in one.
    pub fn open(dir: Option<&Path>) -> Result<CaseTree, CaseError> {
        dir.map_or_else(|| Ok(CaseTree::built_in()), CaseTree::from_dir)
    }

    /// The root directory, for trees read from disk.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// How to name a file of the tree in messages.
    pub fn display(&self, relative: &str) -> String {
        match self.disk_path(relative) {
            Some(path) => path.display().to_string(),
            None => format!("built-in:{relative}"),
        }
    }

    /// Every file path in the tree, relative to its root.
    pub fn paths(&self) -> impl Iterator<Item = &String> {
        self.files.keys()
    }

    /// The bytes of one file of the tree, by its path relative to the root.
    pub fn file(&self, relative: &str) -> Option<&[u8]> {
        self.get(relative)
    }

    fn get(&self, relative: &str) -> Option<&[u8]> {
        self.files.get(relative).map(Vec::as_slice)
    }

    fn text(&self, relative: &str) -> Result<String, CaseError> {
        let bytes = self.get(relative).ok_or_else(|| CaseError {
            file: self.display(relative),
            message: "file not found".into(),
        })?;
        String::from_utf8(bytes.to_vec()).map_err(|_| CaseError {
            file: self.display(relative),
            message: "not valid UTF-8".into(),
        })
    }

    /// The assignments of `registry` that have an `assignment.yaml` in this tree.
    pub fn assignments(&self, registry: &crate::assignments::Registry) -> Vec<Assignment> {
        registry
            .all()
            .iter()
            .copied()
            .filter(|a| self.get(&format!("cases/{a}/assignment.yaml")).is_some())
            .collect()
    }
}

/// Every file below `dir` (none when it does not exist), keyed by its path relative to `dir`
/// with `/` separators, in name order.
fn files_below(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, CaseError> {
    let mut files = Vec::new();
    if !dir.is_dir() {
        return Ok(files);
    }
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| CaseError {
            file: dir.display().to_string(),
            message: e.to_string(),
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(entry.path()).map_err(|e| CaseError {
            file: entry.path().display().to_string(),
            message: e.to_string(),
        })?;
        files.push((relative, bytes));
    }
    Ok(files)
}

/// One test case, fully resolved: everything needed to run it and check the result.
#[derive(Debug, Clone)]
pub struct Case {
    /// The assignment.
    pub assignment: Assignment,
    /// Unique within the assignment; the file name without `.yaml`.
    pub name: String,
    /// Which handout rule it tests.
    pub description: String,
    /// Points for the case.
    pub points: f64,
    /// Visible or hidden.
    pub visibility: Visibility,
    /// Input lines of a scripted case (empty for a driven one).
    pub input: Vec<String>,
    /// What is typed at each read: the script, or a strategy.
    pub driver: Driver,
    /// How many times the program is run (more than 1 for checks of randomness).
    pub samples: usize,
    /// Random generated games instead of fixed input (an opt-in case kind).
    pub explore: Option<schema::ExploreSpec>,
    /// Files for the working directory.
    pub files: Vec<(String, Vec<u8>)>,
    /// Arguments for the student's program.
    pub args: Vec<String>,
    /// Game arguments for the reference.
    pub reference_args: Vec<String>,
    /// Limits of the run.
    pub limits: Limits,
    /// What happens when input runs out.
    pub end_of_input: EndOfInput,
    /// Run the student's program under a pseudo-terminal (the case's `terminal`, else
    /// assignment.yaml's); `grade --terminal` turns it on for every case.
    pub terminal: bool,
    /// The checks.
    pub checks: Vec<Check>,
    /// A robustness case (input where handout-following programs may differ).
    pub robustness: bool,
    /// The stored reference transcript, if the tree has one.
    pub reference: Option<String>,
    /// The case file, for messages.
    pub source: String,
    /// Where its reference transcript lives, relative to the tree root.
    pub reference_path: String,
    /// The reference game, set up once from `reference_args` and `files`.
    pub setup: Setup,
    /// connect6: the board size the program is rebuilt with for this case.
    pub board_size: Option<usize>,
}

impl Case {
    /// Runs the reference on this case's input, or lets the driver play it; or says why the
    /// reference could not.
    pub fn record_reference(&self) -> Result<Recording, ReferenceFailure> {
        drive::record_driven(&self.setup, self.driver.source().as_mut())
    }

    /// [`Case::record_reference`], made once per process for a reference that is a program
    /// (grading a class runs it once per case, not once per student and case).
    pub fn recorded_reference(&self) -> Result<Recording, ReferenceFailure> {
        self.assignment
            .kind()
            .record(&self.source, &self.setup, &self.input, &self.driver)
    }
}

/// How a case runs its programs besides their arguments: its files, limits and end of input.
/// An instructor's own reference program is run with them as the student's program is.
struct CaseRun<'a> {
    files: &'a [(String, Vec<u8>)],
    limits: &'a Limits,
    end_of_input: EndOfInput,
}

/// The reference game set up for a case (the assignment's [`AssignmentKind::case_setup`]),
/// or an error naming the case file.
///
/// [`AssignmentKind::case_setup`]: crate::assignments::AssignmentKind::case_setup
fn reference_setup(
    assignment: Assignment,
    run: &CaseRun,
    reference_args: &[String],
    source: &str,
) -> Result<Setup, CaseError> {
    assignment
        .kind()
        .case_setup(reference_args, run.files, run.limits, run.end_of_input)
        .map_err(|message| CaseError {
            file: source.to_string(),
            message,
        })
}

/// All the cases of one assignment.
#[derive(Debug, Clone)]
pub struct CaseSet {
    /// The assignment.
    pub assignment: Assignment,
    /// Its title.
    pub title: String,
    /// The cases, ordered by name.
    pub cases: Vec<Case>,
    /// The Java class the handout names as the program's entry point.
    pub java_main: Option<String>,
    /// The file the handout names as the program's entry point (`assignment3.py`).
    pub main_file: Option<String>,
    /// The assignment's default checks (for generated games: `grade explore`).
    pub default_checks: Vec<Check>,
    /// The assignment's arguments for the student's program.
    pub args: Vec<String>,
    /// The assignment's files, placed in every run's working directory.
    pub files: Vec<(String, Vec<u8>)>,
    /// The assignment's default limits.
    pub limits: Limits,
    /// The assignment's default end of input.
    pub end_of_input: EndOfInput,
    /// assignment.yaml's `terminal`: every run under a pseudo-terminal unless a case says not.
    pub terminal: bool,
    /// Points of the code requirements as the case directory sets them.
    pub requirement_weights: crate::analyze::requirements::Weights,
    /// The rubric (name, part, points); empty when the case directory states none.
    pub rubric: Vec<(String, crate::results::RubricPart, f64)>,
    /// The variant these cases play: assignment.yaml's `parameters:`, or the one asked for.
    pub variant: Variant,
    /// The course's variant (`parameters:`), which the stored reference transcripts hold.
    pub course_variant: Variant,
    /// Per-student variants (`variants:`); empty when every student gets the course's.
    pub variants: Vec<Variant>,
    /// assignment.yaml's course seed.
    pub course_seed: Option<u64>,
    /// What reports say about the variant; `None` for the handout's game.
    pub variant_info: Option<crate::results::VariantInfo>,
    /// Scripted cases whose input, written for the handout's game, ends before this
    /// variant's game does (so their endings are not tested): cases to rewrite for it.
    pub short_scripts: Vec<String>,
}

impl CaseSet {
    /// Total points of all cases.
    pub fn max_score(&self) -> f64 {
        self.cases.iter().map(|c| c.points).sum()
    }

    /// The code requirements that are checked (not switched off), with their points.
    pub fn requirements(&self) -> Vec<(&'static str, f64)> {
        enabled_requirements(self.assignment, &self.requirement_weights)
    }

    /// The total a grading of `cases` is out of, in any language: the rubric's points when
    /// the case directory states a rubric, else the cases' points plus the requirements'.
    /// `grade list`, every report and the gradebook state this one number.
    pub fn total_of<'a>(&self, cases: impl IntoIterator<Item = &'a Case>) -> f64 {
        if !self.rubric.is_empty() {
            return self.rubric.iter().map(|(_, _, points)| points).sum();
        }
        let cases: f64 = cases.into_iter().map(|c| c.points).sum();
        cases + self.requirements().iter().map(|(_, p)| p).sum::<f64>()
    }

    /// The total of a grading without `--robustness` or `--case`: the assignment's total.
    pub fn total(&self) -> f64 {
        self.total_of(self.cases.iter().filter(|c| !c.robustness))
    }
}

/// The requirements of `assignment` that `weights` leave on, with their points.
fn enabled_requirements(
    assignment: Assignment,
    weights: &crate::analyze::requirements::Weights,
) -> Vec<(&'static str, f64)> {
    assignment
        .def()
        .requirements
        .iter()
        .filter_map(|r| match weights.get(r.name) {
            Some(setting) => setting.map(|points| (r.name, points)),
            None => Some((r.name, r.points)),
        })
        .collect()
}

fn parse_yaml<T: serde::de::DeserializeOwned>(
    tree: &CaseTree,
    relative: &str,
) -> Result<T, CaseError> {
    let text = tree.text(relative)?;
    yaml_serde::from_str(&text).map_err(|e| CaseError {
        file: tree.display(relative),
        message: e.to_string(),
    })
}

/// The run's end of input as a case file or assignment.yaml writes it.
fn end_of_input_of(spec: EndOfInputSpec) -> EndOfInput {
    match spec {
        EndOfInputSpec::Stop => EndOfInput::Stop,
        EndOfInputSpec::Close => EndOfInput::Close,
    }
}

fn resolve_files(
    tree: &CaseTree,
    dir: &str,
    files: &BTreeMap<String, FileSpec>,
    source: &str,
) -> Result<Vec<(String, Vec<u8>)>, CaseError> {
    let mut resolved = Vec::new();
    for (name, spec) in files {
        // A plain name, or a relative path into subdirectories ("boards/game.txt"): no
        // empty, hidden or parent components.
        let plain = |part: &str| !part.is_empty() && !part.starts_with('.');
        if !name.split('/').all(plain) {
            return Err(CaseError {
                file: source.to_string(),
                message: format!(
                    "files: '{name}' must be a file name or a relative path of file names \
                     (no '..', no leading '/' or '.')"
                ),
            });
        }
        let bytes = match spec {
            FileSpec::Inline(text) => text.as_bytes().to_vec(),
            FileSpec::From { from } => {
                let relative = format!("{dir}/{from}");
                tree.get(&relative)
                    .ok_or_else(|| CaseError {
                        file: source.to_string(),
                        message: format!(
                            "files: '{name}' comes from '{from}', which does not exist"
                        ),
                    })?
                    .to_vec()
            }
        };
        resolved.push((name.clone(), bytes));
    }
    Ok(resolved)
}

/// The checks a file lists under `key` (`checks`, `extra_checks`), compiled for
/// `assignment` (its registered check kinds too); `source` is the file, for errors.
fn compile_checks(
    specs: &[CheckSpec],
    assignment: Assignment,
    key: &str,
    source: &str,
) -> Result<Vec<Check>, CaseError> {
    let mut checks: Vec<Check> = Vec::new();
    for (index, spec) in specs.iter().enumerate() {
        let at = format!("{key}[{index}]");
        let check = compile::check(spec, assignment, &at).map_err(|message| CaseError {
            file: source.to_string(),
            message,
        })?;
        if checks.iter().any(|c| c.name == check.name) {
            return Err(CaseError {
                file: source.to_string(),
                message: format!(
                    "two checks are named '{}'; give one a different name",
                    check.name
                ),
            });
        }
        checks.push(check);
    }
    Ok(checks)
}

/// Loads every case of `assignment` from `tree`, playing the course's variant.
pub fn load(tree: &CaseTree, assignment: Assignment) -> Result<CaseSet, CaseError> {
    load_variant(tree, assignment, None)
}

/// The cases of `set` as `variant` plays them (from `tree`, where `set` was loaded): the
/// reference game set up with its values, each reference transcript recorded with them
/// unless it is the course's variant (whose transcripts `grade bless` stored).
pub fn with_variant(
    tree: &CaseTree,
    set: &CaseSet,
    variant: &Variant,
    chosen_by: &str,
) -> Result<CaseSet, CaseError> {
    let mut varied = load_variant(tree, set.assignment, Some(variant))?;
    if let Some(info) = &mut varied.variant_info {
        info.chosen_by = chosen_by.to_string();
    } else if chosen_by != "course" {
        varied.variant_info = Some(variant_info(&varied, chosen_by));
    }
    Ok(varied)
}

/// The cases `student` is graded on: `set` itself unless assignment.yaml lists `variants:`;
/// then the one [`crate::variants::pick`] gives the student with the course seed
/// (`course_seed`, else assignment.yaml's `seed:`).
pub fn for_student(
    tree: &CaseTree,
    set: &CaseSet,
    student: &str,
    course_seed: Option<u64>,
) -> Result<CaseSet, CaseError> {
    if set.variants.is_empty() {
        return Ok(set.clone());
    }
    let header = tree.display(&format!("cases/{}/assignment.yaml", set.assignment));
    let Some(seed) = course_seed.or(set.course_seed) else {
        return Err(CaseError {
            file: header,
            message: "variants: picking each student's variant needs a course seed (seed: \
                      here, --course-seed or GRADE_COURSE_SEED)"
                .into(),
        });
    };
    let index = crate::variants::pick(seed, student, set.variants.len());
    let mut varied = with_variant(tree, set, &set.variants[index], "student")?;
    if let Some(info) = &mut varied.variant_info {
        info.student = Some(student.to_string());
        info.number = Some(index + 1);
        info.of = Some(set.variants.len());
    }
    Ok(varied)
}

/// The requirements `set`'s variant leaves ungraded, each with the parameter (and its handout
/// value) it looks for.
fn handout_requirements_off(set: &CaseSet) -> Vec<(&'static str, String)> {
    set.assignment
        .def()
        .parameters
        .iter()
        .filter(|p| set.variant.0.contains_key(p.name))
        .flat_map(|p| {
            p.handout_requirements
                .iter()
                .map(move |r| (*r, format!("{} {}", p.name, p.handout)))
        })
        .collect()
}

/// What reports say about the variant `set` plays.
fn variant_info(set: &CaseSet, chosen_by: &str) -> crate::results::VariantInfo {
    let assignment = set.assignment;
    crate::results::VariantInfo {
        label: set.variant.label(assignment),
        parameters: set.variant.values(assignment),
        chosen_by: chosen_by.to_string(),
        student: None,
        number: None,
        of: None,
        notes: handout_requirements_off(set)
            .iter()
            .map(|(requirement, parameter)| {
                format!(
                    "the code requirement {requirement} is not graded: it looks for the \
                     handout's {parameter} in the source"
                )
            })
            .chain((!set.short_scripts.is_empty()).then(|| {
                format!(
                    "the input of {} case(s) ends before this variant's game does, so their \
                     endings are not tested (rewrite them for it): {}",
                    set.short_scripts.len(),
                    set.short_scripts.join(", ")
                )
            }))
            .collect(),
        references: if set.variant == set.course_variant {
            "stored"
        } else {
            "recorded"
        }
        .to_string(),
    }
}

/// Loads every case of `assignment` from `tree`, playing `variant` (default: the course's).
pub fn load_variant(
    tree: &CaseTree,
    assignment: Assignment,
    variant: Option<&Variant>,
) -> Result<CaseSet, CaseError> {
    let shared = load_header(tree, assignment, variant)?;
    let mut cases = Vec::new();
    // Scripted cases whose input runs out before this variant's game ends.
    let mut short_scripts: Vec<String> = Vec::new();
    // Whether each case lists checks of its own (`checks` or `extra_checks`).
    let mut own_checks = Vec::new();
    for relative in case_paths(tree, &shared.dir) {
        let (case, own, short) = load_case(tree, assignment, &shared, &relative)?;
        if short {
            short_scripts.push(case.name.clone());
        }
        own_checks.push(own);
        cases.push(case);
    }
    assemble(assignment, shared, cases, &own_checks, short_scripts)
}

/// What every case of an assignment shares, from its assignment.yaml: checked once, then
/// laid under each case file.
struct Shared {
    /// `cases/NAME`, the folder of the case files.
    dir: String,
    header: AssignmentFile,
    /// assignment.yaml as messages name it.
    header_source: String,
    base_limits: Limits,
    default_checks: Vec<Check>,
    course_variant: Variant,
    variants: Vec<Variant>,
    /// The variant played (the course's unless another is asked for).
    variant: Variant,
    shared_files: Vec<(String, Vec<u8>)>,
}

/// The assignment's assignment.yaml in `tree`, read and checked: its limits, checks,
/// variants and files, and the variant played.
fn load_header(
    tree: &CaseTree,
    assignment: Assignment,
    variant: Option<&Variant>,
) -> Result<Shared, CaseError> {
    let dir = format!("cases/{assignment}");
    let header_path = format!("{dir}/assignment.yaml");
    if tree.get(&header_path).is_none() {
        return Err(CaseError {
            file: tree.display(&header_path),
            message: format!("no cases for assignment '{assignment}'"),
        });
    }
    let header: AssignmentFile = parse_yaml(tree, &header_path)?;
    let header_source = tree.display(&header_path);
    if header.assignment != assignment.name() {
        return Err(CaseError {
            file: header_source,
            message: format!(
                "assignment: '{}' does not match the directory name '{assignment}'",
                header.assignment
            ),
        });
    }
    let base_limits =
        merge_limits(Limits::default(), &header.limits).map_err(|message| CaseError {
            file: header_source.clone(),
            message,
        })?;
    let default_checks = compile_checks(&header.checks, assignment, "checks", &header_source)?;
    let header_error = |message: String| CaseError {
        file: header_source.clone(),
        message,
    };
    let course_variant = crate::variants::parameters_from_yaml(assignment, &header.parameters)
        .map_err(header_error)?
        .normalized(assignment);
    let variants = match &header.variants {
        None => Vec::new(),
        Some(block) => crate::variants::variants_from_yaml(assignment, &course_variant, block)
            .map_err(header_error)?,
    };
    let variant = variant.map_or_else(|| course_variant.clone(), |v| v.normalized(assignment));
    let shared_files = resolve_files(tree, &dir, &header.files, &header_source)?;
    Ok(Shared {
        dir,
        header,
        header_source,
        base_limits,
        default_checks,
        course_variant,
        variants,
        variant,
        shared_files,
    })
}

/// The case files in `dir` of `tree` (every `.yaml` beside assignment.yaml), by name.
fn case_paths(tree: &CaseTree, dir: &str) -> Vec<String> {
    let prefix = format!("{dir}/");
    tree.files
        .keys()
        .filter(|k| {
            k.strip_prefix(&prefix).is_some_and(|rest| {
                !rest.contains('/') && rest.ends_with(".yaml") && rest != "assignment.yaml"
            })
        })
        .cloned()
        .collect()
}

/// One case file, loaded for the variant played: the case, whether it lists checks of its
/// own, and whether its script ends before this variant's game does.
fn load_case(
    tree: &CaseTree,
    assignment: Assignment,
    shared: &Shared,
    relative: &str,
) -> Result<(Case, bool, bool), CaseError> {
    let (case, own_checks, handout_args) = case_of(tree, assignment, shared, relative)?;
    let variant = &shared.variant;
    let short = !variant.0.is_empty()
        && case.driver.is_scripted()
        && case.explore.is_none()
        && script_ends_early(assignment, &case, &handout_args)?;
    // Another variant than the stored transcripts' has its references recorded here.
    let case = if *variant != shared.course_variant {
        // The reference game is deterministic and built in: what it plays with these
        // values is the reference, as `grade bless` would have stored it.
        let recorded = case
            .record_reference()
            .map_err(|e| CaseError {
                file: case.source.clone(),
                message: e.to_string(),
            })?
            .transcript
            .terminal_text();
        Case {
            reference: Some(recorded),
            ..case
        }
    } else {
        case
    };
    Ok((case, own_checks, short))
}

/// A case file read and checked into its case (with the stored reference, if any), whether
/// it lists checks of its own, and the handout's reference arguments.
fn case_of(
    tree: &CaseTree,
    assignment: Assignment,
    shared: &Shared,
    relative: &str,
) -> Result<(Case, bool, Vec<String>), CaseError> {
    let (dir, header) = (&shared.dir, &shared.header);
    let source = tree.display(relative);
    let file: CaseFile = parse_yaml(tree, relative)?;
    let error = |message: String| CaseError {
        file: source.clone(),
        message,
    };
    let stem = checked_stem(&file, relative, dir).map_err(&error)?;
    let input = case_input(tree, dir, &file).map_err(&error)?;
    let driver = compile::driver(assignment, file.drive.as_ref(), &input).map_err(&error)?;
    check_explore(assignment, &file).map_err(&error)?;
    let samples = checked_samples(&file, &input).map_err(&error)?;
    let mut files = shared.shared_files.clone();
    for (name, bytes) in resolve_files(tree, dir, &file.files, &source)? {
        files.retain(|(n, _)| *n != name);
        files.push((name, bytes));
    }
    let own_checks = file.checks.is_some() || !file.extra_checks.is_empty();
    let checks = case_checks(&file, assignment, &shared.default_checks, &source)?;
    let args = file.args.clone().unwrap_or_else(|| header.args.clone());
    let handout_args = file
        .reference_args
        .clone()
        .or_else(|| header.reference_args.clone())
        .unwrap_or_else(|| args.clone());
    let reference_args = shared.variant.reference_args(assignment, &handout_args);
    let end_of_input = end_of_input_of(file.end_of_input.unwrap_or(header.end_of_input));
    let limits = merge_limits(shared.base_limits.clone(), &file.limits).map_err(&error)?;
    let run = CaseRun {
        files: &files,
        limits: &limits,
        end_of_input,
    };
    let reference_path = format!("reference/{assignment}/{stem}.txt");
    let reference = tree
        .get(&reference_path)
        .map(|b| String::from_utf8_lossy(b).into_owned());
    // Fails early on a case the reference cannot even start (bad board file, bad args).
    let setup = reference_setup(assignment, &run, &reference_args, &source)?;
    if let Some(size) = file.board_size {
        check_board_size(assignment, size, &reference_args).map_err(&error)?;
    }
    let case = Case {
        board_size: file.board_size,
        setup,
        assignment,
        name: file.name,
        description: file.description.trim().to_string(),
        points: file.points,
        visibility: file.visibility,
        input,
        driver,
        samples,
        explore: file.explore.map(|spec| schema::ExploreSpec {
            course_seed: header.seed,
            ..spec
        }),
        files,
        args,
        reference_args,
        limits,
        end_of_input,
        terminal: file.terminal.unwrap_or(header.terminal),
        checks,
        robustness: file.robustness,
        reference,
        source,
        reference_path,
    };
    Ok((case, own_checks, handout_args))
}

/// The case file's name checked against its file name (the stem, which it returns), and its
/// points checked.
fn checked_stem(file: &CaseFile, relative: &str, dir: &str) -> Result<String, String> {
    let stem = relative
        .trim_start_matches(&format!("{dir}/"))
        .trim_end_matches(".yaml")
        .to_string();
    if file.name != stem {
        return Err(format!(
            "name: '{}' does not match the file name '{stem}.yaml'",
            file.name
        ));
    }
    if !(file.points.is_finite() && file.points > 0.0) {
        return Err("points: must be a positive number".into());
    }
    Ok(stem)
}

/// How many times the case runs (`samples`, from 1 to 500), once its input is checked to
/// have no line with a newline in it.
fn checked_samples(file: &CaseFile, input: &[String]) -> Result<usize, String> {
    let samples = file.samples.unwrap_or(1);
    if !(1..=500).contains(&samples) {
        return Err(format!(
            "samples: {samples} is not a number of runs from 1 to 500"
        ));
    }
    if let Some(line) = input.iter().find(|l| l.contains('\n')) {
        return Err(format!("input: line {line:?} contains a newline"));
    }
    Ok(samples)
}

/// The lines a case types: its `input`, or its `input_file`'s lines; none for a case that
/// is driven or plays random games.
fn case_input(tree: &CaseTree, dir: &str, file: &CaseFile) -> Result<Vec<String>, String> {
    match (&file.input, &file.input_file) {
        (Some(lines), None) => Ok(lines.clone()),
        (None, Some(name)) => {
            let text = tree
                .text(&format!("{dir}/{name}"))
                .map_err(|e| format!("input_file: cannot read '{name}': {}", e.message))?;
            Ok(text
                .lines()
                .map(|l| l.trim_end_matches('\r').to_string())
                .collect())
        }
        (Some(_), Some(_)) => Err("give either input or input_file, not both".into()),
        (None, None) if file.drive.is_some() || file.explore.is_some() => Ok(Vec::new()),
        (None, None) => Err("missing input (or input_file, or drive)".into()),
    }
}

/// A random-games case (`explore:`) checked: the assignment can draw games, and no key it
/// cannot apply is given (refused, never silently ignored).
fn check_explore(assignment: Assignment, file: &CaseFile) -> Result<(), String> {
    let Some(explore) = &file.explore else {
        return Ok(());
    };
    if let Explore::Unavailable(why) = assignment.def().explore {
        return Err(format!("explore: {why}"));
    }
    for (key, given) in [
        ("input", file.input.is_some()),
        ("input_file", file.input_file.is_some()),
        ("drive", file.drive.is_some()),
    ] {
        if given {
            return Err(format!(
                "{key}: a random-games case (explore:) types the games it draws, so \
                 {key} cannot apply; remove it, or give that input a case of its own"
            ));
        }
    }
    if file.samples.is_some_and(|samples| samples != 1) {
        return Err(
            "samples: a random-games case (explore:) runs the program once per game, \
                    so samples cannot apply; remove it"
                .into(),
        );
    }
    if !(1..=10_000).contains(&explore.games) {
        return Err(format!(
            "explore.games: {} is not a number of games from 1 to 10000",
            explore.games
        ));
    }
    Ok(())
}

/// A case's checks: its own (`checks`) or the assignment's, the assignment's sanitizer
/// check kept, then its `extra_checks`; at least one.
fn case_checks(
    file: &CaseFile,
    assignment: Assignment,
    default_checks: &[Check],
    source: &str,
) -> Result<Vec<Check>, CaseError> {
    let error = |message: String| CaseError {
        file: source.to_string(),
        message,
    };
    let mut checks = match &file.checks {
        Some(specs) => compile_checks(specs, assignment, "checks", source)?,
        None => default_checks.to_vec(),
    };
    // The sanitizer check is about the program, not what a case compares: a case with
    // checks of its own keeps the assignment's (unless it names one itself).
    if !checks
        .iter()
        .any(|c| matches!(c.kind, crate::check::CheckKind::Sanitizer))
    {
        checks.extend(
            default_checks
                .iter()
                .filter(|c| matches!(c.kind, crate::check::CheckKind::Sanitizer))
                .filter(|c| !checks.iter().any(|own| own.name == c.name))
                .cloned()
                .collect::<Vec<_>>(),
        );
    }
    for extra in compile_checks(&file.extra_checks, assignment, "extra_checks", source)? {
        if checks.iter().any(|c| c.name == extra.name) {
            return Err(error(format!(
                "extra check '{}' repeats a check's name",
                extra.name
            )));
        }
        checks.push(extra);
    }
    if checks.is_empty() {
        return Err(error("the case has no checks".into()));
    }
    Ok(checks)
}

/// A case's `board_size` checked: the assignment has a board to resize, the size is in
/// range, and the reference's arguments play that same board.
fn check_board_size(
    assignment: Assignment,
    size: usize,
    reference_args: &[String],
) -> Result<(), String> {
    let Some(resize) = assignment.def().resize else {
        return Err(format!(
            "board_size: {assignment} has no board size to change"
        ));
    };
    if !(1..=resize.max_size).contains(&size) {
        return Err(format!(
            "board_size: {size} is not a size from 1 to {}",
            resize.max_size
        ));
    }
    let reference_size = (resize.size_of_args)(reference_args);
    if reference_size != Some(size) {
        return Err(format!(
            "board_size: {size} needs reference_args [--size, \"{size}\"] so the reference plays the same board"
        ));
    }
    Ok(())
}

/// Whether a script written for the handout's game (with `handout_args`) ends it but stops
/// before this variant's game does: it tests less here, its ending is never reached (said
/// in every report).
fn script_ends_early(
    assignment: Assignment,
    case: &Case,
    handout_args: &[String],
) -> Result<bool, CaseError> {
    let run = CaseRun {
        files: &case.files,
        limits: &case.limits,
        end_of_input: case.end_of_input,
    };
    let handout = reference_setup(assignment, &run, handout_args, &case.source)?;
    let failed = |e: ReferenceFailure| CaseError {
        file: case.source.clone(),
        message: e.to_string(),
    };
    let handout_ends = !crate::games::record(&handout, &case.input)
        .map_err(failed)?
        .wanted_more_input;
    Ok(handout_ends && case.record_reference().map_err(failed)?.wanted_more_input)
}

/// The case set from its loaded cases: random-games cases given every check, the
/// requirements and rubric read, the variant described, and the total checked.
fn assemble(
    assignment: Assignment,
    shared: Shared,
    mut cases: Vec<Case>,
    own_checks: &[bool],
    short_scripts: Vec<String>,
) -> Result<CaseSet, CaseError> {
    let Shared {
        header,
        header_source,
        ..
    } = &shared;
    if cases.is_empty() {
        return Err(CaseError {
            file: header_source.clone(),
            message: "no case files next to it".into(),
        });
    }
    // A random-games case with the default checks plays with every check any case declares.
    let every_check = checks_of(&shared.default_checks, &cases);
    for (case, own) in cases.iter_mut().zip(own_checks) {
        if case.explore.is_some() && !own {
            case.checks = every_check.clone();
        }
    }
    let requirement_weights = requirement_weights(assignment, header, header_source)?;
    let rubric = rubric(assignment, header, &requirement_weights, header_source)?;
    let Shared {
        header,
        header_source,
        base_limits,
        default_checks,
        course_variant,
        variants,
        variant,
        shared_files,
        ..
    } = shared;
    let mut set = CaseSet {
        variant,
        course_variant,
        variants,
        course_seed: header.seed,
        variant_info: None,
        short_scripts: Vec::new(),
        requirement_weights,
        rubric,
        assignment,
        title: header
            .title
            .unwrap_or_else(|| assignment.title().to_string()),
        cases,
        java_main: header.java_main,
        main_file: header.main_file,
        default_checks,
        args: header.args,
        files: shared_files,
        limits: base_limits,
        end_of_input: end_of_input_of(header.end_of_input),
        terminal: header.terminal,
    };
    for (requirement, _) in handout_requirements_off(&set) {
        set.requirement_weights
            .insert(requirement.to_string(), None);
    }
    set.short_scripts = short_scripts;
    if !set.variant.0.is_empty() {
        set.variant_info = Some(variant_info(&set, "course"));
    }
    match header.total_points {
        Some(total) if (set.max_score() - total).abs() > 1e-6 => Err(CaseError {
            file: header_source,
            message: format!(
                "total_points is {total} but the cases add up to {}",
                set.max_score()
            ),
        }),
        _ => Ok(set),
    }
}

/// The points of the code requirements set in assignment.yaml, checked against the
/// assignment's requirements.
fn requirement_weights(
    assignment: Assignment,
    header: &AssignmentFile,
    source: &str,
) -> Result<crate::analyze::requirements::Weights, CaseError> {
    use schema::RequirementSetting;
    let known = crate::analyze::requirements::names(assignment.def().requirements);
    let mut weights = crate::analyze::requirements::Weights::new();
    for (name, setting) in &header.requirements {
        let error = |message: String| CaseError {
            file: source.to_string(),
            message,
        };
        if !known.contains(&name.as_str()) {
            return Err(error(if known.is_empty() {
                format!("requirements: {assignment} has no code requirements (got '{name}')")
            } else {
                format!(
                    "requirements: no requirement '{name}' for {assignment}; known: {}",
                    known.join(", ")
                )
            }));
        }
        match setting {
            RequirementSetting::Points(p) if p.is_finite() && *p >= 0.0 => {
                weights.insert(name.clone(), Some(*p));
            }
            RequirementSetting::Points(p) => {
                return Err(error(format!(
                    "requirements.{name}: {p} is not a number of points (0 or more)"
                )))
            }
            RequirementSetting::Enabled(false) => {
                weights.insert(name.clone(), None);
            }
            RequirementSetting::Enabled(true) => {}
        }
    }
    Ok(weights)
}

/// The rubric of assignment.yaml, checked: each part once, `cases` present, and a
/// `requirements` line whenever requirements carry points (else they would count for nothing).
fn rubric(
    assignment: Assignment,
    header: &AssignmentFile,
    weights: &crate::analyze::requirements::Weights,
    source: &str,
) -> Result<Vec<(String, crate::results::RubricPart, f64)>, CaseError> {
    use crate::results::RubricPart;
    let Some(lines) = &header.rubric else {
        return Ok(Vec::new());
    };
    let error = |message: String| CaseError {
        file: source.to_string(),
        message,
    };
    let mut rubric = Vec::new();
    for line in lines {
        if !(line.points.is_finite() && line.points >= 0.0) {
            return Err(error(format!(
                "rubric: '{}' has {} points; give 0 or more",
                line.name, line.points
            )));
        }
        if rubric.iter().any(|(_, part, _)| *part == line.part) {
            return Err(error(format!(
                "rubric: part '{}' appears twice",
                line.part.name()
            )));
        }
        rubric.push((line.name.clone(), line.part, line.points));
    }
    if !rubric.iter().any(|(_, part, _)| *part == RubricPart::Cases) {
        return Err(error(
            "rubric: no line counts the cases (part: cases)".into(),
        ));
    }
    let requirement_points: f64 = enabled_requirements(assignment, weights)
        .iter()
        .map(|(_, points)| points)
        .sum();
    if requirement_points > 0.0
        && !rubric
            .iter()
            .any(|(_, part, _)| *part == RubricPart::Requirements)
    {
        return Err(error(
            "rubric: the code requirements carry points but no line counts them; add a line \
             with part: requirements, or switch them off under requirements:"
                .into(),
        ));
    }
    Ok(rubric)
}

/// Every check any case of the set declares, for generated games: the default checks, then
/// each case's own and extra checks not already there (by name, the first case's by name
/// order), so a rule a case adds is enforced in random games too. Left out: robustness cases
/// (input where handout-following programs may differ), checks whose kind stays out of random
/// games (of many runs, of Silver Dollar's strips), and informational checks (no weight).
pub fn checks_of(default_checks: &[Check], cases: &[Case]) -> Vec<Check> {
    let mut checks: Vec<Check> = default_checks.to_vec();
    for case in cases
        .iter()
        .filter(|c| !c.robustness && c.explore.is_none() && c.samples == 1)
    {
        for check in &case.checks {
            let applies = check.weight > 0.0 && check.kind.in_random_games();
            if applies && !checks.iter().any(|c| c.name == check.name) {
                checks.push(check.clone());
            }
        }
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn tree(files: &[(&str, &str)]) -> CaseTree {
        CaseTree {
            files: files
                .iter()
                .map(|(p, c)| (p.to_string(), c.as_bytes().to_vec()))
                .collect(),
            root: None,
            external: None,
        }
    }

    const HEADER: &str = "assignment: nim\nchecks:\n  - kind: exit\n";

    #[test]
    fn loads_a_minimal_case() {
        let t = tree(&[
            ("cases/nim/assignment.yaml", HEADER),
            (
                "cases/nim/first.yaml",
                "name: first\ndescription: d\npoints: 2\ninput: [y, \"3\"]\nlimits: {wall_seconds: 2}\n",
            ),
        ]);
        let set = load(&t, crate::assignments::nim::ASSIGNMENT).expect("loads");
        assert_eq!(set.cases.len(), 1);
        assert_eq!(set.cases[0].input, vec!["y", "3"]);
        assert_eq!(set.cases[0].limits.wall, Duration::from_secs(2));
        assert_eq!(set.max_score(), 2.0);
        assert!(!set.cases[0].terminal && !set.terminal);
    }

    #[test]
    fn terminal_and_end_of_input_come_from_the_case_else_assignment_yaml() {
        let header =
            "assignment: nim\nterminal: true\nend_of_input: close\nchecks:\n  - kind: exit\n";
        let t = tree(&[
            ("cases/nim/assignment.yaml", header),
            (
                "cases/nim/a-inherits.yaml",
                "name: a-inherits\ndescription: d\npoints: 1\ninput: [y]\n",
            ),
            (
                "cases/nim/b-own.yaml",
                "name: b-own\ndescription: d\npoints: 1\ninput: [y]\nterminal: false\nend_of_input: stop\n",
            ),
            (
                "cases/nim/c-random.yaml",
                "name: c-random\ndescription: d\npoints: 1\nexplore: {games: 2}\nfiles: {board.txt: x}\nlimits: {wall_seconds: 3}\n",
            ),
        ]);
        let set = load(&t, crate::assignments::nim::ASSIGNMENT).expect("loads");
        assert!(set.terminal);
        assert_eq!(set.end_of_input, EndOfInput::Close);
        let [inherits, own, random] = &set.cases[..] else {
            panic!("three cases: {:?}", set.cases.len());
        };
        assert!(inherits.terminal && inherits.end_of_input == EndOfInput::Close);
        assert!(!own.terminal && own.end_of_input == EndOfInput::Stop);
        // A random-games case keeps its own keys, as a fixed case does.
        assert!(random.terminal && random.end_of_input == EndOfInput::Close);
        assert_eq!(random.files, vec![("board.txt".to_string(), b"x".to_vec())]);
        assert_eq!(random.limits.wall, Duration::from_secs(3));
    }

    #[test]
    fn unknown_keys_name_file_line_and_key() {
        let t = tree(&[
            ("cases/nim/assignment.yaml", HEADER),
            (
                "cases/nim/first.yaml",
                "name: first\ndescription: d\npoints: 2\ninptu: [y]\n",
            ),
        ]);
        let e = load(&t, crate::assignments::nim::ASSIGNMENT).expect_err("fails");
        assert_eq!(e.file, "built-in:cases/nim/first.yaml");
        assert!(e.message.contains("inptu"), "{}", e.message);
        assert!(e.message.contains("line 4"), "{}", e.message);
    }

    #[test]
    fn bad_values_are_errors() {
        for (body, expected) in [
            ("name: other\ndescription: d\npoints: 1\ninput: []\n", "does not match the file name"),
            ("name: first\ndescription: d\npoints: 0\ninput: []\n", "points"),
            ("name: first\ndescription: d\npoints: 1\n", "missing input"),
            ("name: first\ndescription: d\npoints: 1\ninput: []\nvisibility: secret\n", "visibility"),
            (
                "name: first\ndescription: d\npoints: 1\ninput: []\nchecks: [{kind: lines, name: x, pattern: \"(\"}]\n",
                "bad pattern",
            ),
            (
                "name: first\ndescription: d\npoints: 1\ninput: []\nchecks: [{kind: lines, name: x, pattern: x, at_inputs: true, any_wording: true}]\n",
                "any_wording needs at_inputs: true and compare: presence",
            ),
            // What a random-games case cannot apply is refused, naming the key.
            (
                "name: first\ndescription: d\npoints: 1\nexplore: {games: 2}\ninput: [y]\n",
                "input: a random-games case (explore:) types the games it draws",
            ),
            (
                "name: first\ndescription: d\npoints: 1\nexplore: {games: 2}\ninput_file: moves.txt\n",
                "input_file: a random-games case (explore:)",
            ),
            (
                "name: first\ndescription: d\npoints: 1\nexplore: {games: 2}\nsamples: 4\n",
                "samples: a random-games case (explore:) runs the program once per game",
            ),
        ] {
            let t = tree(&[
                ("cases/nim/assignment.yaml", HEADER),
                ("cases/nim/first.yaml", body),
                ("cases/nim/moves.txt", "y\n"),
            ]);
            let e = load(&t, crate::assignments::nim::ASSIGNMENT).expect_err(body);
            assert!(e.message.contains(expected), "{body}: {}", e.message);
        }
    }

    #[test]
    fn reference_arguments_a_game_refuses_are_one_line_naming_the_file() {
        // The shape the fuzzer found: nim's arguments given to connect6, whose error carries
        // its usage on a second line.
        for assignment in [
            crate::assignments::connect6::ASSIGNMENT,
            crate::assignments::nim::ASSIGNMENT,
        ] {
            let name = assignment.name();
            let header = format!("assignment: {name}\nchecks:\n  - kind: exit\n");
            let t = tree(&[
                (&format!("cases/{name}/assignment.yaml"), header.as_str()),
                (
                    &format!("cases/{name}/bad.yaml"),
                    "name: bad\ndescription: d\npoints: 5\ninput: [y]\nargs: [y, \"3\", \"2\"]\n",
                ),
            ]);
            let e = load(&t, assignment).expect_err(name);
            assert_eq!(e.file, format!("built-in:cases/{name}/bad.yaml"));
            assert!(
                e.message.contains("unexpected game arguments; usage: "),
                "{e}"
            );
            assert!(!e.to_string().contains('\n'), "{e}");
        }
    }

    #[test]
    fn board_size_is_connect6s_and_needs_the_same_reference_size() {
        let case = |body: &str, assignment: &str| {
            let t = tree(&[
                (
                    &format!("cases/{assignment}/assignment.yaml") as &str,
                    &format!("assignment: {assignment}\nchecks:\n  - kind: exit\n") as &str,
                ),
                (
                    &format!("cases/{assignment}/first.yaml") as &str,
                    &format!("name: first\ndescription: d\npoints: 1\ninput: [A0]\n{body}") as &str,
                ),
            ]);
            load(
                &t,
                crate::assignments::Registry::built_in()
                    .find(assignment)
                    .expect("a built-in assignment"),
            )
        };
        let good = case(
            "board_size: 10\nreference_args: [--size, \"10\"]\n",
            "connect6",
        )
        .expect("loads");
        assert_eq!(good.cases[0].board_size, Some(10));
        let other = case("board_size: 10\n", "nim").expect_err("nim");
        assert!(other.message.contains("no board size"), "{}", other.message);
        let mismatch = case("board_size: 10\n", "connect6").expect_err("no reference size");
        assert!(
            mismatch
                .message
                .contains("needs reference_args [--size, \"10\"]"),
            "{}",
            mismatch.message
        );
    }

    #[test]
    fn rubric_and_requirements_are_checked() {
        let load_header = |extra: &str| {
            let header = format!("assignment: nim\nchecks:\n  - kind: exit\n{extra}");
            let t = tree(&[
                ("cases/nim/assignment.yaml", &header as &str),
                (
                    "cases/nim/first.yaml",
                    "name: first\ndescription: d\npoints: 2\ninput: [y]\n",
                ),
            ]);
            load(&t, crate::assignments::nim::ASSIGNMENT)
        };
        let set = load_header("rubric:\n  - {name: Output, part: cases, points: 90}\n  - {name: Code, part: requirements, points: 10}\n").expect("loads");
        assert_eq!(set.rubric.len(), 2);
        for (extra, expected) in [
            ("rubric:\n  - {name: Output, part: cases, points: 90}\n", "no line counts them"),
            ("rubric:\n  - {name: Built, part: compiled, points: 9}\nrequirements: {do-while-input: false, for-loop-matches: false}\n", "no line counts the cases"),
            ("rubric:\n  - {name: A, part: cases, points: 1}\n  - {name: B, part: cases, points: 1}\n  - {name: C, part: requirements, points: 1}\n", "appears twice"),
            ("requirements: {comments: 2}\n", "no requirement 'comments' for nim"),
            ("requirements: {do-while-input: -1}\n", "is not a number of points"),
        ] {
            let e = load_header(extra).expect_err(extra);
            assert!(e.message.contains(expected), "{extra}: {}", e.message);
        }
        let off = load_header("requirements: {do-while-input: false, for-loop-matches: 4}\n")
            .expect("loads");
        assert_eq!(off.requirement_weights.get("do-while-input"), Some(&None));
        assert_eq!(
            off.requirement_weights.get("for-loop-matches"),
            Some(&Some(4.0))
        );
    }

    #[test]
    fn parameters_set_the_reference_and_variants_need_a_seed() {
        let header = |extra: &str| format!("{HEADER}{extra}");
        let with = |extra: &str| {
            tree(&[
                ("cases/nim/assignment.yaml", &header(extra) as &str),
                (
                    "cases/nim/first.yaml",
                    "name: first\ndescription: d\npoints: 2\ninput: [n]\n",
                ),
            ])
        };
        let nim = crate::assignments::nim::ASSIGNMENT;
        let course = with("parameters: {matches: 25}\n");
        let set = load(&course, nim).expect("loads");
        assert_eq!(set.cases[0].reference_args, ["--matches", "25"]);
        // The computer moves first on 25: 25 % 4 = 1, it removes 1 (the handout's table).
        let text = set.cases[0]
            .record_reference()
            .expect("the reference plays")
            .transcript
            .terminal_text();
        assert!(text.contains("Computer removes 1.\n"), "{text}");
        assert!(
            text.contains("Matches: ||||| ||||| ||||| ||||| ||||| \n"),
            "{text}"
        );
        let info = set.variant_info.as_ref().expect("a course variant");
        assert_eq!(
            (info.label.as_str(), info.references.as_str()),
            ("matches=25", "stored")
        );

        let per_student = with("variants: {matches: [21, 25]}\n");
        let set = load(&per_student, nim).expect("loads");
        assert_eq!(set.variants.len(), 2);
        assert!(
            set.variant_info.is_none(),
            "the handout's game until a student is named"
        );
        let error = for_student(&per_student, &set, "alice", None).expect_err("no seed");
        assert!(
            error.message.contains("needs a course seed"),
            "{}",
            error.message
        );
        let alice = for_student(&per_student, &set, "alice", Some(7)).expect("alice");
        assert_eq!(alice.cases[0].reference_args, ["--matches", "25"]);
        let info = alice.variant_info.expect("alice's variant");
        assert_eq!((info.number, info.of), (Some(2), Some(2)));
        // The course seed is the instructor's secret: the report names the variant only.
        assert!(!info.describe().contains('7'), "{}", info.describe());
        assert_eq!(info.references, "recorded");
        let bob = for_student(&per_student, &set, "bob", Some(7)).expect("bob");
        assert!(bob.cases[0].reference_args.is_empty());
        assert_eq!(bob.variant_info.expect("bob's").label, "handout");

        let bad = load(&with("parameters: {size: 15}\n"), nim).expect_err("no size");
        assert!(
            bad.message.contains("nim has no parameter 'size'"),
            "{}",
            bad.message
        );
    }

    #[test]
    fn built_in_cases_load() {
        let tree = CaseTree::built_in();
        for assignment in tree.assignments(&crate::assignments::Registry::built_in()) {
            load(&tree, assignment).unwrap_or_else(|e| panic!("{e}"));
        }
    }

    /// nim's descriptor with Silver Dollar's check kinds registered, and nothing else changed.
    const NIM_WITH_STRIPS: crate::assignments::AssignmentDef = crate::assignments::AssignmentDef {
        check_kinds: crate::assignments::silver_dollar::checks::CHECK_KINDS,
        ..crate::assignments::nim::DEF
    };

    /// A nim case whose extra check is one of Silver Dollar's kinds.
    fn nim_case_with(check: &str) -> CaseTree {
        tree(&[
            ("cases/nim/assignment.yaml", HEADER),
            (
                "cases/nim/first.yaml",
                &format!(
                    "name: first\ndescription: d\npoints: 1\ninput: [y]\nextra_checks:\n  - {check}\n"
                ),
            ),
        ])
    }

    #[test]
    fn a_check_kind_of_another_assignment_is_refused_naming_it() {
        let t = nim_case_with("{kind: strip_start, name: start}");
        let e = load(&t, crate::assignments::nim::ASSIGNMENT).expect_err("nim has no strips");
        assert_eq!(e.file, "built-in:cases/nim/first.yaml");
        assert_eq!(
            e.message,
            "extra_checks[0]: check 'start' has kind 'strip_start', which nim does not have \
             (its kinds: transcript, lines, board, contains, volume, interactive, sanitizer, exit)"
        );
        // A kind that is no kind at all, and one written as a number, are refused alike.
        for (check, kind) in [("{kind: strip}", "strip"), ("{kind: 7}", "7")] {
            let e =
                load(&nim_case_with(check), crate::assignments::nim::ASSIGNMENT).expect_err(check);
            assert!(
                e.message.starts_with(&format!(
                    "extra_checks[0]: check has kind '{kind}', which nim"
                )),
                "{}",
                e.message
            );
        }
    }

    #[test]
    fn registering_a_check_kind_is_what_makes_it_available() {
        static WITH_STRIPS: crate::assignments::AssignmentDef = NIM_WITH_STRIPS;
        let with_strips = Assignment::new(&WITH_STRIPS);
        let t = nim_case_with("{kind: random_starts, rule: every_gap, weight: 2}");
        load(&t, crate::assignments::nim::ASSIGNMENT).expect_err("not registered for nim");
        let set = load(&t, with_strips).expect("registered");
        let check = set.cases[0]
            .checks
            .iter()
            .find(|c| c.kind.name() == "random_starts")
            .expect("the registered kind's check");
        // The kind's own default name (the rule's, with '-'), its weight, and no handout rule.
        assert_eq!(
            (check.name.as_str(), check.weight, check.rule.as_deref()),
            ("every-gap", 2.0, None)
        );
        assert!(!check.kind.in_random_games() && !check.kind.is_game());
        // The registered kinds are listed when one is misspelt, after the generic ones.
        let e = load(&nim_case_with("{kind: stripz}"), with_strips).expect_err("misspelt");
        assert!(
            e.message
                .ends_with("sanitizer, exit, strip_start, strips, random_starts)"),
            "{}",
            e.message
        );
        // Its keys are its own: a typo names the check and the key.
        let e = load(&nim_case_with("{kind: strips, wieght: 1}"), with_strips).expect_err("typo");
        assert!(
            e.message
                .starts_with("extra_checks[0] (strips): unknown field `wieght`"),
            "{}",
            e.message
        );
    }
}
