//! CUDA C to PTX, by either of two compilers:
//!
//! - **clang** (the default): clang-14's NVPTX back end, no CUDA SDK:
//!   `clang-14 --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_52 -O2 -S`
//!   with the project's prelude ([`PRELUDE`]) force-included and NVIDIA's
//!   libdevice linked when it is installed ([`find_libdevice`]). The default
//!   because Debian ships it (`make setup` installs it in seconds) and the
//!   suite's documented figures were measured on its output.
//! - **nvcc**: NVIDIA's CUDA 13.5 compiler, `nvcc -arch=sm_75 -ptx` with
//!   its own CUDA headers (no prelude), as real programs are compiled. Found
//!   as `$WARPFORGE_NVCC`, `$CUDA_HOME/bin/nvcc`, `nvcc` on the `PATH`, or
//!   the copy `make setup` installs from the Python package index into
//!   `.tools/cuda` of the checkout.
//!
//! Both give byte-identical final memory on the suite (a test).
//!
//! Compiled PTX may be cached in a directory (e.g. under `target/`), keyed
//! by a hash of the source, the prelude, the compiler, its flags and
//! version; a source with `#include` lines is never cached (its inputs are
//! not all known here).

use crate::error::CompileError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The CUDA prelude force-included before every `.cu` file compiled by clang.
pub const PRELUDE: &str = include_str!("prelude.cuh");

/// clang's flags (besides `-include PRELUDE`, the input and `-o -`).
pub const CLANG_FLAGS: &[&str] = &["--cuda-device-only", "-nocudainc", "-nocudalib", "--cuda-gpu-arch=sm_52", "-O2", "-S", "-x", "cuda"];

/// nvcc's flags (besides the input and `-o FILE`): CUDA 13's oldest target.
pub const NVCC_FLAGS: &[&str] = &["-arch=sm_75", "-ptx"];

/// NVIDIA's libdevice (the CUDA math library as LLVM bitcode) for the clang
/// path: `$WARPFORGE_LIBDEVICE`, or beside the nvcc that [`find_nvcc`]
/// finds (`nvvm/libdevice/libdevice.10.bc`).
pub fn find_libdevice() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("WARPFORGE_LIBDEVICE") {
        return Some(PathBuf::from(p));
    }
    let nvcc = find_nvcc()?;
    let root = nvcc.parent()?.parent()?;
    Some(root.join("nvvm/libdevice/libdevice.10.bc")).filter(|p| p.is_file())
}

/// Where `make setup` installs nvcc (relative to the checkout).
pub const LOCAL_NVCC: &str = ".tools/cuda/nvidia/cu13/bin/nvcc";

/// Which compiler turns a `.cu` file into PTX.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compiler {
    #[default]
    Clang,
    Nvcc,
}

impl Compiler {
    pub fn name(self) -> &'static str {
        match self {
            Compiler::Clang => "clang",
            Compiler::Nvcc => "nvcc",
        }
    }
}

impl std::str::FromStr for Compiler {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "clang" => Ok(Compiler::Clang),
            "nvcc" => Ok(Compiler::Nvcc),
            _ => Err(format!("unknown compiler `{s}` (clang, nvcc)")),
        }
    }
}

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    pub compiler: Compiler,
    /// The clang binary (default `$WARPFORGE_CLANG` or `clang-14`).
    pub clang: String,
    /// The nvcc binary (default: [`find_nvcc`]).
    pub nvcc: Option<PathBuf>,
    /// Cache compiled PTX here.
    pub cache_dir: Option<PathBuf>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            compiler: Compiler::Clang,
            clang: std::env::var("WARPFORGE_CLANG").unwrap_or_else(|_| "clang-14".into()),
            nvcc: None,
            cache_dir: None,
        }
    }
}

/// `dir` with a `libcudart.so` naming NVIDIA's `libcudart.so.13` beside
/// `nvcc` (the nvidia-cuda-runtime package): `nvcc -cudart shared -L dir`
/// links programs against it, and `warpforge exec` swaps in its own.
pub fn cudart_link_dir(nvcc: &Path, dir: &Path) -> Result<PathBuf, String> {
    let root = nvcc.parent().and_then(Path::parent).ok_or("nvcc has no installation directory")?;
    let nvidia = ["lib/libcudart.so.13", "lib64/libcudart.so.13"]
        .iter()
        .map(|l| root.join(l))
        .find(|p| p.is_file())
        .ok_or_else(|| format!("no libcudart.so.13 under {} (the nvidia-cuda-runtime package)", root.display()))?;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let so = dir.join("libcudart.so");
    let _ = std::fs::remove_file(&so);
    std::os::unix::fs::symlink(&nvidia, &so).map_err(|e| format!("cannot create {}: {e}", so.display()))?;
    Ok(dir.to_path_buf())
}

/// nvcc: `$WARPFORGE_NVCC`, `$CUDA_HOME/bin/nvcc`, `nvcc` on the `PATH`, or
/// the checkout's `.tools/cuda` (installed by `make setup`).
pub fn find_nvcc() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("WARPFORGE_NVCC") {
        return Some(PathBuf::from(p));
    }
    if let Some(home) = std::env::var_os("CUDA_HOME") {
        return Some(PathBuf::from(home).join("bin/nvcc"));
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|d| d.join("nvcc")).find(|p| p.is_file()));
    on_path.or_else(|| Some(Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(LOCAL_NVCC)).filter(|p| p.is_file()))
}

/// NVIDIA's assembler on PTX text (`ptxas -arch=sm_75 -v`, the nvcc
/// package's, beside nvcc): the registers it gives each kernel (by PTX
/// name), or its error. `work` holds the input and output files.
pub fn ptxas(ptx: &str, work: &Path) -> Result<Vec<(String, u32)>, String> {
    let nvcc = find_nvcc().ok_or("nvcc not found: run `make setup` (or set WARPFORGE_NVCC / CUDA_HOME)")?;
    let tool = nvcc.with_file_name("ptxas");
    std::fs::create_dir_all(work).map_err(|e| format!("{}: {e}", work.display()))?;
    let src = work.join(format!("ptxas-{:016x}.ptx", fnv1a(&[ptx.as_bytes()])));
    std::fs::write(&src, ptx).map_err(|e| format!("{}: {e}", src.display()))?;
    let out = Command::new(&tool)
        .args(["-arch=sm_75", "-v"])
        .arg(&src)
        .arg("-o")
        .arg(src.with_extension("cubin"))
        .output()
        .map_err(|e| format!("cannot run {}: {e}", tool.display()))?;
    let text = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(format!("ptxas rejects {}: {}", src.display(), text.lines().take(3).collect::<Vec<_>>().join(" | ")));
    }
    // "Compiling entry function 'NAME' for 'sm_75'" then "Used N registers, ...".
    let mut regs = Vec::new();
    let mut current = None;
    for l in text.lines() {
        if let Some(rest) = l.split("entry function '").nth(1) {
            current = rest.split('\'').next().map(str::to_string);
        } else if let (Some(n), Some(r)) = (current.as_ref(), l.split("Used ").nth(1)) {
            if let Some(k) = r.split(' ').next().and_then(|k| k.parse().ok()) {
                regs.push((n.clone(), k));
                current = None;
            }
        }
    }
    Ok(regs)
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

/// The first line of `tool --version` (memoised): part of the cache key.
fn tool_version(tool: &str) -> String {
    static V: OnceLock<std::sync::Mutex<Vec<(String, String)>>> = OnceLock::new();
    let m = V.get_or_init(Default::default);
    if let Ok(g) = m.lock() {
        if let Some((_, v)) = g.iter().find(|(c, _)| c == tool) {
            return v.clone();
        }
    }
    let v = Command::new(tool)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().rfind(|l| !l.trim().is_empty()).unwrap_or("").to_string())
        .unwrap_or_default();
    if let Ok(mut g) = m.lock() {
        g.push((tool.to_string(), v.clone()));
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
    let tmp = path.with_extension(format!("tmp{}-{}", std::process::id(), unique()));
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}

/// Compile a `.cu` file to PTX text.
pub fn compile_cuda(path: &Path, opts: &CompileOptions) -> Result<String, CompileError> {
    let file = path.display().to_string();
    let src = crate::input::read_bounded(path, crate::input::MAX_TEXT_BYTES).map_err(|e| CompileError::Io { path: file.clone(), err: e.into() })?;
    let (tool, flags): (String, &[&str]) = match opts.compiler {
        Compiler::Clang => (opts.clang.clone(), CLANG_FLAGS),
        Compiler::Nvcc => {
            let nvcc = opts.nvcc.clone().or_else(find_nvcc).ok_or_else(|| CompileError::NoNvcc { file: file.clone() })?;
            (nvcc.display().to_string(), NVCC_FLAGS)
        }
    };
    let version = tool_version(&tool);
    let prelude = if opts.compiler == Compiler::Clang { PRELUDE } else { "" };
    let libdevice = if opts.compiler == Compiler::Clang { find_libdevice() } else { None };
    let libdevice_key = libdevice.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
    let key = fnv1a(&[&src, prelude.as_bytes(), opts.compiler.name().as_bytes(), flags.join(" ").as_bytes(), version.as_bytes(), libdevice_key.as_bytes()]);
    let cacheable = !String::from_utf8_lossy(&src).lines().any(|l| l.trim_start().starts_with("#include"));
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_else(|| "kernel".into());
    let cached = opts.cache_dir.as_ref().filter(|_| cacheable).map(|d| d.join(format!("{stem}-{key:016x}.ptx")));
    if let Some(c) = &cached {
        if let Ok(ptx) = std::fs::read_to_string(c) {
            return Ok(ptx);
        }
    }
    let scratch = opts.cache_dir.clone().unwrap_or_else(std::env::temp_dir);
    let mut cmd = Command::new(&tool);
    cmd.args(flags);
    // nvcc writes only to a file: a unique one per process and call.
    let out_file = scratch.join(format!("warpforge-{stem}-{key:016x}-{}-{}.ptx", std::process::id(), unique()));
    match opts.compiler {
        Compiler::Clang => {
            // The prelude as a file for -include.
            let pre = scratch.join(format!("warpforge-prelude-{:016x}.cuh", fnv1a(&[PRELUDE.as_bytes()])));
            write_if_changed(&pre, PRELUDE).map_err(|err| CompileError::Io { path: pre.display().to_string(), err })?;
            cmd.arg("-include").arg(&pre);
            if let Some(ld) = &libdevice {
                cmd.args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"]).arg(ld);
            }
            cmd.arg(path).arg("-o").arg("-");
        }
        Compiler::Nvcc => {
            std::fs::create_dir_all(&scratch).map_err(|err| CompileError::Io { path: scratch.display().to_string(), err })?;
            cmd.arg(path).arg("-o").arg(&out_file);
        }
    }
    let out = cmd.output().map_err(|err| CompileError::Spawn { file: file.clone(), tool: tool.clone(), err })?;
    if !out.status.success() {
        let _ = std::fs::remove_file(&out_file);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        // clang: `f.cu:2:10: error: ...`; nvcc: `f.cu(2): error: ...`.
        let errors: Vec<&str> = stderr.lines().filter(|l| l.contains(": error:")).collect();
        let first = errors
            .first()
            .map(|s| s.to_string())
            .unwrap_or_else(|| format!("{file}: {} failed: {}", opts.compiler.name(), stderr.lines().next().unwrap_or("no message")));
        let count = errors.len().max(1);
        return Err(CompileError::Failed { first, errors: count, stderr });
    }
    let ptx = match opts.compiler {
        Compiler::Clang if libdevice.is_none() && out.stdout.windows(5).any(|w| w == b"__nv_") => {
            return Err(CompileError::Failed {
                first: format!("{file}: the CUDA math library (libdevice) is not installed: run `make setup` (it comes with nvcc), or set WARPFORGE_LIBDEVICE"),
                errors: 1,
                stderr: String::new(),
            });
        }
        Compiler::Clang => String::from_utf8_lossy(&out.stdout).to_string(),
        Compiler::Nvcc => {
            let text = std::fs::read_to_string(&out_file).map_err(|err| CompileError::Io { path: out_file.display().to_string(), err });
            let _ = std::fs::remove_file(&out_file);
            text?
        }
    };
    if let Some(c) = &cached {
        // A cache that cannot be written is not an error.
        let _ = write_if_changed(c, &ptx);
    }
    Ok(ptx)
}

/// A number unique per call in this process.
fn unique() -> u64 {
    static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}
