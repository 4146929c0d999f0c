//! A mark or index key of the wrong type, planted by hand, makes every write path refuse with a
//! `storage` error naming that key, and leaves every key under the prefix as it is: `write`,
//! `delete`, `append` and the commit of an `update` (one change, or several).

mod common;

use std::collections::BTreeMap;

use redis::Connection;
use session_state::{ErrorKind, Key, Store};
use session_state_redis::RedisStore;

/// What one Redis key holds, in a form two snapshots compare by.
#[derive(Debug, PartialEq)]
enum Held {
    Text(Vec<u8>),
    Members(Vec<Vec<u8>>),
    Other(String),
}

/// Every key under `prefix` and what it holds.
fn snapshot(conn: &mut Connection, prefix: &str) -> BTreeMap<String, Held> {
    let names: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}:*"))
        .query(conn)
        .unwrap();
    names
        .into_iter()
        .map(|name| {
            let kind: String = redis::cmd("TYPE").arg(&name).query(conn).unwrap();
            let held = match kind.as_str() {
                "string" => Held::Text(redis::cmd("GET").arg(&name).query(conn).unwrap()),
                "set" => {
                    let mut members: Vec<Vec<u8>> =
                        redis::cmd("SMEMBERS").arg(&name).query(conn).unwrap();
                    members.sort();
                    Held::Members(members)
                }
                _ => Held::Other(kind),
            };
            (name, held)
        })
        .collect()
}

/// A wrong-typed key planted by hand: its name under the prefix and how it is made.
#[derive(Clone, Copy)]
enum Plant {
    /// A string that is not an integer: INCR refuses it.
    Text(&'static str),
    /// A set where a string belongs.
    Set(&'static str),
    /// A list where a set belongs.
    List(&'static str),
}

impl Plant {
    fn name(self) -> &'static str {
        match self {
            Plant::Text(n) | Plant::Set(n) | Plant::List(n) => n,
        }
    }

    fn plant(self, conn: &mut Connection, prefix: &str) -> String {
        let name = format!("{prefix}:{}", self.name());
        redis::cmd("DEL").arg(&name).exec(conn).unwrap();
        match self {
            Plant::Text(_) => redis::cmd("SET").arg(&name).arg("x").exec(conn),
            Plant::Set(_) => redis::cmd("SADD").arg(&name).arg("x").exec(conn),
            Plant::List(_) => redis::cmd("RPUSH").arg(&name).arg("x").exec(conn),
        }
        .unwrap();
        name
    }
}

/// Marks of `a/b/c` and its folder `a/b`, and the indexes `a` and `a/b` it belongs to.
const PLANTS: [Plant; 5] = [
    Plant::Text("m:a/b/c"),
    Plant::Set("m:a/b"),
    Plant::Text("i:a"),
    Plant::List("i:a/b"),
    Plant::Text("m:a/b/new"),
];

/// A store under a fresh prefix holding `a/b/c` = `old` and `a/x` = `other`, and a plain
/// connection to the same server.
fn setup(url: &str, test: &str) -> (RedisStore, Connection, String) {
    let prefix = common::unique_prefix(test);
    let store = RedisStore::open(&common::with_prefix(url, &prefix)).unwrap();
    store.write(&key("a/b/c"), b"old").unwrap();
    store.write(&key("a/x"), b"other").unwrap();
    let conn = redis::Client::open(url).unwrap().get_connection().unwrap();
    (store, conn, prefix)
}

fn key(text: &str) -> Key {
    Key::new(text).unwrap()
}

/// For each planted key: `change` fails as a `storage` error naming it, and changes nothing.
fn refuses_and_changes_nothing(
    test: &str,
    plants: &[Plant],
    change: impl Fn(&RedisStore) -> session_state::Result<()>,
) {
    let Some(url) = common::url(test) else {
        return;
    };
    for plant in plants {
        let (store, mut conn, prefix) = setup(&url, test);
        let planted = plant.plant(&mut conn, &prefix);
        let before = snapshot(&mut conn, &prefix);
        let err = change(&store).expect_err(&format!("{test} over a planted `{planted}`"));
        assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
        assert!(err.message().contains(&format!("`{planted}`")), "{err}");
        assert!(err.message().contains("should hold"), "{err}");
        assert_eq!(err.context_value("redis_key"), Some(planted.as_str()));
        assert_eq!(
            snapshot(&mut conn, &prefix),
            before,
            "{test} over a planted `{planted}` changed keys"
        );
    }
}

#[test]
fn a_write_over_a_wrong_typed_mark_or_index_changes_nothing() {
    refuses_and_changes_nothing("write", &PLANTS[..4], |s| s.write(&key("a/b/c"), b"new"));
    let new = [PLANTS[1], PLANTS[2], PLANTS[3], PLANTS[4]];
    refuses_and_changes_nothing("write_new", &new, |s| s.write(&key("a/b/new"), b"new"));
}

#[test]
fn a_delete_over_a_wrong_typed_mark_or_index_changes_nothing() {
    refuses_and_changes_nothing("delete", &PLANTS[..4], |s| {
        s.delete(&key("a/b/c")).map(drop)
    });
}

#[test]
fn an_append_over_a_wrong_typed_mark_index_or_value_changes_nothing() {
    let plants = [&PLANTS[..4], &[Plant::Set("v:a/b/c")]].concat();
    refuses_and_changes_nothing("append", &plants, |s| s.append(&key("a/b/c"), b"+more"));
    let new = [PLANTS[1], PLANTS[2], PLANTS[3], PLANTS[4]];
    refuses_and_changes_nothing("append_new", &new, |s| s.append(&key("a/b/new"), b"line"));
}

#[test]
fn an_update_over_a_wrong_typed_mark_or_index_changes_nothing() {
    refuses_and_changes_nothing("update", &PLANTS[..4], |s| {
        s.update(&key("a/b/c"), &mut |_| Ok(Some(b"new".to_vec())))
    });
}

#[test]
fn an_update_of_several_keys_applies_none_when_one_key_is_wrong_typed() {
    // The planted key belongs to the last change applied (`q/r`, after `a/b/c` and `a/x`).
    let plants = [
        PLANTS[0],
        Plant::Text("m:q/r"),
        Plant::List("m:q"),
        Plant::Text("i:q"),
    ];
    refuses_and_changes_nothing("update_several", &plants, |s| {
        s.update(&key("a/b/c"), &mut |_| {
            s.write(&key("q/r"), b"written")?;
            s.delete(&key("a/x"))?;
            Ok(Some(b"new".to_vec()))
        })
    });
}

#[test]
fn once_the_wrong_typed_key_is_gone_the_retried_write_applies_once() {
    let Some(url) = common::url("retry") else {
        return;
    };
    let (store, mut conn, prefix) = setup(&url, "retry");
    let k = key("a/b/c");
    // A server without the script loads it again on the first call that needs it.
    redis::cmd("SCRIPT").arg("FLUSH").exec(&mut conn).unwrap();
    for plant in [PLANTS[0], PLANTS[1], PLANTS[3]] {
        let planted = plant.plant(&mut conn, &prefix);
        assert!(store.append(&k, b"+line").is_err());
        redis::cmd("DEL").arg(&planted).exec(&mut conn).unwrap();
        store.append(&k, b"+line").unwrap();
    }
    assert_eq!(
        store.read(&k).unwrap().as_deref(),
        Some(&b"old+line+line+line"[..])
    );
    assert_eq!(store.list(&key("a")).unwrap(), [key("a/b/c"), key("a/x")]);
    assert_eq!(store.list(&key("a/b")).unwrap(), [key("a/b/c")]);
    let planted = PLANTS[1].plant(&mut conn, &prefix);
    assert!(store.write(&k, b"new").is_err());
    redis::cmd("DEL").arg(&planted).exec(&mut conn).unwrap();
    store.write(&k, b"new").unwrap();
    assert_eq!(store.read(&k).unwrap().as_deref(), Some(&b"new"[..]));
    assert_eq!(store.mark(&key("a/b")).unwrap().as_deref(), Some("1"));
    // An update on a server without the script runs again once it is loaded.
    redis::cmd("SCRIPT").arg("FLUSH").exec(&mut conn).unwrap();
    store
        .update(&k, &mut |old| Ok(Some([old.unwrap(), b"+1"].concat())))
        .unwrap();
    assert_eq!(store.read(&k).unwrap().as_deref(), Some(&b"new+1"[..]));
    // No staged value is left behind.
    let staged = snapshot(&mut conn, &prefix)
        .into_keys()
        .filter(|name| name.starts_with(&format!("{prefix}:s:")))
        .collect::<Vec<_>>();
    assert!(staged.is_empty(), "{staged:?}");
}

#[test]
fn a_script_the_server_refuses_to_run_leaves_no_staged_value() {
    let Some(url) = common::url("acl") else {
        return;
    };
    let (_, mut conn, prefix) = setup(&url, "acl");
    // A user the ACL lets stage and call the script, but not run its RENAME.
    let user = format!("{prefix}-user");
    redis::cmd("ACL")
        .arg("SETUSER")
        .arg(&user)
        .arg("on")
        .arg(">pw")
        .arg("~*")
        .arg("+@all")
        .arg("-rename")
        .exec(&mut conn)
        .unwrap();
    let limited = url.replacen("redis://", &format!("redis://{user}:pw@"), 1);
    let store = RedisStore::open(&common::with_prefix(&limited, &prefix)).unwrap();
    let before = snapshot(&mut conn, &prefix);
    let err = store.write(&key("a/b/c"), b"new").unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    let err = store
        .update(&key("a/x"), &mut |_| Ok(Some(b"changed".to_vec())))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Storage, "{err}");
    assert_eq!(
        snapshot(&mut conn, &prefix),
        before,
        "a staged value was left"
    );
    redis::cmd("ACL")
        .arg("DELUSER")
        .arg(&user)
        .exec(&mut conn)
        .unwrap();
}

#[test]
fn a_mark_counts_up_to_the_largest_integer_incr_can_add_one_to() {
    let Some(url) = common::url("mark_range") else {
        return;
    };
    let (store, mut conn, prefix) = setup(&url, "mark_range");
    let mark = format!("{prefix}:m:a/b/c");
    for fine in ["999999999999999999", "9223372036854775806", "-5"] {
        redis::cmd("SET")
            .arg(&mark)
            .arg(fine)
            .exec(&mut conn)
            .unwrap();
        store.write(&key("a/b/c"), b"v").unwrap();
    }
    // 2^63 - 1: INCR would overflow.
    redis::cmd("SET")
        .arg(&mark)
        .arg("9223372036854775807")
        .exec(&mut conn)
        .unwrap();
    let err = store.write(&key("a/b/c"), b"w").unwrap_err();
    assert_eq!(err.context_value("redis_key"), Some(mark.as_str()), "{err}");
    assert_eq!(
        store.read(&key("a/b/c")).unwrap().as_deref(),
        Some(&b"v"[..])
    );
}
