package io.tributary.ingest.planner;

import io.tributary.source.catalog.ColumnType;
import io.tributary.source.catalog.SourceColumn;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.source.sql.Identifiers;
import io.tributary.topics.messages.KeyValues;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Cuts a table into primary key ranges of about {@code chunkRows} rows without scanning it.
 *
 * <ul>
 *   <li>The size comes from {@code pg_class.reltuples} (the catalog's estimate); a table estimated at most
 *       {@code chunkRows} is one chunk, read whole.</li>
 *   <li>A single integer key ({@code smallint}, {@code integer}, {@code bigint}) is cut arithmetically between
 *       {@code min} and {@code max} (two index probes) into equal key spans.</li>
 *   <li>Any other splittable key (composite, text, uuid, numeric, temporal ...) is cut at quantiles of a
 *       {@code TABLESAMPLE SYSTEM} sample of its key columns, sorted in key order: a fraction of the pages sized
 *       to yield about 32 keys per chunk (at most {@code maxSampleRows}), never fewer than 128 pages. A table never
 *       analyzed is estimated from the same sample and its size on disk.</li>
 *   <li>Keys with array or JSON columns are not cut (one chunk): their bounds would not round-trip as query
 *       parameters.</li>
 * </ul>
 * Bounds are canonical key arrays (the source module's encoding), the same text a worker's range query casts back.
 * Stateless and thread-safe; connections are not.
 */
public final class ChunkSplitter {

    private static final Set<ColumnType> INTEGERS = EnumSet.of(ColumnType.INT2, ColumnType.INT4, ColumnType.INT8);
    private static final Set<ColumnType> UNSPLITTABLE = EnumSet.of(ColumnType.JSON, ColumnType.JSONB);
    private static final int KEYS_PER_CHUNK = 32;
    private static final int MIN_SAMPLE_ROWS = 1_000;
    private static final long MIN_SAMPLE_PAGES = 128;
    private static final long UNANALYZED_SAMPLE_PAGES = 512;
    private static final String SIZE = """
        SELECT greatest(coalesce((SELECT sum(pg_relation_size(relid))
                                    FROM pg_partition_tree(?::oid) WHERE isleaf), 0),
                        pg_relation_size(?::oid)) / current_setting('block_size')::bigint""";

    private final int chunkRows;
    private final int maxSampleRows;

    /** A splitter aiming at {@code chunkRows} rows per chunk, sampling at most {@code maxSampleRows} keys. */
    public ChunkSplitter(int chunkRows, int maxSampleRows) {
        if (chunkRows < 1 || maxSampleRows < 100) {
            throw new IllegalArgumentException("chunkRows >= 1 and maxSampleRows >= 100 expected, got " + chunkRows
                + ", " + maxSampleRows);
        }
        this.chunkRows = chunkRows;
        this.maxSampleRows = maxSampleRows;
    }

    /** Cuts {@code table}, reading its key bounds from {@code source} (auto-commit on entry; restored). */
    public TableSplit split(Connection source, TableSchema table) throws SQLException {
        List<SourceColumn> keys = keyColumns(table);
        OptionalLong estimate = table.estimatedRows();
        if (estimate.isPresent() && estimate.getAsLong() <= chunkRows) {
            return TableSplit.single(estimate.getAsLong());
        }
        if (keys.stream().anyMatch(k -> k.array() || UNSPLITTABLE.contains(k.type()))) {
            return TableSplit.single(estimate.orElse(0));
        }
        if (keys.size() == 1 && INTEGERS.contains(keys.get(0).type()) && estimate.isPresent()) {
            return byKeySpan(source, table, keys.get(0), estimate.getAsLong());
        }
        return bySample(source, table, keys, estimate);
    }

    private static List<SourceColumn> keyColumns(TableSchema table) {
        List<SourceColumn> keys = new ArrayList<>();
        for (String name : table.keyColumns()) {
            keys.add(table.column(name).orElseThrow());
        }
        return keys;
    }

    private TableSplit byKeySpan(Connection source, TableSchema table, SourceColumn key, long estimate)
        throws SQLException {
        String column = Identifiers.quote(key.name());
        BigInteger min;
        BigInteger max;
        try (PreparedStatement select = source.prepareStatement("SELECT min(" + column + ")::text, max(" + column
            + ")::text FROM " + table.table().quoted()); ResultSet rs = select.executeQuery()) {
            rs.next();
            if (rs.getString(1) == null) {
                return TableSplit.single(estimate);
            }
            min = new BigInteger(rs.getString(1));
            max = new BigInteger(rs.getString(2));
        }
        BigInteger span = max.subtract(min).add(BigInteger.ONE);
        long chunks = Math.min(chunksFor(estimate), span.min(BigInteger.valueOf(Integer.MAX_VALUE)).longValue());
        List<KeyValues> boundaries = new ArrayList<>();
        for (long i = 1; i < chunks; i++) {
            BigInteger boundary = min.add(span.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(chunks)));
            boundaries.add(KeyValues.of("[" + boundary + "]"));
        }
        return TableSplit.at(estimate, boundaries);
    }

    private TableSplit bySample(Connection source, TableSchema table, List<SourceColumn> keys,
                                OptionalLong estimate) throws SQLException {
        long pages = pages(source, table);
        if (pages == 0) {
            return TableSplit.single(estimate.orElse(0));
        }
        double fraction;
        if (estimate.isPresent()) {
            long wanted = Math.max(MIN_SAMPLE_ROWS, Math.min(maxSampleRows, chunksFor(estimate.getAsLong())
                * KEYS_PER_CHUNK));
            fraction = Math.max((double) wanted / estimate.getAsLong(), (double) MIN_SAMPLE_PAGES / pages);
        } else {
            fraction = (double) UNANALYZED_SAMPLE_PAGES / pages;
        }
        fraction = Math.min(1.0, fraction);
        List<String> sample = sampleKeys(source, table, keys, fraction);
        long rows = estimate.orElse(Math.round(sample.size() / fraction));
        long chunks = Math.min(chunksFor(rows), sample.size());
        if (chunks <= 1) {
            return TableSplit.single(rows);
        }
        List<KeyValues> boundaries = new ArrayList<>();
        String previous = null;
        for (long i = 1; i < chunks; i++) {
            String key = sample.get((int) (i * sample.size() / chunks));
            if (!key.equals(previous)) {
                boundaries.add(KeyValues.of(key));
                previous = key;
            }
        }
        return TableSplit.at(rows, boundaries);
    }

    private List<String> sampleKeys(Connection source, TableSchema table, List<SourceColumn> keys, double fraction)
        throws SQLException {
        List<SourceColumn> byOrdinal = keys.stream().sorted(Comparator.comparingInt(SourceColumn::ordinal))
            .collect(Collectors.toList());
        JdbcRowEncoder encoder = JdbcRowEncoder.forTable(new TableSchema(table.table(), table.relationOid(),
            byOrdinal, table.keyColumns(), table.keySource(), table.replicaIdentity(), table.estimatedRows()));
        String order = keys.stream().map(k -> Identifiers.quote(k.name())).collect(Collectors.joining(", "));
        String sampling = fraction >= 1.0 ? "" : " TABLESAMPLE SYSTEM (?::real)";
        String sql = "SELECT " + encoder.selectList() + " FROM " + table.table().quoted() + sampling
            + " ORDER BY " + order;
        boolean autoCommit = source.getAutoCommit();
        source.setAutoCommit(false);
        List<String> sample = new ArrayList<>();
        try (PreparedStatement select = source.prepareStatement(sql)) {
            if (fraction < 1.0) {
                select.setDouble(1, fraction * 100);
            }
            select.setFetchSize(10_000);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    sample.add(encoder.keyJson(rs));
                }
            }
            source.commit();
        } catch (SQLException | RuntimeException e) {
            source.rollback();
            throw e;
        } finally {
            source.setAutoCommit(autoCommit);
        }
        return sample;
    }

    private static long pages(Connection source, TableSchema table) throws SQLException {
        try (PreparedStatement select = source.prepareStatement(SIZE)) {
            select.setLong(1, table.relationOid());
            select.setLong(2, table.relationOid());
            try (ResultSet rs = select.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private long chunksFor(long rows) {
        return Math.max(1, (rows + chunkRows - 1) / chunkRows);
    }
}
