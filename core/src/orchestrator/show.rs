//! The session as a short `name: value` listing, for a person reading a terminal.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::document::OrchestratorSession;
use super::summary::{UNKNOWN, known_text, known_time};
use crate::time::Timestamp;

/// `doc` as one `name: value` line per field (`session`, `goal`, `status`, `mode`, `created`,
/// `updated`, `project`), one line per agent under `agents:` (id, status, task and progress),
/// then how many pending tasks and errors it has. A value the document does not really hold
/// reads `unknown` (a salvaged document's empty goal, or its `created` filled with the Unix
/// epoch). A value keeps to its line: its control characters, line breaks and tabs included,
/// are written as their escapes (`\n`, `\u{1b}`). Ends with a newline.
pub fn render_show(doc: &OrchestratorSession) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "session:  {}", one_line(&doc.session_id));
    let _ = writeln!(out, "goal:     {}", known(Some(&doc.goal)));
    let _ = writeln!(out, "status:   {}", doc.status);
    let _ = writeln!(out, "mode:     {}", known(doc.mode.as_deref()));
    let _ = writeln!(out, "created:  {}", time(Some(doc.created)));
    let _ = writeln!(out, "updated:  {}", time(doc.updated));
    let _ = writeln!(out, "project:  {}", project(doc));
    out.push_str("agents:\n");
    for a in &doc.agents {
        let progress = a
            .progress
            .as_ref()
            .map(|p| format!(" {p}%"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:<12} {:<12} {}{progress}",
            one_line(&a.id),
            a.status.as_str(),
            one_line(&a.task)
        );
    }
    let _ = writeln!(out, "pending:  {}", doc.pending_tasks.len());
    let _ = writeln!(out, "errors:   {}", doc.errors.len());
    out
}

/// A text of the document, or `unknown` for a missing or empty one ([`known_text`]).
fn known(text: Option<&str>) -> Cow<'_, str> {
    text.and_then(known_text).map_or(UNKNOWN.into(), one_line)
}

/// A time of the document, or `unknown` for a missing one or its stand-in ([`known_time`]).
fn time(t: Option<Timestamp>) -> String {
    t.and_then(known_time)
        .map_or_else(|| UNKNOWN.to_owned(), |t| t.to_string())
}

/// `name (path)`, or whichever of the two is known, or `unknown`.
fn project(doc: &OrchestratorSession) -> String {
    let project = doc.project.as_ref();
    let name = project.and_then(|p| p.name.as_deref()).and_then(known_text);
    let path = project.and_then(|p| p.path.as_deref()).and_then(known_text);
    match (name.map(one_line), path.map(one_line)) {
        (Some(name), Some(path)) => format!("{name} ({path})"),
        (Some(one), None) | (None, Some(one)) => one.into_owned(),
        (None, None) => UNKNOWN.to_owned(),
    }
}

/// `text` with every control character written as its escape, so that it stays on its line.
fn one_line(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_default().collect()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orchestrator::{Agent, Project};

    fn doc() -> OrchestratorSession {
        let created = Timestamp::parse("2025-12-27T10:30:00Z").unwrap();
        let mut doc = OrchestratorSession::new(
            "s-1",
            "ship it",
            "default",
            Project::new("p", "/p", None),
            created,
        );
        doc.updated = None;
        doc
    }

    #[test]
    fn every_field_on_its_line() {
        let mut doc = doc();
        let mut agent = Agent::new("a1", "code", "build\nfake-row", doc.created);
        agent.progress = Some(40u8.into());
        doc.agents.push(agent);
        doc.pending_tasks.push("later".into());
        assert_eq!(
            render_show(&doc),
            "session:  s-1\ngoal:     ship it\nstatus:   created\nmode:     default\n\
             created:  2025-12-27T10:30:00Z\nupdated:  unknown\nproject:  p (/p)\nagents:\n  \
             a1           in_progress  build\\nfake-row 40%\npending:  1\nerrors:   0\n"
        );
    }

    #[test]
    fn what_the_document_does_not_hold_is_unknown() {
        let mut doc = doc();
        doc.goal = String::new();
        doc.mode = None;
        doc.created = Timestamp::parse("1970-01-01T00:00:00Z").unwrap();
        doc.project = Some(Project::new("", "/p", None));
        let text = render_show(&doc);
        for line in [
            "goal:     unknown\n",
            "mode:     unknown\n",
            "created:  unknown\n",
            "project:  /p\n",
        ] {
            assert!(text.contains(line), "{line}: {text}");
        }
        doc.project = None;
        assert!(render_show(&doc).contains("project:  unknown\n"));
    }
}
