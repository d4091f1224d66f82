package io.tributary.bench.initial;

import io.tributary.bench.direct.PutCopyBatch;
import io.tributary.bench.pipeline.Dataset;
import io.tributary.postgres.PgEndpoint;
import io.tributary.source.catalog.SourceCatalog;
import io.tributary.source.catalog.TableSchema;
import io.tributary.source.encoding.EncodedRow;
import io.tributary.source.encoding.JdbcRowEncoder;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.BucketRow;
import io.tributary.syncrules.SyncRules;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Scenario I's storage without the pipeline, for a machine where the pipeline cannot move millions of changes in
 * the time at hand: the bucket ops the storage writers would write for {@code rows} items each updated
 * {@code updates} times, made by the same parts. Before each round of updates and after the last, the whole table is
 * read with the snapshot's row encoder ({@link JdbcRowEncoder}), every row is evaluated by the compiled sync rules
 * and its PUT is copied into {@code bucket_data} with the next op id, so each row has one PUT per version in commit
 * order, as replication gives it; then the checkpoint is published at the last op and the group made ACTIVE. The
 * source ends with the same rows as after the pipeline run. Not thread-safe.
 */
final class DirectLoad {

    private static final int BATCH_OPS = 20_000;

    private DirectLoad() {
    }

    /**
     * Loads a fresh group of {@code rulesYaml} in {@code storage} from {@code source}'s items, committing the
     * updates to the source between the reads; returns the group id.
     */
    static long load(PgEndpoint source, PgEndpoint storage, String rulesYaml, long rows, int updates)
        throws SQLException {
        SyncRules rules = SyncRules.parse(rulesYaml);
        long group;
        try (Connection c = storage.connect()) {
            c.setAutoCommit(true);
            Migrations.migrate(c);
            group = SyncRulesGroups.create(c, rulesYaml).id();
        }
        long opId = 0;
        try (Connection s = source.connect(); Connection c = storage.connect()) {
            TableId table = TableId.of("public", "items");
            TableSchema schema = new SourceCatalog(s).describe(table);
            JdbcRowEncoder encoder = JdbcRowEncoder.forTable(schema);
            for (int version = 0; version <= updates; version++) {
                if (version > 0) {
                    Dataset.update(s, rows, 1, 1_000);
                }
                opId = copyVersion(s, c, encoder, rules, group, opId);
            }
            String lsn;
            try (Statement st = s.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_current_wal_lsn()")) {
                rs.next();
                lsn = rs.getString(1);
            }
            c.setAutoCommit(true);
            try (PreparedStatement publish = c.prepareStatement("UPDATE tributary.sync_rules SET state = 'ACTIVE',"
                + " load_state = 'INDEXED', checkpoint_op_id = ?, checkpoint_lsn = ?::pg_lsn, checkpoint_epoch = 1,"
                + " checkpoint_at = now() WHERE group_id = ?")) {
                publish.setLong(1, opId);
                publish.setString(2, lsn);
                publish.setLong(3, group);
                publish.executeUpdate();
            }
        }
        return group;
    }

    private static long copyVersion(Connection source, Connection storage, JdbcRowEncoder encoder, SyncRules rules,
                                    long group, long opId) throws SQLException {
        source.setAutoCommit(false);
        storage.setAutoCommit(false);
        PutCopyBatch batch = new PutCopyBatch(group);
        long lastOpId = opId;
        try (PreparedStatement select = source.prepareStatement("SELECT " + encoder.selectList() + " FROM "
            + Dataset.TABLE + " ORDER BY id")) {
            select.setFetchSize(5_000);
            try (ResultSet rs = select.executeQuery()) {
                while (rs.next()) {
                    EncodedRow row = encoder.encode(rs);
                    for (BucketRow op : rules.evaluate("public.items", row.row().orElseThrow().unsafeUtf8()).rows()) {
                        batch.add(++lastOpId, op);
                    }
                    if (batch.size() >= BATCH_OPS) {
                        batch.flush(storage);
                    }
                }
            }
        }
        batch.flush(storage);
        source.commit();
        source.setAutoCommit(true);
        return lastOpId;
    }
}
