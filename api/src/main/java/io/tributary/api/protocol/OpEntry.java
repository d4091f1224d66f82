package io.tributary.api.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;

/**
 * One bucket op as sent in a {@code data} line.
 *
 * @param opId       the op id, &gt; 0
 * @param op         PUT, REMOVE, MOVE or CLEAR
 * @param objectType the output table name (storage keeps it for a MOVE; empty for a CLEAR)
 * @param objectId   the row id (likewise)
 * @param checksum   the op's checksum, unsigned 32-bit; a CLEAR's is the sum of the ops it replaced
 * @param data       the row's JSON object text for a PUT, null otherwise
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

    /** Whether the op names a row on the wire: PUT and REMOVE do, MOVE and CLEAR carry only an id and checksum. */
    public boolean namesRow() {
        return op == OpType.PUT || op == OpType.REMOVE;
    }

    /**
     * The kinds of op storage holds. Compaction turns a superseded PUT or REMOVE into a MOVE (kept for its checksum
     * only) and folds a bucket's leading MOVE and REMOVE ops into one CLEAR, which tells the client to drop the
     * bucket's earlier ops.
     */
    public enum OpType {
        PUT, REMOVE, MOVE, CLEAR;

        /** The op of {@code bucket_data.op}: 1 = PUT, 2 = REMOVE, 3 = MOVE, 4 = CLEAR. */
        public static OpType ofStorageCode(int code) {
            switch (code) {
                case 1:
                    return PUT;
                case 2:
                    return REMOVE;
                case 3:
                    return MOVE;
                case 4:
                    return CLEAR;
                default:
                    throw new IllegalArgumentException("Unknown bucket op code " + code);
            }
        }
    }
}
