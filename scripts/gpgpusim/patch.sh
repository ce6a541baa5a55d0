#!/usr/bin/env bash
# Apply warpforge's patches to a GPGPU-Sim source tree (accel-sim/
# gpgpu-sim_distribution, branch dev) so that it builds with NVIDIA's CUDA
# 13.5 nvcc and runs programs that nvcc 13.5 compiled for sm_75.
#
#   scripts/gpgpusim/patch.sh <gpgpu-sim source dir>
#
# Called by build.sh on a fresh checkout. Every step checks that its target
# text is there (so a change upstream fails loudly instead of building an
# unpatched simulator) and is idempotent (running it twice changes nothing).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="${1:?usage: patch.sh <gpgpu-sim source dir>}"
cd "$src"

die() { echo "patch.sh: $*" >&2; exit 1; }
need() { grep -qF -- "$2" "$1" || die "$1: expected text not found: $2"; }

# 1. setup_environment refuses any CUDA newer than 11.1 (CUDA_VERSION_NUMBER
#    is 10*major*100 + 10*minor, e.g. 13.5 -> 13050; the check is -gt 11100).
#    Accept up to CUDA 13.9. (The Makefiles' own parse of `nvcc --version` in
#    version_detection.mk already yields CUDART_VERSION=13050; nothing there
#    rejects it.)
if ! grep -q 'CUDA_VERSION_NUMBER -gt 13900' setup_environment; then
    need setup_environment '$CUDA_VERSION_NUMBER -gt 11100'
    sed -i 's/\$CUDA_VERSION_NUMBER -gt 11100/$CUDA_VERSION_NUMBER -gt 13900/' setup_environment
fi

# 2. Programs linked by nvcc 13 against NVIDIA's libcudart.so.13 need a
#    library with that file name that defines the symbol version
#    "libcudart.so.13": their references are versioned (cudaMalloc@
#    libcudart.so.13), and ld.so refuses the library otherwise ("version
#    `libcudart.so.13' not found"). Either the soname (the BASE version
#    definition carries it) or a libcudart.so.13 node in the version script
#    suffices (checked: with neither it fails, with either it loads); do both,
#    plus 12, plus the libcudart.so.12/.13 symlinks. GPGPU-Sim's symbols stay
#    unversioned, which ld.so accepts for versioned references (as it already
#    does for .so.11.0 programs). Programs linked against GPGPU-Sim's own
#    libcudart.so get DT_NEEDED libcudart.so.13 from the soname.
if ! grep -q 'libcudart.so.13' linux-so-version.txt; then
    need linux-so-version.txt 'libcudart.so.11.0{'
    sed -i 's/^libcudart.so.11.0{$/libcudart.so.11.0{\n};\nlibcudart.so.12{\n};\nlibcudart.so.13{/' linux-so-version.txt
fi
if ! grep -q 'soname,libcudart.so.13' Makefile; then
    need Makefile '-Wl,-soname,libcudart.so '
    sed -i 's/-Wl,-soname,libcudart.so /-Wl,-soname,libcudart.so.13 /' Makefile
fi
if ! grep -q 'libcudart.so.13; fi' Makefile; then
    need Makefile 'ln -s libcudart.so $(SIM_LIB_DIR)/libcudart.so.11.0; fi'
    sed -i 's|^\(\t*\)\(if \[ ! -f $(SIM_LIB_DIR)/libcudart.so.11.0 \]; then ln -s libcudart.so $(SIM_LIB_DIR)/libcudart.so.11.0; fi\)$|\1\2\n\1if [ ! -f $(SIM_LIB_DIR)/libcudart.so.12 ]; then ln -s libcudart.so $(SIM_LIB_DIR)/libcudart.so.12; fi\n\1if [ ! -f $(SIM_LIB_DIR)/libcudart.so.13 ]; then ln -s libcudart.so $(SIM_LIB_DIR)/libcudart.so.13; fi|' Makefile
    grep -q 'libcudart.so.13; fi' Makefile || die "Makefile: adding the libcudart.so.13 symlink failed"
fi

# 3. CUDA 12/13 kernel launch path: nvcc's host stubs call __cudaGetKernel and
#    __cudaLaunchKernel (not cudaLaunchKernel, unless -D__NV_LEGACY_LAUNCH).
#    Define both (and the _ptsz variant, and cudaGetKernel) on top of
#    GPGPU-Sim's cudaLaunchKernelInternal. See patches/cuda13_launch.cc.
if ! grep -q '__cudaLaunchKernel(void \*kernel' libcuda/cuda_runtime_api.cc; then
    need libcuda/cuda_runtime_api.cc 'cudaError_t CUDARTAPI cudaLaunchKernelInternal('
    cat "$here/patches/cuda13_launch.cc" >> libcuda/cuda_runtime_api.cc
fi

# 4. ptxas 13's -v output has lines the ptxinfo lexer/grammar do not know:
#      ptxas info    : Used 12 registers, used 0 barriers, 380 bytes cmem[0]
#      ptxas info    : Compile time = 2.144 ms
#    Skip ", used N barriers" and whole "Compile time" lines in the lexer
#    (flex takes the longest match, so these win over "," and "ptxas").
if ! grep -q 'used "\[0-9\]+" barriers' src/cuda-sim/ptxinfo.l; then
    need src/cuda-sim/ptxinfo.l '"warning"[^\n]* TC; return WARNING;'
    sed -i 's/^"warning"\[^\\n\]\* TC; return WARNING;$/", used "[0-9]+" barriers"	TC;\n"ptxas info    : Compile time"[^\\n]*	TC;\n&/' src/cuda-sim/ptxinfo.l
    grep -q 'used "\[0-9\]+" barriers' src/cuda-sim/ptxinfo.l || die "ptxinfo.l: patch failed"
fi

echo "patch.sh: patches applied to $src"
