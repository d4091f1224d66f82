package io.tributary.stream.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.random.Seeds;
import io.tributary.topics.messages.RowJson;
import io.tributary.topics.messages.RowKey;
import io.tributary.topics.messages.TableReady;
import io.tributary.topics.messages.TopicMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Random histories (concurrent transactions, chunk reads at random points, retried chunks with zombie attempts,
 * ingest re-sends) merged in random interleavings always end with {@code rows} equal to the source. The seed is
 * printed on failure; rerun one with {@code -Dtributary.seed=<seed>}.
 */
class MergePropertyTest {

    private static final int HISTORIES = 400;
    private static final int RANDOM_ORDERS = 60;

    @Test
    void randomHistoriesConvergeInRandomInterleavings() {
        boolean fixed = System.getProperty("tributary.seed") != null;
        long base = Seeds.fromProperty("tributary.seed");
        int histories = fixed ? 1 : HISTORIES;
        for (int i = 0; i < histories; i++) {
            long seed = base + i;
            try {
                check(new RandomHistory(seed));
            } catch (AssertionError e) {
                throw new AssertionError("Merge property failed for seed " + seed
                    + " (rerun with -Dtributary.seed=" + seed + "): " + e.getMessage(), e);
            }
        }
    }

    private static void check(RandomHistory history) {
        Map<RowKey, RowJson> expected = history.db.state();
        List<List<TopicMessage>> orders = new ArrayList<>();
        List<TopicMessage> changesFirst = new ArrayList<>(history.changes);
        changesFirst.addAll(history.snapshotRows);
        orders.add(changesFirst);
        List<TopicMessage> snapshotFirst = new ArrayList<>(history.snapshotRows);
        snapshotFirst.addAll(history.changes);
        orders.add(snapshotFirst);
        for (int i = 0; i < RANDOM_ORDERS; i++) {
            orders.add(Interleavings.random(history.changes, history.snapshotRows, history.random()));
        }
        for (List<TopicMessage> order : orders) {
            MergeRun run = MergeRun.of(order);
            assertThat(run.compacted()).as("rows after %s", MergeRun.describe(order)).isEqualTo(expected);
            assertThat(run.ready()).extracting(TableReady::windowId).as("table-ready after %s",
                MergeRun.describe(order)).containsExactly(RandomHistory.WINDOW);
            assertThat(run.store.keyCount()).as("keys left after %s", MergeRun.describe(order)).isZero();
        }
    }
}
