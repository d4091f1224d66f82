package io.tributary.writer.apply;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.TableReady;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.postgresql.PGConnection;

/**
 * Applies batches of one or several partitions in one transaction: their bucket ops, {@code current_data}, the
 * partitions' stored offsets, table readiness, the tables it has rows of ({@link TableRows}) and, for each batch
 * that ends with a barrier, the seal of its epoch in its partition. Either all of it commits or none.
 *
 * <p>The batches are given in <em>apply order</em>: each partition's batches consecutive and in offset order, the
 * partitions interleaved as the caller chose. They are applied one after the other inside the transaction: each is
 * planned against the rows as the batches before it left them (never reduced with another batch), its op ids are
 * larger than those of every batch before it, and a seal records its partition's highest op id as of its batch. So
 * the seals, op ids and readiness recorded are exactly those of committing the batches one by one in that order;
 * only the statements and the commit are shared ({@code current_data} is written once, with the newest change per
 * key). The aligned-barrier rule (a batch after its partition's seal of {@code s} may allocate op ids only once
 * every other partition sealed {@code s}, earlier in the order or committed before) is the caller's to keep.
 *
 * <p>The transaction first moves each partition's stored offset under its fencing token
 * ({@code UPDATE ... WHERE fencing_token = mine AND next_offset <= first offset of its batches}), which also locks
 * those rows: if another writer claimed one of the partitions since, nothing is written and {@link FencedException}
 * names it; if it claims it meanwhile, its claim waits for this commit and then reads the new offset. Batches whose
 * records the stored offsets already cover (a retry after a commit whose acknowledgement was lost) are not applied
 * again: their outcome is read back instead. Rows then update {@code current_data}: one statement updates the stored
 * ones and returns what they held, which their ops are diffed against ({@link OpPlanner}); the keys it did not find
 * are new (PUT only) and copied in. While transactions keep finding every key new (a replay, a snapshot), the rows
 * are copied in without the update, expecting every key new; a stored key fails that copy, and the transaction is
 * applied again looking keys up ({@link CurrentData}). Rows that are gone are deleted with
 * {@code DELETE ... RETURNING} their memberships. Op ids come from {@code tributary.op_id_seq} in one block, ops
 * are written with a binary {@code COPY}. Rows of tables parameter queries read also append versions of their
 * parameter lookups ({@link ParameterLookups}), with op ids from the same block, after their batch's ops. No
 * statement touches a row of a partition the transaction does not cover.
 *
 * <p>Not thread-safe: one per committer thread (it remembers whether the last transaction found its keys new); the
 * connection (auto-commit off) belongs to that thread.
 */
public final class BatchApplier {

    private static final String FENCE = "UPDATE tributary.partition_offsets o SET next_offset = u.n"
        + " FROM unnest(?::int[], ?::bigint[], ?::bigint[], ?::bigint[]) AS u(p, t, f, n)"
        + " WHERE o.group_id = ? AND o.partition = u.p AND o.fencing_token = u.t AND o.next_offset <= u.f"
        + " RETURNING o.partition, o.max_op_id";
    private static final String STORED = "SELECT partition, fencing_token, next_offset, max_op_id,"
        + " (SELECT max(epoch) FROM tributary.sealed_epochs s WHERE s.group_id = o.group_id"
        + " AND s.partition = o.partition) FROM tributary.partition_offsets o"
        + " WHERE group_id = ? AND partition = ANY(?::int[])";
    private static final String MAX_OP = "UPDATE tributary.partition_offsets o SET max_op_id = u.m"
        + " FROM unnest(?::int[], ?::bigint[]) AS u(p, m) WHERE o.group_id = ? AND o.partition = u.p";
    private static final String SEAL = "INSERT INTO tributary.sealed_epochs (group_id, partition, epoch, lsn,"
        + " max_op_id, barrier_offset) SELECT ?, u.p, u.e, u.l::pg_lsn, u.m, u.o"
        + " FROM unnest(?::int[], ?::bigint[], ?::text[], ?::bigint[], ?::bigint[]) AS u(p, e, l, m, o)";

    private final long groupId;
    private final CurrentData currentData;
    private final ParameterLookups lookups;
    private final TableRows tableRows;
    private final ReadyTables readyTables;
    /** Whether the next transaction's keys are expected new: its last one found none of its keys stored. */
    private boolean expectNew = true;

    /** An applier for group {@code groupId} whose rules have no parameter query that reads a table. */
    public BatchApplier(long groupId) {
        this(groupId, List.of());
    }

    /**
     * An applier for group {@code groupId} that also keeps the parameter lookups of the rows of
     * {@code parameterTables} ({@code schema.table}: {@code SyncRules.parameterTables()}).
     */
    public BatchApplier(long groupId, Collection<String> parameterTables) {
        this.groupId = groupId;
        this.currentData = new CurrentData(groupId);
        this.lookups = ParameterLookups.of(groupId, parameterTables);
        this.tableRows = new TableRows(groupId);
        this.readyTables = new ReadyTables(groupId);
    }

    /**
     * Applies {@code batch} and commits; rolls back on any failure.
     *
     * @throws FencedException if {@code target}'s claim is stale (nothing was written)
     * @throws SQLException    on a database failure (nothing was written; classify it with {@code SqlErrors})
     */
    public ApplyResult apply(Connection connection, ApplyTarget target, PreparedBatch batch)
        throws SQLException, FencedException {
        return apply(connection, List.of(target), List.of(batch)).get(target.partition());
    }

    /**
     * Applies {@code batches}, in apply order, of the partitions of {@code targets} (one target per partition,
     * every one with batches) in one transaction and commits; rolls back on any failure.
     *
     * @return the outcome per partition
     * @throws FencedException if the claim of one of {@code targets} is stale (nothing was written)
     * @throws SQLException    on a database failure (nothing was written; classify it with {@code SqlErrors})
     */
    public Map<Integer, ApplyResult> apply(Connection connection, List<ApplyTarget> targets,
                                           List<PreparedBatch> batches) throws SQLException, FencedException {
        Map<Integer, Part> parts = parts(targets, batches);
        try {
            Optional<Map<Integer, ApplyResult>> applied = alreadyApplied(connection, parts);
            if (applied.isPresent()) {
                connection.rollback();
                return applied.get();
            }
            Map<Integer, ApplyResult> result;
            try {
                result = applyInTransaction(connection, parts, batches, expectNew);
            } catch (CurrentData.KeysStoredException e) {
                connection.rollback();
                expectNew = false;
                result = applyLookingUpKeys(connection, parts(targets, batches), batches);
            }
            connection.commit();
            tableRows.committed();
            return result;
        } catch (SQLException | FencedException | RuntimeException e) {
            rollbackQuietly(connection, e);
            throw e;
        }
    }

    /** One partition's share of a transaction: its claim and the offsets {@code [first, next)} it covers. */
    private static final class Part {

        final ApplyTarget target;
        final long first;
        long next;
        long maxOpId;
        long sealedEpoch;
        OptionalLong sealed = OptionalLong.empty();
        int ops;

        Part(ApplyTarget target, long first, long next) {
            this.target = target;
            this.first = first;
            this.next = next;
            this.sealedEpoch = target.sealedEpoch();
        }

        String describe() {
            return "partition " + target.partition() + " offsets [" + first + ", " + next + ")";
        }

        ApplyResult result() {
            return new ApplyResult(ops, maxOpId, sealed, next);
        }
    }

    private Map<Integer, Part> parts(List<ApplyTarget> targets, List<PreparedBatch> batches) {
        Map<Integer, ApplyTarget> byPartition = new HashMap<>();
        for (ApplyTarget target : targets) {
            if (target.groupId() != groupId || byPartition.put(target.partition(), target) != null) {
                throw new IllegalArgumentException("Target " + target + " is not of group " + groupId
                    + " or not the only one of its partition");
            }
        }
        Map<Integer, Part> parts = new TreeMap<>();
        for (PreparedBatch batch : batches) {
            ApplyTarget target = byPartition.get(batch.partition());
            if (target == null) {
                throw new IllegalArgumentException("Batch of " + batch.describe() + " has no target");
            }
            Part part = parts.get(batch.partition());
            if (part == null) {
                parts.put(batch.partition(), new Part(target, batch.firstOffset(), batch.nextOffset()));
            } else if (batch.firstOffset() < part.next) {
                throw new IllegalArgumentException("Batches of a partition must follow each other: "
                    + batch.describe() + " after offset " + part.next);
            } else {
                part.next = batch.nextOffset();
            }
        }
        if (parts.isEmpty() || parts.size() != byPartition.size()) {
            throw new IllegalArgumentException("Every target needs batches, got " + targets.size() + " targets and "
                + parts.size() + " partitions with batches");
        }
        return parts;
    }

    /**
     * The outcome of the transaction if it is already committed: a retry after a commit whose acknowledgement was
     * lost (connection loss) must not apply it twice. The check locks nothing; {@link #fence} re-checks under the
     * lock.
     */
    private Optional<Map<Integer, ApplyResult>> alreadyApplied(Connection connection, Map<Integer, Part> parts)
        throws SQLException, FencedException {
        Map<Integer, ApplyResult> applied = new HashMap<>();
        Set<Integer> found = new HashSet<>();
        try (PreparedStatement select = connection.prepareStatement(STORED)) {
            select.setLong(1, groupId);
            select.setArray(2, ints(connection, parts.keySet()));
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    Part part = parts.get(rs.getInt(1));
                    found.add(part.target.partition());
                    if (rs.getLong(2) != part.target.fencingToken()) {
                        throw new FencedException(groupId, part.target.partition(), part.target.fencingToken());
                    }
                    long stored = rs.getLong(3);
                    if (stored <= part.first) {
                        continue;
                    }
                    if (stored < part.next) {
                        throw new IllegalStateException("Stored offset " + stored + " falls inside "
                            + part.describe() + ": transactions of one claim must not overlap");
                    }
                    long sealed = rs.getLong(5);
                    OptionalLong newSeal = !rs.wasNull() && sealed > part.target.sealedEpoch()
                        ? OptionalLong.of(sealed) : OptionalLong.empty();
                    applied.put(part.target.partition(), new ApplyResult(0, rs.getLong(4), newSeal, stored));
                }
            }
        }
        for (Part part : parts.values()) {
            if (!found.contains(part.target.partition())) {
                throw new FencedException(groupId, part.target.partition(), part.target.fencingToken());
            }
        }
        if (applied.isEmpty()) {
            return Optional.empty();
        }
        if (applied.size() != parts.size()) {
            throw new IllegalStateException("Partitions " + applied.keySet() + " of a transaction over "
                + parts.keySet() + " are already applied, the others not");
        }
        return Optional.of(applied);
    }

    private Map<Integer, ApplyResult> applyLookingUpKeys(Connection connection, Map<Integer, Part> parts,
                                                         List<PreparedBatch> batches)
        throws SQLException, FencedException {
        try {
            return applyInTransaction(connection, parts, batches, false);
        } catch (CurrentData.KeysStoredException e) {
            throw new IllegalStateException("A key the update did not find is stored", e);
        }
    }

    private Map<Integer, ApplyResult> applyInTransaction(Connection connection, Map<Integer, Part> parts,
                                                         List<PreparedBatch> batches, boolean keysNew)
        throws SQLException, FencedException, CurrentData.KeysStoredException {
        fence(connection, parts);
        tableRows.begin();
        readyTables.begin();
        Map<Integer, Long> startOpIds = new HashMap<>();
        parts.forEach((partition, part) -> startOpIds.put(partition, part.maxOpId));
        List<Seal> seals = new ArrayList<>();
        int from = 0;
        while (from < batches.size()) {
            int to = from;
            while (to < batches.size() - 1 && batches.get(to).truncate().isEmpty()) {
                to++;
            }
            List<PreparedBatch> run = batches.subList(from, to + 1);
            List<List<BucketOp>> ops = rowOps(connection, run, keysNew);
            PreparedBatch last = run.get(run.size() - 1);
            if (last.truncate().isPresent()) {
                ops.get(ops.size() - 1).addAll(currentData.truncate(connection, last.partition(),
                    last.truncate().get()));
            }
            List<List<ParameterLookups.Version>> versions = lookups.plan(connection, run);
            long[] ids = OpIds.allocateAndWrite(connection, groupId, lookups, ops, versions);
            int allocated = 0;
            for (int i = 0; i < run.size(); i++) {
                PreparedBatch batch = run.get(i);
                Part part = parts.get(batch.partition());
                int count = ops.get(i).size() + versions.get(i).size();
                allocated += count;
                if (count > 0) {
                    part.maxOpId = Math.max(part.maxOpId, ids[allocated - 1]);
                    part.ops += ops.get(i).size();
                }
                for (TableReady marker : batch.ready()) {
                    readyTables.add(batch.partition(), marker, part.sealedEpoch);
                }
                tableRows.add(batch, part.sealedEpoch);
                if (batch.barrier().isPresent() && batch.barrier().get().epoch() > part.sealedEpoch) {
                    seals.add(new Seal(batch.partition(), batch.barrier().get(), part.maxOpId,
                        batch.nextOffset() - 1));
                    part.sealedEpoch = batch.barrier().get().epoch();
                    part.sealed = OptionalLong.of(part.sealedEpoch);
                }
            }
            from = to + 1;
        }
        List<Part> grown = parts.values().stream()
            .filter(part -> part.maxOpId != startOpIds.get(part.target.partition())).toList();
        if (!grown.isEmpty()) {
            maxOps(connection, grown);
        }
        if (!seals.isEmpty()) {
            seal(connection, seals);
        }
        tableRows.write(connection);
        readyTables.write(connection);
        Map<Integer, ApplyResult> results = new HashMap<>();
        parts.forEach((partition, part) -> results.put(partition, part.result()));
        return results;
    }

    private void fence(Connection connection, Map<Integer, Part> parts) throws SQLException, FencedException {
        List<Part> list = new ArrayList<>(parts.values());
        long[] tokens = new long[list.size()];
        long[] firsts = new long[list.size()];
        long[] nexts = new long[list.size()];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = list.get(i).target.fencingToken();
            firsts[i] = list.get(i).first;
            nexts[i] = list.get(i).next;
        }
        PGConnection pg = connection.unwrap(PGConnection.class);
        Set<Integer> fenced = new HashSet<>();
        try (PreparedStatement fence = connection.prepareStatement(FENCE)) {
            fence.setArray(1, ints(connection, parts.keySet()));
            fence.setArray(2, pg.createArrayOf("int8", tokens));
            fence.setArray(3, pg.createArrayOf("int8", firsts));
            fence.setArray(4, pg.createArrayOf("int8", nexts));
            fence.setLong(5, groupId);
            try (ResultSet rs = fence.executeQuery()) {
                while (rs.next()) {
                    parts.get(rs.getInt(1)).maxOpId = rs.getLong(2);
                    fenced.add(rs.getInt(1));
                }
            }
        }
        for (Part part : list) {
            if (!fenced.contains(part.target.partition())) {
                throw new FencedException(groupId, part.target.partition(), part.target.fencingToken());
            }
        }
    }

    private void maxOps(Connection connection, List<Part> grown) throws SQLException {
        long[] maxOpIds = new long[grown.size()];
        List<Integer> partitions = new ArrayList<>();
        for (int i = 0; i < maxOpIds.length; i++) {
            maxOpIds[i] = grown.get(i).maxOpId;
            partitions.add(grown.get(i).target.partition());
        }
        try (PreparedStatement update = connection.prepareStatement(MAX_OP)) {
            update.setArray(1, ints(connection, partitions));
            update.setArray(2, connection.unwrap(PGConnection.class).createArrayOf("int8", maxOpIds));
            update.setLong(3, groupId);
            update.executeUpdate();
        }
    }

    /**
     * The seal of {@code barrier}'s epoch in {@code partition}, whose highest op id then is {@code maxOpId}; the
     * barrier is the record at {@code offset} (the last of its batch).
     */
    private record Seal(int partition, Barrier barrier, long maxOpId, long offset) {
    }

    private void seal(Connection connection, List<Seal> seals) throws SQLException {
        long[] epochs = new long[seals.size()];
        String[] lsns = new String[seals.size()];
        long[] opIds = new long[seals.size()];
        long[] offsets = new long[seals.size()];
        List<Integer> partitions = new ArrayList<>();
        for (int i = 0; i < epochs.length; i++) {
            partitions.add(seals.get(i).partition());
            epochs[i] = seals.get(i).barrier().epoch();
            lsns[i] = seals.get(i).barrier().lsn().toString();
            opIds[i] = seals.get(i).maxOpId();
            offsets[i] = seals.get(i).offset();
        }
        PGConnection pg = connection.unwrap(PGConnection.class);
        try (PreparedStatement seal = connection.prepareStatement(SEAL)) {
            seal.setLong(1, groupId);
            seal.setArray(2, ints(connection, partitions));
            seal.setArray(3, pg.createArrayOf("int8", epochs));
            seal.setArray(4, connection.createArrayOf("text", lsns));
            seal.setArray(5, pg.createArrayOf("int8", opIds));
            seal.setArray(6, pg.createArrayOf("int8", offsets));
            seal.executeUpdate();
        }
    }

    /**
     * The ops of each of {@code batches} (no truncation but maybe in the last), planned one after the other, each
     * against the rows as the previous ones left them; {@code current_data} is read and written once, with the
     * newest change per key.
     */
    private List<List<BucketOp>> rowOps(Connection connection, List<PreparedBatch> batches, boolean keysNew)
        throws SQLException, CurrentData.KeysStoredException {
        Map<SourceKey, RowChange> newest = new LinkedHashMap<>();
        Map<SourceKey, Integer> partitionOf = new HashMap<>();
        Set<SourceKey> repeated = new HashSet<>();
        for (PreparedBatch batch : batches) {
            for (RowChange change : batch.changes()) {
                if (newest.put(change.key(), change) != null) {
                    repeated.add(change.key());
                }
                partitionOf.put(change.key(), batch.partition());
            }
        }
        Map<SourceKey, List<Membership>> previous = currentData.write(connection,
            new ArrayList<>(newest.values()), partitionOf, keysNew);
        if (!keysNew) {
            expectNew = previous.isEmpty();
        }
        List<List<BucketOp>> ops = new ArrayList<>(batches.size());
        for (PreparedBatch batch : batches) {
            ops.add(OpPlanner.plan(batch.changes(), previous));
            if (repeated.isEmpty()) {
                continue;
            }
            // a key changed again by a later batch is planned against this batch's outcome
            for (RowChange change : batch.changes()) {
                if (!repeated.contains(change.key())) {
                    continue;
                }
                if (change.isAbsent()) {
                    previous.remove(change.key());
                } else {
                    previous.put(change.key(), change.rows().stream().map(Membership::of).toList());
                }
            }
        }
        return ops;
    }

    private static Array ints(Connection connection, Collection<Integer> values) throws SQLException {
        return connection.createArrayOf("int4", values.toArray(new Integer[0]));
    }

    private static void rollbackQuietly(Connection connection, Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }
}
