//! The Game of M (CS118, Python): two players take numbers from a board, scoring the sum of
//! the number's neighbours.

pub mod explore;
pub mod game;
pub mod requirements;

use crate::analyze::SourceLanguage;
use crate::assignments::{Assignment, AssignmentDef, Explore, Generator};
use crate::games::{no_args, Setup};

/// The Game of M's registration line in [`crate::assignments::ASSIGNMENTS`].
pub const ASSIGNMENT: Assignment = Assignment::new(&DEF);

/// Everything the stages ask of the Game of M.
pub const DEF: AssignmentDef = AssignmentDef {
    name: "m",
    title: "The Game of M",
    handout_language: SourceLanguage::Python,
    args_usage: "",
    setup: |args, _| no_args("m", args).map(|()| Setup::new(game::NewGame)),
    play_setup: None,
    explore: Explore::Generator(Generator {
        modes: &["plain", "edges", "huge", "plain"],
        generate: explore::generate,
        rules: explore::RULES,
        rules_hit: super::RulesHit::FromTranscript(explore::rules_hit),
        board_setup: None,
    }),
    driver: None,
    requirements: requirements::REQUIREMENTS,
    resize: None,
    parameters: &[],
    check_kinds: &[],
};
