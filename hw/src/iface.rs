//! Port descriptions: one typed bundle per block, from which every user of
//! the block's ports is derived.
//!
//! A block describes its ports once, in a function generic over a
//! [`Binder`] (the visitor): each port's name, direction and width, in
//! order, with repeated groups (issue port `k`, writeback port `j`, source
//! `s`) as sub-bundles built in loops. The result is the block's bundle
//! struct, generic over the handle type `H`:
//!
//! ```text
//! ScoreboardIo<H> { rst: H, iss: Vec<ScoreboardIssue<H>>, wb: Vec<ScoreboardWb<H>>, copy_en: H, copy_warp: H }
//! ```
//!
//! Instantiating the bundle with another binder gives another view of the
//! same ports, so the names live in one place:
//!
//! | handle `H` | binder | user |
//! |---|---|---|
//! | [`PortSpec`] | [`InterfaceExt::decls`] | the generator: `m.port(&io.copy_en)` declares the port |
//! | [`crate::ir::Pin`] | [`crate::ir::InstHandle::io`] | a unit wiring an instance of the block |
//! | `sim::PortId` | `sim::Bind::ids` / `sim::Bind::bind` | reference models, drivers, checkers, the SM (any `dyn Component`) |
//! | `verif::stimulus::Val` | `verif::stimulus::decode` | property checkers reading a recorded frame |
//!
//! Port order of a component (the netlist simulation, the reference model,
//! stimulus files and the emitted Verilog): `rst` first when the block has
//! one, then every input, then every output, each in description order.
//! [`InterfaceExt::ports`] gives that list; the generator's module must
//! declare exactly it ([`crate::ir::ModuleBuilder::finish_io`] checks).

use std::fmt;

/// Direction of a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    In,
    Out,
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dir::In => "input",
            Dir::Out => "output",
        })
    }
}

/// Name of the synchronous, active-high reset input every block with state
/// has (the IR adds it to the module; descriptions declare it with
/// [`Binder::reset`]).
pub const RESET: &str = "rst";

/// A named port.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PortSpec {
    pub name: String,
    pub dir: Dir,
    pub width: u32,
}

impl PortSpec {
    pub fn input(name: impl Into<String>, width: u32) -> Self {
        PortSpec { name: name.into(), dir: Dir::In, width }
    }
    pub fn output(name: impl Into<String>, width: u32) -> Self {
        PortSpec { name: name.into(), dir: Dir::Out, width }
    }
    /// Number of 64-bit words a value of this port occupies (at least one).
    pub fn words(&self) -> usize {
        (self.width as usize).div_ceil(64).max(1)
    }
    /// Is this the implicit reset?
    pub fn is_reset(&self) -> bool {
        self.dir == Dir::In && self.name == RESET
    }
}

impl fmt::Display for PortSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}:{}", self.dir, self.name, self.width)
    }
}

/// The visitor a description is walked with: turns each declared port into a
/// handle.
pub trait Binder {
    type H;
    fn port(&mut self, spec: PortSpec) -> Self::H;

    fn input(&mut self, name: impl Into<String>, width: u32) -> Self::H {
        self.port(PortSpec::input(name, width))
    }
    fn output(&mut self, name: impl Into<String>, width: u32) -> Self::H {
        self.port(PortSpec::output(name, width))
    }
    /// The block's reset input (every block with state has one).
    fn reset(&mut self) -> Self::H {
        self.port(PortSpec::input(RESET, 1))
    }
}

/// A block's port description, implemented by its parameter type: the
/// parameters decide the widths and how often a group repeats.
pub trait Interface {
    /// The port bundle, generic over the handle type.
    type Io<H>;
    /// Declare every port, in order, through `b`.
    fn describe<B: Binder>(&self, b: &mut B) -> Self::Io<B::H>;
}

/// Binder calling a closure per port, in description order.
struct FnBinder<F>(F);

impl<H, F: FnMut(PortSpec) -> H> Binder for FnBinder<F> {
    type H = H;
    fn port(&mut self, spec: PortSpec) -> H {
        (self.0)(spec)
    }
}

/// The ports in description order and, for each, its index in the component
/// order (`rst`, inputs, outputs).
fn visit_order<I: Interface + ?Sized>(p: &I) -> (Vec<PortSpec>, Vec<usize>) {
    let mut visit = Vec::new();
    p.describe(&mut FnBinder(|s: PortSpec| visit.push(s)));
    let rank = |s: &PortSpec| match (s.is_reset(), s.dir) {
        (true, _) => 0,
        (false, Dir::In) => 1,
        (false, Dir::Out) => 2,
    };
    let mut order: Vec<usize> = (0..visit.len()).collect();
    order.sort_by_key(|&i| rank(&visit[i])); // stable: description order within a class
    let mut pos = vec![0; visit.len()];
    for (k, &i) in order.iter().enumerate() {
        pos[i] = k;
    }
    let mut seen = std::collections::HashSet::new();
    for s in &visit {
        assert!(seen.insert(s.name.as_str()), "internal: port `{}` is described twice", s.name);
    }
    (visit, pos)
}

/// Everything derived from a description.
pub trait InterfaceExt: Interface {
    /// The ports in component order: `rst`, the inputs, the outputs.
    fn ports(&self) -> Vec<PortSpec> {
        let (visit, pos) = visit_order(self);
        let mut out = visit.clone();
        for (i, s) in visit.into_iter().enumerate() {
            out[pos[i]] = s;
        }
        out
    }

    /// The description as data: each handle is its own port. The generator
    /// declares its ports from it ([`crate::ir::ModuleBuilder::port`]).
    fn decls(&self) -> Self::Io<PortSpec> {
        self.describe(&mut FnBinder(|s| s))
    }

    /// The bundle with handles made from each port's position in component
    /// order (e.g. `sim::PortId` of a component built from [`Self::ports`]).
    fn indexed<H>(&self, mut f: impl FnMut(usize, &PortSpec) -> H) -> Self::Io<H> {
        let (_, pos) = visit_order(self);
        let mut k = 0;
        self.describe(&mut FnBinder(|s: PortSpec| {
            k += 1;
            f(pos[k - 1], &s)
        }))
    }

    /// The bundle with handles made by `f`, called per port in description
    /// order.
    fn build<H>(&self, f: impl FnMut(PortSpec) -> H) -> Self::Io<H> {
        self.describe(&mut FnBinder(f))
    }
}

impl<T: Interface + ?Sized> InterfaceExt for T {}

/// The ports of a finished module in component order: `rst` when it has
/// resettable state, then its declared ports (the generator declares inputs
/// before outputs).
pub fn module_ports(m: &crate::ir::Module) -> Vec<PortSpec> {
    let mut v = Vec::with_capacity(m.ports.len() + 1);
    if m.uses_reset {
        v.push(PortSpec::input(RESET, 1));
    }
    for &s in &m.ports {
        let s = &m.signals[s as usize];
        v.push(match s.kind {
            crate::ir::SigKind::Input => PortSpec::input(s.name.clone(), s.width),
            _ => PortSpec::output(s.name.clone(), s.width),
        });
    }
    v
}

/// The first difference between two port lists, as a sentence (`None` when
/// they are equal).
pub fn port_difference(expected: &[PortSpec], actual: &[PortSpec]) -> Option<String> {
    for (i, (e, a)) in expected.iter().zip(actual).enumerate() {
        if e != a {
            return Some(format!("port {i} is `{a}`, the description says `{e}`"));
        }
    }
    match expected.len().cmp(&actual.len()) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(format!("extra port `{}` beyond the description", actual[expected.len()])),
        std::cmp::Ordering::Greater => Some(format!("port `{}` of the description is missing", expected[actual.len()])),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Demo {
        lanes: u32,
    }

    #[derive(Debug, PartialEq)]
    struct DemoIo<H> {
        rst: H,
        lane: Vec<(H, H)>,
        en: H,
    }

    impl Interface for Demo {
        type Io<H> = DemoIo<H>;
        fn describe<B: Binder>(&self, b: &mut B) -> DemoIo<B::H> {
            DemoIo {
                rst: b.reset(),
                lane: (0..self.lanes).map(|k| (b.input(format!("in{k}"), 4), b.output(format!("out{k}"), 4))).collect(),
                en: b.input("en", 1),
            }
        }
    }

    #[test]
    fn component_order_is_reset_inputs_outputs() {
        let d = Demo { lanes: 2 };
        let names: Vec<String> = d.ports().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["rst", "in0", "in1", "en", "out0", "out1"]);
        let ids = d.indexed(|i, _| i);
        assert_eq!(ids, DemoIo { rst: 0, lane: vec![(1, 4), (2, 5)], en: 3 });
        assert_eq!(d.decls().lane[1].1, PortSpec::output("out1", 4));
        assert_eq!(port_difference(&d.ports(), &d.ports()), None);
        let mut other = d.ports();
        other.swap(1, 2);
        assert!(port_difference(&d.ports(), &other).unwrap().contains("in1"));
    }
}
