package io.tributary.stream.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.stream.StreamWorkerConfig;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.DeadLetters;
import io.tributary.topics.codec.Partitioning;
import io.tributary.topics.codec.RecordKeys;
import io.tributary.topics.codec.RecordPosition;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.MarkerKey;
import io.tributary.topics.messages.MarkerKind;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.RowsMessage;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableWindowMarker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The merge topology under Kafka Streams' test driver (one task: partition 0 of both inputs), exactly-once. */
class MergeTopologyTest {

    private static final TopicNames NAMES = TopicNames.withPrefix("t.");
    private static final TableId ITEMS = TableId.of("public", "items");

    @TempDir
    Path stateDir;

    private TopologyTestDriver driver;
    private TestInputTopic<byte[], byte[]> changes;
    private TestInputTopic<byte[], byte[]> snapshotRows;
    private TestOutputTopic<byte[], byte[]> rows;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @AfterEach
    void closeDriver() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void changeEventsBecomeRowsUnderTheirRowKeyAndDeletesBecomeTombstones() {
        start(1);
        ChangeEvent insert = ChangeEvent.insert(ITEMS, pk(1), row(1), Lsn.of(10), 0, 100);
        send(insert);
        send(ChangeEvent.delete(ITEMS, pk(1), Lsn.of(20), 0, 101));

        List<TestRecord<byte[], byte[]>> written = rows.readRecordsToList();
        assertThat(written).hasSize(2);
        assertThat(written.get(0).key()).isEqualTo(RecordKeys.encode(RowKey.of(ITEMS, pk(1))));
        assertThat(decode(written.get(0))).isEqualTo(ResolvedRow.of(insert));
        assertThat(written.get(1).key()).isEqualTo(RecordKeys.encode(RowKey.of(ITEMS, pk(1))));
        assertThat(written.get(1).value()).isNull();
    }

    @Test
    void barrierIsWrittenUnderTheMarkerKeyOfTheTasksPartition() {
        start(1);
        send(Barrier.of(7, Lsn.of(70)));

        TestRecord<byte[], byte[]> written = rows.readRecord();
        assertThat(RecordKeys.decode(RecordPosition.inTopic(NAMES.rows()), written.key()))
            .isEqualTo(MarkerKey.of(MarkerKind.BARRIER, 0));
        assertThat(decode(written)).isEqualTo(Barrier.of(7, Lsn.of(70)));
    }

    @Test
    void tableReadyIsWrittenUnderItsMarkerKeyWhenTheWindowCompletes() {
        start(1);
        send(TableWindowMarker.of(ITEMS, Lsn.of(10), "w"));
        send(TablePlan.of(ITEMS, "w", 1));
        send(new ChunkDone("w#0", ITEMS, "w", 1, Lsn.of(30), 0));

        TestRecord<byte[], byte[]> written = rows.readRecord();
        assertThat(RecordKeys.decode(RecordPosition.inTopic(NAMES.rows()), written.key()))
            .isEqualTo(MarkerKey.of(MarkerKind.TABLE_READY, 0, ITEMS));
        assertThat(decode(written)).isEqualTo(TableReady.of(ITEMS, "w", Lsn.of(30)));
    }

    @Test
    void releasedKeysAreDeletedInBoundedStepsAndOnTheWallClock() {
        start(1);
        send(TableWindowMarker.of(ITEMS, Lsn.of(10), "w"));
        for (int id = 0; id < 1_000; id++) {
            send(ChangeEvent.insert(ITEMS, pk(id), row(id), Lsn.of(100 + id), 0, 1000 + id));
        }
        send(TablePlan.of(ITEMS, "w", 1));
        assertThat(keysKept()).isEqualTo(1_000);

        send(new ChunkDone("w#0", ITEMS, "w", 1, Lsn.of(30), 0));
        assertThat(keysKept()).isBetween(1L, 999L);

        driver.advanceWallClockTime(Duration.ofSeconds(2));
        assertThat(keysKept()).isZero();
    }

    @Test
    void undecodableRecordGoesToDeadLettersWithItsOrigin() {
        start(1);
        changes.pipeInput(new byte[] {1}, "not json".getBytes(StandardCharsets.UTF_8));

        assertThat(rows.isEmpty()).isTrue();
        TestRecord<byte[], byte[]> letter = deadLetters.readRecord();
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.ORIGIN_TOPIC)).contains(NAMES.changes());
        assertThat(DeadLetters.header(letter.headers(), DeadLetters.STAGE)).contains(MergeProcessor.STAGE);
        assertThat(letter.value()).isEqualTo("not json".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void rowRecordInAnotherPartitionThanItsKeysIsDeadLettered() {
        int partitions = 4;
        start(partitions);
        int id = 0;
        while (Partitioning.partitionFor(RowKey.of(ITEMS, pk(id)), partitions) == 0) {
            id++;
        }
        send(ChangeEvent.insert(ITEMS, pk(id), row(id), Lsn.of(10), 0, 100));

        assertThat(rows.isEmpty()).isTrue();
        assertThat(DeadLetters.header(deadLetters.readRecord().headers(), DeadLetters.ERROR_MESSAGE).orElseThrow())
            .contains("belongs in partition");
    }

    @Test
    void snapshotRowBatchBecomesOneRecordPerRowUnderEachRowsKey() {
        start(1);
        PgSnapshot snapshot = PgSnapshot.of(100, 100, List.of());
        List<SnapshotRow> read = List.of(new SnapshotRow(ITEMS, pk(1), row(1), "w#0", "w", 1, snapshot),
            new SnapshotRow(ITEMS, pk(2), row(2), "w#0", "w", 1, snapshot),
            new SnapshotRow(ITEMS, pk(3), row(3), "w#0", "w", 1, snapshot));
        send(SnapshotRowBatch.of(read));

        List<TestRecord<byte[], byte[]>> written = rows.readRecordsToList();
        assertThat(written).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertThat(written.get(i).key()).isEqualTo(RecordKeys.encode(read.get(i).rowKey()));
            assertThat(decode(written.get(i))).isEqualTo(ResolvedRow.of(read.get(i)));
        }
    }

    @Test
    void snapshotRowBatchWithARowOfAnotherPartitionIsDeadLetteredWhole() {
        int partitions = 4;
        start(partitions);
        int home = firstId(partitions, true);
        int stray = firstId(partitions, false);
        PgSnapshot snapshot = PgSnapshot.of(100, 100, List.of());
        send(SnapshotRowBatch.of(List.of(new SnapshotRow(ITEMS, pk(home), row(home), "w#0", "w", 1, snapshot),
            new SnapshotRow(ITEMS, pk(stray), row(stray), "w#0", "w", 1, snapshot))));

        assertThat(rows.isEmpty()).isTrue();
        assertThat(DeadLetters.header(deadLetters.readRecord().headers(), DeadLetters.ERROR_MESSAGE).orElseThrow())
            .contains("belongs in partition");
    }

    @Test
    void changeEventBatchBecomesWhatItsEventsWouldEachInOrder() {
        start(1);
        ChangeEvent insert = ChangeEvent.insert(ITEMS, pk(1), row(1), Lsn.of(10), 0, 100);
        ChangeEvent update = ChangeEvent.update(ITEMS, pk(2), row(2), Lsn.of(10), 1, 100);
        ChangeEvent delete = ChangeEvent.delete(ITEMS, pk(1), Lsn.of(10), 2, 100);
        send(ChangeEventBatch.of(List.of(insert, update, delete)));
        send(ChangeEventBatch.of(List.of(insert, ChangeEvent.insert(ITEMS, pk(3), row(3), Lsn.of(30), 0, 101))));

        List<TestRecord<byte[], byte[]>> written = rows.readRecordsToList();
        assertThat(written).extracting(TestRecord::key).containsExactly(RecordKeys.encode(insert.rowKey()),
            RecordKeys.encode(update.rowKey()), RecordKeys.encode(delete.rowKey()),
            RecordKeys.encode(RowKey.of(ITEMS, pk(3))));
        assertThat(decode(written.get(0))).isEqualTo(ResolvedRow.of(insert));
        assertThat(decode(written.get(1))).isEqualTo(ResolvedRow.of(update));
        assertThat(written.get(2).value()).isNull();
        assertThat(decode(written.get(3)).toString()).contains("[3]");
    }

    @Test
    void changeEventBatchWithAnEventOfAnotherPartitionIsDeadLetteredWhole() {
        int partitions = 4;
        start(partitions);
        int home = firstId(partitions, true);
        int stray = firstId(partitions, false);
        send(ChangeEventBatch.of(List.of(ChangeEvent.insert(ITEMS, pk(home), row(home), Lsn.of(10), 0, 100),
            ChangeEvent.insert(ITEMS, pk(stray), row(stray), Lsn.of(10), 1, 100))));

        assertThat(rows.isEmpty()).isTrue();
        assertThat(DeadLetters.header(deadLetters.readRecord().headers(), DeadLetters.ERROR_MESSAGE).orElseThrow())
            .contains("belongs in partition");
    }

    private void start(int partitions) {
        Map<String, Object> kafka = Map.of("bootstrap.servers", "unused:9092");
        Properties properties = new StreamWorkerConfig(kafka, NAMES, stateDir, 1).streamsProperties();
        driver = new TopologyTestDriver(MergeTopology.build(NAMES, partitions), properties);
        changes = driver.createInputTopic(NAMES.changes(), new ByteArraySerializer(), new ByteArraySerializer());
        snapshotRows = driver.createInputTopic(NAMES.snapshotRows(), new ByteArraySerializer(),
            new ByteArraySerializer());
        rows = driver.createOutputTopic(NAMES.rows(), new ByteArrayDeserializer(), new ByteArrayDeserializer());
        deadLetters = driver.createOutputTopic(NAMES.deadLetters(), new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
    }

    private void send(ChangesMessage message) {
        changes.pipeInput(TopicCodec.CHANGES.encodeKey(message, 0), TopicCodec.CHANGES.encodeValue(message));
    }

    private void send(SnapshotRowsMessage message) {
        snapshotRows.pipeInput(TopicCodec.SNAPSHOT_ROWS.encodeKey(message, 0),
            TopicCodec.SNAPSHOT_ROWS.encodeValue(message));
    }

    private long keysKept() {
        KeyValueStore<Bytes, byte[]> keys = driver.getKeyValueStore(MergeTopology.KEYS_STORE);
        long count = 0;
        try (KeyValueIterator<Bytes, byte[]> all = keys.all()) {
            while (all.hasNext()) {
                all.next();
                count++;
            }
        }
        return count;
    }

    private static RowsMessage decode(TestRecord<byte[], byte[]> record) {
        return TopicCodec.ROWS.decode(RecordPosition.inTopic(NAMES.rows()), record.key(), record.value());
    }

    /** The first id whose key of {@code ITEMS} hashes to partition 0 ({@code inPartitionZero}) or to another. */
    private static int firstId(int partitions, boolean inPartitionZero) {
        int id = 0;
        while ((Partitioning.partitionFor(RowKey.of(ITEMS, pk(id)), partitions) == 0) != inPartitionZero) {
            id++;
        }
        return id;
    }

    private static KeyValues pk(int id) {
        return KeyValues.of("[" + id + "]");
    }

    private static RowJson row(int id) {
        return RowJson.of("{\"id\":" + id + "}");
    }
}
