package io.tributary.ingest.capture.publication;

import io.tributary.ingest.capture.TableSelection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.syncrules.SyncRules;
import io.tributary.syncrules.SyncRulesException;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Selects the tables that the live sync rules groups in storage read (groups in PROCESSING or ACTIVE): each
 * group's rules, with their wildcards, matched against the source tables. A group whose stored rules no longer
 * parse is logged and skipped. Parsed rules are cached per group. Thread-safe.
 */
public final class LiveGroupTables implements TableSelection {

    private static final Logger LOG = LoggerFactory.getLogger(LiveGroupTables.class);

    private final PgEndpoint storage;
    private final Map<Long, ParsedGroup> parsed = new ConcurrentHashMap<>();

    private record ParsedGroup(String content, SyncRules rules) {
    }

    /** A selection reading groups from the storage database at {@code storage}. */
    public LiveGroupTables(PgEndpoint storage) {
        this.storage = Objects.requireNonNull(storage, "storage");
    }

    @Override
    public Set<TableId> select(List<TableId> sourceTables) throws SQLException {
        List<SyncRulesGroup> groups;
        try (Connection connection = storage.connect()) {
            groups = SyncRulesGroups.list(connection);
        }
        Map<String, TableId> byName = new HashMap<>();
        for (TableId table : sourceTables) {
            if (table.schema().indexOf('.') < 0) {
                byName.put(table.schema() + "." + table.name(), table);
            }
        }
        Set<TableId> selected = new TreeSet<>();
        for (SyncRulesGroup group : groups) {
            if (!group.state().isLive()) {
                parsed.remove(group.id());
                continue;
            }
            SyncRules rules = rulesOf(group);
            if (rules != null) {
                for (String name : rules.tablesMatching(byName.keySet())) {
                    selected.add(byName.get(name));
                }
            }
        }
        return selected;
    }

    private SyncRules rulesOf(SyncRulesGroup group) {
        ParsedGroup cached = parsed.get(group.id());
        if (cached != null && cached.content().equals(group.content())) {
            return cached.rules();
        }
        try {
            SyncRules rules = SyncRules.parse(group.content());
            parsed.put(group.id(), new ParsedGroup(group.content(), rules));
            return rules;
        } catch (SyncRulesException e) {
            LOG.error("Sync rules of group {} do not parse; its tables are not captured: {}", group.id(),
                e.getMessage());
            return null;
        }
    }
}
