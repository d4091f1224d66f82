package io.tributary.api.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lookup cache answers every lookup as a read at its checkpoint would: entries move to a new checkpoint only
 * when no version of their lookup lies between the two, none move when a compaction may have removed versions in
 * between, and a checkpoint below the compaction fence is answered with nothing (a newer one must be served).
 */
@RealServices
class LookupCacheIT {

    private static final String A = "[\"d\",0,\"a\"]";
    private static final String B = "[\"d\",0,\"b\"]";

    @Test
    void entriesFollowTheirLookupsAcrossCheckpoints(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        try (Connection c = db.connect(); Statement s = c.createStatement();
             StoragePool pool = new StoragePool(new PgEndpoint(db.jdbcUrl(), db.user(), db.password()), 2,
                 Duration.ofSeconds(10))) {
            Migrations.migrate(c);
            long group = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            version(s, group, A, 1, 10, "{\"l\":\"a1\"}");
            version(s, group, B, 2, 11, "{\"l\":\"b1\"}");
            LookupCache cache = new LookupCache(group, 100);

            assertThat(cache.read(pool, List.of(A, B), 20)).hasValue(Map.of(A, List.of("{\"l\":\"a1\"}"),
                B, List.of("{\"l\":\"b1\"}")));
            long reads = cache.reads();
            assertThat(cache.read(pool, List.of(B, A), 20)).as("cached").isPresent();
            assertThat(cache.reads()).isEqualTo(reads);

            version(s, group, A, 1, 25, null);
            cache.advance(c, 20, 30);
            reads = cache.reads();
            assertThat(cache.read(pool, List.of(A, B), 30)).hasValue(Map.of(A, List.of(),
                B, List.of("{\"l\":\"b1\"}")));
            assertThat(cache.reads() - reads).as("only the changed lookup is read again").isEqualTo(1);

            s.execute("INSERT INTO tributary.compaction_state (group_id, parameter_fence) VALUES (" + group
                + ", 40)");
            version(s, group, B, 3, 35, "{\"l\":\"b2\"}");
            cache.advance(c, 30, 40);
            reads = cache.reads();
            assertThat(cache.read(pool, List.of(B), 40)).hasValue(Map.of(B, List.of("{\"l\":\"b1\"}",
                "{\"l\":\"b2\"}")));
            assertThat(cache.reads() - reads).as("a fence above the previous checkpoint moves no entry")
                .isEqualTo(1);
            assertThat(new LookupCache(group, 100).read(pool, List.of(A), 39)).as("below the fence").isEmpty();
            assertThat(cache.read(pool, List.of(A), 39)).as("an older checkpoint, read directly").isEmpty();
            assertThat(cache.read(pool, List.of(A), 40)).hasValue(Map.of(A, List.of()));
        }
    }

    private static void version(Statement s, long group, String lookup, int key, long opId, String parameters)
        throws Exception {
        s.execute("INSERT INTO tributary.bucket_parameters (group_id, lookup, source_key, op_id, source_partition,"
            + " parameters) VALUES (" + group + ", '" + lookup + "', '\\x0" + key + "', " + opId + ", 0, "
            + (parameters == null ? "NULL" : "'" + parameters + "'") + ")");
    }
}
