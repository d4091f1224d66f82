/**
 * The convergence and chaos suite: docs/design.md's invariants proven end to end, with the pipeline
 * running as separate {@code java -jar tributary.jar} processes under a seeded workload and process faults.
 *
 * <h2>Packages</h2>
 * <ul>
 *   <li>{@code harness}: the pipeline as child processes, one per role instance, that can be started, killed
 *       ({@code kill -9}), stopped and restarted ({@link io.tributary.chaos.harness.ProcessPipeline});</li>
 *   <li>{@code workload}: the source schema, its sync rules and the seeded concurrent writers
 *       ({@link io.tributary.chaos.workload.Workload});</li>
 *   <li>{@code check}: the checkers, each reporting {@link io.tributary.chaos.check.Mismatch}es with key,
 *       expected and actual;</li>
 *   <li>{@code run}: one chaos run (schema, pipeline, workload, faults, quiescence, checks) and the soak loop;</li>
 *   <li>{@code services}, {@code infra}: Kafka and storage restarts, connection faults.</li>
 * </ul>
 * Every run prints its seed first and in every failure, so {@code ./chaos.sh --seed N} repeats its choices
 * (thread interleavings and timings still vary).
 */
package io.tributary.chaos;
