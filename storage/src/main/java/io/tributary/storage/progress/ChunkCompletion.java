package io.tributary.storage.progress;

import java.util.Objects;

/**
 * What one attempt of a chunk read, to mark the chunk DONE with ({@link SnapshotChunks#completeAll}).
 *
 * @param chunkId       the chunk
 * @param rowCount      rows the attempt read ({@code >= 0})
 * @param highWatermark the attempt's high watermark (LSN text, e.g. {@code 0/16B3748})
 */
public record ChunkCompletion(String chunkId, long rowCount, String highWatermark) {

    public ChunkCompletion {
        Objects.requireNonNull(chunkId, "chunkId");
        Objects.requireNonNull(highWatermark, "highWatermark");
        if (rowCount < 0) {
            throw new IllegalArgumentException("rowCount must be >= 0: " + rowCount);
        }
    }
}
