//! # session-state-redis
//!
//! A [`Store`](session_state::Store) on a Redis server, for sessions, registries and team
//! state shared by several machines: [`RedisStore::open`] takes one URL,
//! `redis://[user][:password@]host[:port][/db][?prefix=P]` or `rediss://…` for TLS, with the
//! optional query parameters `prefix` (default `session-state`), `connect_timeout_ms` and
//! `command_timeout_ms`.
//!
//! - **Layout**: the bytes of key `a/b/c` are the string `P:v:a/b/c`; every folder above it
//!   has an index set (`P:i:a`, `P:i:a/b`) of the keys below it, so `list` is one `SMEMBERS`,
//!   never `KEYS` or `SCAN`. Each change also increments the counters `P:m:a/b/c` and
//!   `P:m:a/b`, the key's and its folder's [`mark`](session_state::Store::mark) (changes made
//!   to the server by other means than this store do not count).
//! - **Atomic**: `write`, `delete` and `append` change the value, the index sets and the
//!   counters all together or not at all, in one round trip: one `MULTI`/`EXEC` stages each
//!   new value under `P:s:a/b/c` and runs a Lua script (`EVALSHA`, loaded again when the server
//!   lacks it) that checks the type of every key it touches, then renames the staged value
//!   onto `P:v:a/b/c` and updates the index sets and counters.
//! - **No lost update**: `update` `WATCH`es the key (and every key its closure reads), runs the
//!   closure with its writes and deletes buffered (reads see them), then applies all of it in
//!   one such `MULTI`/`EXEC`. When another writer changed a watched key first, nothing is
//!   applied and the closure runs again from scratch, after a short random pause, until it
//!   succeeds or the update timeout passes (`conflict`).
//! - **Errors**: connection refused, timeouts, authentication failures and replies of the wrong
//!   type are `storage` errors naming the server without its password. A counter, an index set
//!   or an appended value of the wrong type (e.g. set by hand) is a `storage` error naming that
//!   Redis key (context `redis_key`) and what it should hold, and nothing changes.
//! - **Durability** is the server's: with `appendonly yes` and `appendfsync always`, every
//!   write that returned survives a server crash.
//!
//! ```no_run
//! use session_state::{Key, Store};
//! use session_state_redis::RedisStore;
//!
//! let store = RedisStore::open("redis://127.0.0.1:6379/0?prefix=my-project")?;
//! store.write(&Key::new("notes/a")?, b"hello")?;
//! assert_eq!(store.list(&Key::new("notes")?)?, [Key::new("notes/a")?]);
//! # Ok::<(), session_state::Error>(())
//! ```

mod change;
mod config;
mod failure;
mod names;
mod store;

pub use config::{
    DEFAULT_COMMAND_TIMEOUT, DEFAULT_CONNECT_TIMEOUT, DEFAULT_PREFIX, DEFAULT_UPDATE_TIMEOUT,
    RedisOptions,
};
pub use store::RedisStore;
