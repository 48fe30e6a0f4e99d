//! Comparing and scoring: every check extracts something from the student's transcript and the
//! same thing from the reference transcript of the same case, and compares them — so no
//! expected value is ever written by hand.

pub mod board;
pub mod custom;
pub mod kinds;
pub mod ladder;
pub mod lines;
pub mod pattern;
pub mod realign;
pub mod view;

pub use kinds::{Compare, Level};

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::Arc;

use crate::games::Recording;
use crate::results::{CheckResult, Difference};
use crate::transcript::{Event, Stream, Transcript};
use board::BoardSpec;
use lines::ItemRules;
use view::{InputShown, View};

/// A compiled check, ready to evaluate.
#[derive(Clone, Debug)]
pub struct Check {
    /// Unique within its case.
    pub name: String,
    /// Its share of the case's points.
    pub weight: f64,
    /// What it compares.
    pub kind: CheckKind,
    /// The handout's rule it enforces, as its case file quotes it (`rule:`), if it does.
    pub rule: Option<String>,
}

/// What a check compares.
#[derive(Clone, Debug)]
pub enum CheckKind {
    /// The whole output, passing at `level` or stricter.
    Transcript { level: Level },
    /// The sequence of pattern matches.
    Lines {
        /// Shared by every case whose check has the same pattern, and with it the pattern's
        /// matching caches (its lazy DFA is built once, not once per case).
        pattern: Arc<pattern::Pattern>,
        rules: ItemRules,
        dedup: bool,
        compare: Compare,
        optional: bool,
        at_inputs: bool,
        free_elsewhere: bool,
        /// With `at_inputs` and presence: any line the program prints where the reference
        /// prints its message counts, unless it is part of its ordinary output.
        any_wording: bool,
        game: bool,
        /// What one item is called in feedback, in the game's words ("turn").
        item: String,
        /// What several are called ("turns").
        items: String,
    },
    /// The sequence of boards.
    Board(BoardSpec),
    /// How often a message appears.
    Contains {
        text: String,
        exact: bool,
        presence_only: bool,
    },
    /// Whether the program printed at most `max_ratio` times the reference's output.
    Volume { max_ratio: f64 },
    /// Whether the program ended when the reference did.
    Exit { code: bool },
    /// Whether the program printed as it played, rather than reading all its input first.
    Interactive,
    /// C and C++: whether the instrumented run (AddressSanitizer, UBSan) found nothing.
    Sanitizer,
    /// A kind its assignment registers ([`custom::CheckKindDef`]), such as Silver Dollar's
    /// strips.
    Custom {
        /// Its registered name.
        kind: &'static str,
        /// What it compares.
        check: Arc<dyn custom::CustomCheck>,
    },
}

impl CheckKind {
    /// Whether its items show that a game is being played.
    pub fn is_game(&self) -> bool {
        match self {
            CheckKind::Lines { game, .. } => *game,
            CheckKind::Board(spec) => spec.game,
            CheckKind::Custom { check, .. } => check.game_items().is_some(),
            _ => false,
        }
    }

    /// The kind's name as used in case files and reports.
    pub fn name(&self) -> &'static str {
        match self {
            CheckKind::Transcript { .. } => "transcript",
            CheckKind::Lines { .. } => "lines",
            CheckKind::Board(_) => "board",
            CheckKind::Contains { .. } => "contains",
            CheckKind::Volume { .. } => "volume",
            CheckKind::Exit { .. } => "exit",
            CheckKind::Interactive => "interactive",
            CheckKind::Sanitizer => "sanitizer",
            CheckKind::Custom { kind, .. } => kind,
        }
    }

    /// It judges only the start a driver read from the program (Silver Dollar's
    /// `strip_start`): graded even where that start leaves no game to play.
    pub fn judges_the_start(&self) -> bool {
        matches!(self, CheckKind::Custom { check, .. } if check.judges_the_start())
    }

    /// It may be compared in random games: not a check of many runs, nor one a kind keeps
    /// to fixed cases ([`custom::CustomCheck::in_random_games`]).
    pub fn in_random_games(&self) -> bool {
        match self {
            CheckKind::Custom { check, .. } => check.in_random_games(),
            _ => true,
        }
    }
}

/// What the student's program did, as far as checks care.
#[derive(Clone, Copy, Debug)]
pub struct StudentRun<'a> {
    /// Its transcript.
    pub transcript: &'a Transcript,
    /// It exited by itself (any status), rather than being stopped or killed.
    pub exited: Option<i32>,
    /// It was stopped while waiting for input after the script ended.
    pub waiting_for_input: bool,
    /// Its prompts appeared only after it had read input.
    pub prompts_late: bool,
    /// Input lines it never read.
    pub unread_inputs: usize,
    /// All runs of a case that starts the program many times (this one among them); empty
    /// for ordinary cases.
    pub samples: &'a [Transcript],
    /// Set when it asked for more input once the script was used up, its prompt shown, and
    /// was given end of input then (see [`pause_after_the_game`]).
    pub after_script: Option<AskedAfterScript>,
}

impl<'a> StudentRun<'a> {
    /// What the checks read of one run of the program (`samples`: all runs of a case that
    /// starts it many times, else none).
    pub fn of(outcome: &'a crate::run::RunOutcome, samples: &'a [Transcript]) -> StudentRun<'a> {
        StudentRun {
            transcript: &outcome.transcript,
            exited: match outcome.ending {
                crate::run::Ending::Exited(code) => Some(code),
                _ => None,
            },
            waiting_for_input: outcome.ending == crate::run::Ending::WaitingForInput,
            prompts_late: outcome.prompts_late,
            unread_inputs: outcome.unread_inputs,
            after_script: outcome.after_script.map(|a| AskedAfterScript {
                events: a.events,
                prompt_shown: a.prompt_shown,
                ended: a.ended.is_some(),
            }),
            samples,
        }
    }
}

/// A program that asked for more input once its script was used up and was given end of
/// input, as a person at a terminal ends a final "press Enter to exit".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskedAfterScript {
    /// How many transcript events there were when it was given end of input (the last of them
    /// marks it): what it had printed until it asked.
    pub events: usize,
    /// Its prompt had appeared when it asked; else its output was held back (in a buffer,
    /// or because it reads all its input before it prints).
    pub prompt_shown: bool,
    /// It then ended by itself (with any status: an end-of-input error too).
    pub ended: bool,
}

/// Whether the run, once the script was used up and the reference's game was over, read on
/// and ended at end of input: it paused after the game (a final "press Enter to exit",
/// `cin.get()`, a last `input()`), or it reads all its input before printing. A prompt shown
/// then must not be one of the questions it asked during the game (asking "Remove (1 - 3):"
/// or "Play again?" once more is the game going on).
pub fn pause_after_the_game(student: &StudentRun, reference: &Recording) -> bool {
    let Some(asked) = student.after_script else {
        return false;
    };
    if !asked.ended || reference.wanted_more_input {
        return false;
    }
    if !asked.prompt_shown {
        return true;
    }
    let events = student.transcript.events();
    let until_asked = Transcript::from_events(events[..asked.events.min(events.len())].to_vec());
    let view = View::new(&until_asked, InputShown::LineBreak);
    let last_shown = |text: &str| -> String {
        text.trim_end()
            .rsplit('\n')
            .next()
            .unwrap_or("")
            .trim()
            .to_lowercase()
    };
    let last = last_shown(&view.text);
    !view
        .input_offsets
        .iter()
        .any(|&offset| last_shown(&view.text[..offset]) == last)
}

/// A program that went on playing after the reference's game was over (handouts: "print the
/// result and end the program"): the reference ended by itself after reading `over_after`
/// lines, and the program read the next one, answered it (printed after it) and asked for
/// more, where a final pause reads one line and ends and a program that reads all its input
/// first answers nothing line by line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedOn {
    /// Where the reference's game was over.
    pub game: GameOver,
    /// The line the program read after the game was over.
    pub next: String,
}

impl PlayedOn {
    /// The exit check's detail: what happened, input by input.
    pub fn detail(&self) -> String {
        self.game.but_the_program(&format!(
            "it read input {} (\"{}\"), answered it and kept asking for input",
            self.game.over_after + 1,
            self.next
        ))
    }
}

/// Where the reference's game was over, as a program that did not end there is told it
/// ([`PlayedOn`], [`ReadOnSilently`]): how many lines the reference read, the last of them,
/// and its last line printed (its result), trimmed; empty strings where there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOver {
    /// How many lines the reference read before its game was over and it ended.
    pub over_after: usize,
    /// The last of them, as typed (empty when there was none).
    pub last_read: String,
    /// The reference's last line, where it ended (its result).
    pub last_line: String,
}

impl GameOver {
    /// Where `reference`'s game was over.
    fn of(reference: &Recording) -> GameOver {
        let text = reference.transcript.terminal_text();
        let last_line = text
            .lines()
            .rev()
            .map(str::trim)
            .find(|line| !line.is_empty())
            .unwrap_or_default();
        GameOver {
            over_after: reference.transcript.input_count(),
            last_read: reference
                .transcript
                .inputs()
                .last()
                .unwrap_or_default()
                .to_string(),
            last_line: last_line.to_string(),
        }
    }

    /// "after input 5 ("2")", or "before the first input".
    fn at(&self) -> String {
        match self.over_after {
            0 => "before the first input".to_string(),
            n => format!("after input {n} (\"{}\")", self.last_read),
        }
    }

    /// " printed "Player X wins!" and", or nothing when the reference printed nothing.
    fn printed(&self) -> String {
        match self.last_line.as_str() {
            "" => String::new(),
            line => format!(" printed \"{line}\" and"),
        }
    }

    /// The exit check's detail for a program that did not end here and did `what`.
    fn but_the_program(&self, what: &str) -> String {
        format!(
            "the game was over {}: the reference{} ended there, but the program did not end: \
             {what}",
            self.at(),
            self.printed()
        )
    }

    /// The failed exit check of a program that did not end here: `detail`, and the
    /// difference, where `actual` says what it did instead.
    fn failed_exit(&self, detail: String, actual: String) -> Evaluation {
        Evaluation::fail(
            detail,
            Difference {
                location: "the end of the game".into(),
                expected: format!("the program ends {}, as the reference does", self.at()),
                actual,
                inputs_before: self.over_after,
                relaxation: None,
                student_line: None,
            },
        )
    }
}

/// Where the reference's game was over, for a sentence about a program that went on: ": the
/// game was over after input 5 ("2"), where the reference printed "Player X wins!" and ended"
/// (empty when the reference read nothing and printed nothing).
fn where_it_ended(reference: &Recording) -> String {
    let game = GameOver::of(reference);
    if game.over_after == 0 && game.last_line.is_empty() {
        return String::new();
    }
    format!(
        ": the game was over {}, where the reference{} ended",
        game.at(),
        game.printed()
    )
}

/// Whether `student` played on after the reference's game was over ([`PlayedOn`]).
pub fn played_on_after_the_game(student: &StudentRun, reference: &Recording) -> Option<PlayedOn> {
    let over_after = reference.transcript.input_count();
    let sent = student.transcript.input_count();
    if reference.wanted_more_input || sent <= over_after || read_all_input_first(student) {
        return None;
    }
    // It asked again after the line past the end: read another, was given end of input
    // (the script was used up), or was still running.
    let asked_again =
        sent > over_after + 1 || student.after_script.is_some() || student.exited.is_none();
    let mut read = 0;
    let answered = student.transcript.events().iter().any(|event| match event {
        Event::Input { .. } => {
            read += 1;
            false
        }
        Event::Output {
            stream: Stream::Stdout,
            bytes,
        } => read > over_after && bytes.iter().any(|b| !b.is_ascii_whitespace()),
        _ => false,
    });
    if !asked_again || !answered {
        return None;
    }
    let game = GameOver::of(reference);
    Some(PlayedOn {
        next: student
            .transcript
            .inputs()
            .nth(game.over_after)
            .unwrap_or_default()
            .to_string(),
        game,
    })
}

/// A program that did not end when the reference's game was over and read on without printing
/// anything: no prompt after its last line (which ends its line, and is no question), and
/// nothing printed after any line it read past the end. At a terminal it sits there silently,
/// waiting for more. What it read past the end: how many of the lines the reference did not
/// read, and the first of them (empty when it read none before it was given end of input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOnSilently {
    /// Where the reference's game was over.
    pub game: GameOver,
    /// The first line the program read after the game was over (none: the script ended there).
    pub next: Option<String>,
}

impl ReadOnSilently {
    /// The exit check's detail: what happened, as [`PlayedOn::detail`] says it.
    pub fn detail(&self) -> String {
        self.game.but_the_program(&self.what_it_did())
    }

    /// What the program did after the game was over, in a clause.
    pub fn what_it_did(&self) -> String {
        match &self.next {
            None => "it kept reading input without printing anything".to_string(),
            Some(next) => format!(
                "it read input {} (\"{next}\") without printing anything and kept reading input",
                self.game.over_after + 1
            ),
        }
    }
}

/// Whether `student`, still running when it was stopped, read on silently after the
/// reference's game was over ([`ReadOnSilently`]).
pub fn read_on_silently(student: &StudentRun, reference: &Recording) -> Option<ReadOnSilently> {
    if reference.wanted_more_input || student.exited.is_some() || !student.waiting_for_input {
        return None;
    }
    // Ended when given end of input (a final pause), or read everything first: not this.
    if student.after_script.is_some_and(|a| a.ended) || read_all_input_first(student) {
        return None;
    }
    let over_after = reference.transcript.input_count();
    let events = student.transcript.events();
    // Where it first read past the end: the line after the reference's last, or end of input.
    let mut read = 0;
    let past = events.iter().position(|event| match event {
        Event::Input { .. } => {
            read += 1;
            read > over_after
        }
        Event::InputClosed => true,
        _ => false,
    })?;
    if read < over_after {
        return None;
    }
    let stdout = |events: &[Event]| -> String {
        let bytes: Vec<u8> = events
            .iter()
            .filter_map(|event| match event {
                Event::Output {
                    stream: Stream::Stdout,
                    bytes,
                } => Some(bytes.as_slice()),
                _ => None,
            })
            .flatten()
            .copied()
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    // Nothing printed after it read past the end (a line read there answered is playing on).
    if stdout(&events[past..]).chars().any(|c| !c.is_whitespace()) {
        return None;
    }
    // No prompt before it: its output ends its line, and that line asks nothing.
    let before = stdout(&events[..past]);
    let before = before.trim_end_matches([' ', '\t']);
    let last = before.trim_end().rsplit('\n').next().unwrap_or("").trim();
    if !(before.is_empty() || before.ends_with('\n')) || last.ends_with(['?', ':']) {
        return None;
    }
    let game = GameOver::of(reference);
    Some(ReadOnSilently {
        next: student
            .transcript
            .inputs()
            .nth(game.over_after)
            .map(String::from),
        game,
    })
}

/// Whether the run read all its input before it printed anything after its first input
/// (`sys.stdin.read().split()`, `fs.readFileSync(0)`): compared on the order of its output
/// ([`realign`]); such a program cannot be played at a terminal.
pub fn read_all_input_first(student: &StudentRun) -> bool {
    student.after_script.is_some_and(|asked| {
        !asked.prompt_shown && realign::read_everything_first(student.transcript, asked.events)
    })
}

/// The run the checks compare: as it was; as it was when it asked for more input after its
/// script, when that was not a pause after a finished game (the program is stopped there as
/// before, what it printed after end of input is not compared); or, for a program that read
/// all its input first, with its inputs placed in its output where the reference's are
/// ([`realign`]). The second value says the inputs were placed.
fn settled<'a>(student: &StudentRun<'a>, reference: &Recording) -> (Cow<'a, Transcript>, bool) {
    match student.after_script {
        Some(asked) if asked.prompt_shown && !pause_after_the_game(student, reference) => {
            let events = student.transcript.events();
            let cut = events[..asked.events.min(events.len())].to_vec();
            (Cow::Owned(Transcript::from_events(cut)), false)
        }
        Some(_) if read_all_input_first(student) => {
            match realign::placed_like(student.transcript, &reference.transcript) {
                Some(placed) => (Cow::Owned(placed), true),
                None => (Cow::Borrowed(student.transcript), false),
            }
        }
        _ => (Cow::Borrowed(student.transcript), false),
    }
}

/// The verdict of one check before points are assigned.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Nothing to compare on either side: the check is left out of the case's score.
    pub not_applicable: bool,
    /// Whether it passed.
    pub passed: bool,
    /// One line saying what was found.
    pub detail: String,
    /// Where it first differed.
    pub difference: Option<Difference>,
    /// The share of the check's points a failing check still earns (0 to 1): for a sequence,
    /// the items that matched before the first difference.
    pub partial: f64,
    /// The student printed an item after a move (for `game` checks; see
    /// [`view::after_a_move`]).
    pub in_game: bool,
    /// What the student printed of a game check's items, for the gate's feedback.
    pub shown: Shown,
}

/// How many of a game check's items the program printed, and how many of them after its
/// first input: the gate's feedback says which of "none", "only before any input" and "only
/// the start" happened.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shown {
    /// Items printed.
    pub items: usize,
    /// Of them, printed after the first input.
    pub after_input: usize,
}

impl Evaluation {
    /// A passing verdict.
    pub fn pass(detail: impl Into<String>) -> Self {
        Evaluation {
            not_applicable: false,
            passed: true,
            detail: detail.into(),
            difference: None,
            partial: 0.0,
            in_game: false,
            shown: Shown::default(),
        }
    }

    /// A failing verdict with the first difference.
    pub fn fail(detail: impl Into<String>, difference: Difference) -> Self {
        Evaluation {
            not_applicable: false,
            passed: false,
            detail: detail.into(),
            difference: Some(difference),
            partial: 0.0,
            in_game: false,
            shown: Shown::default(),
        }
    }

    /// A failing verdict on a sequence whose first `matched` of `total` items (called
    /// `nouns`: "turns", "boards") agree: it earns that share, and its detail says so.
    pub fn fail_after(
        detail: impl Into<String>,
        difference: Difference,
        matched: usize,
        total: usize,
        nouns: &str,
    ) -> Self {
        Evaluation::fail_after_agreeing(detail, difference, matched, matched, total, nouns)
    }

    /// [`Evaluation::fail_after`] where the first `agreeing` items agree but only `matched`
    /// of them were printed at their place after an input (what earns the share): the detail
    /// counts every item that agrees (the first prompt, the starting board, printed before any
    /// input, included) and says how many earn it.
    pub fn fail_after_agreeing(
        detail: impl Into<String>,
        difference: Difference,
        agreeing: usize,
        matched: usize,
        total: usize,
        nouns: &str,
    ) -> Self {
        let detail = detail.into();
        if total <= 1 {
            return Evaluation::fail(detail, difference);
        }
        let matched = matched.min(total);
        let agreeing = agreeing.clamp(matched, total);
        let earning = if agreeing == matched {
            String::new()
        } else if matched == 0 {
            ", none of them at its place after an input (no share earned)".to_string()
        } else {
            format!(", {matched} of them at their place after an input (the share earned)")
        };
        Evaluation {
            detail: format!(
                "{detail}; {agreeing} of {total} {nouns} agree before the first difference{earning}"
            ),
            partial: matched as f64 / total as f64,
            ..Evaluation::fail("", difference)
        }
    }

    /// Nothing to compare.
    pub fn not_applicable() -> Self {
        Evaluation {
            not_applicable: true,
            passed: true,
            detail: "nothing to compare".into(),
            difference: None,
            partial: 0.0,
            in_game: false,
            shown: Shown::default(),
        }
    }
}

/// The views both sides are compared in, rendered at most once per case and shared by all its
/// checks: one view each, inputs as line breaks, whose terminal form (inputs echoed) is read
/// from it line by line ([`View::display_lines`]) rather than kept as a second copy.
pub struct CaseViews<'a> {
    student: &'a StudentRun<'a>,
    reference: &'a Transcript,
    views: OnceCell<(View, View)>,
}

impl<'a> CaseViews<'a> {
    /// Views of one case's student run and reference transcript.
    pub fn new(student: &'a StudentRun<'a>, reference: &'a Transcript) -> Self {
        CaseViews {
            student,
            reference,
            views: OnceCell::new(),
        }
    }

    /// The (student, reference) views, rendered on first use.
    pub fn get(&self) -> (&View, &View) {
        let (student, reference) = self.views.get_or_init(|| {
            // A program whose prompts came late read all its input before printing: placing
            // the inputs in its text would scramble it, so both sides are compared without.
            let shown = if self.student.prompts_late {
                InputShown::Omitted
            } else {
                InputShown::LineBreak
            };
            (
                View::new(self.student.transcript, shown),
                View::new(self.reference, shown),
            )
        });
        (student, reference)
    }
}

impl Check {
    /// Compares the student's run with the reference recording of the same case, through
    /// the case's shared `views`.
    pub fn evaluate(
        &self,
        views: &CaseViews,
        student: &StudentRun,
        reference: &Recording,
    ) -> Evaluation {
        match &self.kind {
            CheckKind::Transcript { level } => {
                let (s, r) = views.get();
                ladder::evaluate(s, r, *level)
            }
            CheckKind::Lines {
                pattern,
                rules,
                dedup,
                compare,
                optional,
                at_inputs,
                free_elsewhere,
                any_wording,
                game: _,
                item,
                items,
            } => {
                let (s, r) = views.get();
                // Output that appeared only after the input was read cannot be placed between
                // inputs: such a program is compared as a sequence (messages by count).
                let late = *at_inputs && student.prompts_late;
                let options = lines::LineOptions {
                    noun: lines::Noun {
                        one: item,
                        many: items,
                    },
                    rules: *rules,
                    dedup: *dedup,
                    compare: match compare {
                        Compare::Presence if late => Compare::Count,
                        other => *other,
                    },
                    optional: *optional,
                    at_inputs: *at_inputs && !late,
                    free_elsewhere: *free_elsewhere,
                    any_wording: *any_wording,
                };
                let counted = lines::evaluate_lines(s, r, pattern, options);
                // A message in the program's own words is recognised only at its place. A
                // run counts as late when one prompt was held back (two prompts in a row,
                // never flushed), yet its messages still follow the refused inputs: try them
                // there too (counting by the handout's words stays for output held to exit).
                // Counting finds no message on either side when the reference's run on
                // after its prompts once the inputs are left out ("Position to insert at?
                // That position is not empty."): then only their places can tell, and a
                // program asking again in silence must not pass for having nothing to count.
                if late && *any_wording && (!counted.passed || counted.not_applicable) {
                    let placed_options = lines::LineOptions {
                        compare: *compare,
                        at_inputs: true,
                        ..options
                    };
                    let student_view = View::new(student.transcript, InputShown::LineBreak);
                    let reference_view = View::new(&reference.transcript, InputShown::LineBreak);
                    let placed = lines::evaluate_lines(
                        &student_view,
                        &reference_view,
                        pattern,
                        placed_options,
                    );
                    if placed.passed || (counted.not_applicable && !placed.not_applicable) {
                        return placed;
                    }
                }
                counted
            }
            CheckKind::Board(spec) => {
                let (s, r) = views.get();
                board::evaluate(s, r, spec)
            }
            CheckKind::Contains {
                text,
                exact,
                presence_only,
            } => {
                let (s, r) = views.get();
                lines::evaluate_contains(s, r, text, *exact, *presence_only)
            }
            CheckKind::Exit { code } => evaluate_exit(student, reference, *code),
            // Decided on the run as it was, before its inputs were placed (see `score`).
            CheckKind::Interactive => evaluate_interactive(false),
            // Decided on the instrumented run (see `score_sanitized`).
            CheckKind::Sanitizer => Evaluation::not_applicable(),
            CheckKind::Volume { max_ratio } => {
                let (s, r) = views.get();
                lines::evaluate_volume(s, r, *max_ratio)
            }
            CheckKind::Custom { check, .. } => check.evaluate(views, student, reference),
        }
    }
}

/// A program that read all its input before printing cannot be played at a terminal (it
/// waits for all of the input first); what it printed is graded by the other checks either way.
fn evaluate_interactive(read_first: bool) -> Evaluation {
    if read_first {
        Evaluation::fail(
            "read all of its input before printing anything: at a terminal it cannot be played \
             (it waits for all of the input first)",
            Difference {
                location: "the whole run".into(),
                expected: "each answer printed after the input it answers".into(),
                actual: "every input read before anything was printed".into(),
                inputs_before: 0,
                relaxation: None,
                student_line: None,
            },
        )
    } else {
        Evaluation::pass("printed as it played")
    }
}

/// The game must end when the reference's does: not before (exiting with input unread, or
/// at a point where the reference still asks for input) and not after (still asking).
fn evaluate_exit(student: &StudentRun, reference: &Recording, code: bool) -> Evaluation {
    let sent = student.transcript.input_count();
    let difference = |expected: &str, actual: String| Difference {
        location: "end of the run".into(),
        expected: expected.into(),
        actual,
        inputs_before: sent,
        relaxation: None,
        student_line: None,
    };
    if reference.wanted_more_input {
        // The reference was still playing when the script ran out.
        return match student.exited {
            None if student.waiting_for_input => {
                Evaluation::pass("still asking for input, like the reference")
            }
            None => Evaluation::fail(
                "did not ask for more input when the script ended",
                difference(
                    "asks for more input",
                    "stopped without asking for input".into(),
                ),
            ),
            Some(status) => Evaluation::fail(
                format!("ended (status {status}) while the reference was still playing"),
                difference(
                    "the game goes on and asks for more input",
                    format!("the program ended with status {status} after {sent} input line(s)"),
                ),
            ),
        };
    }
    if let Some(on) = played_on_after_the_game(student, reference) {
        return on.game.failed_exit(
            on.detail(),
            format!(
                "it read input {} (\"{}\"), answered it and asked for more",
                on.game.over_after + 1,
                on.next
            ),
        );
    }
    if let Some(silent) = read_on_silently(student, reference) {
        return silent
            .game
            .failed_exit(silent.detail(), silent.what_it_did());
    }
    let reference_read = reference.transcript.input_count();
    match student.exited {
        // The reference read more: a driven game the program left early.
        Some(status) if sent < reference_read => Evaluation::fail(
            format!("ended after {sent} input line(s); the reference's game read {reference_read}"),
            difference(
                "the game goes on until it is over",
                format!("the program ended with status {status} after {sent} input line(s)"),
            ),
        ),
        Some(status) if student.unread_inputs > 0 && reference.unread_lines == 0 => {
            Evaluation::fail(
                format!(
                    "ended early with {} input line(s) unread",
                    student.unread_inputs
                ),
                difference(
                    "the game reads every input line before it ends",
                    format!(
                        "ended (status {status}) with {} line(s) unread",
                        student.unread_inputs
                    ),
                ),
            )
        }
        _ if pause_after_the_game(student, reference) => {
            Evaluation::pass(match student.after_script.is_some_and(|a| a.prompt_shown) {
                true => {
                    "ended at end of input after the game was over: it asked for more input \
                     (a final \"press Enter\"?) and ended when none came, as at a terminal"
                }
                false => "read on to the end of its input after the game, then ended",
            })
        }
        Some(status) if code && status != 0 => Evaluation::fail(
            format!("exited with status {status}"),
            difference("exit status 0", format!("exit status {status}")),
        ),
        Some(_) => Evaluation::pass("ended when the reference did"),
        None if student.waiting_for_input => Evaluation::fail(
            format!(
                "kept asking for input after the game should have ended{}",
                where_it_ended(reference)
            ),
            difference("the game ends", "the program asked for more input".into()),
        ),
        None => Evaluation::fail(
            "did not end by itself",
            difference("the game ends", "the program had to be stopped".into()),
        ),
    }
}

/// Evaluates every check of a case and shares `points` among the applicable ones by weight.
pub fn score(
    checks: &[Check],
    student: &StudentRun,
    reference: &Recording,
    points: f64,
) -> Vec<CheckResult> {
    score_sanitized(checks, student, reference, points, None)
}

/// [`score`] with the verdict of the case's instrumented run for its `sanitizer` check (none:
/// not applicable, as for a program in another language).
pub fn score_sanitized(
    checks: &[Check],
    student: &StudentRun,
    reference: &Recording,
    points: f64,
    sanitizer: Option<&Evaluation>,
) -> Vec<CheckResult> {
    let read_first = read_all_input_first(student);
    let (transcript, placed) = settled(student, reference);
    let settled_run = StudentRun {
        transcript: &transcript,
        // Its inputs now stand where the reference's do.
        prompts_late: student.prompts_late && !placed,
        ..*student
    };
    let results = score_run(
        checks,
        &settled_run,
        reference,
        points,
        read_first,
        sanitizer,
    );
    if !placed {
        return results;
    }
    // Output that came all at once after the inputs is also what a program that never
    // flushes prints (it was played at a terminal, its prompts held back): compared the way
    // such a program is, message by message, it may do better. Either reading is fair.
    let as_printed = score_run(checks, student, reference, points, read_first, sanitizer);
    let total = |results: &[CheckResult]| results.iter().map(|c| c.score).sum::<f64>();
    if total(&as_printed) >= total(&results) {
        as_printed
    } else {
        results
    }
}

/// [`score`] on the run as the checks compare it.
fn score_run(
    checks: &[Check],
    student: &StudentRun,
    reference: &Recording,
    points: f64,
    read_first: bool,
    sanitizer: Option<&Evaluation>,
) -> Vec<CheckResult> {
    let views = CaseViews::new(student, &reference.transcript);
    let evaluations: Vec<Evaluation> = checks
        .iter()
        .map(|c| match c.kind {
            CheckKind::Interactive => evaluate_interactive(read_first),
            CheckKind::Sanitizer => sanitizer
                .cloned()
                .unwrap_or_else(Evaluation::not_applicable),
            _ => c.evaluate(&views, student, reference),
        })
        .collect();
    // Messages and the ending count only in a game: when the case has `game` checks and the
    // program printed none of their items after a move, the others earn nothing.
    let gates: Vec<(&Check, &Evaluation)> = checks
        .iter()
        .zip(&evaluations)
        .filter(|(c, e)| c.kind.is_game() && !e.not_applicable)
        .collect();
    let no_game = !gates.is_empty() && gates.iter().all(|(_, e)| !e.passed && !e.in_game);
    let no_game_why = if no_game {
        no_game_reason(&gates)
    } else {
        String::new()
    };
    let total_weight: f64 = checks
        .iter()
        .zip(&evaluations)
        .filter(|(_, e)| !e.not_applicable)
        .map(|(c, _)| c.weight)
        .sum();
    checks
        .iter()
        .zip(evaluations)
        .map(|(check, mut evaluation)| {
            if no_game && evaluation.partial > 0.0 && !evaluation.passed {
                // The start alone (a first board, the first matches) earns its points once,
                // in the case about it, not again in every game case.
                evaluation.partial = 0.0;
                evaluation.detail = format!(
                    "{}, but without a move played they earn no share ({no_game_why})",
                    evaluation.detail
                );
            }
            if no_game && !check.kind.is_game() && evaluation.passed && !evaluation.not_applicable {
                evaluation.passed = false;
                evaluation.detail = format!(
                    "counts only in a game, and {no_game_why} ({})",
                    evaluation.detail
                );
            }
            let max_score = if evaluation.not_applicable || total_weight <= 0.0 {
                0.0
            } else {
                points * check.weight / total_weight
            };
            CheckResult {
                name: check.name.clone(),
                kind: check.kind.name().to_string(),
                passed: evaluation.passed,
                score: if evaluation.passed {
                    max_score
                } else {
                    max_score * evaluation.partial.clamp(0.0, 1.0)
                },
                max_score,
                // A hidden case's details are redacted where reports are written
                // (`report::for_students`), the one place that decides what students see.
                detail: evaluation.detail,
                difference: evaluation.difference,
                rule: check.rule.clone(),
            }
        })
        .collect()
}

/// What the program printed of the game checks' items when the gate finds no game, in
/// words that are true of the run: none at all, all of them before it read any input, or
/// only the start (items only where the reference shows its first, as nim's matches after
/// "y"; Silver Dollar's one strip).
fn no_game_reason(gates: &[(&Check, &Evaluation)]) -> String {
    let mut nouns: Vec<&str> = Vec::new();
    for (check, _) in gates {
        let noun = match &check.kind {
            CheckKind::Lines { items, .. } => items.as_str(),
            CheckKind::Board(_) => "boards",
            CheckKind::Custom { check, .. } => match check.game_items() {
                Some(noun) => noun,
                None => continue,
            },
            _ => continue,
        };
        if !nouns.contains(&noun) {
            nouns.push(noun);
        }
    }
    let nouns = match nouns.split_last() {
        None => "game items".to_string(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    };
    let items: usize = gates.iter().map(|(_, e)| e.shown.items).sum();
    let after_input: usize = gates.iter().map(|(_, e)| e.shown.after_input).sum();
    // Where only one registered kind gates the case, it says what an unchanged start means.
    let unchanged = gates
        .iter()
        .map(|(check, _)| match &check.kind {
            CheckKind::Custom { check, .. } => check.unchanged_items(),
            _ => None,
        })
        .reduce(|a, b| if a == b { a } else { None })
        .flatten();
    if items == 0 {
        format!("the program printed no {nouns}")
    } else if after_input == 0 {
        format!("the program printed its {nouns} only before it read any input")
    } else if let Some(unchanged) = unchanged {
        unchanged.to_string()
    } else {
        format!(
            "the program printed {nouns} only at the start, where the reference shows its \
             first, and none after any other input"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{record, Setup};
    use crate::transcript::Stream;

    fn student<'a>(transcript: &'a Transcript, exited: Option<i32>) -> StudentRun<'a> {
        StudentRun {
            transcript,
            exited,
            waiting_for_input: exited.is_none(),
            prompts_late: false,
            unread_inputs: 0,
            after_script: None,
            samples: &[],
        }
    }

    #[test]
    fn leaving_a_driven_game_early_fails_the_exit_check() {
        // The reference read three lines and finished its game; the program read one and left.
        let strip = crate::assignments::silver_dollar::game::parse_strip("_ _ 0").expect("strip");
        let setup = Setup::new(crate::assignments::silver_dollar::game::Start::Strip(strip));
        let reference = record(&setup, &["1", "0 1", "0 1"]).expect("the reference plays");
        assert!(!reference.wanted_more_input);
        let mut t = Transcript::new();
        t.push_output(Stream::Stdout, b"Remove: ");
        t.push_input("3");
        let e = evaluate_exit(&student(&t, Some(0)), &reference, false);
        assert!(!e.passed);
        assert_eq!(
            e.detail,
            "ended after 1 input line(s); the reference's game read 3"
        );
        // Read as much as the reference and ended: the same ending.
        let mut full = Transcript::new();
        for line in reference.transcript.inputs() {
            full.push_input(line);
        }
        assert!(evaluate_exit(&student(&full, Some(0)), &reference, false).passed);
        let e = evaluate_exit(&student(&full, Some(3)), &reference, true);
        assert_eq!(e.detail, "exited with status 3");
    }

    #[test]
    fn a_late_slip_in_a_sequence_costs_only_its_share() {
        // Player first, taking 3, 2, 3: the computer removes 1 (18 → 17), 2 (15 → 13) and
        // 1 (10 → 9). The student's third move is 3 instead: 2 of 3 moves match before the
        // first difference, so the check earns 2/3 of its 9 points = 6.
        let reference = record(
            &Setup::new(crate::assignments::nim::game::NewGame::HANDOUT),
            &["y", "3", "2", "3"],
        )
        .expect("the reference plays");
        let mut seen = 0;
        let mut t = Transcript::new();
        for event in reference.transcript.events() {
            match event {
                crate::transcript::Event::Output { stream, bytes } => {
                    let mut text = String::from_utf8_lossy(bytes).into_owned();
                    if text.contains("Computer removes") {
                        seen += 1;
                        if seen == 3 {
                            text = text.replace("Computer removes 1.", "Computer removes 3.");
                        }
                    }
                    t.push_output(*stream, text.as_bytes());
                }
                crate::transcript::Event::Input { line } => t.push_input(line),
                crate::transcript::Event::InputClosed => {}
            }
        }
        assert_eq!(seen, 3);
        let checks = vec![Check {
            rule: None,
            name: "computer-moves".into(),
            weight: 1.0,
            kind: CheckKind::Lines {
                pattern: Arc::new(
                    pattern::Pattern::new(r"(?i)computer\s+removes?\D*(\d+)", false)
                        .expect("regex"),
                ),
                rules: ItemRules {
                    numbers: true,
                    ignore_case: true,
                    ignore_punctuation: false,
                },
                dedup: false,
                compare: Compare::Sequence,
                optional: false,
                at_inputs: false,
                free_elsewhere: false,
                any_wording: false,
                game: false,
                item: "move".into(),
                items: "moves".into(),
            },
        }];
        let run = StudentRun {
            waiting_for_input: true,
            ..student(&t, None)
        };
        let results = score(&checks, &run, &reference, 9.0);
        assert!(!results[0].passed);
        assert!(
            (results[0].score - 6.0).abs() < 1e-9,
            "{}",
            results[0].score
        );
        assert!(
            results[0]
                .detail
                .ends_with("2 of 3 moves agree before the first difference"),
            "{}",
            results[0].detail
        );
        // The same moves all printed before the first input (without playing) earn nothing.
        let mut dumped = Transcript::new();
        dumped.push_output(
            Stream::Stdout,
            b"Computer removes 1.\nComputer removes 2.\nComputer removes 3.\n",
        );
        let results = score(&checks, &student(&dumped, Some(0)), &reference, 9.0);
        assert_eq!(results[0].score, 0.0);
    }

    #[test]
    fn without_a_game_the_other_checks_earn_nothing() {
        // Player first, taking 3: the reference shows "Player Turn" after "y" and asks again.
        let reference = record(
            &Setup::new(crate::assignments::nim::game::NewGame::HANDOUT),
            &["y", "3"],
        )
        .expect("the reference plays");
        let game = Check {
            rule: None,
            name: "turn-order".into(),
            weight: 1.0,
            kind: CheckKind::Lines {
                pattern: Arc::new(
                    pattern::Pattern::new(r"(?i)\b(player|computer)\s*turn\b", false)
                        .expect("regex"),
                ),
                rules: ItemRules {
                    numbers: false,
                    ignore_case: true,
                    ignore_punctuation: false,
                },
                dedup: true,
                compare: Compare::Sequence,
                optional: false,
                at_inputs: false,
                free_elsewhere: false,
                any_wording: false,
                game: true,
                item: "turn".into(),
                items: "turns".into(),
            },
        };
        let checks = vec![
            game,
            Check {
                rule: None,
                name: "exit".into(),
                weight: 3.0,
                kind: CheckKind::Exit { code: false },
            },
        ];
        // Reads both answers, prints nothing, still asks: the exit check alone would pass
        // (3 of 4 points), but no turn was shown after an input: 0.
        let mut silent = Transcript::new();
        silent.push_input("y");
        silent.push_input("3");
        let run = StudentRun {
            waiting_for_input: true,
            ..student(&silent, None)
        };
        let results = score(&checks, &run, &reference, 4.0);
        assert_eq!(results[1].score, 0.0);
        assert!(
            results[1]
                .detail
                .starts_with("counts only in a game, and the program printed no turns ("),
            "{}",
            results[1].detail
        );
        // The first turn alone, shown after "y" as the reference's is, is the start, not a
        // game (issue 20, credit once): nothing.
        let mut start = Transcript::new();
        start.push_input("y");
        start.push_output(Stream::Stdout, b"Player Turn - Matches: |||\n");
        start.push_input("3");
        let run = StudentRun {
            waiting_for_input: true,
            ..student(&start, None)
        };
        let results = score(&checks, &run, &reference, 4.0);
        assert_eq!((results[0].score, results[1].score), (0.0, 0.0));
        assert!(
            results[1].detail.starts_with(
                "counts only in a game, and the program printed turns only at the start, \
                 where the reference shows its first, and none after any other input"
            ),
            "{}",
            results[1].detail
        );
        // A wrong turn shown after a move is a game (with a bug): the exit check counts.
        let mut wrong = Transcript::new();
        wrong.push_input("y");
        wrong.push_output(Stream::Stdout, b"Player Turn - Matches: |||\n");
        wrong.push_input("3");
        wrong.push_output(Stream::Stdout, b"Player Turn - Matches: |||\n");
        let run = StudentRun {
            waiting_for_input: true,
            ..student(&wrong, None)
        };
        let results = score(&checks, &run, &reference, 4.0);
        assert!(!results[0].passed);
        assert_eq!(results[1].score, 3.0);
    }

    #[test]
    fn a_program_that_takes_a_guess_the_reference_refuses_has_played() {
        // Issue 32: the reference refuses "12" (too short) and scores "1234"; a program that
        // scores "12" too printed its first score line before the reference's. It played (a
        // buggy game): its ending counts, and its feedback names the input it took.
        let scores = Check {
            name: "scores".into(),
            weight: 1.0,
            rule: None,
            kind: CheckKind::Lines {
                pattern: Arc::new(
                    pattern::Pattern::new(r"(?i)score\D*(\d+)", false).expect("regex"),
                ),
                rules: ItemRules::default(),
                dedup: false,
                compare: Compare::Sequence,
                optional: false,
                at_inputs: false,
                free_elsewhere: false,
                any_wording: false,
                game: true,
                item: "score line".into(),
                items: "score lines".into(),
            },
        };
        let checks = vec![
            scores,
            Check {
                name: "exit".into(),
                weight: 1.0,
                rule: None,
                kind: CheckKind::Exit { code: false },
            },
        ];
        let mut r = Transcript::new();
        r.push_output(Stream::Stdout, b"Guess: ");
        r.push_input("12");
        r.push_output(Stream::Stdout, b"Four digits, please.\nGuess: ");
        r.push_input("1234");
        r.push_output(Stream::Stdout, b"Score: 4\nYou win\n");
        let reference = Recording {
            transcript: r,
            wanted_more_input: false,
            unread_lines: 0,
        };
        let mut took = Transcript::new();
        took.push_output(Stream::Stdout, b"Guess: ");
        took.push_input("12");
        took.push_output(Stream::Stdout, b"Score: 0\nGuess: ");
        took.push_input("1234");
        took.push_output(Stream::Stdout, b"Score: 4\nYou win\n");
        let results = score(&checks, &student(&took, Some(0)), &reference, 2.0);
        // Worked by hand: the scores differ at the first (0 for 4), so they earn nothing;
        // the program ended when the reference did, after both inputs: the exit's 1 of 2.
        assert_eq!((results[0].score, results[1].score), (0.0, 1.0));
        assert!(results[1].passed, "{}", results[1].detail);
        assert!(
            results[0].detail.contains(
                "printed after input 1 (\"12\"), where the reference printed no new score line"
            ),
            "{}",
            results[0].detail
        );
        assert!(results
            .iter()
            .all(|r| !r.detail.contains("counts only in a game")));

        // The same scores all printed before the first input (without playing): no game, and
        // the gate says what happened.
        let mut dumped = Transcript::new();
        dumped.push_output(Stream::Stdout, b"Score: 0\nScore: 4\nYou win\n");
        dumped.push_input("12");
        dumped.push_input("1234");
        let results = score(&checks, &student(&dumped, Some(0)), &reference, 2.0);
        assert_eq!(results[1].score, 0.0);
        assert!(
            results[1].detail.starts_with(
                "counts only in a game, and the program printed its score lines only before \
                 it read any input"
            ),
            "{}",
            results[1].detail
        );
        // Nothing at all.
        let mut silent = Transcript::new();
        silent.push_input("12");
        silent.push_input("1234");
        let results = score(&checks, &student(&silent, Some(0)), &reference, 2.0);
        assert!(
            results[1]
                .detail
                .starts_with("counts only in a game, and the program printed no score lines"),
            "{}",
            results[1].detail
        );
    }

    #[test]
    fn points_are_shared_by_weight_among_applicable_checks() {
        let checks = vec![
            Check {
                rule: None,
                name: "a".into(),
                weight: 3.0,
                kind: CheckKind::Exit { code: false },
            },
            Check {
                rule: None,
                name: "never-printed".into(),
                weight: 5.0,
                kind: CheckKind::Contains {
                    text: "zzz-not-there".into(),
                    exact: false,
                    presence_only: false,
                },
            },
            Check {
                rule: None,
                name: "b".into(),
                weight: 1.0,
                kind: CheckKind::Exit { code: false },
            },
        ];
        let reference = record(
            &Setup::new(crate::assignments::nim::game::NewGame::HANDOUT),
            &["3"],
        )
        .expect("the reference plays");
        let mut t = Transcript::new();
        t.push_input("3");
        let run = StudentRun {
            waiting_for_input: true,
            ..student(&t, None)
        };
        let results = score(&checks, &run, &reference, 8.0);
        // "never-printed" appears on neither side: left out, its weight given to the others.
        assert_eq!(results[1].max_score, 0.0);
        assert_eq!(results[0].max_score, 6.0);
        assert_eq!(results[2].max_score, 2.0);
    }

    #[test]
    fn the_exit_check_decides_each_ending() {
        let recording = |wanted_more_input, unread_lines| Recording {
            transcript: Transcript::new(),
            wanted_more_input,
            unread_lines,
        };
        let still_playing = recording(true, 0);
        let over = recording(false, 0);
        let over_with_lines_to_spare = recording(false, 2);
        let t = Transcript::new();
        let run = |exited, waiting_for_input, unread_inputs| StudentRun {
            transcript: &t,
            exited,
            waiting_for_input,
            prompts_late: false,
            unread_inputs,
            after_script: None,
            samples: &[],
        };
        let detail = |run: StudentRun, reference: &Recording, code| {
            let e = evaluate_exit(&run, reference, code);
            (e.passed, e.detail)
        };
        // The script ran out while the reference was still playing: asking again is right.
        assert!(detail(run(None, true, 0), &still_playing, false).0);
        assert_eq!(
            detail(run(None, false, 0), &still_playing, false),
            (
                false,
                "did not ask for more input when the script ended".into()
            )
        );
        assert_eq!(
            detail(run(Some(0), false, 0), &still_playing, false),
            (
                false,
                "ended (status 0) while the reference was still playing".into()
            )
        );
        // The game was over: ending is right, with any status unless the case checks it.
        assert!(detail(run(Some(0), false, 0), &over, true).0);
        assert!(detail(run(Some(1), false, 0), &over, false).0);
        assert_eq!(
            detail(run(Some(1), false, 0), &over, true),
            (false, "exited with status 1".into())
        );
        // Lines left unread: wrong when the reference read them all, fine when it did not.
        assert_eq!(
            detail(run(Some(0), false, 2), &over, false),
            (false, "ended early with 2 input line(s) unread".into())
        );
        assert!(detail(run(Some(0), false, 2), &over_with_lines_to_spare, false).0);
        // Not ending at all.
        assert_eq!(
            detail(run(None, true, 0), &over, false),
            (
                false,
                "kept asking for input after the game should have ended".into()
            )
        );
        assert_eq!(
            detail(run(None, false, 0), &over, false),
            (false, "did not end by itself".into())
        );
    }

    #[test]
    fn late_prompts_compare_messages_by_count_not_place() {
        let check = |at_inputs, compare| Check {
            rule: None,
            name: "illegal".into(),
            weight: 1.0,
            kind: CheckKind::Lines {
                pattern: Arc::new(pattern::Pattern::new(r"(?i)illegal", false).expect("regex")),
                rules: ItemRules {
                    numbers: false,
                    ignore_case: true,
                    ignore_punctuation: false,
                },
                dedup: false,
                compare,
                optional: false,
                at_inputs,
                free_elsewhere: false,
                any_wording: false,
                game: false,
                item: "move".into(),
                items: "moves".into(),
            },
        };
        let mut r = Transcript::new();
        r.push_output(Stream::Stdout, b"Move: ");
        r.push_input("9");
        r.push_output(Stream::Stdout, b"Illegal move!\nMove: ");
        r.push_input("1");
        r.push_output(Stream::Stdout, b"Done\n");
        let reference = Recording {
            transcript: r,
            wanted_more_input: false,
            unread_lines: 0,
        };
        // Everything printed after both inputs were read: the message cannot be placed.
        let mut late = Transcript::new();
        late.push_input("9");
        late.push_input("1");
        late.push_output(Stream::Stdout, b"Move: Illegal move!\nMove: Done\n");
        let run = |transcript, prompts_late| StudentRun {
            prompts_late,
            ..student(transcript, Some(0))
        };
        let passed = |check: &Check, run: &StudentRun| {
            score(std::slice::from_ref(check), run, &reference, 1.0)[0].passed
        };
        let placed = check(true, Compare::Presence);
        assert!(passed(&placed, &run(&late, true)));
        assert!(!passed(&placed, &run(&late, false)));
        // Without `at_inputs` a late program keeps its comparison: twice is as good as once
        // where only presence counts.
        let mut twice = Transcript::new();
        twice.push_input("9");
        twice.push_input("1");
        twice.push_output(Stream::Stdout, b"Illegal!\nIllegal!\nDone\n");
        assert!(passed(&check(false, Compare::Presence), &run(&twice, true)));
        assert!(!passed(&check(false, Compare::Count), &run(&twice, true)));
    }

    #[test]
    fn a_late_run_keeps_its_messages_in_its_own_words_where_they_were_printed() {
        // Two prompts held back (never flushed): the run counts as late, yet the message in
        // its own words still follows the refused input.
        let check = Check {
            rule: None,
            name: "error-reported".into(),
            weight: 1.0,
            kind: CheckKind::Lines {
                pattern: Arc::new(
                    pattern::Pattern::new(r"(?i)(error|already|must be)", false).expect("regex"),
                ),
                rules: ItemRules::default(),
                dedup: false,
                compare: Compare::Presence,
                optional: false,
                at_inputs: true,
                free_elsewhere: true,
                any_wording: true,
                game: false,
                item: "message".into(),
                items: "messages".into(),
            },
        };
        let mut r = Transcript::new();
        for (prompt, answer) in [("Number? ", "12"), ("Position? ", "1")] {
            r.push_output(Stream::Stdout, prompt.as_bytes());
            r.push_input(answer);
        }
        r.push_output(Stream::Stdout, b"The number must be from 0 to 9.\nNumber? ");
        r.push_input("5");
        r.push_output(Stream::Stdout, b"Position? ");
        r.push_input("1");
        r.push_output(Stream::Stdout, b"Board 5\n");
        let reference = Recording {
            transcript: r,
            wanted_more_input: false,
            unread_lines: 0,
        };
        let held = |message: &[u8]| {
            let mut t = Transcript::new();
            t.push_input("12");
            t.push_input("1");
            t.push_output(Stream::Stdout, b"Number? Position? ");
            t.push_output(Stream::Stdout, message);
            t.push_input("5");
            t.push_input("1");
            t.push_output(Stream::Stdout, b"Number? Position? Board 5\n");
            t
        };
        let own_words = held(b"*** 0 to 9 only, please.\n");
        let silent = held(b"");
        let run = |transcript| StudentRun {
            prompts_late: true,
            ..student(transcript, Some(0))
        };
        let passed =
            |run: &StudentRun| score(std::slice::from_ref(&check), run, &reference, 1.0)[0].passed;
        assert!(passed(&run(&own_words)));
        assert!(!passed(&run(&silent)));
    }

    /// cases/m's `error-reported` check: free wording, placed after the refused input, and a
    /// pattern (the handout's vocabulary) that none of a terse program's messages match.
    fn m_error_reported() -> Check {
        Check {
            rule: None,
            name: "error-reported".into(),
            weight: 2.0,
            kind: CheckKind::Lines {
                pattern: Arc::new(
                    pattern::Pattern::new(
                        r"^[^?]*\b(?:already|used|taken|occupied|empty|invalid|error|must|range|between|illegal|not allowed|integer|try again|full|filled|wrong|cannot|can.t)\b[^?]*$",
                        false,
                    )
                    .expect("regex"),
                ),
                rules: ItemRules::default(),
                dedup: false,
                compare: Compare::Presence,
                optional: false,
                at_inputs: true,
                free_elsewhere: true,
                any_wording: true,
                game: false,
                item: "message".into(),
                items: "messages".into(),
            },
        }
    }

    /// The Game of M's board as correct programs print it, with the score line before it.
    fn m_board(score: &str, cells: &str) -> String {
        format!("Score: {score}\n\nPosition: 1 2 3 4 5 6 7 8 9 10\n          {cells}\n\n")
    }

    /// Both prompts of a Game of M turn, as a program that never flushes them prints them.
    fn m_prompts(player: u8) -> String {
        format!("Player {player}: Your number? Position to insert at? ")
    }

    /// A program that never flushes its prompts (the style tests' "unflushed"): the start,
    /// then for each pair of answers what came out after them.
    fn held_back(start: &str, rounds: &[([&str; 2], String)]) -> Transcript {
        let mut t = Transcript::new();
        t.push_output(Stream::Stdout, start.as_bytes());
        for (answers, output) in rounds {
            for answer in answers {
                t.push_input(*answer);
            }
            t.push_output(Stream::Stdout, output.as_bytes());
        }
        t
    }

    #[test]
    fn a_late_run_keeps_a_terse_message_printed_after_its_held_prompts() {
        // tests/programs/m/correct_terse.py with its prompts never flushed (the fairness
        // test's "unflushed" style) on the out-of-range case: both prompts of a turn come out
        // together after their answers, and a refusal's message ("12?!", "-1?!") joins the
        // line they are on; accepted answers put the score line there instead.
        let check = m_error_reported();
        let inputs = [
            "12", "10", "9", "10", "0", "11", "0", "9", "-1", "10", "4", "1",
        ];
        let reference = record(&Setup::new(crate::assignments::m::game::NewGame), &inputs)
            .expect("the reference plays");
        let late = |messages: [&str; 3]| {
            held_back(
                &m_board("0 to 0", "| | | | | | | | | |"),
                &[
                    (["12", "10"], m_prompts(1) + messages[0]),
                    (
                        ["9", "10"],
                        m_prompts(1) + &m_board("1 to 0", "| | | | | | | | | 9 |"),
                    ),
                    (["0", "11"], m_prompts(2) + messages[1]),
                    (
                        ["0", "9"],
                        m_prompts(2) + &m_board("1 to 2", "| | | | | | | | 0 | 9 |"),
                    ),
                    (["-1", "10"], m_prompts(1) + messages[2]),
                    (
                        ["4", "1"],
                        m_prompts(1) + &m_board("2 to 2", "4 | | | | | | | | 0 | 9 |"),
                    ),
                ],
            )
        };
        let result = |transcript: &Transcript| {
            let run = StudentRun {
                prompts_late: true,
                ..student(transcript, Some(1))
            };
            score(std::slice::from_ref(&check), &run, &reference, 2.0).remove(0)
        };
        let terse = late(["12?!\n", "11?!\n", "-1?!\nFeld 10 ist besetzt.\n"]);
        let kept = result(&terse);
        assert!(kept.passed, "{}", kept.detail);
        // Asking again without a word still loses the points: the held prompts alone, ended
        // by a line break or followed by the next turn's held prompt, are no message.
        for silent in [
            late(["", "", ""]),
            late(["\n", "\n", "\n"]),
            late([
                "Player 1: Your number? \n",
                "Player 2: Your number? \n",
                "Player 1: Your number? \n",
            ]),
        ] {
            assert!(!result(&silent).passed, "{silent:?}");
        }
        // One refusal answered in silence of three: not every message is there.
        assert!(!result(&late(["12?!\n", "", "-1?!\n"])).passed);
    }

    #[test]
    fn a_late_run_asking_again_in_silence_loses_the_message_points() {
        // tests/programs/m/buggy_silent_reprompt.py with its prompts never flushed, on the
        // occupied-position case: once the inputs are left out, the reference's message runs
        // on after its prompt ("Position to insert at? That position is not empty.") and
        // the handout's words find nothing to count on either side; the refused input's
        // place still shows that the program said nothing there.
        let check = m_error_reported();
        let inputs = ["1", "3", "6", "7", "3", "7", "3", "4", "8", "8"];
        let reference = record(&Setup::new(crate::assignments::m::game::NewGame), &inputs)
            .expect("the reference plays");
        let late = |refused: &str, after: String| {
            held_back(
                &m_board("0 to 0", "| | | | | | | | | |"),
                &[
                    (
                        ["1", "3"],
                        m_prompts(1) + &m_board("1 to 0", "| | 1 | | | | | | | |"),
                    ),
                    (
                        ["6", "7"],
                        m_prompts(2) + &m_board("1 to 1", "| | 1 | | | | 6 | | | |"),
                    ),
                    (["3", "7"], refused.to_string()),
                    (
                        ["3", "4"],
                        after + &m_board("3 to 1", "| | 1 | 3 | | | 6 | | | |"),
                    ),
                    (
                        ["8", "8"],
                        m_prompts(2) + &m_board("3 to 2", "| | 1 | 3 | | | 6 | 8 | | |"),
                    ),
                ],
            )
        };
        let result = |transcript: &Transcript| {
            let run = StudentRun {
                prompts_late: true,
                ..student(transcript, None)
            };
            score(std::slice::from_ref(&check), &run, &reference, 2.0).remove(0)
        };
        // Silent: the prompts asked again stay held with the first ones until the next line.
        let silent = result(&late("", m_prompts(1) + &m_prompts(1)));
        assert!(!silent.passed, "{}", silent.detail);
        assert_eq!(silent.score, 0.0);
        // With a message of its own after the held prompts: full marks.
        let told = result(&late(
            &(m_prompts(1) + "Feld 7 ist besetzt.\n"),
            m_prompts(1),
        ));
        assert!(told.passed, "{}", told.detail);
    }

    #[test]
    fn kinds_keep_the_names_case_files_use() {
        let names: Vec<&str> = [
            CheckKind::Volume { max_ratio: 2.0 },
            CheckKind::Exit { code: false },
        ]
        .iter()
        .map(CheckKind::name)
        .collect();
        assert_eq!(names, ["volume", "exit"]);
        let board = |game| {
            CheckKind::Board(board::BoardSpec {
                cell: regex::Regex::new("^[XO]$").expect("regex"),
                empty: None,
                labels: false,
                first_optional: false,
                game,
            })
        };
        assert!(board(true).is_game());
        assert!(!board(false).is_game());
        assert_eq!(board(true).name(), "board");
    }
}
