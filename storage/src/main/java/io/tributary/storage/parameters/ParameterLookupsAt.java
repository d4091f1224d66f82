package io.tributary.storage.parameters;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parameter rows stored under lookups at a checkpoint: per lookup and source row, the newest version with
 * {@code op_id <= checkpoint}, left out when that version says the row left the lookup. Writers give versions op ids
 * under the same seals as ops, so this is the source state at the checkpoint: a version written after it has a
 * larger op id, and every version of an epoch the checkpoint covers is committed. Stateless and thread-safe.
 */
public final class ParameterLookupsAt {

    private static final String AT = "SELECT lookup, parameters FROM (SELECT DISTINCT ON (lookup, source_key)"
        + " lookup, parameters FROM tributary.bucket_parameters WHERE group_id = ? AND lookup = ANY(?::text[])"
        + " AND op_id <= ? ORDER BY lookup, source_key, op_id DESC) newest WHERE parameters IS NOT NULL"
        + " ORDER BY lookup, parameters";

    private ParameterLookupsAt() {
    }

    /**
     * The parameters texts stored under each of {@code lookups} in group {@code groupId} at checkpoint
     * {@code checkpointOpId}; a lookup with none is absent from the map.
     */
    public static Map<String, List<String>> read(Connection connection, long groupId, Collection<String> lookups,
                                                 long checkpointOpId) throws SQLException {
        Map<String, List<String>> found = new LinkedHashMap<>();
        if (lookups.isEmpty()) {
            return found;
        }
        try (PreparedStatement select = connection.prepareStatement(AT)) {
            select.setLong(1, groupId);
            select.setArray(2, connection.createArrayOf("text", lookups.toArray(new String[0])));
            select.setLong(3, checkpointOpId);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    found.computeIfAbsent(rs.getString(1), k -> new ArrayList<>()).add(rs.getString(2));
                }
            }
        }
        return found;
    }
}
