package io.tributary.writer.checkpoint;

import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * The seals of a group above its checkpoint, read incrementally: each call reads only the seals newer than the
 * newest one already read per partition, with one range probe of the primary key {@code (group_id, partition,
 * epoch)} per partition. Seals pile up while a snapshot holds the checkpoint (they are pruned only behind a
 * published one) and the checkpointer looks every few hundred milliseconds, so a pass must not read them all.
 *
 * <p>Reading only newer epochs misses nothing: a partition's seals are inserted by its fenced owner's transactions,
 * which the partition's offset row serializes, each with epochs above the ones before; so once a statement sees a
 * partition's seal of {@code k}, it sees every earlier seal of that partition. Not thread-safe: one per
 * checkpointer.
 */
final class SealLog {

    private static final String NEWER = "SELECT s.partition, s.epoch, s.lsn::text, s.max_op_id,"
        + " coalesce(s.barrier_offset, -1)"
        + " FROM unnest(?::int[], ?::bigint[]) AS u(p, e)"
        + " JOIN tributary.sealed_epochs s ON s.group_id = ? AND s.partition = u.p AND s.epoch > u.e";

    private final long groupId;
    private final long[] newest;
    private final List<SealRow> seals = new ArrayList<>();
    private long floor = Long.MIN_VALUE;

    /** The log of group {@code groupId} over {@code partitions} partitions, nothing read yet. */
    SealLog(long groupId, int partitions) {
        this.groupId = groupId;
        this.newest = new long[partitions];
        Arrays.fill(newest, Long.MIN_VALUE);
    }

    /** Every seal with an epoch above {@code epoch} (the group's checkpoint epoch, which only grows). */
    List<SealRow> above(Connection connection, long epoch) throws SQLException {
        if (epoch > floor) {
            seals.removeIf(seal -> seal.epoch() <= epoch);
            for (int p = 0; p < newest.length; p++) {
                newest[p] = Math.max(newest[p], epoch);
            }
            floor = epoch;
        }
        int[] partitions = new int[newest.length];
        for (int p = 0; p < partitions.length; p++) {
            partitions[p] = p;
        }
        PGConnection pg = connection.unwrap(PGConnection.class);
        try (PreparedStatement select = connection.prepareStatement(NEWER)) {
            select.setArray(1, pg.createArrayOf("int4", partitions));
            select.setArray(2, pg.createArrayOf("int8", newest));
            select.setLong(3, groupId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    SealRow seal = new SealRow(rs.getInt(1), rs.getLong(2), Lsn.parse(rs.getString(3)),
                        rs.getLong(4), rs.getLong(5));
                    seals.add(seal);
                    newest[seal.partition()] = Math.max(newest[seal.partition()], seal.epoch());
                }
            }
        }
        return Collections.unmodifiableList(seals);
    }
}
