package io.tributary.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

class EmbeddedServicesIT {

    @Test
    void postgresStartsWithLogicalReplication() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.start()) {
            postgres.createDatabase("probe");
            try (Connection c = DriverManager.getConnection(postgres.jdbcUrl("probe"), postgres.superuser(), "");
                 Statement s = c.createStatement()) {
                try (ResultSet rs = s.executeQuery("SHOW wal_level")) {
                    rs.next();
                    assertThat(rs.getString(1)).isEqualTo("logical");
                }
                try (ResultSet rs = s.executeQuery(
                    "SELECT lsn FROM pg_create_logical_replication_slot('probe_slot', 'pgoutput')")) {
                    assertThat(rs.next()).isTrue();
                }
                s.execute("SELECT pg_drop_replication_slot('probe_slot')");
            }
        }
    }

    @Test
    void kafkaStartsAndCreatesTopics() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.start()) {
            Properties props = new Properties();
            props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
            try (Admin admin = Admin.create(props)) {
                admin.createTopics(List.of(new NewTopic("probe", 3, (short) 1)
                    .configs(Map.of("cleanup.policy", "compact")))).all().get(30, TimeUnit.SECONDS);
                assertThat(admin.describeTopics(List.of("probe")).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get("probe").partitions()).hasSize(3);
            }
        }
        assertThat(Duration.ZERO).isZero();
    }
}
