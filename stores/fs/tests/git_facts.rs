//! `project_facts` and `git_head` on repositories made by the real `git`: a plain checkout, a
//! worktree (`.git` is a `gitdir:` file), a detached HEAD, packed refs, a branch with no
//! commit yet, and a folder below the repository's top.

use std::path::Path;
use std::process::Command;

use session_state_fs::{GitHead, git_head, project_facts};

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// A repository at `dir/repo` with one commit on `main`; returns its path and the commit id.
fn repo(dir: &Path) -> (std::path::PathBuf, String) {
    let repo = dir.join("repo");
    std::fs::create_dir(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    std::fs::write(repo.join("f"), "x").unwrap();
    git(&repo, &["add", "f"]);
    git(&repo, &["commit", "-q", "-m", "one"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);
    (repo, head)
}

#[test]
fn a_checkout_gives_its_branch_commit_name_and_absolute_path() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, head) = repo(dir.path());
    let facts = project_facts(&repo.join(".")).unwrap();
    assert_eq!(facts.project.name.as_deref(), Some("repo"));
    let path = std::fs::canonicalize(&repo).unwrap();
    assert_eq!(
        facts.project.path.as_deref(),
        Some(&*path.to_string_lossy())
    );
    assert_eq!(facts.project.git_branch, Some(Some("main".to_owned())));
    assert_eq!(facts.git_head.as_deref(), Some(head.as_str()));

    // A folder below the top reads the same repository.
    std::fs::create_dir(repo.join("sub")).unwrap();
    let sub = project_facts(&repo.join("sub")).unwrap();
    assert_eq!(sub.project.name.as_deref(), Some("sub"));
    assert_eq!(sub.project.git_branch, Some(Some("main".to_owned())));
}

#[test]
fn a_worktree_reads_its_own_head_through_the_gitdir_file() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, head) = repo(dir.path());
    let wt = dir.path().join("wt");
    git(
        &repo,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "feature/x",
            wt.to_str().unwrap(),
        ],
    );
    assert!(wt.join(".git").is_file());
    let got = git_head(&wt);
    assert_eq!(
        got,
        GitHead {
            branch: Some("feature/x".to_owned()),
            commit: Some(head.clone()),
        }
    );
    // Packed refs (after `git pack-refs --all`) are found through the common folder.
    git(&repo, &["pack-refs", "--all"]);
    assert!(!repo.join(".git/refs/heads/feature/x").exists());
    assert_eq!(git_head(&wt).commit.as_deref(), Some(head.as_str()));
    assert_eq!(git_head(&repo).commit.as_deref(), Some(head.as_str()));
}

#[test]
fn a_detached_head_has_a_commit_and_no_branch() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, head) = repo(dir.path());
    git(&repo, &["checkout", "-q", "--detach"]);
    let facts = project_facts(&repo).unwrap();
    assert_eq!(facts.project.git_branch, Some(None));
    assert_eq!(facts.git_head.as_deref(), Some(head.as_str()));
}

#[test]
fn a_branch_without_commits_and_a_folder_without_git() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    git(&empty, &["init", "-q"]);
    assert_eq!(
        git_head(&empty),
        GitHead {
            branch: Some("main".to_owned()),
            commit: None,
        }
    );
    let plain = dir.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    let facts = project_facts(&plain).unwrap();
    assert_eq!(facts.project.git_branch, Some(None));
    assert_eq!(facts.git_head, None);
    let missing = project_facts(&dir.path().join("nope")).unwrap_err();
    assert_eq!(missing.code(), "not_found");
}

#[cfg(unix)]
#[test]
fn a_symlink_to_a_folder_of_a_repository_reads_that_repository() {
    let dir = tempfile::tempdir().unwrap();
    let (repo, head) = repo(dir.path());
    std::fs::create_dir(repo.join("sub")).unwrap();
    // `link/..` is `dir`, outside the repository: only the resolved path finds `.git`.
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(repo.join("sub"), &link).unwrap();
    let found = git_head(&link);
    assert_eq!(found.branch.as_deref(), Some("main"));
    assert_eq!(found.commit.as_deref(), Some(head.as_str()));
}
