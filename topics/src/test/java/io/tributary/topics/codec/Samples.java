package io.tributary.topics.codec;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TaskPriority;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/** Sample values and a stand-in for the broker's record hand-over, for codec tests. */
final class Samples {

    static final TableId ORDERS = TableId.of("public", "orders");
    static final TableId ODD_TABLE = TableId.of("tenant.\"7\"", "line items \u00e9");
    static final KeyValues PK = KeyValues.of("[42]");
    static final KeyValues COMPOSITE_PK = KeyValues.of("[\"0b7e2a6c-2f0f-4c55-9d3c-1f2e3d4c5b6a\",12.50,\"a\\\"b\"]");
    static final RowJson ROW = RowJson.of("{\"id\":42,\"name\":\"Ada\",\"total\":12.50}");
    static final Lsn LSN = Lsn.parse("16/B374D848");
    static final PgSnapshot SNAPSHOT = PgSnapshot.parse("100:110:103,105");

    static final ChangeEvent INSERT = ChangeEvent.insert(ORDERS, PK, ROW, LSN, 0, 4242);
    static final Barrier BARRIER = Barrier.of(7, LSN);
    static final ChunkTask TASK = new ChunkTask("w1#3", ORDERS,
        ChunkRange.of(KeyValues.of("[100]"), KeyValues.of("[200]")), 2, TaskPriority.REPROCESS_SNAPSHOT, "w1");
    static final SnapshotRow SNAPSHOT_ROW = SnapshotRow.of(TASK, PK, ROW, SNAPSHOT);
    static final ChunkDone CHUNK_DONE = ChunkDone.of(TASK, Lsn.parse("16/B3750000"), 981);

    private Samples() {
    }

    /** The record a consumer polls for {@code sent}, as if the broker stored it at {@code offset}. */
    static ConsumerRecord<byte[], byte[]> delivered(ProducerRecord<byte[], byte[]> sent, long offset) {
        return new ConsumerRecord<>(sent.topic(), sent.partition(), offset, sent.key(), sent.value());
    }

    /** A record at {@code topic-partition@offset} with raw key and value. */
    static ConsumerRecord<byte[], byte[]> raw(String topic, int partition, long offset, byte[] key, byte[] value) {
        return new ConsumerRecord<>(topic, partition, offset, key, value);
    }

    /** Every marker sent for {@code records}, delivered. */
    static List<ConsumerRecord<byte[], byte[]>> deliveredAll(List<ProducerRecord<byte[], byte[]>> records) {
        return records.stream().map(r -> delivered(r, 0)).toList();
    }
}
