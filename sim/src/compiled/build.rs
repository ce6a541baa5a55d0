//! Turning generated C into loaded machine code: the system C compiler
//! (`$CC`, default `cc`) builds a shared library, cached by content hash
//! under `$WARPFORGE_CACHE/compiled`, and `dlopen` loads it.

use crate::engine::EngineError;
use std::ffi::{c_void, CStr, CString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The C compiler the compiled engine runs.
pub fn compiler() -> String {
    std::env::var("CC").ok().filter(|s| !s.trim().is_empty()).unwrap_or_else(|| "cc".to_string())
}

/// `cc --version`'s first line (part of the cache key), or why the compiler
/// cannot be run. Asked once per process.
pub fn compiler_identity() -> Result<String, EngineError> {
    static ID: OnceLock<Result<String, String>> = OnceLock::new();
    let cc = compiler();
    let id = ID.get_or_init(|| match Command::new(&cc).arg("--version").output() {
        Ok(o) if o.status.success() => Ok(format!("{cc}: {}", String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or(""))),
        Ok(o) => Err(format!("`{cc} --version` exited with {}", o.status)),
        Err(e) => Err(e.to_string()),
    });
    id.clone().map_err(|reason| EngineError::NoCompiler { cc, reason })
}

/// A loaded shared library; unloaded when the last user drops it.
pub(crate) struct Library {
    handle: *mut c_void,
}

// SAFETY: the handle is only used for dlsym/dlclose, which are thread-safe;
// the generated code keeps no global state (everything is in the arena).
unsafe impl Send for Library {}
unsafe impl Sync for Library {}

impl Library {
    fn open(path: &Path) -> Result<Library, EngineError> {
        let err = |reason: String| EngineError::Load { path: path.display().to_string(), reason };
        let c = CString::new(path.as_os_str().as_encoded_bytes()).map_err(|e| err(e.to_string()))?;
        // SAFETY: a valid C string; the library's constructors are the C
        // compiler's defaults (the generated code defines none).
        let handle = unsafe { libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if handle.is_null() {
            return Err(err(dl_error()));
        }
        Ok(Library { handle })
    }

    /// Address of an exported symbol.
    pub(crate) fn symbol(&self, name: &CStr) -> Option<*mut c_void> {
        // SAFETY: a live handle and a valid C string.
        let p = unsafe { libc::dlsym(self.handle, name.as_ptr()) };
        (!p.is_null()).then_some(p)
    }
}

impl Drop for Library {
    fn drop(&mut self) {
        // SAFETY: a handle from dlopen, closed once; nothing of the library is
        // used after its last owner drops it.
        unsafe {
            libc::dlclose(self.handle);
        }
    }
}

fn dl_error() -> String {
    // SAFETY: dlerror returns null or a C string valid until the next dl call.
    unsafe {
        let e = libc::dlerror();
        if e.is_null() {
            "unknown dlopen error".into()
        } else {
            CStr::from_ptr(e).to_string_lossy().into_owned()
        }
    }
}

fn io(path: &Path, source: std::io::Error) -> EngineError {
    EngineError::Io { path: path.display().to_string(), source }
}

fn compile(dir: &Path, top: &str, source: &str, flags: &[String]) -> Result<(), EngineError> {
    let cc = compiler();
    let c = dir.join("model.c");
    std::fs::write(&c, source).map_err(|e| io(&c, e))?;
    let out = Command::new(&cc)
        .current_dir(dir)
        .args(flags)
        .args(["-fPIC", "-shared", "-o", "model.so", "model.c"])
        .output()
        .map_err(|e| EngineError::NoCompiler { cc: cc.clone(), reason: e.to_string() })?;
    let log = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let log_path = dir.join("build.log");
    std::fs::write(&log_path, &log).map_err(|e| io(&log_path, e))?;
    if !out.status.success() {
        let lines: Vec<&str> = log.lines().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        return Err(EngineError::Compile { cc, top: top.to_string(), log: log_path.display().to_string(), tail });
    }
    Ok(())
}

/// Compile `source` (or find it in the cache) and load it. Returns the
/// library, its folder and whether this call compiled it.
pub(crate) fn build(top: &str, source: &str, flags: &[String]) -> Result<(Library, PathBuf, bool), EngineError> {
    let id = compiler_identity()?;
    let key = format!("{id}\n{flags:?}\n{source}");
    let root = crate::cache::cache_root();
    let (mut dir, mut built) = crate::cache::cached_build(&root, "compiled", top, &key, |d| compile(d, top, source, flags), io)?;
    // The folder is named by a 64-bit hash: make sure it holds this source.
    if std::fs::read_to_string(dir.join("model.c")).ok().as_deref() != Some(source) {
        let private = std::env::temp_dir().join(format!("warpforge-compiled-{top}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&private);
        std::fs::create_dir_all(&private).map_err(|e| io(&private, e))?;
        compile(&private, top, source, flags)?;
        (dir, built) = (private, true);
    }
    let lib = Library::open(&dir.join("model.so"))?;
    Ok((lib, dir, built))
}
