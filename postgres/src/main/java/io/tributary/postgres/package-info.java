/**
 * What every stage shares to talk to Postgres, source or storage: {@link io.tributary.postgres.PgEndpoint} (where
 * and as whom to connect) and {@link io.tributary.postgres.LazyConnection} (one connection, replaced after it
 * broke); {@link io.tributary.postgres.SqlErrors}, the one place that decides whether a failure is retriable or
 * fatal; {@link io.tributary.postgres.RetryPolicy}, {@link io.tributary.postgres.Backoff} and
 * {@link io.tributary.postgres.Retrier} (capped exponential backoff with jitter, a deadline, an injected clock,
 * stopping at once on shutdown through a {@link io.tributary.postgres.StopSignal}); and
 * {@link io.tributary.postgres.Transactions}.
 *
 * <p>Depends on pgjdbc and SLF4J only, so every module may use it.
 */
package io.tributary.postgres;
