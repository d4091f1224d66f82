package io.tributary.api.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;

/**
 * One bucket op as sent in a {@code data} line.
 *
 * @param opId       the op id, &gt; 0
 * @param op         PUT or REMOVE
 * @param objectType the output table name
 * @param objectId   the row id
 * @param checksum   the op's checksum, unsigned 32-bit
 * @param data       the row's JSON object text for a PUT, null for a REMOVE
 */
public record OpEntry(long opId, OpType op, String objectType, String objectId, long checksum, String data) {

    public OpEntry {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(objectType, "objectType");
        Objects.requireNonNull(objectId, "objectId");
        if (opId <= 0) {
            throw new IllegalArgumentException("Op ids are > 0: " + opId);
        }
        if (checksum < 0 || checksum > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("Op checksum outside the unsigned 32-bit range: " + checksum);
        }
        if ((op == OpType.PUT) != (data != null)) {
            throw new IllegalArgumentException(op + " of " + objectType + "/" + objectId
                + (data == null ? " lacks data" : " carries data"));
        }
    }

    /**
     * The op's subkey: tells the client's oplog which earlier ops of the bucket this one supersedes. It depends only
     * on the output table and row id, so a row's PUTs and its REMOVE share it.
     */
    public String subkey() {
        return UUID.nameUUIDFromBytes((objectType + "/" + objectId).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** The kinds of op storage holds. */
    public enum OpType {
        PUT, REMOVE;

        /** The op of {@code bucket_data.op}: 1 = PUT, 2 = REMOVE. */
        public static OpType ofStorageCode(int code) {
            switch (code) {
                case 1:
                    return PUT;
                case 2:
                    return REMOVE;
                default:
                    throw new IllegalArgumentException("Unknown bucket op code " + code);
            }
        }
    }
}
