package io.tributary.topics.messages;

import java.util.Objects;

/**
 * Epoch {@code epoch} ends at {@code lsn}: every change with commit LSN {@code <= lsn} is before this barrier in
 * every partition. Ingest writes one to every partition of {@code changes}; stream workers forward it, in order,
 * into the same partition of {@code rows}, where storage writers seal epochs with it (docs/design.md).
 * Epochs increase by one per barrier; LSNs never decrease.
 *
 * @param epoch the epoch this barrier ends, {@code >= 0}
 * @param lsn   the source position the epoch is consistent with
 */
public record Barrier(long epoch, Lsn lsn) implements ChangesMessage, RowsMessage, Marker {

    public Barrier {
        Checks.nonNegative("epoch", epoch);
        Objects.requireNonNull(lsn, "lsn");
    }

    /** The barrier ending epoch {@code epoch} at {@code lsn}. */
    public static Barrier of(long epoch, Lsn lsn) {
        return new Barrier(epoch, lsn);
    }

    @Override
    public MarkerKind kind() {
        return MarkerKind.BARRIER;
    }

    @Override
    public MarkerKey keyFor(int partition) {
        return MarkerKey.of(MarkerKind.BARRIER, partition);
    }
}
