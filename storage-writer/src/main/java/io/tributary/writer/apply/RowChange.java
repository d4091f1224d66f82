package io.tributary.writer.apply;

import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ParameterRow;
import java.util.List;
import java.util.Objects;

/**
 * The new state of one source row after a batch: the bucket rows its newest version produces, or none (deleted,
 * or selected by no query). Several records of one key in a batch reduce to the last one.
 *
 * @param key         the row's record key
 * @param offset      the offset of the record that produced this state
 * @param rows        the row's bucket rows, at most one per {@code (bucket, table, id)}; empty if it is in no bucket
 * @param memberships {@link Memberships#encode(List)} of {@code rows} (computed once, off the commit path)
 * @param puts        the PUT op of each of {@code rows}, in order, checksums included (computed once, off the commit
 *                    path: the checksum hashes the whole row)
 * @param parameters  the parameter rows its newest version stores, at most one per lookup; empty if a parameter
 *                    query reads its table and it stores none, or if none reads its table
 */
public record RowChange(SourceKey key, long offset, List<BucketRow> rows, String memberships, List<BucketOp> puts,
                        List<ParameterRow> parameters) {

    public RowChange {
        Objects.requireNonNull(key, "key");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset);
        }
        rows = List.copyOf(rows);
        Objects.requireNonNull(memberships, "memberships");
        puts = List.copyOf(puts);
        parameters = List.copyOf(parameters);
        if (puts.size() != rows.size()) {
            throw new IllegalArgumentException("One PUT per bucket row expected, got " + puts.size() + " for "
                + rows.size() + " rows");
        }
    }

    /** A change that stores no parameter rows. */
    public RowChange(SourceKey key, long offset, List<BucketRow> rows, String memberships, List<BucketOp> puts) {
        this(key, offset, rows, memberships, puts, List.of());
    }

    /** The row now in the buckets of {@code rows} (none if empty), storing no parameter rows. */
    public static RowChange of(SourceKey key, long offset, List<BucketRow> rows) {
        return of(key, offset, rows, List.of());
    }

    /** The row now in the buckets of {@code rows} (none if empty), storing {@code parameters}. */
    public static RowChange of(SourceKey key, long offset, List<BucketRow> rows, List<ParameterRow> parameters) {
        BucketOp[] puts = new BucketOp[rows.size()];
        for (int i = 0; i < puts.length; i++) {
            puts[i] = BucketOp.put(rows.get(i));
        }
        return new RowChange(key, offset, rows, Memberships.encode(rows), List.of(puts), parameters);
    }

    /** The row is gone (a tombstone). */
    public static RowChange deleted(SourceKey key, long offset) {
        return new RowChange(key, offset, List.of(), "[]", List.of());
    }

    /** Whether the row is in no bucket after this change (so {@code current_data} must not keep it). */
    public boolean isAbsent() {
        return rows.isEmpty();
    }
}
