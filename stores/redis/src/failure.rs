//! Redis failures, and keys of the wrong type the change script refuses, as the core's
//! `storage` errors naming the server without its password.

use redis::RedisError;
use session_state::{Error, ErrorKind, Key};

/// What kind of failure `err` is, in a few words for the message.
fn what(err: &RedisError) -> &'static str {
    if err.is_timeout() {
        "timed out"
    } else if err.is_connection_refusal() {
        "connection refused"
    } else if err.is_connection_dropped() {
        "connection lost"
    } else if matches!(err.kind(), redis::ErrorKind::AuthenticationFailed)
        || err
            .code()
            .is_some_and(|c| matches!(c, "WRONGPASS" | "NOAUTH"))
    {
        "authentication failed"
    } else if matches!(err.kind(), redis::ErrorKind::Parse) {
        "its reply is not in the Redis protocol (is another kind of server listening there?)"
    } else if matches!(err.kind(), redis::ErrorKind::UnexpectedReturnType) {
        "unexpected reply"
    } else if err.is_io_error() {
        "I/O error"
    } else {
        "server error"
    }
}

/// The `storage` error of `action` on `key` failing with `err` on `server`: one line, with
/// the `redis` crate's own text in brackets but for a reply that is not Redis's (its text
/// quotes the bytes received, over several lines; it stays the error's source).
pub(crate) fn storage(server: &str, key: &Key, action: &str, err: RedisError) -> Error {
    let detail = if matches!(err.kind(), redis::ErrorKind::Parse) {
        String::new()
    } else {
        format!(
            " ({})",
            err.to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        )
    };
    Error::new(
        ErrorKind::Storage,
        format!(
            "cannot {action} `{key}` on the Redis server {server}: {}{detail}",
            what(&err)
        ),
    )
    .with_context("key", key.as_str())
    .with_context("server", server)
    .with_source(err)
}

/// The `storage` error of a connection that failed in a way the `redis` crate did not report,
/// e.g. a command that timed out earlier in the same update.
pub(crate) fn broken(server: &str, key: &Key, action: &str) -> Error {
    Error::new(
        ErrorKind::Storage,
        format!(
            "cannot {action} `{key}` on the Redis server {server}: the connection failed \
             during the update"
        ),
    )
    .with_context("key", key.as_str())
    .with_context("server", server)
}

/// The `storage` error of `action` on `key` refused by the change script: the Redis key
/// `redis_key` holds `held` (a Redis type, or `text`: a string that is not an integer) where
/// a `role` (`mark`, `index` or `value`) belongs. Nothing is changed.
pub(crate) fn refused(
    server: &str,
    key: &Key,
    action: &str,
    redis_key: &str,
    held: &str,
    role: &str,
) -> Error {
    let wants = match role {
        "mark" => "a change counter (a string holding an integer below 2^63 - 1)",
        "index" => "a folder's index (a set of keys)",
        _ => "the key's bytes (a string)",
    };
    let held = match held {
        "text" => "a string that is not such an integer".to_owned(),
        "zset" => "a sorted set".to_owned(),
        other => format!("a {other}"),
    };
    Error::new(
        ErrorKind::Storage,
        format!(
            "cannot {action} `{key}` on the Redis server {server}: the Redis key `{redis_key}` \
             should hold {wants} but holds {held}; nothing is changed (delete or repair that key)"
        ),
    )
    .with_context("key", key.as_str())
    .with_context("server", server)
    .with_context("redis_key", redis_key)
}
