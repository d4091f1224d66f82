#!/usr/bin/env bash
# The chaos suite on demand (docs/chaos.md).
#
#   ./chaos.sh                          soak for 30 minutes from a random seed
#   ./chaos.sh --minutes 10 --seed 42   soak for 10 minutes, rounds with seeds 42, 43, ...
#   ./chaos.sh --quick --seed 42        one run of the CI profile (ChaosQuickIT), e.g. to repeat a failure
#   ./chaos.sh --combined --seed 42     one combined run of the CI profile (CombinedFaultsIT: process + service faults)
#   ./chaos.sh --jar /tmp/t.jar         the processes run that jar (a copy no build rewrites meanwhile)
#   ./chaos.sh --time-scale 3           progress deadlines three times as long (a heavily loaded machine)
#
# Prints every round's faults and checks; ends with "chaos soak: R runs, F faults injected, M mismatches".
# Process logs: chaos/target/chaos/<run>/logs. Needs launcher/target/tributary.jar (built if missing) or --jar.
set -euo pipefail
cd "$(dirname "$0")"

minutes=30
seed=""
scale=1
test=ChaosSoakIT
jar="$PWD/launcher/target/tributary.jar"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --minutes) minutes="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    --quick) test=ChaosQuickIT; shift ;;
    --combined) test=CombinedFaultsIT; shift ;;
    --jar) jar="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"; shift 2 ;;
    --time-scale) scale="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [[ -z "$seed" ]]; then
  seed=$(( (RANDOM << 15 | RANDOM) + 1 ))
fi
echo "chaos: $test, seed $seed, $minutes minutes (soak only)"

if [[ ! -f "$jar" && "$jar" == "$PWD/launcher/target/tributary.jar" ]]; then
  mvn -q -ntp -pl launcher package -DskipTests
elif [[ ! -f "$jar" ]]; then
  echo "no jar at $jar" >&2; exit 2
fi
exec mvn -ntp -pl chaos verify -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test="$test" -Dchaos.excludes=none -Dchaos.excludes.open=none -Dchaos.seed="$seed" -Dchaos.minutes="$minutes" -Dchaos.jar="$jar" -Dchaos.time_scale="$scale"
