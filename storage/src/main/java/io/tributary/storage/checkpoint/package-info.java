/**
 * Published checkpoints of sync rules groups: reading them and waiting for them to advance
 * ({@link io.tributary.storage.checkpoint.Checkpoints}; storage writers publish them), and the write checkpoints
 * of sync clients ({@link io.tributary.storage.checkpoint.WriteCheckpoints}).
 */
package io.tributary.storage.checkpoint;
