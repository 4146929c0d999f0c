//! Salvage: every complete field of a torn or damaged document, made into a valid "1.0"
//! document (SPEC section 1, "Recovery").
//!
//! The bytes are read by a tolerant prefix reader (a leading UTF-8 BOM is skipped): complete
//! values are kept, containers cut short keep their complete members, and reading stops at the
//! first damage. Then every field the "1.0" schema requires is checked; an absent one is filled
//! with its default and named in [`Salvaged::missing`], a present one of the wrong type is
//! replaced by its default and named in [`Salvaged::replaced`]. Defaults:
//!
//! | field | default |
//! |---|---|
//! | `schema_version` | `"1.0"` |
//! | `session_id` | `"recovered"` |
//! | `created` | `updated` if valid, else `1970-01-01T00:00:00Z` |
//! | `goal` | `""` |
//! | `status` | `"paused"` (so the session can be resumed) |
//! | `agents`, `completed_work`, `pending_tasks`, `decisions_made`, `errors` | `[]` |
//! | `context_usage` | `{estimated_tokens: 0, percentage: 0, last_compression: null}` |
//! | agent `id`, `type`, `task` | `""`; `status`: `"pending"`; `started`: the session's `created` |
//! | completed work `task` | `""` |
//! | decision `decision`, `rationale` | `""`; `timestamp`: the session's `created` |
//!
//! `updated`, `project` (with its `name`, `path`, `git_branch`) and `mode` are optional: kept
//! when of the right type, removed (and named in `replaced`) otherwise, never filled in.
//!
//! Items of the wrong type inside arrays (an agent that is not an object, a pending task that
//! is not a string) are dropped and named in `replaced`; optional agent fields of the wrong
//! type are removed. Unknown fields are kept as read. A `schema_version` other than "1.0" and
//! an unsafe `session_id` are left as they are: salvage does not convert versions or invent
//! ids.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::status::SessionStatus;
use crate::time::Timestamp;

/// Default `created` when neither `created` nor `updated` survived.
pub const EPOCH: &str = "1970-01-01T00:00:00Z";

/// What [`salvage`] recovered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Salvaged {
    /// The recovered document (a JSON object that parses as a "1.0" document unless its
    /// `schema_version` or `session_id` was unusable as read).
    #[schemars(with = "Map<String, Value>")]
    pub document: Value,
    /// Paths of required fields that were absent and got their default, e.g. `goal`,
    /// `agents[1].started`.
    pub missing: Vec<String>,
    /// Paths of values of the wrong type that were replaced by a default or dropped, and of
    /// values nested too deep to be read back (more than 127 levels in all), dropped.
    pub replaced: Vec<String>,
    /// Paths of objects and arrays cut short (they keep their complete members); `""` is the
    /// top level.
    pub partial: Vec<String>,
    /// Whether the bytes started with a JSON object at all.
    pub top_level_object: bool,
    /// Whether anything of the original was recovered: the bytes held a top-level object and
    /// at least one of `CONTENT_FIELDS` was read with the right type (not filled with a
    /// default, not replaced). When `false`, the document is made only of defaults (id
    /// `recovered`, 1970 dates) and is not worth saving (`recover` moves the file aside then).
    pub recovered_anything: bool,
}

/// The top-level fields that identify a session's content: when none of them was read with
/// the right type, the salvage holds nothing of the original (see
/// [`Salvaged::recovered_anything`]).
pub const CONTENT_FIELDS: [&str; 8] = [
    "session_id",
    "goal",
    "project",
    "created",
    "agents",
    "completed_work",
    "pending_tasks",
    "decisions_made",
];

/// See [`Salvaged::recovered_anything`].
fn recovered_anything(
    top_level_object: bool,
    doc: &Map<String, Value>,
    missing: &[String],
    replaced: &[String],
) -> bool {
    top_level_object
        && CONTENT_FIELDS
            .iter()
            .any(|f| doc.contains_key(*f) && !missing.iter().chain(replaced).any(|p| p == f))
}

/// Salvages what can be read from `bytes` (see the module docs). Never fails, never panics.
pub fn salvage(bytes: &[u8]) -> Salvaged {
    let bytes = crate::json::strip_bom(bytes);
    let read = crate::json::read_lenient(bytes);
    let mut fix = Fixer {
        replaced: read.too_deep,
        ..Fixer::default()
    };
    let mut doc = read.object;
    fix.document(&mut doc);
    Salvaged {
        recovered_anything: recovered_anything(
            read.top_is_object,
            &doc,
            &fix.missing,
            &fix.replaced,
        ),
        document: Value::Object(doc),
        missing: fix.missing,
        replaced: fix.replaced,
        partial: read.partial,
        top_level_object: read.top_is_object,
    }
}

#[derive(Default)]
struct Fixer {
    missing: Vec<String>,
    replaced: Vec<String>,
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn is_timestamp(v: &Value) -> bool {
    v.as_str().is_some_and(|s| Timestamp::parse(s).is_ok())
}

impl Fixer {
    /// Ensures `obj[name]` passes `ok`, else sets `default` (recording why).
    fn require(
        &mut self,
        obj: &mut Map<String, Value>,
        path: &str,
        name: &str,
        ok: impl Fn(&Value) -> bool,
        default: Value,
    ) {
        match obj.get(name) {
            Some(v) if ok(v) => {}
            Some(_) => {
                self.replaced.push(join(path, name));
                obj.insert(name.to_owned(), default);
            }
            None => {
                self.missing.push(join(path, name));
                obj.insert(name.to_owned(), default);
            }
        }
    }

    /// Removes `obj[name]` when present and not passing `ok` (`null` included).
    fn absent_or(
        &mut self,
        obj: &mut Map<String, Value>,
        path: &str,
        name: &str,
        ok: impl Fn(&Value) -> bool,
    ) {
        if obj.get(name).is_some_and(|v| !ok(v)) {
            self.replaced.push(join(path, name));
            obj.remove(name);
        }
    }

    /// Removes `obj[name]` when present and not passing `ok` (`null` counts as absent).
    fn optional(
        &mut self,
        obj: &mut Map<String, Value>,
        path: &str,
        name: &str,
        ok: impl Fn(&Value) -> bool,
    ) {
        if obj.get(name).is_some_and(|v| !v.is_null() && !ok(v)) {
            self.replaced.push(join(path, name));
            obj.remove(name);
        }
    }

    fn string(&mut self, obj: &mut Map<String, Value>, path: &str, name: &str, default: &str) {
        self.require(obj, path, name, Value::is_string, json!(default));
    }

    fn timestamp(&mut self, obj: &mut Map<String, Value>, path: &str, name: &str, default: &str) {
        self.require(obj, path, name, is_timestamp, json!(default));
    }

    /// Ensures `obj[name]` is an array, then keeps the items `fix_item` accepts.
    fn array(
        &mut self,
        obj: &mut Map<String, Value>,
        name: &str,
        mut fix_item: impl FnMut(&mut Self, &str, &mut Value) -> bool,
    ) {
        self.require(obj, "", name, Value::is_array, json!([]));
        if let Some(Value::Array(items)) = obj.get_mut(name) {
            let mut index = 0;
            items.retain_mut(|item| {
                let path = format!("{name}[{index}]");
                index += 1;
                let keep = fix_item(self, &path, item);
                if !keep {
                    self.replaced.push(path);
                }
                keep
            });
        }
    }

    fn document(&mut self, doc: &mut Map<String, Value>) {
        self.string(doc, "", "schema_version", super::SCHEMA_VERSION);
        self.string(doc, "", "session_id", "recovered");
        let fallback = doc
            .get("updated")
            .filter(|v| is_timestamp(v))
            .and_then(Value::as_str)
            .unwrap_or(EPOCH)
            .to_owned();
        self.timestamp(doc, "", "created", &fallback);
        let created = doc
            .get("created")
            .and_then(Value::as_str)
            .unwrap_or(EPOCH)
            .to_owned();
        self.absent_or(doc, "", "updated", is_timestamp);
        self.absent_or(doc, "", "project", Value::is_object);
        if let Some(Value::Object(project)) = doc.get_mut("project") {
            self.absent_or(project, "project", "name", Value::is_string);
            self.absent_or(project, "project", "path", Value::is_string);
            self.optional(project, "project", "git_branch", Value::is_string);
        }
        self.string(doc, "", "goal", "");
        self.absent_or(doc, "", "mode", Value::is_string);
        let status_ok = |v: &Value| v.as_str().is_some_and(|s| SessionStatus::parse(s).is_ok());
        self.require(doc, "", "status", status_ok, json!("paused"));
        self.array(doc, "agents", |fix, path, item| {
            let Value::Object(agent) = item else {
                return false;
            };
            fix.string(agent, path, "id", "");
            fix.string(agent, path, "type", "");
            fix.string(agent, path, "task", "");
            fix.string(agent, path, "status", "pending");
            fix.timestamp(agent, path, "started", &created);
            fix.optional(agent, path, "completed", is_timestamp);
            fix.optional(agent, path, "result_summary", Value::is_string);
            let percent = |v: &Value| v.as_f64().is_some_and(|p| (0.0..=100.0).contains(&p));
            fix.optional(agent, path, "progress", percent);
            fix.optional(agent, path, "context_tokens", Value::is_number);
            true
        });
        self.array(doc, "completed_work", |fix, path, item| {
            let Value::Object(work) = item else {
                return false;
            };
            fix.string(work, path, "task", "");
            fix.optional(work, path, "outcome", Value::is_string);
            if work.get("outcome").is_some_and(Value::is_null) {
                work.remove("outcome");
            }
            fix.require(work, path, "files", Value::is_array, json!([]));
            if let Some(Value::Array(files)) = work.get_mut("files") {
                files.retain(Value::is_string);
            }
            true
        });
        self.array(doc, "pending_tasks", |_, _, item| item.is_string());
        self.array(doc, "decisions_made", |fix, path, item| {
            let Value::Object(decision) = item else {
                return false;
            };
            fix.string(decision, path, "decision", "");
            fix.string(decision, path, "rationale", "");
            fix.timestamp(decision, path, "timestamp", &created);
            true
        });
        let usage_default =
            json!({"estimated_tokens": 0, "percentage": 0, "last_compression": null});
        self.require(doc, "", "context_usage", Value::is_object, usage_default);
        if let Some(Value::Object(usage)) = doc.get_mut("context_usage") {
            let path = "context_usage";
            self.require(usage, path, "estimated_tokens", Value::is_number, json!(0));
            self.require(usage, path, "percentage", Value::is_number, json!(0));
            let last_ok = |v: &Value| v.is_null() || is_timestamp(v);
            self.require(usage, path, "last_compression", last_ok, Value::Null);
        }
        self.array(doc, "errors", |_, _, _| true);
    }
}
