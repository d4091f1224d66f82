package io.tributary.chaos.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.chaos.workload.WorkloadSchema;
import io.tributary.postgres.PgEndpoint;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The SQL evaluation of the workload's rules against the reference evaluation of the same rules, over a seeded
 * workload's source tables: the two must agree on every bucket's rows, or one of them misreads the rules.
 */
@RealServices
class SqlBucketsIT {

    @Test
    void sqlAndTheReferenceEvaluatorPutTheSameRowsInTheSameBuckets(TestServices services) throws Exception {
        long seed = Seeds.fromProperty("tributary.seed");
        PostgresDatabase database = services.newDatabase();
        PgEndpoint source = PgEndpoint.of(database.jdbcUrl(), database.user(), database.password());
        try (Connection c = source.connect()) {
            new WorkloadSchema(6, 300, 100).create(c, seed);
            try (Statement statement = c.createStatement()) {
                statement.execute("UPDATE items SET flag = true, qty = 51 WHERE id = 1");
                statement.execute("UPDATE items SET flag = true, qty = 50 WHERE id = 2");
            }

            Map<String, Set<String>> sql = SqlBuckets.expected(c);
            Map<String, Set<String>> reference = new TreeMap<>();
            BucketCheck.expected(WorkloadSchema.SYNC_RULES, SourceTables.read(c, WorkloadSchema.TABLES))
                .forEach((bucket, contents) -> reference.put(bucket, new TreeSet<>(contents.rows().keySet())));

            assertThat(sql).as("seed %d", seed).isEqualTo(reference);
            assertThat(sql.get("flagged[]")).as("seed %d", seed).contains("items/1").doesNotContain("items/2");
            assertThat(sql.keySet()).as("seed %d", seed).contains("all_accounts[]", "by_owner[\"u0\"]");
        }
    }
}
