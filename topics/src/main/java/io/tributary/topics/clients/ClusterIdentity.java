package io.tributary.topics.clients;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.ClusterResource;
import org.apache.kafka.common.ClusterResourceListener;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The Kafka cluster one producer talks to, as the producer's metadata names it. Given to the producer as its key
 * serializer (it passes the bytes through; the producer registers serializers that listen to its metadata), it
 * records the first cluster id and any other one seen later.
 *
 * <p>Why: a cluster that lost its state (a broker's data wiped and formatted again at the same address) hands out
 * producer ids from the start again, so a new producer can hold the id, epoch and sequence numbers of a producer
 * that lived through the change; the new cluster then acknowledges that producer's next batch as a duplicate of the
 * other's, at the other's offset, and drops it. An idempotent producer whose acknowledgements decide what is
 * published next (a chunk's done markers after its rows) checks {@link #check} after them, and is replaced or stops
 * once its cluster changed. A transactional producer needs no such check: the transaction coordinator refuses a
 * producer id it did not assign to the transactional id.
 *
 * <p>Thread-safe: metadata arrives on the producer's I/O thread.
 */
public final class ClusterIdentity implements Serializer<byte[]>, ClusterResourceListener {

    private final AtomicReference<String> first = new AtomicReference<>();
    private final AtomicReference<String> other = new AtomicReference<>();

    @Override
    public void onUpdate(ClusterResource cluster) {
        String id = cluster == null ? null : cluster.clusterId();
        if (id == null) {
            return;
        }
        if (!first.compareAndSet(null, id) && !first.get().equals(id)) {
            other.compareAndSet(null, id);
        }
    }

    @Override
    public byte[] serialize(String topic, byte[] data) {
        return data;
    }

    /** The first cluster id the producer's metadata named, if any yet. */
    public Optional<String> cluster() {
        return Optional.ofNullable(first.get());
    }

    /** Whether the producer's metadata named another cluster after the first. */
    public boolean changed() {
        return other.get() != null;
    }

    /**
     * Throws if the producer's cluster changed.
     *
     * @param producer what the producer is, for the message (e.g. "the snapshot workers' producer")
     * @throws ClusterChangedException naming both cluster ids and the fix
     */
    public void check(String producer) {
        String now = other.get();
        if (now != null) {
            throw new ClusterChangedException(producer + " started on Kafka cluster " + first.get()
                + " but its metadata now names cluster " + now + ": the cluster was replaced under it, and a new"
                + " cluster can acknowledge a batch of it as another producer's and drop it. Its acknowledgements are"
                + " not trusted any more; restart the process after the Kafka cluster was replaced (and run"
                + " `tributary recover --config FILE` if the storage writers ask for it)");
        }
    }
}
