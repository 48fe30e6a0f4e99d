//! Connect6 on an N×N board (C++): six in a row wins; the handout's "change a single
//! variable N" lets cases rebuild the program for a smaller board.

use crate::analyze::SourceLanguage;
use crate::assignments::{Assignment, AssignmentDef, Explore, Resize};
use crate::drive::generate;
use crate::games::{connect6, Setup};

/// Connect6's registration line in [`crate::assignments::ASSIGNMENTS`].
pub const ASSIGNMENT: Assignment = Assignment::new(&DEF);

/// Everything the stages ask of Connect6.
pub const DEF: AssignmentDef = AssignmentDef {
    name: "connect6",
    title: "Connect6",
    handout_language: SourceLanguage::Cpp,
    args_usage: "[--size N]",
    setup: |args, _| {
        connect6::size_from_args(args).map(|size| Setup::new(connect6::BoardSize(size)))
    },
    play_setup: None,
    explore: Explore::Generator(|rng| Some(generate::connect6_game(rng))),
    driver: None,
    requirements: crate::analyze::requirements::connect6::REQUIREMENTS,
    resize: Some(Resize {
        max_size: connect6::MAX_SIZE,
        size_of_args: |args| connect6::size_from_args(args).ok(),
        edit: crate::analyze::resize::board_size,
    }),
};
