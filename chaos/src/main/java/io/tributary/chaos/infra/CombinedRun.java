package io.tributary.chaos.infra;

import io.tributary.chaos.run.CombinedFaults;
import io.tributary.chaos.run.FaultInjector;
import io.tributary.chaos.run.InjectedFault;
import io.tributary.chaos.run.RunEnvironment;
import io.tributary.chaos.run.RunFaults;
import io.tributary.chaos.run.RunFlow;
import io.tributary.chaos.run.RunOutcome;
import io.tributary.chaos.run.RunSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The combined run: one {@link RunFlow} with process faults (a {@link FaultInjector} executing the settings'
 * {@link io.tributary.chaos.run.FaultPlan}: kill -9 of every role, a process added and one removed) and several
 * infrastructure scenarios (each on its own {@link FaultThread}) at the same time, composed as
 * {@link CombinedFaults}: the faults of every source interleave at the points each draws from the seed, in both
 * phases, and the run ends with the same checks as any run. The processes reach the services through every
 * scenario's settings (e.g. the source through one proxy, storage through another). Each scenario draws from its
 * own seed derived from the run's, so two scenarios of the same kind do not fire in lockstep. A
 * {@link SnapshotHold} keeps the snapshot phase open until every scenario's snapshot faults have fired.
 */
public final class CombinedRun {

    /** The name of the run in reports. */
    public static final String NAME = "combined";

    private final RunSettings settings;
    private final List<InfraScenario> scenarios;
    private final Consumer<String> log;
    private final RunFlow flow;
    private final FaultInjector processes;
    private final List<FaultThread> services = new ArrayList<>();
    private final SnapshotHold hold;

    /**
     * @param settings  the run, its {@link RunSettings#plan()} being the process faults
     * @param scenarios the service faults; the caller closes them
     */
    public CombinedRun(RunEnvironment environment, RunSettings settings, List<InfraScenario> scenarios,
                       Consumer<String> log) {
        this.settings = settings;
        this.scenarios = List.copyOf(scenarios);
        this.log = line -> log.accept("[" + NAME + " seed " + settings.seed() + "] " + line);
        this.flow = new RunFlow(environment, settings, this.log);
        this.processes = new FaultInjector(settings.plan(), environment.storage(), environment.source(),
            settings.seed(), this.log);
        this.hold = new SnapshotHold(this.scenarios.size(), this.log);
        for (int i = 0; i < this.scenarios.size(); i++) {
            InfraScenario scenario = this.scenarios.get(i);
            String tag = scenario.name();
            services.add(new FaultThread(scenario, hold, environment.storage(), environment.directory(),
                settings.seed() * 1_000_003L + i + 1, line -> this.log.accept("[" + tag + "] " + line)));
        }
    }

    /**
     * Runs it (once).
     *
     * @throws InfraRunException if the run could not be carried out (mismatches are in the report)
     */
    public CombinedReport execute() {
        log.accept("combined run: seed " + settings.seed() + ", " + settings.plan().faults().size()
            + " planned process faults " + settings.plan().faults() + ", service scenarios "
            + scenarios.stream().map(InfraScenario::name).toList() + ", logs in " + flow.logs());
        List<RunFaults> parts = new ArrayList<>();
        parts.add(processes);
        parts.addAll(services);
        parts.add(hold);
        try (hold) {
            RunOutcome outcome = flow.execute(new CombinedFaults(parts));
            CombinedReport report = report(outcome);
            log.accept(report.run().summary());
            return report;
        } catch (Exception e) {
            throw new InfraRunException("Combined run with seed " + settings.seed() + " failed (logs in "
                + flow.logs() + "): " + e.getMessage(), e);
        }
    }

    private CombinedReport report(RunOutcome outcome) {
        Map<String, List<InfraFault>> byScenario = new LinkedHashMap<>();
        List<InfraFault> all = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            String name = scenarios.get(i).name();
            List<InfraFault> faults = services.get(i).faults();
            byScenario.put(name, faults);
            faults.forEach(f -> all.add(new InfraFault(f.at(), f.intended(), f.hit(), "[" + name + "] " + f.what())));
        }
        List<InjectedFault> injected = processes.injected();
        injected.stream().filter(InjectedFault::applied).forEach(f -> all.add(new InfraFault(f.at(),
            f.fault().phase(), f.hit(), "[processes] " + f.outcome())));
        all.sort(Comparator.comparing(InfraFault::at));
        InfraReport run = new InfraReport(NAME, settings.seed(), outcome.took(), all, outcome.crashes(),
            outcome.workload(), outcome.writes(), outcome.checkpoints(), outcome.mismatches(), outcome.logs());
        return new CombinedReport(run, injected, processes.skipped(), byScenario);
    }
}
