//! A block's port description (`hw::iface`) bound to a component: typed
//! [`PortId`] handles for a reference model, a driver, a property checker or
//! the composed SM, resolved once.

use crate::{Component, PortFrame, PortId};
use hw::iface::{Interface, InterfaceExt};
use std::collections::HashMap;

/// A component whose ports are not the ones its description declares.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("component `{component}` does not have the ports of its description: {problems}")]
pub struct BindError {
    pub component: String,
    pub problems: String,
}

/// Handles of a block's ports. Implemented for every port description.
pub trait Bind: Interface {
    /// Handles into a component whose port list is the description's
    /// (`InterfaceExt::ports`: a reference model built on [`Bind::frame`], a
    /// stimulus layout).
    fn ids(&self) -> Self::Io<PortId> {
        self.indexed(|i, _| PortId(i as u32))
    }

    /// Resolve the description against any component (the netlist
    /// simulation, a reference model, a wrapper) by port name. Every
    /// described port must exist with its direction and width and the
    /// component must have no other port; otherwise the error lists the
    /// differences.
    fn bind<C: Component + ?Sized>(&self, c: &C) -> Result<Self::Io<PortId>, BindError> {
        let have: HashMap<&str, usize> = c.ports().iter().enumerate().map(|(i, p)| (p.name.as_str(), i)).collect();
        let want = self.ports();
        let mut problems = Vec::new();
        for w in &want {
            match have.get(w.name.as_str()) {
                None => problems.push(format!("no {} `{}`", w.dir, w.name)),
                Some(&i) => {
                    let g = &c.ports()[i];
                    if g.dir != w.dir || g.width != w.width {
                        problems.push(format!("`{}` is {} {} bits, described as {} {} bits", w.name, g.dir, g.width, w.dir, w.width));
                    }
                }
            }
        }
        let described: std::collections::HashSet<&str> = want.iter().map(|w| w.name.as_str()).collect();
        for g in c.ports() {
            if !described.contains(g.name.as_str()) {
                problems.push(format!("undescribed {} `{}`", g.dir, g.name));
            }
        }
        if !problems.is_empty() {
            let n = problems.len();
            problems.truncate(6);
            let mut text = problems.join("; ");
            if n > 6 {
                text.push_str(&format!("; and {} more", n - 6));
            }
            return Err(BindError { component: c.name().to_string(), problems: text });
        }
        Ok(self.build(|s| PortId(have[s.name.as_str()] as u32)))
    }

    /// Port storage holding the described ports, for a hand-written model
    /// (whose handles are then [`Bind::ids`]).
    fn frame(&self) -> PortFrame {
        PortFrame::new(self.ports())
    }
}

impl<T: Interface + ?Sized> Bind for T {}
