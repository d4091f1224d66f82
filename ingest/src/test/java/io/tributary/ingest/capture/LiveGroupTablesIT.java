package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.ingest.capture.publication.LiveGroupTables;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@RealServices
class LiveGroupTablesIT {

    private static final String TENANT_RULES = """
        bucket_definitions:
          by_customer:
            parameters: SELECT request.user_id() AS customer
            data:
              - SELECT o.*, o.id AS id FROM "tenant_%".orders AS o WHERE o.customer = bucket.customer
        """;

    private static final String OTHER_RULES = """
        bucket_definitions:
          global:
            data:
              - SELECT id FROM other
        """;

    @Test
    void tablesOfLiveGroupsAreCapturedAndANewTenantSchemaJoinsWithinARefresh(TestServices services)
        throws Exception {
        PostgresDatabase storage = services.newDatabase();
        try (Connection c = storage.connect()) {
            Migrations.migrate(c);
            SyncRulesGroups.create(c, TENANT_RULES);
            SyncRulesGroup stopped = SyncRulesGroups.create(c, OTHER_RULES);
            SyncRulesGroups.transition(c, stopped.id(), GroupState.PROCESSING, GroupState.STOP);
        }
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE SCHEMA tenant_1", "CREATE TABLE tenant_1.orders (id int PRIMARY KEY, customer text)",
                "CREATE TABLE public.other (id int PRIMARY KEY)");
            IngestConfig config = f.config();
            IngestService service = f.start(new IngestConfig(config.source(), config.slotName(),
                config.publicationName(), config.topics(), config.layout(), config.kafkaProperties(),
                new LiveGroupTables(PgEndpoint.of(storage.jdbcUrl(), storage.user(), storage.password())),
                config.heartbeatInterval(), config.barrierInterval(), config.tableRefreshInterval(),
                config.offsetFlushInterval(), config.maxRetryBackoff(), true, config.maxBatchSize(), config.sealed()));
            ChangesTopic changes = f.changes();
            assertThat(service.capturedTables()).containsExactly(TableId.of("tenant_1", "orders"));

            f.db.execute("CREATE SCHEMA tenant_2", "CREATE TABLE tenant_2.orders (id int PRIMARY KEY, customer text)");
            await().atMost(Duration.ofSeconds(30))
                .until(() -> service.capturedTables().contains(TableId.of("tenant_2", "orders")));
            f.db.execute("INSERT INTO tenant_2.orders VALUES (1, 'c')", "INSERT INTO public.other VALUES (1)");

            changes.awaitUntil(Duration.ofSeconds(60), got -> ChangeCaptureIT.changeEvents(got).stream()
                .anyMatch(e -> e.table().equals(TableId.of("tenant_2", "orders"))));
            assertThat(ChangeCaptureIT.changeEvents(changes.poll()))
                .noneMatch(e -> e.table().name().equals("other"));
        }
    }
}
