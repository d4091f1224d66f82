package io.tributary.ingest.capture;

/** The source user may not open a replication connection (no REPLICATION attribute, superuser or rds_replication). */
public final class ReplicationPrivilegeException extends CaptureSetupException {

    private static final long serialVersionUID = 1L;

    private final String user;

    public ReplicationPrivilegeException(String user) {
        super("The source user \"" + user + "\" may not read a replication slot: it needs the REPLICATION"
            + " attribute (or superuser, or membership in rds_replication on Amazon RDS). Fix: ALTER ROLE \""
            + user.replace("\"", "\"\"") + "\" WITH REPLICATION; (on RDS: GRANT rds_replication TO \""
            + user.replace("\"", "\"\"") + "\";)");
        this.user = user;
    }

    /** The user that lacks the privilege. */
    public String user() {
        return user;
    }
}
