package io.tributary.ingest.capture;

import io.tributary.topics.messages.TableId;
import java.util.Objects;

/**
 * A captured table's deletes would not say which row went away (its replica identity carries no key), and ingest
 * is not allowed to, or could not, change it. The message names the table and the fix.
 */
public final class ReplicaIdentityException extends CaptureSetupException {

    private static final long serialVersionUID = 1L;

    private final transient TableId table;

    public ReplicaIdentityException(TableId table, String detail) {
        super("Source table " + table.quoted() + " cannot be captured: " + detail + ". Fix: ALTER TABLE "
            + table.quoted() + " REPLICA IDENTITY FULL; (or REPLICA IDENTITY DEFAULT on a table with a primary"
            + " key), as its owner.");
        this.table = Objects.requireNonNull(table, "table");
    }

    public ReplicaIdentityException(TableId table, String detail, Throwable cause) {
        super("Source table " + table.quoted() + " cannot be captured: " + detail + ". Fix: ALTER TABLE "
            + table.quoted() + " REPLICA IDENTITY FULL; as its owner (or make the ingest user its owner).", cause);
        this.table = Objects.requireNonNull(table, "table");
    }

    /** The table concerned. */
    public TableId table() {
        return table;
    }
}
