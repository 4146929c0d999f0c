//! Mapping keys onto paths below the root, and refusing symlinks that lead out of it.

use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use session_state::{Error, ErrorKind, Key, Result};

/// Suffix of lock files, which sit beside the key they guard as `.NAME.lock`.
pub const LOCK_SUFFIX: &str = ".lock";
/// Suffix of queue files, which sit beside the key as `.NAME.lock-queue`: a writer holds it
/// only while it waits for `.NAME.lock`, so the writer that just released the lock cannot take
/// it again ahead of one that was waiting (see `FsStore`'s lock wait).
pub const QUEUE_SUFFIX: &str = ".lock-queue";
/// Infix of temporary files, which sit beside their target as `.NAME.tmp-PID-N`.
pub const TMP_INFIX: &str = ".tmp-";

/// Longest part of a key's file name kept in its temp and lock file names, so that
/// `.NAME.tmp-PID-N` and `.NAME.lock` stay within the usual 255-byte file-name limit even for
/// a 255-byte key segment. Two keys whose names share these first bytes share one lock file:
/// that only serialises their updates (updates never nest), it never loses one.
const SIBLING_NAME_BYTES: usize = 200;

/// `root` with a leading `~` (alone or before `/`) read as the home folder (`HOME`), as a
/// shell reads it; any root not starting with `~` as it is. A front end given a folder as text
/// (Node) reads it so.
///
/// ```
/// # use std::path::PathBuf;
/// # use session_state_fs::expand_home;
/// assert_eq!(expand_home("./~/x").unwrap(), PathBuf::from("./~/x"));
/// assert!(expand_home("~user/x").is_err());
/// ```
///
/// # Errors
/// `invalid_input` for `~` or `~/...` when `HOME` is unset or empty, and for `~name...` (another
/// user's home, which this does not look up): a folder of that name is `./~name`.
pub fn expand_home(root: &str) -> Result<PathBuf> {
    let Some(rest) = root.strip_prefix('~') else {
        return Ok(PathBuf::from(root));
    };
    let refused = |why: &str| {
        Error::invalid_input(format!("root `{}` {why}", root.escape_debug()))
            .with_context("field", "root")
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        return Err(refused(
            "names another user's home, which is not looked up: give the folder in full (`./~name` for a folder of that name)",
        ));
    }
    let home = std::env::var_os("HOME").filter(|home| !home.is_empty());
    let home = home
        .ok_or_else(|| refused("starts with `~` but HOME is not set: give the folder in full"))?;
    match rest.trim_start_matches('/') {
        "" => Ok(PathBuf::from(home)),
        below => Ok(Path::new(&home).join(below)),
    }
}

/// Whether a file name is one of the store's own reserved names (temp, lock or queue file).
pub fn is_reserved(name: &str) -> bool {
    name.starts_with('.')
        && (name.ends_with(LOCK_SUFFIX) || name.ends_with(QUEUE_SUFFIX) || name.contains(TMP_INFIX))
}

/// Refuses a key with a segment that is a reserved name: writing `.x.lock` would replace the
/// lock file of `x` (and lose updates), and such keys would never show in `list`.
pub fn check_not_reserved(key: &Key) -> Result<()> {
    match key.segments().find(|s| is_reserved(s)) {
        None => Ok(()),
        Some(segment) => Err(Error::new(
            ErrorKind::InvalidKey,
            format!(
                "key `{key}` uses `{segment}`, a name the filesystem store reserves for its \
                 temporary, lock and queue files"
            ),
        )
        .with_context("key", key.as_str())
        .with_context("value", segment)),
    }
}

/// The path of `key` below `root`. Keys are validated, so this never climbs out by itself.
pub fn path_of(root: &Path, key: &Key) -> PathBuf {
    let mut path = root.to_path_buf();
    for segment in key.segments() {
        path.push(segment);
    }
    path
}

/// A path beside `path` named `.NAME{suffix}`.
pub fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut end = name.len().min(SIBLING_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    path.with_file_name(format!(".{}{suffix}", &name[..end]))
}

/// How old a temporary file must be to count as stale whatever its PID says: no write keeps
/// one that long, and a dead writer's PID may have been reused by a live process since.
pub const STALE_TEMP_AGE: Duration = Duration::from_secs(60 * 60);

/// Whether the file name `name` is a temporary file (`.NAME.tmp-PID-N`) of a writer that is no
/// longer writing: its PID is neither this process nor a running one (checked in `/proc`;
/// where there is no `/proc`, only the age counts), or it was last modified over
/// [`STALE_TEMP_AGE`] ago (`modified`).
pub fn is_stale_temp(name: &str, modified: Option<SystemTime>) -> bool {
    let Some(rest) = Some(name)
        .filter(|n| n.starts_with('.'))
        .and_then(|n| n.rsplit_once(TMP_INFIX))
        .map(|(_, rest)| rest)
    else {
        return false;
    };
    let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
        return false;
    };
    let old = modified
        .and_then(|m| m.elapsed().ok())
        .is_some_and(|age| age > STALE_TEMP_AGE);
    let proc_root = Path::new("/proc");
    let dead = pid != std::process::id()
        && proc_root.join("self").exists()
        && !proc_root.join(pid.to_string()).exists();
    old || dead
}

/// The stale temporary files directly in `dir` (see [`is_stale_temp`]), with their sizes.
/// Best effort: an unreadable folder or entry is skipped.
pub fn stale_temps_in(dir: &Path) -> Vec<(PathBuf, u64)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        // Only a temporary file's name is worth a `stat` (a folder of archives holds thousands
        // of other files).
        if !name
            .to_str()
            .is_some_and(|n| n.starts_with('.') && n.contains(TMP_INFIX))
        {
            continue;
        }
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if meta.is_file()
            && name
                .to_str()
                .is_some_and(|n| is_stale_temp(n, meta.modified().ok()))
        {
            out.push((entry.path(), meta.len()));
        }
    }
    out
}

/// Removes the temporary files in the folder of `path` (`.NAME.tmp-PID-N`, for any `NAME`) left
/// by writers that died mid-write (see [`is_stale_temp`]). Any key's leftovers go, not only
/// `path`'s: a key may be written under another key's lock (the registry writes its sessions
/// file under its journal's lock), and a dead writer's file is garbage whichever lock is held.
/// Best effort: errors are ignored, since a leftover temporary file is never read or listed
/// anyway.
pub fn remove_stale_temps(path: &Path) {
    if let Some(parent) = path.parent() {
        for (temp, _) in stale_temps_in(parent) {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// A storage error about `key` at `path` caused by `err`.
pub fn io_error(key: &Key, path: &Path, action: &str, err: io::Error) -> Error {
    Error::storage(key, action, err).with_context("path", path.display().to_string())
}

/// The layout's own folders (SPEC section 4), as segments from the root: a symlink the user made
/// at one of them (a dotfiles setup linking `.claude` elsewhere) is followed wherever it leads,
/// and what lies below it must then stay inside its target.
const LAYOUT_FOLDERS: &[&[&str]] = &[&[".claude"], &[".moai"], &[".moai", "memory"], &["teams"]];

/// Whether the first `depth` segments of `key` name one of the layout's own folders.
fn is_layout_folder(key: &Key, depth: usize) -> bool {
    LAYOUT_FOLDERS.iter().any(|folder| {
        folder.len() == depth && key.segments().take(depth).eq(folder.iter().copied())
    })
}

/// Checks that every existing component of `path` below `root` that is a symlink resolves
/// inside `root` (`canonical_root` is `root` canonicalised, `None` when the root does not
/// exist: then no link can lead inside it), or inside the target of the last layout folder
/// (`.claude`, `.moai`, `.moai/memory`, `teams`) above it that is a symlink: such a link is
/// followed wherever it leads, as long as it leads to a folder. Missing components are fine:
/// the store creates them as plain folders. Returns whether the key's own file is a symlink
/// (one found confined), from the same look.
pub fn check_confined(
    canonical_root: Option<&Path>,
    root: &Path,
    key: &Key,
    path: &Path,
) -> Result<bool> {
    let last = key.segments().count();
    let mut current = root.to_path_buf();
    // Where the links met so far may lead: the root, or a linked layout folder's target.
    let mut bound = canonical_root.map(Path::to_path_buf);
    for (depth, segment) in key.segments().enumerate() {
        current.push(segment);
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let resolved = std::fs::canonicalize(&current);
                if let Ok(target) = &resolved
                    && is_layout_folder(key, depth + 1)
                    && target.is_dir()
                {
                    bound = Some(target.clone());
                    if depth + 1 == last {
                        return Ok(true);
                    }
                    continue;
                }
                let inside = resolved.as_ref().is_ok_and(|target| {
                    canonical_root.is_some_and(|c| target.starts_with(c))
                        || bound.as_ref().is_some_and(|b| target.starts_with(b))
                });
                if !inside {
                    let why = if resolved.is_ok() {
                        "leads outside the store root"
                    } else {
                        // Dangling or looping: where it would lead cannot be checked.
                        "cannot be followed (it points to nothing, or loops)"
                    };
                    return Err(Error::new(
                        ErrorKind::Storage,
                        format!("`{key}` goes through a symlink that {why}"),
                    )
                    .with_context("key", key.as_str())
                    .with_context("path", path.display().to_string())
                    .with_context("symlink", current.display().to_string()));
                }
                if depth + 1 == last {
                    return Ok(true);
                }
            }
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(io_error(key, &current, "inspect", e)),
        }
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leading_tilde_is_the_home_folder() {
        let home = std::env::var_os("HOME").expect("HOME is set");
        assert_eq!(expand_home("~").unwrap().as_os_str(), home.as_os_str());
        assert_eq!(expand_home("~/").unwrap().as_os_str(), home.as_os_str());
        assert_eq!(
            expand_home("~/.claude").unwrap(),
            Path::new(&home).join(".claude")
        );
        assert_eq!(expand_home("~//a").unwrap(), Path::new(&home).join("a"));
        for kept in ["", "a/~", "./~user", "/~/x"] {
            assert_eq!(expand_home(kept).unwrap(), PathBuf::from(kept), "{kept}");
        }
        for refused in ["~user", "~user/x", "~.", "~~"] {
            let err = expand_home(refused).unwrap_err();
            assert_eq!(
                err.kind(),
                session_state::ErrorKind::InvalidInput,
                "{refused}"
            );
            assert!(err.message().contains("another user's home"), "{err}");
        }
    }
}
