//! The HDL tool checks every emitted block must pass: `verilator --lint-only
//! -Wall` with zero warnings (no waivers), `iverilog -g2005` compilation, and
//! yosys synthesis with no latch cells. Also reports the synthesis figures
//! (generic `synth` and `synth_ice40`).

use crate::cosim::CosimError;
use hw::verilog::VerilogFile;
use std::path::Path;
use std::process::Command;

/// Cell counts after synthesis.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SynthStats {
    pub cells: u64,
    /// Flip-flop cells (any `$_*DFF*` / `SB_DFF*` type).
    pub ffs: u64,
    /// Latch cells (must be zero).
    pub latches: u64,
    /// iCE40 4-input LUTs (`SB_LUT4`), 0 for generic synthesis.
    pub luts: u64,
    /// iCE40 block RAMs (`SB_RAM40_4K`).
    pub brams: u64,
    /// Carry cells (`SB_CARRY`).
    pub carries: u64,
}

/// Outcome of one tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    Pass,
    Fail(String),
}

impl Check {
    pub fn passed(&self) -> bool {
        *self == Check::Pass
    }
}

#[derive(Clone, Debug)]
pub struct LintReport {
    pub top: String,
    pub verilator: Check,
    pub iverilog: Check,
    pub yosys: Check,
    pub synth: SynthStats,
}

impl LintReport {
    pub fn passed(&self) -> bool {
        self.verilator.passed() && self.iverilog.passed() && self.yosys.passed()
    }
}

fn run(cmd: &mut Command, tool: &str) -> Result<(bool, String), CosimError> {
    let out = crate::cosim::command_output(cmd, tool)?;
    Ok((out.status.success(), format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))))
}

/// Write `files` into `dir` and return their names.
pub fn write_files(files: &[VerilogFile], dir: &Path) -> Result<Vec<String>, CosimError> {
    std::fs::create_dir_all(dir).map_err(crate::cosim::io_err(dir))?;
    for f in files {
        let p = dir.join(&f.file_name);
        std::fs::write(&p, &f.text).map_err(crate::cosim::io_err(&p))?;
    }
    Ok(files.iter().map(|f| f.file_name.clone()).collect())
}

/// The stats of every module in the `stat` output of a synthesis run in
/// `dir` (by [`synth`]), in yosys's order: `(module, stats)`.
pub fn module_stats(dir: &Path) -> Vec<(String, SynthStats)> {
    let log = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    // `stat` is the last command: its sections follow the last "Printing statistics."
    let tail = log.rsplit("Printing statistics.").next().unwrap_or("");
    tail.split("=== ")
        .skip(1)
        .filter_map(|sec| {
            let (name, body) = sec.split_once(" ===")?;
            (name != "design hierarchy").then(|| (name.to_string(), parse_stat(body)))
        })
        .collect()
}

/// Parse yosys `stat` output (the last module listed).
fn parse_stat(log: &str) -> SynthStats {
    let mut s = SynthStats::default();
    let section = log.rsplit("Number of cells:").next().unwrap_or("");
    if let Some(first) = log.rsplit("Number of cells:").next().and_then(|t| t.split_whitespace().next()) {
        s.cells = first.parse().unwrap_or(0);
    }
    for line in section.lines().skip(1) {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 2 {
            if line.trim().is_empty() {
                continue;
            }
            break;
        }
        let (name, n) = (f[0], f[1].parse::<u64>().unwrap_or(0));
        let upper = name.to_ascii_uppercase();
        if upper.contains("LATCH") {
            s.latches += n;
        } else if upper.contains("DFF") {
            s.ffs += n;
        }
        match name {
            "SB_LUT4" => s.luts += n,
            "SB_RAM40_4K" => s.brams += n,
            "SB_CARRY" => s.carries += n,
            _ => {}
        }
    }
    s
}

/// Which yosys flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Generic `synth -flatten`: gate-level cells.
    Generic,
    /// `synth_ice40`: LUT4, flip-flops, carries, block RAMs.
    Ice40,
    /// `synth_ice40 -noflatten`: every module mapped on its own (out of
    /// context), the stats per module and for the hierarchy; minutes where
    /// the flattened unit takes hours.
    Ice40Hier,
    /// [`Flow::Ice40Hier`] less the steps whose time grows fastest with a
    /// module and that the mapping does not need: ABC's `dch -f`
    /// (structural choices), `abc -dress` and `autoname` (both only rename).
    /// Every other step is synth_ice40's own. Within about 1% of its LUT4
    /// count at 8 warps; maps the 48-warp P-mode unit in minutes
    /// (docs/area.md).
    Ice40Fast,
    /// Generic synthesis up to (not including) technology mapping: every
    /// process, memory and latch decision is made, in seconds instead of
    /// minutes; what the test suite runs on every block.
    Coarse,
}

/// yosys 0.23's ABC script for `abc -lut 4` (one LUT size, `{S}` = `-S 1`)
/// without `dch -f`.
pub const ABC_LUT_NO_CHOICES: &str = "strash; &get -n; &fraig -x; &put; scorr; dc2; dretime; strash; if; mfs2; lutpack -S 1\n";
const ABC_SCRIPT_FILE: &str = "abc_lut_no_choices.scr";

impl Flow {
    /// Modules mapped on their own: [`module_stats`] has a row per module.
    pub fn hierarchical(self) -> bool {
        matches!(self, Flow::Ice40Hier | Flow::Ice40Fast)
    }
}

/// Synthesize with yosys; stats.
pub fn synth(dir: &Path, names: &[String], top: &str, flow: Flow) -> Result<(Check, SynthStats), CosimError> {
    let reads: Vec<String> = names.iter().map(|n| format!("read_verilog {n};")).collect();
    let synth = match flow {
        Flow::Generic => format!("synth -flatten -top {top}"),
        Flow::Ice40 => format!("synth_ice40 -top {top}"),
        Flow::Ice40Hier => format!("synth_ice40 -noflatten -top {top}"),
        // synth_ice40's `map_luts` step (yosys 0.23's own commands, in
        // order) with ABC's script in a file (`;` separates yosys
        // commands), and its `check` step less `autoname`.
        Flow::Ice40Fast => {
            let p = dir.join(ABC_SCRIPT_FILE);
            std::fs::write(&p, ABC_LUT_NO_CHOICES).map_err(crate::cosim::io_err(&p))?;
            format!(
                "synth_ice40 -noflatten -top {top} -run :map_luts; techmap -map +/ice40/latches_map.v; \
                 abc -lut 4 -script {ABC_SCRIPT_FILE}; ice40_wrapcarry -unwrap; \
                 techmap -map +/ice40/ff_map.v; clean; \
                 opt_lut -dlogic SB_CARRY:I0=1:I1=2:CI=3 -dlogic SB_CARRY:CO=3; \
                 synth_ice40 -noflatten -top {top} -run map_cells:check; hierarchy -check; check -noinit"
            )
        }
        Flow::Coarse => format!("synth -flatten -top {top} -run :fine"),
    };
    let script = format!("{} {synth}; check -assert; stat", reads.join(" "));
    let (ok, log) = run(Command::new("yosys").current_dir(dir).args(["-q", "-p", &script, "-l", "yosys.log"]), "yosys")?;
    let full = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or(log.clone());
    let stats = parse_stat(&full);
    let check = if !ok {
        Check::Fail(crate::cosim::tail(&log, 15))
    } else if stats.latches > 0 || full.contains("Latch inferred") {
        Check::Fail(format!("{} latch cell(s) inferred", stats.latches.max(1)))
    } else {
        Check::Pass
    };
    Ok((check, stats))
}

/// Verilator `--lint-only -Wall` (zero warnings) and iverilog `-g2005 -Wall`
/// on `files` (written to `dir`) with top module `top`: the two checks that
/// take seconds at any size, without synthesis.
pub fn lint_hdl(files: &[VerilogFile], top: &str, dir: &Path) -> Result<(Check, Check), CosimError> {
    let names = write_files(files, dir)?;
    lint_names(&names, top, dir)
}

fn lint_names(names: &[String], top: &str, dir: &Path) -> Result<(Check, Check), CosimError> {
    let (ok, log) = run(
        Command::new("verilator").current_dir(dir).args(["--lint-only", "-Wall", "--top-module", top]).args(names),
        "verilator",
    )?;
    let verilator = if ok && log.trim().is_empty() { Check::Pass } else { Check::Fail(crate::cosim::tail(&log, 30)) };
    let (ok, log) = run(
        Command::new("iverilog").current_dir(dir).args(["-g2005", "-Wall", "-s", top, "-o", "/dev/null"]).args(names),
        "iverilog",
    )?;
    // iverilog -Wall notes `timescale` inheritance for files without one; that
    // is not a problem of the design.
    let iv_problems: Vec<&str> = log.lines().filter(|l| !l.trim().is_empty() && !l.contains("timescale")).collect();
    let iverilog = if ok && iv_problems.is_empty() { Check::Pass } else { Check::Fail(iv_problems.join("\n")) };
    Ok((verilator, iverilog))
}

/// Run all three tools on `files` (written to `dir`) with top module `top`;
/// yosys runs `flow`.
pub fn lint(files: &[VerilogFile], top: &str, dir: &Path, flow: Flow) -> Result<LintReport, CosimError> {
    let names = write_files(files, dir)?;
    let (verilator, iverilog) = lint_names(&names, top, dir)?;
    let (yosys, synth) = synth(dir, &names, top, flow)?;
    Ok(LintReport { top: top.to_string(), verilator, iverilog, yosys, synth })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_stat() {
        let log = "Number of cells: 3\n junk\n=== top ===\n   Number of cells:                 12\n     $_DFF_P_                      4\n     $_AND_                        6\n     $_DLATCH_P_                   2\n\n";
        let s = parse_stat(log);
        assert_eq!((s.cells, s.ffs, s.latches), (12, 4, 2));
    }
}
