package io.tributary.stream.merge;

import io.tributary.topics.messages.TopicMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/** Merges of two sequences that keep each sequence's own order: how Kafka may interleave two partitions. */
final class Interleavings {

    private Interleavings() {
    }

    /** Calls {@code visitor} with every interleaving of {@code a} and {@code b}; returns how many there were. */
    static long forEach(List<? extends TopicMessage> a, List<? extends TopicMessage> b,
                        Consumer<List<TopicMessage>> visitor) {
        return visit(a, 0, b, 0, new ArrayList<>(a.size() + b.size()), visitor);
    }

    private static long visit(List<? extends TopicMessage> a, int i, List<? extends TopicMessage> b, int j,
                              List<TopicMessage> prefix, Consumer<List<TopicMessage>> visitor) {
        if (i == a.size() && j == b.size()) {
            visitor.accept(List.copyOf(prefix));
            return 1;
        }
        long count = 0;
        if (i < a.size()) {
            prefix.add(a.get(i));
            count += visit(a, i + 1, b, j, prefix, visitor);
            prefix.remove(prefix.size() - 1);
        }
        if (j < b.size()) {
            prefix.add(b.get(j));
            count += visit(a, i, b, j + 1, prefix, visitor);
            prefix.remove(prefix.size() - 1);
        }
        return count;
    }

    /** One interleaving of {@code a} and {@code b} chosen uniformly at random. */
    static <T> List<T> random(List<? extends T> a, List<? extends T> b, Random random) {
        List<T> merged = new ArrayList<>(a.size() + b.size());
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            int leftA = a.size() - i;
            int leftB = b.size() - j;
            if (random.nextInt(leftA + leftB) < leftA) {
                merged.add(a.get(i++));
            } else {
                merged.add(b.get(j++));
            }
        }
        return merged;
    }

    /** The number of interleavings of sequences of sizes {@code n} and {@code m}: {@code (n + m)! / (n! m!)}. */
    static long count(int n, int m) {
        long result = 1;
        for (int k = 1; k <= m; k++) {
            result = result * (n + k) / k;
        }
        return result;
    }
}
