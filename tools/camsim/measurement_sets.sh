#!/usr/bin/env bash
# Generates the document sets the engine's rules are measured on (session 33's 39 tuning, fresh, GOOD/BLURRY and
# empty-scene sets, 3,380 frames; docs/capture.md says which seed measured what) into OUTDIR, one directory per set
# named l<seed> (landscape) or p<seed> (portrait), skipping sets already there, and writes OUTDIR/sets.txt: the
# `--set NAME=DIR` arguments for tools/framegen/compare.py. Never add the test seeds (camsim 1, portrait 6) or a
# session's held-out seeds here. About 1 minute per 100-frame set on two cores.
#
# usage: tools/camsim/measurement_sets.sh OUTDIR
#        python3 tools/framegen/compare.py --outlines $(cat OUTDIR/sets.txt) --run before=A --run after=B
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
cd "$(dirname "$0")/../.."
mkdir -p "$out"
landscape=1280x720,1920x1080
portrait=720x1280,1080x1920
jobs=$(nproc)
generate() {   # NAME SEED SIZES [camsim flags...]
  local name=$1 seed=$2 sizes=$3
  shift 3
  if [[ ! -f $out/$name/labels.json ]]; then
    echo "measurement_sets: $name" >&2
    python3 tools/camsim/camsim.py --out "$out/$name" --seed "$seed" --size "$sizes" --jobs "$jobs" "$@" >/dev/null
  fi
  echo "--set $name=$out/$name" >> "$out/sets.txt.new"
}
rm -f "$out/sets.txt.new"
for seed in 2 3 80 85 90 91 93 100 108 110 112 117 119 121; do
  generate "l$seed" "$seed" "$landscape" --count-per-class 10
done
for seed in 5 7 81 86 89 92 94 101 109 111 113 118 120 122 124; do
  generate "p$seed" "$seed" "$portrait" --count-per-class 10
done
generate p82 82 "$portrait" --classes NO_DOCUMENT --count-per-class 30
generate l83 83 "$landscape" --classes NO_DOCUMENT --count-per-class 30
generate l87 87 "$landscape" --classes NO_DOCUMENT --count-per-class 30
generate p88 88 "$portrait" --classes NO_DOCUMENT --count-per-class 30
for seed in 103 106 115; do generate "l$seed" "$seed" "$landscape" --classes GOOD,BLURRY --count-per-class 30; done
for seed in 102 107 116; do generate "p$seed" "$seed" "$portrait" --classes GOOD,BLURRY --count-per-class 30; done
mv "$out/sets.txt.new" "$out/sets.txt"
echo "measurement_sets: $(wc -l < "$out/sets.txt") sets in $out; arguments in $out/sets.txt" >&2
