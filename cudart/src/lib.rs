//! warpforge's CUDA runtime library: `libcudart.so.13` for programs built
//! with `nvcc -cudart shared`. It takes the PTX from the fatbinary nvcc
//! embeds in the program and runs every launch on warpforge — the
//! functional model, or the timing SM checked against it — as GPGPU-Sim's
//! runtime library does for its simulator. `warpforge exec` loads it in
//! place of NVIDIA's (docs/exec.md).

pub mod api;
pub mod device;
pub mod fatbin;
pub mod props;
