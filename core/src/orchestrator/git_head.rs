//! The project's git HEAD recorded at each save: `project.git_head: {commit, branch}`, an added
//! field that schema "1.0" readers keep as an unknown one. The core reads no repository: the
//! caller gives the HEAD as data.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::document::{OrchestratorSession, Project};

/// The member of `project` that holds the HEAD at the last save.
pub const GIT_HEAD: &str = "git_head";

/// A repository's HEAD: the commit it points at and the branch checked out (`None`: detached,
/// no commit yet, or not known).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct GitHead {
    /// The commit id.
    #[serde(default)]
    pub commit: Option<String>,
    /// The branch name.
    #[serde(default)]
    pub branch: Option<String>,
}

impl GitHead {
    /// Whether neither fact is known.
    pub fn is_empty(&self) -> bool {
        self.commit.is_none() && self.branch.is_none()
    }

    /// The HEAD recorded in `doc` (`project.git_head`), when it is there and an object; a
    /// member of another type reads as absent (it is kept as it is until the next save).
    pub fn of(doc: &OrchestratorSession) -> Option<GitHead> {
        let value = doc.project.as_ref()?.extra.get(GIT_HEAD)?;
        let object = value.as_object()?;
        let text = |name: &str| object.get(name).and_then(Value::as_str).map(str::to_owned);
        Some(GitHead {
            commit: text("commit"),
            branch: text("branch"),
        })
    }

    /// Records `self` as `doc`'s `project.git_head` (creating `project` when absent), keeping
    /// unknown members of an existing `git_head` object.
    pub fn record_in(&self, doc: &mut OrchestratorSession) {
        let project = doc.project.get_or_insert_with(|| Project {
            name: None,
            path: None,
            git_branch: None,
            extra: Map::new(),
        });
        let mut object = match project.extra.remove(GIT_HEAD) {
            Some(Value::Object(object)) => object,
            _ => Map::new(),
        };
        object.insert("commit".to_owned(), self.commit.clone().into());
        object.insert("branch".to_owned(), self.branch.clone().into());
        project
            .extra
            .insert(GIT_HEAD.to_owned(), Value::Object(object));
    }
}
