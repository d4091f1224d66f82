package io.tributary.chaos.check;

import io.tributary.storage.groups.Checkpoint;
import io.tributary.topics.messages.Lsn;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The order of a group's published checkpoints: each one's op id, LSN and epoch are at least those of the one the
 * group published before it, and it differs from it in at least one. A checkpoint that goes back in any of them
 * would show a client a state older than one it was already given. Fed in publication order; not thread-safe.
 */
public final class CheckpointOrder {

    private final Map<Long, Checkpoint> last = new HashMap<>();

    /**
     * Takes the next published checkpoint of its group.
     *
     * @return a {@code checkpoint-order} mismatch if it goes back from the group's previous one, else empty
     */
    public Optional<Mismatch> next(PublishedCheckpoint published) {
        Checkpoint current = published.checkpoint();
        Checkpoint previous = last.put(published.group(), current);
        if (previous == null) {
            return Optional.empty();
        }
        boolean backwards = current.opId() < previous.opId() || current.epoch() < previous.epoch()
            || Lsn.parse(current.lsn()).compareTo(Lsn.parse(previous.lsn())) < 0;
        if (!backwards && !current.equals(previous)) {
            return Optional.empty();
        }
        return Optional.of(Mismatch.of("checkpoint-order", "group " + published.group() + " checkpoint " + published,
            "op id, LSN and epoch >= those of the previous checkpoint " + previous + ", one of them greater",
            current.toString()));
    }
}
