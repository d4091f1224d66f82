package io.tributary.stream;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Kafka lost records of the stream workers' input before they merged them ({@link MergeInputCheck}): the changes
 * are missing from {@code rows} and every group built from it. The stream workers refuse to start until
 * {@code tributary recover} has snapshotted every table again and moved their offsets to the logs' start.
 */
public final class MergeInputLostException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<MergeInputCheck.Loss> losses;

    /** @param losses the partitions whose committed offset lies outside the log, at least one */
    public MergeInputLostException(String groupId, List<MergeInputCheck.Loss> losses) {
        super("Kafka lost records the stream workers (group " + groupId + ") had not merged yet, so the table log"
            + " and every sync rules group miss those changes: " + losses.stream().map(MergeInputCheck.Loss::describe)
            .collect(Collectors.joining("; ")) + ". Stop every stream worker and run `tributary recover --config"
            + " FILE` once: it snapshots every table again, replacing its rows, and moves the stream workers to the"
            + " logs' start; groups keep serving their last checkpoint meanwhile");
        this.losses = List.copyOf(losses);
    }

    /** The partitions whose committed offset lies outside the log. */
    public List<MergeInputCheck.Loss> losses() {
        return losses;
    }
}
