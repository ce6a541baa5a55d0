//! Content-addressed cache of compiled harnesses.

use super::{io_err, CosimError};
use hw::ir::fnv1a;
use std::path::{Path, PathBuf};

/// Where compiled harnesses live: `$WARPFORGE_CACHE`, else
/// `~/.cache/warpforge`, else a folder in the temp directory.
pub fn cache_root() -> PathBuf {
    if let Some(p) = std::env::var_os("WARPFORGE_CACHE") {
        return PathBuf::from(p);
    }
    match std::env::var_os("HOME") {
        Some(h) => PathBuf::from(h).join(".cache").join("warpforge"),
        None => std::env::temp_dir().join("warpforge-cache"),
    }
}

/// The build directory for `key` (everything the build depends on); builds it
/// with `build` unless a finished one is there. Concurrent builders each work
/// in a private folder and the first to finish publishes it. Returns the
/// directory and whether this call built it.
pub(crate) fn cached_build(
    kind: &str,
    top: &str,
    key: &str,
    build: impl FnOnce(&Path) -> Result<(), CosimError>,
) -> Result<(PathBuf, bool), CosimError> {
    let root = cache_root().join(kind);
    let dir = root.join(format!("{top}-{:016x}", fnv1a(key.as_bytes())));
    if dir.join("ok").exists() {
        return Ok((dir, false));
    }
    std::fs::create_dir_all(&root).map_err(io_err(&root))?;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    let tmp = root.join(format!(".{top}-{}-{nanos}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(io_err(&tmp))?;
    // On failure the private folder stays, with the log the error points to.
    build(&tmp)?;
    std::fs::write(tmp.join("ok"), key.len().to_string()).map_err(io_err(&tmp))?;
    if std::fs::rename(&tmp, &dir).is_err() {
        // Someone else published first (or a stale unfinished dir is there).
        if dir.join("ok").exists() {
            let _ = std::fs::remove_dir_all(&tmp);
        } else {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::rename(&tmp, &dir).map_err(io_err(&dir))?;
        }
    }
    Ok((dir, true))
}
