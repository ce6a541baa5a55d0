//! (spec written below)

use crate::params::{BlockParams, ParamError, ParamSpec, Params};
use super::aeu::{self, AeuParams};
use super::atq::{self, AtqParams};
use super::peu::{self, PeuParams};
use super::pwaq::{self, PwaqParams};
use super::pwpq::{self, PwpqParams};
use super::{HwStorage, PaperStorage};
use crate::clog2;

/// Parameters of the composed DAC unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DacUnitParams {
    pub warps: u32,
    pub ctas: u32,
    pub atq_entries: u32,
    pub pwaq_entries: u32,
    pub pwpq_entries: u32,
}

impl Default for DacUnitParams {
    fn default() -> Self {
        DacUnitParams { warps: 48, ctas: 8, atq_entries: 24, pwaq_entries: 192, pwpq_entries: 192 }
    }
}

impl BlockParams for DacUnitParams {
    const SPECS: &'static [ParamSpec] = &[
        ParamSpec { name: "warps", default: 48, min: 1, max: 64, doc: "non-affine warp slots per SM (Table 1: 48)" },
        ParamSpec { name: "ctas", default: 8, min: 1, max: 16, doc: "concurrent CTAs per SM (Fermi: 8)" },
        ParamSpec { name: "atq_entries", default: 24, min: 1, max: 1024, doc: "affine tuple queue entries (paper: 24)" },
        ParamSpec {
            name: "pwaq_entries",
            default: 192,
            min: 1,
            max: 4096,
            doc: "per-warp address queue entries per SM, split evenly among warps (paper: 192)",
        },
        ParamSpec {
            name: "pwpq_entries",
            default: 192,
            min: 1,
            max: 4096,
            doc: "per-warp predicate queue entries per SM, split evenly among warps (paper: 192)",
        },
    ];
    fn from_params(p: &Params) -> Result<Self, ParamError> {
        let d = DacUnitParams {
            warps: p.get_u32("warps"),
            ctas: p.get_u32("ctas"),
            atq_entries: p.get_u32("atq_entries"),
            pwaq_entries: p.get_u32("pwaq_entries"),
            pwpq_entries: p.get_u32("pwpq_entries"),
        };
        for (name, e) in [("pwaq_entries", d.pwaq_entries), ("pwpq_entries", d.pwpq_entries)] {
            if e < d.warps || e % d.warps != 0 {
                return Err(p.invalid(format!(
                    "{name} ({e}) must be a non-zero multiple of warps ({}): each warp gets {name}/warps slots",
                    d.warps
                )));
            }
        }
        Ok(d)
    }
}

impl DacUnitParams {
    pub fn atq(&self) -> AtqParams {
        AtqParams { entries: self.atq_entries }
    }
    pub fn aeu(&self) -> AeuParams {
        AeuParams { warps: self.warps, ctas: self.ctas }
    }
    pub fn peu(&self) -> PeuParams {
        PeuParams { warps: self.warps, ctas: self.ctas }
    }
    pub fn pwaq(&self) -> PwaqParams {
        PwaqParams { warps: self.warps, entries: self.pwaq_entries }
    }
    pub fn pwpq(&self) -> PwpqParams {
        PwpqParams { warps: self.warps, entries: self.pwpq_entries }
    }
    pub fn warp_bits(&self) -> u32 {
        clog2(self.warps as u64)
    }
}

/// The paper's ATQ + PWAQ + PWPQ figures (the expansion units have none).
pub fn paper_storage(p: &DacUnitParams) -> Option<PaperStorage> {
    let bits = [atq::paper_storage(&p.atq()), pwaq::paper_storage(&p.pwaq()), pwpq::paper_storage(&p.pwpq())]
        .iter()
        .map(|s| s.map_or(0, |s| s.bits))
        .sum();
    Some(PaperStorage { bits, source: "§4.8: ATQ 393 + PWAQ 1560 + PWPQ 768 bytes" })
}

/// Sum of the five sub-blocks (the unit adds no registers of its own).
pub fn hw_storage(p: &DacUnitParams) -> HwStorage {
    let parts = [
        atq::hw_storage(&p.atq()),
        aeu::hw_storage(&p.aeu()),
        peu::hw_storage(&p.peu()),
        pwaq::hw_storage(&p.pwaq()),
        pwpq::hw_storage(&p.pwpq()),
    ];
    HwStorage {
        flop_bits: parts.iter().map(|s| s.flop_bits).sum(),
        mem_bits: parts.iter().map(|s| s.mem_bits).sum(),
    }
}
