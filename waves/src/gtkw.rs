//! GTKWave save files (`.gtkw`): which signals to show, grouped, with a
//! display format. Signal paths use the VCD scope names, so the same save file
//! opens the Rust model's VCD and Verilator's VCD alike.

use std::fmt::Write as _;
use std::path::Path;

/// GTKWave trace flags (from gtkwave's `analyzer.h`).
const TR_HEX: u32 = 0x2;
const TR_BIN: u32 = 0x8;
const TR_RJUSTIFY: u32 = 0x20;
const TR_BLANK: u32 = 0x200;
const TR_COLLAPSED: u32 = 0x1000;
const TR_CLOSED: u32 = 0x0040_0000;
const TR_GRP_BEGIN: u32 = 0x0080_0000;
const TR_GRP_END: u32 = 0x0100_0000;

/// GTKWave's zoom (a power of two; 0 shows about 4 ns in a 1400-pixel
/// window): -6 opens on about 28 clock periods of [`crate::PERIOD`], so
/// single cycles are readable without zooming in from a near-empty view.
const ZOOM: i32 = -6;
/// Named markers GTKWave keeps in a save file (none set: -1).
const NAMED_MARKERS: usize = 26;

/// A named group of signals (a collapsible block in GTKWave).
#[derive(Clone, Debug, Default)]
pub struct GtkwGroup {
    pub name: String,
    /// Full dotted path (`TOP.scoreboard.iss0_warp`) and width.
    pub signals: Vec<(String, u32)>,
    pub closed: bool,
}

/// A save file: the dump it opens and the groups it shows.
#[derive(Clone, Debug, Default)]
pub struct Gtkw {
    pub dumpfile: String,
    /// Signals shown before any group (e.g. the clock).
    pub top: Vec<(String, u32)>,
    pub groups: Vec<GtkwGroup>,
}

fn trace(out: &mut String, flags: &mut u32, path: &str, width: u32) {
    let f = if width == 1 { TR_BIN | TR_RJUSTIFY } else { TR_HEX | TR_RJUSTIFY };
    if *flags != f {
        *flags = f;
        let _ = writeln!(out, "@{f:x}");
    }
    if width == 1 {
        let _ = writeln!(out, "{path}");
    } else {
        let _ = writeln!(out, "{path}[{}:0]", width - 1);
    }
}

impl Gtkw {
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "[*] warpforge GTKWave save file");
        let _ = writeln!(out, "[dumpfile] \"{}\"", self.dumpfile);
        let _ = writeln!(out, "[timestart] 0");
        let _ = writeln!(out, "*{ZOOM}.000000 -1{}", " -1".repeat(NAMED_MARKERS));
        let _ = writeln!(out, "[size] 1400 800");
        let _ = writeln!(out, "[sst_expanded] 1");
        let _ = writeln!(out, "[signals_width] 260");
        let mut flags = 0;
        for (p, w) in &self.top {
            trace(&mut out, &mut flags, p, *w);
        }
        for g in &self.groups {
            let begin = TR_BLANK | TR_GRP_BEGIN | if g.closed { TR_CLOSED } else { 0 };
            let _ = writeln!(out, "@{begin:x}\n-{}", g.name);
            flags = begin;
            for (p, w) in &g.signals {
                trace(&mut out, &mut flags, p, *w);
            }
            let end = TR_BLANK | TR_GRP_END | if g.closed { TR_CLOSED | TR_COLLAPSED } else { 0 };
            let _ = writeln!(out, "@{end:x}\n-{}", g.name);
        }
        let _ = writeln!(out, "[pattern_trace] 1\n[pattern_trace] 0");
        out
    }

    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.render())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_and_formats() {
        let g = Gtkw {
            dumpfile: "a.vcd".into(),
            top: vec![("TOP.clk".into(), 1)],
            groups: vec![GtkwGroup { name: "issue".into(), signals: vec![("TOP.sb.iss0_warp".into(), 6)], closed: false }],
        };
        let text = g.render();
        assert!(text.contains("\n*-6.000000 -1 -1 "), "{text}");
        assert!(text.contains("@28\nTOP.clk\n@800200\n-issue\n@22\nTOP.sb.iss0_warp[5:0]\n@1000200\n-issue\n"), "{text}");
    }
}
