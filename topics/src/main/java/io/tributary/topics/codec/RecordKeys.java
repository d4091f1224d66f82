package io.tributary.topics.codec;

import io.tributary.topics.codec.internals.KeyCodec;
import io.tributary.topics.messages.RecordKey;
import io.tributary.topics.messages.RowKey;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The one encoding of record keys to bytes, used by every producer: equal keys give identical bytes, so a row
 * hashes to the same partition of every co-partitioned topic, whoever writes it.
 *
 * <p>Format (version {@value #FORMAT_VERSION}): a compact UTF-8 JSON array.
 * <ul>
 *   <li>{@link RowKey}: {@code [1,"r","<schema>","<table>",<pk>]}, the primary key array verbatim, e.g.
 *       {@code [1,"r","public","orders",[42]]};</li>
 *   <li>{@link io.tributary.topics.messages.MarkerKey}: {@code [1,"m","<kind>",<partition>]}, followed by
 *       {@code "<schema>","<table>"} for table-scoped kinds or {@code "<chunkId>"} for chunk-scoped ones, e.g.
 *       {@code [1,"m","table-ready",3,"public","orders"]};</li>
 *   <li>{@link io.tributary.topics.messages.TaskKey}: {@code [1,"t","<chunkId>"]}.</li>
 * </ul>
 * Decoding rejects other versions, forms and shapes with a {@link MessageFormatException}. Thread-safe.
 */
public final class RecordKeys {

    /** The key format version written, and the only one read. */
    public static final int FORMAT_VERSION = KeyCodec.VERSION;

    private RecordKeys() {
    }

    /** The bytes of {@code key}. */
    public static byte[] encode(RecordKey key) {
        return KeyCodec.encode(key);
    }

    /**
     * Decodes the key of {@code record}.
     *
     * @throws MessageFormatException if the key is absent or not a valid key
     */
    public static RecordKey decode(ConsumerRecord<byte[], byte[]> record) {
        return decode(RecordPosition.of(record), record.key());
    }

    /**
     * Decodes {@code key}, found at {@code position}.
     *
     * @throws MessageFormatException if the key is absent or not a valid key
     */
    public static RecordKey decode(RecordPosition position, byte[] key) {
        if (key == null) {
            throw new MessageFormatException(position, "key: null key", null);
        }
        return Decoding.guard(position, "key: ", () -> KeyCodec.decode(key));
    }

    /**
     * Decodes {@code key}, which must be a row key.
     *
     * @throws MessageFormatException if it is not a valid row key
     */
    public static RowKey decodeRowKey(RecordPosition position, byte[] key) {
        RecordKey decoded = decode(position, key);
        if (!(decoded instanceof RowKey)) {
            throw new MessageFormatException(position, "key: expected a row key, found " + decoded, null);
        }
        return (RowKey) decoded;
    }
}
