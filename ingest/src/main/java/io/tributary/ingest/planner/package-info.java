/**
 * The snapshot planner: which tables need a snapshot, their snapshot windows (opened through the WAL by
 * {@link io.tributary.ingest.planner.WindowMarkers}), primary key range chunks
 * ({@link io.tributary.ingest.planner.ChunkSplitter}) and chunk tasks in their priority's queue. The API is
 * {@link io.tributary.ingest.planner.SnapshotPlanner} with its {@link io.tributary.ingest.planner.PlannerConfig}.
 */
package io.tributary.ingest.planner;
