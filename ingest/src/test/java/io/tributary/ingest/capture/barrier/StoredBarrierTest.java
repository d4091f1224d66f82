package io.tributary.ingest.capture.barrier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

class StoredBarrierTest {

    private final StoredBarrier stored = new StoredBarrier("t.ingest-offsets", "tributary-ingest-slot");

    @Test
    void aStoredBarrierReadsBackAsTheSameBarrier() {
        Barrier barrier = Barrier.of(42, Lsn.parse("16/B374D848"));
        ProducerRecord<byte[], byte[]> record = stored.record(barrier);
        assertThat(record.topic()).isEqualTo("t.ingest-offsets");
        assertThat(record.partition()).isZero();
        assertThat(stored.isKey(record.key())).isTrue();
        assertThat(StoredBarrier.parse(record.value())).isEqualTo(barrier);
    }

    @Test
    void theKeyIsNeverADebeziumOffsetKeyNorAnotherEnginesKey() {
        byte[] debezium = "[\"tributary-ingest-slot\",{\"server\":\"tributary_ingest\"}]"
            .getBytes(StandardCharsets.UTF_8);
        assertThat(stored.isKey(debezium)).isFalse();
        byte[] other = new StoredBarrier("t.ingest-offsets", "tributary-ingest-other").record(Barrier.of(1, Lsn.ZERO))
            .key();
        assertThat(stored.isKey(other)).isFalse();
    }

    @Test
    void anUnknownVersionIsRejected() {
        assertThatThrownBy(() -> StoredBarrier.parse("{\"v\":2,\"epoch\":1,\"lsn\":\"0/1\"}"
            .getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Unknown stored barrier version 2");
    }
}
