package io.tributary.launcher.env;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The embedded default's sample: a todo app's tables (users, lists, todos) generated inside the source
 * database, and sync rules that give each user their own lists and todos.
 *
 * @param users rows of {@code users}
 * @param lists rows of {@code lists}
 * @param todos rows of {@code todos}
 */
public record SampleDataset(int users, int lists, int todos) {

    /** The size {@code tributary run} loads: big enough to see throughput, small enough to finish in seconds. */
    public static final SampleDataset DEFAULT = new SampleDataset(1_000, 10_000, 200_000);

    public SampleDataset {
        if (users < 1 || lists < 1 || todos < 0) {
            throw new IllegalArgumentException("Sample sizes must be positive: " + users + ", " + lists);
        }
    }

    /** Total rows over the three tables. */
    public long rows() {
        return (long) users + lists + todos;
    }

    /** Creates and fills the tables (once: a source that already has them is left alone). */
    public void load(Connection source) throws SQLException {
        if (isLoaded(source)) {
            return;
        }
        try (Statement statement = source.createStatement()) {
            statement.execute(resource("schema.sql")
                .replace(":users", Integer.toString(users))
                .replace(":lists", Integer.toString(lists))
                .replace(":todos", Integer.toString(todos)));
        }
    }

    /** Whether {@code source} holds the sample tables already (a run before loaded them). */
    public static boolean isLoaded(Connection source) throws SQLException {
        try (Statement statement = source.createStatement();
             var rs = statement.executeQuery("SELECT to_regclass('public.todos') IS NOT NULL")) {
            rs.next();
            return rs.getBoolean(1);
        }
    }

    /** The sample sync rules (YAML). */
    public static String syncRules() {
        return resource("sync-rules.yaml");
    }

    private static String resource(String name) {
        try (InputStream in = SampleDataset.class.getResourceAsStream("/io/tributary/launcher/sample/" + name)) {
            if (in == null) {
                throw new IllegalStateException("Sample resource missing from the build: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
