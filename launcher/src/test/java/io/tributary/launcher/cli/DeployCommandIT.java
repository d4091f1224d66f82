package io.tributary.launcher.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.testing.PostgresDatabase;
import io.tributary.testing.RealServices;
import io.tributary.testing.TestServices;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@RealServices
class DeployCommandIT {

    @TempDir
    Path dir;

    @Test
    void validRulesBecomeAProcessingGroup(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        Path rules = Files.writeString(dir.resolve("rules.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage).toString(),
            rules.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("as sync rules group 1 (PROCESSING)");
        try (Connection c = storage.connect()) {
            List<SyncRulesGroup> groups = SyncRulesGroups.list(c);
            assertThat(groups).singleElement().satisfies(group -> {
                assertThat(group.state()).isEqualTo(GroupState.PROCESSING);
                assertThat(group.content()).isEqualTo(Files.readString(rules));
            });
        }
    }

    @Test
    void badRulesNameFileLineAndColumnAndChangeNothing(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        Path rules = Files.writeString(dir.resolve("bad.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items WHERE owner = bucket.nobody\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage).toString(),
            rules.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains(rules + ":4:").contains("nobody");
        try (Connection c = storage.connect()) {
            assertThat(c.createStatement().executeQuery("SELECT to_regclass('tributary.sync_rules') IS NULL")
                .next()).isTrue();
        }
    }

    @Test
    void anUnreachableStorageIsOneClearError(TestServices services) throws Exception {
        Path rules = Files.writeString(dir.resolve("rules.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items\n");
        Path config = Files.writeString(dir.resolve("tributary.yaml"),
            "storage:\n  url: jdbc:postgresql://localhost:1/nowhere\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config.toString(), rules.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(result.err()).contains("jdbc:postgresql://localhost:1/nowhere").contains("storage.url");
    }

    private Path config(PostgresDatabase storage) throws Exception {
        return Files.writeString(dir.resolve("tributary.yaml"), "storage:\n  url: " + storage.jdbcUrl()
            + "\n  user: " + storage.user() + "\n  password: '" + storage.password() + "'\n");
    }
}
