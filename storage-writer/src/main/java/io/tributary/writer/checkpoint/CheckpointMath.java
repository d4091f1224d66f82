package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.Lsn;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Which checkpoint a group may publish, from its seals and table readiness. Pure and thread-safe.
 *
 * <h2>The argument</h2>
 * A record of partition {@code p} belongs to epoch {@code k} if the next barrier after it in {@code p} is barrier
 * {@code k}. Writers keep two rules:
 * <ol>
 *   <li><b>Seal:</b> the transaction committing the last records before barrier {@code k} of {@code p} inserts
 *       seal {@code (p, k, L_k, m)}, {@code m} being {@code p}'s highest op id so far, so every op of {@code p} of
 *       epoch {@code <= k} is {@code <= m} and committed.</li>
 *   <li><b>Aligned barriers:</b> after sealing {@code s} in {@code p}, a writer allocates op ids for later records
 *       only once every partition's newest seal is {@code >= s}, committed or written earlier in the same
 *       storage transaction (a writer may seal several epochs of several partitions in one transaction; see
 *       {@code consume.PeerSeals}). Op ids come from one sequence with {@code CACHE 1}, so an id allocated after
 *       another allocation returned is larger.</li>
 * </ol>
 * Take {@code k} such that <em>every</em> partition has a seal at exactly {@code k}, and
 * {@code C = max over p of m(p, k)}. Every op of epoch {@code <= k} is {@code <= C} and committed (rule 1). An op
 * of epoch {@code > k} in partition {@code r} comes after {@code r}'s seal of {@code k}, so it was allocated after
 * every partition had sealed {@code >= k}, hence after each partition's seal of {@code k} committed (or was
 * written earlier in the same transaction, which then commits them together), hence after every op of epoch
 * {@code <= k} was allocated: it is {@code > C} (rule 2). So the ops {@code <= C} are exactly the
 * ops of epochs {@code <= k}, all committed: the source state at {@code L_k}. Requiring a seal at exactly
 * {@code k} in every partition (not just {@code >= k}) matters after compaction: a replayed partition may jump
 * from barrier 3 to barrier 9, and its records between them were allocated under the rule for epoch 4 only.
 * Checkpoints move forward only ({@link #latestCommonEpoch} looks above the current epoch), and {@code C} is
 * monotonic because each partition's highest op id is.
 *
 * <h2>Table gating</h2>
 * A table the group reads may be in a checkpoint at {@code (k, L_k)} only when its newest snapshot window is ready
 * in every partition before barrier {@code k} ({@code readyAfterEpoch < k}) and {@code L_k >= } the window's high
 * watermark there. Both conditions only get easier with larger {@code k}, so if the newest common epoch is held,
 * every older one is too.
 *
 * <p>A table with rows in an epoch {@code <= k} but no snapshot window at all (created, or first matched, after
 * the group was planned: the planner opens its window only once the publication streams its changes, so some of
 * them reach storage first) holds {@code k} too: those rows are a part of the table, not a state it had. Once the
 * planner stored its window, the table is held by that window's readiness like any other.
 */
public final class CheckpointMath {

    private CheckpointMath() {
    }

    /**
     * The newest epoch above {@code above} sealed in every partition {@code 0..partitions-1}, with the largest
     * op id reported at its seals and its LSN.
     */
    public static Optional<EpochCandidate> latestCommonEpoch(Collection<SealRow> seals, int partitions,
                                                             long above) {
        requirePartitions(partitions);
        TreeMap<Long, BitSet> sealedBy = new TreeMap<>();
        Map<Long, Long> maxOpId = new HashMap<>();
        Map<Long, Lsn> lsn = new HashMap<>();
        for (SealRow seal : seals) {
            if (seal.epoch() <= above || seal.partition() >= partitions) {
                continue;
            }
            sealedBy.computeIfAbsent(seal.epoch(), e -> new BitSet(partitions)).set(seal.partition());
            maxOpId.merge(seal.epoch(), seal.maxOpId(), Math::max);
            lsn.merge(seal.epoch(), seal.lsn(), (a, b) -> a.compareTo(b) <= 0 ? a : b);
        }
        for (Map.Entry<Long, BitSet> epoch : sealedBy.descendingMap().entrySet()) {
            if (epoch.getValue().cardinality() == partitions) {
                long k = epoch.getKey();
                return Optional.of(new EpochCandidate(k, lsn.get(k), maxOpId.get(k)));
            }
        }
        return Optional.empty();
    }

    /**
     * What the table gate says of a candidate: why it may not be published yet (the first table and partition
     * holding it, in the order the tables were given), empty if it may; and the tables that do not hold it. A table
     * that does not hold candidate {@code k} holds no later candidate either while its newest window stays the same
     * (both conditions only get easier with larger {@code k}), so a caller may leave it out of later checks.
     */
    public record Gate(Optional<String> heldBy, List<RequiredTable> passed) {
        public Gate {
            passed = List.copyOf(passed);
        }
    }

    /**
     * Why {@code candidate} may not be published yet (the first table and partition holding it), or empty if it may.
     */
    public static Optional<String> heldBy(EpochCandidate candidate, Collection<RequiredTable> tables,
                                          Collection<TableReadiness> readiness, int partitions) {
        return gate(candidate, tables, readiness, partitions).heldBy();
    }

    /** The table gate for {@code candidate}: every table of {@code tables} checked, see {@link Gate}. */
    public static Gate gate(EpochCandidate candidate, Collection<RequiredTable> tables,
                            Collection<TableReadiness> readiness, int partitions) {
        requirePartitions(partitions);
        Map<String, TableReadiness> byTableAndPartition = new HashMap<>();
        for (TableReadiness ready : readiness) {
            byTableAndPartition.put(key(ready.table().schema(), ready.table().name(), ready.partition()), ready);
        }
        Optional<String> first = Optional.empty();
        List<RequiredTable> passed = new ArrayList<>();
        for (RequiredTable table : tables) {
            Optional<String> held = heldBy(candidate, table, byTableAndPartition, partitions);
            if (held.isEmpty()) {
                passed.add(table);
            } else if (first.isEmpty()) {
                first = held;
            }
        }
        return new Gate(first, passed);
    }

    private static Optional<String> heldBy(EpochCandidate candidate, RequiredTable table,
                                           Map<String, TableReadiness> byTableAndPartition, int partitions) {
        for (int p = 0; p < partitions; p++) {
            TableReadiness ready = byTableAndPartition.get(key(table.table().schema(), table.table().name(), p));
            if (ready == null || !ready.windowId().equals(table.windowId())) {
                return Optional.of("table " + table.table() + " (window " + table.windowId()
                    + ") is not ready in partition " + p);
            }
            if (ready.readyAfterEpoch() >= candidate.epoch()) {
                return Optional.of("table " + table.table() + " became ready in partition " + p + " after epoch "
                    + candidate.epoch());
            }
            if (candidate.lsn().isBefore(ready.highWatermark())) {
                return Optional.of("table " + table.table() + " is consistent from " + ready.highWatermark()
                    + " in partition " + p + ", epoch " + candidate.epoch() + " ends at " + candidate.lsn());
            }
        }
        return Optional.empty();
    }

    /**
     * Why {@code candidate} may not be published yet because of a table with rows in one of its epochs and no
     * snapshot window (the first such table), or empty if none holds it.
     */
    public static Optional<String> heldByUnplanned(EpochCandidate candidate, Collection<UnplannedTable> tables) {
        for (UnplannedTable table : tables) {
            if (table.seenAfterEpoch() < candidate.epoch()) {
                return Optional.of("table " + table.table() + " has rows from after epoch " + table.seenAfterEpoch()
                    + " but no snapshot window yet (a table created or first matched after the group was planned;"
                    + " the snapshot planner opens its window in its next round)");
            }
        }
        return Optional.empty();
    }

    /**
     * Why {@code epoch} may not be a group's first checkpoint, or empty if it may: in some partition with a replay
     * target, the barrier of {@code epoch} (its seal among {@code seals}) lies before where the partition ended when
     * the group's writers started ({@code targets}: partition to end offset). A barrier at offset {@code b} may
     * stand for the state when every record up to {@code b} was read, so {@code b + 1 >= end} is required: every
     * record that existed at the start was read before it. A seal of unknown offset holds.
     */
    public static Optional<String> heldByReplayTargets(long epoch, Collection<SealRow> seals,
                                                       Map<Integer, Long> targets) {
        Map<Integer, Long> barrierOffsets = new HashMap<>();
        for (SealRow seal : seals) {
            if (seal.epoch() == epoch) {
                barrierOffsets.put(seal.partition(), seal.barrierOffset());
            }
        }
        for (Map.Entry<Integer, Long> target : new TreeMap<>(targets).entrySet()) {
            long barrier = barrierOffsets.getOrDefault(target.getKey(), -1L);
            if (target.getValue() > 0 && barrier + 1 < target.getValue()) {
                return Optional.of("the replay of partition " + target.getKey() + " has not reached offset "
                    + target.getValue() + " (where it ended when the group's writers started) at the barrier of epoch "
                    + epoch + (barrier < 0 ? "" : " (offset " + barrier + ")"));
            }
        }
        return Optional.empty();
    }

    private static String key(String schema, String name, int partition) {
        return partition + "\u0000" + schema + "\u0000" + name;
    }

    private static void requirePartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be >= 1, got " + partitions);
        }
    }
}
