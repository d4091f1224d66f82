package io.tributary.topics.codec.internals;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import io.tributary.topics.messages.TopicMessage;
import java.util.List;

/** The {@code "type"} names of value envelopes, and which topic may carry which. */
public final class WireTypes {

    public static final String CHANGE = "change";
    public static final String BARRIER = "barrier";
    public static final String TABLE_WINDOW = "table-window";
    public static final String TABLE_TRUNCATE = "table-truncate";
    public static final String CHUNK_TASK = "chunk-task";
    public static final String SNAPSHOT_ROW = "snapshot-row";
    public static final String CHUNK_DONE = "chunk-done";
    public static final String TABLE_PLAN = "table-plan";
    public static final String ROW = "row";
    public static final String TABLE_READY = "table-ready";

    /** The value types of {@code changes}. */
    public static final List<String> CHANGES = List.of(CHANGE, BARRIER, TABLE_WINDOW, TABLE_TRUNCATE);
    /** The value types of {@code snapshot-tasks}. */
    public static final List<String> SNAPSHOT_TASKS = List.of(CHUNK_TASK);
    /** The value types of {@code snapshot-rows}. */
    public static final List<String> SNAPSHOT_ROWS = List.of(SNAPSHOT_ROW, CHUNK_DONE, TABLE_PLAN);
    /** The non-null value types of {@code rows} (deletes are tombstones). */
    public static final List<String> ROWS = List.of(ROW, BARRIER, TABLE_READY, TABLE_TRUNCATE);

    private WireTypes() {
    }

    /** The type name of {@code message}. */
    public static String of(TopicMessage message) {
        if (message instanceof ChangeEvent) {
            return CHANGE;
        } else if (message instanceof Barrier) {
            return BARRIER;
        } else if (message instanceof TableWindowMarker) {
            return TABLE_WINDOW;
        } else if (message instanceof TableTruncate) {
            return TABLE_TRUNCATE;
        } else if (message instanceof ChunkTask) {
            return CHUNK_TASK;
        } else if (message instanceof SnapshotRow) {
            return SNAPSHOT_ROW;
        } else if (message instanceof ChunkDone) {
            return CHUNK_DONE;
        } else if (message instanceof TablePlan) {
            return TABLE_PLAN;
        } else if (message instanceof ResolvedRow) {
            return ROW;
        } else if (message instanceof TableReady) {
            return TABLE_READY;
        }
        throw new IllegalArgumentException(message.getClass().getSimpleName() + " has no value envelope");
    }
}
