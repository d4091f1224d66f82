package io.tributary.stream.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.random.Seeds;
import io.tributary.topics.messages.SnapshotRow;
import io.tributary.topics.messages.SnapshotRowBatch;
import io.tributary.topics.messages.TopicMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A {@link SnapshotRowBatch} is merged exactly as its rows one to a record: over random histories (concurrent
 * transactions, retried chunks with zombie attempts, re-sends) in random interleavings, grouping runs of consecutive
 * snapshot rows of one chunk attempt into batches of random sizes gives the very same {@code rows} records, in the
 * same order, and the same drops. The seed is printed on failure; rerun one with {@code -Dtributary.seed=<seed>}.
 */
class BatchedRowsPropertyTest {

    private static final int HISTORIES = 300;
    private static final int RANDOM_ORDERS = 20;

    @Test
    void batchesMergeExactlyAsTheirRowsOneToARecord() {
        boolean fixed = System.getProperty("tributary.seed") != null;
        long base = Seeds.fromProperty("tributary.seed");
        int histories = fixed ? 1 : HISTORIES;
        for (int i = 0; i < histories; i++) {
            long seed = base + i;
            try {
                check(new RandomHistory(seed), new Random(seed));
            } catch (AssertionError e) {
                throw new AssertionError("Batched merge property failed for seed " + seed
                    + " (rerun with -Dtributary.seed=" + seed + "): " + e.getMessage(), e);
            }
        }
    }

    private static void check(RandomHistory history, Random random) {
        for (int i = 0; i < RANDOM_ORDERS; i++) {
            List<TopicMessage> order = Interleavings.random(history.changes, history.snapshotRows, history.random());
            List<TopicMessage> batched = batched(order, random);
            MergeRun single = MergeRun.of(order);
            MergeRun grouped = MergeRun.of(batched);
            assertThat(grouped.rows).as("rows after %s", MergeRun.describe(batched)).isEqualTo(single.rows);
            assertThat(grouped.drops.size()).as("drops after %s", MergeRun.describe(batched))
                .isLessThanOrEqualTo(single.drops.size());
            assertThat(grouped.store.keyCount()).isEqualTo(single.store.keyCount());
        }
    }

    /** {@code order} with runs of consecutive rows of one chunk attempt grouped into batches of 1 to 5 rows. */
    private static List<TopicMessage> batched(List<TopicMessage> order, Random random) {
        List<TopicMessage> out = new ArrayList<>();
        List<SnapshotRow> run = new ArrayList<>();
        int limit = 1 + random.nextInt(5);
        for (TopicMessage message : order) {
            if (message instanceof SnapshotRow row && (run.isEmpty() || sameAttempt(run.get(0), row))
                && run.size() < limit) {
                run.add(row);
                continue;
            }
            flush(run, out);
            limit = 1 + random.nextInt(5);
            if (message instanceof SnapshotRow row) {
                run.add(row);
            } else {
                out.add(message);
            }
        }
        flush(run, out);
        return out;
    }

    private static boolean sameAttempt(SnapshotRow first, SnapshotRow row) {
        return first.table().equals(row.table()) && first.chunkId().equals(row.chunkId())
            && first.windowId().equals(row.windowId()) && first.attempt() == row.attempt()
            && first.snapshot().equals(row.snapshot());
    }

    private static void flush(List<SnapshotRow> run, List<TopicMessage> out) {
        if (!run.isEmpty()) {
            out.add(SnapshotRowBatch.of(run));
            run.clear();
        }
    }
}
