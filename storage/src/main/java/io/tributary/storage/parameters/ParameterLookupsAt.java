package io.tributary.storage.parameters;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The parameter rows stored under lookups at a checkpoint: per lookup and source row, the newest version with
 * {@code op_id <= checkpoint}, left out when that version says the row left the lookup. Writers give versions op ids
 * under the same seals as ops, so this is the source state at the checkpoint: a version written after it has a
 * larger op id, and every version of an epoch the checkpoint covers is committed.
 *
 * <p>Compaction deletes versions superseded at or below a published checkpoint and raises the group's fence to it
 * in the same transaction ({@code io.tributary.storage.compact}); each read here takes the fence in the statement
 * that reads the versions, so it answers for a checkpoint below the fence with nothing rather than a state that
 * never was. Stateless and thread-safe.
 */
public final class ParameterLookupsAt {

    private static final String FENCE = "(SELECT coalesce((SELECT parameter_fence FROM tributary.compaction_state"
        + " WHERE group_id = ?), 0) AS fence) f";
    private static final String AT = "SELECT f.fence, n.lookup, n.parameters FROM " + FENCE + " LEFT JOIN"
        + " (SELECT lookup, parameters FROM (SELECT DISTINCT ON (lookup, source_key) lookup, parameters"
        + " FROM tributary.bucket_parameters WHERE group_id = ? AND lookup = ANY(?::text[]) AND op_id <= ?"
        + " ORDER BY lookup, source_key, op_id DESC) newest WHERE parameters IS NOT NULL) n ON true"
        + " ORDER BY n.lookup, n.parameters";
    private static final String CHANGED = "SELECT f.fence, c.lookup FROM " + FENCE + " LEFT JOIN"
        + " (SELECT DISTINCT lookup FROM tributary.bucket_parameters WHERE group_id = ? AND op_id > ?"
        + " AND op_id <= ?) c ON true";

    private ParameterLookupsAt() {
    }

    /**
     * The parameters texts stored under each of {@code lookups} in group {@code groupId} at checkpoint
     * {@code checkpointOpId}, a lookup with none absent from the map; empty when a compaction already deleted
     * versions that checkpoint could need (a newer checkpoint of the group is published: read at that one).
     */
    public static Optional<Map<String, List<String>>> read(Connection connection, long groupId,
                                                           Collection<String> lookups, long checkpointOpId)
        throws SQLException {
        Map<String, List<String>> found = new LinkedHashMap<>();
        if (lookups.isEmpty()) {
            return Optional.of(found);
        }
        try (PreparedStatement select = connection.prepareStatement(AT)) {
            select.setLong(1, groupId);
            select.setLong(2, groupId);
            select.setArray(3, connection.createArrayOf("text", lookups.toArray(new String[0])));
            select.setLong(4, checkpointOpId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    if (rs.getLong(1) > checkpointOpId) {
                        return Optional.empty();
                    }
                    String lookup = rs.getString(2);
                    if (lookup != null) {
                        found.computeIfAbsent(lookup, k -> new ArrayList<>()).add(rs.getString(3));
                    }
                }
            }
        }
        return Optional.of(found);
    }

    /**
     * The lookups of group {@code groupId} whose stored rows may differ between checkpoints {@code from} and
     * {@code to} ({@code from < to}): those with a version in {@code (from, to]}. Empty when a compaction may
     * have deleted versions in that range (its fence is above {@code from}): then any lookup may have changed.
     */
    public static Optional<Set<String>> changedBetween(Connection connection, long groupId, long from, long to)
        throws SQLException {
        if (from >= to) {
            throw new IllegalArgumentException("Checkpoint range is empty: (" + from + ", " + to + "]");
        }
        Set<String> changed = new LinkedHashSet<>();
        try (PreparedStatement select = connection.prepareStatement(CHANGED)) {
            select.setLong(1, groupId);
            select.setLong(2, groupId);
            select.setLong(3, from);
            select.setLong(4, to);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    if (rs.getLong(1) > from) {
                        return Optional.empty();
                    }
                    String lookup = rs.getString(2);
                    if (lookup != null) {
                        changed.add(lookup);
                    }
                }
            }
        }
        return Optional.of(changed);
    }
}
