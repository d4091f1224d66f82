package io.tributary.topics.messages;

import java.util.Objects;

/** Invariant checks shared by the message records. */
final class Checks {

    private Checks() {
    }

    static String chunkId(String chunkId) {
        Objects.requireNonNull(chunkId, "chunkId");
        if (chunkId.isEmpty()) {
            throw new IllegalArgumentException("A chunk id must not be empty");
        }
        return chunkId;
    }

    static String windowId(String windowId) {
        Objects.requireNonNull(windowId, "windowId");
        if (windowId.isEmpty()) {
            throw new IllegalArgumentException("A window id must not be empty");
        }
        return windowId;
    }

    static int attempt(int attempt) {
        if (attempt < 1) {
            throw new IllegalArgumentException("attempt must be >= 1, got " + attempt);
        }
        return attempt;
    }

    static long nonNegative(String what, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must be >= 0, got " + value);
        }
        return value;
    }

    static int partition(int partition) {
        if (partition < 0) {
            throw new IllegalArgumentException("partition must be >= 0, got " + partition);
        }
        return partition;
    }
}
