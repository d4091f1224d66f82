package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every failure a user can cause at start gives one clear error and a non-zero exit. */
@RealServices
class RunCommandErrorsIT {

    @TempDir
    Path dir;

    @Test
    void anUnreachableKafkaNamesItsAddressAndTheKey(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "source:\n  url: " + db.jdbcUrl()
            + "\nstorage:\n  url: " + db.jdbcUrl() + "\nkafka:\n  bootstrap_servers: localhost:1\n"
            + "metrics:\n  port: 0\nstartup:\n  wait_seconds: 1\n");

        CommandLineHarness result = CommandLineHarness.run("run", "--config", config.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).contains("Cannot reach Kafka at localhost:1").contains("kafka.bootstrap_servers")
            .contains("gave up after waiting 1 s (startup.wait_seconds)");
    }

    @Test
    void anUnreachableSourceNamesItsUrlAndTheKey(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "source:\n  url: jdbc:postgresql://localhost:1/x"
            + "\nstorage:\n  url: " + db.jdbcUrl() + "\nkafka:\n  bootstrap_servers: localhost:1\n"
            + "startup:\n  wait_seconds: 1\n");

        CommandLineHarness result = CommandLineHarness.run("run", "--config", config.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).contains("source database at jdbc:postgresql://localhost:1/x").contains("source.url")
            .contains("gave up after waiting 1 s");
    }

    @Test
    void aWrongKeyIsReportedBeforeAnythingStarts() throws Exception {
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "kafka:\n  bootstrap_server: localhost:9092\n");

        CommandLineHarness result = CommandLineHarness.run("run", "--config", config.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("kafka.bootstrap_server (tributary.yaml line 2): unknown key; did you mean "
            + "'kafka.bootstrap_servers'?");
    }

    @Test
    void anUnknownRoleListsTheRoles() {
        CommandLineHarness result = CommandLineHarness.run("run", "--role", "replication:everything");

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("Unknown role 'replication:everything'").contains("replication:snapshot");
    }

    @Test
    void syncRulesWhoseIdIsNotThePrimaryKeyAreNotDeployedByARun(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        db.execute("CREATE TABLE users (user_id bigint PRIMARY KEY, email text)");
        Files.writeString(dir.resolve("rules.yaml"), "bucket_definitions:\n  a:\n    data:\n"
            + "      - SELECT email AS id FROM users\n");
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "source:\n  url: " + db.jdbcUrl()
            + "\nstorage:\n  url: " + db.jdbcUrl() + "\nkafka:\n  bootstrap_servers: "
            + services.kafkaBootstrapServers() + "\nsync_rules: rules.yaml\nmetrics:\n  port: 0\n");

        CommandLineHarness result = CommandLineHarness.run("run", "--config", config.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("rules.yaml:4:16: a.data[0] outputs id from column email of public.users")
            .contains("select user_id AS id");
    }

    @Test
    void badSyncRulesNameTheFileLineAndColumn(TestServices services) throws Exception {
        PostgresDatabase db = services.newDatabase();
        Files.writeString(dir.resolve("rules.yaml"), "bucket_definitions:\n  a:\n    data:\n      - SELECT * FROM t"
            + " WHERE x = bucket.nope\n");
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "source:\n  url: " + db.jdbcUrl()
            + "\nstorage:\n  url: " + db.jdbcUrl() + "\nkafka:\n  bootstrap_servers: "
            + services.kafkaBootstrapServers() + "\nsync_rules: rules.yaml\nmetrics:\n  port: 0\n");

        CommandLineHarness result = CommandLineHarness.run("run", "--config", config.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("rules.yaml:4:").contains("nope");
    }
}
