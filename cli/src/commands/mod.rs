//! One module per kind of state; each has a clap `Command` enum and a `run` function.

pub mod fork;
pub mod hook;
pub mod orchestrator;
pub mod ownership;
pub mod prune;
pub mod record;
pub mod registry;
pub mod team;
