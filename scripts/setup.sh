#!/usr/bin/env bash
# Install the tools warpforge drives if any is missing: Verilator, Icarus
# Verilog, Yosys, clang-14 (the default CUDA compiler), gcc (the compiled
# simulation engine's C compiler) from Debian's packages (needs root or
# sudo), and NVIDIA's CUDA 13.5 compiler (nvcc) from the Python package index
# into .tools/cuda of this checkout, unless nvcc is already on the PATH or
# CUDA_HOME or WARPFORGE_NVCC names one.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
for tool in verilator iverilog yosys clang-14; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
command -v cc >/dev/null 2>&1 || missing+=(gcc)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
python_ok() { command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; }
python_ok || missing+=(python3-pip)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing: ${missing[*]}" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y verilator iverilog yosys clang-14 gcc g++ python3-pip
fi

# nvcc: the wheels carry the compiler (nvcc; cicc in nvidia-nvvm), the CUDA
# headers, the runtime headers and CCCL (Thrust, CUB); pinned so that every
# machine compiles the same PTX.
CUDA_VERSION=13.5.37
if [ -z "${WARPFORGE_NVCC:-}" ] && [ -z "${CUDA_HOME:-}" ] && ! command -v nvcc >/dev/null 2>&1 \
    && [ ! -x .tools/cuda/nvidia/cu13/bin/nvcc ]; then
    echo "installing nvcc $CUDA_VERSION into .tools/cuda" >&2
    rm -rf .tools/cuda
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-warn-script-location --target .tools/cuda \
        "nvidia-cuda-nvcc==$CUDA_VERSION" "nvidia-nvvm==$CUDA_VERSION" "nvidia-cuda-crt==$CUDA_VERSION" \
        "nvidia-cuda-runtime==$CUDA_VERSION" "nvidia-cuda-cccl==13.3.5.0.6" "nvidia-cuda-profiler-api==13.5.25"
fi
# The profiler API header (cuda_profiler_api.h), which CUDA samples include,
# into an installation made before it was on the list above.
if [ -x .tools/cuda/nvidia/cu13/bin/nvcc ] && [ ! -f .tools/cuda/nvidia/cu13/include/cuda_profiler_api.h ]; then
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-warn-script-location --no-deps \
        --target .tools/cuda/profiler-api "nvidia-cuda-profiler-api==13.5.25"
    cp .tools/cuda/profiler-api/nvidia/cu13/include/*.h .tools/cuda/nvidia/cu13/include/
fi
