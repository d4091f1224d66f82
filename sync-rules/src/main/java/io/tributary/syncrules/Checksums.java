package io.tributary.syncrules;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Bucket op checksums, as PowerSync clients verify them.
 *
 * <p>An op's checksum is the first 4 bytes of the SHA-256 digest of the UTF-8 bytes of
 * {@code put.<table>.<id>.<data>} (for a PUT) or {@code delete.<table>.<id>} (for a REMOVE), read as an
 * unsigned little-endian 32-bit integer. A bucket's checksum is the sum of its ops' checksums modulo 2^32.
 * All values are returned as {@code long} in {@code [0, 2^32)}.
 *
 * <p>Thread-safe: every thread uses its own digest.
 */
public final class Checksums {

    /** 2^32 - 1: checksums live in the unsigned 32-bit range. */
    public static final long MASK = 0xFFFF_FFFFL;

    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(Checksums::newDigest);

    private Checksums() {
    }

    /** The checksum of a PUT op of row {@code id} of output table {@code table} with row JSON {@code data}. */
    public static long put(String table, String id, String data) {
        return put(table, id, data.getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link #put(String, String, String)}, the row JSON given as its UTF-8 bytes {@code dataUtf8}. */
    public static long put(String table, String id, byte[] dataUtf8) {
        // The UTF-8 of the op text is that of its parts: the ASCII dots between them keep any surrogate pair whole.
        MessageDigest digest = SHA_256.get();
        digest.update(("put." + table + "." + id + ".").getBytes(StandardCharsets.UTF_8));
        digest.update(dataUtf8);
        return first4(digest.digest());
    }

    /** The checksum of a REMOVE op of row {@code id} of output table {@code table}. */
    public static long remove(String table, String id) {
        return ofText("delete." + table + "." + id);
    }

    /** The checksum of an op given its full text, e.g. {@code put.todos.t1.{"id":"t1"}}. */
    public static long ofText(String opText) {
        return first4(SHA_256.get().digest(opText.getBytes(StandardCharsets.UTF_8)));
    }

    private static long first4(byte[] hash) {
        return (hash[0] & 0xFFL)
            | (hash[1] & 0xFFL) << 8
            | (hash[2] & 0xFFL) << 16
            | (hash[3] & 0xFFL) << 24;
    }

    /** The sum of two checksums modulo 2^32; the identity element is 0. */
    public static long add(long a, long b) {
        return (a + b) & MASK;
    }

    /** The sum of checksums modulo 2^32, e.g. a bucket's checksum from its ops' checksums. */
    public static long sum(long... checksums) {
        long total = 0;
        for (long checksum : checksums) {
            total = add(total, checksum);
        }
        return total;
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java runtime", e);
        }
    }
}
