//! Port-level driving of a component for directed (golden) tests, which are
//! written against the block's port description only (handles from
//! `p.bind(component)`) and run on every engine: every input is 0 except what
//! the test sets for the current cycle.

use sim::{Component, ComponentExt, Dir, PortId};

/// Set every input of `m` to 0.
pub fn clear_inputs(m: &mut dyn Component) {
    let ins: Vec<(PortId, usize)> = m
        .ports()
        .iter()
        .enumerate()
        .filter(|(_, q)| q.dir == Dir::In)
        .map(|(i, q)| (PortId(i as u32), q.words()))
        .collect();
    for (id, words) in ins {
        m.set(id, &vec![0; words]);
    }
}

/// One reset cycle (`rst` high, every other input 0); every input 0 afterwards.
pub fn reset(m: &mut dyn Component) {
    clear_inputs(m);
    let rst = m.input("rst").expect("a resettable component has an `rst` input");
    m.set_u64(rst, 1);
    m.step();
    clear_inputs(m);
}

/// A component under a directed test, its ports reached by name.
pub struct Poke<'a> {
    pub m: &'a mut dyn Component,
}

impl<'a> Poke<'a> {
    /// Resets `m` (see [`reset`]).
    pub fn new(m: &'a mut dyn Component) -> Self {
        reset(m);
        Poke { m }
    }
    /// Drive input `id` (at most 64 bits) for this cycle.
    pub fn set(&mut self, id: PortId, v: u64) {
        self.m.set_u64(id, v);
    }
    /// Output `id` after settling this cycle's inputs.
    pub fn get(&mut self, id: PortId) -> u64 {
        self.m.eval();
        self.m.get_u64(id)
    }
    /// Every input back to 0.
    pub fn clear(&mut self) {
        clear_inputs(self.m);
    }
    /// One clock edge, then every input back to 0.
    pub fn step(&mut self) {
        self.m.step();
        self.clear();
    }
}

/// `poke_harness!(T)` declares `struct T<'a>(Poke<'a>)` dereferencing to
/// [`Poke`], so a golden test module can add its block's own helpers to `T`;
/// `poke_harness!(T, Io)` adds a second field of type `Io` (the block's port
/// handles) for those helpers.
#[macro_export]
macro_rules! poke_harness {
    ($t:ident) => {
        struct $t<'a>($crate::poke::Poke<'a>);
        impl<'a> $t<'a> {
            fn new(m: &'a mut dyn sim::Component) -> Self {
                $t($crate::poke::Poke::new(m))
            }
        }
        $crate::poke_harness!(@deref $t);
    };
    ($t:ident, $io:ty) => {
        struct $t<'a>($crate::poke::Poke<'a>, $io);
        impl<'a> $t<'a> {
            fn new(m: &'a mut dyn sim::Component, io: $io) -> Self {
                $t($crate::poke::Poke::new(m), io)
            }
        }
        $crate::poke_harness!(@deref $t);
    };
    (@deref $t:ident) => {
        impl<'a> std::ops::Deref for $t<'a> {
            type Target = $crate::poke::Poke<'a>;
            fn deref(&self) -> &Self::Target {
                &self.0
            }
        }
        impl<'a> std::ops::DerefMut for $t<'a> {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.0
            }
        }
    };
}
