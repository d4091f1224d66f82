package io.tributary.chaos.infra;

import io.tributary.chaos.run.CombinedFaults;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.chaos.run.RunFlow;
import io.tributary.chaos.run.RunOutcome;
import io.tributary.chaos.run.RunSettings;
import java.util.List;
import java.util.function.Consumer;

/**
 * One infrastructure scenario run, start to verdict: the {@link RunFlow} a chaos run has (seeded source, pipeline
 * processes, workload through the snapshot and streaming, quiescence, checks of the newest group against its own
 * rules) with the scenario's service faults instead of process kills. The scenario runs on the fault thread, which
 * also restarts processes that exit on their own and records them as crashes; at the end of streaming it is told to
 * stop and brings its services back before the writes stop. The pipeline's processes reach the services as the
 * scenario says; everything else reaches them directly. A {@link SnapshotHold} keeps the snapshot phase open until
 * the scenario's snapshot faults have fired.
 */
public final class InfraRun {

    private final RunSettings settings;
    private final InfraScenario scenario;
    private final Consumer<String> log;
    private final RunFlow flow;
    private final FaultThread faults;
    private final SnapshotHold hold;

    public InfraRun(RunEnvironment environment, RunSettings settings, InfraScenario scenario, Consumer<String> log) {
        this.settings = settings;
        this.scenario = scenario;
        this.log = line -> log.accept("[" + scenario.name() + " seed " + settings.seed() + "] " + line);
        this.flow = new RunFlow(environment, settings, this.log);
        this.hold = new SnapshotHold(1, this.log);
        this.faults = new FaultThread(scenario, hold, environment.storage(), environment.directory(),
            settings.seed(), this.log);
    }

    /**
     * Runs it (once).
     *
     * @throws InfraRunException if the run could not be carried out (mismatches are in the report)
     */
    public InfraReport execute() {
        log.accept("infra scenario " + scenario.name() + ": seed " + settings.seed() + ", logs in " + flow.logs());
        try (hold) {
            RunOutcome outcome = flow.execute(new CombinedFaults(List.of(faults, hold)));
            InfraReport report = new InfraReport(scenario.name(), settings.seed(), outcome.took(), faults.faults(),
                outcome.crashes(), outcome.workload(), outcome.writes(), outcome.checkpoints(), outcome.mismatches(),
                outcome.logs());
            log.accept(report.summary());
            return report;
        } catch (Exception e) {
            throw new InfraRunException("Infra scenario " + scenario.name() + " with seed " + settings.seed()
                + " failed (logs in " + flow.logs() + "): " + e.getMessage(), e);
        }
    }
}
