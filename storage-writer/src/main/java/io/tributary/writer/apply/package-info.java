/**
 * From evaluated records to one storage transaction per batch: batching and reduction
 * ({@link io.tributary.writer.apply.BatchBuilder}), op computation ({@link io.tributary.writer.apply.OpPlanner})
 * and the transaction itself ({@link io.tributary.writer.apply.BatchApplier}). Not API: used by the writer's
 * loops.
 */
package io.tributary.writer.apply;
