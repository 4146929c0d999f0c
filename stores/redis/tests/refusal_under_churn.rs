//! An update whose closure refuses what it read, while another writer changes the key at
//! every try, retries until its update timeout and then returns the closure's refusal (what
//! the caller can act on), not "other writers kept changing it".

mod common;

use std::time::Duration;

use session_state::{Error, ErrorKind, Key, Store};
use session_state_redis::{RedisOptions, RedisStore};

#[test]
fn a_refusal_that_every_try_meets_under_churn_is_returned_when_the_tries_run_out() {
    let Some(url) = common::url("refusal_under_churn") else {
        return;
    };
    let url = common::with_prefix(&url, &common::unique_prefix("refusal-churn"));
    let options = RedisOptions::parse(&url)
        .unwrap()
        .with_update_timeout(Duration::from_millis(300));
    let store = RedisStore::with_options(options).unwrap();
    // Another store (another connection pool): its writes are another writer's.
    let other = RedisStore::open(&url).unwrap();
    let key = Key::new("churn.json").unwrap();
    store.write(&key, b"0").unwrap();

    let mut tries = 0u32;
    let err = store
        .update(&key, &mut |current| {
            tries += 1;
            // The key changes between this try's read and its end, so every try is retried.
            other.write(&key, tries.to_string().as_bytes())?;
            Err(Error::new(
                ErrorKind::InvalidInput,
                format!("refused what was read: {:?}", current.map(<[u8]>::to_vec)),
            ))
        })
        .unwrap_err();

    assert_eq!(err.kind(), ErrorKind::InvalidInput, "{err}");
    assert!(err.message().starts_with("refused what was read"), "{err}");
    assert!(
        tries > 1,
        "the refusal of a changed view is retried ({tries} tries)"
    );
    assert_eq!(
        store.read(&key).unwrap().unwrap(),
        tries.to_string().as_bytes()
    );
}

#[test]
fn a_refusal_of_a_view_nobody_changed_is_returned_at_once() {
    let Some(url) = common::url("refusal_at_once") else {
        return;
    };
    let store = common::store(&url, "refusal-at-once");
    let key = Key::new("quiet.json").unwrap();
    let mut tries = 0u32;
    let err = store
        .update(&key, &mut |_| {
            tries += 1;
            Err(Error::new(ErrorKind::InvalidInput, "refused"))
        })
        .unwrap_err();
    assert_eq!(err.message(), "refused");
    assert_eq!(tries, 1);
}
