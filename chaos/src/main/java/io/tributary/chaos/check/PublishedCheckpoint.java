package io.tributary.chaos.check;

import io.tributary.storage.groups.Checkpoint;
import java.util.Objects;

/**
 * A checkpoint as its group published it, in publication order.
 *
 * @param sequence   its place among every checkpoint published in the storage database (increasing, from 1)
 * @param group      the group that published it
 * @param checkpoint the op id, LSN and epoch it published
 */
public record PublishedCheckpoint(long sequence, long group, Checkpoint checkpoint) {

    public PublishedCheckpoint {
        if (sequence < 1) {
            throw new IllegalArgumentException("Publication sequence numbers start at 1: " + sequence);
        }
        Objects.requireNonNull(checkpoint, "checkpoint");
    }

    @Override
    public String toString() {
        return "#" + sequence + " group " + group + " " + checkpoint;
    }
}
