#!/usr/bin/env bash
# Runs the benchmark harness (io.tributary.bench.Bench) on embedded Kafka and Postgres; prints one markdown table
# and writes it to bench-results/<timestamp>.md. Needs the other modules installed in ~/.m2.
#   ./bench.sh                       every scenario at default sizes (200k rows, workers 1,2,4): the quick profile
#   ./bench.sh --rows 1000000        the 1M-row profile
#   ./bench.sh --only A,bloated      a subset (B A C DBZ R M E L D S, or their names; see --help)
#   ./bench.sh --repeat 3            the median of 3 runs per configuration
#   ./bench.sh --help
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
mvn -o -q -pl bench compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >&2
exec java ${TRIBUTARY_BENCH_JAVA_OPTS:-} -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
    io.tributary.bench.Bench "$@"
