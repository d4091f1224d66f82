package io.tributary.api.stream;

import io.tributary.api.protocol.OpEntry;
import io.tributary.syncrules.Checksums;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checksums and op counts of one group's buckets, shared by every stream of the process.
 *
 * <p>Per bucket it keeps the sum and count of the ops up to some op id. Asked for checkpoint C, it extends each
 * entry below C by the ops in {@code (cached, C]} (one statement for every bucket asked, each an index range scan
 * of its new ops), so a checkpoint costs the ops written since the last one, read once per process however many
 * streams want the bucket; a bucket seen for the first time costs one pass over its ops. A request for a checkpoint
 * older than an entry is answered from storage without touching the entry. At most {@code maxBuckets} entries are
 * kept, least recently used evicted.
 *
 * <p>Compaction keeps every bucket's sum at every checkpoint, so extending an entry stays right with one exception:
 * a CLEAR op in {@code (cached, C]} carries the sum of ops at or below the entry too. Such a bucket is summed again
 * from its first op. (The count, only a progress hint for clients, may then drop: compaction removes ops.)
 *
 * <p>Thread-safe: steps are serialized, so concurrent streams at the same checkpoint share one read.
 */
final class ChecksumCache {

    private final String table;
    private final String groupKey;
    private final Map<String, Entry> entries;

    /** The sum (unsigned 32-bit) and count of a bucket's ops with {@code op_id <= opId}. */
    record Entry(long opId, long checksum, long count) {
    }

    ChecksumCache(long groupId, int maxBuckets) {
        this.table = BucketTables.bucketData(groupId);
        this.groupKey = BucketTables.groupKey(groupId);
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > maxBuckets;
            }
        };
    }

    /**
     * Extends the entries at the delta's start to its end from its ops: a checkpoint's new ops, read once for the
     * process, also give every held bucket's checksum there without another read. An entry at another op id, or a
     * bucket whose delta holds a CLEAR, is left for {@link #at} to read.
     */
    synchronized void advance(CheckpointDelta delta) {
        for (String bucket : delta.covered()) {
            Entry entry = entries.get(bucket);
            if (entry == null || entry.opId() != delta.fromOpId()) {
                continue;
            }
            long checksum = entry.checksum();
            long count = entry.count();
            boolean cleared = false;
            for (OpEntry op : delta.opsOf(bucket)) {
                cleared |= op.op() == OpEntry.OpType.CLEAR;
                checksum = Checksums.add(checksum, op.checksum());
                count++;
            }
            if (!cleared) {
                entries.put(bucket, new Entry(delta.toOpId(), checksum, count));
            }
        }
    }

    /** The state of each of {@code buckets} at {@code opId} when every one is cached there, else empty. */
    synchronized Optional<Map<String, Entry>> cached(long opId, Collection<String> buckets) {
        Map<String, Entry> result = new HashMap<>();
        for (String bucket : buckets) {
            Entry entry = entries.get(bucket);
            if (entry == null || entry.opId() != opId) {
                return Optional.empty();
            }
            result.put(bucket, entry);
        }
        return Optional.of(result);
    }

    /** The state of each of {@code buckets} at checkpoint {@code opId}. */
    synchronized Map<String, Entry> at(Connection connection, long opId, Collection<String> buckets)
        throws SQLException {
        Map<String, Entry> result = new HashMap<>();
        List<String> extend = new ArrayList<>();
        List<Long> from = new ArrayList<>();
        List<String> older = new ArrayList<>();
        for (String bucket : new LinkedHashSet<>(buckets)) {
            Entry entry = entries.get(bucket);
            if (entry == null) {
                extend.add(bucket);
                from.add(0L);
            } else if (entry.opId() < opId) {
                extend.add(bucket);
                from.add(entry.opId());
            } else if (entry.opId() == opId) {
                result.put(bucket, entry);
            } else {
                older.add(bucket);
            }
        }
        Map<String, Sum> deltas = sums(connection, extend, from, opId);
        List<String> cleared = new ArrayList<>();
        for (int i = 0; i < extend.size(); i++) {
            if (from.get(i) > 0 && deltas.get(extend.get(i)).cleared()) {
                cleared.add(extend.get(i));
            }
        }
        deltas.putAll(sums(connection, cleared, cleared.stream().map(b -> 0L).toList(), opId));
        for (int i = 0; i < extend.size(); i++) {
            String bucket = extend.get(i);
            Entry base = cleared.contains(bucket) ? new Entry(0, 0, 0) : entries.getOrDefault(bucket,
                new Entry(0, 0, 0));
            Entry delta = deltas.get(bucket).entry();
            Entry next = new Entry(opId, Checksums.add(base.checksum(), delta.checksum()),
                base.count() + delta.count());
            entries.put(bucket, next);
            result.put(bucket, next);
        }
        sums(connection, older, older.stream().map(b -> 0L).toList(), opId)
            .forEach((bucket, sum) -> result.put(bucket, sum.entry()));
        return result;
    }

    /** A bucket's ops in a range, and whether a CLEAR op is among them. */
    private record Sum(Entry entry, boolean cleared) {
    }

    private Map<String, Sum> sums(Connection connection, List<String> buckets, List<Long> after, long upto)
        throws SQLException {
        Map<String, Sum> sums = new HashMap<>();
        if (buckets.isEmpty()) {
            return sums;
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT r.bucket,"
            + " coalesce(sum(d.checksum) % 4294967296, 0)::bigint, count(d.op_id),"
            + " coalesce(bool_or(d.op = 4), false)"
            + " FROM unnest(?::text[], ?::bigint[]) AS r(bucket, after)"
            + " LEFT JOIN LATERAL (SELECT op_id, op, checksum FROM " + table + " d"
            + " WHERE " + groupKey + " AND d.bucket = r.bucket"
            + " AND d.op_id > r.after AND d.op_id <= ?) d ON true GROUP BY r.bucket")) {
            Array names = connection.createArrayOf("text", buckets.toArray());
            Array afters = connection.createArrayOf("bigint", after.toArray());
            select.setArray(1, names);
            select.setArray(2, afters);
            select.setLong(3, upto);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    Entry entry = new Entry(upto, rs.getLong(2), rs.getLong(3));
                    sums.put(rs.getString(1), new Sum(entry, rs.getBoolean(4)));
                }
            }
        }
        return sums;
    }
}
