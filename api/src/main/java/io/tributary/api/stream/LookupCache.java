package io.tributary.api.stream;

import io.tributary.storage.parameters.ParameterLookupsAt;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The parameter lookups of the served group at the served checkpoint, shared by every stream of the process: a
 * lookup is read from storage once per checkpoint however many streams make it, and streams that make it while
 * the read is under way wait for that read instead of starting their own. Streams that need several lookups read
 * the missing ones in one statement.
 *
 * <p>Invalidated by the checkpoint: before streams see a new checkpoint ({@link #advance}), the entries move to it
 * except those of lookups with a version between the two checkpoints (one statement reads which); when a
 * compaction may have removed versions in between, none move. So an entry is always what a read at its checkpoint
 * would return. A lookup at a checkpoint the cache does not hold (a stream still on an older one) is read directly.
 * At most {@code maxLookups} lookups are kept per checkpoint; past that, lookups are read without being kept.
 *
 * <p>Thread-safe.
 */
final class LookupCache {

    /** A lookup read that found the checkpoint below the compaction fence. */
    private static final class Fenced extends RuntimeException {
        Fenced() {
            super("checkpoint below the parameter compaction fence", null, false, false);
        }
    }

    /** The entries of one checkpoint. */
    private record Generation(long checkpoint, ConcurrentHashMap<String, CompletableFuture<List<String>>> entries) {
    }

    private final long groupId;
    private final int maxLookups;
    private final AtomicReference<Generation> generation = new AtomicReference<>();
    private final AtomicLong reads = new AtomicLong();

    /**
     * @param groupId    the served group
     * @param maxLookups the most lookups kept per checkpoint, &gt; 0
     */
    LookupCache(long groupId, int maxLookups) {
        if (maxLookups <= 0) {
            throw new IllegalArgumentException("Cached lookups must be > 0: " + maxLookups);
        }
        this.groupId = groupId;
        this.maxLookups = maxLookups;
    }

    /**
     * The parameters texts stored under each of {@code lookups} at {@code checkpoint} (a lookup with none maps to
     * an empty list); empty when a compaction removed versions that checkpoint needs, so the caller must use a
     * newer checkpoint.
     */
    Optional<Map<String, List<String>>> read(StoragePool pool, Collection<String> lookups, long checkpoint)
        throws SQLException {
        Generation current = at(checkpoint);
        if (current == null) {
            reads.incrementAndGet();
            return pool.withConnection(c -> ParameterLookupsAt.read(c, groupId, lookups, checkpoint))
                .map(found -> complete(lookups, found));
        }
        Map<String, CompletableFuture<List<String>>> wanted = new LinkedHashMap<>();
        Map<String, CompletableFuture<List<String>>> mine = new LinkedHashMap<>();
        for (String lookup : lookups) {
            CompletableFuture<List<String>> entry = current.entries().get(lookup);
            if (entry == null) {
                CompletableFuture<List<String>> created = new CompletableFuture<>();
                entry = current.entries().size() < maxLookups
                    ? current.entries().putIfAbsent(lookup, created) : null;
                if (entry == null) {
                    entry = created;
                    mine.put(lookup, created);
                }
            }
            wanted.put(lookup, entry);
        }
        if (!mine.isEmpty()) {
            fill(pool, current, mine, checkpoint);
        }
        Map<String, List<String>> found = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, CompletableFuture<List<String>>> entry : wanted.entrySet()) {
                found.put(entry.getKey(), entry.getValue().join());
            }
        } catch (CompletionException e) {
            if (e.getCause() instanceof Fenced) {
                return Optional.empty();
            }
            throw new SQLException("Reading parameter lookups of group " + groupId + " failed", "58000",
                e.getCause());
        }
        return Optional.of(found);
    }

    /**
     * Moves the cache from checkpoint {@code from} to {@code to} ({@code from < to}) before streams see {@code to}:
     * entries of lookups without a version in between are kept.
     */
    void advance(Connection connection, long from, long to) throws SQLException {
        Generation previous = generation.get();
        Generation next = new Generation(to, new ConcurrentHashMap<>());
        if (previous != null && previous.checkpoint() == from && !previous.entries().isEmpty()) {
            reads.incrementAndGet();
            Optional<Set<String>> changed = ParameterLookupsAt.changedBetween(connection, groupId, from, to);
            if (changed.isPresent()) {
                previous.entries().forEach((lookup, entry) -> {
                    if (!changed.get().contains(lookup) && entry.isDone() && !entry.isCompletedExceptionally()) {
                        next.entries().put(lookup, entry);
                    }
                });
            }
        }
        generation.set(next);
    }

    /** The statements this cache ran against storage so far: lookup reads and change reads. */
    long reads() {
        return reads.get();
    }

    /** The generation of {@code checkpoint}, started when the cache holds none or an older one; else null. */
    private Generation at(long checkpoint) {
        while (true) {
            Generation current = generation.get();
            if (current != null && current.checkpoint() == checkpoint) {
                return current;
            }
            if (current != null && current.checkpoint() > checkpoint) {
                return null;
            }
            Generation started = new Generation(checkpoint, new ConcurrentHashMap<>());
            if (generation.compareAndSet(current, started)) {
                return started;
            }
        }
    }

    /** Reads the lookups this caller registered and completes their entries, whatever happens. */
    private void fill(StoragePool pool, Generation current, Map<String, CompletableFuture<List<String>>> mine,
                      long checkpoint) throws SQLException {
        List<String> lookups = new ArrayList<>(mine.keySet());
        try {
            reads.incrementAndGet();
            Optional<Map<String, List<String>>> found = pool.withConnection(c -> ParameterLookupsAt.read(c,
                groupId, lookups, checkpoint));
            if (found.isEmpty()) {
                mine.forEach((lookup, entry) -> {
                    current.entries().remove(lookup, entry);
                    entry.completeExceptionally(new Fenced());
                });
                return;
            }
            mine.forEach((lookup, entry) -> entry.complete(List.copyOf(found.get().getOrDefault(lookup,
                List.of()))));
        } catch (SQLException | RuntimeException | Error e) {
            mine.forEach((lookup, entry) -> {
                current.entries().remove(lookup, entry);
                entry.completeExceptionally(e);
            });
            throw e;
        }
    }

    private static Map<String, List<String>> complete(Collection<String> lookups, Map<String, List<String>> found) {
        Map<String, List<String>> all = new LinkedHashMap<>();
        lookups.forEach(lookup -> all.put(lookup, found.getOrDefault(lookup, List.of())));
        return all;
    }
}
