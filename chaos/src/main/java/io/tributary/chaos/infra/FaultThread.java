package io.tributary.chaos.infra;

import java.time.Duration;

/**
 * Runs a scenario's {@link InfraScenario#inject} on its own thread, then keeps watching for crashed processes
 * until {@link #finish}.
 */
final class FaultThread {

    private final InfraScenario scenario;
    private final FaultContext context;
    private final Thread thread;
    private volatile Exception failure;

    FaultThread(InfraScenario scenario, FaultContext context) {
        this.scenario = scenario;
        this.context = context;
        this.thread = new Thread(this::run, "chaos-infra-faults");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try {
            scenario.inject(context);
        } catch (Exception e) {
            failure = e;
            context.log("scenario " + scenario.name() + " failed: " + e);
        }
        while (!context.stopping()) {
            context.pause(Duration.ofSeconds(1));
        }
    }

    /**
     * Tells the scenario to end and waits up to {@code timeout} for it (its services come back first).
     *
     * @throws IllegalStateException if the scenario failed or did not end in time
     */
    void finish(Duration timeout) {
        context.stop();
        try {
            thread.join(timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) {
            throw new IllegalStateException("Scenario " + scenario.name() + " did not end within " + timeout);
        }
        if (failure != null) {
            throw new IllegalStateException("Scenario " + scenario.name() + " failed: " + failure, failure);
        }
    }
}
