//! Connect6 on an N×N board (C++): six in a row wins; the handout's "change a single
//! variable N" lets cases rebuild the program for a smaller board.

pub mod explore;
pub mod game;
pub mod requirements;
pub mod resize;

use crate::analyze::SourceLanguage;
use crate::assignments::{Assignment, AssignmentDef, Explore, Generator, Parameter, Resize};
use crate::games::Setup;

/// Connect6's registration line in [`crate::assignments::ASSIGNMENTS`].
pub const ASSIGNMENT: Assignment = Assignment::new(&DEF);

/// Everything the stages ask of Connect6.
pub const DEF: AssignmentDef = AssignmentDef {
    name: "connect6",
    title: "Connect6",
    handout_language: SourceLanguage::Cpp,
    args_usage: "[--size N]",
    setup: |args, _| game::size_from_args(args).map(|size| Setup::new(game::BoardSize(size))),
    play_setup: None,
    explore: Explore::Generator(Generator {
        modes: &["edge-line", "region", "draw", "edge-region", "edge-line"],
        generate: explore::generate,
        rules: explore::RULES,
        rules_hit: super::RulesHit::FromInput(explore::rules_hit),
        board_setup: None,
    }),
    driver: None,
    requirements: requirements::REQUIREMENTS,
    resize: Some(Resize {
        max_size: game::MAX_SIZE,
        size_of_args: |args| game::size_from_args(args).ok(),
        edit: resize::board_size,
    }),
    parameters: &[Parameter {
        name: "size",
        about: "the board's side N (an N*N board)",
        handout: game::DEFAULT_SIZE as u32,
        min: 1,
        max: game::MAX_SIZE as u32,
        flag: "--size",
        handout_requirements: &["board-size-constant"],
    }],
    check_kinds: &[],
};
