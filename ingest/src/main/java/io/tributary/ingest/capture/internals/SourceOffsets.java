package io.tributary.ingest.capture.internals;

import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.connect.json.JsonConverter;
import org.apache.kafka.connect.json.JsonConverterConfig;

/**
 * The record that stores Debezium's source offsets in {@code ingest-offsets}, in Kafka Connect's layout: key
 * {@code [engine name, source partition]} and value the offset map, both schemaless JSON (the converters the
 * Debezium engine reads them back with). Ingest writes it in the same Kafka transaction as the changes it covers.
 * Thread-safe.
 */
final class SourceOffsets {

    private final String topic;
    private final String engineName;
    private final JsonConverter keys = converter(true);
    private final JsonConverter values = converter(false);

    SourceOffsets(String topic, String engineName) {
        this.topic = topic;
        this.engineName = engineName;
    }

    private static JsonConverter converter(boolean isKey) {
        JsonConverter converter = new JsonConverter();
        converter.configure(Map.of(JsonConverterConfig.SCHEMAS_ENABLE_CONFIG, "false"), isKey);
        return converter;
    }

    /** The record storing {@code offset} for {@code sourcePartition} (both as Debezium's source records carry them). */
    ProducerRecord<byte[], byte[]> record(Map<String, ?> sourcePartition, Map<String, ?> offset) {
        byte[] key = keys.fromConnectData(engineName, null, Arrays.asList(engineName, sourcePartition));
        byte[] value = values.fromConnectData(engineName, null, offset);
        return new ProducerRecord<>(topic, 0, key, value);
    }
}
