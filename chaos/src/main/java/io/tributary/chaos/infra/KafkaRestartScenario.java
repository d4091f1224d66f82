package io.tributary.chaos.infra;

import io.tributary.chaos.run.Phase;
import io.tributary.chaos.services.RestartableKafka;
import java.time.Duration;

/**
 * The Kafka broker restarts mid-snapshot and again mid-streaming: one outage is a graceful stop, the other a
 * {@code kill -9} (which one comes first is drawn from the seed), each down for 1 to 5 s beyond the restart.
 * Clients keep their bootstrap address; the broker keeps its logs.
 */
public final class KafkaRestartScenario implements InfraScenario {

    private final RestartableKafka kafka;

    /** @param kafka the broker the run's environment points at */
    public KafkaRestartScenario(RestartableKafka kafka) {
        this.kafka = kafka;
    }

    @Override
    public String name() {
        return "kafka-restart";
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
            kafka.kill();
        } else {
            kafka.stop();
        }
        context.hold(down);
        kafka.start();
        context.injected((kill ? "kill -9" : "graceful stop of") + " the Kafka broker, down " + down.toMillis()
            + " ms + restart, back after " + (System.nanoTime() - start) / 1_000_000 + " ms", intended, hit);
    }
}
