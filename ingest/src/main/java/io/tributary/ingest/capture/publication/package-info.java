/**
 * What ingest sets up on the source: {@link io.tributary.ingest.capture.publication.SourcePreflight} (wal_level,
 * REPLICATION), {@link io.tributary.ingest.capture.publication.ReplicationSlots},
 * {@link io.tributary.ingest.capture.publication.Publications} and
 * {@link io.tributary.ingest.capture.publication.CapturedTables}, which keeps the publication in line with the
 * table selection (for example {@link io.tributary.ingest.capture.publication.LiveGroupTables}, the tables the live
 * sync rules groups read).
 */
package io.tributary.ingest.capture.publication;
