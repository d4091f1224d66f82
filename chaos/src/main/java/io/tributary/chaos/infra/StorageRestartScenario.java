package io.tributary.chaos.infra;

import io.tributary.chaos.run.Phase;
import io.tributary.chaos.services.RestartablePostgres;
import java.time.Duration;

/**
 * The storage Postgres restarts mid-snapshot and again mid-streaming: one outage is a fast shutdown, the other a
 * {@code kill -9} of the postmaster and its backends (crash recovery on start; which comes first is drawn from the
 * seed), each down for 1 to 5 s beyond the restart. The server keeps its port and data.
 */
public final class StorageRestartScenario implements InfraScenario {

    private final RestartablePostgres storage;

    /** @param storage the server holding the run's storage database */
    public StorageRestartScenario(RestartablePostgres storage) {
        this.storage = storage;
    }

    @Override
    public String name() {
        return "storage-restart";
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
            storage.kill();
        } else {
            storage.stop();
        }
        context.hold(down);
        storage.start();
        context.injected((kill ? "kill -9" : "fast shutdown of") + " the storage Postgres, down " + down.toMillis()
            + " ms + restart, back after " + (System.nanoTime() - start) / 1_000_000 + " ms", intended, hit);
    }
}
