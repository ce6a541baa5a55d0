# warpforge: thin wrappers over cargo and the warpforge CLI.
CARGO ?= cargo
WF := target/release/warpforge
BLOCKS = $(shell $(WF) blocks 2>/dev/null | sed -n 's/^\([a-z_0-9]*\) — .*/\1/p')

.PHONY: all setup build demo verilog sim lint test bench clean

all: build

setup:
	./scripts/setup.sh

build:
	$(CARGO) build --release

# The main job on the built-in example: Verilog, a 100k-cycle simulation with
# a VCD of its first 2000 cycles and a GTKWave save file, and a Verilator
# co-simulation of the same block.
demo: setup build
	$(WF) blocks --block scoreboard
	$(WF) verilog --block scoreboard -o out/verilog/scoreboard
	$(WF) sim --block scoreboard --cycles 100000 --seed 1 --vcd out/scoreboard.vcd --vcd-to 2000
	$(WF) cosim --block scoreboard --cycles 100000 --seed 1 --work out/cosim

verilog: build
	@for b in $(BLOCKS); do $(WF) verilog --block $$b -o out/verilog/$$b || exit 1; done

sim: build
	$(WF) sim --block $(or $(BLOCK),scoreboard) --cycles 100000 --seed 1 --vcd out/$(or $(BLOCK),scoreboard).vcd --vcd-to 2000

# Verilator -Wall (zero warnings), iverilog, yosys synth (no latches) on every block.
lint: setup build
	$(WF) lint --block all --work out/lint

test: setup
	$(CARGO) test --workspace

# Speed (netlist vs reference vs Verilator -O3), synthesis of the composed
# units, the replay tracker comparison, the functional model's throughput
# (thread instructions per second on sgemm and BFS), and FPGA area against
# hand-written references (verif/fixtures/area).
bench: setup
	$(CARGO) bench -p kernel --bench functional
	$(CARGO) bench -p verif --bench sim_speed
	$(CARGO) bench -p verif --bench area
	@if [ -f verif/benches/replay_traffic.rs ]; then $(CARGO) bench -p verif --bench replay_traffic; fi

clean:
	$(CARGO) clean
	rm -rf out
