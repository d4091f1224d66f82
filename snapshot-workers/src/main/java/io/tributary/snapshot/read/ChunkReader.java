package io.tributary.snapshot.read;

import io.tributary.snapshot.publish.ChunkPublication;
import io.tributary.snapshot.publish.ChunkPublisher;
import io.tributary.source.catalog.TableDescription;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.topics.messages.ChunkTask;
import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.PgSnapshot;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads chunk attempts in {@code REPEATABLE READ READ ONLY} transactions and hands each chunk's rows to a
 * {@link ChunkPublication} as they stream in (docs/design.md): first {@code pg_current_snapshot()} as the chunk
 * snapshot S, then the tables' schemas, then per chunk its key range in key order and
 * {@code pg_current_wal_insert_lsn()} as its high watermark HW; the done marker follows once Kafka acknowledged the
 * rows ({@link ChunkPublication}). HW is the WAL insert position, not the write position
 * ({@code pg_current_wal_lsn()}): a transaction committed with {@code synchronous_commit = off} is visible to S as
 * soon as its commit record is in the WAL buffers, before it is written, and HW must not lie below the commit of
 * anything S sees.
 *
 * <p>Several chunks ({@link #readAll}) share a transaction, and so their snapshot and the description of their
 * tables (four catalog queries for all of them), while the transaction is younger than
 * {@value #SHARED_TRANSACTION_MS} ms when the next chunk starts: small chunks (one per small table) cost the source
 * two statements each instead of ten, and a large chunk still reads in a transaction of its own. Each chunk is as
 * consistent as if it were read alone at that moment: its rows, S and its HW are read in one transaction, its HW
 * after its rows. A read holds one permit of the process's source read semaphore from its first statement to its
 * end, so at most that many reads run against the source at once; publishing needs no permit.
 *
 * <p>Not thread-safe: one per worker loop (it owns the loop's {@link SourceSession}).
 */
public final class ChunkReader {

    private static final Logger LOG = LoggerFactory.getLogger(ChunkReader.class);
    private static final long SHARED_TRANSACTION_MS = 1000;

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
     * A reader over {@code session}, taking a permit of {@code reads} per read, publishing through
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
        List<ChunkPublication> read = new ArrayList<>(1);
        readAll(List.of(task), t -> progress, read::add);
        return read.get(0);
    }

    /**
     * Reads the ranges of {@code tasks} in their order and publishes them, handing each chunk's publication to
     * {@code done} as soon as its rows are handed to the producer and its HW is set (not yet acknowledged), before
     * the next chunk starts.
     *
     * @param tasks    the chunk attempts to read, one per chunk
     * @param progress the progress listener of each chunk
     * @param done     hears every chunk read, in order
     * @throws SQLException          if the source failed (classify with {@code SqlErrors}); the chunks handed to
     *                               {@code done} before are read and published in full, the others are not
     * @throws InterruptedException  if interrupted while waiting for a read permit
     * @throws RuntimeException      a {@code SourceSchemaException} or {@code EncodingException} (permanent) for the
     *                               first chunk not handed to {@code done}, or a Kafka exception from a blocked or
     *                               failed send
     */
    public void readAll(List<ChunkTask> tasks, Function<ChunkTask, Progress> progress,
                        Consumer<ChunkPublication> done) throws SQLException, InterruptedException {
        reads.acquire();
        try {
            int next = 0;
            while (next < tasks.size()) {
                next = readInOneTransaction(tasks, next, progress, done);
            }
        } finally {
            reads.release();
        }
    }

    /** Reads chunks from {@code tasks[from]} on in one transaction; returns the index of the first not read. */
    private int readInOneTransaction(List<ChunkTask> tasks, int from, Function<ChunkTask, Progress> progress,
                                     Consumer<ChunkPublication> done) throws SQLException {
        long begun = System.nanoTime();
        Connection connection = session.connection();
        int next = from;
        try {
            PgSnapshot snapshot = PgSnapshot.parse(scalar(connection, "SELECT pg_current_snapshot()::text"));
            Set<TableId> tables = new LinkedHashSet<>();
            tasks.subList(from, tasks.size()).forEach(task -> tables.add(task.table()));
            Map<TableId, TableDescription> schemas = session.describeAll(tables);
            do {
                ChunkTask task = tasks.get(next);
                long start = System.nanoTime();
                Progress listener = progress.apply(task);
                ChunkPublication publication = readRange(connection, task, snapshot,
                    schemas.get(task.table()).schema(), listener);
                Lsn highWatermark = Lsn.parse(scalar(connection, "SELECT pg_current_wal_insert_lsn()::text"));
                publication.finish(highWatermark);
                listener.rowsRead(publication.rows());
                LOG.debug("Read chunk {} of {} (attempt {}): {} rows in {} ms, high watermark {}", task.chunkId(),
                    task.table().quoted(), task.attempt(), publication.rows(), (System.nanoTime() - start) / 1_000_000,
                    highWatermark);
                done.accept(publication);
                next++;
            } while (next < tasks.size() && System.nanoTime() - begun < SHARED_TRANSACTION_MS * 1_000_000);
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            session.rollbackQuietly();
            throw e;
        }
        return next;
    }

    private ChunkPublication readRange(Connection connection, ChunkTask task, PgSnapshot snapshot, TableSchema schema,
                                       Progress progress) throws SQLException {
        JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
        RangeQuery query = RangeQuery.of(schema, encoder.selectList(), task.range());
        ChunkPublication publication = publisher.begin(task, snapshot);
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
        return publication;
    }

    private static String scalar(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
