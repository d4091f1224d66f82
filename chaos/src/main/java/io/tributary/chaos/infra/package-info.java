/**
 * Infrastructure fault scenarios: the pipeline as separate processes under the seeded workload while
 * its services misbehave: the Kafka broker restarts, the storage Postgres restarts, source connections drop or
 * are refused, storage answers slowly, and new sync rules are deployed mid-snapshot. Each scenario
 * ({@link io.tributary.chaos.infra.InfraScenario}) runs through {@link io.tributary.chaos.infra.InfraRun}: the
 * chaos run's {@link io.tributary.chaos.run.RunFlow} with the scenario as its faults, so it ends with the same
 * checks as every chaos run: convergence of buckets and {@code rows} with the source, the
 * checkpoint audit, progress, and no process exiting on its own.
 */
package io.tributary.chaos.infra;
