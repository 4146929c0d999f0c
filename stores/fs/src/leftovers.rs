//! What writers killed mid-write leave in the store's folders (temporary files of an atomic
//! replace), found and removed for [`Store::leftovers`](session_state::Store::leftovers) and
//! [`Store::remove_leftovers`](session_state::Store::remove_leftovers).

use std::fs;
use std::io;
use std::path::PathBuf;

use session_state::{Key, Leftover, Result};

use crate::FsStore;
use crate::paths::{io_error, is_stale_temp, stale_temps_in};

impl FsStore {
    /// The stale temporary files below the folder `prefix`, at any depth, sorted by path;
    /// linked folders are not walked (as in `list`).
    pub(crate) fn stale_temps(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        Ok(self
            .stale_temps_with_paths(prefix)?
            .into_iter()
            .map(|(_, leftover)| leftover)
            .collect())
    }

    fn stale_temps_with_paths(&self, prefix: &Key) -> Result<Vec<(PathBuf, Leftover)>> {
        let dir = self.confined(prefix)?;
        let mut out = Vec::new();
        let mut pending = vec![(dir, prefix.as_str().to_owned())];
        while let Some((dir, rel)) = pending.pop() {
            for (path, bytes) in stale_temps_in(&dir) {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
                let leftover = Leftover {
                    path: format!("{rel}/{}", name.unwrap_or_default()),
                    bytes,
                };
                out.push((path, leftover));
            }
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir())
                    && let Some(name) = entry.file_name().to_str()
                {
                    pending.push((entry.path(), format!("{rel}/{name}")));
                }
            }
        }
        out.sort_by(|a, b| a.1.path.cmp(&b.1.path));
        Ok(out)
    }

    /// Removes the stale temporary files below `prefix` (each checked again just before),
    /// returning those removed.
    pub(crate) fn remove_stale_temps_below(&self, prefix: &Key) -> Result<Vec<Leftover>> {
        let mut removed = Vec::new();
        for (path, leftover) in self.stale_temps_with_paths(prefix)? {
            // Still there and still stale: another doctor may have removed it meanwhile.
            let still_stale = fs::symlink_metadata(&path).is_ok_and(|m| {
                m.is_file()
                    && path
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| is_stale_temp(n, m.modified().ok()))
            });
            if !still_stale {
                continue;
            }
            match fs::remove_file(&path) {
                Ok(()) => removed.push(leftover),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_error(prefix, &path, "remove the leftover", e)),
            }
        }
        Ok(removed)
    }
}
