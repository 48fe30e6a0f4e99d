//! Subcommand front-ends that print: `grade run` and `grade doctor` (the library stages
//! below return data; only `cli/` and `report/` print).

pub mod doctor;
pub mod gradescope;
pub mod run;
pub mod similarity;
