//! The one interface for anything clocked with named ports.
//!
//! Both engines implement it: the netlist simulator (compiled from a block's
//! IR) and the plain-Rust reference models of the `models` crate. A test, the composed SM
//! or the co-simulation driver uses a block only through this trait, so it can
//! run either engine.
//!
//! Cycle protocol (one clock period):
//! 1. `set` every input for this cycle (`rst` is an ordinary input: reset is
//!    synchronous and active high),
//! 2. `eval` settles combinational logic; outputs are now valid for this cycle
//!    (they may depend on this cycle's inputs),
//! 3. `tick` is the rising clock edge: every register and memory updates at
//!    once from the values settled in step 2.
//!
//! The clock is implicit (it is `tick`); it is not a port here although the
//! emitted Verilog has a `clk` input.
//!
//! Values travel as little-endian 64-bit words (`ceil(width / 64)` of them);
//! bits above the port width are always zero.

pub use hw::iface::{Dir, PortSpec};

/// Number of 64-bit words needed for `width` bits (at least one).
pub fn words_for(width: u32) -> usize {
    (width as usize).div_ceil(64).max(1)
}

/// Mask of the valid bits in the top word of a `width`-bit value.
pub fn top_mask(width: u32) -> u64 {
    match width % 64 {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

/// A port resolved once by name; an index into [`Component::ports`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PortId(pub u32);

/// Error when looking a port up by name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PortError {
    #[error("component `{component}` has no {dir} port `{name}` (ports: {known})")]
    Unknown { component: String, dir: Dir, name: String, known: String },
    #[error("port `{name}` of `{component}` is {width} bits wide; a {asked}-bit access does not fit")]
    TooWide { component: String, name: String, width: u32, asked: u32 },
}

/// Anything clocked with named ports. See the module documentation for the
/// cycle protocol.
pub trait Component {
    /// Name of the component (the block's module name).
    fn name(&self) -> &str;
    /// All ports, inputs and outputs, in declaration order.
    fn ports(&self) -> &[PortSpec];
    /// Drive an input for the current cycle. `value` holds at least
    /// `words_for(width)` words; bits above the width are ignored.
    fn set(&mut self, port: PortId, value: &[u64]);
    /// Read a port's value (outputs are valid after `eval`).
    fn get(&self, port: PortId) -> &[u64];
    /// Drive every input at once from one frame: the inputs in port order,
    /// each in `words_for(width)` words, bits above each width zero (the
    /// stimulus layout). The default calls `set` per input.
    fn set_inputs(&mut self, words: &[u64]) {
        let mut o = 0;
        for i in 0..self.ports().len() {
            let p = &self.ports()[i];
            if p.dir == Dir::In {
                let n = p.words();
                self.set(PortId(i as u32), &words[o..o + n]);
                o += n;
            }
        }
    }
    /// Settle combinational logic for the current inputs and state.
    fn eval(&mut self);
    /// Settle at least the outputs in `outputs`; the others may wait for the
    /// next `eval` (or `tick`, which settles first). By default, `eval`.
    fn eval_outputs(&mut self, outputs: &[PortId]) {
        let _ = outputs;
        self.eval();
    }
    /// Rising clock edge: update all state from the settled values.
    fn tick(&mut self);
}

/// Name-based conveniences over [`Component`]; resolve handles once, then use
/// the handle-based calls on the hot path.
pub trait ComponentExt: Component {
    /// Resolve a port of the given direction by name.
    fn port(&self, name: &str, dir: Dir) -> Result<PortId, PortError> {
        self.ports()
            .iter()
            .position(|p| p.name == name && p.dir == dir)
            .map(|i| PortId(i as u32))
            .ok_or_else(|| PortError::Unknown {
                component: self.name().to_string(),
                dir,
                name: name.to_string(),
                known: self
                    .ports()
                    .iter()
                    .filter(|p| p.dir == dir)
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
    fn input(&self, name: &str) -> Result<PortId, PortError> {
        self.port(name, Dir::In)
    }
    fn output(&self, name: &str) -> Result<PortId, PortError> {
        self.port(name, Dir::Out)
    }
    /// Drive an input of at most 64 bits.
    fn set_u64(&mut self, port: PortId, value: u64) {
        self.set(port, std::slice::from_ref(&value));
    }
    /// Drive a 1-bit input.
    fn set_bool(&mut self, port: PortId, value: bool) {
        self.set_u64(port, value as u64);
    }
    /// Low 64 bits of a port.
    fn get_u64(&self, port: PortId) -> u64 {
        self.get(port)[0]
    }
    fn get_bool(&self, port: PortId) -> bool {
        self.get(port)[0] & 1 != 0
    }
    /// `eval` then `tick`.
    fn step(&mut self) {
        self.eval();
        self.tick();
    }
}

impl<T: Component + ?Sized> ComponentExt for T {}

/// Port storage for hand-written components (reference models and behavioural
/// models): the port list and one word buffer, with the same masking rules as
/// the netlist simulator.
#[derive(Clone, Debug)]
pub struct PortFrame {
    specs: Vec<PortSpec>,
    /// Per port: first word, word count and top-word mask (precomputed: the
    /// models set and read ports on every cycle of the SM). Shared by
    /// equal frames ([`PortFrame::share`]).
    slots: std::sync::Arc<[(u32, u32, u64)]>,
    words: Vec<u64>,
    /// [`PortFrame::moves`].
    moves: u32,
}

impl PortFrame {
    pub fn new(specs: Vec<PortSpec>) -> Self {
        let mut slots = Vec::with_capacity(specs.len());
        let mut n = 0;
        for s in &specs {
            slots.push((n as u32, s.words() as u32, top_mask(s.width)));
            n += s.words();
        }
        PortFrame { specs, slots: crate::shared::shared_slice(slots), words: vec![0; n], moves: 0 }
    }

    pub fn specs(&self) -> &[PortSpec] {
        &self.specs
    }

    /// Resolve a port by name and direction. Reference models call this at
    /// construction, with names they declared themselves.
    pub fn id(&self, name: &str) -> PortId {
        PortId(
            self.specs
                .iter()
                .position(|p| p.name == name)
                .unwrap_or_else(|| panic!("internal: port `{name}` was not declared")) as u32,
        )
    }

    /// Store a value, masking bits above the port width.
    #[inline]
    pub fn set(&mut self, port: PortId, value: &[u64]) {
        self.set_changed(port, value);
    }

    /// Store a value as `set` does; whether the stored value changed.
    #[inline]
    pub fn set_changed(&mut self, port: PortId, value: &[u64]) -> bool {
        let slot = self.slots[port.0 as usize];
        store(slot, &mut self.words, value)
    }

    /// Where port `port` is: its first word and its word count.
    pub fn span(&self, port: PortId) -> (u32, u32) {
        let (o, n, _) = self.slots[port.0 as usize];
        (o, n)
    }

    /// Append `n` zero words after the ports (room for the ports of frames
    /// that share this frame's words: [`PortFrame::share`]); the first.
    pub fn grow(&mut self, n: usize) -> u32 {
        let at = self.words.len() as u32;
        self.words.resize(self.words.len() + n, 0);
        at
    }

    /// Move every port to word `at[port]` of a buffer that several frames
    /// share (a composition's: two ports at one word are one wire), and
    /// hand over this frame's words, at their old places. From then on the
    /// frame holds words only while the buffer is lent to it
    /// ([`PortFrame::lend`]); [`PortFrame::get_in`] and
    /// [`PortFrame::set_changed_in`] reach its ports in the buffer.
    pub fn share(&mut self, at: &[u32]) -> Vec<u64> {
        let mut slots = self.slots.to_vec();
        for (s, &o) in slots.iter_mut().zip(at) {
            s.0 = o;
        }
        self.slots = crate::shared::shared_slice(slots);
        self.moves += 1;
        std::mem::take(&mut self.words)
    }

    /// How many times the ports moved ([`PortFrame::share`]): a model that
    /// keeps [`PortFrame::span`]s finds them again when this changes.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Swap the words of two frames: lends this frame's buffer to a frame
    /// that shares it, and takes it back.
    #[inline]
    pub fn lend(&mut self, to: &mut PortFrame) {
        std::mem::swap(&mut self.words, &mut to.words);
    }

    /// A port of a frame that shares `words` ([`PortFrame::share`]).
    #[inline]
    pub fn get_in<'a>(&self, words: &'a [u64], port: PortId) -> &'a [u64] {
        let (o, n, _) = self.slots[port.0 as usize];
        &words[o as usize..(o + n) as usize]
    }

    /// [`PortFrame::set_changed`] of a frame that shares `words`.
    #[inline]
    pub fn set_changed_in(&self, words: &mut [u64], port: PortId, value: &[u64]) -> bool {
        store(self.slots[port.0 as usize], words, value)
    }

    /// A port of one word: where it is and its mask, for a composition
    /// that moves it in place ([`PortFrame::words`]).
    pub fn word(&self, port: PortId) -> Option<(u32, u64)> {
        let (o, n, mask) = self.slots[port.0 as usize];
        (n == 1).then_some((o, mask))
    }

    /// Every port's words in place, for a composition that moves words
    /// between frames at [`PortFrame::word`] addresses (it masks them).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// [`PortFrame::words`], to store.
    pub fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }

    #[inline]
    pub fn get(&self, port: PortId) -> &[u64] {
        let (o, n, _) = self.slots[port.0 as usize];
        &self.words[o as usize..(o + n) as usize]
    }

    #[inline]
    pub fn set_u64(&mut self, port: PortId, value: u64) {
        match self.slots[port.0 as usize] {
            (o, 1, mask) => self.words[o as usize] = value & mask,
            _ => self.set(port, std::slice::from_ref(&value)),
        }
    }

    #[inline]
    pub fn get_u64(&self, port: PortId) -> u64 {
        self.words[self.slots[port.0 as usize].0 as usize]
    }

    #[inline]
    pub fn get_bool(&self, port: PortId) -> bool {
        self.get_u64(port) & 1 != 0
    }

    #[inline]
    pub fn set_bool(&mut self, port: PortId, value: bool) {
        self.set_u64(port, value as u64);
    }
}

/// Store `value` at a port's slot (first word, word count, top-word mask);
/// whether the stored value changed.
#[inline]
fn store((o, n, mask): (u32, u32, u64), words: &mut [u64], value: &[u64]) -> bool {
    let (o, n) = (o as usize, n as usize);
    if let (1, [v, ..]) = (n, value) {
        let v = v & mask;
        let changed = words[o] != v;
        words[o] = v;
        return changed;
    }
    let mut changed = false;
    for k in 0..n {
        let v = value.get(k).copied().unwrap_or(0) & if k == n - 1 { mask } else { u64::MAX };
        changed |= words[o + k] != v;
        words[o + k] = v;
    }
    changed
}

/// Inside `impl Component for T`: the `ports`, `set` and `get` of a model
/// whose ports live in the [`PortFrame`] field `$frame`; with `$set`, `set`
/// goes through that method of the model (one that notes what changed).
#[macro_export]
macro_rules! frame_ports {
    ($frame:ident) => {
        $crate::frame_ports!(@ $frame, $frame.set);
    };
    ($frame:ident, $set:ident) => {
        $crate::frame_ports!(@ $frame, $set);
    };
    (@ $frame:ident, $($set:tt)+) => {
        fn ports(&self) -> &[$crate::PortSpec] {
            self.$frame.specs()
        }
        fn set(&mut self, port: $crate::PortId, value: &[u64]) {
            self.$($set)+(port, value);
        }
        fn get(&self, port: $crate::PortId) -> &[u64] {
            self.$frame.get(port)
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_masks_to_width() {
        let mut f = PortFrame::new(vec![PortSpec::input("a", 3), PortSpec::output("w", 70)]);
        let a = f.id("a");
        let w = f.id("w");
        f.set_u64(a, 0xff);
        assert_eq!(f.get_u64(a), 7);
        f.set(w, &[u64::MAX, u64::MAX]);
        assert_eq!(f.get(w), &[u64::MAX, 0x3f]);
    }
}
