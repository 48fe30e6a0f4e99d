//! The number-board collect game (Programming Assignment 3, Python): pick cells of a board
//! read from a file, the numbers below fall down.

pub mod explore;
pub mod game;

use crate::analyze::SourceLanguage;
use crate::assignments::{Assignment, AssignmentDef, Explore, Generator};
use crate::games::Setup;

/// Collect's registration line in [`crate::assignments::ASSIGNMENTS`].
pub const ASSIGNMENT: Assignment = Assignment::new(&DEF);

/// Everything the stages ask of the collect game.
pub const DEF: AssignmentDef = AssignmentDef {
    name: "collect",
    title: "Number-board collect game",
    handout_language: SourceLanguage::Python,
    args_usage: "BOARD_FILE",
    setup: |args, base_dir| game::Board::from_args(args, base_dir).map(Setup::new),
    play_setup: None,
    explore: Explore::Generator(Generator {
        modes: &["plain", "big", "bounds", "huge", "plain"],
        generate: explore::generate,
        rules: explore::RULES,
        rules_hit: super::RulesHit::FromTranscript(explore::rules_hit),
        board_setup: Some(|name, text| game::Board::parse(name, text).ok().map(Setup::new)),
    }),
    driver: None,
    requirements: &[],
    resize: None,
    parameters: &[],
    check_kinds: &[],
};
