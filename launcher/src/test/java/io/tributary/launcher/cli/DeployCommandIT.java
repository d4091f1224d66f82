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
        PostgresDatabase source = services.newDatabase();
        source.execute("CREATE TABLE items (id bigint PRIMARY KEY, name text)");
        Path rules = Files.writeString(dir.resolve("rules.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage, source).toString(),
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

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config",
            config(storage, services.newDatabase()).toString(), rules.toString());

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

    @Test
    void anIdFromAColumnThatIsNotThePrimaryKeyIsRejectedNamingWhereTheTableItsKeyAndTheFix(TestServices services)
        throws Exception {
        PostgresDatabase storage = services.newDatabase();
        PostgresDatabase source = services.newDatabase();
        source.execute("CREATE TABLE users (user_id bigint PRIMARY KEY, email text NOT NULL UNIQUE)");
        Path rules = Files.writeString(dir.resolve("email.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT email AS id, user_id FROM users\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage, source).toString(),
            rules.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains(rules + ":4:16: all.data[0] outputs id from column email of public.users, "
            + "but its primary key is (user_id)").contains("select user_id AS id");
        assertNoGroup(storage);
    }

    @Test
    void aTableWithACompositePrimaryKeyIsRejectedForEveryMatchingTableOfAWildcard(TestServices services)
        throws Exception {
        PostgresDatabase storage = services.newDatabase();
        PostgresDatabase source = services.newDatabase();
        source.execute("CREATE SCHEMA tenant_1", "CREATE SCHEMA tenant_2",
            "CREATE TABLE tenant_1.members (org_id int PRIMARY KEY, user_id int)",
            "CREATE TABLE tenant_2.members (org_id int, user_id int, PRIMARY KEY (org_id, user_id))");
        Path rules = Files.writeString(dir.resolve("members.yaml"), "bucket_definitions:\n  all:\n    data:\n"
            + "      - SELECT org_id AS id, user_id FROM \"tenant_%\".members\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage, source).toString(),
            rules.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains(rules + ":4:16: all.data[0] reads tenant_2.members, whose primary key "
            + "(org_id, user_id) has 2 columns").contains("single-column primary key")
            .doesNotContain("tenant_1.members");
        assertNoGroup(storage);
    }

    @Test
    void aStarOverATableWhoseKeyIsNotNamedIdIsRejectedNamingTheKeyToSelect(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        PostgresDatabase source = services.newDatabase();
        source.execute("CREATE TABLE accounts (account_no int PRIMARY KEY, id text)");
        Path rules = Files.writeString(dir.resolve("star.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM accounts\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage, source).toString(),
            rules.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains(rules + ":4:16: all.data[0] outputs id from column id of public.accounts, "
            + "but its primary key is (account_no)").contains("select account_no AS id");
        assertNoGroup(storage);
    }

    @Test
    void idsThatAreThePrimaryKeyAreAccepted(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        PostgresDatabase source = services.newDatabase();
        source.execute("CREATE TABLE users (user_id bigint PRIMARY KEY, email text)",
            "CREATE TABLE todos (id uuid PRIMARY KEY, owner bigint)",
            "CREATE TABLE lists (id int PRIMARY KEY, name text)");
        Path rules = Files.writeString(dir.resolve("keys.yaml"), "bucket_definitions:\n  all:\n    data:\n"
            + "      - SELECT user_id AS id, email FROM users\n"
            + "      - SELECT * FROM todos\n"
            + "      - SELECT l.id, l.name FROM lists AS l\n"
            + "      - SELECT * FROM not_in_the_source_yet\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config(storage, source).toString(),
            rules.toString());

        assertThat(result.exitCode()).as(result.err()).isZero();
        assertThat(result.out()).contains("as sync rules group 1 (PROCESSING)");
    }

    @Test
    void deployWithoutASourceSaysItNeedsOne(TestServices services) throws Exception {
        PostgresDatabase storage = services.newDatabase();
        Path rules = Files.writeString(dir.resolve("rules.yaml"),
            "bucket_definitions:\n  all:\n    data:\n      - SELECT * FROM items\n");
        Path config = Files.writeString(dir.resolve("tributary.yaml"), "storage:\n  url: " + storage.jdbcUrl()
            + "\n  user: " + storage.user() + "\n  password: '" + storage.password() + "'\n");

        CommandLineHarness result = CommandLineHarness.run("deploy", "--config", config.toString(), rules.toString());

        assertThat(result.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(result.err()).contains("deploy needs source.url");
    }

    private static void assertNoGroup(PostgresDatabase storage) throws Exception {
        try (Connection c = storage.connect()) {
            assertThat(c.createStatement().executeQuery("SELECT to_regclass('tributary.sync_rules') IS NULL")
                .next()).isTrue();
        }
    }

    private Path config(PostgresDatabase storage, PostgresDatabase source) throws Exception {
        return Files.writeString(dir.resolve("tributary.yaml"), "source:\n  url: " + source.jdbcUrl()
            + "\n  user: " + source.user() + "\n  password: '" + source.password() + "'\n"
            + "storage:\n  url: " + storage.jdbcUrl()
            + "\n  user: " + storage.user() + "\n  password: '" + storage.password() + "'\n");
    }
}
