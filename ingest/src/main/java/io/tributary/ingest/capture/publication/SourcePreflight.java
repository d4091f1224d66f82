package io.tributary.ingest.capture.publication;

import io.tributary.ingest.capture.ReplicationPrivilegeException;
import io.tributary.ingest.capture.WalLevelException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Checks that the source server can be captured at all, before anything is created on it: {@code wal_level} is
 * {@code logical}, and the connected user may read a replication slot. Stateless and thread-safe.
 */
public final class SourcePreflight {

    private static final String CAN_REPLICATE = """
        SELECT r.rolname, r.rolsuper OR r.rolreplication
               OR EXISTS (SELECT 1 FROM pg_roles g
                           WHERE g.rolname = 'rds_replication' AND pg_has_role(r.oid, g.oid, 'member'))
          FROM pg_roles r
         WHERE r.rolname = current_user""";

    private SourcePreflight() {
    }

    /**
     * Runs every check.
     *
     * @throws WalLevelException              if {@code wal_level} is not {@code logical}
     * @throws ReplicationPrivilegeException  if the user lacks REPLICATION (and superuser, and rds_replication)
     */
    public static void check(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            try (ResultSet rs = s.executeQuery("SHOW wal_level")) {
                rs.next();
                String walLevel = rs.getString(1);
                if (!"logical".equals(walLevel)) {
                    throw new WalLevelException(walLevel);
                }
            }
            try (ResultSet rs = s.executeQuery(CAN_REPLICATE)) {
                if (!rs.next() || !rs.getBoolean(2)) {
                    throw new ReplicationPrivilegeException(rs.getRow() == 0 ? "?" : rs.getString(1));
                }
            }
        }
    }
}
