#!/usr/bin/env bash
# Run one CUDA program under GPGPU-Sim (built by scripts/gpgpusim/build.sh)
# with the GTX 480 configuration (configs/tested-cfgs/SM2_GTX480), then print,
# per kernel launch, the kernel name and the simulated cycles and
# instructions: gpu_sim_cycle/gpu_sim_insn
# (that launch) and gpu_tot_sim_cycle/gpu_tot_sim_insn (running totals, as
# GPGPU-Sim prints them after each launch).
#
#   scripts/gpgpusim/run.sh PROGRAM [ARGS...]
#
# PROGRAM must be compiled by nvcc 13 with -cudart shared (so that it loads
# libcudart.so.13 dynamically, which is GPGPU-Sim here) for sm_75 (its PTX is
# what GPGPU-Sim simulates). The pip-installed CUDA in .tools/cuda has no
# libcudart.so to link with, so link against GPGPU-Sim's (same result: the
# program needs libcudart.so.13; one linked against NVIDIA's runs too):
#   nvcc -arch=sm_75 -cudart shared -L"$GPGPUSIM_HOME/lib" -o vecadd \
#        scripts/gpgpusim/test/vecadd.cu
# The default <<<>>> launch path of CUDA 12/13 (__cudaGetKernel,
# __cudaLaunchKernel) is supported; no -D__NV_LEGACY_LAUNCH needed.
#
# Environment:
#   GPGPUSIM_HOME     as for build.sh (default ~/.cache/warpforge/gpgpusim)
#   GPGPUSIM_RUN_DIR  where to run (config files, GPGPU-Sim's temporary files,
#                     and sim.log land here; default: a new temporary dir)
#   GPGPUSIM_CONFIG_DIR  config dir under the source's configs/ (default
#                     tested-cfgs/SM2_GTX480)
#   GPGPUSIM_CONFIG_EXTRA  extra GPGPU-Sim options appended to the config,
#                     e.g. "-gpgpu_max_insn 1000000"
#   GPGPUSIM_SHOW     regex (grep -E) of the program's output lines to echo
#                     (default ^(PASS|FAIL))
# Output: the program's own output and GPGPU-Sim's log go to
# $GPGPUSIM_RUN_DIR/sim.log; the lines matching GPGPUSIM_SHOW are echoed,
# then the table. Exit status: the program's.
set -euo pipefail
H="${GPGPUSIM_HOME:-$HOME/.cache/warpforge/gpgpusim}"
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM [ARGS...]" >&2; exit 2; }
prog="$(readlink -f "$1")"; shift
[ -x "$prog" ] || { echo "run.sh: not an executable: $prog" >&2; exit 2; }
[ -f "$H/lib/libcudart.so.13" ] || { echo "run.sh: no GPGPU-Sim in $H: run scripts/gpgpusim/build.sh" >&2; exit 2; }
# GPGPU-Sim dev's GTX 480 configuration: configs/tested-cfgs/SM2_GTX480. (The
# older configs/deprecated-cfgs/GTX480 no longer parses on dev: unknown options
# -rop_latency and -gpuwattch_xml_file, then an assertion on its 7-entry
# -gpgpu_pipeline_widths; SM2_GTX480 is that config ported to dev's options.)
cfg_src="$H/src/configs/${GPGPUSIM_CONFIG_DIR:-tested-cfgs/SM2_GTX480}"

run="${GPGPUSIM_RUN_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/gpgpusim-run.XXXXXX")}"
mkdir -p "$run"
cp "$cfg_src/config_fermi_islip.icnt" "$run/"
# The config as shipped, with these changes:
#  -gpgpu_ptx_force_max_capability 20 -> 75: GPGPU-Sim keeps only embedded
#     PTX whose compute capability is <= this; nvcc 13 emits compute_75 PTX
#     (it can no longer target sm_20), so 20 would leave no PTX at all.
#  -gpgpu_occupancy_sm_number 20 -> 75: GPGPU-Sim runs ptxas --gpu-name=sm_<N>
#     to get each kernel's register/shared-memory use for occupancy; ptxas 13
#     rejects sm_20. Register counts are therefore sm_75's, not Fermi's.
#  power model off (-power_simulation_enabled 0, no -gpuwattch_xml_file):
#     dev renamed the option (-accelwattch_xml_file) and we want cycles only.
sed -e 's/^-gpgpu_ptx_force_max_capability 20\b.*/-gpgpu_ptx_force_max_capability 75/' \
    -e 's/^-gpgpu_occupancy_sm_number 20\b.*/-gpgpu_occupancy_sm_number 75/' \
    -e 's/^-power_simulation_enabled 1\b.*/-power_simulation_enabled 0/' \
    -e '/^-gpuwattch_xml_file /d' \
    "$cfg_src/gpgpusim.config" > "$run/gpgpusim.config"
grep -q '^-gpgpu_ptx_force_max_capability 75' "$run/gpgpusim.config" \
    && grep -q '^-gpgpu_occupancy_sm_number 75' "$run/gpgpusim.config" \
    || { echo "run.sh: $cfg_src/gpgpusim.config changed upstream; check the sed above" >&2; exit 1; }
if [ -n "${GPGPUSIM_CONFIG_EXTRA:-}" ]; then echo "$GPGPUSIM_CONFIG_EXTRA" >> "$run/gpgpusim.config"; fi

# What setup_environment would export for running (CUDA_INSTALL_PATH: where
# GPGPU-Sim finds cuobjdump and ptxas; both are CUDA 13.5's).
export CUDA_INSTALL_PATH="$H/cuda"
export PTXAS_CUDA_INSTALL_PATH="$H/cuda"
export LD_LIBRARY_PATH="$H/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export GPGPUSIM_ROOT="$H/src"
# setup_environment sets these three for CUDA >= 6; GPGPU-Sim then takes the
# PTX from `cuobjdump -xptx` files (one per embedded PTX) instead of parsing a
# full `cuobjdump -ptx -elf -sass` dump (without CUOBJDUMP_SIM_FILE it aborts
# with "No PTX sections found").
export PTX_SIM_USE_PTX_FILE=1.ptx PTX_SIM_KERNELFILE=_1.ptx CUOBJDUMP_SIM_FILE=jj

set +e
# stdbuf: line-buffered, so that GPGPU-Sim's messages before an abort() are kept.
(cd "$run" && stdbuf -oL -eL "$prog" "$@") > "$run/sim.log" 2>&1
rc=$?
set -e

# The program's own result lines (GPGPUSIM_SHOW: an extended regex).
grep -E "${GPGPUSIM_SHOW:-^(PASS|FAIL)}" "$run/sim.log" || true
echo "--- GPGPU-Sim (GTX480 config; log: $run/sim.log)"
awk '
    /^kernel_name = /      { name = $3 }
    /^kernel_launch_uid = / { uid = $3 }
    /^gpu_sim_cycle = /    { cyc = $3 }
    /^gpu_sim_insn = /     { insn = $3 }
    /^gpu_tot_sim_cycle = / { tcyc = $3 }
    /^gpu_tot_sim_insn = / {
        tinsn = $3; n++
        if (n == 1) printf "%-6s %-40s %14s %14s %18s %18s\n", "launch", "kernel", "gpu_sim_cycle", "gpu_sim_insn", "gpu_tot_sim_cycle", "gpu_tot_sim_insn"
        printf "%-6s %-40s %14s %14s %18s %18s\n", uid, name, cyc, insn, tcyc, tinsn
    }
    END { if (n == 0) print "no kernel finished under GPGPU-Sim" }
' "$run/sim.log"
if [ $rc -ne 0 ]; then
    echo "run.sh: program exited with $rc; last lines of $run/sim.log:" >&2
    tail -15 "$run/sim.log" >&2
fi
exit $rc
