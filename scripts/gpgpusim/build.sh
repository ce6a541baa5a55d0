#!/usr/bin/env bash
# Build GPGPU-Sim (accel-sim/gpgpu-sim_distribution, branch dev) so that it
# runs programs compiled by NVIDIA's CUDA 13.5 nvcc (-arch=sm_75 -cudart
# shared). For the `make correlate` benchmark target; not used by CI.
#
#   scripts/gpgpusim/build.sh            # build (skipped if already built)
#   GPGPUSIM_FORCE=1 scripts/gpgpusim/build.sh   # rebuild
#
# Environment:
#   GPGPUSIM_HOME  where everything goes (default ~/.cache/warpforge/gpgpusim)
#   GPGPUSIM_SRC   a git repository (URL, bare or work tree) to clone instead
#                  of https://github.com/accel-sim/gpgpu-sim_distribution
#   GPGPUSIM_REF   branch/commit to build (default dev)
#   GPGPUSIM_JOBS  make -j (default 1; the build is run under nice -n 19)
#   WARPFORGE_NVCC / CUDA_HOME  the CUDA 13 nvcc (default: .tools/cuda of this
#                  checkout as installed by scripts/setup.sh, else nvcc on PATH)
#
# Layout of $GPGPUSIM_HOME:
#   cuda11/   pip --target: CUDA 11.8 runtime + nvcc wheels (headers only used)
#   cuobjdump/ pip --target: cuobjdump 13.5 wheel
#   cuda/     the CUDA_INSTALL_PATH GPGPU-Sim sees: bin/{nvcc,ptxas,cuobjdump}
#             from CUDA 13.5, include/ = CUDA 11.8 headers (13's dropped
#             textureReference & co., which GPGPU-Sim's runtime implements)
#   src/      patched GPGPU-Sim checkout, built in place
#   lib/      -> the built library directory (libcudart.so, .so.13, ...)
#   BUILT     "<commit> patches-<hash> nvcc-<path>" of the finished build: the
#             GPGPU-Sim commit built, and the idempotence stamp
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
H="${GPGPUSIM_HOME:-$HOME/.cache/warpforge/gpgpusim}"
REF="${GPGPUSIM_REF:-dev}"
SRC_URL="${GPGPUSIM_SRC:-https://github.com/accel-sim/gpgpu-sim_distribution}"
JOBS="${GPGPUSIM_JOBS:-1}"
CUDA11_VERSION=11.8.89
CUDA11_PROFILER_VERSION=11.8.86
CUOBJDUMP_VERSION=13.5.37
log() { echo "gpgpusim/build.sh: $*" >&2; }
mkdir -p "$H"

# --- CUDA 13 nvcc ------------------------------------------------------------
if [ -n "${WARPFORGE_NVCC:-}" ]; then nvcc="$WARPFORGE_NVCC"
elif [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then nvcc="$CUDA_HOME/bin/nvcc"
elif [ -x "$repo/.tools/cuda/nvidia/cu13/bin/nvcc" ]; then nvcc="$repo/.tools/cuda/nvidia/cu13/bin/nvcc"
elif command -v nvcc >/dev/null 2>&1; then nvcc="$(command -v nvcc)"
else
    log "no nvcc: run scripts/setup.sh first (installs CUDA 13.5 nvcc into .tools/cuda)"; exit 1
fi
nvcc="$(readlink -f "$nvcc")"
cuda13_bin="$(dirname "$nvcc")"
"$nvcc" --version | grep -q 'release 13\.' || { log "$nvcc is not CUDA 13: $("$nvcc" --version | tail -2)"; exit 1; }

# --- Debian packages -----------------------------------------------------------
need_pkgs=()
# xutils-dev: makedepend, which its Makefiles call. libgl-dev: it links -lGL.
for p in build-essential bison flex zlib1g-dev libgl-dev xutils-dev git; do
    dpkg -s "$p" >/dev/null 2>&1 || need_pkgs+=("$p")
done
python3 -m pip --version >/dev/null 2>&1 || need_pkgs+=(python3-pip)
if [ ${#need_pkgs[@]} -gt 0 ]; then
    log "installing ${need_pkgs[*]}"
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y "${need_pkgs[@]}"
fi

# --- source commit; skip everything if already built --------------------------
if git ls-remote --exit-code "$SRC_URL" "refs/heads/$REF" >/dev/null 2>&1; then
    commit="$(git ls-remote "$SRC_URL" "refs/heads/$REF" | awk 'NR==1{print $1}')"
else
    commit="$REF"   # a commit id (or tag) given in GPGPUSIM_REF
fi
patch_hash="$(cat "$here/patch.sh" "$here/patches/"* | sha256sum | cut -c1-16)"
stamp="$commit patches-$patch_hash nvcc-$nvcc"
if [ -z "${GPGPUSIM_FORCE:-}" ] && [ -f "$H/BUILT" ] && [ "$(cat "$H/BUILT")" = "$stamp" ] \
    && [ -f "$H/lib/libcudart.so.13" ] && [ -x "$H/cuda/bin/ptxas" ] && [ -x "$H/cuda/bin/cuobjdump" ] \
    && [ -f "$H/cuda/include/cuda_runtime_api.h" ]; then
    log "already built: $stamp ($H/lib)"
    exit 0
fi
rm -f "$H/BUILT"

# --- Python wheels: CUDA 11.8 headers, cuobjdump 13.5 ----------------------------
pip_target() { # dir pkg...
    local dir="$1"; shift
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-warn-script-location --no-deps --target "$dir" "$@"
}
# runtime: cuda_runtime_api.h & co.; nvcc: crt/host_config.h & co.;
# profiler-api: cudaProfiler.h (libcuda/cuda_runtime_api.cc includes it).
# One pip call: a second --target install into the same dir skips "nvidia/".
if [ ! -f "$H/cuda11/nvidia/cuda_runtime/include/cuda_runtime_api.h" ] \
    || [ ! -f "$H/cuda11/nvidia/cuda_nvcc/include/crt/host_config.h" ] \
    || [ ! -f "$H/cuda11/nvidia/cuda_profiler_api/include/cudaProfiler.h" ]; then
    log "installing CUDA $CUDA11_VERSION runtime/nvcc/profiler-api wheels (headers) into $H/cuda11"
    rm -rf "$H/cuda11"
    pip_target "$H/cuda11" "nvidia-cuda-runtime-cu11==$CUDA11_VERSION" "nvidia-cuda-nvcc-cu11==$CUDA11_VERSION" \
        "nvidia-cuda-profiler-api-cu11==$CUDA11_PROFILER_VERSION"
fi
# GPGPU-Sim runs `cuobjdump -lptx` / `-xptx` on the program to get its PTX.
if [ ! -x "$H/cuobjdump/nvidia/cu13/bin/cuobjdump" ]; then
    log "installing cuobjdump $CUOBJDUMP_VERSION into $H/cuobjdump"
    rm -rf "$H/cuobjdump"
    pip_target "$H/cuobjdump" "nvidia-cuda-cuobjdump==$CUOBJDUMP_VERSION"
fi

# --- the CUDA_INSTALL_PATH GPGPU-Sim builds and runs with --------------------------
rm -rf "$H/cuda"
mkdir -p "$H/cuda/bin" "$H/cuda/include"
for t in nvcc ptxas fatbinary nvlink cudafe++ bin2c; do
    [ -e "$cuda13_bin/$t" ] && ln -s "$cuda13_bin/$t" "$H/cuda/bin/$t"
done
ln -s "$H/cuobjdump/nvidia/cu13/bin/cuobjdump" "$H/cuda/bin/cuobjdump"
cp -r "$H/cuda11/nvidia/cuda_runtime/include/." "$H/cuda/include/"
cp -r "$H/cuda11/nvidia/cuda_nvcc/include/." "$H/cuda/include/"
cp -r "$H/cuda11/nvidia/cuda_profiler_api/include/." "$H/cuda/include/"
rm -f "$H/cuda/include/__init__.py"

# --- source -------------------------------------------------------------------
log "fetching $SRC_URL $REF ($commit)"
rm -rf "$H/src"
git clone --quiet --no-checkout "$SRC_URL" "$H/src"
git -C "$H/src" checkout --quiet "$commit"
commit="$(git -C "$H/src" rev-parse HEAD)"
stamp="$commit patches-$patch_hash nvcc-$nvcc"
bash "$here/patch.sh" "$H/src"

# --- build --------------------------------------------------------------------
log "building GPGPU-Sim $commit (make -j$JOBS, nice 19); log: $H/build.log"
start=$(date +%s)
(
    cd "$H/src"
    export CUDA_INSTALL_PATH="$H/cuda"
    # setup_environment reads unset variables; not under set -u.
    set +u
    # shellcheck disable=SC1091
    source setup_environment release >/dev/null
    set -u
    nice -n 19 make -j"$JOBS" >"$H/build.log" 2>&1
) || { log "build failed; last lines of $H/build.log:"; tail -30 "$H/build.log" >&2; exit 1; }
libdir="$(dirname "$(ls "$H"/src/lib/*/cuda-*/release/libcudart.so)")"
[ -f "$libdir/libcudart.so.13" ] || { log "no libcudart.so.13 in $libdir"; exit 1; }
ln -sfn "$libdir" "$H/lib"
echo "$stamp" > "$H/BUILT"
log "built $commit in $(( $(date +%s) - start )) s: $H/lib/libcudart.so.13"
