//! The conformance suite on `MemoryStore`, and on faulty stores to show each case can fail.

use std::collections::BTreeSet;

use session_state::conformance::{self, CASES, ConformanceReport};
use session_state::{Error, ErrorKind, Key, Leftover, MemoryStore, Result, Store, UpdateFn};

fn k(s: &str) -> Key {
    Key::new(s).unwrap()
}

#[test]
fn memory_store_passes_every_case() {
    let store = MemoryStore::new();
    let report = conformance::run_all(&store, &k("conformance"));
    assert!(report.all_passed(), "{report}");
    assert_eq!(report.passed, CASES.len());
    assert_eq!(report.cases.len(), CASES.len());
    // Cases clean up after themselves.
    assert!(store.list(&k("conformance")).unwrap().is_empty());
    // A second run on the same store (as a persistent host store would be) passes too.
    let again = conformance::run_all(&store, &k("conformance"));
    assert!(again.all_passed(), "{again}");
}

#[test]
fn runs_through_dyn_and_at_depth() {
    let store: Box<dyn Store> = Box::new(MemoryStore::new());
    let report = conformance::run_all(&*store, &k("deep/scratch/folder"));
    assert!(report.all_passed(), "{report}");
}

#[test]
fn case_names_are_unique_snake_case_and_described() {
    let mut seen = BTreeSet::new();
    for case in CASES {
        assert!(seen.insert(case.name), "duplicate case {}", case.name);
        assert!(
            case.name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_'),
            "{}",
            case.name
        );
        assert!(!case.description.is_empty());
        assert!(!case.description.ends_with('.'), "{}", case.description);
    }
    assert!(CASES.len() >= 15, "{}", CASES.len());
}

#[test]
fn report_serialises_as_plain_data() {
    let report = conformance::run_named(
        &MemoryStore::new(),
        &k("c"),
        &["read_your_writes", "no_such_case"],
    );
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["passed"], 1);
    assert_eq!(json["failed"], 1);
    assert_eq!(json["cases"][0]["name"], "read_your_writes");
    assert_eq!(json["cases"][0]["passed"], true);
    assert_eq!(json["cases"][0]["message"], serde_json::Value::Null);
    assert_eq!(json["cases"][1]["passed"], false);
    assert!(
        json["cases"][1]["message"]
            .as_str()
            .unwrap()
            .contains("`no_such_case`")
    );
    let back: ConformanceReport = serde_json::from_value(json).unwrap();
    assert_eq!(back, report);
    assert!(!back.all_passed());
    // As text: the count, then each failed case with its message.
    let text = report.to_string();
    let (count, failures) = text.split_once('\n').unwrap();
    assert_eq!(count, "1 of 2 cases passed");
    assert!(failures.starts_with("no_such_case: "), "{text}");
    assert!(
        failures.contains("`no_such_case`") && !failures.contains('\n'),
        "{text}"
    );
}

#[test]
fn counter_increment_counts_from_absent_and_refuses_garbage() {
    let store = MemoryStore::new();
    let key = k("n");
    assert_eq!(conformance::counter_value(&store, &key).unwrap(), 0);
    for i in 1..=10 {
        assert_eq!(conformance::counter_increment(&store, &key).unwrap(), i);
    }
    assert_eq!(store.read(&key).unwrap().as_deref(), Some(&b"10"[..]));
    for garbage in [&b""[..], b"-1", b"+1", b" 1", b"1\n", b"0x10", b"\xff"] {
        store.write(&key, garbage).unwrap();
        let err = conformance::counter_increment(&store, &key).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::CorruptState, "{garbage:?}");
        assert_eq!(store.read(&key).unwrap().as_deref(), Some(garbage));
    }
    store.write(&key, u64::MAX.to_string().as_bytes()).unwrap();
    let err = conformance::counter_increment(&store, &key).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidInput);
}

/// A fault planted in an otherwise correct store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    /// No fault: behaves as `MemoryStore`.
    Nothing,
    /// `write` keeps the tail of a longer old value.
    WriteKeepsTail,
    /// `read` of an empty value gives `None`.
    EmptyReadsNone,
    /// `delete` always says `true`.
    DeleteAlwaysTrue,
    /// `list` matches by string prefix (lists `ab` under `a`).
    ListByStringPrefix,
    /// `list` returns keys in reverse order.
    ListUnsorted,
    /// `list` returns only direct children.
    ListShallow,
    /// `update` writes an empty value when the closure returns `None`.
    UpdateNoneWritesEmpty,
    /// `update` swallows the closure's error.
    UpdateSwallowsError,
    /// `update` always shows the closure `None`.
    UpdateBlind,
    /// `append` replaces instead of appending.
    AppendReplaces,
    /// `read` of a non-ascii key fails.
    AsciiOnly,
    /// `write` fails for segments longer than 200 bytes (as a file store with long temp names).
    ShortNames,
    /// `leftovers` reports a file after every write, as if its temporary files stayed.
    LeavesLeftovers,
    /// `mark` gives the same mark whatever changes.
    MarkStill,
    /// `mark` gives a new mark at each call, changed or not.
    MarkWanders,
}

struct Faulty {
    inner: MemoryStore,
    fault: Fault,
    calls: std::sync::atomic::AtomicU64,
}

impl Store for Faulty {
    fn read(&self, key: &Key) -> Result<Option<Vec<u8>>> {
        if self.fault == Fault::AsciiOnly && !key.as_str().is_ascii() {
            return Err(Error::new(ErrorKind::Storage, "ascii only"));
        }
        let v = self.inner.read(key)?;
        if self.fault == Fault::EmptyReadsNone && v.as_deref() == Some(b"") {
            return Ok(None);
        }
        Ok(v)
    }

    fn write(&self, key: &Key, data: &[u8]) -> Result<()> {
        if self.fault == Fault::ShortNames && key.file_name().len() > 200 {
            return Err(Error::new(ErrorKind::Storage, "file name too long"));
        }
        let mut bytes = data.to_vec();
        if self.fault == Fault::WriteKeepsTail
            && let Some(old) = self.inner.read(key)?
            && old.len() > bytes.len()
        {
            bytes.extend_from_slice(&old[data.len()..]);
        }
        self.inner.write(key, &bytes)
    }

    fn delete(&self, key: &Key) -> Result<bool> {
        let existed = self.inner.delete(key)?;
        Ok(existed || self.fault == Fault::DeleteAlwaysTrue)
    }

    fn list(&self, prefix: &Key) -> Result<Vec<Key>> {
        let mut keys = match self.fault {
            Fault::ListByStringPrefix => {
                let all = self
                    .inner
                    .list(&prefix.parent().unwrap_or(prefix.clone()))?;
                all.into_iter()
                    .filter(|k| k.as_str().starts_with(prefix.as_str()) && k != prefix)
                    .collect()
            }
            _ => self.inner.list(prefix)?,
        };
        if self.fault == Fault::ListUnsorted {
            keys.reverse();
        }
        if self.fault == Fault::ListShallow {
            keys.retain(|k| k.parent().as_ref() == Some(prefix));
        }
        Ok(keys)
    }

    fn update(&self, key: &Key, apply: &mut UpdateFn<'_>) -> Result<()> {
        let current = if self.fault == Fault::UpdateBlind {
            None
        } else {
            self.read(key)?
        };
        match apply(current.as_deref()) {
            Ok(Some(bytes)) => self.write(key, &bytes),
            Ok(None) if self.fault == Fault::UpdateNoneWritesEmpty => self.write(key, b""),
            Ok(None) => Ok(()),
            Err(_) if self.fault == Fault::UpdateSwallowsError => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn append(&self, key: &Key, data: &[u8]) -> Result<()> {
        if self.fault == Fault::AppendReplaces {
            return self.write(key, data);
        }
        let mut bytes = self.read(key)?.unwrap_or_default();
        bytes.extend_from_slice(data);
        self.write(key, &bytes)
    }

    fn mark(&self, key: &Key) -> Result<Option<String>> {
        let n = self
            .calls
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        match self.fault {
            Fault::MarkStill => Ok(Some("still".to_owned())),
            Fault::MarkWanders => Ok(Some(n.to_string())),
            _ => self.inner.mark(key),
        }
    }

    fn leftovers(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        if self.fault != Fault::LeavesLeftovers || self.inner.list(prefix)?.is_empty() {
            return Ok(Vec::new());
        }
        Ok(vec![Leftover {
            path: format!("{prefix}/.a.tmp-1-0"),
            bytes: 1,
        }])
    }
}

#[test]
fn each_fault_is_caught_by_the_case_meant_for_it() {
    let expectations = [
        (Fault::WriteKeepsTail, "overwrite_replaces_wholly"),
        (Fault::EmptyReadsNone, "binary_and_empty_values_round_trip"),
        (Fault::DeleteAlwaysTrue, "delete_reports_existence"),
        (Fault::ListByStringPrefix, "list_only_below_prefix_sorted"),
        (Fault::ListUnsorted, "list_only_below_prefix_sorted"),
        (Fault::ListShallow, "list_only_below_prefix_sorted"),
        (Fault::UpdateNoneWritesEmpty, "update_none_writes_nothing"),
        (Fault::UpdateSwallowsError, "update_error_writes_nothing"),
        (Fault::UpdateBlind, "update_sees_current_bytes"),
        (Fault::UpdateBlind, "counter_increment_counts"),
        (Fault::AppendReplaces, "append_creates_then_appends"),
        (Fault::AsciiOnly, "unicode_keys_round_trip"),
        (Fault::ShortNames, "longest_segment_round_trips"),
        (Fault::LeavesLeftovers, "finished_writes_leave_no_leftovers"),
        (Fault::MarkStill, "marks_change_with_what_they_mark"),
        (Fault::MarkWanders, "marks_change_with_what_they_mark"),
    ];
    for (fault, case) in expectations {
        let store = Faulty {
            inner: MemoryStore::new(),
            fault,
            calls: std::sync::atomic::AtomicU64::default(),
        };
        let report = conformance::run_all(&store, &k("conformance"));
        let outcome = report.case(case).unwrap();
        assert!(!outcome.passed, "{fault:?} not caught by {case}");
        assert!(
            outcome.message.as_deref().is_some_and(|m| !m.is_empty()),
            "{fault:?}: {outcome:?}"
        );
        assert!(!report.all_passed());
    }
}

#[test]
fn the_faulty_wrapper_without_a_fault_passes() {
    // So the failures above come from the faults, not from the wrapper.
    let store = Faulty {
        inner: MemoryStore::new(),
        fault: Fault::Nothing,
        calls: std::sync::atomic::AtomicU64::default(),
    };
    let report = conformance::run_all(&store, &k("c"));
    assert!(report.all_passed(), "{report}");
}
