# warpforge: thin wrappers over cargo and the warpforge CLI.
CARGO ?= cargo
WF := target/release/warpforge
BLOCKS = $(shell $(WF) blocks 2>/dev/null | sed -n 's/^\([a-z_0-9]*\) — .*/\1/p')

.PHONY: all setup build demo pmode pmode-paper replay dac trace verilog sim lint test bench fuzz fuzz-sm clean workloads workloads-check workloads-paper correlate

all: build

setup:
	./scripts/setup.sh

build:
	$(CARGO) build --release

# The main job on the built-in example: the tiled sgemm kernel (CUDA C,
# compiled by clang) on the P-mode paper's Table 1 GPU (15 SMs; waves of SM 0), with the
# scoreboard and MSHR table blocks in the loop — under GTO and loose
# round-robin, its statistics, the breakdown chart, a VCD of 1000 cycles
# with its GTKWave save file, and a Konata pipeline log; then the scoreboard
# block alone: its Verilog, a 100k-cycle simulation and a Verilator
# co-simulation.
demo: setup build
	$(WF) run kernels/sgemm.cu --launch kernels/sgemm.toml --config hpca16_pmode --stats out/sgemm_gto.json \
	    --vcd out/sgemm.vcd --vcd-from 2000 --vcd-to 3000 --pipeview out/sgemm.log
	$(WF) run kernels/sgemm.cu --launch kernels/sgemm.toml --config hpca16_pmode --set core.policy=lrr --stats out/sgemm_lrr.json
	$(WF) plot out/sgemm_gto.json out/sgemm_lrr.json -o out/breakdown.svg --title "sgemm: GTO vs loose round-robin"
	$(WF) verilog --block scoreboard -o out/verilog/scoreboard
	$(WF) sim --block scoreboard --cycles 100000 --seed 1 --vcd out/scoreboard.vcd --vcd-to 2000
	$(WF) cosim --block scoreboard --cycles 100000 --seed 1 --work out/cosim

# Warp pre-execution (seed 000) on the kernel suite: baseline vs P-mode under
# the paper's Table 1 preset, its 15-SM GPU (then one SM against the GPU;
# docs/gpu.md) (speedups, long-latency RAW share before/after,
# the breakdown side by side in one SVG), then the sensitivity to P-queue
# entries and rename registers, and the reused results renamed or moved home.
pmode: setup build
	$(WF) sweep --kernels all --configs hpca16_pmode --modes baseline,pmode -o out/pmode.csv --stats-dir out/pmode
	$(WF) compare out/pmode.csv
	$(WF) sweep --kernels all --configs hpca16_pmode --modes baseline,pmode --vary gpu.sms=1,15 -o out/pmode_gpu.csv
	$(WF) compare out/pmode_gpu.csv
	$(WF) plot out/pmode/*.json -o out/pmode.svg --title "Scheduler-cycle breakdown: baseline vs warp pre-execution"
	$(WF) sweep --kernels all --configs hpca16_pmode --modes baseline,pmode \
	    --vary pmode.pqueue_entries=0,4,8,16 --vary pmode.rename_regs=64,128,256 -o out/pmode_sensitivity.csv
	$(WF) compare out/pmode_sensitivity.csv
	$(WF) sweep --kernels all --configs hpca16_pmode --modes baseline,pmode --vary pmode.release=rename,move -o out/pmode_release.csv
	$(WF) compare out/pmode_release.csv

# Seed 000's comparisons on its Type-L applications in workloads/, on the
# 15-SM preset (docs/sm.md, "The paper's comparisons"): baseline,
# DirectPrefetch, P-mode, 2xTLP, 2x memory bandwidth with and without
# P-mode, the CTA limit 1..7, and OptTB with and without P-mode (the
# limit of the fastest of these and the preset's 8). Speedups (Figures 12, 17, 18), stall shares (Figure 13), N-mode L1
# hit-or-merge (Figure 14) and L1-L2 traffic (Figure 15) in
# out/pmode-paper/*/breakdown-SIZE.csv. The medium size fills every SM with
# CTAs for the CTA-limit runs; b+tree, spmv and LPS fill it at their small
# size, kmeans is too slow at a larger one (12 M cycles at 65,536 points).
# About two hours, most of it P-mode on bfs and sgemm.
comma := ,
space := $(subst ,, )
PMODE_2XBW = gpu.icnt_mhz=2800:gpu.l2_mhz=2800:gpu.dram_mhz=1848
PMODE_2XTLP = core.max_warps=96:core.max_threads=3072:core.max_ctas=16:core.registers=65536:core.shared_memory=98304
PMODE_RUNS = hpca16_pmode,hpca16_pmode:mode=prefetch,pmode,hpca16_pmode:$(PMODE_2XTLP),hpca16_pmode:$(PMODE_2XBW),pmode:$(PMODE_2XBW),$(subst $(space),$(comma),$(foreach k,1 2 3 4 5 6 7,hpca16_pmode:core.max_ctas=$(k))),hpca16_pmode:core.max_ctas=best,pmode:core.max_ctas=best
pmode-paper: setup build
	$(WF) workloads --size medium --apps parboil/sgemm,rodinia/bfs,rodinia/nw --modes $(PMODE_RUNS) --out out/pmode-paper/medium
	$(WF) workloads --apps rodinia/b+tree,parboil/spmv,ispass2009/LPS,rodinia/kmeans --modes $(PMODE_RUNS) --out out/pmode-paper/small

# Decoupled affine computation (seed 003; docs/dac.md): the suite,
# baseline against DAC and Figure 16's comparators (CAE, the MTA
# prefetcher) on one SM and on the whole GPU; then the paper's Table 2
# applications that are in workloads/ (25 of 29) on the 15-SM preset:
# speedup of DAC, CAE and MTA (Figure 16) in out/dac/speedup-small.csv;
# warp instructions and the affine share (Figures 17, 18), DAC's decoupled
# loads (Figure 19) and MTA's coverage (Figure 20) in out/dac/dac-small.csv.
# A few hours, most of it CP, LIB and STO.
DAC_APPS = ispass2009/CP,ispass2009/STO,ispass2009/AES,parboil/mri-q,parboil/tpacf,rodinia/backprop,rodinia/srad_v1,rodinia/hotspot,rodinia/pathfinder,cuda-samples/BlackScholes,ispass2009/LIB,parboil/sgemm,parboil/stencil,parboil/histo,parboil/lbm,parboil/spmv,rodinia/b+tree,rodinia/lud,rodinia/srad_v2,rodinia/streamcluster,rodinia/kmeans,rodinia/bfs,rodinia/cfd,cuda-samples/scalarProd,cuda-samples/convolutionSeparable
dac: setup build
	$(WF) sweep --kernels all --configs isca17_dac --modes baseline,dac,cae,mta --vary gpu.sms=1,15 -o out/dac.csv
	$(WF) compare out/dac.csv
	$(WF) workloads --apps $(DAC_APPS) --modes isca17_dac,isca17_dac:mode=dac,isca17_dac:mode=cae,isca17_dac:mode=mta --out out/dac

# Replay with hazard avoidance (seed 004; docs/sm.md): the suite stalling
# and replaying under every MSHR tracker, then the thesis's Table 4.1
# applications that are in workloads/ with a small input, speedup over
# stalling per application: replay (Figure 5.1), the trackers and
# predictors (Figure 7.8), the credit tracker without replay (Figure 7.13),
# and stalling with replay's warp-buffer retention (Figure 7.1).
REPLAY_APPS = AES,CP,LIB,LPS,ispass2009/NN,RAY,STO,backprop,bfs,cfd,hotspot,kmeans,lud,rodinia/nn,nw,srad_v1,streamcluster,matrixMul,transpose
REPLAY_RUNS = ubc12_replay,replay,replay:replay.tracker=naive,replay:replay.tracker=credit,replay:replay.tracker=credit:replay.predictor=always_miss,replay:replay.tracker=credit:replay.predictor=counter,replay:replay.tracker=credit:replay.predictor=oracle,replay:replay.squash=false:replay.tracker=credit:replay.predictor=always_miss,replay:replay.squash=false:replay.retain=true
replay: setup build
	$(WF) sweep --kernels all --configs ubc12_replay --modes baseline -o out/replay-stall.csv --stats-dir out/replay/stall
	$(WF) sweep --kernels all --configs ubc12_replay --modes replay --vary replay.tracker=none,naive,credit -o out/replay-replay.csv --stats-dir out/replay/replay
	(cat out/replay-stall.csv; tail -n +2 out/replay-replay.csv) > out/replay.csv
	$(WF) compare out/replay.csv
	$(WF) plot out/replay/stall/*.json out/replay/replay/*.json -o out/replay.svg --title "Scheduler-cycle breakdown: stalling vs replay and hazard avoidance"
	$(WF) workloads --apps $(REPLAY_APPS) --modes $(REPLAY_RUNS) --out out/replay-workloads

# Warp-aware trace scheduling (seed 002; docs/tsched.md) on Rodinia's
# applications in workloads/, each trained on its small input (the
# functional model counts its branches): every block list-scheduled as
# ptxas would (the base), the pass on top, nvcc's order as written — at the
# small size, and at the papers' sizes (a training input other than the
# measured one, as the paper's); then warp pre-execution on, small inputs.
# About an hour and a half, most of it P-mode.
TRACE_APPS = backprop,bfs,b+tree,cfd,gaussian,hotspot,hotspot3D,kmeans,lavaMD,lud,rodinia/nn,nw,particlefilter_float,particlefilter_naive,pathfinder,srad_v1,srad_v2,streamcluster
TRACE_PAPER_APPS = backprop,bfs,b+tree,gaussian,hotspot,lud,rodinia/nn,nw,particlefilter_float,particlefilter_naive,pathfinder,srad_v1,srad_v2
TRACE_PMODE_APPS = backprop,bfs,b+tree,gaussian,hotspot,lud,rodinia/nn,nw,particlefilter_naive,pathfinder,srad_v1,srad_v2
TRACE_RUNS = hpca16_pmode:trace=blocks,hpca16_pmode:trace,hpca16_pmode
trace: setup build
	$(WF) workloads --apps $(TRACE_APPS) --modes $(TRACE_RUNS) --out out/trace
	$(WF) workloads --apps $(TRACE_PAPER_APPS) --size paper --train-size small --modes $(TRACE_RUNS) --out out/trace
	$(WF) workloads --apps $(TRACE_PMODE_APPS) --modes pmode:trace=blocks,pmode:trace,pmode --out out/trace-pmode

# The benchmark applications of workloads/ (docs/workloads.md): built by
# nvcc; run unmodified through `warpforge exec` at the small size on the
# functional model and every preset, each output checked (P-mode, 20-60x
# slower for now, with `warpforge workloads --modes pmode`); and at the
# papers' sizes on the P-mode preset, baseline and P-mode (hours).
workloads: setup build
	$(WF) workloads --build-only

workloads-check: setup build
	$(WF) workloads --modes functional,hpca16_pmode,isca17_dac,ubc12_replay

workloads-paper: setup build
	$(WF) workloads --size paper --modes hpca16_pmode,pmode

verilog: build
	@for b in $(BLOCKS); do $(WF) verilog --block $$b -o out/verilog/$$b || exit 1; done

sim: build
	$(WF) sim --block $(or $(BLOCK),scoreboard) --cycles 100000 --seed 1 --vcd out/$(or $(BLOCK),scoreboard).vcd --vcd-to 2000

# Verilator -Wall (zero warnings), iverilog, yosys synth (no latches) on every block.
lint: setup build
	$(WF) lint --block all --work out/lint

test: setup
	$(CARGO) test --workspace

# The whole GPU against GPGPU-Sim (docs/gpu.md): build GPGPU-Sim (branch
# dev, patched for CUDA 13; GPGPUSIM_SRC=<git repository> to clone from
# elsewhere than GitHub), then run each application on GPGPU-Sim's GTX 480
# and on the gtx480 preset: cycles side by side, their ratio, the IPC
# correlation and the simulation rates. About 20 minutes, most of it
# GPGPU-Sim.
CORRELATE_APPS = ispass2009/AES,ispass2009/LPS,ispass2009/NN,ispass2009/NQU,parboil/cutcp,parboil/histo,parboil/mri-gridding,parboil/mri-q,parboil/sgemm,parboil/spmv,parboil/stencil,parboil/tpacf,rodinia/b+tree,rodinia/backprop,rodinia/bfs,rodinia/gaussian,rodinia/hotspot,rodinia/hotspot3D,rodinia/kmeans,rodinia/lud,rodinia/nn,rodinia/nw,rodinia/particlefilter_naive,rodinia/pathfinder,rodinia/srad_v1,rodinia/srad_v2,rodinia/streamcluster
correlate: setup build
	scripts/gpgpusim/build.sh
	$(WF) workloads --apps $(CORRELATE_APPS) --modes gpgpusim,gtx480 --out out/correlate

# Speed (netlist vs reference vs Verilator -O3), synthesis of the composed
# units, the replay tracker comparison, the functional model's throughput
# (thread instructions per second on sgemm and BFS), and FPGA area against
# hand-written references (verif/fixtures/area).
bench: setup
	$(CARGO) bench -p kernel --bench functional
	$(CARGO) bench -p verif --bench sim_speed
	$(CARGO) bench -p verif --bench area
	@if [ -f verif/benches/replay_traffic.rs ]; then $(CARGO) bench -p verif --bench replay_traffic; fi
	$(CARGO) bench -p sm --bench sm_speed

# Fuzzing (proptest, release mode): mutated PTX and launch files through
# the parser, allocator and functional model; mutated configurations and
# --set overrides, stimulus files and VCDs through their readers. CASES per
# target; `make test` runs a short slice of each.
CASES ?= 20000
fuzz: setup
	WARPFORGE_FUZZ_CASES=$(CASES) $(CARGO) test --release -p kernel --test fuzz
	WARPFORGE_FUZZ_CASES=$(CASES) $(CARGO) test --release --test fuzz_inputs

# The random-kernel differential test on many seeds (release mode):
# SEEDS kernels from FIRST, each on every preset and policy. A failure prints
# the seed, the configuration and the kernel's files.
SEEDS ?= 500
FIRST ?= 0
fuzz-sm: setup
	WARPFORGE_RANDOM_SEEDS=$(SEEDS) WARPFORGE_RANDOM_FIRST=$(FIRST) $(CARGO) test --release -p sm --test random_kernels -- --nocapture

clean:
	$(CARGO) clean
	rm -rf out
