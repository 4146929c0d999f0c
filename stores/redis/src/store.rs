//! [`RedisStore`]: the core's `Store` on a Redis server.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, RandomState};
use std::sync::{Mutex, MutexGuard};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

use redis::{Client, Connection, ConnectionLike, RedisResult};
use session_state::{Error, ErrorKind, Key, Result, Store, UpdateFn};

use crate::change::{self, Changes, Op, Outcome};
use crate::config::RedisOptions;
use crate::failure;
use crate::names;

/// Idle connections kept for reuse; more are opened when threads need them, then dropped.
const MAX_IDLE: usize = 16;

/// A [`Store`] on a Redis server (see the crate docs for the layout and guarantees).
///
/// Cheap to share between threads (`&RedisStore` or `Arc<RedisStore>`): it keeps a few idle
/// connections and opens more on demand. Making it opens no connection.
pub struct RedisStore {
    client: Client,
    options: RedisOptions,
    idle: Mutex<Vec<Connection>>,
    /// The update each thread is running: its connection and the closure's buffered changes.
    running: Mutex<HashMap<ThreadId, Tx>>,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// One try of an update: the watching connection and what the closure wrote or deleted.
struct Tx {
    conn: Connection,
    /// Key to new bytes (`None`: deleted), applied in the update's `MULTI`/`EXEC`.
    changes: BTreeMap<Key, Option<Vec<u8>>>,
    /// A command failed: the connection may be out of step and is not reused.
    broken: bool,
}

impl RedisStore {
    /// A store on the server of `url` (see [`RedisOptions::parse`]); connects on first use.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] when the URL is invalid.
    pub fn open(url: &str) -> Result<Self> {
        Self::with_options(RedisOptions::parse(url)?)
    }

    /// A store with `options`; connects on first use.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] when the `redis` crate refuses the URL or the certificate.
    pub fn with_options(options: RedisOptions) -> Result<Self> {
        let client = match &options.ca_certificate {
            Some(pem) => Client::build_with_tls(
                options.server_url.as_str(),
                redis::TlsCertificates {
                    client_tls: None,
                    root_cert: Some(pem.clone()),
                },
            ),
            None => Client::open(options.server_url.as_str()),
        }
        .map_err(|e| {
            Error::new(
                ErrorKind::InvalidInput,
                format!("Redis store `{}` cannot be set up: {e}", options.server),
            )
            .with_field("store")
        })?;
        Ok(RedisStore {
            client,
            options,
            idle: Mutex::new(Vec::new()),
            running: Mutex::new(HashMap::new()),
        })
    }

    /// How the store connects and names its keys.
    pub fn options(&self) -> &RedisOptions {
        &self.options
    }

    /// Checks the server answers (and accepts the credentials).
    ///
    /// # Errors
    /// [`ErrorKind::Storage`] naming the server when it does not.
    pub fn ping(&self) -> Result<()> {
        let key = Key::new("ping").expect("a valid key");
        self.with_conn(&key, "ping the server for", |c| {
            redis::cmd("PING").query::<String>(c).map(drop)
        })
    }

    fn server(&self) -> &str {
        &self.options.server
    }

    fn value(&self, key: &Key) -> String {
        names::value(&self.options.prefix, key)
    }

    fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
        mutex
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// An idle connection, or a new one.
    fn checkout(&self) -> RedisResult<Connection> {
        loop {
            let Some(conn) = Self::lock(&self.idle).pop() else {
                break;
            };
            if conn.is_open() {
                return Ok(conn);
            }
        }
        let conn = self
            .client
            .get_connection_with_timeout(self.options.connect_timeout)?;
        conn.set_read_timeout(Some(self.options.command_timeout))?;
        conn.set_write_timeout(Some(self.options.command_timeout))?;
        Ok(conn)
    }

    fn checkin(&self, conn: Connection) {
        let mut idle = Self::lock(&self.idle);
        if idle.len() < MAX_IDLE {
            idle.push(conn);
        }
    }

    /// Runs `f` on a connection; a connection whose command failed is dropped, not reused.
    fn with_conn<T>(
        &self,
        key: &Key,
        action: &str,
        f: impl FnOnce(&mut Connection) -> RedisResult<T>,
    ) -> Result<T> {
        let fail = |e| failure::storage(self.server(), key, action, e);
        let mut conn = self.checkout().map_err(fail)?;
        let out = f(&mut conn).map_err(fail)?;
        self.checkin(conn);
        Ok(out)
    }

    /// Runs `f` on this thread's running update, if there is one.
    fn in_update<T>(&self, f: impl FnOnce(&mut Tx) -> Result<T>) -> Option<Result<T>> {
        let me = std::thread::current().id();
        let mut tx = Self::lock(&self.running).remove(&me)?;
        let out = f(&mut tx);
        Self::lock(&self.running).insert(me, tx);
        Some(out)
    }

    /// A command of the running update: a failure marks its connection broken.
    fn tx_cmd<T>(
        &self,
        tx: &mut Tx,
        key: &Key,
        action: &str,
        f: impl FnOnce(&mut Connection) -> RedisResult<T>,
    ) -> Result<T> {
        if tx.broken {
            return Err(failure::broken(self.server(), key, action));
        }
        f(&mut tx.conn).map_err(|e| {
            tx.broken = true;
            failure::storage(self.server(), key, action, e)
        })
    }

    /// Applies `changes`, all or none: the count of values they delete.
    fn apply(&self, key: &Key, action: &str, changes: &Changes<'_>) -> Result<u64> {
        let outcome = self.with_conn(key, action, |c| changes.apply(c))?;
        self.removed(key, action, outcome)
    }

    /// The count of values deleted, or the refusal naming the key of the wrong type.
    fn removed(&self, key: &Key, action: &str, outcome: Outcome) -> Result<u64> {
        match outcome {
            Outcome::Applied { removed } => Ok(removed),
            Outcome::Refused {
                key: name,
                held,
                role,
            } => Err(failure::refused(
                self.server(),
                key,
                action,
                &name,
                &held,
                &role,
            )),
        }
    }

    fn reentered(key: &Key, what: &str) -> Error {
        Error::new(
            ErrorKind::Conflict,
            format!(
                "Redis store re-entered: {what} of `{key}` was started from inside an update \
                 of the same store (an update's closure must not update or append)"
            ),
        )
        .with_context("key", key.as_str())
    }

    /// One try of `update`: `None` when another writer changed a watched key first.
    fn try_update(
        &self,
        key: &Key,
        apply: &mut UpdateFn<'_>,
        refused: &mut Option<Error>,
    ) -> Result<Option<()>> {
        let action = "update";
        let fail = |e| failure::storage(self.server(), key, action, e);
        let mut conn = self.checkout().map_err(fail)?;
        let current: Option<Vec<u8>> = redis::pipe()
            .cmd("WATCH")
            .arg(self.value(key))
            .ignore()
            .get(self.value(key))
            .query::<(Option<Vec<u8>>,)>(&mut conn)
            .map_err(fail)?
            .0;
        let me = std::thread::current().id();
        Self::lock(&self.running).insert(
            me,
            Tx {
                conn,
                changes: BTreeMap::new(),
                broken: false,
            },
        );
        let result = apply(current.as_deref());
        let Some(mut tx) = Self::lock(&self.running).remove(&me) else {
            return Err(failure::broken(self.server(), key, action));
        };
        if tx.broken {
            return Err(result
                .err()
                .unwrap_or_else(|| failure::broken(self.server(), key, action)));
        }
        let new = match result {
            Ok(new) => new,
            Err(e) => {
                // `apply` may have refused a view no moment held (keys read one after another
                // while another writer changed them): an empty transaction tells whether a key
                // it read changed meanwhile, and then the update runs again.
                let changed = redis::cmd("MULTI")
                    .exec(&mut tx.conn)
                    .and_then(|()| redis::cmd("EXEC").query::<Option<()>>(&mut tx.conn));
                let Ok(changed) = changed else {
                    return Err(e);
                };
                self.checkin(tx.conn);
                if changed.is_some() {
                    return Err(e);
                }
                // Given if the tries run out: the refusal, not "others kept writing".
                *refused = Some(e);
                return Ok(None);
            }
        };
        if let Some(bytes) = new {
            tx.changes.insert(key.clone(), Some(bytes));
        }
        if tx.changes.is_empty() {
            redis::cmd("UNWATCH").exec(&mut tx.conn).map_err(fail)?;
            self.checkin(tx.conn);
            return Ok(Some(()));
        }
        let mut changes = Changes::default();
        for (changed, bytes) in &tx.changes {
            let op = bytes.as_deref().map_or(Op::Delete, Op::Set);
            changes.push(&self.options.prefix, changed, op);
        }
        let done = match changes.commit(&mut tx.conn) {
            // Nothing applied: the update runs again once the script is there.
            Err(e) if change::lacks_script(&e) => {
                changes.reload(&mut tx.conn).map_err(fail)?;
                None
            }
            Err(e) => {
                changes.drop_staged(&mut tx.conn);
                return Err(fail(e));
            }
            Ok(done) => done,
        };
        self.checkin(tx.conn);
        match done {
            Some(outcome) => self.removed(key, action, outcome).map(|_| Some(())),
            None => Ok(None),
        }
    }
}

/// A random pause before retry `attempt` of an update: up to 1, 2, 4 … 32 ms.
fn backoff(attempt: u32) -> Duration {
    let cap = 1u64 << attempt.min(5);
    let noise = RandomState::new().hash_one((attempt, Instant::now()));
    Duration::from_micros(noise % (cap * 1000) + 50)
}

impl Store for RedisStore {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        if let Some(out) = self.in_update(|tx| {
            if let Some(change) = tx.changes.get(key) {
                return Ok(change.clone());
            }
            let name = self.value(key);
            self.tx_cmd(tx, key, "read", |c| {
                redis::pipe()
                    .cmd("WATCH")
                    .arg(&name)
                    .ignore()
                    .get(&name)
                    .query::<(Option<Vec<u8>>,)>(c)
                    .map(|(v,)| v)
            })
        }) {
            return out;
        }
        self.with_conn(key, "read", |c| {
            redis::cmd("GET").arg(self.value(key)).query(c)
        })
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        if let Some(out) = self.in_update(|tx| {
            tx.changes.insert(key.clone(), Some(data.to_vec()));
            Ok(())
        }) {
            return out;
        }
        let mut changes = Changes::default();
        changes.push(&self.options.prefix, key, Op::Set(data));
        self.apply(key, "write", &changes).map(drop)
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        if let Some(out) = self.in_update(|tx| {
            let existed = if let Some(change) = tx.changes.get(key) {
                change.is_some()
            } else {
                let name = self.value(key);
                self.tx_cmd(tx, key, "delete", |c| {
                    redis::pipe()
                        .cmd("WATCH")
                        .arg(&name)
                        .ignore()
                        .exists(&name)
                        .query::<(bool,)>(c)
                        .map(|(v,)| v)
                })?
            };
            tx.changes.insert(key.clone(), None);
            Ok(existed)
        }) {
            return out;
        }
        // Counted whether or not the key was there (a mark may change more often than needed).
        let mut changes = Changes::default();
        changes.push(&self.options.prefix, key, Op::Delete);
        Ok(self.apply(key, "delete", &changes)? > 0)
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let index = names::index(&self.options.prefix, prefix);
        let in_update = self.in_update(|tx| {
            let members: Vec<Vec<u8>> = self.tx_cmd(tx, prefix, "list", |c| {
                redis::pipe()
                    .cmd("WATCH")
                    .arg(&index)
                    .ignore()
                    .smembers(&index)
                    .query::<(Vec<Vec<u8>>,)>(c)
                    .map(|(v,)| v)
            })?;
            Ok((members, tx.changes.clone()))
        });
        let (members, changes) = match in_update {
            Some(out) => out?,
            None => (
                self.with_conn(prefix, "list", |c| {
                    redis::cmd("SMEMBERS").arg(&index).query::<Vec<Vec<u8>>>(c)
                })?,
                BTreeMap::new(),
            ),
        };
        let mut keys: Vec<Key> = members
            .into_iter()
            .filter_map(|m| String::from_utf8(m).ok())
            .filter_map(|m| Key::new(m).ok())
            .filter(|k| k.is_under(prefix) && !changes.contains_key(k))
            .collect();
        keys.extend(
            changes
                .into_iter()
                .filter(|(k, bytes)| bytes.is_some() && k.is_under(prefix))
                .map(|(k, _)| k),
        );
        keys.sort();
        Ok(keys)
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        if Self::lock(&self.running).contains_key(&std::thread::current().id()) {
            return Err(Self::reentered(key, "an update"));
        }
        let start = Instant::now();
        let mut attempt = 0u32;
        let mut refused = None;
        loop {
            if self.try_update(key, apply, &mut refused)?.is_some() {
                return Ok(());
            }
            if start.elapsed() > self.options.update_timeout {
                if let Some(refused) = refused {
                    return Err(refused);
                }
                return Err(Error::new(
                    ErrorKind::Conflict,
                    format!(
                        "update of `{key}` on the Redis server {} gave up after {} tries in {:?}: \
                         other writers kept changing it",
                        self.server(),
                        attempt + 1,
                        self.options.update_timeout
                    ),
                )
                .with_context("key", key.as_str())
                .with_context("server", self.server()));
            }
            std::thread::sleep(backoff(attempt));
            attempt += 1;
        }
    }

    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        if Self::lock(&self.running).contains_key(&std::thread::current().id()) {
            return Err(Self::reentered(key, "an append"));
        }
        let mut changes = Changes::default();
        changes.push(&self.options.prefix, key, Op::Append(data));
        self.apply(key, "append to", &changes).map(drop)
    }

    /// The count of changes made to `key` (or directly in it, a folder) through this store:
    /// changes made to the server by other means do not count.
    fn mark(&self, key: &Key) -> Result<Option<String>> {
        let name = names::mark(&self.options.prefix, key);
        let count: Option<u64> =
            self.with_conn(key, "mark", |c| redis::cmd("GET").arg(&name).query(c))?;
        Ok(Some(count.unwrap_or(0).to_string()))
    }
}
