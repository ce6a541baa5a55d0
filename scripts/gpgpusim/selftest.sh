#!/usr/bin/env bash
# Build GPGPU-Sim if needed (build.sh), compile the test programs in test/
# with nvcc 13 (-arch=sm_75 -cudart shared, linked against GPGPU-Sim's
# libcudart.so) and run them under GPGPU-Sim's GTX 480 config (run.sh).
#   scripts/gpgpusim/selftest.sh        # vecadd and sgemm (kernels/sgemm.cu)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
H="${GPGPUSIM_HOME:-$HOME/.cache/warpforge/gpgpusim}"
"$here/build.sh"
nvcc="$(readlink "$H/cuda/bin/nvcc")"
out="$(mktemp -d "${TMPDIR:-/tmp}/gpgpusim-test.XXXXXX")"
status=0
for t in vecadd sgemm_host; do
    nice -n 19 "$nvcc" -arch=sm_75 -cudart shared -L"$H/lib" -o "$out/$t" "$here/test/$t.cu"
    echo "== $t"
    GPGPUSIM_RUN_DIR="$out/run_$t" "$here/run.sh" "$out/$t" || status=1
done
exit $status
