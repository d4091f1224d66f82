#!/usr/bin/env bash
# Runs the benchmark harness (io.tributary.bench.Bench) on embedded Kafka and Postgres; prints one markdown table
# and writes it to bench-results/<timestamp>.md, with SVG charts of it beside it. Needs the other modules installed
# in ~/.m2.
#   ./bench.sh                       every scenario at default sizes (200k rows, workers 1,2,4): the quick profile
#   ./bench.sh --rows 1000000        the 1M-row profile
#   ./bench.sh --only A,bloated      a subset (B A C DBZ R M P E L D S, or their names; see --help)
#   ./bench.sh --repeat 3            the median of 3 runs per configuration
#   ./bench.sh --help
# The bench runs on a private copy of the Tributary jars and classes taken at start, so a module installed into
# ~/.m2 while it runs (other work in the same tree) cannot swap classes under it.
#   BENCH_MODULE_JARS=DIR ./bench.sh ...   takes each Tributary module jar that DIR holds (tributary-<module>-*.jar,
#                                         e.g. copied from another build's <module>/target) instead of the installed
#                                         one: the same bench against another build's pipeline, for same-run A/Bs
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
mvn -q -ntp -pl bench compile dependency:build-classpath -Dmdep.outputFile=target/classpath.txt >&2
snapshot="$(mktemp -d "${TMPDIR:-/tmp}/tributary-bench-jars.XXXXXX")"
trap 'rm -rf "$snapshot"' EXIT
cp -r bench/target/classes "$snapshot/classes"
classpath="$snapshot/classes"
IFS=":" read -r -a jars < bench/target/classpath.txt || true  # no newline at the end: read returns 1
for jar in "${jars[@]}"; do
    if [[ "$jar" == */io/tributary/* ]]; then
        if [[ -n "${BENCH_MODULE_JARS:-}" && -f "$BENCH_MODULE_JARS/$(basename "$jar")" ]]; then
            jar="$BENCH_MODULE_JARS/$(basename "$jar")"
        fi
        cp "$jar" "$snapshot/"
        jar="$snapshot/$(basename "$jar")"
    fi
    classpath="$classpath:$jar"
done
# Compiler threads stay for the JVM's life: the JIT column sums the live C1/C2 threads' CPU from /proc, and a thread
# the JVM retires when its queue empties (several per compiler on a larger host) would take its CPU out of that sum.
java -XX:-UseDynamicNumberOfCompilerThreads ${BENCH_JAVA_OPTS:-} -cp "$classpath" io.tributary.bench.Bench "$@"
