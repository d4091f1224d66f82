/** SQL helpers for the source database: identifier quoting and the one place that classifies SQL errors. */
package io.tributary.source.sql;
