//! `Deserialize` for the document types: each reads its known members by name and keeps every
//! other member in its `extra` map, in one pass.
//!
//! It reads exactly as `#[derive(Deserialize)]` with the attributes on the types in
//! `document.rs` reads (the test `orchestrator_document_read` compares the two): a map only
//! (`expecting` "struct {Name}"), a known member twice is `duplicate_field`, a missing one
//! `missing_field` or its default, and an unknown member repeated keeps its first place and
//! its last value. Unlike the derive, an unknown member's value is read straight into a
//! [`Value`] instead of being buffered first.

use std::fmt;

use serde::de::{Error, MapAccess, Unexpected, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::document::{Agent, CompletedWork, ContextUsage, Decision, OrchestratorSession, Project};

/// `Deserialize` for `$type`, a struct of the listed fields plus `extra: Map<String, Value>`.
/// Each field: `name: "member" how absent`, where `how` is `plain` (the member read as the
/// field's type) or `some` (read as the type inside the field's `Option`, then `Some`), and
/// `absent` is `required` (`missing_field`) or `default` (the field type's default).
macro_rules! read_with_extra {
    ($type:ident { $($field:ident: $member:literal $how:ident $absent:ident),+ $(,)? }) => {
        impl<'de> Deserialize<'de> for $type {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                #[allow(non_camel_case_types)]
                enum Member {
                    $($field,)+
                    Other(String),
                }

                struct MemberVisitor;

                impl MemberVisitor {
                    fn known(name: &str) -> Option<Member> {
                        match name {
                            $($member => Some(Member::$field),)+
                            _ => None,
                        }
                    }
                }

                impl Visitor<'_> for MemberVisitor {
                    type Value = Member;

                    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                        formatter.write_str("field identifier")
                    }

                    fn visit_str<E: Error>(self, name: &str) -> Result<Member, E> {
                        Ok(Self::known(name).unwrap_or_else(|| Member::Other(name.to_owned())))
                    }

                    fn visit_string<E: Error>(self, name: String) -> Result<Member, E> {
                        Ok(Self::known(&name).unwrap_or(Member::Other(name)))
                    }

                    fn visit_bytes<E: Error>(self, name: &[u8]) -> Result<Member, E> {
                        match std::str::from_utf8(name) {
                            Ok(name) => self.visit_str(name),
                            Err(_) => Err(E::invalid_value(Unexpected::Bytes(name), &self)),
                        }
                    }
                }

                impl<'de> Deserialize<'de> for Member {
                    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                        deserializer.deserialize_identifier(MemberVisitor)
                    }
                }

                struct StructVisitor;

                impl<'de> Visitor<'de> for StructVisitor {
                    type Value = $type;

                    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
                        formatter.write_str(concat!("struct ", stringify!($type)))
                    }

                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<$type, A::Error> {
                        $(let mut $field = None;)+
                        let mut extra = Map::new();
                        while let Some(member) = map.next_key::<Member>()? {
                            match member {
                                $(Member::$field => {
                                    if $field.is_some() {
                                        return Err(A::Error::duplicate_field($member));
                                    }
                                    $field = Some(read_with_extra!(@read $how map));
                                })+
                                Member::Other(name) => {
                                    let value: Value = map.next_value()?;
                                    extra.insert(name, value);
                                }
                            }
                        }
                        Ok($type {
                            $($field: match $field {
                                Some(value) => value,
                                None => read_with_extra!(@absent $absent $member),
                            },)+
                            extra,
                        })
                    }
                }

                deserializer.deserialize_map(StructVisitor)
            }
        }
    };
    (@read plain $map:ident) => { $map.next_value()? };
    (@read some $map:ident) => { Some($map.next_value()?) };
    (@absent required $member:literal) => { return Err(Error::missing_field($member)) };
    (@absent default $member:literal) => { Default::default() };
}

read_with_extra!(OrchestratorSession {
    schema_version: "schema_version" plain required,
    session_id: "session_id" plain required,
    created: "created" plain required,
    updated: "updated" some default,
    project: "project" some default,
    goal: "goal" plain required,
    mode: "mode" some default,
    status: "status" plain required,
    agents: "agents" plain default,
    completed_work: "completed_work" plain default,
    pending_tasks: "pending_tasks" plain default,
    decisions_made: "decisions_made" plain default,
    context_usage: "context_usage" plain default,
    errors: "errors" plain default,
});

read_with_extra!(Project {
    name: "name" some default,
    path: "path" some default,
    git_branch: "git_branch" some default,
});

read_with_extra!(Agent {
    id: "id" plain required,
    agent_type: "type" plain required,
    task: "task" plain required,
    status: "status" plain required,
    started: "started" plain required,
    completed: "completed" plain default,
    result_summary: "result_summary" plain default,
    progress: "progress" plain default,
    context_tokens: "context_tokens" plain default,
});

read_with_extra!(CompletedWork {
    task: "task" plain required,
    outcome: "outcome" plain default,
    files: "files" plain default,
});

read_with_extra!(Decision {
    decision: "decision" plain required,
    rationale: "rationale" plain required,
    timestamp: "timestamp" plain required,
});

// `last_compression` is an `Option` without `#[serde(default)]`: the derive reads it absent
// as `None`, as a default.
read_with_extra!(ContextUsage {
    estimated_tokens: "estimated_tokens" plain required,
    percentage: "percentage" plain required,
    last_compression: "last_compression" plain default,
});
