//! CAE mode: compact affine execution, the comparator of seed 003's Figure
//! 16 (section 5.1.1, after Kim et al., MICRO 2012).
//!
//! The SM tags each warp register at run time as *affine* (one base and one
//! stride over the warp's lanes) or *scalar* (stride 0), by the affine rules
//! of the decoupling pass ([`kernel::dac::analysis::transfer`]) applied to
//! the tags of the registers an instruction reads. An instruction whose
//! result is affine, that writes only general registers and that runs on
//! every thread of its warp goes, after the operand collector, to one of
//! `cae.units` affine units (the paper: two, one per scheduler) instead of
//! the SP lanes: it takes the affine unit for one cycle where a 16-lane SP
//! unit takes two (`units.sp_lanes`). Everything else runs as in the
//! baseline, and the instruction count is the baseline's.
//!
//! What CAE cannot do, as the paper says: compute after divergence (a
//! warp with inactive threads writes untagged results), and follow more
//! than one stride pattern per warp: `%tid.x` is affine only where a warp's
//! lanes are consecutive x indices (a block `x` dimension that is a multiple
//! of 32, or a one-dimensional block), and `%tid.y` / `%tid.z` are scalar
//! only where a warp holds one row / plane.

use super::pipes::Pipe;
use crate::func::Functional;
use crate::stats::CaeStats;
use kernel::dac::analysis::{transfer, Class};
use kernel::inst::{Inst, Opnd, Sreg};
use kernel::Kernel;
use std::sync::Arc;

pub(crate) struct CaeSm {
    kernel: Arc<Kernel>,
    /// The class of `%tid.x`, `.y`, `.z` in this launch's block shape.
    tid: [Class; 3],
    /// Per warp slot, the general registers holding an affine value (bit r),
    /// and those holding a scalar one (a subset).
    affine: Vec<u64>,
    scalar: Vec<u64>,
    pub pipes: Vec<Pipe>,
    pub stats: CaeStats,
}

impl CaeSm {
    pub fn new(units: u32, warps: u32, func: &Functional) -> CaeSm {
        let [x, y, z] = func.block_dim();
        let rows = x % 32 == 0;
        let planes = (x * y) % 32 == 0;
        let tid = [
            if rows || (y == 1 && z == 1) { Class::Affine } else { Class::NonAffine },
            if y == 1 || rows { Class::Scalar } else { Class::NonAffine },
            if z == 1 || planes { Class::Scalar } else { Class::NonAffine },
        ];
        CaeSm {
            kernel: func.kernel_arc(),
            tid,
            affine: vec![0; warps as usize],
            scalar: vec![0; warps as usize],
            pipes: (0..units).map(|_| Pipe::default()).collect(),
            stats: CaeStats::default(),
        }
    }

    /// A warp slot starts a new warp: no register is tagged.
    pub fn launch(&mut self, w: u16) {
        self.affine[w as usize] = 0;
        self.scalar[w as usize] = 0;
    }

    fn class(&self, w: u16, o: Opnd) -> Class {
        let reg = |r: u32| {
            let bit = 1u64 << r;
            if r >= 64 || self.affine[w as usize] & bit == 0 {
                Class::NonAffine
            } else if self.scalar[w as usize] & bit != 0 {
                Class::Scalar
            } else {
                Class::Affine
            }
        };
        match o {
            Opnd::None | Opnd::Imm(_) => Class::Scalar,
            Opnd::Sreg(Sreg::Tid(d)) => self.tid.get(d as usize).copied().unwrap_or(Class::NonAffine),
            Opnd::Sreg(Sreg::Ntid(_) | Sreg::Ctaid(_) | Sreg::Nctaid(_) | Sreg::WarpSize) => Class::Scalar,
            Opnd::Sreg(Sreg::LaneId) => Class::Affine,
            Opnd::R(n) => reg(n),
            Opnd::D(n) => reg(n).max(reg(n + 1)),
            // Predicates are not tagged.
            _ => Class::NonAffine,
        }
    }

    /// Warp `w` issued instruction `op` (`full`: every thread of the warp
    /// ran it; `sp`: it is an SP-unit instruction). Updates the tags of
    /// what it writes and says whether it runs on an affine unit.
    pub fn issued(&mut self, w: u16, op: u32, full: bool, sp: bool, func: &Functional) -> bool {
        let inst = &self.kernel.insts[op as usize];
        // (A branch or exit writes no general register: never tagged.)
        let c = transfer(inst, |o| self.class(w, o));
        let gprs = dst_regs(inst);
        let tagged = c != Class::NonAffine && full && gprs.iter().all(|&(r, _)| r < 64) && !gprs.is_empty();
        let preds = inst.writes.as_slice().iter().any(|r| matches!(r, kernel::inst::ArchReg::P(_)));
        if c != Class::NonAffine && !full && !gprs.is_empty() {
            self.stats.divergent += sp as u64;
        }
        for &(r, wide) in &gprs {
            for k in 0..1 + wide as u32 {
                let bit = 1u64 << (r + k).min(63);
                self.affine[w as usize] &= !bit;
                self.scalar[w as usize] &= !bit;
                if tagged {
                    self.affine[w as usize] |= bit;
                    if c == Class::Scalar {
                        self.scalar[w as usize] |= bit;
                    }
                }
            }
        }
        let run = tagged && sp && !preds;
        if run {
            self.stats.affine_insts += 1;
            self.stats.scalar_insts += (c == Class::Scalar) as u64;
            let lanes = func.lanes(w);
            if gprs.iter().any(|&(r, wide)| !one_stride(func, w, r, wide, lanes, c == Class::Scalar)) {
                self.stats.tag_mismatches += 1;
            }
        }
        run
    }
}

/// The general registers an instruction writes: (first register, 64-bit).
fn dst_regs(inst: &Inst) -> Vec<(u32, bool)> {
    inst.dst
        .iter()
        .filter_map(|o| match *o {
            Opnd::R(n) => Some((n, false)),
            Opnd::D(n) => Some((n, true)),
            _ => None,
        })
        .collect()
}

/// Whether register `r` (a pair when `wide`) of warp `w` holds one base and
/// one stride over `lanes` (stride 0 when `scalar`).
fn one_stride(func: &Functional, w: u16, r: u32, wide: bool, lanes: u32, scalar: bool) -> bool {
    let lo = func.values(w, false, &[r as u8], lanes);
    let hi = if wide { func.values(w, false, &[r as u8 + 1], lanes) } else { vec![0; 32] };
    let v: Vec<(u32, u64)> = (0..32u32).filter(|l| lanes >> l & 1 == 1).map(|l| (l, lo[l as usize] as u64 | (hi[l as usize] as u64) << 32)).collect();
    let mask = if wide { u64::MAX } else { u32::MAX as u64 };
    // A full warp's lanes are 0, 1, ...: lane 1 gives the stride.
    let Some(&(l0, b)) = v.first() else { return true };
    let stride = v.get(1).map_or(0, |&(_, x)| x.wrapping_sub(b) & mask);
    let ok = v.iter().all(|&(l, x)| b.wrapping_add(stride.wrapping_mul((l - l0) as u64)) & mask == x);
    ok && (!scalar || stride == 0)
}
