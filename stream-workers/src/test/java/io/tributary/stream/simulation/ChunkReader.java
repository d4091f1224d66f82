package io.tributary.stream.simulation;

import static org.awaitility.Awaitility.await;

import io.tributary.testing.PostgresDatabase;
import io.tributary.topics.TopicNames;
import io.tributary.topics.codec.TopicCodec;
import io.tributary.topics.messages.ChunkDone;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowsMessage;
import io.tributary.topics.messages.TablePlan;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * A test stand-in for the planner and the snapshot workers: opens a window through the WAL, publishes the table
 * plan, and reads chunks of {@code items} ({@code [i * size, (i + 1) * size)}, the last one unbounded) each in a
 * {@code REPEATABLE READ READ ONLY} transaction under {@code pg_current_snapshot()}, publishing the rows by key and
 * the done marker (with {@code pg_current_wal_lsn()} as high watermark) to every partition.
 *
 * <p>To make the merge's hard case common, a read keeps its transaction open a little after taking its snapshot
 * (so writers commit changes it cannot see), and its rows are published only once the capture has published past
 * the chunk's high watermark, so those newer stream events usually reach the merge before the stale rows.
 */
public final class ChunkReader {

    private final PostgresDatabase db;
    private final LogicalCapture capture;
    private final KafkaProducer<byte[], byte[]> producer;
    private final TopicNames names;
    private final int partitions;
    private final String windowId;
    private final int chunkSize;
    private final int chunks;
    private Lsn highestWatermark = Lsn.ZERO;

    public ChunkReader(PostgresDatabase db, LogicalCapture capture, KafkaProducer<byte[], byte[]> producer,
                       TopicNames names, int partitions, String windowId, int chunkSize, int chunks) {
        this.db = db;
        this.capture = capture;
        this.producer = producer;
        this.names = names;
        this.partitions = partitions;
        this.windowId = windowId;
        this.chunkSize = chunkSize;
        this.chunks = chunks;
    }

    /** Commits the window marker ({@code pg_logical_emit_message}) and publishes the plan. */
    public void openWindow() throws SQLException {
        db.execute("SELECT pg_logical_emit_message(true, '" + LogicalCapture.WINDOW_PREFIX + "', '" + windowId + "')");
        TopicCodec.SNAPSHOT_ROWS.recordsToEveryPartition(names.snapshotRows(), partitions,
            TablePlan.of(ItemsTable.ID, windowId, chunks)).forEach(producer::send);
    }

    /** Reads and publishes chunk {@code index} (attempt 1). */
    public void read(int index) throws SQLException {
        Attempt attempt = readAttempt(index, 1);
        publish(attempt.rows);
        publish(List.of(attempt.done));
    }

    /**
     * Chunk {@code index} retried while its first attempt is a zombie: half of attempt 1's rows, then attempt 2
     * complete, then the rest of attempt 1 and its done marker, late.
     */
    public void readRetried(int index) throws SQLException {
        Attempt first = readAttempt(index, 1);
        int half = first.rows.size() / 2;
        publish(first.rows.subList(0, half));
        Attempt second = readAttempt(index, 2);
        publish(second.rows);
        publish(List.of(second.done));
        publish(first.rows.subList(half, first.rows.size()));
        publish(List.of(first.done));
    }

    /** The highest high watermark of the chunks read so far: what {@code table-ready} must carry. */
    public Lsn highestWatermark() {
        return highestWatermark;
    }

    private void publish(List<? extends SnapshotRowsMessage> messages) {
        for (SnapshotRowsMessage message : messages) {
            if (message instanceof ChunkDone) {
                TopicCodec.SNAPSHOT_ROWS.recordsToEveryPartition(names.snapshotRows(), partitions, message)
                    .forEach(producer::send);
            } else {
                producer.send(TopicCodec.SNAPSHOT_ROWS.recordByKey(names.snapshotRows(), partitions, message));
            }
        }
        producer.flush();
    }

    private Attempt readAttempt(int index, int attempt) throws SQLException {
        String chunkId = windowId + "#" + index;
        String range = "id >= " + (index * chunkSize)
            + (index == chunks - 1 ? "" : " AND id < " + (index + 1) * chunkSize);
        try (Connection c = db.connect()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            c.setReadOnly(true);
            PgSnapshot snapshot;
            List<SnapshotRow> rows = new ArrayList<>();
            try (Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SELECT pg_current_snapshot()::text")) {
                    rs.next();
                    snapshot = PgSnapshot.parse(rs.getString(1));
                }
                s.execute("SELECT pg_sleep(0.05)");
                try (PreparedStatement select = c.prepareStatement("SELECT id, v, n FROM items WHERE " + range
                         + " ORDER BY id"); ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new SnapshotRow(ItemsTable.ID, ItemsTable.pk(rs.getLong(1)),
                            ItemsTable.row(rs.getLong(1), rs.getString(2), rs.getLong(3)), chunkId, windowId, attempt,
                            snapshot));
                    }
                }
                Lsn highWatermark;
                try (ResultSet rs = s.executeQuery("SELECT pg_current_wal_lsn()::text")) {
                    rs.next();
                    highWatermark = Lsn.parse(rs.getString(1));
                }
                c.commit();
                highestWatermark = Lsn.max(highestWatermark, highWatermark);
                await().atMost(Duration.ofSeconds(20))
                    .until(() -> !capture.publishedThrough().isBefore(highWatermark));
                return new Attempt(rows, new ChunkDone(chunkId, ItemsTable.ID, windowId, attempt, highWatermark,
                    rows.size()));
            }
        }
    }

    private record Attempt(List<SnapshotRow> rows, ChunkDone done) {
    }
}
