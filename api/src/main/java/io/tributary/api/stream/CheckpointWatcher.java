package io.tributary.api.stream;

import io.tributary.postgres.LazyConnection;
import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.checkpoint.Checkpoints;
import io.tributary.storage.checkpoint.WriteCheckpoint;
import io.tributary.storage.checkpoint.WriteCheckpoints;
import io.tributary.storage.groups.Checkpoint;
import io.tributary.storage.groups.GroupState;
import io.tributary.storage.groups.SyncRulesGroup;
import io.tributary.storage.groups.SyncRulesGroups;
import io.tributary.syncrules.SyncRules;
import io.tributary.syncrules.SyncRulesException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the served checkpoint for every stream of the process: one storage connection {@code LISTEN}s on
 * {@link Checkpoints#CHANNEL}, and on each notification, or every poll interval when none arrives (a lost
 * notification, a group that became ACTIVE), it reads the newest ACTIVE group and its checkpoint. With each new
 * checkpoint it reads the write checkpoints the checkpoint newly covers, before streams see it.
 *
 * <p>Thread-safe. One daemon thread; {@link #close()} stops it.
 */
public final class CheckpointWatcher implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointWatcher.class);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(5);
    private static final int MAX_TRACKED_CLIENTS = 1_000_000;

    private final PgEndpoint storage;
    private final StreamSettings settings;
    private final Thread thread;
    private final Map<String, WriteCheckpoint> writeCheckpoints = new ConcurrentHashMap<>();
    private volatile boolean closed;
    private long unparsableGroup = -1;
    private volatile ServedCheckpoint current;
    /** Opened (counted down) when the served checkpoint changes or the watcher closes, then replaced. */
    private volatile CountDownLatch changed = new CountDownLatch(1);
    private long version;

    private CheckpointWatcher(PgEndpoint storage, StreamSettings settings) {
        this.storage = storage;
        this.settings = settings;
        this.thread = new Thread(this::run, "api-checkpoint-watcher");
        this.thread.setDaemon(true);
    }

    /** Starts watching; returns at once. */
    public static CheckpointWatcher start(PgEndpoint storage, StreamSettings settings) {
        CheckpointWatcher watcher = new CheckpointWatcher(storage, settings);
        watcher.thread.start();
        return watcher;
    }

    /** Whether {@link #close()} was called: streams end. */
    public boolean closed() {
        return closed;
    }

    /** The served checkpoint, empty while no group is ACTIVE with a checkpoint. */
    public Optional<ServedCheckpoint> current() {
        return Optional.ofNullable(current);
    }

    /**
     * Waits until the served checkpoint's version is above {@code seenVersion}, at most {@code timeout}. Waiters
     * share a latch, not a monitor: a new checkpoint wakes thousands of streams without each one contending for
     * the watcher's lock again.
     *
     * @return the served checkpoint then (possibly still the one seen, or empty)
     */
    public Optional<ServedCheckpoint> awaitNewer(long seenVersion, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            CountDownLatch latch = changed;
            ServedCheckpoint served = current;
            if (closed || (served != null && served.version() > seenVersion)) {
                return Optional.ofNullable(served);
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !latch.await(left, TimeUnit.NANOSECONDS)) {
                return Optional.ofNullable(current);
            }
        }
    }

    /**
     * The newest write checkpoint of {@code userId}/{@code clientId} that a checkpoint seen by this process since
     * it started newly covered (streams read the older ones from storage when they start).
     */
    public Optional<WriteCheckpoint> coveredWriteCheckpoint(String userId, String clientId) {
        return Optional.ofNullable(writeCheckpoints.get(key(userId, clientId)));
    }

    private void run() {
        Duration backoff = Duration.ofMillis(100);
        try (LazyConnection connection = new LazyConnection(storage)) {
            boolean listening = false;
            while (!closed) {
                try {
                    Connection c = connection.get();
                    if (!listening) {
                        Checkpoints.listen(c);
                        listening = true;
                    }
                    refresh(c);
                    Checkpoints.awaitAdvances(c, settings.pollInterval());
                    backoff = Duration.ofMillis(100);
                } catch (SQLException | RuntimeException e) {
                    if (closed) {
                        return;
                    }
                    LOG.warn("Reading the served checkpoint from storage {} failed; retrying in {} ms", storage,
                        backoff.toMillis(), e);
                    connection.discard();
                    listening = false;
                    sleep(backoff);
                    backoff = backoff.multipliedBy(2).compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF
                        : backoff.multipliedBy(2);
                }
            }
        }
    }

    private void refresh(Connection c) throws SQLException {
        Optional<SyncRulesGroup> active = SyncRulesGroups.list(c).stream()
            .filter(g -> g.state() == GroupState.ACTIVE && g.checkpoint().isPresent())
            .max(Comparator.comparingLong(SyncRulesGroup::id));
        ServedCheckpoint previous = current().orElse(null);
        if (active.isEmpty()) {
            if (previous != null) {
                publish(null);
            }
            return;
        }
        SyncRulesGroup group = active.get();
        Checkpoint checkpoint = group.checkpoint().orElseThrow();
        if (previous != null && previous.group().id() == group.id() && previous.checkpoint().equals(checkpoint)) {
            return;
        }
        ServedGroup served = previous != null && previous.group().id() == group.id() ? previous.group()
            : newGroup(group);
        if (served == null) {
            return;
        }
        if (previous != null) {
            for (WriteCheckpoint covered : WriteCheckpoints.coveredBetween(c, previous.checkpoint().lsn(),
                checkpoint.lsn())) {
                if (writeCheckpoints.size() >= MAX_TRACKED_CLIENTS) {
                    writeCheckpoints.clear();
                }
                writeCheckpoints.merge(key(covered.userId(), covered.clientId()), covered,
                    (a, b) -> a.id() >= b.id() ? a : b);
            }
        }
        if (previous != null && previous.group() == served) {
            served.advance(c, previous.checkpoint().opId(), checkpoint.opId());
        }
        publish(served, checkpoint);
    }

    private ServedGroup newGroup(SyncRulesGroup group) {
        if (group.id() == unparsableGroup) {
            return null;
        }
        try {
            ServedGroup served = new ServedGroup(group.id(), SyncRules.parse(group.content()), settings);
            LOG.info("Serving sync rules group {}", group.id());
            return served;
        } catch (SyncRulesException e) {
            unparsableGroup = group.id();
            LOG.error("The sync rules of ACTIVE group {} do not parse in this build; not serving it: {}", group.id(),
                e.getMessage());
            return null;
        }
    }

    private synchronized void publish(ServedGroup group, Checkpoint checkpoint) {
        current = new ServedCheckpoint(group, checkpoint, ++version, System.nanoTime());
        signalChange();
    }

    private synchronized void publish(ServedCheckpoint checkpoint) {
        current = checkpoint;
        version++;
        signalChange();
    }

    /** After {@link #current} or {@link #closed} changed: wakes the waiters of the latch they read before it. */
    private synchronized void signalChange() {
        CountDownLatch opened = changed;
        changed = new CountDownLatch(1);
        opened.countDown();
    }

    private void sleep(Duration duration) {
        synchronized (this) {
            try {
                wait(duration.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closed = true;
            }
        }
    }

    private static String key(String userId, String clientId) {
        return userId + '\u0000' + clientId;
    }

    @Override
    public void close() {
        closed = true;
        signalChange();
        synchronized (this) {
            notifyAll();
        }
        thread.interrupt();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
