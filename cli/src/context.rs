//! What every command needs: the root folder, the store over it, and the clock.

use std::path::{Path, PathBuf};

use session_state::Result;
use session_state_fs::{FsStore, SystemClock};

/// The resolved global options.
#[derive(Debug)]
pub struct Context {
    root: Option<PathBuf>,
    /// The clock every command stamps times with.
    pub clock: SystemClock,
}

impl Context {
    pub fn new(root: Option<PathBuf>) -> Self {
        Context {
            root,
            clock: SystemClock,
        }
    }

    /// `--root`, or the current folder (orchestrator and registry commands).
    pub fn project_root(&self) -> &Path {
        self.root.as_deref().unwrap_or(Path::new("."))
    }

    /// `--root`, or `~/.claude` (team commands).
    pub fn claude_root(&self) -> PathBuf {
        match &self.root {
            Some(root) => root.clone(),
            None => std::env::var_os("HOME")
                .map_or_else(|| PathBuf::from("."), PathBuf::from)
                .join(".claude"),
        }
    }

    /// A filesystem store over `root`.
    pub fn store(root: &Path) -> Result<FsStore> {
        FsStore::new(root)
    }
}
