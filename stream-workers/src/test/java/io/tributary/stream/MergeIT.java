package io.tributary.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.stream.simulation.ChunkReader;
import io.tributary.stream.simulation.ItemsTable;
import io.tributary.stream.simulation.RandomWriters;
import io.tributary.stream.simulation.Simulation;
import io.tributary.stream.simulation.StreamWorkerProcess;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import io.tributary.topics.TopicNames;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableReady;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream workers on real Kafka and Postgres: a table is snapshotted in chunks (one chunk retried with a zombie
 * first attempt) while writers update, delete, insert and re-key random rows at full speed; the source's WAL is
 * captured in commit order with real xids. After the source goes quiet, the compacted {@code rows} equals the
 * table exactly, and every partition reports the table ready with the highest chunk high watermark.
 */
@RealServices
class MergeIT {

    private static final Logger LOG = LoggerFactory.getLogger(MergeIT.class);
    private static final int INITIAL_ROWS = 4_000;
    private static final int MAX_ID = 4_600;
    private static final int CHUNK_SIZE = 500;
    private static final int CHUNKS = 10;
    private static final int RETRIED_CHUNK = 3;
    private static final int KILL_AFTER_CHUNK = 4;
    private static final Duration CONVERGENCE = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    @Test
    void rowsEqualTheSourceAfterASnapshotUnderConcurrentWrites(TestServices services) throws Exception {
        try (Simulation simulation = Simulation.start(services, INITIAL_ROWS);
             StreamWorker first = worker(services, simulation.names, "first");
             StreamWorker second = worker(services, simulation.names, "second")) {
            awaitRunning(first, second);
            snapshotUnderLoad(simulation, chunk -> { });
        }
    }

    @Test
    void rowsStayExactWhenAWorkerIsKilledMidRun(TestServices services) throws Exception {
        try (Simulation simulation = Simulation.start(services, INITIAL_ROWS)) {
            Path log = temp.resolve("victim.log");
            Process victim = StreamWorkerProcess.launch(services.kafkaBootstrapServers(), services.topicPrefix(),
                temp.resolve("victim"), log);
            List<StreamWorker> survivors = new ArrayList<>();
            try {
                survivors.add(worker(services, simulation.names, "survivor"));
                await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(log)
                    && Files.readString(log).contains(StreamWorkerProcess.RUNNING));
                awaitEveryMemberOwnsPartitions(services, simulation.names, 2);
                snapshotUnderLoad(simulation, chunk -> {
                    if (chunk == KILL_AFTER_CHUNK) {
                        victim.destroyForcibly();
                        await().atMost(Duration.ofSeconds(10)).until(() -> !victim.isAlive());
                        LOG.info("Killed the stream worker process (SIGKILL) after chunk {}", chunk);
                        survivors.add(worker(services, simulation.names, "replacement"));
                    }
                });
            } finally {
                victim.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                survivors.forEach(StreamWorker::close);
            }
        }
    }

    /**
     * Writers run; the window opens and the chunks are read ({@code afterChunk} runs after each); once every
     * partition has the table ready the writers go on a little, stop, the capture drains, and {@code rows} must
     * equal the table.
     */
    private static void snapshotUnderLoad(Simulation simulation, ChunkHook afterChunk) throws Exception {
        ChunkReader chunks = simulation.chunkReader("w1", CHUNK_SIZE, CHUNKS);
        long seed = Seeds.fromProperty("tributary.seed");
        try (RandomWriters writers = RandomWriters.start(simulation.db, 2, MAX_ID, seed)) {
            await().atMost(Duration.ofSeconds(20)).until(() -> simulation.capture.published() > 1_000);
            chunks.openWindow();
            for (int chunk = 0; chunk < CHUNKS; chunk++) {
                if (chunk == RETRIED_CHUNK) {
                    chunks.readRetried(chunk);
                } else {
                    chunks.read(chunk);
                }
                afterChunk.after(chunk);
            }
            await().atMost(CONVERGENCE).untilAsserted(() -> assertThat(simulation.rows.ready().values())
                .hasSize(Simulation.PARTITIONS).extracting(TableReady::highWatermark)
                .containsOnly(chunks.highestWatermark()));
            long committed = writers.committed();
            await().atMost(Duration.ofSeconds(20)).until(() -> writers.committed() > committed + 500);
        }
        long stopped = System.nanoTime();
        await().atMost(Duration.ofSeconds(20)).until(() -> simulation.capture.caughtUpSince(stopped));
        Map<RowKey, RowJson> expected = ItemsTable.content(simulation.db);
        await().atMost(CONVERGENCE).pollInterval(Duration.ofMillis(500))
            .untilAsserted(() -> assertThat(differences(expected, simulation.rows.rows())).isEmpty());
        assertThat(simulation.rows.rowsFromSnapshot()).isPositive();
        LOG.info("rows equals the source: {} rows, {} change events captured, {} rows from chunks",
            expected.size(), simulation.capture.published(), simulation.rows.rowsFromSnapshot());
    }

    private StreamWorker worker(TestServices services, TopicNames names, String name) {
        return StreamWorker.start(new StreamWorkerConfig(Simulation.workerSettings(services.kafkaBootstrapServers()),
            names, temp.resolve(name), 1));
    }

    private static void awaitRunning(StreamWorker... workers) {
        await().atMost(Duration.ofSeconds(60)).until(() -> List.of(workers).stream()
            .allMatch(w -> w.state() == KafkaStreams.State.RUNNING));
    }

    private static void awaitEveryMemberOwnsPartitions(TestServices services, TopicNames names, int members) {
        String group = StreamWorkerConfig.applicationId(names);
        try (Admin admin = Admin.create(services.kafkaProperties())) {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                ConsumerGroupDescription description = admin.describeConsumerGroups(List.of(group)).all().get()
                    .get(group);
                return description.members().size() == members && description.members().stream()
                    .allMatch(m -> m.assignment().topicPartitions().stream()
                        .anyMatch(tp -> tp.topic().equals(names.changes())));
            });
        }
    }

    /** Up to ten differences between the expected and the actual compacted content, as readable lines. */
    private static List<String> differences(Map<RowKey, RowJson> expected, Map<RowKey, RowJson> actual) {
        List<String> differences = new ArrayList<>();
        Set<RowKey> keys = new HashSet<>(expected.keySet());
        keys.addAll(actual.keySet());
        for (RowKey key : keys) {
            if (!Objects.equals(expected.get(key), actual.get(key))) {
                differences.add(key + ": source " + expected.get(key) + ", rows " + actual.get(key));
                if (differences.size() == 10) {
                    break;
                }
            }
        }
        return differences;
    }

    @FunctionalInterface
    private interface ChunkHook {
        void after(int chunk) throws Exception;
    }
}
