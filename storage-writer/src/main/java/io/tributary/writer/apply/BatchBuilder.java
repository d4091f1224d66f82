package io.tributary.writer.apply;

import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ParameterRow;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Accumulates the evaluated records of one partition, in offset order, into {@link PreparedBatch batches}: several
 * records of one key reduce to the last one (so they apply in order), and a batch is complete when it reaches
 * {@code maxRecords} records or ends with a barrier or a truncation (never spanning an epoch).
 *
 * <p>Every {@code add} returns whether the batch is now complete; a complete batch must be {@link #take() taken}
 * before anything else is added. Not thread-safe: owned by the partition's poll thread.
 */
public final class BatchBuilder {

    private final int partition;
    private final int maxRecords;

    private final Map<SourceKey, RowChange> changes = new LinkedHashMap<>();
    private final Set<TableId> tables = new HashSet<>();
    private final List<TableReady> ready = new ArrayList<>();
    private final List<DeadLetter> deadLetters = new ArrayList<>();
    private Optional<Barrier> barrier = Optional.empty();
    private Optional<TableTruncate> truncate = Optional.empty();
    private long firstOffset = -1;
    private long nextOffset = -1;
    private int records;

    /** A builder for {@code partition} cutting batches at {@code maxRecords} records. */
    public BatchBuilder(int partition, int maxRecords) {
        if (partition < 0 || maxRecords < 1) {
            throw new IllegalArgumentException("partition >= 0 and maxRecords >= 1 expected, got " + partition
                + ", " + maxRecords);
        }
        this.partition = partition;
        this.maxRecords = maxRecords;
    }

    /** The record at {@code offset} sets row {@code key} to be in the buckets of {@code rows} (none if empty). */
    public boolean addRow(SourceKey key, long offset, List<BucketRow> rows) {
        return addRow(key, offset, rows, List.of());
    }

    /** As {@link #addRow(SourceKey, long, List)}, the row storing the parameter rows {@code parameters}. */
    public boolean addRow(SourceKey key, long offset, List<BucketRow> rows, List<ParameterRow> parameters) {
        advance(offset);
        changes.put(key, RowChange.of(key, offset, rows, parameters));
        return isComplete();
    }

    /**
     * The record at {@code offset} sets row {@code key} of {@code table} to be in the buckets of {@code rows} (none
     * if empty); the batch names {@code table} among its tables.
     */
    public boolean addRow(TableId table, SourceKey key, long offset, List<BucketRow> rows) {
        return addRow(table, key, offset, rows, List.of());
    }

    /** As {@link #addRow(TableId, SourceKey, long, List)}, the row storing the parameter rows {@code parameters}. */
    public boolean addRow(TableId table, SourceKey key, long offset, List<BucketRow> rows,
            List<ParameterRow> parameters) {
        tables.add(table);
        return addRow(key, offset, rows, parameters);
    }

    /** The record at {@code offset} deletes row {@code key}. */
    public boolean addDelete(SourceKey key, long offset) {
        advance(offset);
        changes.put(key, RowChange.deleted(key, offset));
        return isComplete();
    }

    /** The record at {@code offset} says a table is ready in this partition. */
    public boolean addTableReady(TableReady marker, long offset) {
        advance(offset);
        ready.add(marker);
        return isComplete();
    }

    /** The record at {@code offset} is a barrier: it ends the batch. */
    public boolean addBarrier(Barrier marker, long offset) {
        advance(offset);
        barrier = Optional.of(marker);
        return true;
    }

    /** The record at {@code offset} truncates a table: it ends the batch. */
    public boolean addTruncate(TableTruncate marker, long offset) {
        advance(offset);
        truncate = Optional.of(marker);
        return true;
    }

    /**
     * The record at {@code offset} changes nothing (e.g. poison, to be dead-lettered as {@code deadLetter}) but is
     * consumed with the batch.
     */
    public boolean addSkipped(long offset, Optional<DeadLetter> deadLetter) {
        advance(offset);
        deadLetter.ifPresent(deadLetters::add);
        return isComplete();
    }

    /** The records added since the last {@link #take()}. */
    public int records() {
        return records;
    }

    /** Whether nothing was added since the last {@link #take()}. */
    public boolean isEmpty() {
        return records == 0;
    }

    /** Whether the batch is complete and must be taken. */
    public boolean isComplete() {
        return records >= maxRecords || barrier.isPresent() || truncate.isPresent();
    }

    /**
     * The batch built so far; the builder starts a new one.
     *
     * @throws IllegalStateException if it is empty
     */
    public PreparedBatch take() {
        if (isEmpty()) {
            throw new IllegalStateException("No records to take in partition " + partition);
        }
        PreparedBatch batch = new PreparedBatch(partition, firstOffset, nextOffset, new ArrayList<>(changes.values()),
            tables, ready, barrier, truncate, deadLetters, records);
        changes.clear();
        tables.clear();
        ready.clear();
        deadLetters.clear();
        barrier = Optional.empty();
        truncate = Optional.empty();
        firstOffset = -1;
        nextOffset = -1;
        records = 0;
        return batch;
    }

    private void advance(long offset) {
        if (isComplete()) {
            throw new IllegalStateException("Batch of partition " + partition + " is complete: take it first");
        }
        if (offset < nextOffset || offset < 0) {
            throw new IllegalArgumentException("Offsets must increase: " + offset + " after " + (nextOffset - 1)
                + " in partition " + partition);
        }
        if (records == 0) {
            firstOffset = offset;
        }
        nextOffset = offset + 1;
        records++;
    }
}
