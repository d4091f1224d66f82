package io.tributary.ingest.capture;

import io.tributary.postgres.PgEndpoint;
import io.tributary.storage.groups.SealedBarriers;
import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.Lsn;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Objects;
import java.util.Optional;

/**
 * The highest barrier the storage writers sealed, which the barriers of an ingest run must pass whatever Kafka still
 * holds: a writer ignores a barrier of an epoch it sealed, so epochs that started again below it (Kafka lost both
 * the barriers in {@code changes} and the one stored in {@code ingest-offsets}) would stall every checkpoint until
 * they caught up. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface SealedEpochs {

    /**
     * The highest sealed barrier, if any.
     *
     * @throws SQLException if storage failed (ingest's start is retried)
     */
    Optional<Barrier> highest() throws SQLException;

    /** No storage to ask (ingest on its own, as in tests of ingest alone). */
    static SealedEpochs none() {
        return Optional::empty;
    }

    /** The seals in the storage database at {@code storage}. */
    static SealedEpochs in(PgEndpoint storage) {
        Objects.requireNonNull(storage, "storage");
        return () -> {
            try (Connection connection = storage.connect()) {
                return SealedBarriers.highest(connection)
                    .map(sealed -> Barrier.of(sealed.epoch(), Lsn.parse(sealed.lsn())));
            }
        };
    }
}
