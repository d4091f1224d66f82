package io.tributary.writer.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.topics.messages.Lsn;
import io.tributary.topics.messages.TableId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointMathTest {

    private static final TableId TODOS = TableId.of("public", "todos");

    @Test
    void theNewestEpochSealedInEveryPartitionWins() {
        List<SealRow> seals = List.of(seal(0, 4, 100, 10), seal(1, 4, 100, 12), seal(2, 4, 100, 7),
            seal(0, 5, 200, 20), seal(1, 5, 200, 25), seal(0, 6, 300, 30));

        assertThat(CheckpointMath.latestCommonEpoch(seals, 3, -1)).contains(new EpochCandidate(4, Lsn.of(100), 12));
        assertThat(CheckpointMath.latestCommonEpoch(seals, 2, -1))
            .contains(new EpochCandidate(5, Lsn.of(200), 25));
    }

    @Test
    void theCheckpointOpIdIsTheLargestOpIdAnyPartitionHadAtItsSeal() {
        List<SealRow> seals = List.of(seal(0, 4, 100, 10), seal(1, 4, 100, 42), seal(2, 4, 100, 7));

        assertThat(CheckpointMath.latestCommonEpoch(seals, 3, 3)).contains(new EpochCandidate(4, Lsn.of(100), 42));
    }

    @Test
    void aTableWithRowsButNoWindowHoldsOnlyEpochsThatIncludeItsRows() {
        List<UnplannedTable> unplanned = List.of(new UnplannedTable(TODOS, 4));

        assertThat(CheckpointMath.heldByUnplanned(new EpochCandidate(4, Lsn.of(100), 12), unplanned)).isEmpty();
        assertThat(CheckpointMath.heldByUnplanned(new EpochCandidate(5, Lsn.of(200), 20), unplanned))
            .hasValueSatisfying(reason -> assertThat(reason).contains("public.todos", "no snapshot window"));
    }

    @Test
    void onlyEpochsAboveTheCurrentCheckpointAreCandidates() {
        List<SealRow> seals = List.of(seal(0, 4, 100, 10), seal(1, 4, 100, 12));

        assertThat(CheckpointMath.latestCommonEpoch(seals, 2, 4)).isEmpty();
    }

    @Test
    void aPartitionThatJumpedOverAnEpochHoldsThatEpochBack() {
        List<SealRow> seals = List.of(seal(0, 3, 100, 1), seal(0, 4, 110, 2), seal(0, 9, 300, 9),
            seal(1, 3, 100, 1), seal(1, 9, 300, 8));

        assertThat(CheckpointMath.latestCommonEpoch(seals, 2, 3)).contains(new EpochCandidate(9, Lsn.of(300), 9));
        assertThat(CheckpointMath.latestCommonEpoch(seals.subList(0, 4), 2, 3)).isEmpty();
    }

    @Test
    void sealsOfUnknownPartitionsAreIgnored() {
        List<SealRow> seals = List.of(seal(0, 1, 10, 1), seal(7, 2, 20, 2));

        assertThat(CheckpointMath.latestCommonEpoch(seals, 1, -1)).contains(new EpochCandidate(1, Lsn.of(10), 1));
    }

    @Test
    void aTableNotReadyInEveryPartitionHoldsTheCheckpoint() {
        EpochCandidate candidate = new EpochCandidate(5, Lsn.of(500), 10);
        List<RequiredTable> tables = List.of(new RequiredTable(TODOS, "w1"));

        assertThat(CheckpointMath.heldBy(candidate, tables, List.of(ready(0, "w1", 100, 2)), 2))
            .hasValueSatisfying(reason -> assertThat(reason).contains("not ready in partition 1"));
        assertThat(CheckpointMath.heldBy(candidate, tables, List.of(ready(0, "w1", 100, 2), ready(1, "w1", 100, 4)),
            2)).isEmpty();
    }

    @Test
    void theGateNamesTheFirstHoldingTableAndPassesEveryOther() {
        EpochCandidate candidate = new EpochCandidate(5, Lsn.of(500), 10);
        RequiredTable lists = new RequiredTable(TableId.of("public", "lists"), "w1");
        RequiredTable todos = new RequiredTable(TODOS, "w1");
        RequiredTable users = new RequiredTable(TableId.of("public", "users"), "w1");

        CheckpointMath.Gate gate = CheckpointMath.gate(candidate, List.of(lists, todos, users),
            List.of(ready(0, "w1", 100, 2), new TableReadiness(0, users.table(), "w1", Lsn.of(100), 2)), 1);

        assertThat(gate.heldBy()).hasValueSatisfying(r -> assertThat(r).contains("public.lists").contains(
            "not ready in partition 0"));
        assertThat(gate.passed()).containsExactly(todos, users);
    }

    @Test
    void readinessOfAnOlderWindowDoesNotCount() {
        EpochCandidate candidate = new EpochCandidate(5, Lsn.of(500), 10);

        assertThat(CheckpointMath.heldBy(candidate, List.of(new RequiredTable(TODOS, "w2")),
            List.of(ready(0, "w1", 100, 2)), 1)).isPresent();
    }

    @Test
    void aTableReadyOnlyAfterTheEpochsBarrierHoldsIt() {
        EpochCandidate candidate = new EpochCandidate(5, Lsn.of(500), 10);

        assertThat(CheckpointMath.heldBy(candidate, List.of(new RequiredTable(TODOS, "w1")),
            List.of(ready(0, "w1", 100, 5)), 1)).hasValueSatisfying(r -> assertThat(r).contains("after epoch 5"));
    }

    @Test
    void anLsnBelowTheTablesHighWatermarkHoldsIt() {
        EpochCandidate candidate = new EpochCandidate(5, Lsn.of(500), 10);
        List<RequiredTable> tables = List.of(new RequiredTable(TODOS, "w1"));

        assertThat(CheckpointMath.heldBy(candidate, tables, List.of(ready(0, "w1", 501, 1)), 1)).isPresent();
        assertThat(CheckpointMath.heldBy(candidate, tables, List.of(ready(0, "w1", 500, 1)), 1)).isEmpty();
    }

    @Test
    void withoutRequiredTablesNothingHoldsTheCheckpoint() {
        assertThat(CheckpointMath.heldBy(new EpochCandidate(1, Lsn.of(1), 0), List.of(), List.of(), 4)).isEmpty();
    }

    @Test
    void aFirstCheckpointWaitsForABarrierAtOrAfterWhereEachPartitionEndedWhenTheReplayStarted() {
        List<SealRow> seals = List.of(new SealRow(0, 3, Lsn.of(100), 5, 40), new SealRow(1, 3, Lsn.of(100), 6, 9));
        Map<Integer, Long> targets = Map.of(0, 41L, 1, 12L);

        assertThat(CheckpointMath.heldByReplayTargets(3, seals, targets)).hasValueSatisfying(reason ->
            assertThat(reason).contains("partition 1").contains("offset 12"));
        assertThat(CheckpointMath.heldByReplayTargets(3, seals, Map.of(0, 41L, 1, 10L))).isEmpty();
    }

    @Test
    void anEmptyPartitionHoldsNothingAndASealOfUnknownOffsetHolds() {
        List<SealRow> seals = List.of(new SealRow(0, 3, Lsn.of(100), 5, -1), new SealRow(1, 3, Lsn.of(100), 6, -1));

        assertThat(CheckpointMath.heldByReplayTargets(3, seals, Map.of(0, 0L, 1, 0L))).isEmpty();
        assertThat(CheckpointMath.heldByReplayTargets(3, seals, Map.of(0, 0L, 1, 1L))).isPresent();
        assertThat(CheckpointMath.heldByReplayTargets(3, seals, Map.of())).isEmpty();
    }

    private static SealRow seal(int partition, long epoch, long lsn, long maxOpId) {
        return new SealRow(partition, epoch, Lsn.of(lsn), maxOpId, -1);
    }

    private static TableReadiness ready(int partition, String window, long hw, long afterEpoch) {
        return new TableReadiness(partition, TODOS, window, Lsn.of(hw), afterEpoch);
    }
}
