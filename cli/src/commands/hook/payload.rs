//! The JSON payload Claude Code writes on a hook's stdin, and the project folder it names.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use session_state::{Error, Result};

/// The most bytes of payload read; a larger one is refused, unread past this.
pub const MAX_PAYLOAD_BYTES: usize = 1024 * 1024;

/// The members of a hook payload this command reads (Claude Code documents them; any other
/// member is ignored).
#[derive(Debug, Deserialize)]
pub struct Payload {
    /// `SessionStart`, `PreCompact`, `SubagentStart`, `SubagentStop`, `Stop`, `SessionEnd`, ...
    pub hook_event_name: String,
    /// The working folder of the Claude Code session.
    pub cwd: PathBuf,
    /// The Claude Code session's id: the owner id the hook claims and writes as.
    #[serde(default)]
    pub session_id: Option<String>,
    /// The sub-agent's id (`SubagentStart`, `SubagentStop`).
    #[serde(default)]
    pub agent_id: Option<String>,
    /// The sub-agent's type (`SubagentStart`, `SubagentStop`).
    #[serde(default)]
    pub agent_type: Option<String>,
    /// What the sub-agent was asked, when the payload tells.
    #[serde(default)]
    pub description: Option<String>,
    /// The sub-agent's prompt, when the payload tells.
    #[serde(default)]
    pub prompt: Option<String>,
    /// The sub-agent's last message (`SubagentStop`).
    #[serde(default)]
    pub last_assistant_message: Option<String>,
}

/// Parses the payload.
///
/// # Errors
/// `invalid_input` naming what is wrong (not JSON, a member of the wrong type, a missing
/// `hook_event_name` or `cwd`).
pub fn parse(bytes: &[u8]) -> Result<Payload> {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    serde_json::from_slice(bytes)
        .map_err(|e| Error::invalid_input(format!("the hook payload is not usable: {e}")))
}

/// The project folder: `root` (`--root`) when given, else `$CLAUDE_PROJECT_DIR` when set,
/// else the nearest folder at or above `cwd` holding `.claude/` or `.git`, else `cwd`.
pub fn project_dir(root: Option<&Path>, cwd: &Path) -> PathBuf {
    if let Some(root) = root {
        return root.to_path_buf();
    }
    if let Some(dir) = std::env::var_os("CLAUDE_PROJECT_DIR").filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    let cwd = std::path::absolute(cwd).unwrap_or_else(|_| cwd.to_path_buf());
    cwd.ancestors()
        .find(|dir| dir.join(".claude").is_dir() || dir.join(".git").exists())
        .map_or_else(|| cwd.clone(), Path::to_path_buf)
}

/// The first non-empty line of `text`, at most `max` characters (cut with `…`).
pub fn first_line(text: &str, max: usize) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    if line.chars().count() <= max {
        return Some(line.to_owned());
    }
    let mut cut: String = line.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    Some(cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_members_are_ignored_and_wrong_types_refused() {
        let p = parse(br#"{"hook_event_name": "Stop", "cwd": "/x", "extra": [1]}"#).unwrap();
        assert_eq!(p.hook_event_name, "Stop");
        let err = parse(br#"{"hook_event_name": "Stop", "cwd": 5}"#).unwrap_err();
        assert_eq!(err.code(), "invalid_input");
        assert!(parse(br#"{"hook_event_name": "Stop"}"#).is_err());
        assert!(parse(b"not json").is_err());
    }

    #[test]
    fn first_lines_are_cut() {
        assert_eq!(
            first_line("\n  done: ok \nmore", 80).as_deref(),
            Some("done: ok")
        );
        assert_eq!(first_line("abcdef", 4).as_deref(), Some("abc…"));
        assert_eq!(first_line(" \n ", 4), None);
    }
}
