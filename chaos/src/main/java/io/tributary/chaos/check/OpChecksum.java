package io.tributary.chaos.check;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * An op's checksum as the sync protocol defines it, computed again by the auditor from the op's own fields: the
 * first four bytes, little-endian, of SHA-256 over {@code put.<table>.<id>.<data>} ({@code delete.<table>.<id>} for
 * a REMOVE), as an unsigned 32-bit number. Stateless.
 */
final class OpChecksum {

    private OpChecksum() {
    }

    /** The checksum of a PUT of {@code data}, or of a REMOVE when {@code data} is null. */
    static long of(String table, String id, String data) {
        String text = data == null ? "delete." + table + "." + id : "put." + table + "." + id + "." + data;
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return (hash[0] & 0xFFL) | (hash[1] & 0xFFL) << 8 | (hash[2] & 0xFFL) << 16 | (hash[3] & 0xFFL) << 24;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("No SHA-256 in this JVM", e);
        }
    }
}
