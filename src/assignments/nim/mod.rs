//! Nim against the computer (CS 135 Assignment 4, C++): 21 matches, each player takes one to
//! three, the computer plays the handout's strategy.

pub mod explore;
pub mod game;
pub mod requirements;

use crate::analyze::SourceLanguage;
use crate::assignments::{Assignment, AssignmentDef, Explore, Generator, Parameter};
use crate::games::Setup;

/// Nim's registration line in [`crate::assignments::ASSIGNMENTS`].
pub const ASSIGNMENT: Assignment = Assignment::new(&DEF);

/// Everything the stages ask of Nim.
pub const DEF: AssignmentDef = AssignmentDef {
    name: "nim",
    title: "Nim against the computer",
    handout_language: SourceLanguage::Cpp,
    args_usage: "[--matches N]",
    setup: |args, _| game::NewGame::from_args(args).map(Setup::new),
    play_setup: None,
    explore: Explore::Generator(Generator {
        modes: &["plain", "long", "huge", "plain"],
        generate: explore::generate,
        rules: explore::RULES,
        rules_hit: super::RulesHit::FromTranscript(explore::rules_hit),
        board_setup: None,
    }),
    driver: None,
    requirements: requirements::REQUIREMENTS,
    resize: None,
    parameters: &[Parameter {
        name: "matches",
        about: "matches on the table at the start of every round",
        handout: game::START_MATCHES,
        min: 2,
        max: game::MAX_MATCHES,
        flag: "--matches",
        handout_requirements: &[],
    }],
    check_kinds: &[],
};
