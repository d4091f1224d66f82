package io.tributary.writer.lifecycle;

import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves sync rules groups through their lifecycle, one pass at a time:
 * <ul>
 *   <li>the newest PROCESSING group with a checkpoint becomes ACTIVE when there is no ACTIVE group (its
 *       writers only publish a checkpoint once every table it reads is ready, so the first checkpoint covers
 *       all its tables), or when its checkpoint caught up with the ACTIVE group's LSN; the group it replaces
 *       goes to STOP;</li>
 *   <li>PROCESSING groups older than a newer deployed group are superseded: STOP;</li>
 *   <li>STOP groups become TERMINATED after a grace period (their writers leave when they see STOP) and are
 *       then cleared by dropping their storage partitions.</li>
 * </ul>
 * Every transition is a compare-and-set in storage, so any number of processes may run passes concurrently.
 */
public final class GroupLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(GroupLifecycle.class);

    /** One transition a pass made. */
    public record Transition(long groupId, GroupState from, GroupState to) {
    }

    private GroupLifecycle() {
    }

    /**
     * Runs one pass and returns the transitions it made (clearing is reported as TERMINATED -> TERMINATED).
     *
     * @param stopGrace how long a group stays in STOP before it is terminated and cleared, so its writers
     *     leave first
     */
    public static List<Transition> step(Connection storage, Duration stopGrace) throws SQLException {
        List<Transition> made = new ArrayList<>();
        List<SyncRulesGroup> groups = SyncRulesGroups.list(storage);
        long newest = groups.isEmpty() ? 0 : groups.get(groups.size() - 1).id();
        Optional<SyncRulesGroup> active = groups.stream().filter(g -> g.state() == GroupState.ACTIVE).findFirst();
        Optional<SyncRulesGroup> candidate = groups.stream()
            .filter(g -> g.id() == newest && g.state() == GroupState.PROCESSING && g.checkpoint().isPresent())
            .findFirst();
        if (candidate.isPresent() && (active.isEmpty() || caughtUp(candidate.get(), active.get()))) {
            if (move(storage, candidate.get(), GroupState.ACTIVE, made)) {
                active.ifPresent(old -> moveQuietly(storage, old, GroupState.STOP, made));
            }
        }
        for (SyncRulesGroup group : groups) {
            if (group.state() == GroupState.PROCESSING && group.id() < newest) {
                move(storage, group, GroupState.STOP, made);
            }
        }
        for (long id : SyncRulesGroups.terminateStopped(storage, stopGrace)) {
            LOG.info("Sync rules group {}: STOP -> TERMINATED", id);
            made.add(new Transition(id, GroupState.STOP, GroupState.TERMINATED));
        }
        for (SyncRulesGroup group : SyncRulesGroups.list(storage)) {
            if (group.state() == GroupState.TERMINATED && !group.cleared()) {
                SyncRulesGroups.clear(storage, group.id());
                LOG.info("Sync rules group {} cleared (storage partitions dropped)", group.id());
                made.add(new Transition(group.id(), GroupState.TERMINATED, GroupState.TERMINATED));
            }
        }
        return made;
    }

    private static boolean caughtUp(SyncRulesGroup candidate, SyncRulesGroup active) {
        Optional<Checkpoint> activeCheckpoint = active.checkpoint();
        return activeCheckpoint.isEmpty()
            || !Lsn.parse(candidate.checkpoint().orElseThrow().lsn()).isBefore(Lsn.parse(activeCheckpoint.get().lsn()));
    }

    private static boolean move(Connection storage, SyncRulesGroup group, GroupState to, List<Transition> made)
        throws SQLException {
        boolean moved = SyncRulesGroups.transition(storage, group.id(), group.state(), to);
        if (moved) {
            LOG.info("Sync rules group {}: {} -> {}", group.id(), group.state(), to);
            made.add(new Transition(group.id(), group.state(), to));
        }
        return moved;
    }

    private static void moveQuietly(Connection storage, SyncRulesGroup group, GroupState to, List<Transition> made) {
        try {
            move(storage, group, to, made);
        } catch (SQLException e) {
            LOG.warn("Sync rules group {} stays {} for now (next pass retries): {}", group.id(), group.state(),
                e.getMessage());
        }
    }
}
