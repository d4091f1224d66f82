package io.tributary.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.Barrier;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The checkpointer tries at once when the writers of its process seal an epoch in every partition, not only at
 * its interval: with an interval of ten minutes the checkpoint still follows the barrier within seconds.
 */
@RealServices
class PromptCheckpointIT {

    private static final Duration LONG_INTERVAL = Duration.ofMinutes(10);

    @Test
    void anEpochSealedInEveryPartitionIsCheckpointedWithoutWaitingForTheInterval(TestServices services)
        throws Exception {
        try (WriterHarness h = WriterHarness.create(services, 2, StorageWriterIT.RULES);
             StorageWriter writer = StorageWriter.start(h.config(100, 2)
                 .withTuning(h.config(100, 2).tuning().withCheckpointInterval(LONG_INTERVAL)))) {
            h.log.upsert("todos", "t1", "{\"id\":\"t1\",\"title\":\"a\",\"owner\":\"u1\",\"done\":false,\"v\":1}");
            Barrier first = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(30)).until(() -> h.storage.checkpoint().isPresent());
            assertThat(h.storage.checkpoint().orElseThrow().epoch()).isEqualTo(first.epoch());

            h.log.upsert("todos", "t2", "{\"id\":\"t2\",\"title\":\"b\",\"owner\":\"u1\",\"done\":false,\"v\":1}");
            Barrier second = h.log.barrier();
            h.log.flush();
            await().atMost(Duration.ofSeconds(30))
                .until(() -> h.storage.checkpoint().orElseThrow().epoch() == second.epoch());
            assertThat(writer.failure()).isEmpty();
        }
    }
}
