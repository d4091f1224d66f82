package io.tributary.writer.lifecycle;

import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.storage.schema.Migrations;
import io.tributary.syncrules.SyncRules;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deploying sync rules: validate, then store them as a new group in state PROCESSING. The lifecycle manager
 * later activates it (first group: when its first checkpoint covers all its tables; later groups: when their
 * replay of {@code rows} caught up) and stops the group it replaces.
 */
public final class Deployments {

    private static final Logger LOG = LoggerFactory.getLogger(Deployments.class);
    private static final long DEPLOY_LOCK = 0x7472_6962_6465_706cL; // "tribdepl"

    /** A check of rules about to be deployed against the source (the launcher's: row ids are primary keys). */
    @FunctionalInterface
    public interface SourceCheck {
        /** Throws, naming the problem, if {@code rules} cannot be deployed over the source. */
        void check(SyncRules rules) throws SQLException;
    }

    private Deployments() {
    }

    /**
     * Validates and deploys rules as a new group.
     *
     * @throws io.tributary.syncrules.SyncRulesException with line and column of every problem
     */
    public static SyncRulesGroup deploy(Connection storage, String rules) throws SQLException {
        SyncRules.parse(rules);
        Migrations.migrate(storage);
        SyncRulesGroup group = SyncRulesGroups.create(storage, rules);
        LOG.info("Deployed sync rules as group {} (PROCESSING)", group.id());
        return group;
    }

    /**
     * Deploys rules unless the newest group already holds exactly them (what {@code run} does at start, like
     * the reference service). Rules that are deployed are first checked against the source ({@code check});
     * rules already deployed are not checked again.
     *
     * @return the new group, or empty if nothing changed
     */
    public static Optional<SyncRulesGroup> deployIfChanged(Connection storage, String rules, SourceCheck check)
        throws SQLException {
        SyncRules parsed = SyncRules.parse(rules);
        Migrations.migrate(storage);
        // Processes starting together with the same new rules must deploy them once: compare and create under
        // a session lock.
        try (Statement lock = storage.createStatement()) {
            lock.execute("SELECT pg_advisory_lock(" + DEPLOY_LOCK + ")");
            try {
                List<SyncRulesGroup> groups = SyncRulesGroups.list(storage);
                if (!groups.isEmpty() && groups.get(groups.size() - 1).content().equals(rules)) {
                    return Optional.empty();
                }
                check.check(parsed);
                return Optional.of(deploy(storage, rules));
            } finally {
                lock.execute("SELECT pg_advisory_unlock(" + DEPLOY_LOCK + ")");
            }
        }
    }
}
