package io.tributary.launcher.config;

/** How replication work is sized and where it attaches to the source. */
public record ReplicationSettings(int workersPerProcess, int snapshotChunkRows, int snapshotMaxConcurrentReads,
                                  int snapshotSocketTimeoutSeconds, String slotName, String publicationName,
                                  int storageBatchRows) {
}
