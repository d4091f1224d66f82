package io.tributary.launcher.config;

/**
 * How replication work is sized and where it attaches to the source.
 *
 * @param slotWalWarningBytes WAL the slot may retain on the source before a run warns, {@code > 0}
 */
public record ReplicationSettings(int workersPerProcess, int snapshotChunkRows, int snapshotMaxConcurrentReads,
                                  int snapshotSocketTimeoutSeconds, String slotName, String publicationName,
                                  int storageBatchRows, long slotWalWarningBytes) {
}
