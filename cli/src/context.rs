//! What every command needs: the root folder, the store over it, the clock and the input limit.
//!
//! The rule for a root that does not exist, the same for every command that uses one: the
//! command fails with `not_found` (exit 1) naming the folder, reads and writes alike, so that a
//! mistyped `--root` is reported instead of answering "nothing there" or creating a project in
//! the wrong place. The one exception is the default root of `teams`/`team`, `~/.claude`,
//! which the user did not type: when it is missing there are simply no teams.

use std::path::{Path, PathBuf};

use session_state::{Error, ErrorKind, Result};
use session_state_fs::{Durability, FsStore, SystemClock};

/// The resolved global options.
#[derive(Debug)]
pub struct Context {
    root: Option<PathBuf>,
    /// The clock every command stamps times with.
    pub clock: SystemClock,
    /// The most bytes any one input may hold (see [`crate::input`]).
    pub max_bytes: usize,
}

impl Context {
    pub fn new(root: Option<PathBuf>, max_bytes: usize) -> Self {
        Context {
            root,
            clock: SystemClock,
            max_bytes,
        }
    }

    /// `--root` as given, if it was.
    pub fn root(&self) -> Option<&Path> {
        self.root.as_deref()
    }

    /// `--root`, or the current folder (orchestrator and registry commands).
    ///
    /// # Errors
    /// `not_found` when it does not exist or is not a folder (nothing is created).
    pub fn project_root(&self) -> Result<&Path> {
        let root = self.root.as_deref().unwrap_or(Path::new("."));
        existing_folder("project folder", root)?;
        Ok(root)
    }

    /// `--root`, or `~/.claude` (team commands); `None` when the default `~/.claude` does not
    /// exist (no teams).
    ///
    /// # Errors
    /// `not_found` when a `--root` given does not exist or is not a folder, or when `~/.claude`
    /// is there but is not a folder.
    pub fn claude_root(&self) -> Result<Option<PathBuf>> {
        if let Some(root) = &self.root {
            existing_folder("root folder", root)?;
            return Ok(Some(root.clone()));
        }
        let root = Self::default_claude_root();
        if !root.exists() {
            return Ok(None);
        }
        existing_folder("root folder", &root)?;
        Ok(Some(root))
    }

    /// `~/.claude` (`./.claude` without `HOME`), whether or not it exists.
    pub fn default_claude_root() -> PathBuf {
        std::env::var_os("HOME")
            .map_or_else(|| PathBuf::from("."), PathBuf::from)
            .join(".claude")
    }

    /// The Redis store chosen by `--store`, or else a filesystem store over `root`, durable (each write fsynced with its folder) unless
    /// `SESSION_STATE_DURABLE=0` says otherwise.
    ///
    /// # Errors
    /// `invalid_input` when `SESSION_STATE_DURABLE` is not `1`, `0`, `true` or `false`.
    pub fn store(root: &Path) -> Result<crate::store_choice::CliStore> {
        Ok(crate::store_choice::store(Self::folder_store(root)?))
    }

    /// The filesystem store over `root`, whatever `--store` says, durable as
    /// [`Context::store`] says.
    ///
    /// # Errors
    /// As [`Context::store`].
    pub fn folder_store(root: &Path) -> Result<FsStore> {
        let durability = if durable_from_env()? {
            Durability::Sync
        } else {
            Durability::Atomic
        };
        Ok(FsStore::new(root)?.with_durability(durability))
    }
}

/// The environment variable that turns the fsync of each write off (`0`) or on (`1`, the
/// default).
pub const DURABLE_ENV: &str = "SESSION_STATE_DURABLE";

/// `SESSION_STATE_DURABLE` read as a boolean; `true` when it is unset or empty.
fn durable_from_env() -> Result<bool> {
    let Some(value) = std::env::var_os(DURABLE_ENV) else {
        return Ok(true);
    };
    match value.to_str().map(str::trim) {
        Some("" | "1" | "true") => Ok(true),
        Some("0" | "false") => Ok(false),
        _ => Err(Error::invalid_input(format!(
            "{DURABLE_ENV} is `{}`: give `1` (fsync each write, the default) or `0` (faster, \
             but a power loss may lose the last writes)",
            value.to_string_lossy().escape_debug()
        ))
        .with_context("field", DURABLE_ENV)),
    }
}

/// `not_found` naming `root` (as `what`) unless it is an existing folder.
fn existing_folder(what: &str, root: &Path) -> Result<()> {
    if root.is_dir() {
        return Ok(());
    }
    let why = if root.exists() {
        "is not a folder"
    } else {
        "does not exist"
    };
    Err(Error::new(
        ErrorKind::NotFound,
        format!("{what} `{}` {why}", root.display()),
    )
    .with_context("path", root.display().to_string()))
}
