package io.tributary.api.stream;

import io.tributary.storage.groups.Checkpoint;
import java.util.Objects;

/**
 * A published checkpoint of the served group, as streams see it.
 *
 * @param group      the served group
 * @param checkpoint its checkpoint
 * @param version    increases with every change this process saw (a new checkpoint or another group)
 * @param seenNanos  when this process published it to its streams ({@link System#nanoTime()})
 */
public record ServedCheckpoint(ServedGroup group, Checkpoint checkpoint, long version, long seenNanos) {

    public ServedCheckpoint {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(checkpoint, "checkpoint");
    }
}
