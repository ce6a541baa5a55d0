#!/usr/bin/env bash
# Install the tools warpforge drives (Verilator, Icarus Verilog, Yosys,
# clang-14 for CUDA kernels, and gcc for the compiled simulation engine) if
# any is missing. Debian/Ubuntu; needs root or sudo.
set -euo pipefail
missing=()
for tool in verilator iverilog yosys clang-14; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
command -v cc >/dev/null 2>&1 || missing+=(gcc)
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "installing: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y verilator iverilog yosys clang-14 gcc
