package io.tributary.topics.codec.internals;

import static io.tributary.topics.codec.internals.ValueDecoders.required;

import com.fasterxml.jackson.core.JsonToken;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.KeyValues;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.SourcePosition;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import java.io.IOException;
import java.util.Optional;

/** Decoders of the stream-side envelopes: change, barrier, table-window, table-truncate, row, table-ready. */
final class StreamValues {

    private StreamValues() {
    }

    static ChangeEvent changeEvent(JsonReader r) throws IOException {
        TableId table = null;
        String op = null;
        KeyValues pk = null;
        RowJson row = null;
        Lsn lsn = null;
        long seq = -1;
        long tx = -1;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.OP -> op = r.string(f);
                case Fields.PK -> pk = r.keyValues(f);
                case Fields.ROW -> row = r.row(f);
                case Fields.LSN -> lsn = r.lsn(f);
                case Fields.SEQ -> seq = r.nonNegativeLong(f);
                case Fields.TX -> tx = r.nonNegativeLong(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.CHANGE;
        ChangeOp changeOp;
        try {
            changeOp = ChangeOp.fromWireName(required(op, Fields.OP, type));
        } catch (IllegalArgumentException e) {
            throw new MalformedInput(e.getMessage(), e);
        }
        return new ChangeEvent(required(table, Fields.TABLE, type), changeOp, required(pk, Fields.PK, type),
            Optional.ofNullable(row), required(lsn, Fields.LSN, type), required(seq, Fields.SEQ, type),
            required(tx, Fields.TX, type));
    }

    static Barrier barrier(JsonReader r) throws IOException {
        long epoch = -1;
        Lsn lsn = null;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.EPOCH -> epoch = r.nonNegativeLong(f);
                case Fields.LSN -> lsn = r.lsn(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.BARRIER;
        return new Barrier(required(epoch, Fields.EPOCH, type), required(lsn, Fields.LSN, type));
    }

    static TableWindowMarker tableWindow(JsonReader r) throws IOException {
        TableId table = null;
        Lsn lsn = null;
        String window = null;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.LSN -> lsn = r.lsn(f);
                case Fields.WINDOW -> window = r.string(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.TABLE_WINDOW;
        return new TableWindowMarker(required(table, Fields.TABLE, type), required(lsn, Fields.LSN, type),
            required(window, Fields.WINDOW, type));
    }

    static TableTruncate tableTruncate(JsonReader r) throws IOException {
        TableId table = null;
        Lsn lsn = null;
        long seq = -1;
        long tx = -1;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.LSN -> lsn = r.lsn(f);
                case Fields.SEQ -> seq = r.nonNegativeLong(f);
                case Fields.TX -> tx = r.nonNegativeLong(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.TABLE_TRUNCATE;
        return new TableTruncate(required(table, Fields.TABLE, type), required(lsn, Fields.LSN, type),
            required(seq, Fields.SEQ, type), required(tx, Fields.TX, type));
    }

    static ResolvedRow resolvedRow(JsonReader r) throws IOException {
        TableId table = null;
        KeyValues pk = null;
        RowJson row = null;
        SourcePosition source = null;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.PK -> pk = r.keyValues(f);
                case Fields.ROW -> row = r.row(f);
                case Fields.SOURCE -> source = source(r);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.ROW;
        return new ResolvedRow(required(table, Fields.TABLE, type), required(pk, Fields.PK, type),
            required(row, Fields.ROW, type), required(source, Fields.SOURCE, type));
    }

    private static SourcePosition source(JsonReader r) throws IOException {
        r.expect(JsonToken.START_ARRAY, "src (an array)");
        String kind = r.string("src kind");
        SourcePosition position;
        if (Fields.SOURCE_STREAM.equals(kind)) {
            position = new StreamPosition(r.lsn("src lsn"), r.nonNegativeLong("src seq"));
        } else if (Fields.SOURCE_CHUNK.equals(kind)) {
            String chunk = r.string("src chunk");
            position = new SnapshotPosition(chunk, r.nonNegativeInt("src attempt"));
        } else {
            throw new MalformedInput("unknown src kind '" + kind + "' (expected s or c)");
        }
        r.expect(JsonToken.END_ARRAY, "the end of src");
        return position;
    }

    static TableReady tableReady(JsonReader r) throws IOException {
        TableId table = null;
        String window = null;
        Lsn hw = null;
        for (String f = r.nextField(); f != null; f = r.nextField()) {
            switch (f) {
                case Fields.TABLE -> table = r.table(f);
                case Fields.WINDOW -> window = r.string(f);
                case Fields.HIGH_WATERMARK -> hw = r.lsn(f);
                default -> r.skipValue();
            }
        }
        String type = WireTypes.TABLE_READY;
        return new TableReady(required(table, Fields.TABLE, type), required(window, Fields.WINDOW, type),
            required(hw, Fields.HIGH_WATERMARK, type));
    }
}
