package io.tributary.storage.progress;

/**
 * The queue a window's chunk tasks wait in, as stored. Names match the topics contract's {@code TaskPriority}
 * constants one to one (storage depends on nothing of ours, so callers map by name).
 */
public enum SnapshotPriority {
    /** Needed by an ACTIVE sync rules group: its checkpoints wait for the table. */
    ACTIVE_SNAPSHOT,
    /** Needed only by PROCESSING (reprocessing) groups. */
    REPROCESS_SNAPSHOT
}
