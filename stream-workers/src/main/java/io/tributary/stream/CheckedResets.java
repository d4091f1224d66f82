package io.tributary.stream;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;

/**
 * A stream thread's main consumer that checks a move of input partitions to the log's start before it happens.
 *
 * <p>Kafka Streams moves a partition of a source with the {@code earliest} reset to the log's start when the
 * group has no committed offset for it (a new group, a partition never read) or when Kafka found the thread's
 * position outside the log ({@link OffsetOutOfRangeException}: retention removed records the thread had not read,
 * or the log was deleted and created again under it). The first is how a group starts; the second, and the first
 * for a partition the merge has state of, means changes are gone that {@code rows} never got, and reading on from
 * the start would lose them silently. This consumer remembers the positions of the last out-of-range poll and asks
 * its {@link Check} before the move ({@code seekToBeginning}, which Kafka Streams calls for the reset); the check
 * throws to stop the thread instead, or defers the move. Every other call goes to the consumer as it is.
 *
 * <p>Used by one stream thread, as its consumer is.
 */
final class CheckedResets implements InvocationHandler {

    /** What to check before input partitions move to the log's start. */
    @FunctionalInterface
    interface Check {

        /**
         * @param partitions the partitions about to move
         * @param outOfRange those of them whose position Kafka found outside the log, with that position
         * @return whether they move now; if not, they keep their invalid position, so the next poll fails for them
         *         again and Kafka Streams asks to move them again
         * @throws MergeInputLostException if records the thread had not read are gone
         */
        boolean beforeReset(Collection<TopicPartition> partitions, Map<TopicPartition, Long> outOfRange);
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Check check;
    private final Map<TopicPartition, Long> outOfRange = new HashMap<>();

    private CheckedResets(Consumer<byte[], byte[]> consumer, Check check) {
        this.consumer = consumer;
        this.check = check;
    }

    /** {@code consumer}, checking with {@code check} before it moves partitions to the log's start. */
    @SuppressWarnings("unchecked")
    static Consumer<byte[], byte[]> wrap(Consumer<byte[], byte[]> consumer, Check check) {
        return (Consumer<byte[], byte[]>) Proxy.newProxyInstance(CheckedResets.class.getClassLoader(),
            new Class<?>[] {Consumer.class}, new CheckedResets(Objects.requireNonNull(consumer, "consumer"),
                Objects.requireNonNull(check, "check")));
    }

    @Override
    @SuppressWarnings("unchecked")
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "equals":
                return proxy == args[0];
            case "hashCode":
                return System.identityHashCode(proxy);
            case "seekToBeginning":
                if (!beforeReset(List.copyOf((Collection<TopicPartition>) args[0]))) {
                    return null;
                }
                break;
            default:
                break;
        }
        try {
            return method.invoke(consumer, args);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof OffsetOutOfRangeException outside) {
                outOfRange.putAll(outside.offsetOutOfRangePartitions());
            }
            throw e.getCause();
        }
    }

    private boolean beforeReset(List<TopicPartition> partitions) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        partitions.forEach(partition -> {
            Long position = outOfRange.remove(partition);
            if (position != null) {
                positions.put(partition, position);
            }
        });
        return check.beforeReset(partitions, positions);
    }
}
