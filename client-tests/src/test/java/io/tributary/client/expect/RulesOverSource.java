package io.tributary.client.expect;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ExpectedBucket;
import io.tributary.syncrules.ReferenceEvaluator;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * What a client must hold: the sync rules evaluated directly over the source tables (the reference evaluator over
 * rows encoded as the snapshot path encodes them), as bucket name to rows.
 */
public final class RulesOverSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RulesOverSource() {
    }

    /** The non-empty buckets whose names pass {@code buckets}, each with its rows. */
    public static Map<String, Set<SyncedRow>> expected(Connection source, String rules, Predicate<String> buckets)
        throws Exception {
        SyncRules parsed = SyncRules.parse(rules);
        SourceCatalog catalog = new SourceCatalog(source);
        Map<String, TableId> tables = new LinkedHashMap<>();
        for (TableId table : catalog.listAllUserTables()) {
            tables.put(table.schema() + "." + table.name(), table);
        }
        Map<String, List<ObjectNode>> rowsByTable = new LinkedHashMap<>();
        for (String name : parsed.tablesMatching(tables.keySet())) {
            TableSchema schema = catalog.describe(tables.get(name));
            JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
            List<ObjectNode> rows = new ArrayList<>();
            try (Statement statement = source.createStatement();
                 ResultSet rs = statement.executeQuery("SELECT " + encoder.selectList() + " FROM "
                     + schema.table().quoted())) {
                while (rs.next()) {
                    rows.add((ObjectNode) JSON.readTree(encoder.rowJson(rs)));
                }
            }
            rowsByTable.put(name, rows);
        }
        Map<String, Set<SyncedRow>> expected = new TreeMap<>();
        for (ExpectedBucket bucket : new ReferenceEvaluator(parsed).evaluate(rowsByTable).buckets().values()) {
            if (buckets.test(bucket.bucket()) && !bucket.rows().isEmpty()) {
                Set<SyncedRow> rows = new TreeSet<>();
                for (BucketRow row : bucket.rows()) {
                    rows.add(new SyncedRow(row.table(), row.id(), row.data()));
                }
                expected.put(bucket.bucket(), rows);
            }
        }
        return expected;
    }
}
