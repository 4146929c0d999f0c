//! `OrchestratorStore.fork` and `historyTree`: the core's fork of a session into a new current
//! one that records where it came from, and the tree of sessions by origin.

use session_state::orchestrator::ForkOptions;

use crate::convert::{Options, js_methods};
use crate::orchestrator::OrchestratorStore;

js_methods!(OrchestratorStore {
    #[doc = " Forks the current (or archived `sessionId`) session into a new current one."]
    fn fork as fork(&self; options: Options<ForkOptions> = "ForkOptions") -> "OrchestratorSession";
    #[doc = " Every session with the one it was forked from, in tree order."]
    fn historyTree as history_tree(&self) -> "HistoryTree";
});
