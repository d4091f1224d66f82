package io.tributary.topics.codec.internals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.tributary.topics.json.CanonicalJsonFactory;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.ResolvedRow;
import io.tributary.topics.messages.SnapshotPosition;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SourcePosition;
import io.tributary.topics.messages.StreamPosition;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TablePlan;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import io.tributary.topics.messages.TableWindowMarker;
import io.tributary.topics.messages.TopicMessage;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The value encoder as it was written with Jackson's generator before {@link ValueEncoder} wrote bytes itself: the
 * reference the byte-for-byte equality tests compare against. Test code only.
 */
final class JacksonValueEncoder {

    private static final int VERSION = 1;

    private JacksonValueEncoder() {
    }

    /** The envelope of {@code message}. */
    static byte[] encode(TopicMessage message) {
        ByteArrayBuilder out = new ByteArrayBuilder(sizeHint(message));
        try (JsonGenerator g = CanonicalJsonFactory.FACTORY.createGenerator(out)) {
            g.writeStartObject();
            g.writeNumberField(Fields.VERSION, VERSION);
            g.writeStringField(Fields.TYPE, WireTypes.of(message));
            body(g, message);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory failed", e);
        }
        return out.toByteArray();
    }

    private static int sizeHint(TopicMessage message) {
        if (message instanceof ResolvedRow) {
            return ((ResolvedRow) message).row().json().length() + 160;
        } else if (message instanceof SnapshotRow) {
            return ((SnapshotRow) message).row().json().length() + 200;
        } else if (message instanceof ChangeEvent) {
            return ((ChangeEvent) message).row().map(r -> r.json().length()).orElse(0) + 200;
        }
        return 160;
    }

    private static void body(JsonGenerator g, TopicMessage message) throws IOException {
        if (message instanceof ChangeEvent) {
            ChangeEvent e = (ChangeEvent) message;
            table(g, e.table());
            g.writeStringField(Fields.OP, e.op().wireName());
            g.writeFieldName(Fields.PK);
            g.writeRawValue(e.pk().json());
            if (e.row().isPresent()) {
                g.writeFieldName(Fields.ROW);
                g.writeRawValue(e.row().get().json());
            }
            g.writeStringField(Fields.LSN, e.lsn().toString());
            g.writeNumberField(Fields.SEQ, e.seq());
            g.writeNumberField(Fields.TX, e.txId());
        } else if (message instanceof Barrier) {
            Barrier b = (Barrier) message;
            g.writeNumberField(Fields.EPOCH, b.epoch());
            g.writeStringField(Fields.LSN, b.lsn().toString());
        } else if (message instanceof TableWindowMarker) {
            TableWindowMarker w = (TableWindowMarker) message;
            table(g, w.table());
            g.writeStringField(Fields.LSN, w.lsn().toString());
            g.writeStringField(Fields.WINDOW, w.windowId());
        } else if (message instanceof TableTruncate) {
            TableTruncate t = (TableTruncate) message;
            table(g, t.table());
            g.writeStringField(Fields.LSN, t.lsn().toString());
            g.writeNumberField(Fields.SEQ, t.seq());
            g.writeNumberField(Fields.TX, t.txId());
        } else if (message instanceof ChunkTask) {
            chunkTask(g, (ChunkTask) message);
        } else if (message instanceof SnapshotRow) {
            SnapshotRow r = (SnapshotRow) message;
            table(g, r.table());
            g.writeFieldName(Fields.PK);
            g.writeRawValue(r.pk().json());
            g.writeFieldName(Fields.ROW);
            g.writeRawValue(r.row().json());
            g.writeStringField(Fields.CHUNK, r.chunkId());
            g.writeStringField(Fields.WINDOW, r.windowId());
            g.writeNumberField(Fields.ATTEMPT, r.attempt());
            g.writeStringField(Fields.SNAPSHOT, r.snapshot().toString());
        } else if (message instanceof ChunkDone) {
            ChunkDone d = (ChunkDone) message;
            g.writeStringField(Fields.CHUNK, d.chunkId());
            table(g, d.table());
            g.writeStringField(Fields.WINDOW, d.windowId());
            g.writeNumberField(Fields.ATTEMPT, d.attempt());
            g.writeStringField(Fields.HIGH_WATERMARK, d.highWatermark().toString());
            g.writeNumberField(Fields.ROW_COUNT, d.rowCount());
        } else if (message instanceof TablePlan) {
            TablePlan p = (TablePlan) message;
            table(g, p.table());
            g.writeStringField(Fields.WINDOW, p.windowId());
            g.writeNumberField(Fields.CHUNK_COUNT, p.chunkCount());
        } else if (message instanceof ResolvedRow) {
            ResolvedRow r = (ResolvedRow) message;
            table(g, r.table());
            g.writeFieldName(Fields.PK);
            g.writeRawValue(r.pk().json());
            g.writeFieldName(Fields.ROW);
            g.writeRawValue(r.row().json());
            source(g, r.source());
        } else if (message instanceof TableReady) {
            TableReady t = (TableReady) message;
            table(g, t.table());
            g.writeStringField(Fields.WINDOW, t.windowId());
            g.writeStringField(Fields.HIGH_WATERMARK, t.highWatermark().toString());
        } else {
            throw new IllegalArgumentException(message.getClass().getSimpleName() + " has no value envelope");
        }
    }

    private static void chunkTask(JsonGenerator g, ChunkTask t) throws IOException {
        g.writeStringField(Fields.CHUNK, t.chunkId());
        table(g, t.table());
        if (t.range().lo().isPresent()) {
            g.writeFieldName(Fields.LO);
            g.writeRawValue(t.range().lo().get().json());
        }
        if (t.range().hi().isPresent()) {
            g.writeFieldName(Fields.HI);
            g.writeRawValue(t.range().hi().get().json());
        }
        g.writeNumberField(Fields.ATTEMPT, t.attempt());
        g.writeStringField(Fields.PRIORITY, t.priority().wireName());
        g.writeStringField(Fields.WINDOW, t.windowId());
    }

    private static void table(JsonGenerator g, TableId table) throws IOException {
        g.writeArrayFieldStart(Fields.TABLE);
        g.writeString(table.schema());
        g.writeString(table.name());
        g.writeEndArray();
    }

    private static void source(JsonGenerator g, SourcePosition source) throws IOException {
        g.writeArrayFieldStart(Fields.SOURCE);
        if (source instanceof StreamPosition) {
            StreamPosition s = (StreamPosition) source;
            g.writeString(Fields.SOURCE_STREAM);
            g.writeString(s.lsn().toString());
            g.writeNumber(s.seq());
        } else {
            SnapshotPosition c = (SnapshotPosition) source;
            g.writeString(Fields.SOURCE_CHUNK);
            g.writeString(c.chunkId());
            g.writeNumber(c.attempt());
        }
        g.writeEndArray();
    }
}
