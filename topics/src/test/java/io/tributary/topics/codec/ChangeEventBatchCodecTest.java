package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.LSN;
import static io.tributary.topics.codec.Samples.ODD_TABLE;
import static io.tributary.topics.codec.Samples.ORDERS;
import static io.tributary.topics.codec.Samples.delivered;
import static io.tributary.topics.codec.Samples.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class ChangeEventBatchCodecTest {

    private static final TopicCodec<ChangesMessage> CODEC = TopicCodec.CHANGES;

    private static final ChangeEvent FIRST = ChangeEvent.insert(ORDERS, KeyValues.of("[1,\"k\\\"1\"]"),
        RowJson.of("{\"id\":1,\"note\":\"\u00e9t\u00e9\"}"), LSN, 0, 77);
    private static final ChangeEvent SECOND = ChangeEvent.update(ODD_TABLE, KeyValues.of("[2]"),
        RowJson.of("{\"id\":2}"), LSN, 1, 77);
    private static final ChangeEvent THIRD = ChangeEvent.delete(ORDERS, KeyValues.of("[1,\"k\\\"1\"]"), LSN, 2, 77);

    @Test
    void batchRoundTripsWithEveryEventInOrder() {
        ChangeEventBatch batch = ChangeEventBatch.of(List.of(FIRST, SECOND, THIRD));
        assertThat(CODEC.decode(delivered(CODEC.record("changes", 3, batch), 5))).isEqualTo(batch);
    }

    @Test
    void batchIsKeyedByItsFirstEvent() {
        ProducerRecord<byte[], byte[]> record = CODEC.record("changes", 3, ChangeEventBatch.of(List.of(FIRST,
            SECOND)));
        assertThat(RecordKeys.decode(delivered(record, 0))).isEqualTo(RowKey.of(ORDERS, FIRST.pk()));
    }

    @Test
    void aBatchRecordFromTheEventsRecordsHoldsTheirValuesVerbatim() {
        List<ProducerRecord<byte[], byte[]>> events = List.of(CODEC.record("changes", 3, FIRST),
            CODEC.record("changes", 3, SECOND));
        ProducerRecord<byte[], byte[]> batch = TopicCodec.changeBatchRecord("changes", 3, events);
        assertThat(batch.partition()).isEqualTo(3);
        assertThat(batch.key()).isEqualTo(events.get(0).key());
        assertThat(CODEC.decode(delivered(batch, 0))).isEqualTo(ChangeEventBatch.of(List.of(FIRST, SECOND)));
        assertThat(batch.value().length).isEqualTo(6 + TopicCodec.batchedChangeSize(events.get(0).value().length)
            + TopicCodec.batchedChangeSize(events.get(1).value().length));
    }

    @Test
    void eventsOfAnotherPartitionCannotJoinABatchRecord() {
        List<ProducerRecord<byte[], byte[]>> events = List.of(CODEC.record("changes", 3, FIRST),
            CODEC.record("changes", 4, SECOND));
        assertThatThrownBy(() -> TopicCodec.changeBatchRecord("changes", 3, events))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("partition 4");
    }

    @Test
    void anEmptyBatchIsRefused() {
        assertThatThrownBy(() -> ChangeEventBatch.of(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBatchHoldingAnythingButChangeEventsIsMalformed() {
        byte[] barrier = CODEC.encodeValue(Barrier.of(3, LSN));
        assertMalformed(envelope(barrier)).hasMessageContaining("does not belong on a change event batch");
    }

    @Test
    void aBatchInsideABatchIsMalformed() {
        byte[] inner = CODEC.encodeValue(ChangeEventBatch.of(List.of(FIRST)));
        assertMalformed(envelope(inner)).hasMessageContaining("4: change event");
    }

    @Test
    void truncatedAndTrailingBytesAreMalformed() {
        byte[] value = CODEC.encodeValue(ChangeEventBatch.of(List.of(FIRST, SECOND)));
        assertMalformed(Arrays.copyOf(value, value.length - 3));
        byte[] longer = Arrays.copyOf(value, value.length + 1);
        assertMalformed(longer);
    }

    @Test
    void anImpossibleCountIsMalformed() {
        byte[] value = CODEC.encodeValue(ChangeEventBatch.of(List.of(FIRST)));
        ByteBuffer.wrap(value).putInt(2, 0);
        assertMalformed(value).hasMessageContaining("event count 0");
    }

    private static byte[] envelope(byte[] event) {
        return ByteBuffer.allocate(6 + 4 + event.length).put((byte) 2).put((byte) 3).putInt(1).putInt(event.length)
            .put(event).array();
    }

    private static org.assertj.core.api.AbstractThrowableAssert<?, ? extends Throwable> assertMalformed(
        byte[] value) {
        return assertThatThrownBy(() -> CODEC.decode(raw("changes", 3, 11, new byte[] {1}, value)))
            .isInstanceOf(MessageFormatException.class).hasMessageContaining("changes-3@11");
    }
}
