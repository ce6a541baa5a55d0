//! Stimulus: the inputs of a component, cycle by cycle.
//!
//! A [`Driver`] produces one cycle of inputs at a time (constrained-random
//! drivers live beside each block's reference model). A [`Stimulus`] is a
//! recorded sequence, read from and written to a plain text file so a user can
//! write or edit one by hand and replay it through any engine:
//!
//! ```text
//! # warpforge stimulus v1
//! ports rst:1 iss_warp:6 iss_dst:6
//! 1 0 0
//! 0 2f 3
//! ```
//!
//! One line per cycle, one hexadecimal value per input port in the order of the
//! `ports` line; `#` starts a comment. The clock is implicit.

use sim::{top_mask, words_for, PortId, PortSpec};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

/// Where each input port's words sit in a flat per-cycle frame.
#[derive(Clone, Debug)]
pub struct InputLayout {
    ports: Vec<PortSpec>,
    offsets: Vec<usize>,
    words: usize,
    /// For each port of the list the layout was made from (a component's
    /// ports, indexed by [`PortId`]), its input slot.
    slot_of_port: Vec<Option<usize>>,
}

impl PartialEq for InputLayout {
    /// Two layouts are equal when they hold the same inputs in the same
    /// order (however they were made).
    fn eq(&self, other: &Self) -> bool {
        self.ports == other.ports
    }
}

impl Eq for InputLayout {}

/// An input port resolved in an [`InputLayout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot(pub usize);

/// Something that names an input of a layout: a [`Slot`], or the [`PortId`]
/// of the component (or port description) the layout was made from.
pub trait SlotRef: Copy {
    fn slot(self, layout: &InputLayout) -> Slot;
}

impl SlotRef for Slot {
    fn slot(self, _: &InputLayout) -> Slot {
        self
    }
}

impl SlotRef for PortId {
    fn slot(self, layout: &InputLayout) -> Slot {
        match layout.slot_of_port.get(self.0 as usize) {
            Some(Some(s)) => Slot(*s),
            _ => panic!("internal: port {} is not an input of this stimulus layout", self.0),
        }
    }
}

impl InputLayout {
    /// Layout of the input ports among `ports` (outputs are skipped); the
    /// [`PortId`]s of `ports` name its slots.
    pub fn of(ports: &[PortSpec]) -> Arc<Self> {
        let mut slot_of_port = Vec::with_capacity(ports.len());
        let mut inputs = Vec::new();
        for p in ports {
            slot_of_port.push((p.dir == sim::Dir::In).then_some(inputs.len()));
            if p.dir == sim::Dir::In {
                inputs.push(p.clone());
            }
        }
        let mut offsets = Vec::with_capacity(inputs.len());
        let mut words = 0;
        for p in &inputs {
            offsets.push(words);
            words += p.words();
        }
        Arc::new(InputLayout { ports: inputs, offsets, words, slot_of_port })
    }

    /// The words of input `s` in a frame of this layout.
    pub fn value<'a>(&self, words: &'a [u64], s: impl SlotRef) -> &'a [u64] {
        &words[self.range(s.slot(self))]
    }

    /// The low 64 bits of input `s` in a frame of this layout.
    pub fn u64(&self, words: &[u64], s: impl SlotRef) -> u64 {
        words[self.range(s.slot(self)).start]
    }

    pub fn ports(&self) -> &[PortSpec] {
        &self.ports
    }

    /// Total words per cycle.
    pub fn words(&self) -> usize {
        self.words
    }

    pub fn slot(&self, name: &str) -> Option<Slot> {
        self.ports.iter().position(|p| p.name == name).map(Slot)
    }

    /// Resolve a port a driver declared itself; a missing one is a bug in the
    /// driver, not user input.
    pub fn expect(&self, name: &str) -> Slot {
        self.slot(name).unwrap_or_else(|| panic!("internal: driver uses unknown input `{name}`"))
    }

    pub fn range(&self, s: Slot) -> std::ops::Range<usize> {
        self.offsets[s.0]..self.offsets[s.0] + self.ports[s.0].words()
    }
}

/// One cycle of input values.
#[derive(Clone, Debug)]
pub struct Frame {
    layout: Arc<InputLayout>,
    words: Vec<u64>,
}

impl Frame {
    pub fn new(layout: Arc<InputLayout>) -> Self {
        let words = vec![0; layout.words()];
        Frame { layout, words }
    }

    pub fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    pub fn words(&self) -> &[u64] {
        &self.words
    }

    pub fn clear(&mut self) {
        self.words.fill(0);
    }

    /// Set a port of at most 64 bits (masked to its width).
    pub fn set(&mut self, s: impl SlotRef, value: u64) {
        let s = s.slot(&self.layout);
        let r = self.layout.range(s);
        let w = self.layout.ports[s.0].width;
        self.words[r.start] = if w >= 64 { value } else { value & top_mask(w) };
        for k in r.start + 1..r.end {
            self.words[k] = 0;
        }
    }

    pub fn set_bool(&mut self, s: impl SlotRef, value: bool) {
        self.set(s, value as u64);
    }

    /// Set a port of any width from little-endian words.
    pub fn set_wide(&mut self, s: impl SlotRef, value: &[u64]) {
        let s = s.slot(&self.layout);
        let r = self.layout.range(s);
        let n = r.len();
        for k in 0..n {
            self.words[r.start + k] = value.get(k).copied().unwrap_or(0);
        }
        self.words[r.end - 1] &= top_mask(self.layout.ports[s.0].width);
    }

    pub fn get(&self, s: impl SlotRef) -> &[u64] {
        &self.words[self.layout.range(s.slot(&self.layout))]
    }

    pub fn load(&mut self, words: &[u64]) {
        self.words.copy_from_slice(words);
    }
}

/// Produces inputs one cycle at a time.
pub trait Driver {
    fn layout(&self) -> &Arc<InputLayout>;
    /// Write every input of the next cycle into `frame`.
    fn next(&mut self, frame: &mut Frame);
}

/// Uniformly random inputs (any block): every input takes a random value
/// each cycle, except `rst`, which is high with probability `reset_rate`.
pub struct RandomDriver {
    layout: Arc<InputLayout>,
    rng: rand_chacha::ChaCha8Rng,
    reset_rate: f64,
}

impl RandomDriver {
    pub fn new(layout: Arc<InputLayout>, seed: u64, reset_rate: f64) -> Self {
        use rand::SeedableRng;
        RandomDriver { layout, rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed), reset_rate }
    }
}

impl Driver for RandomDriver {
    fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    fn next(&mut self, frame: &mut Frame) {
        use rand::RngExt;
        let layout = self.layout.clone();
        for (k, p) in layout.ports().iter().enumerate() {
            if p.name == "rst" {
                let r = self.rng.random_bool(self.reset_rate);
                frame.set_bool(Slot(k), r);
            } else {
                let words: Vec<u64> = (0..p.words()).map(|_| self.rng.random::<u64>()).collect();
                frame.set_wide(Slot(k), &words);
            }
        }
    }
}

/// A recorded sequence of input frames.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stimulus {
    layout: Arc<InputLayout>,
    data: Vec<u64>,
}

/// Error reading a stimulus file: always names the file and line.
#[derive(Debug, thiserror::Error)]
pub enum StimulusError {
    #[error("{path}: {source}")]
    Io { path: String, source: std::io::Error },
    #[error("{path}:{line}: {message}")]
    Parse { path: String, line: usize, message: String },
}

impl Stimulus {
    pub fn new(layout: Arc<InputLayout>) -> Self {
        Stimulus { layout, data: Vec::new() }
    }

    /// Record `cycles` frames from a driver.
    pub fn record(driver: &mut dyn Driver, cycles: u64) -> Self {
        let mut s = Stimulus::new(driver.layout().clone());
        let mut f = Frame::new(driver.layout().clone());
        s.data.reserve(cycles as usize * s.layout.words());
        for _ in 0..cycles {
            f.clear();
            driver.next(&mut f);
            s.push(&f);
        }
        s
    }

    pub fn layout(&self) -> &Arc<InputLayout> {
        &self.layout
    }

    pub fn push(&mut self, f: &Frame) {
        self.data.extend_from_slice(f.words());
    }

    pub fn cycles(&self) -> usize {
        self.data.len().checked_div(self.layout.words()).unwrap_or(0)
    }

    /// Keep the first `cycles` frames (no-op if there are fewer).
    pub fn truncate(&mut self, cycles: usize) {
        self.data.truncate(cycles * self.layout.words());
    }

    /// Words of cycle `c`.
    pub fn cycle(&self, c: usize) -> &[u64] {
        let n = self.layout.words();
        &self.data[c * n..(c + 1) * n]
    }

    /// Input `s` on cycle `c` (low 64 bits).
    pub fn u64(&self, c: usize, s: impl SlotRef) -> u64 {
        self.layout.u64(self.cycle(c), s)
    }

    /// Input `s` on cycle `c` as a bit.
    pub fn bit(&self, c: usize, s: impl SlotRef) -> bool {
        self.u64(c, s) & 1 != 0
    }

    /// Input `s` on cycle `c`, every word.
    pub fn value(&self, c: usize, s: impl SlotRef) -> &[u64] {
        self.layout.value(self.cycle(c), s)
    }

    /// Text form (see the module documentation).
    pub fn write_text(&self, path: &Path, comment: &str) -> std::io::Result<()> {
        let mut w = BufWriter::new(std::fs::File::create(path)?);
        writeln!(w, "# warpforge stimulus v1")?;
        for line in comment.lines() {
            writeln!(w, "# {line}")?;
        }
        let header: Vec<String> = self.layout.ports.iter().map(|p| format!("{}:{}", p.name, p.width)).collect();
        writeln!(w, "ports {}", header.join(" "))?;
        let mut line = String::new();
        for c in 0..self.cycles() {
            line.clear();
            let words = self.cycle(c);
            for (i, _) in self.layout.ports.iter().enumerate() {
                if i > 0 {
                    line.push(' ');
                }
                push_hex(&mut line, &words[self.layout.range(Slot(i))]);
            }
            writeln!(w, "{line}")?;
        }
        w.flush()
    }

    /// Read a stimulus file whose ports must equal `expected` (names, order,
    /// widths): a file made for another block or parameter set is an error.
    pub fn read_text(path: &Path, expected: &Arc<InputLayout>) -> Result<Self, StimulusError> {
        let p = path.display().to_string();
        let err = |line: usize, message: String| StimulusError::Parse { path: p.clone(), line, message };
        // A device or FIFO would be read forever (or block): files only.
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            let e = std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file (a device, FIFO or directory is not read as input)");
            return Err(StimulusError::Io { path: p, source: e });
        }
        let file = std::fs::File::open(path).map_err(|e| StimulusError::Io { path: p.clone(), source: e })?;
        let mut s = Stimulus::new(expected.clone());
        let mut have_ports = false;
        let mut frame = Frame::new(expected.clone());
        let mut lineno = 0;
        for line in BufReader::new(file).lines() {
            lineno += 1;
            let line = line.map_err(|e| StimulusError::Io { path: p.clone(), source: e })?;
            let text = line.split('#').next().unwrap_or("").trim();
            if text.is_empty() {
                continue;
            }
            if !have_ports {
                let Some(rest) = text.strip_prefix("ports") else {
                    return Err(err(lineno, "expected the `ports name:width ...` line before any values".into()));
                };
                let given: Vec<&str> = rest.split_whitespace().collect();
                let want: Vec<String> = expected.ports.iter().map(|q| format!("{}:{}", q.name, q.width)).collect();
                if given != want {
                    return Err(err(
                        lineno,
                        format!("ports `{}` do not match the component's inputs `{}`", given.join(" "), want.join(" ")),
                    ));
                }
                have_ports = true;
                continue;
            }
            let fields: Vec<&str> = text.split_whitespace().collect();
            if fields.len() != expected.ports.len() {
                return Err(err(lineno, format!("expected {} values, found {}", expected.ports.len(), fields.len())));
            }
            for (k, f) in fields.iter().enumerate() {
                let port = &expected.ports[k];
                let words = parse_hex(f, port.width)
                    .ok_or_else(|| err(lineno, format!("`{f}` is not a {}-bit hexadecimal value for `{}`", port.width, port.name)))?;
                frame.set_wide(Slot(k), &words);
            }
            s.push(&frame);
        }
        if !have_ports {
            return Err(err(lineno.max(1), "end of file before the `ports` line: not a warpforge stimulus file".into()));
        }
        Ok(s)
    }
}

/// Append `words` as hexadecimal without leading zeros.
pub fn push_hex(out: &mut String, words: &[u64]) {
    let top = words.iter().rposition(|&w| w != 0);
    match top {
        None => out.push('0'),
        Some(t) => {
            let _ = write!(out, "{:x}", words[t]);
            for k in (0..t).rev() {
                let _ = write!(out, "{:016x}", words[k]);
            }
        }
    }
}

/// Parse a hexadecimal value that must fit in `width` bits.
pub fn parse_hex(s: &str, width: u32) -> Option<Vec<u64>> {
    let s = s.trim_start_matches("0x");
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut words = vec![0u64; words_for(width)];
    for (i, b) in s.bytes().rev().enumerate() {
        let d = (b as char).to_digit(16)? as u64;
        if d == 0 {
            continue;
        }
        let bit = i * 4;
        let (w, o) = (bit / 64, bit % 64);
        if w >= words.len() {
            return None;
        }
        words[w] |= d << o;
    }
    let n = words.len();
    if words[n - 1] & !top_mask(width) != 0 {
        return None;
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip() {
        let mut s = String::new();
        push_hex(&mut s, &[0x1, 0xab]);
        assert_eq!(s, "ab0000000000000001");
        assert_eq!(parse_hex(&s, 72).unwrap(), vec![1, 0xab]);
        assert_eq!(parse_hex("ab0000000000000001", 71), None);
        assert_eq!(parse_hex("7b0000000000000001", 71), Some(vec![1, 0x7b]));
        assert_eq!(parse_hex("1ab0000000000000001", 72), None);
        assert_eq!(parse_hex("8", 3), None);
        assert_eq!(parse_hex("7", 3), Some(vec![7]));
        assert_eq!(parse_hex("g", 8), None);
    }

    #[test]
    fn file_round_trip_and_errors() {
        let layout = InputLayout::of(&[PortSpec::input("rst", 1), PortSpec::input("d", 70), PortSpec::output("q", 3)]);
        let mut st = Stimulus::new(layout.clone());
        let mut f = Frame::new(layout.clone());
        f.set(Slot(0), 1);
        f.set_wide(Slot(1), &[5, 0x3f]);
        st.push(&f);
        let dir = std::env::temp_dir().join(format!("wf-stim-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.stim");
        st.write_text(&path, "test").unwrap();
        assert_eq!(Stimulus::read_text(&path, &layout).unwrap(), st);
        std::fs::write(&path, "ports rst:1 d:70\n1\n").unwrap();
        let e = Stimulus::read_text(&path, &layout).unwrap_err().to_string();
        assert!(e.ends_with(":2: expected 2 values, found 1"), "{e}");
        std::fs::write(&path, "ports rst:1 d:71\n").unwrap();
        assert!(Stimulus::read_text(&path, &layout).unwrap_err().to_string().contains(":1: ports"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
