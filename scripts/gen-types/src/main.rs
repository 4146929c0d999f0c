//! Prints one JSON Schema (draft 2020-12) whose `$defs` are the document, result and argument
//! types the bindings expose: documents and results as the core serialises them, arguments
//! as it reads them (`scripts/gen-types` turns it into the TypeScript declarations of both JS
//! packages and the Python TypedDicts).
//!
//! Every `serde_json::Value` member (a result, chain metadata, a transcript record, an item of
//! `errors`) is given the schema `JsonValue`, any JSON value. Unknown fields kept by a document
//! stay `additionalProperties: true`.

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, SchemaGenerator};
use serde_json::{Map, Value, json};
use session_state::ErrorKind;
use session_state::conformance::ConformanceReport;
use session_state::orchestrator::{
    AgentDone, AgentFail, AgentProgress, AgentStart, ContextInput, DecisionInput, DoctorReport,
    ForkOptions, HistoryPage, HistoryTree, NewSession, OrchestratorSession, PruneHistoryOptions,
    ResumeOptions, ResumeSummary, Salvaged, TaskAdd, TaskDone,
};
use session_state::ownership::{
    Claim, ClaimOutcome, Heartbeat, HeartbeatOutcome, Lease, LiveSession, LiveStatus, ProcessInfo,
    Release, ReleaseOutcome, Writer,
};
use session_state::registry::{
    AgentEntry, AllSessions, ChainDefinition, ChainStatus, ChainSummary, PruneRegistryOptions,
    RegistryDoctorReport, ResumeDecision, SessionsDocument, TranscriptLine,
};
use session_state::retention::PrunePlan;
use session_state::team::{
    BackendType, PruneTeamOptions, ResumePlan, SessionState, SpawnConfig, TeamListing, TeamSummary,
};

/// Where the definitions live in the printed schema.
const DEFS: &str = "$defs";

fn main() {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    add::<OrchestratorSession>(&mut generator);
    add::<ResumeSummary>(&mut generator);
    add::<HistoryPage>(&mut generator);
    add::<DoctorReport>(&mut generator);
    add::<Salvaged>(&mut generator);
    add::<SessionsDocument>(&mut generator);
    add::<ChainDefinition>(&mut generator);
    add::<ChainSummary>(&mut generator);
    add::<ChainStatus>(&mut generator);
    add::<AllSessions>(&mut generator);
    add::<AgentEntry>(&mut generator);
    add::<ResumeDecision>(&mut generator);
    add::<TranscriptLine>(&mut generator);
    add::<RegistryDoctorReport>(&mut generator);
    add::<BackendType>(&mut generator);
    add::<SessionState>(&mut generator);
    add::<SpawnConfig>(&mut generator);
    add::<TeamListing>(&mut generator);
    add::<TeamSummary>(&mut generator);
    add::<ResumePlan>(&mut generator);
    add::<ConformanceReport>(&mut generator);
    add::<ErrorKind>(&mut generator);
    add::<ClaimOutcome>(&mut generator);
    add::<HeartbeatOutcome>(&mut generator);
    add::<ReleaseOutcome>(&mut generator);
    add::<Lease>(&mut generator);
    add::<LiveSession>(&mut generator);
    add::<LiveStatus>(&mut generator);
    add::<ProcessInfo>(&mut generator);
    add::<HistoryTree>(&mut generator);
    add::<PrunePlan>(&mut generator);

    let mut defs = generator.take_definitions(true);
    // Arguments, as a caller writes them: a member serde fills with its default is optional.
    // A type that is also part of a result (`SessionStatus`, `ProcessInfo`) keeps the result's
    // schema, the values written, which the argument accepts.
    let mut arguments = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator();
    add::<Claim>(&mut arguments);
    add::<Heartbeat>(&mut arguments);
    add::<Release>(&mut arguments);
    add::<Writer>(&mut arguments);
    add::<ForkOptions>(&mut arguments);
    add::<PruneHistoryOptions>(&mut arguments);
    add::<PruneRegistryOptions>(&mut arguments);
    add::<PruneTeamOptions>(&mut arguments);
    add::<ResumeOptions>(&mut arguments);
    add::<NewSession>(&mut arguments);
    add::<AgentStart>(&mut arguments);
    add::<AgentProgress>(&mut arguments);
    add::<AgentDone>(&mut arguments);
    add::<AgentFail>(&mut arguments);
    add::<DecisionInput>(&mut arguments);
    add::<TaskAdd>(&mut arguments);
    add::<TaskDone>(&mut arguments);
    add::<ContextInput>(&mut arguments);
    for (name, schema) in arguments.take_definitions(true) {
        defs.entry(name).or_insert(schema);
    }
    for schema in defs.values_mut() {
        absent_not_null(schema);
        any_value_to_json_value(schema);
        plain_descriptions(schema);
    }
    defs.insert("JsonValue".to_owned(), json_value_schema());
    defs.sort_keys();
    let root = json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "session-state types",
        DEFS: defs,
    });
    let text = serde_json::to_string_pretty(&root).expect("a schema serialises");
    println!("{text}");
}

/// In the serialise contract a property is optional when serde skips it; a skipped `None` is
/// never written as `null`, so `null` leaves the property's type, at every depth. A property
/// marked `"nullable": true` in the core (an `Option<Option<T>>`: absent, `null` or a value)
/// keeps it.
fn absent_not_null(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            let required: Vec<String> = object
                .get("required")
                .and_then(Value::as_array)
                .map(|r| {
                    r.iter()
                        .filter_map(Value::as_str)
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default();
            if let Some(Value::Object(properties)) = object.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    let Value::Object(property) = property else {
                        continue;
                    };
                    if property.remove("nullable") == Some(Value::Bool(true)) {
                        continue;
                    }
                    if !required.contains(name) {
                        drop_null(property);
                    }
                }
            }
            object.values_mut().for_each(absent_not_null);
        }
        Value::Array(items) => items.iter_mut().for_each(absent_not_null),
        _ => {}
    }
}

/// Removes `null` from `type: [T, "null"]` or `anyOf: [S, {"type": "null"}]`.
fn drop_null(property: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = property.get_mut("type") {
        types.retain(|t| t != "null");
        if let [single] = types.as_slice() {
            let single = single.clone();
            property.insert("type".to_owned(), single);
        }
    }
    if let Some(Value::Array(variants)) = property.get("anyOf") {
        let rest: Vec<Value> = variants
            .iter()
            .filter(|v| **v != json!({ "type": "null" }))
            .cloned()
            .collect();
        if let [single] = rest.as_slice() {
            let single = single.clone();
            property.remove("anyOf");
            if let Value::Object(single) = single {
                for (key, value) in single {
                    property.insert(key, value);
                }
            }
        } else {
            property.insert("anyOf".to_owned(), Value::Array(rest));
        }
    }
}

/// Rewrites the rustdoc links of every `description` as plain code spans: `` [`Foo`] `` and
/// `` [`Foo`](path) `` become `` `Foo` ``, and link definition lines are dropped.
fn plain_descriptions(schema: &mut Value) {
    match schema {
        Value::Object(object) => {
            for (name, child) in object.iter_mut() {
                match child {
                    Value::String(text) if name == "description" => *text = plain_text(text),
                    _ => plain_descriptions(child),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(plain_descriptions),
        _ => {}
    }
}

/// `text` without rustdoc link syntax (see [`plain_descriptions`]).
fn plain_text(text: &str) -> String {
    let kept: Vec<&str> = text
        .lines()
        .filter(|line| !(line.starts_with("[`") && line.contains("]: ")))
        .collect();
    let mut out = String::with_capacity(text.len());
    let mut rest = kept.join("\n");
    while let Some(start) = rest.find("[`") {
        let Some(close) = rest[start..].find("`]").map(|i| start + i) else {
            break;
        };
        out.push_str(&rest[..start]);
        out.push_str(&rest[start + 1..=close]);
        let mut after = close + 2;
        if rest[after..].starts_with('(')
            && let Some(end) = rest[after..].find(')')
        {
            after += end + 1;
        }
        rest = rest[after..].to_owned();
    }
    out.push_str(&rest);
    out.trim_end().to_owned()
}

/// Registers `T` (and every type it refers to) as a definition.
fn add<T: JsonSchema>(generator: &mut SchemaGenerator) {
    generator.subschema_for::<T>();
}

/// Any JSON value, spelt out so that the TypeScript type is `JsonValue`, not `unknown`.
fn json_value_schema() -> Value {
    let any = json!({ "$ref": format!("#/{DEFS}/JsonValue") });
    json!({
        "description": "Any JSON value.",
        "anyOf": [
            { "type": "null" },
            { "type": "boolean" },
            { "type": "number" },
            { "type": "string" },
            { "type": "array", "items": any },
            { "type": "object", "additionalProperties": any },
        ]
    })
}

/// Replaces each "any value" schema (`true` or `{}`) of a property or an array item by a
/// reference to `JsonValue`, at every depth. `additionalProperties: true` (the unknown fields a
/// document keeps) is left as it is.
fn any_value_to_json_value(schema: &mut Value) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for property in properties.values_mut() {
            replace_any(property);
        }
    }
    if let Some(items) = object.get_mut("items") {
        replace_any(items);
    }
    for (name, child) in object.iter_mut() {
        match (name.as_str(), child) {
            ("properties", Value::Object(properties)) => {
                properties.values_mut().for_each(any_value_to_json_value);
            }
            ("oneOf" | "anyOf" | "allOf", Value::Array(variants)) => {
                variants.iter_mut().for_each(any_value_to_json_value);
            }
            ("items" | "additionalProperties", child @ Value::Object(_)) => {
                any_value_to_json_value(child);
            }
            _ => {}
        }
    }
}

/// Keywords that describe a schema without restricting its values.
const ANNOTATIONS: [&str; 4] = ["description", "default", "examples", "title"];

/// `true` or `{}` (any value, possibly with only annotations) becomes a `JsonValue`
/// reference that keeps the description.
fn replace_any(schema: &mut Value) {
    let description = match schema {
        Value::Bool(true) => None,
        Value::Object(object) if object.keys().all(|k| ANNOTATIONS.contains(&k.as_str())) => {
            object.get("description").cloned()
        }
        _ => return,
    };
    let mut reference = Map::new();
    reference.insert("$ref".to_owned(), json!(format!("#/{DEFS}/JsonValue")));
    if let Some(description) = description {
        reference.insert("description".to_owned(), description);
    }
    *schema = Value::Object(reference);
}
