//! `grade`: an autograder and reference-transcript checker for five console-game assignments.
//!
//! Data flows one way, one module per stage:
//! case ([`cases`]) → what to type ([`drive`]) → run ([`run`], [`submission`]) →
//! transcript ([`transcript`]) →
//! checks ([`check`]) → report ([`report`]). Each assignment is a descriptor in the registry
//! ([`assignments`]): its reference game produces the canonical transcripts the checks
//! compare against.

pub mod analyze;
pub mod assignments;
pub mod cases;
pub mod check;
pub mod class;
pub mod cli;
pub mod console;
pub mod drive;
pub mod elf;
pub mod escape;
pub mod explore;
pub mod games;
pub mod grade;
pub mod keys;
pub mod not_gradable;
pub mod parallel;
pub mod report;
pub mod results;
pub mod run;
pub mod sanitizer;
pub mod selftest;
pub mod shell;
pub mod submission;
pub mod terminal;
pub mod transcript;
pub mod variants;
