//! `grade explore`: random games against the reference, and the shortest input that shows a
//! difference.
//!
//! Each game is generated against the reference alone (`drive::generate`), replayed on the
//! student's program, and compared with the assignment's own default checks — the same
//! style-tolerant comparisons grading uses, never the exact text. On the first game that
//! differs, its input is shrunk (fewer lines, smaller numbers, a smaller board) to a minimal
//! one that still fails the same check.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::bail;
use serde::Serialize;

mod budget;
pub mod coverage;
mod judging;
mod replay;
pub mod scoring;
mod shrinking;

use budget::{coverage_of, next_game, with_setup};
pub use budget::{generated_games, planned_coverage};
use judging::{Played, StoppedRuns};
pub use replay::{replay_commands, save_case};

use crate::assignments::{Assignment, Explore};
use crate::cases::{self, CaseTree};
use crate::check::Check;

use crate::drive::generate::Game;
use crate::games::Setup;
use crate::results::CheckResult;
use crate::run::{self, EndOfInput, Limits};
use crate::submission::{self, PrepareOptions, Submission};

/// What to explore and for how long.
#[derive(Clone, Debug)]
pub struct ExploreOptions {
    /// The first game's seed; game `i` uses a seed derived from it.
    pub seed: u64,
    /// Games to play at most.
    pub games: usize,
    /// Stop starting new games after this long.
    pub time: Option<Duration>,
    /// Programs run at once (see `run::slots`).
    pub jobs: usize,
    /// An instructor's case directory (for its limits, arguments and checks).
    pub cases: Option<PathBuf>,
    /// Play the games as this case runs its programs (`grade explore --case NAME`): its
    /// arguments, files, limits, end of input, terminal and reference; a random-games case's
    /// checks too.
    pub case: Option<String>,
    /// Run the program under a pseudo-terminal (`--terminal`), whatever the case says.
    pub terminal: bool,
    /// Told how far the exploration has gone after each round of games and once at the end
    /// (the command line draws it on a terminal); `None`: nobody is told.
    pub progress: Option<fn(ExploreProgress)>,
    /// Time spent shrinking a difference at most.
    pub shrink_time: Duration,
    /// Play every game even after a difference (a random-games case scores them all);
    /// otherwise stop at the first batch that shows one.
    pub play_all: bool,
    /// The reference game as a case's variant sets it up (`--matches 25`), for the games
    /// that bring no board of their own; `None`: the generator's (the handout's game).
    pub setup: Option<Setup>,
    /// The game arguments that set `setup` up, for the command that replays a finding on the
    /// reference (`grade play nim --matches 25`).
    pub reference_args: Vec<String>,
}

/// How far an exploration has gone: what the command line shows while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExploreProgress {
    /// Games played so far.
    pub games: usize,
    /// Lines typed so far, in all games.
    pub lines: usize,
    /// The games are over (shrinking a finding may follow).
    pub done: bool,
}

/// How much a random-games case plays: a number of games (the same games for every
/// submission), or as many as fit in a time (more on a fast machine).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many games.
    Games(usize),
    /// Games until this much time has passed (at least one).
    Time(Duration),
}

/// Reads `--explore-budget`: a number of games (`40`) or a duration (`30s`, `2m`).
pub fn parse_budget(text: &str) -> Result<Budget, String> {
    let text = text.trim();
    if let Ok(games) = text.parse::<usize>() {
        return if (1..=10_000).contains(&games) {
            Ok(Budget::Games(games))
        } else {
            Err(format!("{games} is not a number of games from 1 to 10000"))
        };
    }
    if text.ends_with('s') || text.ends_with('m') {
        return parse_duration(text).map(Budget::Time).map_err(|_| {
            format!("'{text}': expected a number of games (40) or a duration (30s, 2m)")
        });
    }
    Err(format!(
        "'{text}': expected a number of games (40) or a duration (30s, 2m)"
    ))
}

/// The seed a random-games case plays from: its own seed mixed with the course seed (the
/// command line's or environment's first, else the case directory's, else none), so the same
/// course plays the same games for every student.
///
/// Reports print this seed (it replays the games with `grade explore --seed`), so it must
/// tell nothing of the course seed, which picks every student's variant and every other
/// case's games: it is HMAC-SHA-256 keyed with the course seed over the case's seed, cut to
/// 64 bits — one-way, and unrelated between two cases of one course.
pub fn case_seed(case_seed: u64, course_seed: Option<u64>) -> u64 {
    use hmac::{Hmac, Mac};
    match course_seed {
        None | Some(0) => case_seed,
        Some(course) => {
            // HMAC takes a key of any length, 8 bytes included.
            let Ok(mut mac) = Hmac::<sha2::Sha256>::new_from_slice(&course.to_le_bytes()) else {
                return case_seed;
            };
            mac.update(b"grade random-games seed\0");
            mac.update(&case_seed.to_le_bytes());
            let digest = mac.finalize().into_bytes();
            let mut first = [0u8; 8];
            first.copy_from_slice(&digest[..8]);
            u64::from_le_bytes(first)
        }
    }
}

/// A difference found and shrunk.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// Which game (0-based) first showed it.
    pub game: usize,
    /// Lines typed in that game before shrinking.
    pub original_lines: usize,
    /// The shrunk input.
    pub input: Vec<String>,
    /// The board file (collect), shrunk too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_file: Option<String>,
    /// The name the program gets the board file under (its argument).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_name: Option<String>,
    /// For a program that draws its own start (Silver Dollar's strip): the reference's game
    /// arguments that start it there (`--board "…"`). The program cannot be made to draw the
    /// same start again, so its replay types the same moves on whatever it draws.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub start_args: Vec<String>,
    /// For a driven game: what its strategy typed (coin count, strategy, illegal moves),
    /// shrunk too.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<String>,
    /// Runs made while shrinking.
    pub shrink_runs: usize,
    /// The check that fails on the shrunk input, with its first difference.
    pub check: CheckResult,
    /// The reference transcript on the shrunk input.
    pub reference: String,
    /// What the replay commands give the program and the reference besides the input.
    #[serde(skip)]
    pub replay: ReplaySetup,
}

/// What a finding's replay commands give the program and the reference besides the input:
/// the program's arguments and working-directory files in that game (a case's `args` and
/// `files`, the assignment's, a board file), and the reference's game arguments and files as
/// `grade play` takes them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplaySetup {
    /// The program's arguments.
    pub args: Vec<String>,
    /// The files in the program's working directory: (name, content).
    pub files: Vec<(String, Vec<u8>)>,
    /// The reference's game arguments (`grade play NAME ARGS…`).
    pub reference_args: Vec<String>,
    /// The files an instructor's own reference program gets in its working directory.
    pub reference_files: Vec<(String, Vec<u8>)>,
}

impl ReplaySetup {
    /// The reference's side of a replay, as the grading played it: an instructor's reference
    /// program with the arguments and files its setup ran it with; a built-in game from the
    /// program's own start when the driver read one (Silver Dollar's strip), else with
    /// `otherwise` (the case's or the exploration's game arguments). One rule for fixed cases
    /// and explored games, so both replay lines agree.
    pub fn reference_side(
        setup: &crate::games::Setup,
        start_args: &[String],
        otherwise: impl FnOnce() -> Vec<String>,
    ) -> (Vec<String>, Vec<(String, Vec<u8>)>) {
        match setup.program_run() {
            Some((args, files)) => (args.to_vec(), files.to_vec()),
            None if !start_args.is_empty() => (start_args.to_vec(), Vec::new()),
            None => (otherwise(), Vec::new()),
        }
    }
}

/// The result of an exploration.
#[derive(Clone, Debug, Serialize)]
pub struct Exploration {
    /// The assignment.
    pub assignment: String,
    /// The submission as given.
    pub submission: String,
    /// The seed.
    pub seed: u64,
    /// Games played.
    pub games: usize,
    /// Lines typed over all games.
    pub steps: usize,
    /// Wall time in milliseconds.
    pub wall_ms: u64,
    /// How the student runs the program from its folder (`python3 main.py`, `./prog`): the
    /// replay line types into it.
    pub program: String,
    /// The difference found, if any.
    pub finding: Option<Finding>,
    /// The shell commands that replay the finding, in order (empty without one): see
    /// [`replay_commands`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub replay: Vec<String>,
    /// Which rules of the reference game the games exercised.
    pub coverage: Vec<RuleCoverage>,
    /// The case whose runs the games were played as (`--case`, else the assignment's only
    /// random-games case), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub case: Option<String>,
    /// That case's file, as written: `--save-case` copies how it runs the programs.
    #[serde(skip)]
    pub case_file: Option<String>,
}

/// Reads a duration such as `30s`, `2m` or `45` (seconds).
pub fn parse_duration(text: &str) -> anyhow::Result<Duration> {
    let text = text.trim();
    let (number, unit) = match text.strip_suffix('m') {
        Some(n) => (n, 60.0),
        None => (text.strip_suffix('s').unwrap_or(text), 1.0),
    };
    match number.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(Duration::from_secs_f64(v * unit)),
        _ => bail!("--time {text}: expected a duration such as 30s or 2m"),
    }
}

/// Seed of game `index`: distinct for every (seed, index) pair.
fn game_seed(seed: u64, index: usize) -> u64 {
    let mut rng = crate::games::SplitMix64::new(seed ^ (index as u64).rotate_left(32));
    rng.next_u64()
}

/// How every run of the student's program in random games is made, as a fixed case makes
/// it: the case's arguments, files, limits, end of input and terminal (outside any case,
/// assignment.yaml's).
#[derive(Clone, Debug, Default)]
pub struct Runs {
    /// Arguments after the program's command.
    pub args: Vec<String>,
    /// Files in its working directory (a game's board file is added, under `args[0]`).
    pub files: Vec<(String, Vec<u8>)>,
    /// Limits of each run.
    pub limits: Limits,
    /// What happens when a game's lines run out and it asks for more.
    pub end_of_input: EndOfInput,
    /// Run under a pseudo-terminal.
    pub terminal: bool,
}

impl Runs {
    /// The runs of `case`, within `limits` (its own, with the command line's overrides), under
    /// a pseudo-terminal when it says so or `terminal` (`--terminal`) does.
    pub fn of_case(case: &cases::Case, limits: Limits, terminal: bool) -> Runs {
        Runs {
            args: case.args.clone(),
            files: case.files.clone(),
            limits,
            end_of_input: case.end_of_input,
            terminal: terminal || case.terminal,
        }
    }

    /// The runs outside any case: assignment.yaml's arguments, files, limits, end of input
    /// and terminal (or `--terminal`).
    pub fn of_set(set: &cases::CaseSet, terminal: bool) -> Runs {
        Runs {
            args: set.args.clone(),
            files: set.files.clone(),
            limits: set.limits.clone(),
            end_of_input: set.end_of_input,
            terminal: terminal || set.terminal,
        }
    }
}

/// What every replay needs: the checks to compare with, how the program is run, and the
/// prepared submission.
struct Explorer<'a> {
    checks: &'a [Check],
    runs: &'a Runs,
    submission: &'a Submission,
    /// How a board file's text becomes the reference's setup (games with a board file).
    board_setup: Option<fn(&Path, &str) -> Option<Setup>>,
    /// Runs of scripted games stopped for time (see [`StoppedRuns`]).
    stopped: StoppedRuns,
}

/// Explores `submission` for `assignment`.
pub fn explore(
    submission_path: &Path,
    assignment: Assignment,
    options: &ExploreOptions,
) -> anyhow::Result<Exploration> {
    if let Explore::Unavailable(why) = assignment.def().explore {
        bail!("{why}");
    }
    let started = Instant::now();
    let tree = CaseTree::open(options.cases.as_deref())?;
    if let Some(root) = tree.root() {
        run::sandbox::protect(root);
    }
    let set = cases::load(&tree, assignment)?;
    assignment
        .kind()
        .prepare()
        .map_err(|e| anyhow::anyhow!(e))?;
    // `--case NAME`: the games are played as that case runs its programs, on its reference.
    // Without it, an assignment of your own plays as its random-games case does when it has
    // exactly one (its own arguments and files, as grading plays them); a built-in one as
    // its assignment.yaml says (its generated games bring their own setups).
    let external = assignment.kind().directory().is_some();
    let case = match &options.case {
        None if external => {
            let mut random_games = set.cases.iter().filter(|c| c.explore.is_some());
            match (random_games.next(), random_games.next()) {
                (Some(only), None) => Some(only),
                _ => None,
            }
        }
        None => None,
        Some(name) => Some(set.cases.iter().find(|c| c.name == *name).ok_or_else(|| {
            let names: Vec<&str> = set.cases.iter().map(|c| c.name.as_str()).collect();
            anyhow::anyhow!(
                "--case {name}: {assignment} has no such case (cases: {})",
                names.join(", ")
            )
        })?),
    };
    let prepared = submission::prepare(
        submission_path,
        &PrepareOptions {
            java_main: set.java_main.clone(),
            main_file: set.main_file.clone(),
            main: None,
            ..PrepareOptions::default()
        },
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    let checks = match case {
        // A random-games case's checks are what its games are compared with in grading.
        Some(case) if case.explore.is_some() => case.checks.clone(),
        _ => cases::checks_of(&set.default_checks, &set.cases),
    };
    let runs = match case {
        Some(case) => Runs::of_case(case, case.limits.clone(), options.terminal),
        None => Runs::of_set(&set, options.terminal),
    };
    // The course's variant (`parameters:`) is the game the reference plays; a case's
    // reference is set up with the case's arguments and files (and the variant).
    let variant_setup = if let Some(case) = case {
        Some((case.setup.clone(), case.args.clone()))
    } else if set.variant.0.is_empty() {
        None
    } else {
        let args = set.variant.reference_args(assignment, &[]);
        let setup = assignment
            .setup(&args, Path::new("."))
            .map_err(|e| anyhow::anyhow!("the reference cannot play variant {args:?}: {e}"))?;
        Some((setup, args))
    };
    let options = match (&options.setup, variant_setup) {
        (None, Some((setup, reference_args))) => ExploreOptions {
            setup: Some(setup),
            reference_args,
            ..options.clone()
        },
        _ => options.clone(),
    };
    let outcome = run_games(assignment, &checks, &runs, &prepared, &options)?;
    let program = prepared.replay_command();
    let replay = outcome
        .finding
        .as_ref()
        .map(|finding| replay_commands(assignment, finding, &program, prepared.replay_build()))
        .unwrap_or_default();
    Ok(Exploration {
        assignment: assignment.name().to_string(),
        submission: submission_path.display().to_string(),
        seed: options.seed,
        games: outcome.games,
        steps: outcome.steps,
        wall_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
        program,
        finding: outcome.finding,
        replay,
        coverage: outcome.coverage,
        case: case.map(|c| c.name.clone()),
        case_file: case.and_then(|c| {
            let file = tree.file(&format!("cases/{assignment}/{}.yaml", c.name))?;
            String::from_utf8(file.to_vec()).ok()
        }),
    })
}

/// The first game that differed: its index, the game, its first failing check and, for a
/// driven game, how it was played.
type FirstDifference = (usize, Game, CheckResult, Option<Played>);

/// What a batch of games found.
#[derive(Clone, Debug, Default)]
pub struct GamesPlayed {
    /// Games played.
    pub games: usize,
    /// Lines typed over all games.
    pub steps: usize,
    /// Games in which some check differs from the reference.
    pub differing: usize,
    /// Games that agree but left nothing to play: the program's start was over before a move
    /// (a finished strip, even when drawn again). They show only the start, which its own
    /// case grades, so they count toward no share (a program that prints its start and stops
    /// would otherwise agree with them).
    pub start_only: usize,
    /// For each check that differed, in how many games (by check name).
    pub failed_checks: BTreeMap<String, usize>,
    /// The first difference, shrunk.
    pub finding: Option<Finding>,
    /// Each rule of the assignment's table and how many games exercised it.
    pub coverage: Vec<RuleCoverage>,
}

/// One rule of the reference game and how many generated games exercised it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RuleCoverage {
    /// The rule, in the game's words ("win vertical", "error: less than one").
    pub rule: String,
    /// Games that exercised it (0: not reached).
    pub games: usize,
}

/// Plays up to `options.games` generated games of `assignment` on a prepared submission,
/// comparing each with `checks`; shrinks the first difference. With `options.play_all` every
/// game is played and counted; otherwise play stops after the batch holding the first
/// difference.
pub fn run_games(
    assignment: Assignment,
    checks: &[Check],
    runs: &Runs,
    prepared: &Submission,
    options: &ExploreOptions,
) -> anyhow::Result<GamesPlayed> {
    let started = Instant::now();
    let explorer = Explorer {
        checks,
        runs,
        submission: prepared,
        board_setup: match assignment.def().explore {
            Explore::Generator(generator) => generator.board_setup,
            Explore::Unavailable(_) => None,
        },
        stopped: StoppedRuns::default(),
    };
    let jobs = options.jobs.clamp(1, 64);
    // `jobs` programs at once; a batch holds one game more, scored or set up while the
    // others' programs run (see `run::slots`).
    crate::run::slots::set_limit(jobs);
    let deadline = options.time.map(|t| started + t);
    let mut played = GamesPlayed::default();
    let mut next = 0;
    let mut found: Option<FirstDifference> = None;
    let mut hit: BTreeMap<&'static str, usize> = BTreeMap::new();
    // The rules driven games reached as the program's own starts let them (their steering
    // used the same plans on the reference's strips).
    let mut driven_hit: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut driven_games = 0;
    // Games run in batches of `jobs + 1`; the lowest failing game of a batch is the one reported,
    // so the same seed gives the same result however the threads are scheduled.
    // Batch `from`'s game indices and games, generated in order, each steered toward the rules
    // the games before it missed; with `hit` as it stands after them.
    let generate_batch = |from: usize, hit: &BTreeMap<&'static str, usize>| {
        let mut hit = hit.clone();
        let batch: Vec<usize> = (from..(from + jobs + 1).min(options.games)).collect();
        let games: Vec<Option<Game>> = batch
            .iter()
            .map(|&i| next_game(assignment, options.seed, i, &mut hit))
            .map(|game| game.map(|game| with_setup(game, options.setup.as_ref())))
            .collect();
        (batch, games, hit)
    };
    let mut upcoming = None;
    while next < options.games && (options.play_all || found.is_none()) {
        // A time budget stops starting games once it is spent (the first game always runs).
        if next > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        if crate::run::interrupt::interrupted() {
            break;
        }
        let (batch, games, hit_after) = match upcoming.take() {
            Some(generated) => generated,
            None => generate_batch(next, &hit),
        };
        hit = hit_after;
        next += batch.len();
        // The next batch is generated while this one's programs run; its games count
        // toward `hit` only once they are played.
        let (verdicts, upcoming_batch) = std::thread::scope(|scope| {
            let ahead = (next < options.games).then(|| scope.spawn(|| generate_batch(next, &hit)));
            let verdicts = crate::parallel::in_parallel(games.len(), games.len(), |slot| {
                games[slot].as_ref().map(|game| explorer.judge(game))
            });
            let ahead = ahead.map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            });
            (verdicts, ahead)
        });
        upcoming = upcoming_batch;
        for ((index, game), verdict) in batch.iter().zip(games).zip(verdicts) {
            let (Some(game), Some(verdict)) = (game, verdict) else {
                continue;
            };
            played.games += 1;
            let verdict = verdict?;
            match &verdict.played {
                // A driven game: what it typed and reached on the program's own start.
                Some(run) => {
                    played.steps += run.lines.len();
                    let as_played = Game {
                        setup: run.setup.clone(),
                        lines: run.lines.clone(),
                        ..game.clone()
                    };
                    for rule in coverage::rules_hit(assignment, &as_played) {
                        *driven_hit.entry(rule).or_insert(0) += 1;
                    }
                    driven_games += 1;
                }
                None => played.steps += game.lines.len(),
            }
            if verdict.failing.is_empty() {
                played.start_only += usize::from(verdict.start_only);
                continue;
            }
            played.differing += 1;
            for check in &verdict.failing {
                *played.failed_checks.entry(check.name.clone()).or_insert(0) += 1;
            }
            if found.is_none() {
                let played = verdict.played.clone();
                if let Some(check) = verdict.first() {
                    found = Some((*index, game, check, played));
                }
            }
        }
        if let Some(progress) = options.progress {
            progress(ExploreProgress {
                games: played.games,
                lines: played.steps,
                done: false,
            });
        }
    }
    if let Some(progress) = options.progress {
        progress(ExploreProgress {
            games: played.games,
            lines: played.steps,
            done: true,
        });
    }
    played.coverage = if driven_games > 0 {
        coverage_of(assignment, &driven_hit)
    } else {
        coverage_of(assignment, &hit)
    };
    played.finding = match found {
        Some(found) => Some(explorer.shrunk_finding(found, options)?),
        None => None,
    };
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::budget::SHARED_GAMES;
    use super::*;
    use crate::shell::{printf_pieces, write_file};

    fn finding(input: &[&str], start_args: &[&str], replay: ReplaySetup) -> Finding {
        Finding {
            game: 1,
            original_lines: 40,
            input: input.iter().map(|l| l.to_string()).collect(),
            board_file: None,
            board_name: None,
            start_args: start_args.iter().map(|a| a.to_string()).collect(),
            plan: None,
            shrink_runs: 3,
            check: CheckResult {
                rule: None,
                name: "strips".into(),
                kind: "strips".into(),
                passed: false,
                score: 0.0,
                max_score: 1.0,
                detail: String::new(),
                difference: None,
            },
            reference: String::new(),
            replay,
        }
    }

    #[test]
    fn a_driven_finding_replays_the_reference_from_the_programs_own_start() {
        let start = ["--board", "_ 0 1"];
        let replay = ReplaySetup {
            reference_args: start.iter().map(|a| a.to_string()).collect(),
            ..ReplaySetup::default()
        };
        assert_eq!(
            replay_commands(
                crate::assignments::silver_dollar::ASSIGNMENT,
                &finding(&["11", "10 1"], &start, replay),
                "./prog",
                None
            ),
            [
                "printf '11\\n10 1\\n' | ./prog   # your program: the moves replay as they were \
                 only when it draws the same strip again",
                "printf '11\\n10 1\\n' | grade play silver_dollar --board '_ 0 1'   # the reference"
            ]
        );
    }

    /// A reference program's setup (as an instructor's own assignment has), without the
    /// program: only its arguments and files matter to a replay.
    #[derive(Debug)]
    struct ProgramReference(Vec<String>, Vec<(String, Vec<u8>)>);

    impl crate::games::ReferenceGame for ProgramReference {
        fn play(
            &self,
            _: &mut dyn crate::console::Console,
        ) -> Result<(), crate::games::ReferenceFailure> {
            Ok(())
        }
        fn same_as(&self, _: &dyn crate::games::ReferenceGame) -> bool {
            false
        }
        fn as_any(&self) -> &dyn std::any::Any {
            self
        }
        fn program_run(&self) -> Option<crate::games::ProgramRun<'_>> {
            Some((&self.0, &self.1))
        }
    }

    #[test]
    fn the_reference_replays_with_what_the_grading_gave_it() {
        let strings = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let start = strings(&["--board", "_ 0 1"]);
        let otherwise = || strings(&["--seed", "7"]);
        // An instructor's reference program ran with its setup's arguments and files, even
        // when the driver read a start from the student's program.
        let program = crate::games::Setup::new(ProgramReference(
            strings(&["levels.txt"]),
            vec![("levels.txt".into(), b"3\n".to_vec())],
        ));
        assert_eq!(
            ReplaySetup::reference_side(&program, &start, otherwise),
            (
                strings(&["levels.txt"]),
                vec![("levels.txt".to_string(), b"3\n".to_vec())]
            )
        );
        // A built-in game: the program's own start first, else the game's arguments.
        let built_in = crate::games::Setup::new(crate::assignments::nim::game::NewGame::HANDOUT);
        assert_eq!(
            ReplaySetup::reference_side(&built_in, &start, otherwise),
            (start.clone(), Vec::new())
        );
        assert_eq!(
            ReplaySetup::reference_side(&built_in, &[], otherwise),
            (strings(&["--seed", "7"]), Vec::new())
        );
    }

    #[test]
    fn a_replay_gives_the_program_its_arguments_and_files_and_the_reference_its_own() {
        let replay = ReplaySetup {
            args: vec!["code.txt".into(), "two words".into()],
            files: vec![("code.txt".into(), b"RGBY\n".to_vec())],
            reference_args: vec!["--matches".into(), "25".into()],
            reference_files: Vec::new(),
        };
        assert_eq!(
            replay_commands(
                crate::assignments::nim::ASSIGNMENT,
                &finding(&["1", "x y"], &[], replay),
                "python3 nim.py",
                None
            ),
            [
                "printf 'RGBY\\n' > code.txt",
                "printf '1\\nx y\\n' | python3 nim.py code.txt 'two words'   # your program",
                "printf '1\\nx y\\n' | grade play nim --matches 25   # the reference",
            ]
        );
    }

    /// Runs `commands` with `sh -c` one after the other in `dir`; the output of the last.
    fn run_in(dir: &Path, commands: &[String]) -> Vec<u8> {
        let mut last = Vec::new();
        for command in commands {
            let output = std::process::Command::new("sh")
                .arg("-c")
                .arg(command)
                .current_dir(dir)
                .output()
                .expect("sh runs");
            assert!(output.status.success(), "{command}: {output:?}");
            last = output.stdout;
        }
        last
    }

    #[test]
    fn files_and_long_inputs_are_written_exactly_by_commands_a_report_keeps_whole() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Quotes, escapes, percent signs, a tab, a carriage return, a bidirectional override,
        // bytes that are not UTF-8, accents, and enough of them to need several pieces.
        let mut content = b"it's 100% \\n\ta\r\n\xe2\x80\xae rtl \xff\xfe caf\xc3\xa9\n".to_vec();
        for line in 0..40 {
            content.extend(format!("line {line}: '%s' \\\n").as_bytes());
        }
        let commands = write_file("data/secret.txt", &content);
        assert!(commands.len() > 3, "{commands:?}");
        for command in &commands {
            // What every report keeps of a line (crate::escape) and shows as itself.
            assert!(command.chars().count() < 300, "{command}");
            assert!(!command.chars().any(|c| c.is_control()), "{command}");
        }
        run_in(dir.path(), &commands);
        assert_eq!(
            std::fs::read(dir.path().join("data/secret.txt")).expect("written"),
            content
        );

        // 40 input lines: too long for one line, typed from a file written first.
        let lines: Vec<String> = (0..40).map(|i| format!("move {i}")).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let replay = ReplaySetup {
            files: vec![("moves.txt".into(), b"taken\n".to_vec())],
            ..ReplaySetup::default()
        };
        let commands = replay_commands(
            crate::assignments::nim::ASSIGNMENT,
            &finding(&lines, &[], replay),
            "cat",
            None,
        );
        let program = commands
            .iter()
            .position(|c| c.ends_with("# your program"))
            .expect("the program's command");
        assert_eq!(commands[program], "cat < moves2.txt   # your program");
        let typed = run_in(dir.path(), &commands[..=program]);
        let expected: String = lines.iter().map(|l| format!("{l}\n")).collect();
        assert_eq!(String::from_utf8_lossy(&typed), expected);
        assert_eq!(
            std::fs::read(dir.path().join("moves.txt")).expect("kept"),
            b"taken\n"
        );
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s").ok(), Some(Duration::from_secs(30)));
        assert_eq!(parse_duration("2m").ok(), Some(Duration::from_secs(120)));
        assert_eq!(
            parse_duration("1.5").ok(),
            Some(Duration::from_millis(1500))
        );
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("soon").is_err());
    }

    /// The default budget of every built-in random-games case (its games, its seed, no course
    /// seed) exercises every rule of the assignment's rule table.
    #[test]
    fn the_default_budget_exercises_every_rule() {
        let tree = CaseTree::built_in();
        for assignment in tree.assignments(&crate::assignments::Registry::built_in()) {
            let set = cases::load(&tree, assignment).expect("built-in cases load");
            for case in &set.cases {
                let Some(spec) = case.explore else { continue };
                let seed = case_seed(spec.seed, spec.course_seed);
                let missed: Vec<String> = planned_coverage(assignment, seed, spec.games)
                    .into_iter()
                    .filter(|r| r.games == 0)
                    .map(|r| r.rule)
                    .collect();
                assert!(missed.is_empty(), "{assignment} {}: {missed:?}", case.name);
            }
        }
    }

    /// The games a benchmark's floor replays are the ones the case plays: as many as its
    /// budget, the same for the same seed, others for another.
    #[test]
    fn generated_games_are_the_cases_games() {
        let nim = crate::assignments::nim::ASSIGNMENT;
        let lines = |seed| -> Vec<Vec<String>> {
            generated_games(nim, seed, 12)
                .into_iter()
                .map(|g| g.lines)
                .collect()
        };
        assert_eq!(lines(1).len(), 12);
        assert!(lines(1).iter().all(|l| !l.is_empty()));
        assert_eq!(lines(1), lines(1));
        assert_ne!(lines(1), lines(2));
        // Game i is what exploration draws as game i, steered by the games before it.
        let mut hit = BTreeMap::new();
        let third = (0..3)
            .filter_map(|i| next_game(nim, 1, i, &mut hit))
            .last()
            .map(|g| g.lines);
        assert_eq!(third.as_ref(), lines(1).get(2));
    }

    /// The games shared within a process are the games generated afresh, within the shared
    /// number and past it, the first time and again.
    #[test]
    fn shared_games_are_the_games_generated_afresh() {
        for &assignment in crate::assignments::ASSIGNMENTS {
            let seed = 4242;
            let count = SHARED_GAMES + 3;
            let mut hit = BTreeMap::new();
            let fresh: Vec<Option<Vec<String>>> = (0..count)
                .map(|index| {
                    let (game, rules) =
                        coverage::steered_game(assignment, game_seed(seed, index), index, &hit)?;
                    for rule in rules {
                        *hit.entry(rule).or_insert(0) += 1;
                    }
                    Some(game.lines)
                })
                .collect();
            for _ in 0..2 {
                let mut hit = BTreeMap::new();
                let shared: Vec<Option<Vec<String>>> = (0..count)
                    .map(|index| next_game(assignment, seed, index, &mut hit).map(|g| g.lines))
                    .collect();
                assert_eq!(shared, fresh, "{assignment}");
            }
        }
    }

    #[test]
    fn course_seeds_change_the_games_and_none_keeps_the_case_seed() {
        assert_eq!(case_seed(1, None), 1);
        assert_eq!(case_seed(1, Some(0)), 1);
        assert_ne!(case_seed(1, Some(7)), 1);
        assert_ne!(case_seed(1, Some(7)), case_seed(1, Some(8)));
        // The same course and case: the same games, every time.
        assert_eq!(case_seed(1, Some(7)), case_seed(1, Some(7)));
    }

    /// HMAC-SHA-256 of RFC 4231's test case 2 (key "Jefe"), computed by the same crates: the
    /// derivation is the standard function, not a look-alike.
    #[test]
    fn the_derivation_is_hmac_sha256_keyed_with_the_course_seed() {
        use hmac::{Hmac, Mac};
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(b"Jefe").expect("any key length");
        mac.update(b"what do ya want for nothing?");
        let hex: String = mac
            .finalize()
            .into_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(
            hex,
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // The printed seed is the first 8 bytes of HMAC(course seed, label ‖ case seed).
        let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&7u64.to_le_bytes()).expect("key");
        mac.update(b"grade random-games seed\0");
        mac.update(&1u64.to_le_bytes());
        let digest = mac.finalize().into_bytes();
        assert_eq!(
            case_seed(1, Some(7)).to_le_bytes(),
            digest[..8],
            "the derivation"
        );
    }

    /// What a student holds: the printed seeds of the cases of one course, and the public
    /// case seeds. Under an invertible mix (`case ^ f(course)`) two cases' printed seeds differ
    /// by exactly their case seeds' difference, and `f(course)` is one XOR away; under the
    /// keyed hash they are unrelated, and neither is the course seed.
    #[test]
    fn printed_seeds_are_no_invertible_function_of_the_course_seed() {
        let courses = [7u64, 12_345, 0x5eed_0fc0_52e5_1a7b, u64::MAX];
        for &course in &courses {
            for (a, b) in [(1u64, 2u64), (1, 3), (4, 1000)] {
                let (pa, pb) = (case_seed(a, Some(course)), case_seed(b, Some(course)));
                assert_ne!(pa ^ pb, a ^ b, "course {course}: cases {a}, {b}");
                assert_ne!(pa ^ a, pb ^ b, "course {course}: one mask for every case");
                assert_ne!(pa.wrapping_sub(a), pb.wrapping_sub(b), "an added mask");
                assert_ne!(pa, course);
            }
        }
        // Different courses: different games for the same case.
        let printed: std::collections::BTreeSet<u64> = (1..=1000u64)
            .map(|course| case_seed(1, Some(course)))
            .collect();
        assert_eq!(printed.len(), 1000);
        // Neighbouring course seeds give seeds about half of whose bits differ.
        for course in 1..100u64 {
            let flipped =
                (case_seed(1, Some(course)) ^ case_seed(1, Some(course + 1))).count_ones();
            assert!(
                (12..=52).contains(&flipped),
                "course {course}: {flipped} bits"
            );
        }
    }

    #[test]
    fn budgets_and_replay_text() {
        assert_eq!(parse_budget("40"), Ok(Budget::Games(40)));
        assert_eq!(
            parse_budget("30s"),
            Ok(Budget::Time(Duration::from_secs(30)))
        );
        assert!(parse_budget("0").is_err());
        assert!(parse_budget("lots").is_err());
        assert_eq!(printf_pieces(b"a'b\\%\n").concat(), "a'\\''b\\\\%%\\n");
        assert_eq!(crate::shell::word(""), "''");
        assert_eq!(crate::shell::word("input.txt"), "input.txt");
        assert_eq!(crate::shell::word("my board"), "'my board'");
    }

    #[test]
    fn game_seeds_differ() {
        let seeds: std::collections::BTreeSet<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
