/**
 * WAL capture: the {@code ingest} role. {@link io.tributary.ingest.capture.IngestService} runs Debezium Embedded
 * (Postgres connector, pgoutput, streaming only) and writes every change of the captured tables to
 * {@code changes}, with barriers, window markers and truncations (docs/design.md).
 *
 * <h2>Use</h2>
 * <pre>
 * IngestConfig config = IngestConfig.of(PgEndpoint.of(url, user, password), slot, publication,
 *     topicNames, topicLayout, kafkaClientProperties, new LiveGroupTables(storageEndpoint));
 * IngestService ingest = IngestService.create(config);
 * ingest.start();                         // returns at once; a supervisor thread does the work
 * ingest.awaitActive(Duration.ofMinutes(1));   // optional: STANDBY while another process reads the slot
 * ...
 * ingest.close();
 * </pre>
 * {@link io.tributary.ingest.capture.IngestService#state()}, {@code failure()}, {@code capturedTables()},
 * {@code tableProblems()} and {@code stats()} report progress and problems for health checks and metrics.
 *
 * <h2>Commit positions</h2>
 * pgoutput's BEGIN and COMMIT messages carry the transaction's final LSN, but Debezium 3.6 drops both; the only
 * per-transaction position it exposes is {@code lsn_commit} in the source offset, set at each COMMIT to the
 * position of the COMMIT message (the end of the commit record, what {@code pg_current_wal_lsn()} shows right
 * after the commit, and what the slot confirms). The {@code sequence} field of a change holds the previous
 * transaction's {@code lsn_commit}. So ingest holds each transaction's changes until its END record (transaction
 * metadata), then writes them with that position; the position is the same on every replay.
 *
 * <h2>Packages</h2>
 * {@code publication}: source checks, slot, publication and the captured table set; {@code barrier}: epochs and
 * barrier recovery; {@code internals} (not API): the engine, batch handler and producer.
 */
package io.tributary.ingest.capture;
