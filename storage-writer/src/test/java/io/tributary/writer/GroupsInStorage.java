package io.tributary.writer;

import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.testing.PostgresDatabase;
import java.sql.Connection;
import java.sql.SQLException;

/** Storage for a test of one writer part: the schema and some empty sync rules groups. */
public final class GroupsInStorage {

    private GroupsInStorage() {
    }

    /** Migrates {@code db} and creates one group; returns its id. */
    public static long one(PostgresDatabase db) throws SQLException {
        return create(db, 1)[0];
    }

    /** Migrates {@code db} and creates {@code count} groups; returns their ids in creation order. */
    public static long[] create(PostgresDatabase db, int count) throws SQLException {
        long[] ids = new long[count];
        try (Connection c = db.connect()) {
            Migrations.migrate(c);
            for (int i = 0; i < count; i++) {
                ids[i] = SyncRulesGroups.create(c, "bucket_definitions: {}").id();
            }
        }
        return ids;
    }
}
