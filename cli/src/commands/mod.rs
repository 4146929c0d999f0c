//! One module per kind of state; each has a clap `Command` enum and a `run` function.

pub mod orchestrator;
pub mod registry;
pub mod team;
