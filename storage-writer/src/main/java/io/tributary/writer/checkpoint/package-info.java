/**
 * Seals, the aligned-barrier gate and checkpoint publication; {@link io.tributary.writer.checkpoint.CheckpointMath}
 * holds the consistency argument. Not API: used by the writer's loops.
 */
package io.tributary.writer.checkpoint;
