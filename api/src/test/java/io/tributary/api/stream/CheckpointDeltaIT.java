package io.tributary.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.Checksums;
import io.tributary.syncrules.SyncRules;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shared read of a checkpoint's new ops, against a real storage database. */
@RealServices
class CheckpointDeltaIT {

    private static final String RULES = """
        bucket_definitions:
          global:
            data:
              - SELECT id FROM items
        """;

    @Test
    void aCheckpointReadsTheNewOpsOfHeldBucketsOnceAndExtendsTheirChecksums(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            ServedGroup group = served(c);
            insert(c, group.id(), "global[]", 1, 10);
            insert(c, group.id(), "other[]", 2, 20);
            group.subscriptions().add(List.of("global[]"));
            group.checksums().at(c, 2, List.of("global[]"));
            insert(c, group.id(), "global[]", 3, 30);
            insert(c, group.id(), "global[]", 4, 40);
            insert(c, group.id(), "other[]", 5, 50);

            group.advance(c, 2, 5);

            CheckpointDelta delta = group.delta().orElseThrow();
            assertThat(delta.serves(2, 5)).isTrue();
            assertThat(delta.covers("other[]")).isFalse();
            assertThat(delta.opsOf("global[]")).extracting(op -> op.opId()).containsExactly(3L, 4L);
            Map<String, ChecksumCache.Entry> cached = group.checksums().cached(5, List.of("global[]")).orElseThrow();
            assertThat(cached.get("global[]")).isEqualTo(new ChecksumCache.Entry(5, Checksums.sum(10, 30, 40), 3));
        }
    }

    @Test
    void aCheckpointThatMovesOnlyTheSourcePositionKeepsTheDelta(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            ServedGroup group = served(c);
            insert(c, group.id(), "global[]", 1, 10);
            group.subscriptions().add(List.of("global[]"));
            group.checksums().at(c, 1, List.of("global[]"));
            insert(c, group.id(), "global[]", 2, 20);
            group.advance(c, 1, 2);

            group.advance(c, 2, 2);

            assertThat(group.delta()).hasValueSatisfying(d -> assertThat(d.serves(1, 2)).isTrue());
        }
    }

    @Test
    void aCheckpointAboveTheSharedLimitLeavesNoDelta(TestServices services) throws Exception {
        try (Connection c = storage(services)) {
            ServedGroup group = served(c, StreamSettings.defaults().withSharedOps(1));
            group.subscriptions().add(List.of("global[]"));
            insert(c, group.id(), "global[]", 1, 10);
            insert(c, group.id(), "global[]", 2, 20);

            group.advance(c, 0, 2);

            assertThat(group.delta()).isEmpty();
        }
    }

    private static Connection storage(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        Connection c = db.connect();
        Migrations.migrate(c);
        return c;
    }

    private static ServedGroup served(Connection c) throws Exception {
        return served(c, StreamSettings.defaults());
    }

    private static ServedGroup served(Connection c, StreamSettings settings) throws Exception {
        SyncRulesGroup group = SyncRulesGroups.create(c, RULES);
        return new ServedGroup(group.id(), SyncRules.parse(RULES), settings);
    }

    private static void insert(Connection c, long group, String bucket, long opId, long checksum) throws Exception {
        try (Statement s = c.createStatement()) {
            s.execute("INSERT INTO tributary.bucket_data VALUES (" + group + ", '" + bucket + "', " + opId
                + ", 1, 'items', '" + opId + "', " + checksum + ", '{\"id\":\"" + opId + "\"}')");
        }
    }
}
