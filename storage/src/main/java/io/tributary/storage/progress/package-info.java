/**
 * Snapshot progress in storage: snapshot windows per source table ({@code tributary.source_tables}) and their
 * primary key range chunks ({@code tributary.snapshot_chunks}). The snapshot planner opens windows and stores
 * chunks ({@link io.tributary.storage.progress.SnapshotProgress}); snapshot workers claim and complete chunks
 * ({@link io.tributary.storage.progress.SnapshotChunks}); the launcher's status command reads
 * {@link io.tributary.storage.progress.SnapshotProgress#latestWindows(java.sql.Connection)}.
 *
 * <p>Attempts come from here: every claim of a chunk increments its attempt, so a redelivered task always reads
 * as a new attempt, whichever worker gets it. Every operation is one short transaction of its own.
 */
package io.tributary.storage.progress;
