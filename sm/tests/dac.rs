//! DAC mode's affine tuples (seed 003 section 4.4, Figure 5): the affine
//! warp of each CTA of Figure 4's kernel enqueues `A + 4 * (i * num + tid)`
//! and `B + 4 * (i * num + tid)` as tuples of thread-x offset 4 whose base
//! steps by `num * 4` per iteration, and every enqueued address is its
//! tuple's value at the thread's index.

use kernel::{load, CompileOptions, LaunchFile};
use kernel::inst::DacQueue;
use models::dac::affine::{TX, TY, TZ};
use sm::core::Outputs;
use sm::{Config, Engine};
use std::path::Path;
use std::sync::Arc;

#[test]
fn figure5_tuples() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../kernels");
    let module = load(&root.join("dac_fig4.cu"), &CompileOptions::default()).unwrap();
    let k = module.only_kernel().unwrap().clone();
    let file = LaunchFile::load(&root.join("dac_fig4.toml")).unwrap();
    let launch = file.bind(&module, &k).unwrap();
    let (a, b) = (launch.memory.region("A").unwrap().base as u32, launch.memory.region("B").unwrap().base as u32);
    let (num, block) = (512u32, launch.block[0]);
    {
        let engine = Engine::Model;
        let cfg = Config::preset("isca17_dac").single_sm().with_override("mode=dac").unwrap();
        let o = sm::run::simulate(Arc::new(k.clone()), Arc::new(launch.clone()), &cfg, engine, Outputs { log_dac: true, ..Outputs::default() }).unwrap();
        assert_eq!(o.stats.dac.tuple_mismatches, 0);
        assert_eq!(o.stats.dac.divergent_tuples, 0);
        // One CTA per slot, CTA c in slot c: its addresses per iteration.
        let ctas = launch.ctas() as u16;
        for c in 0..ctas {
            let mine: Vec<_> = o.dac_tuples.iter().filter(|e| e.cta_slot == c).collect();
            let loads: Vec<u32> = mine.iter().filter(|e| e.queue == DacQueue::Data).map(|e| e.tuple.base).collect();
            let stores: Vec<u32> = mine.iter().filter(|e| e.queue == DacQueue::Addr).map(|e| e.tuple.base).collect();
            assert_eq!(loads.len(), 8, "dim = 8 iterations");
            for e in &mine {
                assert_eq!((e.tuple.off[TX], e.tuple.off[TY], e.tuple.off[TZ]), (4, 0, 0), "{e:?}");
            }
            let first = c as u32 * block * 4;
            let want = |base: u32| (0..8).map(|i| base.wrapping_add(first + i * num * 4)).collect::<Vec<u32>>();
            assert_eq!(loads, want(a), "CTA {c}: addrA");
            assert_eq!(stores, want(b), "CTA {c}: addrB");
        }
    }
}
