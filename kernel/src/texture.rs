//! Textures: read-only images over a launch buffer, fetched by PTX `tex`
//! through a texture reference (`.global .texref t;`, bound by name) or a
//! texture object (the 64-bit handle a kernel argument `{ texture = "t" }`
//! passes). A launch file describes each:
//!
//! ```toml
//! [textures.t]
//! buffer = "img"        # a buffer of the launch: the texels, row-major
//! channels = 1          # 1, 2 or 4 elements of the buffer's type per texel
//! width = 64            # texels per row (default: the whole buffer, 1D)
//! height = 32           # rows (default 1); depth = 1
//! filter = "point"      # or "linear" (float textures)
//! address = "clamp"     # or "wrap", "mirror", "border" (zero)
//! normalized = false    # coordinates in [0, 1) instead of texels
//! read = "element"      # or "normalized_float": 8/16-bit integers to [0, 1] / [-1, 1]
//! ```
//!
//! Fetches follow the CUDA C Programming Guide's texture-fetching appendix:
//! integer coordinates (`tex.1d...s32`, `tex1Dfetch`) index texels
//! directly and read zero out of range; float coordinates are scaled by
//! the size when normalized, mapped by the address mode, and either take
//! the nearest texel (`floor`) or interpolate the 2^dims neighbours of
//! `x - 0.5` with weights in 9-bit fixed point (8 fractional bits), as the
//! hardware does. Missing channels read 0 (w reads 1 for float reads).

use crate::launch::ElemType;
use serde::Deserialize;

/// Texture object handles are this plus the texture's index in the launch.
pub const HANDLE_BASE: u64 = 0x7e00_0000_0000_0000;
/// A `tex` operand naming texture reference `k` of the module is `Imm(TEXREF_TAG | k)`.
pub const TEXREF_TAG: u64 = 0x7f00_0000_0000_0000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Filter {
    #[default]
    Point,
    Linear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Address {
    #[default]
    Clamp,
    Wrap,
    Mirror,
    Border,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum ReadMode {
    #[default]
    Element,
    NormalizedFloat,
}

fn one() -> u32 {
    1
}

/// `[textures.NAME]` as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureSpec {
    pub buffer: String,
    #[serde(default = "one")]
    pub channels: u32,
    pub width: Option<u64>,
    pub height: Option<u64>,
    pub depth: Option<u64>,
    #[serde(default)]
    pub filter: Filter,
    #[serde(default)]
    pub address: Address,
    #[serde(default)]
    pub normalized: bool,
    #[serde(default)]
    pub read: ReadMode,
}

/// A texture bound to its buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Texture {
    pub name: String,
    /// Device address of texel (0, 0, 0).
    pub base: u64,
    pub elem: ElemType,
    pub channels: u32,
    /// Texels in x, y, z.
    pub size: [u64; 3],
    pub filter: Filter,
    pub address: Address,
    pub normalized: bool,
    pub read: ReadMode,
}

/// A launch's textures and the binding of the module's texture references.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Textures {
    pub list: Vec<Texture>,
    /// Module texture reference `k` reads `list[texrefs[k]]`.
    pub texrefs: Vec<Option<usize>>,
}

impl Textures {
    pub const EMPTY: Textures = Textures { list: Vec::new(), texrefs: Vec::new() };

    /// The texture a `tex` handle operand names.
    pub fn get(&self, handle: u64) -> Option<&Texture> {
        if handle & TEXREF_TAG == TEXREF_TAG {
            let k = (handle & !TEXREF_TAG) as usize;
            return self.texrefs.get(k).copied().flatten().and_then(|i| self.list.get(i));
        }
        handle.checked_sub(HANDLE_BASE).and_then(|i| self.list.get(i as usize))
    }
}

/// What `tex` returns per lane: four 32-bit channels (f32 bits, or
/// integers for an integer destination type).
pub type Texel = [u32; 4];

impl Texture {
    fn texel_bytes(&self) -> u64 {
        self.elem.bytes() * self.channels as u64
    }

    /// The device address of texel (x, y, z) (in range).
    pub fn address_of(&self, x: u64, y: u64, z: u64) -> u64 {
        self.base + ((z * self.size[1] + y) * self.size[0] + x) * self.texel_bytes()
    }

    /// Channel values of an in-range texel as f64 (for float reads and
    /// filtering) and as raw integers (for integer reads).
    fn channels_at(&self, read: &dyn Fn(u64, u32) -> u64, at: [u64; 3]) -> [(f64, u32); 4] {
        let addr = self.address_of(at[0], at[1], at[2]);
        let eb = self.elem.bytes() as u32;
        let mut out = [(0.0, 0u32); 4];
        for (c, o) in out.iter_mut().enumerate().take(self.channels as usize) {
            let raw = read(addr + c as u64 * eb as u64, eb);
            let bits = eb * 8;
            let (f, i) = match self.elem {
                ElemType::F32 => (f32::from_bits(raw as u32) as f64, raw as u32),
                ElemType::F64 => (f64::from_bits(raw), (f64::from_bits(raw) as f32).to_bits()),
                e => {
                    let signed = matches!(e, ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64);
                    let v = if signed { ((raw << (64 - bits)) as i64 >> (64 - bits)) as f64 } else { raw as f64 };
                    let f = match (self.read, bits) {
                        (ReadMode::NormalizedFloat, 8 | 16) => {
                            let max = if signed { ((1u64 << (bits - 1)) - 1) as f64 } else { ((1u64 << bits) - 1) as f64 };
                            (v / max).max(-1.0)
                        }
                        _ => v,
                    };
                    (f, raw as u32)
                }
            };
            *o = (f, i);
        }
        out
    }

    /// Whether a fetch returns floats for this texture.
    fn float_result(&self) -> bool {
        matches!(self.elem, ElemType::F32 | ElemType::F64) || self.read == ReadMode::NormalizedFloat
    }

    /// Map a texel index on one axis by the address mode; `None`: outside
    /// (border reads zero).
    fn wrap_index(&self, i: i64, n: u64) -> Option<u64> {
        let n = n as i64;
        Some(match self.address {
            Address::Clamp => i.clamp(0, n - 1),
            Address::Border => {
                if i < 0 || i >= n {
                    return None;
                }
                i
            }
            Address::Wrap => i.rem_euclid(n),
            Address::Mirror => {
                let p = i.rem_euclid(2 * n);
                if p < n {
                    p
                } else {
                    2 * n - 1 - p
                }
            }
        } as u64)
    }

    /// `tex` at integer coordinates (`tex1Dfetch` and friends): texels
    /// directly, zero outside the texture.
    pub fn fetch_int(&self, read: &dyn Fn(u64, u32) -> u64, c: [i64; 3], dims: usize) -> (Texel, Option<u64>) {
        let mut at = [0u64; 3];
        for d in 0..3 {
            let n = self.size[d] as i64;
            let i = if d < dims { c[d] } else { 0 };
            if i < 0 || i >= n {
                return ([0, 0, 0, if self.float_result() { 1f32.to_bits() } else { 0 }], None);
            }
            at[d] = i as u64;
        }
        (self.pack(self.channels_at(read, at)), Some(self.address_of(at[0], at[1], at[2])))
    }

    /// `tex` at float coordinates: address mode, then nearest or linear
    /// filtering. Also returns the address of the first texel read.
    pub fn fetch_float(&self, read: &dyn Fn(u64, u32) -> u64, c: [f32; 3], dims: usize) -> (Texel, Option<u64>) {
        let coord = |d: usize| -> f64 {
            let v = if d < dims { c[d] as f64 } else { 0.0 };
            if self.normalized {
                v * self.size[d] as f64
            } else {
                v
            }
        };
        if self.filter == Filter::Point || !self.float_result() {
            let mut at = [0u64; 3];
            for (d, at) in at.iter_mut().enumerate() {
                let x = coord(d);
                let i = if x.is_nan() { 0 } else { x.floor().clamp(i64::MIN as f64, i64::MAX as f64) as i64 };
                match self.wrap_index(i, self.size[d]) {
                    Some(v) => *at = v,
                    None => return ([0, 0, 0, 0], None),
                }
            }
            return (self.pack(self.channels_at(read, at)), Some(self.address_of(at[0], at[1], at[2])));
        }
        // Linear: the 2^dims texels around x - 0.5, weights in 1/256ths.
        let mut base = [0i64; 3];
        let mut frac = [0f64; 3];
        for d in 0..dims {
            let x = coord(d) - 0.5;
            let x = if x.is_nan() { 0.0 } else { x };
            let f = x.floor();
            base[d] = f.clamp(i64::MIN as f64 / 2.0, i64::MAX as f64 / 2.0) as i64;
            frac[d] = ((x - f) * 256.0).round() / 256.0;
        }
        let mut acc = [0f64; 4];
        let mut first = None;
        for corner in 0..(1usize << dims) {
            let mut at = [0u64; 3];
            let mut weight = 1.0;
            let mut outside = false;
            for d in 0..3 {
                if d < dims {
                    let hi = corner >> d & 1 == 1;
                    weight *= if hi { frac[d] } else { 1.0 - frac[d] };
                    match self.wrap_index(base[d] + hi as i64, self.size[d]) {
                        Some(v) => at[d] = v,
                        None => outside = true,
                    }
                }
            }
            if outside || weight == 0.0 {
                continue;
            }
            first.get_or_insert(self.address_of(at[0], at[1], at[2]));
            let ch = self.channels_at(read, at);
            for k in 0..4 {
                acc[k] += weight * ch[k].0;
            }
        }
        let mut t: Texel = [0; 4];
        for k in 0..4 {
            t[k] = (acc[k] as f32).to_bits();
        }
        if self.channels < 4 {
            t[3] = 1f32.to_bits();
        }
        (t, first)
    }

    fn pack(&self, ch: [(f64, u32); 4]) -> Texel {
        let mut t: Texel = [0; 4];
        let float = self.float_result();
        for k in 0..4 {
            t[k] = if float { (ch[k].0 as f32).to_bits() } else { ch[k].1 };
        }
        if float && self.channels < 4 {
            t[3] = 1f32.to_bits();
        }
        t
    }
}
