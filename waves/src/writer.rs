//! Streaming VCD writer. The header (scopes, variables, timescale) goes
//! through the `vcd` crate; value changes are formatted into a reused buffer
//! and written straight to the (buffered) output, so nothing is held per
//! cycle. No date is written: the same inputs give the same bytes.

use std::io::{self, Write};
use vcd::{IdCode, ReferenceIndex, ScopeType, TimescaleUnit, VarType};

/// A variable declared in the header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarId {
    code: IdCode,
    width: u32,
    idx: u32,
}

impl VarId {
    pub fn width(self) -> u32 {
        self.width
    }
}

pub struct VcdWriter<W: Write> {
    w: vcd::Writer<W>,
    line: Vec<u8>,
    code_text: Vec<String>,
    depth: usize,
    time: Option<u64>,
}

impl<W: Write> VcdWriter<W> {
    /// Start a VCD: version, comment and a 1 ns timescale.
    pub fn new(out: W, comment: &str) -> io::Result<Self> {
        let mut w = vcd::Writer::new(out);
        w.version("warpforge")?;
        if !comment.is_empty() {
            w.comment(comment)?;
        }
        w.timescale(1, TimescaleUnit::NS)?;
        Ok(VcdWriter { w, line: Vec::with_capacity(256), code_text: Vec::new(), depth: 0, time: None })
    }

    pub fn scope(&mut self, name: &str) -> io::Result<()> {
        self.depth += 1;
        self.w.scope_def(ScopeType::Module, name)
    }

    pub fn upscope(&mut self) -> io::Result<()> {
        self.depth -= 1;
        self.w.upscope()
    }

    /// Declare a wire in the current scope; vectors carry their `[w-1:0]`
    /// range as Verilator and iverilog write it.
    pub fn var(&mut self, name: &str, width: u32) -> io::Result<VarId> {
        let index = (width > 1).then_some(ReferenceIndex::Range(width as i32 - 1, 0));
        let code = self.w.add_var(VarType::Wire, width, name, index)?;
        self.code_text.push(code.to_string());
        Ok(VarId { code, width, idx: self.code_text.len() as u32 - 1 })
    }

    /// Declare another name for an existing variable (same identifier code).
    pub fn alias(&mut self, name: &str, of: VarId) -> io::Result<()> {
        let index = (of.width > 1).then_some(ReferenceIndex::Range(of.width as i32 - 1, 0));
        self.w.var_def(VarType::Wire, of.width, of.code, name, index)
    }

    pub fn end_header(&mut self) -> io::Result<()> {
        while self.depth > 0 {
            self.upscope()?;
        }
        self.w.enddefinitions()
    }

    /// Start time `t` (written once; repeated calls with the same time are no-ops).
    pub fn time(&mut self, t: u64) -> io::Result<()> {
        if self.time != Some(t) {
            self.time = Some(t);
            self.w.timestamp(t)?;
        }
        Ok(())
    }

    /// Write a value (little-endian words) of a variable.
    pub fn change(&mut self, var: VarId, words: &[u64]) -> io::Result<()> {
        self.line.clear();
        if var.width == 1 {
            self.line.push(if words[0] & 1 == 1 { b'1' } else { b'0' });
        } else {
            self.line.push(b'b');
            // Leading zeros are dropped, as VCD allows (a value pads with 0).
            let top = (0..var.width).rev().find(|&b| (words[(b / 64) as usize] >> (b % 64)) & 1 == 1);
            match top {
                None => self.line.push(b'0'),
                Some(t) => {
                    for b in (0..=t).rev() {
                        let bit = (words[(b / 64) as usize] >> (b % 64)) & 1;
                        self.line.push(b'0' + bit as u8);
                    }
                }
            }
            self.line.push(b' ');
        }
        self.line.extend_from_slice(self.code_text[var.idx as usize].as_bytes());
        self.line.push(b'\n');
        self.w.writer().write_all(&self.line)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_and_changes() {
        let mut out = Vec::new();
        {
            let mut w = VcdWriter::new(&mut out, "test").unwrap();
            w.scope("TOP").unwrap();
            let clk = w.var("clk", 1).unwrap();
            let d = w.var("d", 70).unwrap();
            w.end_header().unwrap();
            w.time(0).unwrap();
            w.change(clk, &[1]).unwrap();
            w.change(d, &[5, 1 << 5]).unwrap();
            w.time(5).unwrap();
            w.time(5).unwrap();
            w.change(clk, &[0]).unwrap();
            w.flush().unwrap();
        }
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("$var wire 70 \" d [69:0] $end"), "{text}");
        assert!(text.contains("#0\n1!\nb1"), "{text}");
        assert!(text.contains("101 \"\n#5\n0!\n"), "{text}");
        assert_eq!(text.matches("#5").count(), 1);
    }
}
