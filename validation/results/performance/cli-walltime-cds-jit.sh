#!/usr/bin/env bash
cd "$(dirname "$0")/../../.."
A="account epsilon --accountant pld --noise-multiplier 1 --sampling-rate 0.01 --steps 10000 --delta 1e-5"
C="account calibrate --epsilon 1 --delta 1e-5 --sampling-rate 0.0098 --steps 3060"
J="-XX:SharedArchiveFile=target/dpopt.jsa -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off"
run() { /usr/bin/time -f "%e/%U/%S" "$@" 2>&1 >/dev/null | tail -1 | awk -F/ '{printf "%s,%.2f", $1, $2+$3}'; }
for r in $(seq 1 $1); do
  for cmd in A C; do
    args=${!cmd}
    echo "$r,$cmd,$(run java -Xmx8g -jar target/dpopt.jar $args),$(run java -Xmx8g $J -jar target/dpopt.jar $args),$(run java -Xmx8g -XX:TieredStopAtLevel=1 -jar target/dpopt.jar $args),$(run java -Xmx8g $J -XX:TieredStopAtLevel=1 -jar target/dpopt.jar $args),$(run java -Xmx8g -Xshare:off -jar target/dpopt.jar $args)"
  done
done
