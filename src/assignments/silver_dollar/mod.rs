//! The Silver Dollar Game (CSCI 2101, Java): coins on a strip move left; the program draws
//! its own random strip, so cases drive it move by move from the strip it printed.

pub mod checks;
pub mod driver;
pub mod explore;
pub mod game;
pub mod requirements;
pub mod strip;

use std::path::Path;

use crate::analyze::SourceLanguage;
use crate::assignments::{Assignment, AssignmentDef, Explore, Generator};
use std::sync::Arc;

use crate::drive::Driver;
use crate::games::{fresh_seed, Setup, SetupError};
use driver::DriveSpec;
use game::Start;

/// Silver Dollar's registration line in [`crate::assignments::ASSIGNMENTS`].
pub const ASSIGNMENT: Assignment = Assignment::new(&DEF);

/// Everything the stages ask of the Silver Dollar Game.
pub const DEF: AssignmentDef = AssignmentDef {
    name: "silver_dollar",
    title: "Silver Dollar Game",
    handout_language: SourceLanguage::Java,
    args_usage: "[--seed N] [--board \"_ _ 0 _ 1\"]",
    setup: |args, _| Start::from_args(args).map(Setup::new),
    play_setup: Some(play_setup),
    explore: Explore::Generator(Generator {
        modes: &["random", "illegal", "many-coins", "long"],
        generate: explore::generate,
        rules: explore::RULES,
        rules_hit: super::RulesHit::FromTranscript(explore::rules_hit),
        board_setup: None,
    }),
    driver: Some(drive),
    requirements: requirements::REQUIREMENTS,
    resize: None,
    parameters: &[],
    check_kinds: checks::CHECK_KINDS,
};

/// `grade play silver_dollar`: without arguments the strip is drawn from a fresh seed, so the
/// reference a student plays does not repeat itself; the note says how to replay it.
fn play_setup(args: &[String], _: &Path) -> Result<(Setup, Option<String>), SetupError> {
    Ok(match Start::from_args(args)? {
        Start::Seeded(_) if args.is_empty() => {
            let seed = fresh_seed();
            let note = format!(
                "the strip is drawn from seed {seed}; replay this game with \
                 `grade play silver_dollar --seed {seed}`"
            );
            (Setup::new(Start::Seeded(seed)), Some(note))
        }
        start => (Setup::new(start), None),
    })
}

/// A case's `drive:` block: the coin count, the strategy and the illegal moves to type.
fn drive(block: &yaml_serde::Value) -> Result<Driver, String> {
    let spec: DriveSpec =
        yaml_serde::from_value(block.clone()).map_err(|e| format!("drive: {e}"))?;
    if spec.coins == 0 || spec.coins > 100 {
        return Err(format!(
            "drive.coins: {} is not a coin count from 1 to 100",
            spec.coins
        ));
    }
    Ok(Driver::Strategy(Arc::new(driver::Plan {
        coins: spec.coins,
        strategy: spec.strategy,
        seed: spec.seed,
        illegal: spec.illegal.clone(),
        max_moves: spec.max_moves.unwrap_or(driver::DEFAULT_MAX_MOVES),
    })))
}
