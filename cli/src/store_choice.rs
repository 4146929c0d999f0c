//! Which store the commands use: the project folder (the default), or a Redis server named by
//! `--store URL` or `SESSION_STATE_STORE`, chosen once when the command starts.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use session_state::{Error, Key, Leftover, Result, Store, UpdateFn};
use session_state_fs::FsStore;
use session_state_redis::{RedisOptions, RedisStore};

/// The environment variable naming the store when `--store` is not given.
pub const STORE_ENV: &str = "SESSION_STATE_STORE";

static CHOSEN: OnceLock<Option<Arc<RedisStore>>> = OnceLock::new();

/// The longest waits of a Redis store, for a command whose host ends it after a time of its
/// own (the hook): whatever the URL says, connecting and each command wait at most `io`, an
/// update retries at most `update`.
#[derive(Clone, Copy, Debug)]
pub struct Waits {
    /// Connecting, and each command's reply.
    pub io: Duration,
    /// An update's retries while other writers change what it read.
    pub update: Duration,
}

impl Waits {
    fn bound(self, options: RedisOptions) -> RedisOptions {
        let io = |own: Duration| own.min(self.io);
        let (connect, command, update) = (
            io(options.connect_timeout()),
            io(options.command_timeout()),
            options.update_timeout().min(self.update),
        );
        options
            .with_connect_timeout(connect)
            .with_command_timeout(command)
            .with_update_timeout(update)
    }
}

/// Reads `--store` (or else `SESSION_STATE_STORE`): unset or empty keeps the folder store. A
/// Redis store waits at most `waits` when given.
///
/// # Errors
/// `invalid_input` when the value is not a `redis://` or `rediss://` URL, or the URL is invalid.
pub fn choose(flag: Option<&str>, waits: Option<Waits>) -> Result<()> {
    let from_env = std::env::var(STORE_ENV).ok();
    let value = flag.or(from_env.as_deref()).map_or("", str::trim);
    let chosen = if value.is_empty() {
        None
    } else if value.starts_with("redis://") || value.starts_with("rediss://") {
        let options = RedisOptions::parse(value)?;
        let options = match waits {
            Some(waits) => waits.bound(options),
            None => options,
        };
        Some(Arc::new(RedisStore::with_options(options)?))
    } else {
        return Err(Error::invalid_input(
            "--store takes a `redis://` or `rediss://` URL (the project folder is the default \
             store: leave --store and SESSION_STATE_STORE unset to use it)",
        )
        .with_context("field", "store"));
    };
    // Chosen once per process; a second call keeps the first choice.
    let _ = CHOSEN.set(chosen);
    Ok(())
}

/// The store of the folder `root`, or the Redis store chosen at start.
pub fn store(root: FsStore) -> CliStore {
    match CHOSEN.get().cloned().flatten() {
        Some(redis) => CliStore::Redis(redis),
        None => CliStore::Fs(root),
    }
}

/// The store a command works on.
#[derive(Debug)]
pub enum CliStore {
    /// Files below the project folder.
    Fs(FsStore),
    /// A Redis server (`--store URL`).
    Redis(Arc<RedisStore>),
}

impl CliStore {
    fn inner(&self) -> &dyn Store {
        match self {
            CliStore::Fs(s) => s,
            CliStore::Redis(s) => s.as_ref(),
        }
    }
}

impl Store for CliStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        self.inner().read(key)
    }
    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner().write(key, data)
    }
    fn delete(&self, key: &Key) -> Result<bool> {
        self.inner().delete(key)
    }
    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        self.inner().list(prefix)
    }
    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        self.inner().update(key, apply)
    }
    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        self.inner().append(key, data)
    }
    fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.inner().leftovers(prefix)
    }
    fn remove_leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        self.inner().remove_leftovers(prefix)
    }
    fn unlisted(&self, prefix: &Key) -> Result<Vec<String>> {
        self.inner().unlisted(prefix)
    }
    fn mark(&self, key: &Key) -> Result<Option<String>> {
        self.inner().mark(key)
    }
}
