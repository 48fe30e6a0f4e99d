//! Driving Silver Dollar move by move from the program's own random strip.
//!
//! The driver types the coin count, reads the strip the program draws (any drawing style, see
//! [`super::strip`]), and from then on mirrors the reference game on that strip: each move it
//! types is computed from the mirrored state by the case's strategy, and the same lines later
//! replay the reference on the same strip (`--board`), so every check compares like with like.

use std::sync::Arc;

use serde::Deserialize;

use crate::assignments::silver_dollar::game::{parse_strip, CoinStrip, Start as GameStart};
use super::strip::{self, Start};
use crate::drive::{self, InputStrategy, ReferenceStart};
use crate::games::{Setup, SplitMix64};
use crate::run::InputSource;
use crate::transcript::Transcript;

/// `drive:` — Silver Dollar played move by move from the program's own strip.
#[derive(Debug, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub struct DriveSpec {
    /// The coin count typed first.
    pub coins: usize,
    /// How legal moves are chosen: smallest, largest, winning or random.
    pub strategy: Strategy,
    /// Seed of the random strategy (default 0).
    #[serde(default)]
    pub seed: u64,
    /// Illegal moves typed before legal ones, each once, as soon as the game allows it:
    /// missing_coin, zero_distance, negative_distance, pass_neighbour, land_on_neighbour,
    /// off_edge, malformed.
    #[serde(default)]
    pub illegal: Vec<Illegal>,
    /// Moves typed at most (default 1000).
    #[serde(default)]
    pub max_moves: Option<usize>,
}

/// How the driver chooses legal moves.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Strategy {
    /// The smallest legal move (one square) of the highest coin that can move.
    Smallest,
    /// The legal move that covers the most squares (the highest coin among equals).
    Largest,
    /// A winning move (nim-sum of the gaps) when there is one, else the smallest move.
    Winning,
    /// A random legal move, from the plan's seed.
    Random,
}

/// An illegal move the driver may type before a legal one.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Illegal {
    /// A coin that doesn't exist (the handout's "5 3").
    MissingCoin,
    /// A distance of 0.
    ZeroDistance,
    /// A negative distance.
    NegativeDistance,
    /// Jumping over the neighbour on the left onto an empty square.
    PassNeighbour,
    /// Landing on the neighbour on the left.
    LandOnNeighbour,
    /// Moving past the left edge of the strip.
    OffEdge,
    /// A line that is not two integers.
    Malformed,
}

/// Moves a driven case types at most unless its `drive:` block says otherwise.
pub const DEFAULT_MAX_MOVES: usize = 1000;

/// What a driven Silver Dollar case plays: the coin count, the strategy for legal moves and
/// the illegal moves to interleave.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The coin count typed first.
    pub coins: usize,
    /// How legal moves are chosen.
    pub strategy: Strategy,
    /// Seed of the random strategy.
    pub seed: u64,
    /// Illegal moves to type, each once, before a legal move, as soon as the game allows it.
    pub illegal: Vec<Illegal>,
    /// Moves (legal and illegal) typed at most, so a game always ends.
    pub max_moves: usize,
}

impl Plan {
    /// What the plan types, in a line.
    pub fn describe(&self) -> String {
        let strategy = match self.strategy {
            Strategy::Smallest => "the smallest legal move each turn".to_string(),
            Strategy::Largest => "the largest legal move each turn".to_string(),
            Strategy::Winning => "the winning move when there is one".to_string(),
            Strategy::Random => format!("random legal moves (seed {})", self.seed),
        };
        let illegal = if self.illegal.is_empty() {
            String::new()
        } else {
            let kinds: Vec<String> = self.illegal.iter().map(|k| format!("{k:?}")).collect();
            format!(", with the illegal moves {}", kinds.join(", "))
        };
        // (a cap below the default, as exploration's plans and their shrinking set)
        let cap = if self.max_moves < DEFAULT_MAX_MOVES {
            format!(", at most {} moves", self.max_moves)
        } else {
            String::new()
        };
        format!(
            "{} coins, then moves computed from the program's own strip: {strategy}{illegal}{cap}",
            self.coins
        )
    }

    /// A fresh player for one run.
    pub fn player(&self) -> Player {
        Player {
            plan: self.clone(),
            rng: SplitMix64::new(self.seed),
            phase: Phase::Coins,
            pending: self.illegal.clone(),
            typed: 0,
        }
    }
}

#[derive(Clone, Debug)]
enum Phase {
    /// The coin count has not been typed yet.
    Coins,
    /// Typed; the start is read at the first move prompt.
    Start,
    /// Playing on the mirrored reference strip; `illegal_turn` is true when this turn's
    /// illegal move has been typed.
    Playing {
        strip: CoinStrip,
        illegal_turn: bool,
    },
    /// Nothing more to type.
    Done,
}

/// The input source of one driven Silver Dollar run.
#[derive(Clone, Debug)]
pub struct Player {
    plan: Plan,
    rng: SplitMix64,
    phase: Phase,
    pending: Vec<Illegal>,
    typed: usize,
}

impl InputSource for Player {
    fn next_line(&mut self, transcript: &Transcript) -> Option<String> {
        match &mut self.phase {
            Phase::Coins => {
                self.phase = Phase::Start;
                Some(self.plan.coins.to_string())
            }
            Phase::Start => {
                let start = strip::find_start(transcript)?;
                let positions = match start.problem {
                    None => strip::legal_start(&start.squares, start.coins).ok(),
                    Some(_) => None,
                };
                let Some(positions) = positions else {
                    self.phase = Phase::Done;
                    return None;
                };
                let length = positions.last().map_or(0, |p| p + 1);
                self.phase = Phase::Playing {
                    strip: CoinStrip { positions, length },
                    illegal_turn: false,
                };
                self.next_move()
            }
            Phase::Playing { .. } => self.next_move(),
            Phase::Done => None,
        }
    }

    fn remaining(&self) -> usize {
        0
    }
}

impl Player {
    /// The next move on the mirrored strip, updating it as the reference game would.
    fn next_move(&mut self) -> Option<String> {
        let Phase::Playing {
            strip,
            illegal_turn,
        } = &mut self.phase
        else {
            return None;
        };
        if !strip.has_move() || self.typed >= self.plan.max_moves {
            self.phase = Phase::Done;
            return None;
        }
        self.typed += 1;
        if !*illegal_turn {
            if let Some(index) = self
                .pending
                .iter()
                .position(|kind| illegal_move(strip, *kind).is_some())
            {
                let kind = self.pending.remove(index);
                *illegal_turn = true;
                return illegal_move(strip, kind);
            }
        }
        let (coin, distance) = choose(strip, self.plan.strategy, &mut self.rng)?;
        strip.apply(coin, distance);
        *illegal_turn = false;
        Some(format!("{coin} {distance}"))
    }
}

/// Every legal move on `strip`, as (coin, distance).
pub fn legal_moves(strip: &CoinStrip) -> Vec<(usize, usize)> {
    let mut moves = Vec::new();
    for coin in 0..strip.positions.len() {
        let mut distance = 1;
        while strip.is_legal(coin, distance) {
            moves.push((coin, distance));
            distance += 1;
        }
    }
    moves
}

/// The gaps that make up the game's nim heaps: the empty squares in front of the last coin,
/// the third-last, and so on (a move of such a coin shrinks its heap; a move of the coin just
/// left of it grows it, which the next player can undo — staircase Nim).
fn heaps(strip: &CoinStrip) -> Vec<(usize, usize)> {
    let p = &strip.positions;
    (0..p.len())
        .rev()
        .step_by(2)
        .map(|coin| {
            let floor = if coin == 0 { 0 } else { p[coin - 1] + 1 };
            (coin, p[coin] - floor)
        })
        .collect()
}

/// A move that leaves the nim-sum of the heaps 0, if there is one.
pub fn winning_move(strip: &CoinStrip) -> Option<(usize, usize)> {
    let heaps = heaps(strip);
    let sum = heaps.iter().fold(0, |acc, &(_, h)| acc ^ h);
    if sum == 0 {
        return None;
    }
    heaps.into_iter().find_map(|(coin, heap)| {
        let target = heap ^ sum;
        (target < heap).then(|| (coin, heap - target))
    })
}

fn choose(strip: &CoinStrip, strategy: Strategy, rng: &mut SplitMix64) -> Option<(usize, usize)> {
    let smallest = || {
        (0..strip.positions.len())
            .rev()
            .find(|&coin| strip.is_legal(coin, 1))
            .map(|coin| (coin, 1))
    };
    match strategy {
        Strategy::Smallest => smallest(),
        Strategy::Largest => legal_moves(strip)
            .into_iter()
            .max_by_key(|&(coin, distance)| (distance, coin)),
        Strategy::Winning => winning_move(strip).or_else(smallest),
        Strategy::Random => {
            let moves = legal_moves(strip);
            if moves.is_empty() {
                return None;
            }
            let index = (rng.next_u64() % moves.len() as u64) as usize;
            moves.get(index).copied()
        }
    }
}

/// The line for an illegal move of `kind` on `strip`, if the position allows one.
pub fn illegal_move(strip: &CoinStrip, kind: Illegal) -> Option<String> {
    let p = &strip.positions;
    let coins = p.len();
    // The highest coin with a left neighbour and at least `room` squares left of it.
    let with_neighbour = |need_free_left_of_neighbour: bool| {
        (1..coins)
            .rev()
            .find(|&c| !need_free_left_of_neighbour || p[c - 1] >= 1 && !occupied(p, p[c - 1] - 1))
    };
    match kind {
        Illegal::MissingCoin => Some(format!("{} 3", coins.max(5))),
        Illegal::ZeroDistance => Some(format!("{} 0", coins - 1)),
        Illegal::NegativeDistance => Some(format!("{} -1", coins - 1)),
        Illegal::LandOnNeighbour => {
            with_neighbour(false).map(|c| format!("{c} {}", p[c] - p[c - 1]))
        }
        Illegal::PassNeighbour => {
            with_neighbour(true).map(|c| format!("{c} {}", p[c] - p[c - 1] + 1))
        }
        Illegal::OffEdge => Some(format!("0 {}", p.first()? + 1)),
        Illegal::Malformed => Some("one two".to_string()),
    }
}

fn occupied(positions: &[usize], square: usize) -> bool {
    positions.contains(&square)
}

impl InputStrategy for Plan {
    fn source(&self) -> Box<dyn InputSource + Send> {
        Box::new(self.player())
    }

    fn describe(&self) -> String {
        Plan::describe(self)
    }

    fn reference_start(&self, student: &Transcript) -> ReferenceStart {
        reference_start(student)
    }

    fn reaches_its_rule(&self, start: &ReferenceStart) -> bool {
        let setup = match start {
            ReferenceStart::Setup(setup) => setup,
            ReferenceStart::Finished(_) => return false,
            ReferenceStart::Unusable(_) => return true,
        };
        let mut player = self.player();
        // The built-in game plays every plan to its end: only what the player typed matters.
        drive::record_driven(setup, &mut player).is_ok() && player.pending.is_empty()
    }

    /// Fewer moves (an eighth, then half as many), each illegal move left out in turn, fewer
    /// coins (half, then one less): a smaller game that still shows a difference on a new strip.
    fn smaller(&self) -> Vec<Arc<dyn InputStrategy>> {
        let mut plans: Vec<Plan> = Vec::new();
        for moves in [self.max_moves / 8, self.max_moves / 2] {
            if moves >= 1 && moves < self.max_moves && plans.iter().all(|p| p.max_moves != moves)
            {
                plans.push(Plan {
                    max_moves: moves,
                    ..self.clone()
                });
            }
        }
        for index in 0..self.illegal.len() {
            let mut fewer = self.clone();
            fewer.illegal.remove(index);
            plans.push(fewer);
        }
        for coins in [self.coins / 2, self.coins.saturating_sub(1)] {
            if coins >= 1 && coins < self.coins {
                plans.push(Plan {
                    coins,
                    ..self.clone()
                });
            }
        }
        plans
            .into_iter()
            .map(|plan| Arc::new(plan) as Arc<dyn InputStrategy>)
            .collect()
    }

    fn start_args(&self, student: &Transcript) -> Vec<String> {
        match strip::find_start(student) {
            Some(start) if start.problem.is_none() => vec!["--board".into(), start.board()],
            _ => Vec::new(),
        }
    }
}

/// The reference setup for a finished Silver Dollar run: the program's own start.
pub fn reference_start(student: &Transcript) -> ReferenceStart {
    match strip::find_start(student) {
        None => ReferenceStart::Unusable("the program never asked for the number of coins".into()),
        Some(Start {
            problem: Some(problem),
            ..
        }) => ReferenceStart::Unusable(format!(
            "the game was not compared: the first strip is not a legal start ({})",
            problem.describe()
        )),
        Some(start) => match parse_strip(&start.board()) {
            Ok(squares) => {
                let finished = !CoinStrip::from_squares(&squares).has_move();
                let setup = Setup::new(GameStart::Strip(squares));
                if finished {
                    ReferenceStart::Finished(setup)
                } else {
                    ReferenceStart::Setup(setup)
                }
            }
            Err(problem) => ReferenceStart::Unusable(problem),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignments::silver_dollar::game::parse_strip;
    use crate::drive::record_driven;

    fn strip(text: &str) -> CoinStrip {
        CoinStrip::from_squares(&parse_strip(text).expect("strip"))
    }

    fn plan(strategy: Strategy, illegal: Vec<Illegal>) -> Plan {
        Plan {
            coins: 3,
            strategy,
            seed: 1,
            illegal,
            max_moves: 500,
        }
    }

    #[test]
    fn strategies_pick_the_moves_they_promise() {
        let s = strip("_ 0 _ _ 1 _ 2");
        let mut rng = SplitMix64::new(0);
        assert_eq!(choose(&s, Strategy::Smallest, &mut rng), Some((2, 1)));
        // coin 1 can go 2 squares (to square 2), coin 2 one square: the largest is coin 1 by 2;
        // coin 0 one square.
        assert_eq!(choose(&s, Strategy::Largest, &mut rng), Some((1, 2)));
        assert_eq!(legal_moves(&s), vec![(0, 1), (1, 1), (1, 2), (2, 1)]);
        for _ in 0..20 {
            let m = choose(&s, Strategy::Random, &mut rng).expect("a move");
            assert!(s.is_legal(m.0, m.1));
        }
    }

    #[test]
    fn the_winning_move_leaves_a_zero_nim_sum() {
        // heaps: coin 2 has 1 free square in front, coin 0 has 1: nim-sum 0, no winning move
        assert_eq!(winning_move(&strip("_ 0 _ _ 1 _ 2")), None);
        // coin 1 (the last of 2) has 2 free squares in front: take both
        assert_eq!(winning_move(&strip("0 _ _ 1")), Some((1, 2)));
        // heaps 3 (coin 2: squares 2..4 free) and 1 (coin 0 on square 1): move coin 2 by 2
        assert_eq!(winning_move(&strip("_ 0 1 _ _ _ 2")), Some((2, 2)));
        // playing the winning strategy from a winning position always wins
        for seed in 0..300 {
            let mut s = CoinStrip::random(4, seed);
            let Some(_) = winning_move(&s) else { continue };
            let mut mover = 1;
            let mut last = 0;
            let mut rng = SplitMix64::new(seed);
            while s.has_move() {
                let m = if mover == 1 {
                    winning_move(&s).expect("player 1 keeps a winning position")
                } else {
                    choose(&s, Strategy::Random, &mut rng).expect("a move")
                };
                assert!(s.apply(m.0, m.1));
                last = mover;
                mover = 3 - mover;
            }
            assert_eq!(last, 1, "seed {seed}");
        }
    }

    #[test]
    fn each_illegal_move_is_illegal_where_it_is_offered() {
        for text in ["_ 0 _ _ 1 _ 2", "0 _ 1", "_ _ 0 1 _ _ _ 2", "0 1 _ 2"] {
            let s = strip(text);
            for kind in [
                Illegal::MissingCoin,
                Illegal::ZeroDistance,
                Illegal::NegativeDistance,
                Illegal::PassNeighbour,
                Illegal::LandOnNeighbour,
                Illegal::OffEdge,
                Illegal::Malformed,
            ] {
                if let Some(line) = illegal_move(&s, kind) {
                    let mut copy = s.clone();
                    let legal = crate::assignments::silver_dollar::game::parse_move(&line)
                        .is_some_and(|(c, d)| copy.apply(c, d));
                    assert!(!legal, "{kind:?} on {text}: {line}");
                }
            }
        }
        assert_eq!(
            illegal_move(&strip("_ 0 _ _ 1"), Illegal::LandOnNeighbour).as_deref(),
            Some("1 3")
        );
        assert_eq!(
            illegal_move(&strip("_ 0 _ _ 1"), Illegal::PassNeighbour).as_deref(),
            Some("1 4")
        );
        assert_eq!(illegal_move(&strip("0 _ 1"), Illegal::PassNeighbour), None);
        assert_eq!(
            illegal_move(&strip("_ _ 0 _ 1"), Illegal::OffEdge).as_deref(),
            Some("0 3")
        );
    }

    #[test]
    fn driving_the_reference_plays_a_whole_game_with_every_illegal_move() {
        let all = vec![
            Illegal::MissingCoin,
            Illegal::ZeroDistance,
            Illegal::NegativeDistance,
            Illegal::PassNeighbour,
            Illegal::LandOnNeighbour,
            Illegal::OffEdge,
        ];
        let setup = Setup::new(GameStart::Strip(
            parse_strip("_ _ 0 _ _ 1 _ _ 2").expect("strip"),
        ));
        let recording = record_driven(&setup, &mut plan(Strategy::Smallest, all).player()).expect("the reference plays");
        let text = recording.transcript.terminal_text();
        assert_eq!(
            text.matches("Illegal move! Try again.").count(),
            6,
            "{text}"
        );
        assert!(
            text.ends_with("0 1 2 _ _ _ _ _ _\nPlayer 2 wins!\n"),
            "{text}"
        );
        // the coins stand 2, 4 and 6 squares right of where they end (0, 1, 2), one square
        // per move: 12 moves, so player 2 moves last.
        let boards = text
            .lines()
            .filter(|l| strip::read_strip(l).is_some())
            .count();
        assert_eq!(boards, 13, "the start and one board per move");
        assert!(!recording.wanted_more_input, "the game ended by itself");
    }

    #[test]
    fn a_plan_shrinks_to_fewer_moves_fewer_illegal_moves_and_fewer_coins() {
        let big = Plan {
            coins: 12,
            strategy: Strategy::Random,
            seed: 4,
            illegal: vec![Illegal::ZeroDistance, Illegal::OffEdge],
            max_moves: 400,
        };
        let smaller: Vec<String> = big.smaller().iter().map(|s| s.describe()).collect();
        let expect = |plan: Plan| plan.describe();
        assert_eq!(
            smaller,
            [
                expect(Plan {
                    max_moves: 50,
                    ..big.clone()
                }),
                expect(Plan {
                    max_moves: 200,
                    ..big.clone()
                }),
                expect(Plan {
                    illegal: vec![Illegal::OffEdge],
                    ..big.clone()
                }),
                expect(Plan {
                    illegal: vec![Illegal::ZeroDistance],
                    ..big.clone()
                }),
                expect(Plan {
                    coins: 6,
                    ..big.clone()
                }),
                expect(Plan {
                    coins: 11,
                    ..big.clone()
                }),
            ]
        );
        let one = Plan {
            coins: 1,
            illegal: Vec::new(),
            max_moves: 1,
            ..big
        };
        assert!(one.smaller().is_empty());
    }

    #[test]
    fn a_bad_start_stops_the_driver_and_is_not_compared() {
        let mut t = Transcript::new();
        let mut player = plan(Strategy::Smallest, Vec::new()).player();
        assert_eq!(player.next_line(&t).as_deref(), Some("3"));
        t.push_input("3");
        t.push_output(crate::transcript::Stream::Stdout, b"_ 1 2 3\nPlayer 1: ");
        assert_eq!(player.next_line(&t), None);
        assert!(
            matches!(reference_start(&t), ReferenceStart::Unusable(m) if m.contains("numbered"))
        );
    }

    fn start(text: &str) -> ReferenceStart {
        ReferenceStart::Setup(Setup::new(GameStart::Strip(
            parse_strip(text).expect("strip"),
        )))
    }

    #[test]
    fn a_start_reaches_the_rule_only_when_every_illegal_move_gets_typed() {
        let off_edge = plan(Strategy::Largest, vec![Illegal::OffEdge]);
        // Coin 0 can always be pushed off the edge while a move is left.
        assert!(off_edge.reaches_its_rule(&start("_ 0 1 _ 2")));
        // No move at all: nothing the case tests is typed.
        let finished = Setup::new(GameStart::Strip(parse_strip("0 1 2").expect("strip")));
        assert!(!off_edge.reaches_its_rule(&ReferenceStart::Finished(finished)));
        // A start that breaks a rule is graded as it is: no new start would help.
        assert!(off_edge.reaches_its_rule(&ReferenceStart::Unusable("gap".into())));
        // Passing a neighbour needs a free square left of it: 0 1 _ _ 2 has none, and the
        // largest move (coin 2 by 2) ends the game.
        let pass = plan(Strategy::Largest, vec![Illegal::PassNeighbour]);
        assert!(!pass.reaches_its_rule(&start("0 1 _ _ 2")));
        assert!(pass.reaches_its_rule(&start("_ 0 _ _ 1 _ 2")));
    }
}
