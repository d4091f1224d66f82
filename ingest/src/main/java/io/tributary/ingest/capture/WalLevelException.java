package io.tributary.ingest.capture;

/** The source server's {@code wal_level} is not {@code logical}, so it cannot decode its WAL for ingest. */
public final class WalLevelException extends CaptureSetupException {

    private static final long serialVersionUID = 1L;

    private final String walLevel;

    public WalLevelException(String walLevel) {
        super("The source database has wal_level=" + walLevel + ", but ingest needs wal_level=logical. Set"
            + " wal_level = logical in postgresql.conf (ALTER SYSTEM SET wal_level = logical; on Amazon RDS set the"
            + " parameter rds.logical_replication = 1) and restart the server.");
        this.walLevel = walLevel;
    }

    /** The server's current {@code wal_level}. */
    public String walLevel() {
        return walLevel;
    }
}
