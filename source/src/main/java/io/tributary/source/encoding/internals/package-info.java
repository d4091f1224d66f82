/**
 * Not API: the formatting rules of the canonical row encoding and the per-column value writers behind
 * {@link io.tributary.source.encoding.JdbcRowEncoder} and {@link io.tributary.source.encoding.ConnectRowEncoder}.
 * Both adapters reduce their native values to the same primitives (epoch microseconds, interval parts, decimal
 * text, bytes, JSON text) and format them here, so the two paths cannot drift apart.
 */
package io.tributary.source.encoding.internals;
