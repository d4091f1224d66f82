package io.tributary.writer.apply;

import io.tributary.syncrules.BucketRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns row changes into bucket ops, given what {@code current_data} held before the batch. Pure and
 * thread-safe.
 *
 * <p>Per row: a row that was not stored gets a PUT per bucket row; a stored row gets a REMOVE for every bucket it
 * left (its {@code (bucket, table, id)} is not among the new rows) followed by a PUT for every new bucket row,
 * changed or not (the client replaces the row); a deleted row, or one no query selects any more, gets a REMOVE
 * for every bucket it was in. Rows are handled in the order given, each row's ops consecutively.
 */
public final class OpPlanner {

    private OpPlanner() {
    }

    /**
     * The ops of {@code changes}.
     *
     * @param changes  the batch's row changes, one per key
     * @param previous the stored memberships of the keys that were in {@code current_data} before the batch (a key
     *                 absent here was not stored)
     */
    public static List<BucketOp> plan(List<RowChange> changes, Map<SourceKey, List<Membership>> previous) {
        List<BucketOp> ops = new ArrayList<>(changes.size() + changes.size() / 4);
        for (RowChange change : changes) {
            List<Membership> before = previous.getOrDefault(change.key(), List.of());
            if (!before.isEmpty()) {
                Set<Membership> after = new HashSet<>();
                for (BucketRow row : change.rows()) {
                    after.add(Membership.of(row));
                }
                for (Membership membership : before) {
                    if (!after.contains(membership)) {
                        ops.add(BucketOp.remove(membership));
                    }
                }
            }
            ops.addAll(change.puts());
        }
        return ops;
    }

    /** The REMOVE ops of rows that are gone (truncated), in the order given. */
    public static List<BucketOp> removeAll(List<List<Membership>> gone) {
        List<BucketOp> ops = new ArrayList<>();
        for (List<Membership> memberships : gone) {
            for (Membership membership : memberships) {
                ops.add(BucketOp.remove(membership));
            }
        }
        return ops;
    }
}
