//! The facts of a project folder that a session records: its name, its absolute path, and the
//! git branch and HEAD commit read from `.git` without running `git`.
//!
//! `.git` is looked for in the folder and then in each folder above it (as `git` does). It may
//! be a folder, or a file `gitdir: PATH` (a worktree made by `git worktree add`, a submodule),
//! where `PATH` is absolute or relative to the file's folder. `HEAD` is read from that git
//! folder: `ref: refs/heads/NAME` is the branch `NAME` (any other ref is named whole), a bare
//! commit id is a detached HEAD (no branch). The commit is read from the ref's file, in the
//! git folder and then in its common folder (the `commondir` file of a worktree), then from
//! `packed-refs`. Anything missing or unreadable gives `None` for that fact, never an error: a
//! branch that has no commit yet has a branch and no commit.

use std::fs;
use std::path::{Path, PathBuf};

use session_state::orchestrator::Project;
use session_state::{Error, ErrorKind, Result};

/// The most bytes read from `HEAD`, a ref file or a `gitdir:` file (they hold one line).
const SMALL_FILE: u64 = 4096;
/// How many symbolic refs are followed before giving up (git stops at 5 too).
const MAX_REF_DEPTH: usize = 5;

/// The git facts of a folder: the core's [`GitHead`](session_state::orchestrator::GitHead),
/// the branch checked out (`None`: detached HEAD, or no repository) and the commit HEAD points
/// at (`None`: no commit yet, or no repository).
pub use session_state::orchestrator::GitHead;

/// A project folder's facts for a new session.
#[derive(Clone, Debug, PartialEq)]
pub struct ProjectFacts {
    /// `{name, path, git_branch}`: the folder's name, its absolute path, and the branch
    /// (`null` when detached or not in a repository).
    pub project: Project,
    /// The HEAD commit id, when there is one.
    pub git_head: Option<String>,
}

/// The facts of the project folder `root`.
///
/// # Errors
/// [`ErrorKind::NotFound`] when `root` does not exist (its absolute path cannot be resolved).
pub fn project_facts(root: &Path) -> Result<ProjectFacts> {
    let path = fs::canonicalize(root).map_err(|e| {
        Error::new(
            ErrorKind::NotFound,
            format!(
                "project folder `{}` cannot be resolved: {e}",
                root.display()
            ),
        )
        .with_context("path", root.display().to_string())
        .with_source(e)
    })?;
    let name = path
        .file_name()
        .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy())
        .into_owned();
    let head = git_head(&path);
    let project = Project::new(
        name,
        path.to_string_lossy().into_owned(),
        head.branch.as_deref(),
    );
    Ok(ProjectFacts {
        project,
        git_head: head.commit,
    })
}

/// The git branch and HEAD commit of the repository holding `dir` (see the module docs);
/// all `None` when there is none. `dir` is resolved first (a relative path, `..`, a symlink),
/// so the folders above it are the real ones.
pub fn git_head(dir: &Path) -> GitHead {
    let Some(git_dir) = fs::canonicalize(dir)
        .ok()
        .and_then(|dir| find_git_dir(&dir))
    else {
        return GitHead::default();
    };
    let Some(head) = read_small(&git_dir.join("HEAD")) else {
        return GitHead::default();
    };
    let common = common_dir(&git_dir);
    let head = head.trim();
    match head.strip_prefix("ref:") {
        Some(name) => {
            let name = name.trim();
            let branch = name.strip_prefix("refs/heads/").unwrap_or(name);
            // A reftable repository keeps HEAD pointing at this placeholder.
            if branch == ".invalid" {
                return GitHead::default();
            }
            GitHead {
                branch: Some(branch.to_owned()),
                commit: resolve(&git_dir, &common, name, 0),
            }
        }
        None => GitHead {
            branch: None,
            commit: is_commit_id(head).then(|| head.to_owned()),
        },
    }
}

/// The git folder of the repository holding `dir`: `.git` of `dir` or of the nearest folder
/// above it, as a folder or through a `gitdir:` file.
fn find_git_dir(dir: &Path) -> Option<PathBuf> {
    for folder in dir.ancestors() {
        let dot_git = folder.join(".git");
        let Ok(meta) = fs::metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            return Some(dot_git);
        }
        if meta.is_file() {
            let text = read_small(&dot_git)?;
            let target = text.trim().strip_prefix("gitdir:")?.trim();
            let target = Path::new(target);
            return Some(if target.is_absolute() {
                target.to_path_buf()
            } else {
                folder.join(target)
            });
        }
    }
    None
}

/// The common git folder of `git_dir` (a worktree's `commondir`), or `git_dir` itself.
fn common_dir(git_dir: &Path) -> PathBuf {
    match read_small(&git_dir.join("commondir")) {
        Some(text) if !text.trim().is_empty() => {
            let path = Path::new(text.trim());
            if path.is_absolute() {
                path.to_path_buf()
            } else {
                git_dir.join(path)
            }
        }
        _ => git_dir.to_path_buf(),
    }
}

/// The commit id of the ref `name` (e.g. `refs/heads/main`).
fn resolve(git_dir: &Path, common: &Path, name: &str, depth: usize) -> Option<String> {
    if depth > MAX_REF_DEPTH || !safe_ref(name) {
        return None;
    }
    let loose = read_small(&git_dir.join(name)).or_else(|| read_small(&common.join(name)));
    if let Some(text) = loose {
        let text = text.trim();
        return match text.strip_prefix("ref:") {
            Some(next) => resolve(git_dir, common, next.trim(), depth + 1),
            None => is_commit_id(text).then(|| text.to_owned()),
        };
    }
    let packed = fs::read_to_string(common.join("packed-refs")).ok()?;
    packed
        .lines()
        .filter(|line| !line.starts_with('#') && !line.starts_with('^'))
        .filter_map(|line| line.split_once(' '))
        .find(|(_, refname)| refname.trim() == name)
        .map(|(id, _)| id.to_owned())
        .filter(|id| is_commit_id(id))
}

/// A ref name that stays inside the git folder.
fn safe_ref(name: &str) -> bool {
    name.starts_with("refs/")
        && !name
            .split('/')
            .any(|s| s.is_empty() || s == "." || s == "..")
        && !name.contains('\\')
}

/// A SHA-1 or SHA-256 commit id in hex.
fn is_commit_id(text: &str) -> bool {
    matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The text of a small regular file, `None` when missing, too big or not UTF-8.
fn read_small(path: &Path) -> Option<String> {
    let meta = fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > SMALL_FILE {
        return None;
    }
    fs::read_to_string(path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_ids_and_ref_names() {
        assert!(is_commit_id(&"a".repeat(40)));
        assert!(is_commit_id(&"0".repeat(64)));
        assert!(!is_commit_id("abc"));
        assert!(safe_ref("refs/heads/feature/x"));
        assert!(!safe_ref("refs/heads/../../../etc/passwd"));
        assert!(!safe_ref("HEAD"));
    }

    #[test]
    fn no_repository_gives_nothing() {
        let dir = tempfile::tempdir().unwrap();
        // A temporary folder may sit inside some repository; make one that surely does not.
        let inner = dir.path().join("x");
        fs::create_dir(&inner).unwrap();
        fs::write(inner.join(".git"), "not a gitdir line").unwrap();
        assert_eq!(git_head(&inner), GitHead::default());
    }
}
