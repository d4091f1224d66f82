package io.tributary.writer.apply;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TableTruncate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A run of consecutive records of one partition of {@code rows}, evaluated and reduced, ready to be applied in one
 * transaction. A batch never spans a barrier or a truncation: if it holds one, that record is its last, so all of
 * its row changes belong to one epoch.
 *
 * @param partition   the partition
 * @param firstOffset the offset of its first record
 * @param nextOffset  the offset after its last record: what the partition's stored offset becomes
 * @param changes     the row changes, one per key, reduced in record order
 * @param tables      the source tables of the batch's row records (deletes name none: a row they remove was
 *                    written before)
 * @param ready       table-ready markers in the batch, in order (all before its barrier, if any)
 * @param barrier     the barrier ending the batch, if it ends with one
 * @param truncate    the truncation ending the batch, if it ends with one
 * @param deadLetters the batch's poison records, to send to the dead-letter topic; the batch must not commit
 *                    before Kafka acknowledged them
 * @param records     how many records the batch covers ({@code nextOffset - firstOffset} minus gaps)
 */
public record PreparedBatch(int partition, long firstOffset, long nextOffset, List<RowChange> changes,
                            Set<TableId> tables, List<TableReady> ready, Optional<Barrier> barrier,
                            Optional<TableTruncate> truncate, List<DeadLetter> deadLetters, int records) {

    public PreparedBatch {
        if (partition < 0 || firstOffset < 0 || nextOffset <= firstOffset || records < 1) {
            throw new IllegalArgumentException("A batch needs partition >= 0, 0 <= firstOffset < nextOffset and"
                + " records >= 1, got " + partition + ", " + firstOffset + ", " + nextOffset + ", " + records);
        }
        changes = List.copyOf(changes);
        tables = Set.copyOf(tables);
        ready = List.copyOf(ready);
        Objects.requireNonNull(barrier, "barrier");
        Objects.requireNonNull(truncate, "truncate");
        if (barrier.isPresent() && truncate.isPresent()) {
            throw new IllegalArgumentException("A batch ends with a barrier or a truncation, not both");
        }
        deadLetters = List.copyOf(deadLetters);
    }

    /** A batch whose row records name no table (built by hand, for tests of what names none). */
    public PreparedBatch(int partition, long firstOffset, long nextOffset, List<RowChange> changes,
                         List<TableReady> ready, Optional<Barrier> barrier, Optional<TableTruncate> truncate,
                         List<DeadLetter> deadLetters, int records) {
        this(partition, firstOffset, nextOffset, changes, Set.of(), ready, barrier, truncate, deadLetters, records);
    }

    /**
     * Whether applying the batch may allocate op ids (it changes rows or truncates a table). Only such batches
     * wait for the aligned-barrier gate; markers and barriers alone never do.
     */
    public boolean allocatesOps() {
        return !changes.isEmpty() || truncate.isPresent();
    }

    /** This batch with its dead letters sent: none left to send. */
    public PreparedBatch withoutDeadLetters() {
        return deadLetters.isEmpty() ? this
            : new PreparedBatch(partition, firstOffset, nextOffset, changes, tables, ready, barrier, truncate,
                List.of(), records);
    }

    /** {@code rows-<partition>@<first>..<next>}, for logs and errors. */
    public String describe() {
        return "partition " + partition + " offsets [" + firstOffset + ", " + nextOffset + ")";
    }
}
