package io.tributary.topics.codec.internals;

import static io.tributary.topics.codec.internals.ValueDecoders.required;

import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkRange;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TaskPriority;
import java.io.IOException;
import java.util.Optional;

/** Decoders of the snapshot-side envelopes: chunk-task, snapshot-row, chunk-done, table-plan. */
final class SnapshotValues {

    private SnapshotValues() {
    }

    static ChunkTask chunkTask(JsonReader r) throws IOException {
        String chunk = null;
        TableId table = null;
        KeyValues lo = null;
        KeyValues hi = null;
        long attempt = -1;
        String priority = null;
        String window = null;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.CHUNK -> chunk = r.string(f);
                case Fields.TABLE -> table = r.table(f);
                case Fields.LO -> lo = r.keyValues(f);
                case Fields.HI -> hi = r.keyValues(f);
                case Fields.ATTEMPT -> attempt = r.nonNegativeInt(f);
                case Fields.PRIORITY -> priority = r.string(f);
                case Fields.WINDOW -> window = r.string(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.CHUNK_TASK;
        TaskPriority taskPriority;
        try {
            taskPriority = TaskPriority.fromWireName(required(priority, Fields.PRIORITY, type));
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(e.getMessage(), e);
        }
        return new ChunkTask(required(chunk, Fields.CHUNK, type), required(table, Fields.TABLE, type),
            new ChunkRange(Optional.ofNullable(lo), Optional.ofNullable(hi)),
            (int) required(attempt, Fields.ATTEMPT, type), taskPriority, required(window, Fields.WINDOW, type));
    }

    static SnapshotRow snapshotRow(JsonReader r) throws IOException {
        TableId table = null;
        KeyValues pk = null;
        RowJson row = null;
        String chunk = null;
        String window = null;
        long attempt = -1;
        PgSnapshot snapshot = null;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.PK -> pk = r.keyValues(f);
                case Fields.ROW -> row = r.row(f);
                case Fields.CHUNK -> chunk = r.string(f);
                case Fields.WINDOW -> window = r.string(f);
                case Fields.ATTEMPT -> attempt = r.nonNegativeInt(f);
                case Fields.SNAPSHOT -> snapshot = r.snapshot(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.SNAPSHOT_ROW;
        return new SnapshotRow(required(table, Fields.TABLE, type), required(pk, Fields.PK, type),
            required(row, Fields.ROW, type), required(chunk, Fields.CHUNK, type),
            required(window, Fields.WINDOW, type), (int) required(attempt, Fields.ATTEMPT, type),
            required(snapshot, Fields.SNAPSHOT, type));
    }

    static ChunkDone chunkDone(JsonReader r) throws IOException {
        String chunk = null;
        TableId table = null;
        String window = null;
        long attempt = -1;
        Lsn hw = null;
        long rows = -1;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.CHUNK -> chunk = r.string(f);
                case Fields.TABLE -> table = r.table(f);
                case Fields.WINDOW -> window = r.string(f);
                case Fields.ATTEMPT -> attempt = r.nonNegativeInt(f);
                case Fields.HIGH_WATERMARK -> hw = r.lsn(f);
                case Fields.ROW_COUNT -> rows = r.nonNegativeLong(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.CHUNK_DONE;
        return new ChunkDone(required(chunk, Fields.CHUNK, type), required(table, Fields.TABLE, type),
            required(window, Fields.WINDOW, type), (int) required(attempt, Fields.ATTEMPT, type),
            required(hw, Fields.HIGH_WATERMARK, type), required(rows, Fields.ROW_COUNT, type));
    }

    static TablePlan tablePlan(JsonReader r) throws IOException {
        TableId table = null;
        String window = null;
        long chunks = -1;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.WINDOW -> window = r.string(f);
                case Fields.CHUNK_COUNT -> chunks = r.nonNegativeInt(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.TABLE_PLAN;
        return new TablePlan(required(table, Fields.TABLE, type), required(window, Fields.WINDOW, type),
            (int) required(chunks, Fields.CHUNK_COUNT, type));
    }
}
