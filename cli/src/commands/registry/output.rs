//! How the registry commands print: aligned text tables, or JSON with `--json`.

use serde::Serialize;
use serde_json::json;
use session_state::registry::{AgentEntry, ChainStatus, ChainSummary, ChainView, ResumeDecision};
use session_state::{Error, Result};

use crate::terminal::{out, table};

fn print_json<T: Serialize + ?Sized>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| Error::invalid_input(format!("cannot print JSON: {e}")))?;
    out!("{text}");
    Ok(())
}

pub fn agents(entries: &[AgentEntry], chain_id: Option<&str>, as_json: bool) -> Result<()> {
    if as_json {
        return print_json(entries);
    }
    if entries.is_empty() {
        match chain_id {
            Some(id) => out!("no agents in chain `{id}`"),
            None => out!("no registered agents"),
        }
        return Ok(());
    }
    let rows: Vec<Vec<String>> = entries
        .iter()
        .map(|e| {
            vec![
                e.agent_name.clone(),
                e.agent_id.clone(),
                e.chain_id.clone().unwrap_or_else(|| "-".to_owned()),
                e.resume_count.to_string(),
                if e.has_result { "yes" } else { "no" }.to_owned(),
            ]
        })
        .collect();
    table(&["AGENT", "ID", "CHAIN", "RESUMES", "RESULT"], &rows);
    Ok(())
}

pub fn chains(views: &[(ChainSummary, ChainStatus)], as_json: bool) -> Result<()> {
    if as_json {
        let list: Vec<_> = views
            .iter()
            .map(|(summary, status)| json!({"summary": summary, "status": status}))
            .collect();
        return print_json(&list);
    }
    if views.is_empty() {
        out!("no chains");
        return Ok(());
    }
    let rows: Vec<Vec<String>> = views
        .iter()
        .map(|(summary, status)| {
            vec![
                summary.chain_id.clone(),
                summary.agent_count.unwrap_or(0).to_string(),
                if status.defined {
                    format!("{}/{}", status.done.len(), status.expected.len())
                } else {
                    "-".to_owned()
                },
                summary.status.clone(),
            ]
        })
        .collect();
    table(
        &["CHAIN", "RESULTS", "EXPECTED DONE", "SUMMARY STATUS (SEED)"],
        &rows,
    );
    Ok(())
}

pub fn chain(view: &ChainView, as_json: bool) -> Result<()> {
    if as_json {
        return print_json(view);
    }
    let (summary, status) = (&view.summary, &view.status);
    let list = |items: &[String]| {
        if items.is_empty() {
            "-".to_owned()
        } else {
            items.join(", ")
        }
    };
    // The expected-vs-done verdict first; the seed's summary `status` only says whether the
    // chain has results, so it is labelled as the seed's.
    out!("chain:                 {}", summary.chain_id);
    if status.defined {
        let verdict = if status.complete {
            "yes, every expected agent is done".to_owned()
        } else {
            format!("no, missing: {}", list(&status.missing))
        };
        out!("complete:              {verdict}");
        out!("expected:              {}", list(&status.expected));
        out!("done:                  {}", list(&status.done));
        out!("missing:               {}", list(&status.missing));
        out!("out of order:          {}", list(&status.out_of_order));
        out!("unexpected:            {}", list(&status.unexpected));
    } else {
        out!("complete:              unknown (expected agents not defined with create_chain)");
    }
    out!("summary status (seed): {}", summary.status);
    out!(
        "results:               {}",
        summary.agent_count.unwrap_or(0)
    );
    out!(
        "agents:                {}",
        list(summary.agents.as_deref().unwrap_or(&[]))
    );
    if let Some(Some(t)) = &summary.started_at {
        out!("started at:            {t}");
    }
    if let Some(Some(t)) = &summary.completed_at {
        out!("completed at:          {t}");
    }
    Ok(())
}

pub fn decision(decision: &ResumeDecision, explained: bool, as_json: bool) -> Result<()> {
    if as_json {
        return print_json(&decision_value(decision, explained));
    }
    out!("{}", decision_text(decision, explained));
    Ok(())
}

/// `{"resume": bool}`, or for the explained policy the whole decision (score, matched, reason).
pub fn decision_value(decision: &ResumeDecision, explained: bool) -> serde_json::Value {
    if explained {
        serde_json::to_value(decision).unwrap_or_default()
    } else {
        json!({"resume": decision.resume})
    }
}

/// `resume` or `new`; for the explained policy followed by the reason, score and terms.
pub fn decision_text(decision: &ResumeDecision, explained: bool) -> String {
    let verdict = if decision.resume { "resume" } else { "new" };
    if !explained {
        return verdict.to_owned();
    }
    let reason = serde_json::to_value(decision.reason)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    let matched = if decision.matched.is_empty() {
        "-".to_owned()
    } else {
        decision.matched.join(", ")
    };
    format!(
        "{verdict} ({reason}; score {:.2}; matched: {matched})",
        decision.score
    )
}
