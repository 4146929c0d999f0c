//! # session-state-fs
//!
//! The filesystem [`Store`](session_state::Store) of session-state: [`FsStore`] maps each key
//! onto a file below a root folder.
//!
//! - **Atomic replace**: a write goes to a temporary file in the same folder, then is renamed
//!   over the target; a reader sees the old or the new bytes, never a prefix.
//! - **Durability**: by default ([`Durability::Sync`]) a write fsyncs the file and its folder
//!   before it returns, so a saved state survives a power loss or an OS crash;
//!   [`Durability::Atomic`] skips the fsyncs (faster), and survives a process crash only.
//! - **No lost update**: [`update`](session_state::Store::update) and
//!   [`append`](session_state::Store::append) hold an exclusive cross-process lock
//!   (std `File::lock`) on a lock file beside the key for the whole read-modify-write. The
//!   wait is fair: a writer queues on `.NAME.lock-queue` before taking `.NAME.lock`, so one that
//!   releases the lock and comes straight back waits behind one already waiting.
//! - **Change marks**: [`mark`](session_state::Store::mark) is a file's or folder's device,
//!   inode, size and times once its change time is more than [`MARK_SETTLE`] old, so
//!   the history listing trusts what it recorded without listing the folder; one changed more
//!   recently has no mark (it is read or listed again).
//! - **Private**: files are created 0600 and folders 0700 (Unix).
//! - **No side effect on a read**: making the store, `read`, `list` and `delete` create nothing;
//!   a missing root reads as empty. Only `write`, `update` and `append` create the root and
//!   the folders a key needs (an `update` does so even when it ends up writing nothing).
//!   A key's lock and queue files are made by its first `update` or `append` and kept (empty,
//!   0600): one pair per key ever updated, never one per write; `delete`, or an `update` that
//!   deletes its key, removes the key's pair unless a writer holds or waits for it (Unix).
//! - **Confined**: keys are validated segments; a symlink inside the root that leads outside it
//!   is refused with a `storage` error, for reads and writes alike, except a link at one of the
//!   layout's own folders (`.claude`, `.moai`, `.moai/memory`, `teams`), which a dotfiles setup
//!   makes: it is followed wherever it leads, and what lies below it must stay inside its
//!   target. Lock and queue files are
//!   never followed: a symlink at `.NAME.lock` or `.NAME.lock-queue` (leading anywhere) is a
//!   `storage` error naming it, and they are opened with `O_NOFOLLOW` (Unix), so nothing is
//!   ever created or opened through one.
//!
//! Temporary files (`.NAME.tmp-*`), lock files (`.NAME.lock`) and queue files
//! (`.NAME.lock-queue`) are reserved names: they never
//! appear in [`list`](session_state::Store::list), a temporary file left by a crash is
//! never read, and removed (when its writer's PID is no longer running, checked in `/proc`)
//! by a handle's first `update` or `append` in its folder, and again at its first one
//! [`STALE_SWEEP_INTERVAL`] after that (or by `remove_leftovers`), and a key with a segment of that form (`.x.lock`, `.x.tmp-1`) is refused with an
//! `invalid_key` error, since writing it would replace a lock file. Temp and lock names keep
//! the first 200 bytes of the key's name, so a 255-byte segment still fits the file-name limit.
//!
//! `list` lists a symlink only when it leads to a file inside the root; it does not walk
//! linked folders. A key that is a symlink to a file inside the root is written through (the
//! target is replaced atomically, the link stays). Its lock is the link's (`.NAME.lock` beside
//! the link), so a link and its target used as two keys do not exclude each other. A relative
//! root is made absolute when the store is made. Every `storage` error names the key (context `key`), the file (context
//! `path`) and, for an I/O failure, the OS error (in the message and as the source).
//!
//! The conformance suite of the core (`session_state::conformance`) runs on this store in
//! `tests/conformance.rs`; `tests/no_lost_update.rs` checks no update is lost across 4
//! processes and across 4 threads.
//!
//! [`SystemClock`] is the host clock for native programs. [`project_facts`] gives the
//! `project` of a new session from its folder (name, absolute path, git branch) and the HEAD
//! commit, reading `.git` without running `git` ([`git_head`]).
//!
//! ```
//! use session_state::{Key, Store};
//! use session_state_fs::FsStore;
//!
//! let dir = tempfile::tempdir()?;
//! let store = FsStore::new(dir.path())?;
//! let key = Key::new(".claude/orchestrator-session.json")?;
//! store.write(&key, b"{}")?;
//! assert_eq!(store.read(&key)?.as_deref(), Some(&b"{}"[..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod beside;
mod clock;
mod fs_store;
mod git;
mod leftovers;
mod paths;
pub mod process;

pub use beside::beside;
pub use clock::SystemClock;
pub use fs_store::{DEFAULT_LOCK_TIMEOUT, Durability, FsStore, MARK_SETTLE, STALE_SWEEP_INTERVAL};
pub use git::{GitHead, ProjectFacts, git_head, project_facts};
pub use paths::expand_home;

/// The README's Rust example, compiled as a doc test so it cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctest;
