//! The change script: the writes, deletes and appends of one store call, applied all together
//! or not at all.
//!
//! Redis does not undo the commands of a `MULTI`/`EXEC` that ran before one failed, and an
//! `INCR` of a mark or an `SADD` to an index that holds the wrong type fails. So one
//! `MULTI`/`EXEC` (one round trip) `SET`s each new value under its staged name and runs the
//! script (`change.lua`, `EVALSHA`): it checks the type of every key it touches first, then
//! renames each staged value onto its key and changes the indexes and marks. A key of the
//! wrong type is refused: the staged values are dropped and nothing else changes. New values
//! reach the script as key names, not arguments: Lua copies and hashes each argument, about
//! 1.2 µs per KB on Redis 7.0.

use std::sync::LazyLock;

use redis::{
    Connection, FromRedisValue, ParsingError, Pipeline, RedisError, RedisResult, Script,
    ServerErrorKind, Value,
};
use session_state::Key;

use crate::names;

const SOURCE: &str = include_str!("change.lua");

static SCRIPT: LazyLock<Script> = LazyLock::new(|| Script::new(SOURCE));

/// What happens to one key.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Op<'a> {
    Set(&'a [u8]),
    Append(&'a [u8]),
    Delete,
}

/// The changes of one store call: the values to stage, and the script's keys and arguments.
#[derive(Debug, Default)]
pub(crate) struct Changes<'a> {
    staged: Vec<(String, &'a [u8])>,
    keys: Vec<String>,
    args: Vec<Vec<u8>>,
}

/// What the script did.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// Every change applied; `removed` values existed and are deleted.
    Applied { removed: u64 },
    /// Nothing changed: the Redis key `key` holds `held` (a Redis type, or `text` for a string
    /// that is not an integer) where a `role` (`mark`, `index` or `value`) belongs.
    Refused {
        key: String,
        held: String,
        role: String,
    },
}

impl<'a> Changes<'a> {
    /// Adds `op` on `key`: its value, its two marks and its folders' indexes.
    pub(crate) fn push(&mut self, prefix: &str, key: &Key, op: Op<'a>) -> &mut Self {
        let indexes = names::indexes(prefix, key);
        let (name, appended): (&str, &[u8]) = match op {
            Op::Set(bytes) => {
                self.staged.push((names::staged(prefix, key), bytes));
                ("set", b"")
            }
            Op::Append(bytes) => ("append", bytes),
            Op::Delete => ("del", b""),
        };
        self.args.extend([
            name.as_bytes().to_vec(),
            indexes.len().to_string().into_bytes(),
            key.as_str().as_bytes().to_vec(),
            appended.to_vec(),
        ]);
        self.keys.push(names::value(prefix, key));
        self.keys.push(names::staged(prefix, key));
        self.keys.extend(names::marks(prefix, key));
        self.keys.extend(indexes);
        self
    }

    /// Stages the values and runs the script in one `MULTI`/`EXEC`: `None` when a key `conn`
    /// watches changed first (then nothing ran).
    pub(crate) fn commit(&self, conn: &mut Connection) -> RedisResult<Option<Outcome>> {
        let mut pipe = redis::pipe();
        pipe.atomic();
        for (name, bytes) in &self.staged {
            pipe.set(name, *bytes).ignore();
        }
        pipe.invoke_script(
            SCRIPT
                .prepare_invoke()
                .key(self.keys.as_slice())
                .arg(self.args.as_slice()),
        );
        Ok(pipe.query::<Option<(Outcome,)>>(conn)?.map(|(o,)| o))
    }

    /// [`commit`](Self::commit) on a connection that watches nothing; when the server lacks the
    /// script, loads it and commits again.
    pub(crate) fn apply(&self, conn: &mut Connection) -> RedisResult<Outcome> {
        let done = match self.commit(conn) {
            Err(e) if lacks_script(&e) => {
                self.reload(conn)?;
                self.commit(conn)
            }
            other => other,
        }
        .inspect_err(|_| self.drop_staged(conn))?;
        done.ok_or_else(|| {
            RedisError::from((
                redis::ErrorKind::UnexpectedReturnType,
                "EXEC aborted on a connection that watches nothing",
            ))
        })
    }

    /// Drops the values [`commit`](Self::commit) staged, after it failed otherwise than by
    /// lacking the script (a script error, a command the server's ACL refuses): best effort,
    /// as the connection may be gone with the failure.
    pub(crate) fn drop_staged(&self, conn: &mut Connection) {
        if !self.staged.is_empty() {
            let _ = self.dropping_staged(redis::pipe()).exec(conn);
        }
    }

    /// `pipe` with a `DEL` of each value [`commit`](Self::commit) stages.
    fn dropping_staged(&self, mut pipe: Pipeline) -> Pipeline {
        for (name, _) in &self.staged {
            pipe.del(name).ignore();
        }
        pipe
    }

    /// Loads the script into the server of `conn` and drops the values
    /// [`commit`](Self::commit) staged for it, after [`lacks_script`].
    pub(crate) fn reload(&self, conn: &mut Connection) -> RedisResult<()> {
        let mut pipe = redis::pipe();
        pipe.cmd("SCRIPT").arg("LOAD").arg(SOURCE).ignore();
        self.dropping_staged(pipe).exec(conn)
    }
}

/// Whether `err` says the server lacks the script: of the transaction, only the staging ran.
pub(crate) fn lacks_script(err: &RedisError) -> bool {
    err.kind() == redis::ErrorKind::Server(ServerErrorKind::NoScript)
}

impl FromRedisValue for Outcome {
    fn from_redis_value(v: Value) -> Result<Self, ParsingError> {
        if let Value::Int(removed) = v {
            return Ok(Outcome::Applied {
                removed: removed.unsigned_abs(),
            });
        }
        let (key, held, role) = redis::from_redis_value(v)?;
        Ok(Outcome::Refused { key, held, role })
    }
}
