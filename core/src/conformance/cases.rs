//! The cases of the conformance suite. Each takes the store and its own empty folder key and
//! returns `Err(message)` at the first behaviour that differs from the [`Store`] contract.

use std::fmt::Display;

use super::{Case, counter_increment, counter_value, describe};
use crate::error::{Error, ErrorKind, Result};
use crate::key::{Key, MAX_SEGMENT_BYTES};
use crate::store::{Store, update_with};

type CaseResult = Result<(), String>;

pub(super) const ALL: &[Case] = &[
    Case {
        name: "read_your_writes",
        description: "a value written is read back byte for byte, also at depth",
        run: read_your_writes,
    },
    Case {
        name: "missing_key_reads_none",
        description: "a key never written reads as none, and so does one below a missing folder",
        run: missing_key_reads_none,
    },
    Case {
        name: "overwrite_replaces_wholly",
        description: "a shorter value replaces a longer one without leaving its tail",
        run: overwrite_replaces_wholly,
    },
    Case {
        name: "delete_reports_existence",
        description: "delete returns true for a present key, false for an absent one, and removes it",
        run: delete_reports_existence,
    },
    Case {
        name: "list_only_below_prefix_sorted",
        description: "list returns every key strictly below the folder at any depth, sorted, \
                      and no sibling-prefixed key (`a/b` vs `ab`)",
        run: list_only_below_prefix_sorted,
    },
    Case {
        name: "list_missing_folder_is_empty",
        description: "listing a folder that holds nothing returns an empty list, not an error",
        run: list_missing_folder_is_empty,
    },
    Case {
        name: "update_sees_current_bytes",
        description: "update's closure receives the current bytes, or none for an absent key",
        run: update_sees_current_bytes,
    },
    Case {
        name: "update_none_writes_nothing",
        description: "an update whose closure returns none leaves the key as it was (present or absent)",
        run: update_none_writes_nothing,
    },
    Case {
        name: "update_error_writes_nothing",
        description: "an update whose closure fails writes nothing and returns that same error",
        run: update_error_writes_nothing,
    },
    Case {
        name: "update_may_use_other_keys",
        description: "update's closure may read and write other keys of the same store",
        run: update_may_use_other_keys,
    },
    Case {
        name: "update_may_delete_its_key",
        description: "an update may delete its own key and write nothing: the key is then gone",
        run: update_may_delete_its_key,
    },
    Case {
        name: "append_creates_then_appends",
        description: "append creates an absent key, then adds to the end of it",
        run: append_creates_then_appends,
    },
    Case {
        name: "binary_and_empty_values_round_trip",
        description: "all 256 byte values and the empty value round-trip (empty is not none)",
        run: binary_and_empty_values_round_trip,
    },
    Case {
        name: "unicode_keys_round_trip",
        description: "keys with non-ascii segments are written, read and listed unchanged",
        run: unicode_keys_round_trip,
    },
    Case {
        name: "longest_segment_round_trips",
        description: "a key whose last segment has the maximum 255 bytes supports every operation",
        run: longest_segment_round_trips,
    },
    Case {
        name: "counter_increment_counts",
        description: "counter_increment counts 1, 2, 3 and refuses a non-counter without writing",
        run: counter_increment_counts,
    },
    Case {
        name: "finished_writes_leave_no_leftovers",
        description: "after writes, updates, appends and deletes that returned, `leftovers` finds \
                      nothing, `remove_leftovers` removes nothing, keys included, and `unlisted` \
                      finds nothing",
        run: finished_writes_leave_no_leftovers,
    },
    Case {
        name: "marks_change_with_what_they_mark",
        description: "a key's mark differs after its bytes change, a folder's after a key in \
                      it is added, replaced or removed, and stays the same without a change \
                      (a store without marks gives none)",
        run: marks_change_with_what_they_mark,
    },
    Case {
        name: "invalid_keys_are_unrepresentable",
        description: "hostile keys and segments are refused by `Key` itself, so no store sees them",
        run: invalid_keys_are_unrepresentable,
    },
    super::ownership_cases::CASES[0],
    super::ownership_cases::CASES[1],
    super::ownership_cases::CASES[2],
    super::ownership_cases::CASES[3],
];

/// A store operation's result, with a failure described as `<what> failed: [code] message`.
fn op<T>(what: impl Display, result: Result<T>) -> Result<T, String> {
    result.map_err(|e| format!("{what} failed: {}", describe(&e)))
}

/// `dir` joined with the `/`-separated relative key `rel`.
fn at(dir: &Key, rel: &str) -> Result<Key, String> {
    Key::new(format!("{dir}/{rel}")).map_err(|e| format!("test key `{rel}` is invalid: {e}"))
}

/// Bytes shown for a message: escaped, and cut after 64 bytes.
fn show(bytes: Option<&[u8]>) -> String {
    match bytes {
        None => "none".to_owned(),
        Some(b) if b.len() > 64 => {
            format!("{} bytes `{}`...", b.len(), b[..64].escape_ascii())
        }
        Some(b) => format!("`{}`", b.escape_ascii()),
    }
}

/// Reads `key` and checks it holds `expected`; `why` says what was being checked.
fn expect(store: &dyn Store, key: &Key, expected: Option<&[u8]>, why: &str) -> CaseResult {
    let got = op(format_args!("read `{key}`"), store.read(key))?;
    if got.as_deref() == expected {
        Ok(())
    } else {
        Err(format!(
            "{why}: `{key}` reads {} instead of {}",
            show(got.as_deref()),
            show(expected)
        ))
    }
}

fn expect_list(store: &dyn Store, dir: &Key, expected: &[&Key], why: &str) -> CaseResult {
    let got = op(format_args!("list `{dir}`"), store.list(dir))?;
    if got.iter().eq(expected.iter().copied()) {
        Ok(())
    } else {
        let got: Vec<&str> = got.iter().map(Key::as_str).collect();
        let expected: Vec<&str> = expected.iter().map(|k| k.as_str()).collect();
        Err(format!(
            "{why}: list `{dir}` gives {got:?} instead of {expected:?}"
        ))
    }
}

fn read_your_writes(store: &dyn Store, dir: &Key) -> CaseResult {
    let shallow = at(dir, "value.json")?;
    let deep = at(dir, "a/b/c/d/value.json")?;
    op("write", store.write(&shallow, b"{\"n\":1}"))?;
    expect(store, &shallow, Some(b"{\"n\":1}"), "read after write")?;
    op("write", store.write(&deep, b"deep"))?;
    expect(
        store,
        &deep,
        Some(b"deep"),
        "read after a write that creates folders",
    )?;
    expect(
        store,
        &shallow,
        Some(b"{\"n\":1}"),
        "another key's write changed this one",
    )
}

fn missing_key_reads_none(store: &dyn Store, dir: &Key) -> CaseResult {
    expect(store, &at(dir, "never-written")?, None, "missing key")?;
    expect(
        store,
        &at(dir, "no/such/folder/key")?,
        None,
        "key below a missing folder",
    )?;
    op("write", store.write(&at(dir, "present")?, b"x"))?;
    expect(store, &at(dir, "presen")?, None, "prefix of a present key")?;
    expect(
        store,
        &at(dir, "present2")?,
        None,
        "extension of a present key",
    )
}

fn overwrite_replaces_wholly(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "value")?;
    op(
        "write",
        store.write(&key, b"a long first value, longer than the next"),
    )?;
    op("write", store.write(&key, b"short"))?;
    expect(
        store,
        &key,
        Some(b"short"),
        "overwrite with a shorter value",
    )?;
    op("write", store.write(&key, b"a longer third value"))?;
    expect(
        store,
        &key,
        Some(b"a longer third value"),
        "overwrite with a longer value",
    )?;
    op("write", store.write(&key, b""))?;
    expect(store, &key, Some(b""), "overwrite with the empty value")
}

fn delete_reports_existence(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "gone")?;
    let other = at(dir, "kept")?;
    op("write", store.write(&key, b"x"))?;
    op("write", store.write(&other, b"y"))?;
    if !op("delete", store.delete(&key))? {
        return Err(format!("delete of present `{key}` returned false"));
    }
    expect(store, &key, None, "read after delete")?;
    if op("delete", store.delete(&key))? {
        return Err(format!("second delete of `{key}` returned true"));
    }
    if op("delete", store.delete(&at(dir, "never/written")?))? {
        return Err("delete of a key below a missing folder returned true".to_owned());
    }
    expect(store, &other, Some(b"y"), "delete removed another key")?;
    expect_list(store, dir, &[&other], "list after delete")
}

fn list_only_below_prefix_sorted(store: &dyn Store, dir: &Key) -> CaseResult {
    let folder = at(dir, "a")?;
    // Written out of order on purpose; `a/b` and `ab`, `a-x`, `a.json` share the prefix `a`.
    let inside = [
        at(dir, "a/z")?,
        at(dir, "a/b")?,
        at(dir, "a/c/d/e")?,
        at(dir, "a/c/d0")?,
        at(dir, "a/B")?,
        at(dir, "a/b-sibling")?,
    ];
    let outside = [
        at(dir, "ab")?,
        at(dir, "a-x")?,
        at(dir, "a.json")?,
        at(dir, "b/a")?,
    ];
    for key in inside.iter().chain(&outside) {
        op(
            format_args!("write `{key}`"),
            store.write(key, key.as_str().as_bytes()),
        )?;
    }
    let mut expected: Vec<&Key> = inside.iter().collect();
    expected.sort();
    expect_list(store, &folder, &expected, "list of a folder")?;
    let mut sub = vec![&inside[2], &inside[3]];
    sub.sort();
    expect_list(store, &at(dir, "a/c")?, &sub, "list of a nested folder")?;
    let mut all: Vec<&Key> = inside.iter().chain(&outside).collect();
    all.sort();
    expect_list(store, dir, &all, "list of the case folder")
}

fn list_missing_folder_is_empty(store: &dyn Store, dir: &Key) -> CaseResult {
    expect_list(store, &at(dir, "missing")?, &[], "list of a missing folder")?;
    expect_list(
        store,
        &at(dir, "missing/deeper")?,
        &[],
        "list of a missing nested folder",
    )?;
    let key = at(dir, "file")?;
    op("write", store.write(&key, b"x"))?;
    expect_list(
        store,
        &at(dir, "fil")?,
        &[],
        "list of a folder named like a key's prefix",
    )
}

fn update_sees_current_bytes(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "doc")?;
    let seen = op(
        "update",
        update_with(store, &key, |old| {
            Ok((Some(b"one".to_vec()), old.map(<[u8]>::to_vec)))
        }),
    )?;
    if seen.is_some() {
        return Err(format!(
            "update of absent `{key}` saw {}",
            show(seen.as_deref())
        ));
    }
    expect(
        store,
        &key,
        Some(b"one"),
        "read after an update that created the key",
    )?;
    op("write", store.write(&key, b"two"))?;
    let seen = op(
        "update",
        update_with(store, &key, |old| {
            Ok((Some(b"three".to_vec()), old.map(<[u8]>::to_vec)))
        }),
    )?;
    if seen.as_deref() != Some(b"two") {
        return Err(format!(
            "update of `{key}` saw {} instead of `two`",
            show(seen.as_deref())
        ));
    }
    expect(store, &key, Some(b"three"), "read after update")
}

fn update_none_writes_nothing(store: &dyn Store, dir: &Key) -> CaseResult {
    let absent = at(dir, "absent")?;
    op("update", store.update(&absent, &mut |_| Ok(None)))?;
    expect(
        store,
        &absent,
        None,
        "update returning none on an absent key",
    )?;
    expect_list(store, dir, &[], "list after an update that wrote nothing")?;
    let present = at(dir, "present")?;
    op("write", store.write(&present, b"kept"))?;
    op("update", store.update(&present, &mut |_| Ok(None)))?;
    expect(
        store,
        &present,
        Some(b"kept"),
        "update returning none on a present key",
    )
}

fn update_error_writes_nothing(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "doc")?;
    let message = "conformance: the closure refused";
    let check = |result: Result<()>| -> CaseResult {
        match result {
            Ok(()) => Err(format!(
                "update of `{key}` whose closure failed returned ok"
            )),
            Err(e) if e.kind() == ErrorKind::InvalidInput && e.message() == message => Ok(()),
            Err(e) => Err(format!(
                "update of `{key}` returned {} instead of the closure's [invalid_input] {message}",
                describe(&e)
            )),
        }
    };
    check(store.update(&key, &mut |_| Err(Error::invalid_input(message))))?;
    expect(store, &key, None, "failed update on an absent key")?;
    op("write", store.write(&key, b"before"))?;
    check(store.update(&key, &mut |_| Err(Error::invalid_input(message))))?;
    expect(
        store,
        &key,
        Some(b"before"),
        "failed update on a present key",
    )
}

fn update_may_use_other_keys(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "journal")?;
    let other = at(dir, "base")?;
    op("write", store.write(&other, b"base-1"))?;
    let seen = op(
        "update",
        update_with(store, &key, |_| {
            let base = store.read(&other)?;
            store.write(&other, b"base-2")?;
            Ok((Some(b"journal".to_vec()), base))
        }),
    )?;
    if seen.as_deref() != Some(b"base-1") {
        return Err(format!(
            "read of `{other}` inside an update gave {}",
            show(seen.as_deref())
        ));
    }
    expect(
        store,
        &other,
        Some(b"base-2"),
        "write of another key inside an update",
    )?;
    expect(
        store,
        &key,
        Some(b"journal"),
        "update that also wrote another key",
    )
}

fn update_may_delete_its_key(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "current")?;
    let archive = at(dir, "archive")?;
    op("write", store.write(&key, b"session"))?;
    let existed = op(
        "update",
        update_with(store, &key, |old| {
            store.write(&archive, old.unwrap_or_default())?;
            Ok((None, store.delete(&key)?))
        }),
    )?;
    if !existed {
        return Err(format!(
            "delete of `{key}` inside its own update said it was absent"
        ));
    }
    expect(
        store,
        &archive,
        Some(b"session"),
        "write of another key before the delete",
    )?;
    expect(store, &key, None, "update that deleted its own key")
}

/// One change of the case below: what it is, the key it changes, whether it adds, replaces
/// or removes a key of the folder (an append to a present key does not), and the change.
type MarkStep<'s> = (
    &'static str,
    &'s Key,
    bool,
    Box<dyn Fn() -> Result<()> + 's>,
);

fn marks_change_with_what_they_mark(store: &dyn Store, dir: &Key) -> CaseResult {
    let folder = at(dir, "f")?;
    let (a, c) = (at(dir, "f/a")?, at(dir, "f/c")?);
    let mark = |key: &Key| op(format_args!("mark of `{key}`"), store.mark(key));
    let steps: Vec<MarkStep<'_>> = vec![
        (
            "write of a new key",
            &a,
            true,
            Box::new(|| store.write(&a, b"1")),
        ),
        ("overwrite", &a, true, Box::new(|| store.write(&a, b"22"))),
        (
            "update",
            &a,
            true,
            Box::new(|| store.update(&a, &mut |_| Ok(Some(b"3".to_vec())))),
        ),
        (
            "append creating a key",
            &c,
            true,
            Box::new(|| store.append(&c, b"x")),
        ),
        ("append", &c, false, Box::new(|| store.append(&c, b"y"))),
        ("delete", &a, true, Box::new(|| store.delete(&a).map(drop))),
        (
            "update deleting its key",
            &c,
            true,
            Box::new(|| {
                store.update(&c, &mut |_| {
                    store.delete(&c)?;
                    Ok(None)
                })
            }),
        ),
    ];
    for (what, key, names, change) in steps {
        let (folder_before, key_before) = (mark(&folder)?, mark(key)?);
        let (again, key_again) = (mark(&folder)?, mark(key)?);
        for (before, again, of) in [
            (&folder_before, &again, &folder),
            (&key_before, &key_again, key),
        ] {
            if let (Some(before), Some(again)) = (before, again)
                && before != again
            {
                return Err(format!(
                    "before the {what}: the mark of `{of}` went from `{before}` to `{again}` \
                     without a change"
                ));
            }
        }
        op(what, change())?;
        let mut checks = vec![(key_before, mark(key)?, key)];
        if names {
            checks.push((folder_before, mark(&folder)?, &folder));
        }
        for (before, after, of) in checks {
            if let (Some(before), Some(after)) = (before, after)
                && before == after
            {
                return Err(format!(
                    "the {what} of `{key}` left the mark of `{of}` as it was (`{after}`)"
                ));
            }
        }
    }
    Ok(())
}

fn append_creates_then_appends(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "log/events.jsonl")?;
    op("append", store.append(&key, b"{\"n\":1}\n"))?;
    expect(store, &key, Some(b"{\"n\":1}\n"), "append to an absent key")?;
    op("append", store.append(&key, b"{\"n\":2}\n"))?;
    op("append", store.append(&key, b""))?;
    expect(
        store,
        &key,
        Some(b"{\"n\":1}\n{\"n\":2}\n"),
        "second append",
    )?;
    op("write", store.write(&key, b"reset\n"))?;
    op("append", store.append(&key, b"more\n"))?;
    expect(store, &key, Some(b"reset\nmore\n"), "append after a write")
}

fn binary_and_empty_values_round_trip(store: &dyn Store, dir: &Key) -> CaseResult {
    let all_bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
    let binary = at(dir, "binary.bin")?;
    op("write", store.write(&binary, &all_bytes))?;
    expect(store, &binary, Some(&all_bytes), "binary value")?;
    let crlf = at(dir, "crlf.txt")?;
    op("write", store.write(&crlf, b"a\r\nb\rc\n\0"))?;
    expect(
        store,
        &crlf,
        Some(b"a\r\nb\rc\n\0"),
        "line endings and NUL kept as written",
    )?;
    let empty = at(dir, "empty")?;
    op("write", store.write(&empty, b""))?;
    expect(store, &empty, Some(b""), "empty value")?;
    expect_list(
        store,
        dir,
        &[&binary, &crlf, &empty],
        "list with an empty value",
    )?;
    let seen = op(
        "update",
        update_with(store, &empty, |old| Ok((None, old.map(<[u8]>::to_vec)))),
    )?;
    if seen.as_deref() != Some(b"") {
        return Err(format!(
            "update of empty `{empty}` saw {}",
            show(seen.as_deref())
        ));
    }
    Ok(())
}

fn unicode_keys_round_trip(store: &dyn Store, dir: &Key) -> CaseResult {
    let keys = [
        at(dir, "한국어/세션.json")?,
        at(dir, "emoji-😀/x")?,
        at(dir, "e\u{301}te\u{301}.json")?,
        at(dir, "\u{e9}t\u{e9}.json")?,
        at(dir, "name with spaces")?,
    ];
    for key in &keys {
        op(
            format_args!("write `{key}`"),
            store.write(key, key.as_str().as_bytes()),
        )?;
    }
    for key in &keys {
        expect(store, key, Some(key.as_str().as_bytes()), "unicode key")?;
    }
    let mut expected: Vec<&Key> = keys.iter().collect();
    expected.sort();
    expect_list(
        store,
        dir,
        &expected,
        "list of unicode keys (not normalised)",
    )?;
    expect_list(
        store,
        &at(dir, "한국어")?,
        &[&keys[0]],
        "list of a unicode folder",
    )
}

fn longest_segment_round_trips(store: &dyn Store, dir: &Key) -> CaseResult {
    let name = "n".repeat(MAX_SEGMENT_BYTES);
    let key = op("join", dir.join(&name))?;
    op("write", store.write(&key, b"1"))?;
    expect(store, &key, Some(b"1"), "255-byte segment")?;
    op(
        "update",
        store.update(&key, &mut |old| Ok(old.map(|b| [b, b"2"].concat()))),
    )?;
    op("append", store.append(&key, b"3"))?;
    expect(
        store,
        &key,
        Some(b"123"),
        "255-byte segment after update and append",
    )?;
    expect_list(store, dir, &[&key], "list with a 255-byte segment")?;
    // A multi-byte name at the limit: 85 three-byte characters.
    let wide = op("join", dir.join(&"한".repeat(MAX_SEGMENT_BYTES / 3)))?;
    op("append", store.append(&wide, b"x"))?;
    expect(store, &wide, Some(b"x"), "255-byte multi-byte segment")
}

fn counter_increment_counts(store: &dyn Store, dir: &Key) -> CaseResult {
    let key = at(dir, "counter")?;
    for expected in 1..=3u64 {
        let got = op("counter_increment", counter_increment(store, &key))?;
        if got != expected {
            return Err(format!(
                "counter_increment returned {got} instead of {expected}"
            ));
        }
    }
    expect(store, &key, Some(b"3"), "counter after three increments")?;
    if op("counter_value", counter_value(store, &key))? != 3 {
        return Err("counter_value does not read 3".to_owned());
    }
    let bad = at(dir, "not-a-counter")?;
    op("write", store.write(&bad, b"12 apples"))?;
    match counter_increment(store, &bad) {
        Err(e) if e.kind() == ErrorKind::CorruptState => {}
        other => {
            return Err(format!(
                "counter_increment of a non-counter gave {:?} instead of corrupt_state",
                other.map_err(|e| describe(&e))
            ));
        }
    }
    expect(
        store,
        &bad,
        Some(b"12 apples"),
        "counter_increment of a non-counter",
    )
}

fn invalid_keys_are_unrepresentable(store: &dyn Store, dir: &Key) -> CaseResult {
    let long = "x".repeat(MAX_SEGMENT_BYTES + 1);
    let hostile = [
        "..",
        ".",
        "",
        "../x",
        "a/b",
        "a\\b",
        "a\0b",
        "a\nb",
        "/etc/passwd",
        "C:\\x",
        &long,
    ];
    for value in hostile {
        for (how, result) in [
            ("Key::join", dir.join(value).map(|_| ())),
            (
                "Key::segment",
                Key::segment("conformance id", value).map(|_| ()),
            ),
        ] {
            match result {
                Err(e) if e.kind() == ErrorKind::InvalidKey => {}
                Err(e) => {
                    return Err(format!(
                        "{how} of `{}` gave {}",
                        value.escape_debug(),
                        describe(&e)
                    ));
                }
                Ok(()) => return Err(format!("{how} accepted `{}`", value.escape_debug())),
            }
        }
    }
    for value in ["../escape", "/abs", "a/../../b", "a//b", "a/"] {
        if Key::new(format!("{dir}/{value}")).is_ok() || Key::new(value).is_ok() {
            return Err(format!("Key::new accepted `{value}`"));
        }
    }
    // Nothing above reached the store: its folder is still empty.
    expect_list(store, dir, &[], "store folder after refused keys")
}

fn finished_writes_leave_no_leftovers(store: &dyn Store, dir: &Key) -> CaseResult {
    let (a, b, gone) = (at(dir, "a")?, at(dir, "sub/b")?, at(dir, "gone")?);
    op("write", store.write(&a, b"first, longer"))?;
    op("overwrite", store.write(&a, b"second"))?;
    op("update", store.update(&b, &mut |_| Ok(Some(b"b".to_vec()))))?;
    op("append", store.append(&b, b"+"))?;
    op("write", store.write(&gone, b"x"))?;
    op("delete", store.delete(&gone))?;
    let found = op(format_args!("leftovers of `{dir}`"), store.leftovers(dir))?;
    if !found.is_empty() {
        return Err(format!("finished writes left {found:?} below `{dir}`"));
    }
    let unlisted = op(format_args!("unlisted of `{dir}`"), store.unlisted(dir))?;
    if !unlisted.is_empty() {
        return Err(format!(
            "files written through keys are called unlisted: {unlisted:?} below `{dir}`"
        ));
    }
    let removed = op(
        format_args!("remove_leftovers of `{dir}`"),
        store.remove_leftovers(dir),
    )?;
    if !removed.is_empty() {
        return Err(format!(
            "remove_leftovers removed {removed:?} below `{dir}`"
        ));
    }
    expect(store, &a, Some(b"second"), "remove_leftovers kept the keys")?;
    expect(store, &b, Some(b"b+"), "remove_leftovers kept the keys")
}
