package io.tributary.topics.provision;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Existing topics do not match the layout (partition counts, cleanup policy). Fatal: starting the pipeline on
 * them would break co-partitioning or lose data. Lists every mismatch found, each with its fix.
 */
public class TopicMismatchException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<TopicMismatch> mismatches;

    /** The topics differ from the layout in {@code mismatches} (at least one). */
    public TopicMismatchException(List<TopicMismatch> mismatches) {
        super(message(mismatches));
        this.mismatches = List.copyOf(mismatches);
    }

    private static String message(List<TopicMismatch> mismatches) {
        if (mismatches.isEmpty()) {
            throw new IllegalArgumentException("A mismatch exception needs at least one mismatch");
        }
        if (mismatches.size() == 1) {
            return "Existing topic does not match the topic layout: " + mismatches.get(0);
        }
        return "Existing topics do not match the topic layout (" + mismatches.size() + " mismatches):\n"
            + mismatches.stream().map(m -> "  - " + m).collect(Collectors.joining("\n"));
    }

    /** Every mismatch found. */
    public List<TopicMismatch> mismatches() {
        return mismatches;
    }
}
