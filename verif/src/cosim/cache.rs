//! Content-addressed cache of compiled harnesses (the shared
//! [`sim::cache`], with co-simulation errors).

use super::{io_err, CosimError};
use std::path::{Path, PathBuf};

pub use sim::cache::cache_root;

/// The build directory for `key` (everything the build depends on); builds it
/// with `build` unless a finished one is there. Returns the directory and
/// whether this call built it.
pub(crate) fn cached_build(
    kind: &str,
    top: &str,
    key: &str,
    build: impl FnOnce(&Path) -> Result<(), CosimError>,
) -> Result<(PathBuf, bool), CosimError> {
    sim::cache::cached_build(&cache_root(), kind, top, key, build, |p, e| io_err(p)(e))
}
