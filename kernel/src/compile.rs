//! CUDA C to PTX with clang's NVPTX back end (no CUDA SDK):
//! `clang-14 --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_52 -O2 -S`
//! with the project's prelude ([`PRELUDE`]) force-included.
//!
//! Compiled PTX may be cached in a directory (e.g. under `target/`), keyed
//! by a hash of the source, the prelude, the flags and clang's version; a
//! source with `#include` lines is never cached (its inputs are not all
//! known here).

use crate::error::CompileError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The CUDA prelude force-included before every `.cu` file.
pub const PRELUDE: &str = include_str!("prelude.cuh");

/// clang's flags (besides `-include PRELUDE`, the input and `-o -`).
pub const CLANG_FLAGS: &[&str] = &["--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_52", "-O2", "-S", "-x", "cuda"];

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The clang binary (default `$WARPFORGE_CLANG` or `clang-14`).
    pub clang: String,
    /// Cache compiled PTX here.
    pub cache_dir: Option<PathBuf>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions { clang: std::env::var("WARPFORGE_CLANG").unwrap_or_else(|_| "clang-14".into()), cache_dir: None }
    }
}

/// FNV-1a, 64 bits: a stable content hash for cache keys.
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in *p {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // Separator so that ("ab", "c") and ("a", "bc") differ.
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn clang_version(clang: &str) -> String {
    static V: OnceLock<std::sync::Mutex<Vec<(String, String)>>> = OnceLock::new();
    let m = V.get_or_init(Default::default);
    if let Ok(g) = m.lock() {
        if let Some((_, v)) = g.iter().find(|(c, _)| c == clang) {
            return v.clone();
        }
    }
    let v = Command::new(clang)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string())
        .unwrap_or_default();
    if let Ok(mut g) = m.lock() {
        g.push((clang.to_string(), v.clone()));
    }
    v
}

/// Write `text` to `path` unless it already holds it (atomic rename, so
/// concurrent writers never leave a partial file).
fn write_if_changed(path: &Path, text: &str) -> std::io::Result<()> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(text) {
        return Ok(());
    }
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)?;
    }
    // Unique per process and call: test threads may write the same file.
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = path.with_extension(format!("tmp{}-{n}", std::process::id()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Compile a `.cu` file to PTX text.
pub fn compile_cuda(path: &Path, opts: &CompileOptions) -> Result<String, CompileError> {
    let file = path.display().to_string();
    let src = crate::input::read_bounded(path, crate::input::MAX_TEXT_BYTES).map_err(|e| CompileError::Io { path: file.clone(), err: e.into() })?;
    let version = clang_version(&opts.clang);
    let key = fnv1a(&[&src, PRELUDE.as_bytes(), CLANG_FLAGS.join(" ").as_bytes(), version.as_bytes()]);
    let cacheable = !String::from_utf8_lossy(&src).lines().any(|l| l.trim_start().starts_with("#include"));
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "kernel".into());
    let cached = opts.cache_dir.as_ref().filter(|_| cacheable).map(|d| d.join(format!("{stem}-{key:016x}.ptx")));
    if let Some(c) = &cached {
        if let Ok(ptx) = std::fs::read_to_string(c) {
            return Ok(ptx);
        }
    }
    // The prelude as a file for -include.
    let pre_dir = opts.cache_dir.clone().unwrap_or_else(std::env::temp_dir);
    let pre = pre_dir.join(format!("warpforge-prelude-{:016x}.cuh", fnv1a(&[PRELUDE.as_bytes()])));
    write_if_changed(&pre, PRELUDE).map_err(|err| CompileError::Io { path: pre.display().to_string(), err })?;
    let out = Command::new(&opts.clang)
        .args(CLANG_FLAGS)
        .arg("-include")
        .arg(&pre)
        .arg(path)
        .arg("-o")
        .arg("-")
        .output()
        .map_err(|err| CompileError::Spawn { file: file.clone(), clang: opts.clang.clone(), err })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let errors: Vec<&str> = stderr.lines().filter(|l| l.contains("error:")).collect();
        let first = errors
            .first()
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("{file}: clang failed: {}", stderr.lines().next().unwrap_or("no message")));
        let count = stderr.lines().filter(|l| l.contains(": error:")).count().max(1);
        return Err(CompileError::Clang { first, errors: count, stderr });
    }
    let ptx = String::from_utf8_lossy(&out.stdout).to_string();
    if let Some(c) = &cached {
        // A cache that cannot be written is not an error.
        let _ = write_if_changed(c, &ptx);
    }
    Ok(ptx)
}
