package io.tributary.topics.codec.internals;

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

/**
 * Writes value envelopes: a compact UTF-8 JSON object {@code {"v":1,"type":"...",...}} whose remaining fields
 * depend on the type (see {@link ValueDecoders} for the reverse). Rows and keys are written verbatim: their UTF-8
 * bytes, as read. The bytes are those of Jackson's generator with the shared factory ({@link EnvelopeWriter}
 * guarantees it), written without it. Stateless and thread-safe.
 */
public final class ValueEncoder {

    /** The value envelope version this code writes and the only one it reads. */
    public static final int VERSION = 1;

    private ValueEncoder() {
    }

    /** The envelope of {@code message}. */
    public static byte[] encode(TopicMessage message) {
        EnvelopeWriter g = new EnvelopeWriter(sizeHint(message));
        g.startObject(Fields.VERSION).number(VERSION);
        g.field(Fields.TYPE).string(WireTypes.of(message));
        body(g, message);
        g.endObject();
        return g.toByteArray();
    }

    private static int sizeHint(TopicMessage message) {
        if (message instanceof ResolvedRow) {
            return ((ResolvedRow) message).row().unsafeUtf8().length + 160;
        } else if (message instanceof SnapshotRow) {
            return ((SnapshotRow) message).row().unsafeUtf8().length + 200;
        } else if (message instanceof ChangeEvent) {
            return ((ChangeEvent) message).row().map(r -> r.unsafeUtf8().length).orElse(0) + 200;
        }
        return 160;
    }

    private static void body(EnvelopeWriter g, TopicMessage message) {
        if (message instanceof ChangeEvent) {
            ChangeEvent e = (ChangeEvent) message;
            table(g, e.table());
            g.field(Fields.OP).string(e.op().wireName());
            g.field(Fields.PK).bytes(e.pk().unsafeUtf8());
            if (e.row().isPresent()) {
                g.field(Fields.ROW).bytes(e.row().get().unsafeUtf8());
            }
            g.field(Fields.LSN).string(e.lsn().toString());
            g.field(Fields.SEQ).number(e.seq());
            g.field(Fields.TX).number(e.txId());
        } else if (message instanceof Barrier) {
            Barrier b = (Barrier) message;
            g.field(Fields.EPOCH).number(b.epoch());
            g.field(Fields.LSN).string(b.lsn().toString());
        } else if (message instanceof TableWindowMarker) {
            TableWindowMarker w = (TableWindowMarker) message;
            table(g, w.table());
            g.field(Fields.LSN).string(w.lsn().toString());
            g.field(Fields.WINDOW).string(w.windowId());
        } else if (message instanceof TableTruncate) {
            TableTruncate t = (TableTruncate) message;
            table(g, t.table());
            g.field(Fields.LSN).string(t.lsn().toString());
            g.field(Fields.SEQ).number(t.seq());
            g.field(Fields.TX).number(t.txId());
        } else if (message instanceof ChunkTask) {
            chunkTask(g, (ChunkTask) message);
        } else if (message instanceof SnapshotRow) {
            SnapshotRow r = (SnapshotRow) message;
            table(g, r.table());
            g.field(Fields.PK).bytes(r.pk().unsafeUtf8());
            g.field(Fields.ROW).bytes(r.row().unsafeUtf8());
            g.field(Fields.CHUNK).string(r.chunkId());
            g.field(Fields.WINDOW).string(r.windowId());
            g.field(Fields.ATTEMPT).number(r.attempt());
            g.field(Fields.SNAPSHOT).bytes(SnapshotText.quoted(r.snapshot()));
        } else if (message instanceof ChunkDone) {
            ChunkDone d = (ChunkDone) message;
            g.field(Fields.CHUNK).string(d.chunkId());
            table(g, d.table());
            g.field(Fields.WINDOW).string(d.windowId());
            g.field(Fields.ATTEMPT).number(d.attempt());
            g.field(Fields.HIGH_WATERMARK).string(d.highWatermark().toString());
            g.field(Fields.ROW_COUNT).number(d.rowCount());
        } else if (message instanceof TablePlan) {
            TablePlan p = (TablePlan) message;
            table(g, p.table());
            g.field(Fields.WINDOW).string(p.windowId());
            g.field(Fields.CHUNK_COUNT).number(p.chunkCount());
        } else if (message instanceof ResolvedRow) {
            ResolvedRow r = (ResolvedRow) message;
            table(g, r.table());
            g.field(Fields.PK).bytes(r.pk().unsafeUtf8());
            g.field(Fields.ROW).bytes(r.row().unsafeUtf8());
            source(g, r.source());
        } else if (message instanceof TableReady) {
            TableReady t = (TableReady) message;
            table(g, t.table());
            g.field(Fields.WINDOW).string(t.windowId());
            g.field(Fields.HIGH_WATERMARK).string(t.highWatermark().toString());
        } else {
            throw new IllegalArgumentException(message.getClass().getSimpleName() + " has no value envelope");
        }
    }

    private static void chunkTask(EnvelopeWriter g, ChunkTask t) {
        g.field(Fields.CHUNK).string(t.chunkId());
        table(g, t.table());
        if (t.range().lo().isPresent()) {
            g.field(Fields.LO).bytes(t.range().lo().get().unsafeUtf8());
        }
        if (t.range().hi().isPresent()) {
            g.field(Fields.HI).bytes(t.range().hi().get().unsafeUtf8());
        }
        g.field(Fields.ATTEMPT).number(t.attempt());
        g.field(Fields.PRIORITY).string(t.priority().wireName());
        g.field(Fields.WINDOW).string(t.windowId());
    }

    private static void table(EnvelopeWriter g, TableId table) {
        g.field(Fields.TABLE).startArray();
        g.string(table.schema()).comma().string(table.name());
        g.endArray();
    }

    private static void source(EnvelopeWriter g, SourcePosition source) {
        g.field(Fields.SOURCE).startArray();
        if (source instanceof StreamPosition) {
            StreamPosition s = (StreamPosition) source;
            g.string(Fields.SOURCE_STREAM).comma().string(s.lsn().toString()).comma().number(s.seq());
        } else {
            SnapshotPosition c = (SnapshotPosition) source;
            g.string(Fields.SOURCE_CHUNK).comma().string(c.chunkId()).comma().number(c.attempt());
        }
        g.endArray();
    }
}
