#!/usr/bin/env bash
# Verilog identity check: emit the Verilog of every block (`warpforge blocks`)
# at its default parameters and compare it byte for byte with a reference.
#
#   scripts/verilog_identity.sh record DIR   # write the reference (e.g. from main)
#   scripts/verilog_identity.sh check DIR    # compare with it; exit 1 on any difference
#
# DIR holds one folder per block (the files `warpforge verilog` writes) and
# `blocks.txt` (the `warpforge blocks` report, parameters and storage); the
# report is compared too, and a difference there is listed separately because
# a changed parameter range or document line is not a hardware change.
# Extra parameter sets (EXTRA below) guard non-default elaboration as well.
# WF overrides the binary (default: target/release/warpforge, built first).
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
ref=${2:-}
if [[ -z "$mode" || -z "$ref" || ( "$mode" != record && "$mode" != check ) ]]; then
    echo "usage: $0 record|check DIR" >&2
    exit 2
fi

if [[ -z "${WF:-}" ]]; then
    cargo build --release --quiet
    WF=target/release/warpforge
fi

# A few non-default parameter sets: `name|block|param ...`.
EXTRA=(
    "scoreboard_small|scoreboard|warps=6 regs=20 issue_ports=3 wb_ports=1 srcs=3"
    "pqueue_small|pqueue|warps=5 entries=3 issue_ports=1"
    "pmode_unit_small|pmode_unit|warps=4 regs=16 rename_regs=16 entries=4 depth=4 lanes=8"
    "aeu_small|aeu|warps=6 ctas=3"
    "dac_unit_small|dac_unit|warps=8 ctas=2 atq_entries=4 pwaq_entries=16 pwpq_entries=16"
    "affine_simt_stack_small|affine_simt_stack|warps=5 depth=3 pc_bits=16"
    "warp_buffer_small|warp_buffer|slots=4 simt_width=6"
    "mshr_table_small|mshr_table|entries=5 merge_limit=3 line_bits=12 id_bits=4"
    "mshr_predictor_small|mshr_predictor|mode=2 entries=16 counter_bits=3 pc_bits=12"
    "replay_unit_small|replay_unit|warps=4 slots=4 simt_width=8 mshrs=8 tracker=1 pred_mode=2 pred_entries=16"
)

emit() { # out_dir
    local out=$1
    rm -rf "$out"
    mkdir -p "$out"
    "$WF" blocks > "$out/blocks.txt"
    local b
    for b in $("$WF" blocks | sed -n 's/^\([a-z_0-9]*\) — .*/\1/p'); do
        "$WF" verilog --block "$b" -o "$out/$b" > /dev/null
    done
    local e name block params args p
    for e in "${EXTRA[@]}"; do
        IFS='|' read -r name block params <<< "$e"
        args=()
        for p in $params; do args+=(--param "$p"); done
        if ! "$WF" verilog --block "$block" "${args[@]}" -o "$out/extra/$name" > /dev/null 2> "$out/extra_$name.err"; then
            echo "  (extra set $name does not elaborate: $(head -1 "$out/extra_$name.err"))"
        fi
        rm -f "$out/extra_$name.err"
    done
}

if [[ $mode == record ]]; then
    emit "$ref"
    echo "recorded $(find "$ref" -name '*.v' | wc -l) Verilog files of $(ls -d "$ref"/*/ | grep -vc extra/) blocks in $ref"
    exit 0
fi

new=$(mktemp -d "${TMPDIR:-/tmp}/wf-identity.XXXXXX")
trap 'rm -rf "$new"' EXIT
emit "$new"
status=0
# Default parameters: the contract.
if diff -r -q --exclude=extra --exclude=blocks.txt "$ref" "$new" > "$new.diff" 2>&1; then
    echo "Verilog at default parameters: identical ($(find "$ref" -path "$ref/extra" -prune -o -name '*.v' -print | wc -l) files)"
else
    echo "Verilog at default parameters: DIFFERENT"
    sed 's/^/  /' "$new.diff"
    status=1
fi
if diff -r -q "$ref/extra" "$new/extra" > "$new.diff" 2>&1; then
    echo "Verilog of the extra parameter sets: identical"
else
    echo "Verilog of the extra parameter sets: different (explain or fix)"
    sed 's/^/  /' "$new.diff"
    status=1
fi
if diff -q "$ref/blocks.txt" "$new/blocks.txt" > /dev/null; then
    echo "blocks report: identical"
else
    echo "blocks report: different (parameters/doc, not hardware):"
    diff "$ref/blocks.txt" "$new/blocks.txt" | sed 's/^/  /' | head -40
fi
rm -f "$new.diff"
exit $status
