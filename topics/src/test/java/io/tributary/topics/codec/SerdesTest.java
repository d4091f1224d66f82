package io.tributary.topics.codec;

import static io.tributary.topics.codec.Samples.INSERT;
import static io.tributary.topics.codec.Samples.SNAPSHOT_ROW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.topics.messages.ChangesMessage;
import io.tributary.topics.messages.RecordKey;
import io.tributary.topics.messages.SnapshotRowsMessage;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class SerdesTest {

    @Test
    void valueSerdeRoundTrips() {
        Serializer<SnapshotRowsMessage> serializer = TopicCodec.SNAPSHOT_ROWS.serializer();
        Deserializer<SnapshotRowsMessage> deserializer = TopicCodec.SNAPSHOT_ROWS.deserializer();
        assertThat(deserializer.deserialize("snapshot-rows", serializer.serialize("snapshot-rows", SNAPSHOT_ROW)))
            .isEqualTo(SNAPSHOT_ROW);
    }

    @Test
    void keySerdeRoundTrips() {
        RecordKey key = INSERT.rowKey();
        assertThat(new RecordKeyDeserializer().deserialize("changes", new RecordKeySerializer().serialize("t", key)))
            .isEqualTo(key);
    }

    @Test
    void nullStaysNull() {
        assertThat(TopicCodec.ROWS.deserializer().deserialize("rows", null)).isNull();
        assertThat(TopicCodec.ROWS.serializer().serialize("rows", null)).isNull();
        assertThat(new RecordKeyDeserializer().deserialize("rows", null)).isNull();
    }

    @Test
    void deserializerErrorsNameTheTopic() {
        Deserializer<ChangesMessage> deserializer = TopicCodec.CHANGES.deserializer();
        assertThatThrownBy(() -> deserializer.deserialize("acme.changes", "{\"v\":9}".getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(MessageFormatException.class)
            .hasMessage("Malformed record at acme.changes-?@?: unknown version 9 (expected 1)");
    }
}
