#!/usr/bin/env bash
# The fifth round's before/after runs: the perf suite in JVMs alternating between two jars (before, after),
# two rounds, with the launcher's JVM options; `uptime` before and after each JVM goes to uptime.txt.
# Usage (from the repository root): before.jar after.jar out-dir [extra JVM options, e.g. --add-modules jdk.incubator.vector]
set -euo pipefail
before=$1; after=$2; out=$3; shift 3
mkdir -p "$out"
for round in 1 2; do
  for which in before after; do
    jar=$before; [ "$which" = after ] && jar=$after
    dir="$out/$which-$round"; mkdir -p "$dir"
    echo "$(date -u +%T) $which-$round start: $(uptime)" >> "$out/uptime.txt"
    java -XX:+UseTransparentHugePages -Xmx8g "$@" -jar "$jar" bench --suite perf --out "$dir" > "$dir/perf-summary.txt" 2>&1
    echo "$(date -u +%T) $which-$round end: $(uptime)" >> "$out/uptime.txt"
  done
done
