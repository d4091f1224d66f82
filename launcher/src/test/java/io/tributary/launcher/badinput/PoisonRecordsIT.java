package io.tributary.launcher.badinput;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.launcher.badinput.BadInputPipeline.Poison;
import io.tributary.launcher.badinput.BadInputPipeline.Result;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.TopicRole;
import io.tributary.topics.codec.DeadLetters;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes no stage can decode, put on each topic a stage consumes: each record ends up on {@code dead-letters}
 * exactly once, with its origin and the error in headers, and the pipeline around it neither stops nor loses
 * anything: storage serves the rules over the source and the checkpoint covers the source.
 */
@RealServices
class PoisonRecordsIT {

    private static final SampleDataset DATA = new SampleDataset(10, 40, 600);
    private static final List<Poison> POISON = List.of(
        new Poison(bytes("not a key"), new byte[] {(byte) 0xff, 0, 1, 2}),
        new Poison(bytes("[\"public\",\"todos\",[1]]"), bytes("{\"v\":99,\"type\":\"row\"}")),
        new Poison(new byte[0], bytes("{\"truncated\":")));

    @TempDir
    Path dir;

    @Test
    void poisonOnChangesIsDeadLetteredByTheStreamWorkers(TestServices services) throws Exception {
        BadInputPipeline pipeline = poisoned(services, TopicRole.CHANGES);

        assertDeadLettered(pipeline, TopicRole.CHANGES, "stream-worker");
    }

    @Test
    void poisonOnSnapshotRowsIsDeadLetteredByTheStreamWorkers(TestServices services) throws Exception {
        BadInputPipeline pipeline = poisoned(services, TopicRole.SNAPSHOT_ROWS);

        assertDeadLettered(pipeline, TopicRole.SNAPSHOT_ROWS, "stream-worker");
    }

    @Test
    void poisonOnSnapshotTasksIsDeadLetteredByTheSnapshotWorkers(TestServices services) throws Exception {
        BadInputPipeline pipeline = poisoned(services, TopicRole.SNAPSHOT_TASKS);

        assertDeadLettered(pipeline, TopicRole.SNAPSHOT_TASKS, "snapshot-worker");
    }

    @Test
    void poisonOnRowsIsDeadLetteredByTheStorageWriter(TestServices services) throws Exception {
        BadInputPipeline pipeline = poisoned(services, TopicRole.ROWS);

        assertDeadLettered(pipeline, TopicRole.ROWS, "storage-writer");
    }

    /** Loads the sample, poisons every partition of the topic, runs until caught up and checks convergence. */
    private BadInputPipeline poisoned(TestServices services, TopicRole role) throws Exception {
        BadInputPipeline pipeline = BadInputPipeline.create(services, dir, SampleDataset.syncRules());
        try (Connection c = pipeline.source.connect()) {
            DATA.load(c);
        }
        pipeline.provisionTopics();
        pipeline.poisonEveryPartition(role, POISON);

        Result run = pipeline.runUntilCaughtUp();

        assertThat(run.code()).as(run.out()).isZero();
        assertThat(run.out()).contains("Caught up");
        pipeline.assertServes(pipeline.expected(SampleDataset.syncRules()));
        return pipeline;
    }

    private static void assertDeadLettered(BadInputPipeline pipeline, TopicRole role, String stage) {
        String topic = pipeline.topics.name(role);
        int partitions = BadInputPipeline.LAYOUT.partitionsOf(role);
        List<ConsumerRecord<byte[], byte[]>> letters = pipeline.deadLetters(partitions * POISON.size());

        assertThat(letters).hasSize(partitions * POISON.size()).allSatisfy(letter -> {
            assertThat(DeadLetters.header(letter.headers(), DeadLetters.ORIGIN_TOPIC)).contains(topic);
            assertThat(DeadLetters.header(letter.headers(), DeadLetters.STAGE)).contains(stage);
            assertThat(DeadLetters.header(letter.headers(), DeadLetters.ERROR_MESSAGE)).get().asString()
                .contains(topic);
        });
        assertThat(letters).extracting(letter -> DeadLetters.originOf(letter).orElseThrow()).doesNotHaveDuplicates();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
