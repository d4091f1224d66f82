package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.PgSnapshot;

/**
 * The text form of the snapshot of the rows being encoded or decoded, computed once per chunk rather than once per
 * row: every row of a chunk carries the same snapshot, so each thread remembers the last one it saw (by identity
 * when encoding, by text when decoding). A snapshot is immutable, so sharing one decoded instance between the rows
 * of a chunk is safe. Thread-safe (one entry per thread).
 */
final class SnapshotText {

    private static final ThreadLocal<Encoded> LAST_ENCODED = new ThreadLocal<>();
    private static final ThreadLocal<Decoded> LAST_DECODED = new ThreadLocal<>();

    private SnapshotText() {
    }

    /** The JSON string of {@code snapshot}'s text form, quoted, as UTF-8 (do not modify the array). */
    static byte[] quoted(PgSnapshot snapshot) {
        Encoded last = LAST_ENCODED.get();
        if (last != null && last.snapshot == snapshot) {
            return last.quoted;
        }
        Encoded encoded = new Encoded(snapshot, EnvelopeWriter.quotedString(snapshot.toString()));
        LAST_ENCODED.set(encoded);
        return encoded.quoted;
    }

    /**
     * The snapshot of text form {@code text}.
     *
     * @throws IllegalArgumentException if {@code text} is not a snapshot
     */
    static PgSnapshot parse(String text) {
        Decoded last = LAST_DECODED.get();
        if (last != null && last.text.equals(text)) {
            return last.snapshot;
        }
        PgSnapshot snapshot = PgSnapshot.parse(text);
        LAST_DECODED.set(new Decoded(text, snapshot));
        return snapshot;
    }

    private record Encoded(PgSnapshot snapshot, byte[] quoted) {
    }

    private record Decoded(String text, PgSnapshot snapshot) {
    }
}
