/**
 * Published checkpoints of sync rules groups: reading them and waiting for them to advance
 * ({@link io.tributary.storage.checkpoint.Checkpoints}). Storage writers publish them.
 */
package io.tributary.storage.checkpoint;
