//! Content-addressed cache of built artefacts (compiled models, Verilator
//! harnesses): one folder per top module and content hash under
//! `$WARPFORGE_CACHE` (default `~/.cache/warpforge`).

use std::path::{Path, PathBuf};

/// Where built artefacts live: `$WARPFORGE_CACHE`, else
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

/// 64-bit FNV-1a, the cache's content hash.
pub fn content_hash(bytes: &[u8]) -> u64 {
    hw::ir::fnv1a(bytes)
}

/// The folder for `key` (everything the build depends on) under
/// `root/kind`; builds it with `build` unless a finished one is there.
/// Concurrent builders each work in a private folder and the first to finish
/// publishes it. Returns the folder and whether this call built it. `io`
/// turns a file-system error on a path into the caller's error type.
pub fn cached_build<E>(
    root: &Path,
    kind: &str,
    top: &str,
    key: &str,
    build: impl FnOnce(&Path) -> Result<(), E>,
    io: impl Fn(&Path, std::io::Error) -> E,
) -> Result<(PathBuf, bool), E> {
    let root = root.join(kind);
    let dir = root.join(format!("{top}-{:016x}", content_hash(key.as_bytes())));
    if dir.join("ok").exists() {
        return Ok((dir, false));
    }
    std::fs::create_dir_all(&root).map_err(|e| io(&root, e))?;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = root.join(format!(".{top}-{}-{nanos}-{seq}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| io(&tmp, e))?;
    // On failure the private folder stays, with the log the error points to.
    build(&tmp)?;
    std::fs::write(tmp.join("ok"), key.len().to_string()).map_err(|e| io(&tmp, e))?;
    if std::fs::rename(&tmp, &dir).is_err() {
        // Someone else published first (or a stale unfinished dir is there).
        if dir.join("ok").exists() {
            let _ = std::fs::remove_dir_all(&tmp);
        } else {
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::rename(&tmp, &dir).map_err(|e| io(&dir, e))?;
        }
    }
    Ok((dir, true))
}
