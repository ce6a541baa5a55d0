//! Reference model of the per-warp predicate queue (PWPQ), written from the
//! specification in `hw/src/blocks/dac/pwpq.rs` (paper §4.1 ⑤⑥, §4.8): the
//! per-warp queue of `pwaq.rs` with 32-bit predicate masks as entries.

use super::pwaq::{PerWarpQueue, QueueShape};
use hw::blocks::dac::pwpq::PwpqParams;
use sim::PortSpec;

pub use super::pwaq::{check_queues, QueueDriver, QueueReport};

pub fn shape(p: &PwpqParams) -> QueueShape {
    QueueShape {
        name: "pwpq",
        warps: p.warps,
        entries: p.entries,
        width: hw::blocks::dac::pwpq::ENTRY_BITS,
        enq_data: "enq_mask",
        deq_data: "deq_mask",
    }
}

pub fn ports(p: &PwpqParams) -> Vec<PortSpec> {
    shape(p).ports()
}

/// The PWPQ.
pub fn new(p: &PwpqParams) -> PerWarpQueue {
    PerWarpQueue::new(shape(p))
}

/// Registry entry: the reference model and the driver of `pwpq`.
pub static VERIF: crate::registry::VerifBlock = crate::registry::VerifBlock {
    name: "pwpq",
    model: |p| {
        use hw::params::BlockParams;
        Ok(Box::new(new(&PwpqParams::from_params(p)?)))
    },
    driver: |p, seed| {
        use hw::params::BlockParams;
        Ok(Box::new(QueueDriver::new(shape(&PwpqParams::from_params(p)?), seed)))
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stimulus::Stimulus;

    #[test]
    fn partitions_behave_as_fifos() {
        for (p, seed) in [
            (PwpqParams::default(), 5),
            (PwpqParams { warps: 2, entries: 2 }, 6),
            (PwpqParams { warps: 5, entries: 40 }, 7),
        ] {
            let q = shape(&p);
            let mut d = QueueDriver::new(q.clone(), seed);
            let stim = Stimulus::record(&mut d, 30_000);
            let rep = check_queues(&mut new(&p), &q, &stim).unwrap();
            println!("PWPQ {p:?}: {rep:?}");
            assert!(
                rep.refused_full > 100 && rep.deq_of_empty > 100 && (rep.same_warp_enq_deq > 50 || q.depth() == 1),
                "{rep:?}"
            );
        }
    }
}
