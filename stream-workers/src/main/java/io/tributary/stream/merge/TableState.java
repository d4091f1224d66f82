package io.tributary.stream.merge;

import io.tributary.topics.messages.TableId;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One table as one partition's merge has seen it: its snapshot windows and whether per-key state is kept.
 * Immutable.
 *
 * <p>The table is <em>tracked</em> while one of its windows is {@link WindowPhase#OPEN}: from the first window
 * marker until the open window is ready. While tracked, the merge remembers per key of the table the transaction
 * id of the last stream event it emitted, under {@link #generation()}, and the last truncation. A superseded
 * window hands tracking over to the window that superseded it, so tracking covers every window opened since it
 * started.
 *
 * @param table         the table
 * @param generation    the tracking generation: incremented each time tracking starts, so the per-key state
 *                      of an earlier generation (being freed) is never read again
 * @param truncateTxId  the transaction id of the last truncation of the table while tracked
 * @param windows       every window seen, by id; unmodifiable
 */
public record TableState(TableId table, long generation, OptionalLong truncateTxId,
                         SortedMap<String, WindowState> windows) {

    public TableState {
        Objects.requireNonNull(table, "table");
        Objects.requireNonNull(truncateTxId, "truncateTxId");
        windows = Collections.unmodifiableSortedMap(new TreeMap<>(windows));
        long open = windows.values().stream().filter(w -> w.phase() == WindowPhase.OPEN).count();
        if (open > 1) {
            throw new IllegalArgumentException("Table " + table + " has " + open + " open windows: " + windows);
        }
        if (generation < 0 || open == 0 && truncateTxId.isPresent()) {
            throw new IllegalArgumentException("Table " + table + ": generation " + generation
                + ", truncation " + truncateTxId + " with " + open + " open windows");
        }
    }

    /** A table the partition has seen no window of. */
    public static TableState initial(TableId table) {
        return new TableState(table, 0, OptionalLong.empty(), new TreeMap<>());
    }

    /** Whether per-key state is kept for the table: one of its windows is open. */
    public boolean isTracked() {
        return openWindow().isPresent();
    }

    /** The open window, if any. */
    public Optional<WindowState> openWindow() {
        return windows.values().stream().filter(w -> w.phase() == WindowPhase.OPEN).findFirst();
    }

    /** The window {@code windowId}, if seen. */
    public Optional<WindowState> window(String windowId) {
        return Optional.ofNullable(windows.get(windowId));
    }

    /** Whether window {@code windowId} is ready or superseded. */
    public boolean isClosed(String windowId) {
        WindowState window = windows.get(windowId);
        return window != null && window.phase().isClosed();
    }

    /** This table with {@code window} replacing the window of its id. */
    public TableState withWindow(WindowState window) {
        TreeMap<String, WindowState> next = new TreeMap<>(windows);
        next.put(window.windowId(), window);
        return new TableState(table, generation, truncateTxId, next);
    }

    /**
     * This table with window {@code windowId} open (new or pending before): the open window, if any, is
     * superseded and tracking continues; otherwise tracking starts with the next generation.
     */
    public TableState open(String windowId) {
        TreeMap<String, WindowState> next = new TreeMap<>(windows);
        Optional<WindowState> previous = openWindow();
        previous.ifPresent(w -> next.put(w.windowId(), w.moveTo(WindowPhase.SUPERSEDED)));
        next.put(windowId, window(windowId).orElse(WindowState.pending(windowId)).moveTo(WindowPhase.OPEN));
        return previous.isPresent()
            ? new TableState(table, generation, truncateTxId, next)
            : new TableState(table, generation + 1, OptionalLong.empty(), next);
    }

    /** This table with its open window {@code windowId} ready: tracking ends. */
    public TableState ready(String windowId) {
        TreeMap<String, WindowState> next = new TreeMap<>(windows);
        next.put(windowId, windows.get(windowId).moveTo(WindowPhase.READY));
        return new TableState(table, generation, OptionalLong.empty(), next);
    }

    /** This tracked table, truncated by transaction {@code txId}. */
    public TableState withTruncation(long txId) {
        return new TableState(table, generation, OptionalLong.of(txId), windows);
    }
}
