package io.tributary.ingest.planner;

import java.sql.Connection;
import java.sql.SQLException;

/** Opens a new connection to one database (auto-commit); the caller closes it. */
@FunctionalInterface
public interface SqlConnector {

    /** A new connection. */
    Connection connect() throws SQLException;
}
