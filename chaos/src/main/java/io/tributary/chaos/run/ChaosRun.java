package io.tributary.chaos.run;

import java.util.function.Consumer;

/**
 * One chaos run, start to verdict: the {@link RunFlow} (seeded source, pipeline processes, workload through the
 * snapshot and streaming, quiescence, checks) with process faults: a {@link FaultInjector} executes the settings'
 * {@link FaultPlan} (kill -9 and restart, adding and removing processes) in both phases. The seed is printed
 * first; every failure message and the report carry it.
 */
public final class ChaosRun {

    private final RunSettings settings;
    private final Consumer<String> log;
    private final RunFlow flow;
    private final FaultInjector injector;

    public ChaosRun(RunEnvironment environment, RunSettings settings, Consumer<String> log) {
        this.settings = settings;
        this.log = line -> log.accept("[seed " + settings.seed() + "] " + line);
        this.flow = new RunFlow(environment, settings, this.log);
        this.injector = new FaultInjector(settings.plan(), environment.storage(), environment.source(),
            settings.seed(), this.log);
    }

    /**
     * Runs it (once).
     *
     * @throws ChaosRunException if the run could not be carried out (not a mismatch: those are in the report)
     */
    public RunReport execute() {
        log.accept("chaos run: seed " + settings.seed() + ", " + settings.plan().faults().size() + " planned faults "
            + settings.plan().faults() + ", logs in " + flow.logs());
        try {
            RunReport report = RunReport.of(settings.seed(), flow.execute(injector), injector.injected(),
                injector.skipped());
            log.accept(report.summary());
            return report;
        } catch (Exception e) {
            throw new ChaosRunException("Chaos run with seed " + settings.seed() + " failed (logs in " + flow.logs()
                + "): " + e.getMessage(), e);
        }
    }
}
