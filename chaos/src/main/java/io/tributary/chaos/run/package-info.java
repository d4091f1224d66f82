/**
 * One chaos run and the soak loop. {@link io.tributary.chaos.run.ChaosRun} creates the source schema, starts the
 * pipeline's processes, runs the workload through the snapshot and streaming while a
 * {@link io.tributary.chaos.run.FaultInjector} executes a seeded {@link io.tributary.chaos.run.FaultPlan} (kill -9
 * and restart, adding and removing processes), then quiesces and checks; the result is a
 * {@link io.tributary.chaos.run.RunReport}. {@link io.tributary.chaos.run.Soak} repeats runs until time is up.
 */
package io.tributary.chaos.run;
