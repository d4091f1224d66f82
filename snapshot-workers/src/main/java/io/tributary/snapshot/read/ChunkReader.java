package io.tributary.snapshot.read;

import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.snapshot.publish.ChunkPublisher;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Objects;
import java.util.concurrent.Semaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one chunk attempt in one {@code REPEATABLE READ READ ONLY} transaction and hands its rows to a
 * {@link ChunkPublication} as they stream in (docs/design.md): first {@code pg_current_snapshot()} as the
 * chunk snapshot S, then the table's schema and the key range in key order, then {@code pg_current_wal_insert_lsn()}
 * as the high watermark HW; the done marker follows once Kafka acknowledged the rows ({@link ChunkPublication}). HW
 * is the WAL insert position, not the write position ({@code pg_current_wal_lsn()}): a transaction committed with
 * {@code synchronous_commit = off} is visible to S as soon as its commit record is in the WAL buffers, before it is
 * written, and HW must not lie below the commit of anything S sees. The read holds one permit of the process's
 * source read semaphore from its first statement to its end, so at most that many chunk reads run against the
 * source at once; publishing the previous chunk's rows needs no permit.
 *
 * <p>Not thread-safe: one per worker loop (it owns the loop's {@link SourceSession}).
 */
public final class ChunkReader {

    private static final Logger LOG = LoggerFactory.getLogger(ChunkReader.class);

    /**
     * Hears how far a read is, once per fetch-sized batch of rows, after the publication handed them to the producer
     * ({@link ChunkPublication#flush()}).
     */
    @FunctionalInterface
    public interface Progress {
        /** {@code rows} rows of the chunk were handed to the producer so far. */
        void rowsRead(long rows);
    }

    private final SourceSession session;
    private final Semaphore reads;
    private final ChunkPublisher publisher;
    private final int batchRows;

    /**
     * A reader over {@code session}, taking a permit of {@code reads} per chunk, publishing through
     * {@code publisher}, reporting progress every {@code batchRows} rows.
     */
    public ChunkReader(SourceSession session, Semaphore reads, ChunkPublisher publisher, int batchRows) {
        this.session = Objects.requireNonNull(session, "session");
        this.reads = Objects.requireNonNull(reads, "reads");
        this.publisher = Objects.requireNonNull(publisher, "publisher");
        if (batchRows < 1) {
            throw new IllegalArgumentException("batchRows must be >= 1, got " + batchRows);
        }
        this.batchRows = batchRows;
    }

    /**
     * Reads {@code task}'s range and publishes it. Returns once every record is handed to the producer (not yet
     * acknowledged: see {@link ChunkPublication#acknowledged()}).
     *
     * @throws SQLException          if the source failed (classify with {@code SqlErrors})
     * @throws InterruptedException  if interrupted while waiting for a read permit
     * @throws RuntimeException      a {@code SourceSchemaException} or {@code EncodingException} (permanent), or a
     *                               Kafka exception from a blocked or failed send
     */
    public ChunkPublication read(ChunkTask task, Progress progress) throws SQLException, InterruptedException {
        long start = System.nanoTime();
        reads.acquire();
        ChunkPublication publication;
        Lsn highWatermark;
        try {
            Connection connection = session.connection();
            try {
                PgSnapshot snapshot = PgSnapshot.parse(scalar(connection, "SELECT pg_current_snapshot()::text"));
                TableSchema schema = session.describe(task.table());
                JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
                RangeQuery query = RangeQuery.of(schema, encoder.selectList(), task.range());
                publication = publisher.begin(task, snapshot);
                try (PreparedStatement select = connection.prepareStatement(query.sql())) {
                    query.bind(select);
                    select.setFetchSize(Math.min(16, batchRows));
                    try (ResultSet rs = select.executeQuery()) {
                        long rows = 0;
                        while (rs.next()) {
                            EncodedRow row = encoder.encode(rs);
                            publication.send(row.key(), row.row().orElseThrow());
                            if (++rows % batchRows == 0) {
                                publication.flush();
                                progress.rowsRead(rows);
                            }
                        }
                    }
                }
                highWatermark = Lsn.parse(scalar(connection, "SELECT pg_current_wal_insert_lsn()::text"));
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                session.rollbackQuietly();
                throw e;
            }
        } finally {
            reads.release();
        }
        publication.finish(highWatermark);
        progress.rowsRead(publication.rows());
        LOG.debug("Read chunk {} of {} (attempt {}): {} rows in {} ms, high watermark {}", task.chunkId(),
            task.table().quoted(), task.attempt(), publication.rows(), (System.nanoTime() - start) / 1_000_000,
            highWatermark);
        return publication;
    }

    private static String scalar(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
