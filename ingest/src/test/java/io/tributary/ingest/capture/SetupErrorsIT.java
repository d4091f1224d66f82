package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.ingest.capture.publication.Publications;
import io.tributary.postgres.PgEndpoint;
import io.tributary.source.catalog.MissingPrimaryKeyException;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.time.Duration;
import org.junit.jupiter.api.Test;

@RealServices
class SetupErrorsIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void aTableWithoutKeyIsReportedWithTheFixAndNotCaptured(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE good (id int PRIMARY KEY)", "CREATE TABLE nokey (v int)");
            IngestService service = f.start(f.config("good", "nokey"));

            assertThat(service.capturedTables()).containsExactly(TableId.of("public", "good"));
            assertThat(service.tableProblems()).containsOnlyKeys(TableId.of("public", "nokey"));
            assertThat(service.tableProblems().get(TableId.of("public", "nokey")))
                .isInstanceOf(MissingPrimaryKeyException.class)
                .hasMessageContaining("ADD PRIMARY KEY");
            try (Connection c = f.db.connect()) {
                assertThat(Publications.tables(c, f.publication).tables())
                    .containsExactly(TableId.of("public", "good"));
            }
        }
    }

    @Test
    void aUserWithoutReplicationFailsNamingTheFix(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            String role = services.uniqueName("noreplication");
            f.db.execute("CREATE ROLE " + role + " LOGIN PASSWORD 'pw' NOSUPERUSER NOREPLICATION",
                "CREATE TABLE items (id int PRIMARY KEY)");
            IngestConfig config = f.config("items");
            IngestService service = f.startNoWait(new IngestConfig(
                PgEndpoint.of(f.db.jdbcUrl(), role, "pw"), config.slotName(), config.publicationName(),
                config.topics(), config.layout(), config.kafkaProperties(), config.tables(),
                config.heartbeatInterval(), config.barrierInterval(), config.tableRefreshInterval(),
                config.offsetFlushInterval(), config.maxRetryBackoff(), true, config.maxBatchSize(), config.sealed()));

            await().atMost(WAIT).until(() -> service.state() == IngestState.FAILED);
            assertThat(service.failure()).get().isInstanceOfSatisfying(ReplicationPrivilegeException.class, e -> {
                assertThat(e.user()).isEqualTo(role);
                assertThat(e.getMessage()).contains("ALTER ROLE \"" + role + "\" WITH REPLICATION");
            });
        }
    }

    @Test
    void aServerWithoutLogicalWalLevelFailsNamingTheFix(TestServices services) throws Exception {
        try (var server = io.zonky.test.db.postgres.embedded.EmbeddedPostgres.builder()
                 .setServerConfig("wal_level", "replica").start();
             IngestFixture f = IngestFixture.create(services)) {
            IngestConfig config = f.config("items");
            IngestService service = f.startNoWait(new IngestConfig(
                PgEndpoint.of(server.getJdbcUrl("postgres", "postgres"), "postgres", ""),
                config.slotName(), config.publicationName(), config.topics(), config.layout(),
                config.kafkaProperties(), config.tables(), config.heartbeatInterval(), config.barrierInterval(),
                config.tableRefreshInterval(), config.offsetFlushInterval(), config.maxRetryBackoff(), true,
                config.maxBatchSize(), config.sealed()));

            await().atMost(WAIT).until(() -> service.state() == IngestState.FAILED);
            assertThat(service.failure()).get().isInstanceOfSatisfying(WalLevelException.class, e -> {
                assertThat(e.walLevel()).isEqualTo("replica");
                assertThat(e.getMessage()).contains("wal_level = logical");
            });
            service.close();
        }
    }
}
