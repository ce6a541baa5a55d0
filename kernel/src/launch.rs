//! Launch files (TOML): grid, block, arguments, buffers and their initial
//! contents, module variables to fill, dynamic shared memory.
//!
//! ```toml
//! grid  = [4, 1, 1]                 # 1 to 3 dimensions (missing ones are 1)
//! block = [256, 1, 1]
//! args  = ["a", "b", "c", 1024]     # a string names a buffer (its device address), a number is a scalar of the parameter's type
//! shared_bytes = 0                  # dynamic shared memory per CTA (optional)
//!
//! [buffers.a]
//! type = "f32"                      # u8 i8 u16 i16 u32 i32 u64 i64 f32 f64
//! len  = 1024
//! init = { file = "a.bin" }         # raw little-endian; or { zero = true }, { values = [...] },
//!                                   # { random = { seed = 1, min = 0, max = 100 } }; no init = zeros
//!
//! [symbols.table]                   # fills a module-scope .global or .const variable
//! type = "f32"
//! len  = 8
//! init = { values = [1, 2, 3, 4, 5, 6, 7, 8] }
//! ```
//!
//! Buffers are placed in name order from [`BUFFERS_BASE`], 256-byte
//! aligned, with an unmapped gap between them. `random` draws integers
//! uniformly from `min..=max` and floats from `min..max` (ChaCha8 seeded
//! with `seed`). Relative file paths are relative to the launch file.

use crate::error::{clip, plain_types, LaunchError};
use crate::inst::Ty;
use crate::kernel::{Kernel, Module};
use crate::memory::{Memory, Region, RegionKind, BUFFERS_BASE, WINDOW_BYTES};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Element type of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElemType {
    U8,
    I8,
    U16,
    I16,
    U32,
    I32,
    U64,
    I64,
    F32,
    F64,
}

impl ElemType {
    pub fn bytes(self) -> u64 {
        match self {
            ElemType::U8 | ElemType::I8 => 1,
            ElemType::U16 | ElemType::I16 => 2,
            ElemType::U32 | ElemType::I32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::I64 | ElemType::F64 => 8,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::I8 => "i8",
            ElemType::U16 => "u16",
            ElemType::I16 => "i16",
            ElemType::U32 => "u32",
            ElemType::I32 => "i32",
            ElemType::U64 => "u64",
            ElemType::I64 => "i64",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }
    fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }
    fn is_signed(self) -> bool {
        matches!(self, ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64)
    }
}

fn dims_default() -> Vec<u32> {
    vec![1]
}

/// CUDA's limits on a launch's shape (every dimension at least 1): for the
/// first one broken, the key (`grid` or `block`) and why.
pub fn shape_limits(grid: [u32; 3], block: [u32; 3]) -> Result<(), (&'static str, String)> {
    let threads = block.iter().map(|&x| x as u64).product::<u64>();
    if threads > 1024 {
        return Err(("block", format!("{threads} threads per CTA; at most 1024")));
    }
    if grid[1] > 65535 || grid[2] > 65535 || grid[0] as u64 > (1u64 << 31) - 1 {
        return Err(("grid", "dimensions beyond CUDA's limits (2^31-1, 65535, 65535)".into()));
    }
    if block[2] > 64 {
        return Err(("block", "block.z is at most 64".into()));
    }
    Ok(())
}

/// The launch file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchSpec {
    #[serde(default = "dims_default")]
    pub grid: Vec<u32>,
    pub block: Vec<u32>,
    #[serde(default)]
    pub args: Vec<toml::Value>,
    #[serde(default)]
    pub shared_bytes: u32,
    #[serde(default)]
    pub buffers: BTreeMap<String, BufferSpec>,
    #[serde(default)]
    pub symbols: BTreeMap<String, BufferSpec>,
    /// `[textures.NAME]` (see [`crate::texture`]).
    #[serde(default)]
    pub textures: BTreeMap<String, crate::texture::TextureSpec>,
}

/// `[buffers.NAME]` / `[symbols.NAME]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    #[serde(rename = "type")]
    pub ty: ElemType,
    pub len: u64,
    pub init: Option<InitSpec>,
}

/// `init = { ... }`: exactly one key.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InitSpec {
    pub file: Option<String>,
    pub zero: Option<bool>,
    pub values: Option<Vec<toml::Value>>,
    pub random: Option<RandomSpec>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomSpec {
    pub seed: u64,
    pub min: toml::Value,
    pub max: toml::Value,
}

/// A parsed launch file.
#[derive(Clone, Debug)]
pub struct LaunchFile {
    pub path: PathBuf,
    pub spec: LaunchSpec,
}

/// A buffer placed in device memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferInfo {
    pub name: String,
    pub ty: ElemType,
    pub len: u64,
    pub base: u64,
}

/// A launch bound to a kernel: everything the functional model needs.
#[derive(Clone, Debug)]
pub struct Launch {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// The parameter buffer (`ld.param` reads it).
    pub params: Vec<u8>,
    /// Initial global memory (buffers and module variables) and constant bank.
    pub memory: Memory,
    pub buffers: Vec<BufferInfo>,
    /// Dynamic shared memory per CTA (bytes after the static ones).
    pub dynamic_shared: u32,
    /// Textures over the buffers, and the binding of the module's texture references.
    pub textures: crate::texture::Textures,
    /// The launch file (for messages).
    pub file: PathBuf,
}

impl Launch {
    pub fn threads_per_cta(&self) -> u32 {
        self.block[0] * self.block[1] * self.block[2]
    }
    pub fn ctas(&self) -> u64 {
        self.grid[0] as u64 * self.grid[1] as u64 * self.grid[2] as u64
    }
    /// Contents of a buffer in `mem`.
    pub fn buffer<'m>(&self, mem: &'m Memory, name: &str) -> Option<&'m [u8]> {
        mem.region(name).filter(|r| r.kind == RegionKind::Buffer).map(|r| r.data.as_slice())
    }
}

/// Largest total of buffer bytes a launch may allocate (1 GiB).
const MAX_BUFFER_BYTES: u64 = 1 << 30;

impl LaunchFile {
    /// Read and parse a launch file.
    pub fn load(path: &Path) -> Result<LaunchFile, LaunchError> {
        let text = crate::input::read_text(path).map_err(|e| LaunchError {
            file: path.into(),
            key: String::new(),
            msg: format!("cannot read: {e}"),
        })?;
        Self::parse(&text, path)
    }

    /// Parse launch-file text; `path` names it in errors and anchors relative paths.
    pub fn parse(text: &str, path: &Path) -> Result<LaunchFile, LaunchError> {
        let err = |key: String, msg: String| LaunchError { file: path.into(), key, msg };
        let line_of = |span: Option<std::ops::Range<usize>>| -> String {
            span.map(|s| format!("line {}", text[..s.start.min(text.len())].matches('\n').count() + 1)).unwrap_or_default()
        };
        let de = toml::Deserializer::parse(text).map_err(|e| err(line_of(e.span()), plain_types(e.message().trim())))?;
        let spec: LaunchSpec = serde_path_to_error::deserialize(de).map_err(|e| {
            let key = e.path().to_string();
            let inner = e.into_inner();
            let line = line_of(inner.span());
            let key = match (key.as_str(), line.is_empty()) {
                (".", _) | ("", _) => line,
                (_, true) => key,
                (_, false) => format!("{key} ({line})"),
            };
            err(key, plain_types(&inner.message().trim().replace('\n', " ")))
        })?;
        Ok(LaunchFile { path: path.into(), spec })
    }

    fn err(&self, key: impl Into<String>, msg: impl Into<String>) -> LaunchError {
        LaunchError { file: self.path.clone(), key: key.into(), msg: clip(&msg.into()) }
    }

    fn dims(&self, key: &str, v: &[u32]) -> Result<[u32; 3], LaunchError> {
        if v.is_empty() || v.len() > 3 {
            return Err(self.err(key, format!("needs 1 to 3 dimensions, found {}", v.len())));
        }
        let mut d = [1u32; 3];
        for (i, &x) in v.iter().enumerate() {
            if x == 0 {
                return Err(self.err(format!("{key}[{i}]"), "must be at least 1"));
            }
            d[i] = x;
        }
        Ok(d)
    }

    /// Check the launch against a kernel and build its memory image and
    /// parameter buffer.
    pub fn bind(&self, module: &Module, kernel: &Kernel) -> Result<Launch, LaunchError> {
        let s = &self.spec;
        let grid = self.dims("grid", &s.grid)?;
        let block = self.dims("block", &s.block)?;
        shape_limits(grid, block).map_err(|(key, why)| self.err(key, why))?;
        let shared_total = kernel.dynamic_shared_base() as u64 + s.shared_bytes as u64;
        if shared_total > WINDOW_BYTES {
            return Err(self.err("shared_bytes", format!("{shared_total} bytes of shared memory per CTA; at most {WINDOW_BYTES}")));
        }
        let mut memory = Memory::new();
        // Module-scope .global variables and the constant bank.
        for g in &module.globals {
            let mut data = vec![0u8; g.size as usize];
            if let Some(init) = &g.init {
                data[..init.len()].copy_from_slice(init);
            }
            memory.add(Region { name: g.name.clone(), kind: RegionKind::Symbol, base: g.addr, data }).map_err(|m| self.err("", m))?;
        }
        memory.konst = vec![0u8; module.const_bytes as usize];
        for c in &module.consts {
            if let Some(init) = &c.init {
                memory.konst[c.addr as usize..c.addr as usize + init.len()].copy_from_slice(init);
            }
        }
        // Buffers.
        let mut buffers = Vec::new();
        let mut total = 0u64;
        for (name, b) in &s.buffers {
            let key = format!("buffers.{name}");
            let bytes = b.len.checked_mul(b.ty.bytes()).filter(|&n| n <= MAX_BUFFER_BYTES);
            let Some(bytes) = bytes else {
                return Err(self.err(format!("{key}.len"), format!("{} elements is too large", b.len)));
            };
            total += bytes;
            if total > MAX_BUFFER_BYTES {
                return Err(self.err(format!("{key}.len"), "the buffers exceed 1 GiB in total"));
            }
            let data = self.init_data(&key, b)?;
            let base = memory.next_buffer_base().max(BUFFERS_BASE);
            memory.add(Region { name: name.clone(), kind: RegionKind::Buffer, base, data }).map_err(|m| self.err(&key, m))?;
            buffers.push(BufferInfo { name: name.clone(), ty: b.ty, len: b.len, base });
        }
        // Module variables named by [symbols.NAME].
        for (name, b) in &s.symbols {
            let key = format!("symbols.{name}");
            let data = self.init_data(&key, b)?;
            if let Some(g) = module.globals.iter().find(|g| &g.name == name) {
                if data.len() as u64 != g.size {
                    return Err(self.err(
                        format!("{key}.len"),
                        format!("{} bytes ({} x {}) for `.global {name}` of {} bytes", data.len(), b.len, b.ty.name(), g.size),
                    ));
                }
                if let Some(r) = memory.region_mut(name) {
                    r.data = data;
                }
            } else if let Some(c) = module.consts.iter().find(|c| &c.name == name) {
                if data.len() as u64 != c.size {
                    return Err(self.err(
                        format!("{key}.len"),
                        format!("{} bytes ({} x {}) for `.const {name}` of {} bytes", data.len(), b.len, b.ty.name(), c.size),
                    ));
                }
                memory.konst[c.addr as usize..(c.addr + c.size) as usize].copy_from_slice(&data);
            } else {
                let have: Vec<&str> = module.globals.iter().chain(&module.consts).map(|v| v.name.as_str()).collect();
                return Err(self.err(
                    key,
                    format!(
                        "no module-scope .global or .const variable `{name}` in {} (it has: {})",
                        module.file,
                        if have.is_empty() { "none".into() } else { have.join(", ") }
                    ),
                ));
            }
        }
        let textures = self.textures(module, kernel, &buffers)?;
        let params = self.params(kernel, &buffers, &textures)?;
        Ok(Launch { grid, block, params, memory, buffers, dynamic_shared: s.shared_bytes, textures, file: self.path.clone() })
    }

    /// `[textures.NAME]` over the buffers; the module's texture references
    /// bound by name (each one the kernel reads must be there).
    fn textures(&self, module: &Module, kernel: &Kernel, buffers: &[BufferInfo]) -> Result<crate::texture::Textures, LaunchError> {
        use crate::texture::{Texture, Textures, TEXREF_TAG};
        let mut list = Vec::new();
        for (name, t) in &self.spec.textures {
            let key = format!("textures.{name}");
            let Some(b) = buffers.iter().find(|b| b.name == t.buffer) else {
                let have: Vec<&str> = buffers.iter().map(|b| b.name.as_str()).collect();
                return Err(self.err(format!("{key}.buffer"), format!("no buffer `{}` (buffers: {})", t.buffer, have.join(", "))));
            };
            if !matches!(t.channels, 1 | 2 | 4) {
                return Err(self.err(format!("{key}.channels"), format!("{}: must be 1, 2 or 4", t.channels)));
            }
            let texels = b.len / t.channels as u64;
            let width = t.width.unwrap_or(texels);
            let (height, depth) = (t.height.unwrap_or(1), t.depth.unwrap_or(1));
            let need = width.checked_mul(height).and_then(|n| n.checked_mul(depth));
            if width == 0 || height == 0 || depth == 0 || need.is_none_or(|n| n > texels) {
                return Err(self.err(
                    &key,
                    format!("{width} x {height} x {depth} texels of {} channel(s) need more than buffer `{}`'s {} elements", t.channels, b.name, b.len),
                ));
            }
            list.push(Texture {
                name: name.clone(),
                base: b.base,
                elem: b.ty,
                channels: t.channels,
                size: [width, height, depth],
                filter: t.filter,
                address: t.address,
                normalized: t.normalized,
                read: t.read,
            });
        }
        let texrefs: Vec<Option<usize>> = module.texrefs.iter().map(|r| list.iter().position(|t| &t.name == r)).collect();
        for inst in &kernel.insts {
            if let (crate::inst::Op::Tex { .. }, crate::inst::Opnd::Imm(v)) = (inst.op, inst.src[0]) {
                let k = (v & !TEXREF_TAG) as usize;
                if texrefs.get(k).copied().flatten().is_none() {
                    let r = module.texrefs.get(k).map(String::as_str).unwrap_or("?");
                    return Err(self.err(format!("textures.{r}"), format!("kernel `{}` reads texture reference `{r}`: describe it here", kernel.base_name)));
                }
            }
        }
        Ok(Textures { list, texrefs })
    }

    fn params(&self, k: &Kernel, buffers: &[BufferInfo], textures: &crate::texture::Textures) -> Result<Vec<u8>, LaunchError> {
        let args = &self.spec.args;
        if args.len() != k.params.len() {
            let list: Vec<String> =
                k.params.iter().map(|p| format!(".{}{}", p.ty.name(), p.array.map(|n| format!("[{n}]")).unwrap_or_default())).collect();
            return Err(self.err(
                "args",
                format!("{} arguments for kernel `{}`, which takes {} ({})", args.len(), k.base_name, k.params.len(), list.join(", ")),
            ));
        }
        let mut buf = vec![0u8; k.param_bytes as usize];
        for (i, (p, a)) in k.params.iter().zip(args).enumerate() {
            let key = format!("args[{i}]");
            let off = p.offset as usize;
            match (a, p.array) {
                (toml::Value::String(name), None) => {
                    let Some(b) = buffers.iter().find(|b| &b.name == name) else {
                        let have: Vec<&str> = buffers.iter().map(|b| b.name.as_str()).collect();
                        return Err(self.err(
                            key,
                            format!("no buffer `{name}` (buffers: {})", if have.is_empty() { "none".into() } else { have.join(", ") }),
                        ));
                    };
                    if p.ty.bits() != 64 || p.ty.is_float() {
                        return Err(self.err(key, format!("buffer `{name}` passed to a .{} parameter; pointers are 64-bit", p.ty.name())));
                    }
                    buf[off..off + 8].copy_from_slice(&b.base.to_le_bytes());
                }
                (toml::Value::Array(items), Some(n)) => {
                    if items.len() != n as usize {
                        return Err(self.err(key, format!("{} values for a .{}[{n}] parameter", items.len(), p.ty.name())));
                    }
                    let sz = p.ty.bytes() as usize;
                    for (j, it) in items.iter().enumerate() {
                        let v = param_bits(it, p.ty).map_err(|m| self.err(format!("{key}[{j}]"), m))?;
                        buf[off + j * sz..off + (j + 1) * sz].copy_from_slice(&v.to_le_bytes()[..sz]);
                    }
                }
                (_, Some(n)) => {
                    return Err(self.err(key, format!("the parameter is an array .{}[{n}]: give an array of {n} numbers", p.ty.name())))
                }
                (toml::Value::Table(t), None) if t.len() == 1 && t.contains_key("texture") => {
                    // A texture object: its handle.
                    let name = t["texture"].as_str().unwrap_or_default();
                    let Some(i) = textures.list.iter().position(|x| x.name == name) else {
                        let have: Vec<&str> = textures.list.iter().map(|x| x.name.as_str()).collect();
                        return Err(self.err(
                            format!("{key}.texture"),
                            format!("no texture `{name}` (textures: {})", if have.is_empty() { "none".into() } else { have.join(", ") }),
                        ));
                    };
                    if p.ty.bits() != 64 {
                        return Err(self.err(key, format!("texture `{name}` passed to a .{} parameter; texture objects are 64-bit", p.ty.name())));
                    }
                    let h = crate::texture::HANDLE_BASE + i as u64;
                    buf[off..off + 8].copy_from_slice(&h.to_le_bytes());
                }
                (v, None) => {
                    let bits = param_bits(v, p.ty).map_err(|m| self.err(&key, m))?;
                    let sz = p.ty.bytes() as usize;
                    buf[off..off + sz].copy_from_slice(&bits.to_le_bytes()[..sz]);
                }
            }
        }
        Ok(buf)
    }

    fn init_data(&self, key: &str, b: &BufferSpec) -> Result<Vec<u8>, LaunchError> {
        let bytes = (b.len * b.ty.bytes()) as usize;
        let Some(init) = &b.init else {
            return Ok(vec![0; bytes]);
        };
        let given = [init.file.is_some(), init.zero.is_some(), init.values.is_some(), init.random.is_some()].iter().filter(|x| **x).count();
        if given != 1 {
            return Err(self.err(format!("{key}.init"), "give exactly one of file, zero, values, random"));
        }
        if let Some(z) = init.zero {
            if !z {
                return Err(self.err(format!("{key}.init.zero"), "must be true (omit init for zeros)"));
            }
            return Ok(vec![0; bytes]);
        }
        if let Some(f) = &init.file {
            let p = self.path.parent().unwrap_or(Path::new(".")).join(f);
            let wrong_size = |len: u64| {
                self.err(format!("{key}.init.file"), format!("{} holds {len} bytes; the buffer is {} x {} = {bytes} bytes", p.display(), b.len, b.ty.name()))
            };
            let data = crate::input::read_bounded(&p, bytes as u64).map_err(|e| match e {
                crate::input::InputError::TooLong { len, .. } => wrong_size(len),
                e => self.err(format!("{key}.init.file"), format!("cannot read {}: {e}", p.display())),
            })?;
            if data.len() != bytes {
                return Err(wrong_size(data.len() as u64));
            }
            return Ok(data);
        }
        if let Some(vals) = &init.values {
            if vals.len() as u64 != b.len {
                return Err(self.err(format!("{key}.init.values"), format!("{} values for len = {}", vals.len(), b.len)));
            }
            let mut out = Vec::with_capacity(bytes);
            for (i, v) in vals.iter().enumerate() {
                let bits = elem_bits(v, b.ty).map_err(|m| self.err(format!("{key}.init.values[{i}]"), m))?;
                out.extend_from_slice(&bits.to_le_bytes()[..b.ty.bytes() as usize]);
            }
            return Ok(out);
        }
        let Some(r) = init.random.as_ref() else {
            return Err(self.err(format!("{key}.init"), "give exactly one of file, zero, values, random"));
        };
        let rk = format!("{key}.init.random");
        let mut rng = ChaCha8Rng::seed_from_u64(r.seed);
        let mut out = Vec::with_capacity(bytes);
        if b.ty.is_float() {
            let num = |v: &toml::Value, k: &str| match v {
                toml::Value::Integer(i) => Ok(*i as f64),
                toml::Value::Float(f) if f.is_finite() => Ok(*f),
                _ => Err(self.err(format!("{rk}.{k}"), format!("expected a finite number, found {}", show(v)))),
            };
            let (lo, hi) = (num(&r.min, "min")?, num(&r.max, "max")?);
            if lo >= hi {
                return Err(self.err(&rk, format!("min ({lo}) must be less than max ({hi})")));
            }
            for _ in 0..b.len {
                let x: f64 = rng.random_range(lo..hi);
                if b.ty == ElemType::F32 {
                    out.extend_from_slice(&(x as f32).to_le_bytes());
                } else {
                    out.extend_from_slice(&x.to_le_bytes());
                }
            }
        } else {
            let int = |v: &toml::Value, k: &str| -> Result<i128, LaunchError> {
                match v {
                    toml::Value::Integer(i) => {
                        let i = *i as i128;
                        let (lo, hi) = int_range(b.ty);
                        if i < lo || i > hi {
                            return Err(self.err(format!("{rk}.{k}"), format!("{i} does not fit {}", b.ty.name())));
                        }
                        Ok(i)
                    }
                    _ => Err(self.err(format!("{rk}.{k}"), format!("expected an integer, found {}", show(v)))),
                }
            };
            let (lo, hi) = (int(&r.min, "min")?, int(&r.max, "max")?);
            if lo > hi {
                return Err(self.err(&rk, format!("min ({lo}) is greater than max ({hi})")));
            }
            for _ in 0..b.len {
                let x: i64 = rng.random_range(lo as i64..=hi as i64);
                out.extend_from_slice(&(x as u64).to_le_bytes()[..b.ty.bytes() as usize]);
            }
        }
        Ok(out)
    }
}

fn show(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => format!("string {s:?}"),
        toml::Value::Integer(i) => format!("integer {i}"),
        toml::Value::Float(f) => format!("float {f}"),
        toml::Value::Boolean(b) => format!("boolean {b}"),
        toml::Value::Datetime(d) => format!("datetime {d}"),
        toml::Value::Array(_) => "an array".into(),
        toml::Value::Table(_) => "a table".into(),
    }
}

fn int_range(t: ElemType) -> (i128, i128) {
    let bits = t.bytes() as u32 * 8;
    if t.is_signed() {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    }
}

/// A buffer element's bits.
fn elem_bits(v: &toml::Value, t: ElemType) -> Result<u64, String> {
    match (v, t) {
        (toml::Value::Integer(i), ElemType::F32) => Ok((*i as f32).to_bits() as u64),
        (toml::Value::Integer(i), ElemType::F64) => Ok((*i as f64).to_bits()),
        (toml::Value::Float(f), ElemType::F32) => Ok((*f as f32).to_bits() as u64),
        (toml::Value::Float(f), ElemType::F64) => Ok(f.to_bits()),
        (toml::Value::Integer(i), _) => {
            let (lo, hi) = int_range(t);
            if (*i as i128) < lo || (*i as i128) > hi {
                return Err(format!("{i} does not fit {}", t.name()));
            }
            Ok(*i as u64)
        }
        _ => {
            Err(format!("expected {} for a {} element, found {}", if t.is_float() { "a number" } else { "an integer" }, t.name(), show(v)))
        }
    }
}

/// A scalar parameter's bits (integers may be given signed or unsigned).
fn param_bits(v: &toml::Value, t: Ty) -> Result<u64, String> {
    match (v, t) {
        (toml::Value::Integer(i), Ty::F32) => Ok((*i as f32).to_bits() as u64),
        (toml::Value::Integer(i), Ty::F64) => Ok((*i as f64).to_bits()),
        (toml::Value::Float(f), Ty::F32) => Ok((*f as f32).to_bits() as u64),
        (toml::Value::Float(f), Ty::F64) => Ok(f.to_bits()),
        (toml::Value::Integer(i), _) if t.is_int() => {
            let bits = t.bits();
            let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
            if (*i as i128) < lo || (*i as i128) > hi {
                return Err(format!("{i} does not fit the .{} parameter", t.name()));
            }
            Ok(*i as u64)
        }
        _ => Err(format!(
            "expected {} for the .{} parameter, found {}",
            if t.is_float() { "a number" } else { "an integer or a buffer name" },
            t.name(),
            show(v)
        )),
    }
}
