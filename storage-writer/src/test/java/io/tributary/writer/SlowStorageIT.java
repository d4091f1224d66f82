package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.net.TcpProxy;
import io.tributary.topics.messages.Barrier;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Behind slow storage a writer's transactions grow with its backlog, so its seals keep up with the barriers, and the
 * backlog it evaluates ahead of its commits stays within its loop's bound.
 */
@RealServices
class SlowStorageIT {

    private static final Logger LOG = LoggerFactory.getLogger(SlowStorageIT.class);
    private static final int PARTITIONS = 4;
    private static final int EPOCHS = 40;
    private static final Duration ONE_WAY_LATENCY = Duration.ofMillis(15);

    @Test
    void aBacklogOfEpochsBehindSlowStorageIsSealedInFewTransactionsAtMoreThanOneEpochPerSecond(
        TestServices services) throws Exception {
        try (WriterHarness h = WriterHarness.create(services, PARTITIONS, StorageWriterIT.RULES);
             TcpProxy proxy = TcpProxy.inFrontOf(h.db.jdbcUrl())) {
            proxy.setLatency(ONE_WAY_LATENCY);
            Barrier last = null;
            for (int epoch = 0; epoch < EPOCHS; epoch++) {
                for (int i = 0; i < 2 * PARTITIONS; i++) {
                    String id = "t" + epoch + "_" + i;
                    h.log.upsert("todos", id, "{\"id\":\"" + id + "\",\"title\":\"a\",\"owner\":\"u" + i
                        + "\",\"done\":" + (i % 2 == 0) + ",\"v\":" + epoch + "}");
                }
                last = h.log.barrier();
            }
            h.log.flush();
            long lastEpoch = last.epoch();
            String url = h.db.jdbcUrl().replaceFirst("//[^/]+/", "//" + proxy.host() + ":" + proxy.port() + "/");
            long started = System.nanoTime();
            try (StorageWriter writer = StorageWriter.start(h.config(1_000, 1, url))) {
                await().atMost(Duration.ofSeconds(EPOCHS)).pollInterval(Duration.ofMillis(100)).until(() -> {
                    assertThat(writer.failure()).isEmpty();
                    return h.storage.checkpoint().map(c -> c.epoch() == lastEpoch).orElse(false);
                });
                double seconds = (System.nanoTime() - started) / 1e9;
                WriterStats stats = writer.stats();
                LOG.info("{} epochs x {} partitions behind {} ms one-way: {} transactions, {} records each,"
                    + " checkpoint at the last epoch after {} s ({} epochs/s)", EPOCHS, PARTITIONS,
                    ONE_WAY_LATENCY.toMillis(), stats.batchesCommitted(),
                    String.format("%.1f", (double) stats.recordsConsumed() / stats.batchesCommitted()),
                    String.format("%.1f", seconds), String.format("%.1f", EPOCHS / seconds));
                assertThat(stats.batchesCommitted()).isLessThan(EPOCHS);
            }
        }
    }

    @Test
    void aLoopBehindSlowStorageHoldsAtMostTwiceItsBoundOfEvaluatedRecords(TestServices services) throws Exception {
        int partitions = 8;
        int batchRecords = 100;
        int bound = WriterTuning.defaults().queuedBatches() * batchRecords;
        try (WriterHarness h = WriterHarness.create(services, partitions, StorageWriterIT.RULES);
             TcpProxy proxy = TcpProxy.inFrontOf(h.db.jdbcUrl())) {
            proxy.setLatency(ONE_WAY_LATENCY);
            for (int epoch = 0; epoch < 10; epoch++) {
                for (int i = 0; i < 40 * partitions; i++) {
                    String id = "t" + epoch + "_" + i;
                    h.log.upsert("todos", id, "{\"id\":\"" + id + "\",\"title\":\"a\",\"owner\":\"u" + i % 7
                        + "\",\"done\":false,\"v\":" + epoch + "}");
                }
                h.log.barrier();
            }
            h.log.flush();
            String url = h.db.jdbcUrl().replaceFirst("//[^/]+/", "//" + proxy.host() + ":" + proxy.port() + "/");
            try (StorageWriter writer = StorageWriter.start(h.config(batchRecords, 1, url))) {
                h.awaitCaughtUp(Duration.ofSeconds(120), List.of(writer));
                WriterStats stats = writer.stats();
                LOG.info("{} records in {} transactions behind {} ms one-way; at most {} records held (bound {})",
                    stats.recordsConsumed(), stats.batchesCommitted(), ONE_WAY_LATENCY.toMillis(),
                    stats.peakHeldRecords(), bound);
                assertThat(stats.peakHeldRecords()).isPositive().isLessThanOrEqualTo(2L * bound);
            }
        }
    }
}
