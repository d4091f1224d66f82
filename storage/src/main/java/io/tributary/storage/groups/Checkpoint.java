package io.tributary.storage.groups;

/**
 * A published checkpoint: every op with {@code op_id <= opId} is final, and together they are the source state
 * at {@code lsn} (Postgres LSN text, e.g. {@code 0/16B3748}). Checkpoints of a group only move forward.
 */
public record Checkpoint(long opId, String lsn, long epoch) {

    public Checkpoint {
        if (opId < 0 || epoch < 0) {
            throw new IllegalArgumentException("Checkpoint op id and epoch are >= 0: " + opId + ", " + epoch);
        }
        if (lsn == null || !lsn.matches("[0-9A-F]{1,8}/[0-9A-F]{1,8}")) {
            throw new IllegalArgumentException("Not a Postgres LSN: " + lsn);
        }
    }
}
