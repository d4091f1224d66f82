package io.tributary.ingest.capture;

import io.tributary.ingest.capture.internals.CaptureCounters;
import io.tributary.ingest.capture.internals.CaptureRun;
import io.tributary.ingest.capture.internals.CaptureFailures;
import io.tributary.ingest.capture.publication.CapturedTables;
import io.tributary.ingest.capture.publication.Publications;
import io.tributary.ingest.capture.publication.IngestLease;
import io.tributary.ingest.capture.publication.ReplicationSlots;
import io.tributary.ingest.capture.publication.SlotStatus;
import io.tributary.ingest.capture.publication.SourcePreflight;
import io.tributary.ingest.capture.publication.TableRefresh;
import io.tributary.postgres.Backoff;
import io.tributary.postgres.RetryPolicy;
import io.tributary.topics.lifecycle.Stage;
import io.tributary.topics.messages.TableId;
import io.tributary.topics.provision.TopicProvisioner;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code ingest} role: captures the source database's WAL (Debezium Embedded, Postgres connector, pgoutput,
 * streaming only) into the {@code changes} topic.
 *
 * <h2>What it guarantees</h2>
 * <ul>
 *   <li>Every committed change of a captured table reaches {@code changes}, as a {@code ChangeEvent} keyed by
 *       (table, primary key): op, the full new row (key only for deletes) in the
 *       canonical encoding, the transaction's commit LSN (where Debezium records its COMMIT: the end of the commit
 *       record), {@code seq} 0, 1, 2, ... in WAL order within the transaction, and the 64-bit transaction id.
 *       {@code TRUNCATE} becomes a {@code TableTruncate} in every partition; the planner's
 *       {@code pg_logical_emit_message(true, 'tributary.window', '{"schema":..,"table":..,"window_id":..}')}
 *       becomes a {@code TableWindowMarker} in every partition, at its place in commit order.</li>
 *   <li>Exactly once to {@code read_committed} readers, whole source transactions at a time: {@code changes} is
 *       written in Kafka transactions that also carry Debezium's offsets (topic {@code ingest-offsets}), so the
 *       stored position and what readers see never part, whatever fails (a kill, a record Kafka refused, a fenced
 *       zombie). A restart resumes at the last committed transaction boundary; a source transaction is re-sent
 *       only if an earlier run committed it and died before the slot learned of it, and then with identical
 *       (commit LSN, seq, transaction id), which readers drop as duplicates. The slot only advances to committed
 *       boundaries. Per partition, messages are in commit order. The producer's transactional id is one per
 *       deployment and slot, so a new run fences the previous one.</li>
 *   <li>A {@code Barrier(epoch, L)} reaches every partition at least every second, also on an idle source (the
 *       heartbeat writes a WAL message so the position advances), in the Kafka transaction that commits the last
 *       events with commit LSN {@code <= L} or after it: a reader sees the barrier only with every event it covers.
 *       Epochs increase by one per barrier across restarts and takeovers, also after retention removed every
 *       barrier from {@code changes} (recovered from its committed barriers and from the newest barrier, stored in
 *       {@code ingest-offsets} in the transaction that wrote it); LSNs never decrease.</li>
 *   <li>Never a TOAST placeholder: captured tables with TOAST-able columns get {@code REPLICA IDENTITY FULL}
 *       (unless {@link IngestConfig#replicaIdentityFull()} is off); a value that is still missing stops ingest with
 *       an {@link UnavailableValueException} naming the table and the fix.</li>
 *   <li>One reader: the slot admits one, and an engine run starts only while its instance holds the slot's
 *       {@link IngestLease} (an advisory lock on the source, taken before the run creates its producer and given
 *       back when the run has ended), so two instances never fence each other's producers; a second instance with
 *       the same configuration waits in {@link IngestState#STANDBY} (logging
 *       {@code standby: slot X is active (pid N)}) and takes over when the lease and the slot are free.</li>
 * </ul>
 *
 * <h2>Setup</h2>
 * On start (and again after each failure): checks {@code wal_level} and the REPLICATION privilege
 * ({@link WalLevelException}, {@link ReplicationPrivilegeException}), creates the publication and the slot if
 * missing, provisions the topics, resolves {@link IngestConfig#tables()} and adds the tables to the publication
 * (again every {@link IngestConfig#tableRefreshInterval()}; tables that cannot be captured are in
 * {@link #tableProblems()}). Setup problems someone must fix move it to {@link IngestState#FAILED}; anything
 * transient restarts the engine after a capped, jittered backoff.
 *
 * <p>Thread-safe. A supervisor thread does the work; {@link #close()} stops it and the engine.
 */
public final class IngestService implements Stage {

    private static final Logger LOG = LoggerFactory.getLogger(IngestService.class);
    private static final Duration WATCH = Duration.ofMillis(100);
    private static final Duration INITIAL_RETRY_BACKOFF = Duration.ofMillis(200);

    private final IngestConfig config;
    private final CapturedTables tables;
    private final CaptureCounters counters = new CaptureCounters();
    private final Object lock = new Object();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile IngestState state = IngestState.NEW;
    private volatile boolean stopping;
    private volatile TableRefresh lastRefresh = new TableRefresh(Set.of(), Set.of(), Map.of());
    private volatile boolean slotReady;
    private Thread supervisor;
    private boolean topicsReady;
    private OptionalInt standbyFor = OptionalInt.empty();

    private IngestService(IngestConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.tables = new CapturedTables(config.publicationName(), config.tables(), config.replicaIdentityFull());
    }

    /** A service for {@code config}, not started. */
    public static IngestService create(IngestConfig config) {
        return new IngestService(config);
    }

    /** Starts the supervisor thread; returns at once. */
    public void start() {
        synchronized (lock) {
            moveTo(IngestState.STARTING);
            supervisor = new Thread(this::supervise, "tributary-ingest-supervisor-" + config.slotName());
            supervisor.setDaemon(true);
            supervisor.start();
        }
    }

    /** The current state. */
    public IngestState state() {
        return state;
    }

    @Override
    public String stageName() {
        return "ingest";
    }

    /** Why the service is {@link IngestState#FAILED}; empty while it runs or recovers from a transient failure. */
    @Override
    public Optional<Throwable> failure() {
        return state == IngestState.FAILED ? Optional.ofNullable(failure.get()) : Optional.empty();
    }

    /** The selected tables the publication publishes, as of the last refresh. */
    public Set<TableId> capturedTables() {
        return lastRefresh.captured();
    }

    /** Selected tables that cannot be captured, with the reason (typed, naming the fix), as of the last refresh. */
    public Map<TableId, RuntimeException> tableProblems() {
        return lastRefresh.problems();
    }

    /** What has been written to {@code changes} so far. */
    public IngestStats stats() {
        return counters.snapshot();
    }

    /**
     * Waits until the service streams from the slot ({@link IngestState#ACTIVE}).
     *
     * @throws CaptureSetupException (or the failure's own type, wrapped) if the service failed meanwhile
     * @throws TimeoutException      if it is not active within {@code timeout}
     */
    public void awaitActive(Duration timeout) throws InterruptedException, TimeoutException {
        await(() -> state == IngestState.ACTIVE, timeout, () -> "Ingest is " + state + " after " + timeout);
    }

    /**
     * Waits until this instance has prepared its first engine run: the replication slot exists and is consistent
     * (created, or found with no other reader), and the publication publishes the selected tables it could
     * capture. This comes before {@link IngestState#ACTIVE} by the engine's start-up (seconds), and it is all a
     * window marker needs: every transaction that commits from then on reaches {@code changes} once the engine
     * streams, because the engine starts at the slot's confirmed position (a new slot's consistent point) or at its
     * stored offset, both older than any commit after this returns; and pgoutput publishes a table's changes from
     * its addition to the publication on (the planner checks that per table). Stays true after a later failure or a
     * takeover by a standby: the slot keeps what it has not confirmed.
     *
     * @throws CaptureSetupException (or the failure's own type, wrapped) if the service failed first
     * @throws TimeoutException      if the slot is not ready within {@code timeout} (e.g. this instance stands
     *                               by, or slot creation waits for long source transactions to end)
     */
    public void awaitSlotReady(Duration timeout) throws InterruptedException, TimeoutException {
        await(() -> slotReady, timeout, () -> "The replication slot " + config.slotName() + " is not ready after "
            + timeout + " (ingest is " + state + ")");
    }

    /** Waits until {@code reached}, failing as the service did if it failed first, or with {@code late}. */
    private void await(BooleanSupplier reached, Duration timeout, Supplier<String> late)
        throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (!reached.getAsBoolean()) {
                if (state == IngestState.FAILED) {
                    Throwable cause = failure.get();
                    if (cause instanceof RuntimeException runtime) {
                        throw runtime;
                    }
                    throw new IllegalStateException("Ingest failed: " + cause, cause);
                }
                if (state.isFinal()) {
                    throw new IllegalStateException("Ingest is " + state);
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException(late.get());
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
        }
    }

    private void supervise() {
        Duration initial = INITIAL_RETRY_BACKOFF.compareTo(config.maxRetryBackoff()) < 0
            ? INITIAL_RETRY_BACKOFF : config.maxRetryBackoff();
        Backoff backoff = Backoff.of(RetryPolicy.withoutDeadline(initial, config.maxRetryBackoff()));
        while (!stopping) {
            try {
                Optional<Prepared> prepared = prepare();
                if (prepared.isEmpty()) {
                    pause(backoff.next());
                    continue;
                }
                markSlotReady();
                long runStarted = System.nanoTime();
                Optional<Throwable> outcome;
                try (IngestLease lease = prepared.get().lease();
                     CaptureRun run = CaptureRun.start(config, prepared.get().xidReference(), counters)) {
                    outcome = watch(run, backoff, runStarted);
                }
                if (stopping) {
                    break;
                }
                handle(outcome.orElseGet(() -> new IllegalStateException("Debezium engine stopped by itself")),
                    backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (SQLException | RuntimeException e) {
                if (stopping) {
                    break;
                }
                handle(e, backoff);
            }
        }
        synchronized (lock) {
            if (!state.isFinal()) {
                moveTo(IngestState.STOPPED);
            }
        }
    }

    /**
     * What an engine run starts from: the slot's lease, held until the run has ended, and a recent transaction id.
     */
    private record Prepared(IngestLease lease, long xidReference) {
    }

    /**
     * Checks and prepares the source; empty if another process holds the slot's lease or reads the slot (this one
     * is now a standby).
     */
    private Optional<Prepared> prepare() throws SQLException {
        try (Connection connection = config.source().connect()) {
            SourcePreflight.check(connection);
            Publications.ensure(connection, config.publicationName());
            ReplicationSlots.ensure(connection, config.slotName());
            Optional<IngestLease> lease = IngestLease.tryAcquire(config.source().connect(), config.slotName());
            if (lease.isEmpty()) {
                standby(IngestLease.holder(connection, config.slotName()));
                return Optional.empty();
            }
            try {
                Optional<SlotStatus> slot = ReplicationSlots.status(connection, config.slotName());
                if (slot.isPresent() && slot.get().isActive()) {
                    lease.get().close();
                    standby(slot.get().activePid());
                    return Optional.empty();
                }
                return Optional.of(new Prepared(lease.get(), startAsLeaseholder(connection)));
            } catch (SQLException | RuntimeException e) {
                lease.get().close();
                throw e;
            }
        }
    }

    /** What the holder of the slot's lease does before its run: topics, the captured tables, a transaction id. */
    private long startAsLeaseholder(Connection connection) throws SQLException {
        synchronized (lock) {
            if (state == IngestState.STANDBY) {
                moveTo(IngestState.STARTING);
            }
        }
        if (!topicsReady) {
            try (Admin admin = Admin.create(kafkaProperties())) {
                TopicProvisioner.ensure(admin, config.topics(), config.layout());
            }
            topicsReady = true;
        }
        lastRefresh = tables.refresh(connection);
        try (Statement s = connection.createStatement();
             ResultSet rs = s.executeQuery("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private void markSlotReady() {
        synchronized (lock) {
            if (!slotReady) {
                slotReady = true;
                lock.notifyAll();
                LOG.info("Replication slot {} ready; starting the Debezium engine", config.slotName());
            }
        }
    }

    private Optional<Throwable> watch(CaptureRun run, Backoff backoff, long runStarted)
        throws InterruptedException {
        long nextRefresh = System.nanoTime() + config.tableRefreshInterval().toNanos();
        long batchesBefore = counters.batches();
        while (!stopping && !run.awaitDone(WATCH)) {
            if (state != IngestState.ACTIVE && counters.batches() > batchesBefore) {
                synchronized (lock) {
                    moveTo(IngestState.ACTIVE);
                }
                LOG.info("Ingest active: streaming slot {} into {} (barrier recovery and engine start-up {} ms)",
                    config.slotName(), config.topics().changes(), (System.nanoTime() - runStarted) / 1_000_000);
                backoff.reset();
            }
            if (System.nanoTime() - nextRefresh > 0) {
                refreshTables();
                nextRefresh = System.nanoTime() + config.tableRefreshInterval().toNanos();
            }
        }
        return run.failure();
    }

    private void refreshTables() {
        try (Connection connection = config.source().connect()) {
            lastRefresh = tables.refresh(connection);
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Could not refresh the captured tables (retrying in {}): {}", config.tableRefreshInterval(),
                e.toString());
        }
    }

    private void handle(Throwable error, Backoff backoff) {
        switch (CaptureFailures.classify(error)) {
            case SLOT_IN_USE -> {
                standby(CaptureFailures.slotHolder(error));
                pause(backoff.next());
            }
            case FATAL -> {
                Throwable reported = CaptureFailures.reported(error, CaptureRun.transactionalId(config));
                LOG.error("Ingest stopped: {}", reported.getMessage(), reported);
                failure.set(reported);
                synchronized (lock) {
                    moveTo(IngestState.FAILED);
                }
                stopping = true;
            }
            default -> {
                Duration wait = backoff.next();
                LOG.warn("Ingest restarting in {} ms after: {}", wait.toMillis(), error.toString(), error);
                failure.set(error);
                synchronized (lock) {
                    if (state == IngestState.ACTIVE) {
                        moveTo(IngestState.STARTING);
                    }
                }
                pause(wait);
            }
        }
    }

    private void standby(OptionalInt holder) {
        synchronized (lock) {
            if (state != IngestState.STANDBY) {
                moveTo(IngestState.STANDBY);
            }
            if (!holder.equals(standbyFor)) {
                standbyFor = holder;
                LOG.info("standby: slot {} is active (pid {})", config.slotName(),
                    holder.isPresent() ? Integer.toString(holder.getAsInt()) : "?");
            }
        }
    }

    private void pause(Duration wait) {
        synchronized (lock) {
            long deadline = System.nanoTime() + wait.toNanos();
            while (!stopping) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                try {
                    lock.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    stopping = true;
                }
            }
        }
    }

    private Properties kafkaProperties() {
        Properties props = new Properties();
        props.putAll(config.kafkaProperties());
        return props;
    }

    private void moveTo(IngestState target) {
        if (state == target) {
            return;
        }
        state.requireTransitionTo(target);
        state = target;
        if (target != IngestState.STANDBY) {
            standbyFor = OptionalInt.empty();
        }
        lock.notifyAll();
    }

    /** Stops the engine (committing acknowledged positions) and the supervisor; idempotent. */
    @Override
    public void close() throws InterruptedException {
        Thread thread;
        synchronized (lock) {
            stopping = true;
            lock.notifyAll();
            thread = supervisor;
            if (thread == null && !state.isFinal()) {
                moveTo(IngestState.STOPPED);
            }
        }
        if (thread != null) {
            thread.join(Duration.ofSeconds(90).toMillis());
        }
    }
}
