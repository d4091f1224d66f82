package io.tributary.ingest.capture;

import io.tributary.topics.messages.Barrier;
import io.tributary.topics.messages.ChangeEvent;
import io.tributary.topics.messages.ChangesMessage;

/** One record read back from {@code changes}. */
record Received(int partition, long offset, long timestamp, ChangesMessage message) {

    boolean isChange() {
        return message instanceof ChangeEvent;
    }

    ChangeEvent change() {
        return (ChangeEvent) message;
    }

    boolean isBarrier() {
        return message instanceof Barrier;
    }

    Barrier barrier() {
        return (Barrier) message;
    }
}
