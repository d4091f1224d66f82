/**
 * Seals and checkpoint publication (the aligned-barrier gate itself is {@code consume.PeerSeals});
 * {@link io.tributary.writer.checkpoint.CheckpointMath} holds the consistency argument. Not API: used by the
 * writer's loops.
 */
package io.tributary.writer.checkpoint;
