//! TEMPORARY skeleton of the bridge to the kernel crate.
use crate::config::Config;
use crate::core::op::{Op, Space};
use std::sync::Arc;

pub struct ExecOut {
    pub op: u32,
    pub active: u32,
    pub space: Option<Space>,
    pub bytes: u32,
    pub barrier: bool,
}

pub struct Functional {}

impl Functional {
    pub fn ops(&self, _c: &Config) -> Arc<[Op]> { unimplemented!() }
    pub fn kernel_name(&self) -> &str { unimplemented!() }
    pub fn num_ctas(&self) -> u32 { unimplemented!() }
    /// (threads, warps, registers, shared bytes) of one CTA.
    pub fn cta_resources(&self) -> (u32, u32, u32, u32) { unimplemented!() }
    pub fn start_cta(&mut self, _cta: u32, _slot: u16, _warps: &[u16]) { unimplemented!() }
    /// Returns the CTA index that ran in the slot.
    pub fn end_cta(&mut self, _slot: u16) -> u32 { unimplemented!() }
    pub fn next_op(&self, _w: u16) -> Option<u32> { unimplemented!() }
    pub fn exec(&mut self, _w: u16, _addrs: &mut [u64; 32]) -> Result<ExecOut, String> { unimplemented!() }
}
