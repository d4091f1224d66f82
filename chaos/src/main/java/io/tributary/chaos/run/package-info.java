/**
 * One chaos run and the soak loop. {@link io.tributary.chaos.run.RunFlow} is the flow every run shares: it creates
 * the source schema, starts the pipeline's processes, runs the workload through the snapshot and streaming while
 * a {@link io.tributary.chaos.run.RunFaults} does its faults, then quiesces and checks, giving a
 * {@link io.tributary.chaos.run.RunOutcome}. {@link io.tributary.chaos.run.ChaosRun} is the flow with process
 * faults: a {@link io.tributary.chaos.run.FaultInjector} executes a seeded {@link io.tributary.chaos.run.FaultPlan}
 * (kill -9 and restart, adding and removing processes); the result is a {@link io.tributary.chaos.run.RunReport}.
 * {@link io.tributary.chaos.run.Soak} repeats runs until time is up.
 */
package io.tributary.chaos.run;
