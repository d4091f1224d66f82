package io.tributary.chaos.infra;

import io.tributary.chaos.run.Phase;
import io.tributary.chaos.services.RestartableKafka;
import io.tributary.chaos.services.RestartablePostgres;
import io.tributary.chaos.services.RestartableService;
import java.time.Duration;

/**
 * A service restarts mid-snapshot and again mid-streaming: one outage is its clean shutdown, the other a
 * {@code kill -9} (which one comes first is drawn from the seed), each down for 1 to 5 s beyond the restart.
 * Clients keep the service's address; it keeps its data.
 */
public final class RestartScenario implements InfraScenario {

    private final String name;
    private final RestartableService service;
    private final String what;
    private final String cleanStop;

    private RestartScenario(String name, RestartableService service, String what, String cleanStop) {
        this.name = name;
        this.service = service;
        this.what = what;
        this.cleanStop = cleanStop;
    }

    /** {@code kafka-restart}: the broker the run's environment points at, stopped gracefully or killed. */
    public static RestartScenario kafka(RestartableKafka kafka) {
        return new RestartScenario("kafka-restart", kafka, "the Kafka broker", "graceful stop of");
    }

    /**
     * {@code storage-restart}: the server holding the run's storage database, with a fast shutdown or a
     * {@code kill -9} of the postmaster and its backends (crash recovery on start).
     */
    public static RestartScenario storage(RestartablePostgres storage) {
        return new RestartScenario("storage-restart", storage, "the storage Postgres", "fast shutdown of");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void inject(FaultContext context) {
        boolean killFirst = context.random().nextBoolean();
        if (context.awaitSnapshotRunning(context.between(Duration.ofSeconds(1), Duration.ofSeconds(4)))) {
            restart(context, Phase.SNAPSHOT, killFirst);
        }
        if (context.awaitStreaming(context.between(Duration.ofSeconds(1), Duration.ofSeconds(5)))) {
            restart(context, Phase.STREAMING, !killFirst);
        }
    }

    private void restart(FaultContext context, Phase intended, boolean kill) {
        Phase hit = context.phase();
        Duration down = context.between(Duration.ofSeconds(1), Duration.ofSeconds(5));
        long start = System.nanoTime();
        if (kill) {
            service.kill();
        } else {
            service.stop();
        }
        context.hold(down);
        service.start();
        context.injected((kill ? "kill -9" : cleanStop) + " " + what + ", down " + down.toMillis()
            + " ms + restart, back after " + (System.nanoTime() - start) / 1_000_000 + " ms", intended, hit);
    }
}
