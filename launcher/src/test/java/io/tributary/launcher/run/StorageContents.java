package io.tributary.launcher.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.launcher.inspect.BucketSnapshot;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.ExpectedBucket;
import io.tributary.syncrules.ExpectedBuckets;
import io.tributary.syncrules.ReferenceEvaluator;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.json.CanonicalJsonFactory;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Test side of convergence: what storage serves, and what the rules say it should serve. */
public final class StorageContents {

    private static final ObjectMapper JSON = JsonMapper.builder(CanonicalJsonFactory.newFactory()).build();

    /** A bucket as compared: its rows as a set, checksum and count. */
    public record Bucket(Set<BucketRow> rows, long checksum, long count) {
    }

    private StorageContents() {
    }

    /** What a client downloads from {@code group} at its checkpoint. */
    public static Map<String, Bucket> served(Connection storage, long group) throws SQLException {
        Map<String, Bucket> buckets = new TreeMap<>();
        List<BucketRow> rows = new ArrayList<>();
        BucketSnapshot.read(storage, Optional.of(group), "", new BucketSnapshot.Visitor() {
            @Override
            public void start(SyncRulesGroup g, Checkpoint checkpoint) {
            }

            @Override
            public void row(String bucket, String table, String id, String data) {
                rows.add(new BucketRow(bucket, table, id, data));
            }

            @Override
            public void bucketEnd(String bucket, long checksum, long count) {
                if (count > 0) {
                    buckets.put(bucket, new Bucket(new HashSet<>(rows), checksum, count));
                }
                rows.clear();
            }
        });
        return buckets;
    }

    /** The rules evaluated directly over the source tables they read. */
    public static Map<String, Bucket> expected(Connection source, String rules) throws Exception {
        ExpectedBuckets expected = rulesOverSource(source, rules);
        Map<String, Bucket> buckets = new TreeMap<>();
        for (ExpectedBucket bucket : expected.buckets().values()) {
            buckets.put(bucket.bucket(), new Bucket(new HashSet<>(bucket.rows()), bucket.checksum(), bucket.count()));
        }
        return buckets;
    }

    /**
     * The reference evaluator's buckets for {@code rules} over the source tables they read, each row encoded as the
     * snapshot path encodes it.
     */
    public static ExpectedBuckets rulesOverSource(Connection source, String rules) throws Exception {
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
        return new ReferenceEvaluator(parsed).evaluate(rowsByTable);
    }
}
