//! What a Redis store URL says: the server, the key prefix and the timeouts.

use std::time::Duration;

use session_state::{Error, ErrorKind, Result};

/// The key prefix when the URL names none.
pub const DEFAULT_PREFIX: &str = "session-state";
/// How long opening a connection may take when the URL does not say.
pub const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long one command may wait for its reply when the URL does not say.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long an `update` retries after other writers changed what it watched.
pub const DEFAULT_UPDATE_TIMEOUT: Duration = Duration::from_secs(60);

/// How a [`RedisStore`](crate::RedisStore) connects and names its keys.
///
/// Parsed from one URL, `redis://[user][:password@]host[:port][/db][?prefix=P]` (or
/// `rediss://` for TLS), with the optional query parameters `prefix`, `connect_timeout_ms`
/// and `command_timeout_ms`; the builder methods change them afterwards.
#[derive(Clone)]
pub struct RedisOptions {
    /// The URL handed to the `redis` crate (our own query parameters removed).
    pub(crate) server_url: String,
    /// The server as errors show it: the URL without password or query.
    pub(crate) server: String,
    pub(crate) prefix: String,
    pub(crate) connect_timeout: Duration,
    pub(crate) command_timeout: Duration,
    pub(crate) update_timeout: Duration,
    pub(crate) ca_certificate: Option<Vec<u8>>,
}

impl std::fmt::Debug for RedisOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisOptions")
            .field("server", &self.server)
            .field("prefix", &self.prefix)
            .field("connect_timeout", &self.connect_timeout)
            .field("command_timeout", &self.command_timeout)
            .field("update_timeout", &self.update_timeout)
            .field(
                "ca_certificate",
                &self.ca_certificate.as_ref().map(Vec::len),
            )
            .finish_non_exhaustive()
    }
}

/// An `invalid_input` error about the store URL (never showing its password).
fn bad_url(server: &str, why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!("Redis store URL `{server}` is invalid: {why}"),
    )
    .with_field("store")
}

fn millis(server: &str, name: &str, value: &str) -> Result<Duration> {
    match value.parse::<u64>() {
        Ok(ms) if ms > 0 => Ok(Duration::from_millis(ms)),
        _ => Err(bad_url(
            server,
            format!("`{name}` must be a positive number of milliseconds, not `{value}`"),
        )),
    }
}

/// The URL without password, query or fragment.
fn redacted(url: &url::Url) -> String {
    let mut shown = url.clone();
    if shown.password().is_some() {
        // Cannot fail for a URL with a host, which redis URLs have.
        let _ = shown.set_password(None);
    }
    shown.set_query(None);
    shown.set_fragment(None);
    shown.to_string()
}

impl RedisOptions {
    /// Reads a store URL.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] when the URL does not parse, its scheme is not `redis` or
    /// `rediss`, it has no host, the database is not a number, or a query parameter is unknown
    /// or out of range. The message never shows the password.
    pub fn parse(url: &str) -> Result<Self> {
        let parsed = url::Url::parse(url).map_err(|e| {
            Error::new(
                ErrorKind::InvalidInput,
                format!("Redis store URL does not parse: {e}"),
            )
            .with_field("store")
        })?;
        let server = redacted(&parsed);
        if !matches!(parsed.scheme(), "redis" | "rediss") {
            return Err(bad_url(&server, "the scheme must be `redis` or `rediss`"));
        }
        if parsed.host_str().is_none_or(str::is_empty) {
            return Err(bad_url(&server, "it names no host"));
        }
        if parsed.fragment().is_some() {
            // The fragment is not shown: it may be the rest of a password holding `#`.
            return Err(bad_url(
                &server,
                "it has a fragment (`#...`), which a store URL never has (write a `#` in a \
                 password as `%23`)",
            ));
        }
        let db = parsed.path().trim_matches('/');
        if !db.is_empty() && db.parse::<u16>().is_err() {
            return Err(bad_url(
                &server,
                format!("the path must be a database number, not `{db}`"),
            ));
        }
        let mut options = RedisOptions {
            server_url: String::new(),
            server: server.clone(),
            prefix: DEFAULT_PREFIX.to_owned(),
            connect_timeout: DEFAULT_CONNECT_TIMEOUT,
            command_timeout: DEFAULT_COMMAND_TIMEOUT,
            update_timeout: DEFAULT_UPDATE_TIMEOUT,
            ca_certificate: None,
        };
        let mut passed_on = Vec::new();
        let mut seen = Vec::new();
        for (name, value) in parsed.query_pairs() {
            if seen.contains(&name) {
                return Err(bad_url(
                    &server,
                    format!("the query parameter `{name}` is given twice"),
                ));
            }
            seen.push(name.clone());
            match name.as_ref() {
                "prefix" => options.prefix = checked_prefix(&server, &value)?,
                "connect_timeout_ms" => {
                    options.connect_timeout = millis(&server, &name, &value)?;
                }
                "command_timeout_ms" => {
                    options.command_timeout = millis(&server, &name, &value)?;
                }
                "protocol" => passed_on.push((name.into_owned(), value.into_owned())),
                other => {
                    return Err(bad_url(
                        &server,
                        format!(
                            "unknown query parameter `{other}` (known: prefix, \
                             connect_timeout_ms, command_timeout_ms, protocol)"
                        ),
                    ));
                }
            }
        }
        let mut for_client = parsed;
        for_client.set_query(None);
        if !passed_on.is_empty() {
            for_client.query_pairs_mut().extend_pairs(passed_on);
        }
        options.server_url = for_client.to_string();
        Ok(options)
    }

    /// The key prefix: every Redis key the store uses starts with `PREFIX:`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] when it is empty, over 200 bytes or has a control character.
    pub fn with_prefix(mut self, prefix: &str) -> Result<Self> {
        self.prefix = checked_prefix(&self.server, prefix)?;
        Ok(self)
    }

    /// How long opening a connection may take.
    #[must_use]
    pub fn with_connect_timeout(mut self, timeout: Duration) -> Self {
        self.connect_timeout = timeout;
        self
    }

    /// How long one command may wait for its reply.
    #[must_use]
    pub fn with_command_timeout(mut self, timeout: Duration) -> Self {
        self.command_timeout = timeout;
        self
    }

    /// How long an `update` keeps retrying while other writers change what it watched, before
    /// it gives up with a `conflict` error.
    #[must_use]
    pub fn with_update_timeout(mut self, timeout: Duration) -> Self {
        self.update_timeout = timeout;
        self
    }

    /// Trusts the PEM certificate authority `pem` (instead of the system's roots) for a
    /// `rediss://` server, e.g. one with a self-signed certificate.
    #[must_use]
    pub fn with_ca_certificate(mut self, pem: Vec<u8>) -> Self {
        self.ca_certificate = Some(pem);
        self
    }

    /// The server as errors name it: the URL without its password and query.
    pub fn server(&self) -> &str {
        &self.server
    }

    /// The key prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// How long opening a connection may take.
    pub fn connect_timeout(&self) -> Duration {
        self.connect_timeout
    }

    /// How long one command may wait for its reply.
    pub fn command_timeout(&self) -> Duration {
        self.command_timeout
    }

    /// How long an `update` keeps retrying while other writers change what it watched.
    pub fn update_timeout(&self) -> Duration {
        self.update_timeout
    }
}

fn checked_prefix(server: &str, prefix: &str) -> Result<String> {
    if prefix.is_empty() || prefix.len() > 200 || prefix.chars().any(char::is_control) {
        return Err(bad_url(
            server,
            "`prefix` must be 1 to 200 bytes with no control character",
        ));
    }
    Ok(prefix.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_gives_server_prefix_and_timeouts_and_hides_the_password() {
        let o = RedisOptions::parse(
            "redis://app:s3cret@db.example:6380/2?prefix=proj-a&connect_timeout_ms=250&command_timeout_ms=900",
        )
        .unwrap();
        assert_eq!(o.server(), "redis://app@db.example:6380/2");
        assert_eq!(o.prefix(), "proj-a");
        assert_eq!(o.connect_timeout, Duration::from_millis(250));
        assert_eq!(o.command_timeout, Duration::from_millis(900));
        assert_eq!(o.server_url, "redis://app:s3cret@db.example:6380/2");
        assert!(!format!("{o:?}").contains("s3cret"));
        let d = RedisOptions::parse("rediss://h").unwrap();
        assert_eq!(d.prefix(), DEFAULT_PREFIX);
        assert_eq!(d.connect_timeout, DEFAULT_CONNECT_TIMEOUT);
    }

    #[test]
    fn bad_urls_are_invalid_input_without_the_password() {
        for url in [
            "http://:pw-xyz@h",
            "redis://:pw-xyz@h/x",
            "redis://:pw-xyz@h?prefix=",
            "redis://:pw-xyz@h?connect_timeout_ms=0",
            "redis://:pw-xyz@h?colour=red",
            "redis:///nohost",
            "not a url",
            "redis://:pw-xyz@h?prefix=a&prefix=b",
            "redis://:pw-xyz@h?command_timeout_ms=5&command_timeout_ms=5",
            "redis://:pw-xyz@h#frag",
            "redis://:pw#xyz@h",
        ] {
            let err = RedisOptions::parse(url).unwrap_err();
            assert_eq!(err.kind(), ErrorKind::InvalidInput, "{url}: {err}");
            assert!(!err.message().contains("pw-xyz"), "{err}");
        }
    }

    #[test]
    fn a_repeated_parameter_or_a_fragment_is_refused_naming_it() {
        let err =
            RedisOptions::parse("redis://h?prefix=a&connect_timeout_ms=9&prefix=b").unwrap_err();
        assert!(err.message().contains("`prefix` is given twice"), "{err}");
        let err = RedisOptions::parse("redis://h/0#secret-part").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert!(err.message().contains("fragment"), "{err}");
        assert!(!err.message().contains("secret-part"), "{err}");
    }
}
