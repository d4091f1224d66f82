package io.tributary.ingest.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import io.tributary.testing.random.Seeds;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangeOp;
import io.tributary.topics.messages.TableId;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

@RealServices
class ToastIT {

    @Test
    void anUpdateLeavingAToastedValueUnchangedCarriesTheValue(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE docs (id int PRIMARY KEY, small int, body text)");
            f.start(f.config("docs"));
            ChangesTopic changes = f.changes();
            String body = incompressibleText();

            insertBigRowThenUpdateSmallColumn(f, body);

            List<ChangeEvent> events = ChangeCaptureIT.changeEvents(changes.awaitUntil(Duration.ofSeconds(60),
                got -> ChangeCaptureIT.changeEvents(got).size() == 2));
            assertThat(events.get(1).op()).isEqualTo(ChangeOp.UPDATE);
            assertThat(events.get(1).row().orElseThrow().json())
                .isEqualTo("{\"id\":1,\"small\":1,\"body\":\"" + body + "\"}");
            assertThat(replicaIdentity(f, "docs")).isEqualTo("f");
        }
    }

    @Test
    void withoutFullIdentityAnUnchangedToastedValueStopsIngestNamingTableAndFix(TestServices services)
        throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE docs (id int PRIMARY KEY, small int, body text)");
            IngestService service = f.start(f.config("docs").withReplicaIdentityFull(false));

            insertBigRowThenUpdateSmallColumn(f, incompressibleText());

            await().atMost(Duration.ofSeconds(60)).until(() -> service.state() == IngestState.FAILED);
            assertThat(service.failure()).get().isInstanceOfSatisfying(UnavailableValueException.class, e -> {
                assertThat(e.table()).isEqualTo(TableId.of("public", "docs"));
                assertThat(e.columns()).containsExactly("body");
                assertThat(e.getMessage()).contains("REPLICA IDENTITY FULL");
            });
            assertThat(replicaIdentity(f, "docs")).isEqualTo("d");
        }
    }

    @Test
    void thePartitionsOfAPartitionedTableGetFullIdentity(TestServices services) throws Exception {
        try (IngestFixture f = IngestFixture.create(services)) {
            f.db.execute("CREATE TABLE events (id int PRIMARY KEY, body text) PARTITION BY RANGE (id)",
                "CREATE TABLE events_a PARTITION OF events FOR VALUES FROM (0) TO (100)",
                "CREATE TABLE events_b PARTITION OF events FOR VALUES FROM (100) TO (200)",
                "CREATE TABLE plain (id int PRIMARY KEY, body text)");
            f.start(f.config("events", "plain"));

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(replicaIdentity(f, "events_a")).isEqualTo("f");
                assertThat(replicaIdentity(f, "events_b")).isEqualTo("f");
                assertThat(replicaIdentity(f, "plain")).isEqualTo("f");
            });
        }
    }

    private static String incompressibleText() {
        byte[] bytes = new byte[9000];
        new Random(Seeds.fromProperty("tributary.seed")).nextBytes(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    private static void insertBigRowThenUpdateSmallColumn(IngestFixture f, String body) throws Exception {
        try (Connection c = f.db.connect();
             PreparedStatement s = c.prepareStatement("INSERT INTO docs VALUES (1, 0, ?)")) {
            s.setString(1, body);
            s.executeUpdate();
        }
        f.db.execute("UPDATE docs SET small = 1 WHERE id = 1");
    }

    private static String replicaIdentity(IngestFixture f, String table) throws Exception {
        try (Connection c = f.db.connect();
             PreparedStatement s = c.prepareStatement("SELECT relreplident FROM pg_class WHERE oid = ?::regclass")) {
            s.setString(1, "public." + table);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getString(1);
            }
        }
    }
}
