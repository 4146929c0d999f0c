//! The hand-written `Deserialize` of the orchestrator document types (`document_read.rs`)
//! reads exactly as `#[derive(Deserialize)]` with the types' serde attributes: the same value
//! (compared by `Debug`, which shows every field, naive timestamps and the order of `extra`)
//! or the same error message, from JSON text, from a `Value`, and through
//! `serde_path_to_error` (the same path). Over the committed vectors, the fuzz corpus, and
//! random documents with unknown members at every level, repeated members, `null`s, wrong
//! types, escaped member names and absent members.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::Value;
use session_state::orchestrator as ours;

/// The document types as the derive reads them, named as ours so `Debug` prints the same.
#[allow(dead_code, clippy::struct_field_names)]
mod derived {
    use serde::{Deserialize, Deserializer};
    use serde_json::{Map, Number, Value};
    use session_state::Timestamp;
    use session_state::orchestrator::{AgentStatus, SessionStatus};

    fn some<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
        T::deserialize(d).map(Some)
    }

    #[allow(clippy::option_option)]
    fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
        d: D,
    ) -> Result<Option<Option<T>>, D::Error> {
        Option::<T>::deserialize(d).map(Some)
    }

    #[derive(Debug, Deserialize)]
    pub struct OrchestratorSession {
        pub schema_version: String,
        pub session_id: String,
        pub created: Timestamp,
        #[serde(default, deserialize_with = "some")]
        pub updated: Option<Timestamp>,
        #[serde(default, deserialize_with = "some")]
        pub project: Option<Project>,
        pub goal: String,
        #[serde(default, deserialize_with = "some")]
        pub mode: Option<String>,
        pub status: SessionStatus,
        #[serde(default)]
        pub agents: Vec<Agent>,
        #[serde(default)]
        pub completed_work: Vec<CompletedWork>,
        #[serde(default)]
        pub pending_tasks: Vec<String>,
        #[serde(default)]
        pub decisions_made: Vec<Decision>,
        #[serde(default)]
        pub context_usage: ContextUsage,
        #[serde(default)]
        pub errors: Vec<Value>,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    #[derive(Debug, Deserialize)]
    pub struct Project {
        #[serde(default, deserialize_with = "some")]
        pub name: Option<String>,
        #[serde(default, deserialize_with = "some")]
        pub path: Option<String>,
        #[serde(default, deserialize_with = "present")]
        #[allow(clippy::option_option)]
        pub git_branch: Option<Option<String>>,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    #[derive(Debug, Deserialize)]
    pub struct Agent {
        pub id: String,
        #[serde(rename = "type")]
        pub agent_type: String,
        pub task: String,
        pub status: AgentStatus,
        pub started: Timestamp,
        #[serde(default)]
        pub completed: Option<Timestamp>,
        #[serde(default)]
        pub result_summary: Option<String>,
        #[serde(default)]
        pub progress: Option<Number>,
        #[serde(default)]
        pub context_tokens: Option<Number>,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    #[derive(Debug, Deserialize)]
    pub struct CompletedWork {
        pub task: String,
        #[serde(default)]
        pub outcome: String,
        #[serde(default)]
        pub files: Vec<String>,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    #[derive(Debug, Deserialize)]
    pub struct Decision {
        pub decision: String,
        pub rationale: String,
        pub timestamp: Timestamp,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    #[derive(Debug, Deserialize)]
    pub struct ContextUsage {
        pub estimated_tokens: Number,
        pub percentage: Number,
        pub last_compression: Option<Timestamp>,
        #[serde(flatten)]
        pub extra: Map<String, Value>,
    }

    impl Default for ContextUsage {
        fn default() -> Self {
            ContextUsage {
                estimated_tokens: Number::from(0u8),
                percentage: Number::from(0u8),
                last_compression: None,
                extra: Map::new(),
            }
        }
    }
}

/// A read, as text to compare: `Debug` of the value, or the error message (with its path when
/// there is one).
fn shown<T: Debug, E: std::fmt::Display>(read: Result<T, E>) -> String {
    match read {
        Ok(value) => format!("ok {value:?}"),
        Err(e) => format!("error {e}"),
    }
}

/// Reads `text` as `A` (ours) and `B` (derived) every way the library reads documents; panics
/// naming `what` when they differ. Returns whether the text read as `A`.
fn same_reads<A, B>(what: &str, text: &str) -> bool
where
    A: DeserializeOwned + Debug,
    B: DeserializeOwned + Debug,
{
    let ours = shown(serde_json::from_str::<A>(text));
    assert_eq!(ours, shown(serde_json::from_str::<B>(text)), "{what}: text");
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        let path_read = |read: Result<String, serde_path_to_error::Error<serde_json::Error>>| {
            read.unwrap_or_else(|e| format!("error at {}: {}", e.path(), e.inner()))
        };
        assert_eq!(
            path_read(serde_path_to_error::deserialize(&value).map(|a: A| format!("{a:?}"))),
            path_read(serde_path_to_error::deserialize(&value).map(|b: B| format!("{b:?}"))),
            "{what}: serde_path_to_error over a value"
        );
        assert_eq!(
            shown(serde_json::from_value::<A>(value.clone())),
            shown(serde_json::from_value::<B>(value)),
            "{what}: owned value"
        );
    }
    ours.starts_with("ok ")
}

fn same_session_reads(what: &str, text: &str) -> bool {
    same_reads::<ours::OrchestratorSession, derived::OrchestratorSession>(what, text)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

#[test]
fn vectors_and_fuzz_corpus_read_as_the_derive_reads_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    files_under(&root.join("tests/vectors/orchestrator"), &mut files);
    files_under(&root.join("fuzz/corpus"), &mut files);
    let mut texts = 0;
    let mut sessions = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(text) = std::str::from_utf8(&bytes) else {
            continue;
        };
        texts += 1;
        if same_session_reads(&path.display().to_string(), text) {
            sessions += 1;
        }
    }
    assert!(texts > 500, "{texts} texts");
    assert!(sessions >= 5, "{sessions} documents read");
}

/// A JSON text as generated: objects are lists of members, so a name may repeat.
#[derive(Clone, Debug)]
enum Json {
    Leaf(Value),
    Array(Vec<Json>),
    /// Members: (name, whether its first character is written as a `\u` escape, value).
    Object(Vec<(String, bool, Json)>),
}

impl Json {
    fn text(&self) -> String {
        match self {
            Json::Leaf(value) => value.to_string(),
            Json::Array(items) => {
                let items: Vec<String> = items.iter().map(Json::text).collect();
                format!("[{}]", items.join(","))
            }
            Json::Object(members) => {
                let members: Vec<String> = members
                    .iter()
                    .map(|(name, escaped, value)| {
                        let name = match (escaped, name.chars().next()) {
                            (true, Some(first)) if first.is_ascii() => {
                                let rest = Value::from(&name[1..]).to_string();
                                format!("\"\\u{:04x}{}", u32::from(first), &rest[1..])
                            }
                            _ => Value::from(name.as_str()).to_string(),
                        };
                        format!("{name}:{}", value.text())
                    })
                    .collect();
                format!("{{{}}}", members.join(","))
            }
        }
    }
}

fn leaf(values: &[Value]) -> BoxedStrategy<Json> {
    proptest::sample::select(values.to_vec())
        .prop_map(Json::Leaf)
        .boxed()
}

/// A value of any kind, for unknown members and wrong types.
fn any_json() -> BoxedStrategy<Json> {
    let scalar = leaf(&[
        Value::Null,
        Value::Bool(true),
        0.into(),
        (-1).into(),
        1.5.into(),
        u64::MAX.into(),
        "s".into(),
        "".into(),
        "2025-12-27T10:30:00Z".into(),
    ]);
    scalar
        .prop_recursive(3, 12, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Json::Array),
                prop::collection::vec(
                    (name(&["a", "b", "id", "task"]), any::<bool>(), inner),
                    0..4
                )
                .prop_map(Json::Object),
            ]
        })
        .boxed()
}

fn name(pool: &[&str]) -> BoxedStrategy<String> {
    let pool: Vec<String> = pool.iter().map(|s| (*s).to_owned()).collect();
    prop_oneof![
        1 => proptest::sample::select(pool),
        8 => "[a-z_]{0,6}",
        1 => Just("\u{e9}t\u{e9}".to_owned()),
    ]
    .boxed()
}

fn strings(pool: &[&str]) -> BoxedStrategy<Json> {
    let values: Vec<Value> = pool.iter().map(|s| Value::from(*s)).collect();
    leaf(&values)
}

/// Mostly one of `good`, sometimes one of `bad` (of the right JSON kind, refused by the type).
fn mostly(good: BoxedStrategy<Json>, bad: BoxedStrategy<Json>) -> BoxedStrategy<Json> {
    prop_oneof![30 => good, 1 => bad].boxed()
}

fn timestamp() -> BoxedStrategy<Json> {
    mostly(
        strings(&[
            "2025-12-27T10:30:00Z",
            "2025-12-27T10:30:00.123Z",
            "2025-12-27T11:30:00+01:00",
            "2025-12-22T16:45:10.250000",
            "2025-12-22 16:45:10",
            "2025-12-27t10:30:00z",
            "2016-12-31T23:59:60Z",
        ]),
        strings(&["2025-02-30T00:00:00Z", "yesterday"]),
    )
}

fn numbers(good: &[Value], bad: &[Value]) -> BoxedStrategy<Json> {
    mostly(leaf(good), leaf(bad))
}

/// An object with the `known` members (each with the strategy of a value that fits), each
/// mostly present with that value, sometimes absent, `null` or of any kind; then unknown
/// members, and sometimes a known member again; in a random order.
fn object(known: Vec<(&'static str, BoxedStrategy<Json>)>) -> BoxedStrategy<Json> {
    let names: Vec<&'static str> = known.iter().map(|(n, _)| *n).collect();
    let members: Vec<BoxedStrategy<Option<(String, bool, Json)>>> = known
        .into_iter()
        .map(|(member, fits)| {
            let value = prop_oneof![
                80 => fits,
                1 => Just(Json::Leaf(Value::Null)),
                1 => any_json(),
            ];
            let escaped = proptest::bool::weighted(0.1);
            prop_oneof![
                60 => (escaped, value).prop_map(move |(escaped, v)| Some((member.to_owned(), escaped, v))),
                1 => Just(None),
            ]
            .boxed()
        })
        .collect();
    let unknown = prop::collection::vec((name(&names), any::<bool>(), any_json()), 0..3);
    let again = prop::option::weighted(0.02, (proptest::sample::select(names), any_json()));
    (members, unknown, again)
        .prop_flat_map(|(known, unknown, again)| {
            let mut all: Vec<(String, bool, Json)> = known.into_iter().flatten().collect();
            all.extend(unknown);
            if let Some((member, value)) = again {
                all.push((member.to_owned(), false, value));
            }
            Just(all).prop_shuffle()
        })
        .prop_map(Json::Object)
        .boxed()
}

fn array(item: BoxedStrategy<Json>, max: usize) -> BoxedStrategy<Json> {
    prop::collection::vec(item, 0..max)
        .prop_map(Json::Array)
        .boxed()
}

fn project() -> BoxedStrategy<Json> {
    object(vec![
        ("name", strings(&["p", ""])),
        ("path", strings(&["/p"])),
        (
            "git_branch",
            prop_oneof![strings(&["main"]), Just(Json::Leaf(Value::Null))].boxed(),
        ),
    ])
}

fn agent() -> BoxedStrategy<Json> {
    object(vec![
        ("id", strings(&["a", "b"])),
        ("type", strings(&["code"])),
        ("task", strings(&["t"])),
        (
            "status",
            strings(&["pending", "in_progress", "complete", "failed", "odd"]),
        ),
        ("started", timestamp()),
        ("completed", timestamp()),
        ("result_summary", strings(&["done"])),
        (
            "progress",
            numbers(
                &[0.into(), 60.into(), 100.into(), 255.into()],
                &[300.into(), (-1).into(), 1.5.into()],
            ),
        ),
        (
            "context_tokens",
            numbers(
                &[0.into(), 1200.into(), u64::MAX.into()],
                &[(-1).into(), 0.5.into()],
            ),
        ),
    ])
}

fn completed_work() -> BoxedStrategy<Json> {
    object(vec![
        ("task", strings(&["w"])),
        ("outcome", strings(&["ok", ""])),
        ("files", array(strings(&["R/f.R"]), 3)),
    ])
}

fn decision() -> BoxedStrategy<Json> {
    object(vec![
        ("decision", strings(&["d"])),
        ("rationale", strings(&["r"])),
        ("timestamp", timestamp()),
    ])
}

fn context_usage() -> BoxedStrategy<Json> {
    object(vec![
        (
            "estimated_tokens",
            numbers(&[0.into(), 25_000.into()], &[(-5).into(), 2.5.into()]),
        ),
        (
            "percentage",
            leaf(&[
                0.into(),
                20.into(),
                12.5.into(),
                (-1).into(),
                u64::MAX.into(),
            ]),
        ),
        (
            "last_compression",
            prop_oneof![timestamp(), Just(Json::Leaf(Value::Null))].boxed(),
        ),
    ])
}

fn session() -> BoxedStrategy<Json> {
    object(vec![
        ("schema_version", strings(&["1.0", "2.0"])),
        ("session_id", strings(&["2025-12-27-abc123", ""])),
        ("created", timestamp()),
        ("updated", timestamp()),
        ("project", project()),
        ("goal", strings(&["g"])),
        ("mode", strings(&["default", "odd"])),
        (
            "status",
            mostly(
                strings(&[
                    "created",
                    "in_progress",
                    "paused",
                    "complete",
                    "aborted",
                    "abandoned",
                ]),
                strings(&["sleeping"]),
            ),
        ),
        ("agents", array(agent(), 4)),
        ("completed_work", array(completed_work(), 3)),
        (
            "pending_tasks",
            array(
                prop_oneof![4 => strings(&["p"]), 1 => any_json()].boxed(),
                3,
            ),
        ),
        ("decisions_made", array(decision(), 3)),
        ("context_usage", context_usage()),
        ("errors", array(any_json(), 3)),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_sessions_read_as_the_derive_reads_them(doc in session()) {
        same_session_reads("session", &doc.text());
    }

    #[test]
    fn random_members_read_as_the_derive_reads_them(
        project in project(),
        agent in agent(),
        work in completed_work(),
        decision in decision(),
        usage in context_usage(),
    ) {
        same_reads::<ours::Project, derived::Project>("project", &project.text());
        same_reads::<ours::Agent, derived::Agent>("agent", &agent.text());
        same_reads::<ours::CompletedWork, derived::CompletedWork>("completed work", &work.text());
        same_reads::<ours::Decision, derived::Decision>("decision", &decision.text());
        same_reads::<ours::ContextUsage, derived::ContextUsage>("context usage", &usage.text());
    }
}

/// The random documents are not all refused: a share of them read, and a share of the reads
/// has unknown members kept.
#[test]
fn random_sessions_cover_reads_and_unknown_members() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = session();
    let (mut read, mut with_extra) = (0, 0);
    for _ in 0..1000 {
        let text = strategy.new_tree(&mut runner).unwrap().current().text();
        if let Ok(doc) = serde_json::from_str::<ours::OrchestratorSession>(&text) {
            read += 1;
            with_extra += usize::from(!doc.extra.is_empty());
        }
    }
    assert!(read > 50, "{read} of 1000 read");
    assert!(
        with_extra > 20,
        "{with_extra} of {read} with unknown members"
    );
}

/// Repeated, escaped and unknown members, spelled out.
#[test]
fn repeated_and_escaped_members() {
    let base = r#""schema_version":"1.0","session_id":"s","created":"2025-12-27T10:30:00Z","goal":"g","status":"created""#;
    // (text, whether it reads)
    let cases = [
        (format!(r#"{{{base},"goal":"again"}}"#), false),
        (format!(r#"{{{base},"x":1,"y":2,"x":3}}"#), true),
        (format!(r#"{{{base},"\u0067oal2":1}}"#), true),
        (format!(r#"{{{base},"\u0067oal":"again"}}"#), false),
        (
            base.replace(r#""schema_version""#, r#"{"\u0073chema_version""#) + "}",
            true,
        ),
        (
            format!(r#"{{{base},"project":{{"git_branch":null}}}}"#),
            true,
        ),
        (format!(r#"{{{base},"project":{{"name":null}}}}"#), false),
        (format!(r#"{{{base},"project":null}}"#), false),
        (format!(r#"{{{base},"agents":null}}"#), false),
        (
            format!(r#"{{{base},"context_usage":{{"estimated_tokens":1,"percentage":2}}}}"#),
            true,
        ),
        (format!(r#"{{{base},"context_usage":[1,2,null]}}"#), false),
        (format!("[{base}]"), false),
        ("[]".to_owned(), false),
        ("{}".to_owned(), false),
    ];
    for (text, reads) in &cases {
        assert_eq!(same_session_reads(text, text), *reads, "{text}");
    }
}
