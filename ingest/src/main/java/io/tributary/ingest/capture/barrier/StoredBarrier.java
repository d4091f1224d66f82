package io.tributary.ingest.capture.barrier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The newest barrier ingest wrote, kept in the compacted {@code ingest-offsets} topic beside Debezium's offsets and
 * written in the same Kafka transaction as the barrier itself, so epochs survive when {@code changes}' retention
 * has removed every barrier. Key {@code [1,"barrier",<engine name>]} (never one of Debezium's keys, which are
 * {@code [<engine name>, {...}]}); value {@code {"v":1,"epoch":k,"lsn":"X/Y"}}. Unknown versions are rejected.
 * Thread-safe (immutable).
 */
public final class StoredBarrier {

    private static final int VERSION = 1;
    private static final String KIND = "barrier";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String topic;
    private final String engineName;
    private final byte[] key;

    /** The stored barrier of engine {@code engineName} in {@code topic} (the deployment's {@code ingest-offsets}). */
    public StoredBarrier(String topic, String engineName) {
        this.topic = Objects.requireNonNull(topic, "topic");
        this.engineName = engineName;
        ArrayNode k = JSON.createArrayNode().add(VERSION).add(KIND).add(Objects.requireNonNull(engineName));
        this.key = k.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The record that stores {@code barrier} as the newest one written. */
    public ProducerRecord<byte[], byte[]> record(Barrier barrier) {
        ObjectNode value = JSON.createObjectNode();
        value.put("v", VERSION);
        value.put("epoch", barrier.epoch());
        value.put("lsn", barrier.lsn().toString());
        return new ProducerRecord<>(topic, 0, key, value.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Whether a record of {@code topic} with key {@code recordKey} is this stored barrier. */
    public boolean isKey(byte[] recordKey) {
        return recordKey != null && Arrays.equals(key, recordKey);
    }

    /**
     * The source position a record of {@code topic} holds when it is one of the engine's Debezium offsets (key
     * {@code [<engine name>, {...}]}): the commit LSN ingest resumes after ({@code lsn}), which every transaction
     * ingest committed to {@code changes} lies at or before. Empty for any other record, a deleted one, or offsets
     * without a numeric {@code lsn}.
     */
    public Optional<Lsn> resumePosition(byte[] recordKey, byte[] value) {
        if (recordKey == null || value == null) {
            return Optional.empty();
        }
        try {
            JsonNode k = JSON.readTree(recordKey);
            if (k == null || !k.isArray() || k.size() != 2 || !engineName.equals(k.get(0).asText(null))
                || !k.get(1).isObject()) {
                return Optional.empty();
            }
            JsonNode lsn = JSON.readTree(value).path("lsn");
            return lsn.canConvertToLong() ? Optional.of(Lsn.of(lsn.asLong())) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The barrier a value of this key holds.
     *
     * @throws IllegalArgumentException if the value is not a stored barrier of a known version
     */
    public static Barrier parse(byte[] value) {
        JsonNode node;
        try {
            node = JSON.readTree(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("A stored barrier is not JSON: " + e.getMessage(), e);
        }
        int version = node == null ? -1 : node.path("v").asInt(-1);
        if (version != VERSION) {
            throw new IllegalArgumentException("Unknown stored barrier version " + version + " (this release reads "
                + VERSION + "): " + new String(value, StandardCharsets.UTF_8));
        }
        JsonNode epoch = node.get("epoch");
        JsonNode lsn = node.get("lsn");
        if (epoch == null || !epoch.canConvertToLong() || lsn == null || !lsn.isTextual()) {
            throw new IllegalArgumentException("A stored barrier needs epoch and lsn: "
                + new String(value, StandardCharsets.UTF_8));
        }
        return Barrier.of(epoch.asLong(), Lsn.parse(lsn.asText()));
    }

    /** The topic it is stored in. */
    public String topic() {
        return topic;
    }

    /** {@link #parse} of {@code value}, empty for a deleted (null) value. */
    static Optional<Barrier> parseNullable(byte[] value) {
        return value == null ? Optional.empty() : Optional.of(parse(value));
    }
}
