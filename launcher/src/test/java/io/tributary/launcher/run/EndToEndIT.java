package io.tributary.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tributary.launcher.Main;
import io.tributary.launcher.env.SampleDataset;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole pipeline in one process against real Kafka and Postgres: the first run snapshots and catches up,
 * storage equals the rules evaluated over the source; a second deploy replays {@code rows} without reading the
 * source, becomes ACTIVE and the old group is cleared.
 */
@RealServices
class EndToEndIT {

    private static final String SECOND_RULES = "bucket_definitions:\n"
        + "  open_todos:\n"
        + "    parameters: SELECT request.user_id() AS user_id\n"
        + "    data:\n"
        + "      - SELECT id, description, priority FROM todos WHERE owner_id = bucket.user_id AND completed = false\n"
        + "  by_priority:\n"
        + "    data:\n"
        + "      - SELECT id, list_id FROM todos WHERE priority >= 2\n";

    @TempDir
    Path dir;

    @Test
    void snapshotThenReplayConvergeToTheRulesOverTheSource(TestServices services) throws Exception {
        PostgresDatabase source = services.newDatabase();
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = source.connect()) {
            new SampleDataset(50, 300, 5_000).load(c);
        }
        Map<String, StorageContents.Bucket> expectedFirst;
        Map<String, StorageContents.Bucket> expectedSecond;
        try (Connection c = source.connect()) {
            expectedFirst = StorageContents.expected(c, SampleDataset.syncRules());
            expectedSecond = StorageContents.expected(c, SECOND_RULES);
        }
        Path rules = Files.writeString(dir.resolve("rules.yaml"), SampleDataset.syncRules());
        Path config = TestConfigFile.write(dir, services, source, storage, rules, 4, 1000);

        Result first = run("run", "--config", config.toString(), "--until-caught-up");

        assertThat(first.code()).as(first.out()).isZero();
        assertThat(first.out()).contains("Caught up");
        assertServed(storage, 1, expectedFirst);
        Result status = run("status", "--config", config.toString(), "--json");
        assertThat(status.code()).as(status.out()).isZero();
        JsonNode report = new ObjectMapper().readTree(status.out());
        assertThat(report.at("/groups/0/state").asText()).isEqualTo("ACTIVE");
        assertThat(report.at("/groups/0/checkpoint/lsn").asText()).isNotEmpty();
        assertThat(report.get("tables")).hasSize(3).allSatisfy(table -> {
            assertThat(table.get("state").asText()).isEqualTo("DONE");
            assertThat(table.get("rows_done").asLong()).isPositive();
        });
        assertThat(report.get("consumer_groups")).extracting(group -> group.get("group").asText())
            .contains(services.topicPrefix() + "snapshot-workers", services.topicPrefix() + "storage-writer-g1");
        assertThat(report.at("/replication_slot/active").asBoolean()).as("no ingest attached after the run").isFalse();
        assertThat(report.at("/replication_slot/retained_wal_bytes").isNumber()).as(status.out()).isTrue();
        assertThat(report.at("/replication_slot/above_warning").asBoolean()).isFalse();

        long sourceReads = settledTupleReads(source);
        Files.writeString(rules, SECOND_RULES);
        Result second = run("run", "--config", config.toString(), "--until-caught-up");

        assertThat(second.code()).as(second.out()).isZero();
        assertServed(storage, 2, expectedSecond);
        assertThat(settledTupleReads(source)).as("rows read from the source by the replay").isEqualTo(sourceReads);
        try (Connection c = storage.connect()) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(c);
            assertThat(groups).extracting(SyncRulesGroup::state)
                .containsExactly(GroupState.TERMINATED, GroupState.ACTIVE);
            assertThat(groups.get(0).cleared()).isTrue();
        }
    }

    private static void assertServed(PostgresDatabase storage, long group,
                                     Map<String, StorageContents.Bucket> expected) throws Exception {
        assertThat(expected).isNotEmpty();
        try (Connection c = storage.connect()) {
            assertThat(StorageContents.served(c, group)).isEqualTo(expected);
        }
    }

    /**
     * Rows the source has handed out from its tables, by any scan. Sessions publish their counts when they end,
     * a moment after the run closed them: read until the count stops moving.
     */
    private static long settledTupleReads(PostgresDatabase source) throws Exception {
        long[] previous = {-1};
        return await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            long now = tupleReads(source);
            boolean settled = now == previous[0];
            previous[0] = now;
            return settled ? now : -1;
        }, reads -> reads >= 0);
    }

    private static long tupleReads(PostgresDatabase source) throws Exception {
        try (Connection c = source.connect(); ResultSet rs = c.createStatement().executeQuery(
            "SELECT sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)) FROM pg_stat_user_tables"
                + " WHERE relname IN ('users', 'lists', 'todos')")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private record Result(int code, String out) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        int code = Main.execute(new PrintWriter(out, true), new PrintWriter(out, true), args);
        return new Result(code, out.toString());
    }
}
