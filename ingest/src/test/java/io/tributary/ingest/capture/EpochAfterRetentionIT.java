package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.kafka.TopicRetention;
import io.tributary.topics.messages.Barrier;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/**
 * Epochs keep increasing after retention removed every barrier from {@code changes} (the storage writers ignore a
 * barrier whose epoch they sealed already, so restarting at 1 would stall checkpoints until the epochs caught up).
 * The removal is done the way retention does it: the log start of every partition moves to its end.
 */
@RealServices
class EpochAfterRetentionIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void epochsContinueAfterRetentionRemovedEveryBarrier(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE kv (id int PRIMARY KEY, v int)");
            IngestConfig config = f.config("kv");
            IngestService first = f.start(config);
            f.transaction("INSERT INTO kv VALUES (1, 1)");
            f.changes().awaitUntil(WAIT, got -> newestEpoch(got) >= 3);
            first.close();
            ChangesTopic written = f.changes();
            for (int i = 0; i < 20; i++) {
                written.poll();
            }
            long sealedBefore = newestEpoch(written.poll());

            try (Admin admin = Admin.create(services.kafkaProperties())) {
                TopicRetention.removeEveryRecord(admin, f.topics.changes());
            }

            f.start(config);
            f.transaction("INSERT INTO kv VALUES (2, 2)");
            List<Received> after = f.changes().awaitUntil(WAIT, got -> got.stream().anyMatch(Received::isBarrier));
            long firstAfter = after.stream().filter(Received::isBarrier).mapToLong(r -> r.barrier().epoch()).min()
                .orElseThrow();
            assertThat(firstAfter).as("first epoch after retention removed every barrier up to epoch %d",
                sealedBefore).isGreaterThanOrEqualTo(sealedBefore);
            f.changes().awaitUntil(WAIT, got -> newestEpoch(got) > sealedBefore);
        }
    }

    private static long newestEpoch(List<Received> got) {
        return got.stream().filter(Received::isBarrier).map(Received::barrier).mapToLong(Barrier::epoch).max()
            .orElse(-1);
    }
}
