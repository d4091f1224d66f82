/**
 * SQL helpers for the source database: identifier quoting. (Whether a failure is retriable is decided in one place
 * for every database: {@code io.tributary.postgres.SqlErrors}.)
 */
package io.tributary.source.sql;
