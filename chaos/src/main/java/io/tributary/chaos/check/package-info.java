/**
 * The checkers of a chaos run, each returning {@link io.tributary.chaos.check.Mismatch}es (key, expected, actual):
 * <ul>
 *   <li>{@link io.tributary.chaos.check.BucketCheck}: a group's bucket contents at its checkpoint equal the
 *       reference evaluation of its rules over the source tables, rows and checksums (invariant 1);</li>
 *   <li>{@link io.tributary.chaos.check.SqlBuckets}: the rows in each bucket of the workload's rules equal what
 *       plain SQL over the source puts there (invariant 1);</li>
 *   <li>{@link io.tributary.chaos.check.RowsTopicCheck}: the compacted {@code rows} topic (last value per key,
 *       tombstones removed) equals the source tables in canonical encoding (invariants 1 and 5);</li>
 *   <li>{@link io.tributary.chaos.check.CheckpointAuditor}: every checkpoint published during the run (each one,
 *       from the {@link io.tributary.chaos.check.CheckpointLog}) shows the accounts' constant total, goes forward
 *       from its group's previous one, and no op at or below it appears after it was published (invariants 2 and
 *       3);</li>
 *   <li>{@link io.tributary.chaos.check.Quiescence}: after the workload stops, the checkpoint reaches the source's
 *       WAL position (invariant 6).</li>
 * </ul>
 */
package io.tributary.chaos.check;
