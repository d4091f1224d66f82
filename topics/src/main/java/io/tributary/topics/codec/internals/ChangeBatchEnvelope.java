package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeEventBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary value envelope of a {@link ChangeEventBatch} on {@code changes} (version {@value #VERSION}, the version
 * of the binary row envelope of {@code rows}): each event's own value envelope verbatim, read by its length.
 * Big-endian:
 *
 * <pre>
 *   u8  version (2)           u8  type (3: change event batch)
 *   u32 count, then count x (u32 length, the event's value envelope: {@link ChangeEnvelope}, or JSON)
 * </pre>
 *
 * <p>Nothing may follow. The first byte tells it from a JSON envelope, which starts with {@code '{'} (or
 * whitespace); the second from a {@link ChangeEnvelope}. An event is read in whichever envelope it has, a
 * {@link ChangeEnvelope} or JSON (its first byte tells), so batches written before events had a binary envelope read
 * as they did. Stateless and thread-safe.
 */
public final class ChangeBatchEnvelope {

    /** The version byte of this envelope. */
    public static final int VERSION = RowEnvelope.VERSION;
    /** Bytes of the envelope beside its events' values. */
    private static final int HEADER = 6;
    /** Bytes of an event beside its value: its length. */
    public static final int PER_EVENT_OVERHEAD = 4;

    private static final byte TYPE_CHANGE_EVENT_BATCH = 3;
    private static final List<String> EVENT_TYPES = List.of(WireTypes.CHANGE);

    private ChangeBatchEnvelope() {
    }

    /**
     * Whether {@code value} claims to be a binary envelope on {@code changes}, this one or a {@link ChangeEnvelope}
     * (its first byte); the rest is read as JSON.
     */
    public static boolean isBinary(byte[] value) {
        return value.length > 0 && value[0] == VERSION;
    }

    /** The envelope of {@code batch}. */
    public static byte[] encode(ChangeEventBatch batch) {
        List<byte[]> values = new ArrayList<>(batch.events().size());
        for (ChangeEvent event : batch.events()) {
            values.add(ChangeEnvelope.encode(event));
        }
        return encode(values);
    }

    /** The envelope of events whose value envelopes are {@code values}, in order; at least one. */
    public static byte[] encode(List<byte[]> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("A change event batch needs at least one event");
        }
        int size = HEADER;
        for (byte[] value : values) {
            size += PER_EVENT_OVERHEAD + value.length;
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.put((byte) VERSION).put(TYPE_CHANGE_EVENT_BATCH).putInt(values.size());
        for (byte[] value : values) {
            out.putInt(value.length).put(value);
        }
        return out.array();
    }

    /**
     * The batch in {@code value}, an envelope of this format.
     *
     * @throws MalformedInput if it is not one (another version or type, a length past the end, trailing bytes, an
     *                        event that is not a valid change event)
     * @throws IOException    if an event's value is neither a {@link ChangeEnvelope} nor JSON
     */
    public static ChangeEventBatch decode(byte[] value) throws IOException {
        BinaryReader in = BinaryReader.afterHeader(value, VERSION, TYPE_CHANGE_EVENT_BATCH,
            TYPE_CHANGE_EVENT_BATCH + ": change event batch on changes");
        int count = in.u32("event count");
        if (count == 0 || count > value.length / PER_EVENT_OVERHEAD) {
            throw new MalformedInput("event count " + count + " cannot be right for " + value.length + " bytes");
        }
        List<ChangeEvent> events = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] event = in.bytes(in.u32("event length"), "event");
            events.add(isBinary(event) ? ChangeEnvelope.decode(event)
                : (ChangeEvent) ValueDecoders.decode(event, EVENT_TYPES, "a change event batch"));
        }
        in.finish();
        return new ChangeEventBatch(events);
    }
}
