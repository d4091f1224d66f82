/**
 * The source side of a chaos run: {@link io.tributary.chaos.workload.WorkloadSchema} creates and loads the tables
 * (integer, bigint, uuid, text and composite primary keys; most column types the source module encodes) and gives
 * the sync rules over them; {@link io.tributary.chaos.workload.Workload} runs seeded concurrent writers doing
 * inserts, updates, deletes, primary key changes, multi-row and long-running transactions, and transfers between
 * {@code accounts} that keep the total balance constant.
 */
package io.tributary.chaos.workload;
