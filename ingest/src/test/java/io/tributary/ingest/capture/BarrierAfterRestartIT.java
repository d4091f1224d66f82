package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.Lsn;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A restarted ingest's barriers cover every change the previous run committed to {@code changes}, also those it
 * committed after its last barrier. The first run writes one barrier (at its first transaction) and then, with
 * barriers an hour apart, a second transaction without one. The second run reads batches of two records and its
 * first barrier is due at once, on its first batch, which mostly holds a heartbeat or the start of a third
 * transaction but no transaction's end. That barrier must not carry the first run's older barrier position: a
 * checkpoint at it would hold the second transaction while claiming a source state before it.
 * {@code BarrierRecoveryIT} pins the same rule without the engine's timing.
 */
@RealServices
class BarrierAfterRestartIT {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @Test
    void theFirstBarrierAfterARestartCoversTheChangesWrittenAfterThePreviousRunsLastBarrier(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE kv (id int PRIMARY KEY, v int)");
            IngestConfig config = f.config("kv").withBarrierInterval(Duration.ofHours(1))
                .withMaxBatchSize(2);
            ChangesTopic changes = f.changes();
            IngestService first = f.start(config);
            f.transaction("INSERT INTO kv VALUES (1, 1)");
            changes.awaitUntil(WAIT, got -> barriers(got).size() >= IngestFixture.PARTITIONS);
            f.transaction("INSERT INTO kv VALUES (2, 2)");
            List<Received> written = changes.awaitUntil(WAIT, got -> ChangeCaptureIT.changeEvents(got).size() >= 2);
            first.close();
            long epochsBefore = barriers(written).stream().mapToLong(r -> r.barrier().epoch()).max().orElseThrow();
            assertThat(epochsBefore).as("the first run wrote one barrier, before the second transaction").isEqualTo(1);

            f.start(config);
            f.transaction("INSERT INTO kv VALUES (3, 3)", "INSERT INTO kv VALUES (4, 4)",
                "INSERT INTO kv VALUES (5, 5)", "INSERT INTO kv VALUES (6, 6)");
            List<Received> all = changes.awaitUntil(WAIT,
                got -> barriers(got).stream().filter(r -> r.barrier().epoch() > epochsBefore).count()
                    >= IngestFixture.PARTITIONS);

            for (int p = 0; p < IngestFixture.PARTITIONS; p++) {
                Lsn highestBefore = Lsn.ZERO;
                for (Received record : ChangesTopic.partition(all, p)) {
                    if (record.isChange()) {
                        ChangeEvent change = record.change();
                        highestBefore = Lsn.max(highestBefore, change.lsn());
                    } else if (record.isBarrier()) {
                        Barrier barrier = record.barrier();
                        assertThat(barrier.lsn())
                            .as("%s in partition %d, after a change committed at %s", barrier, p, highestBefore)
                            .isGreaterThanOrEqualTo(highestBefore);
                    }
                }
            }
        }
    }

    private static List<Received> barriers(List<Received> all) {
        return all.stream().filter(Received::isBarrier).toList();
    }
}
