package io.tributary.writer.apply;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * The record key bytes of one source row in {@code rows} (table + primary key, as {@code RecordKeys} encodes it):
 * the identity of a row in {@code current_data}. Compared by content. Immutable.
 */
public final class SourceKey {

    private final byte[] bytes;
    private final int hash;

    private SourceKey(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    /** The key with these bytes (copied). */
    public static SourceKey of(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length == 0) {
            throw new IllegalArgumentException("A source key is never empty");
        }
        return new SourceKey(bytes.clone());
    }

    /**
     * The key with these bytes, not copied: the caller hands the array over (e.g. a Kafka record's key, which nothing
     * else uses) and must not modify it.
     */
    public static SourceKey ofOwned(byte[] bytes) {
        Objects.requireNonNull(bytes, "bytes");
        if (bytes.length == 0) {
            throw new IllegalArgumentException("A source key is never empty");
        }
        return new SourceKey(bytes);
    }

    /** A copy of the key bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** The key bytes without copying, for JDBC parameters; callers must not modify them. */
    byte[] unsafeBytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SourceKey that && hash == that.hash && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return bytes.length <= 64 && isPrintable() ? new String(bytes, StandardCharsets.UTF_8)
            : HexFormat.of().formatHex(bytes, 0, Math.min(bytes.length, 64));
    }

    private boolean isPrintable() {
        for (byte b : bytes) {
            if (b < 0x20 || b == 0x7F) {
                return false;
            }
        }
        return true;
    }
}
