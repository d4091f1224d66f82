package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.launcher.config.CompactionConfig;
import io.tributary.launcher.config.JdbcEndpoint;
import io.tributary.launcher.config.Secret;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@RealServices
class BackgroundCompactionIT {

    @Test
    void compactsActiveGroupsEveryIntervalAndLeavesOthers(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        long active;
        long processing;
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            active = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            processing = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            SyncRulesGroups.transition(c, active, GroupState.PROCESSING, GroupState.ACTIVE);
            for (long group : new long[] {active, processing}) {
                try (Statement s = c.createStatement()) {
                    s.execute("INSERT INTO tributary.bucket_data (group_id, bucket, op_id, op, source_table, row_id,"
                        + " checksum, data) SELECT " + group + ", 'b[]', " + group + " * 1000 + n, 1, 't', '1', n,"
                        + " '{}' FROM generate_series(1, 10) AS n");
                    s.execute("UPDATE tributary.sync_rules SET checkpoint_op_id = " + (group * 1000 + 10)
                        + ", checkpoint_lsn = '0/1', checkpoint_epoch = 1 WHERE group_id = " + group);
                }
            }
        }
        JdbcEndpoint endpoint = new JdbcEndpoint(storage.jdbcUrl(), storage.user(), new Secret(storage.password()));

        try (BackgroundCompaction compaction = BackgroundCompaction.start(endpoint,
            new CompactionConfig(Duration.ofMillis(200), 3, 1_000_000))) {
            await().atMost(Duration.ofSeconds(30)).until(() -> ops(storage, active) == 2);
        }

        assertThat(ops(storage, processing)).isEqualTo(10);
    }

    private static long ops(PostgresDatabase storage, long group) throws Exception {
        try (Connection c = storage.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT count(*) FROM tributary.bucket_data WHERE group_id = " + group)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
