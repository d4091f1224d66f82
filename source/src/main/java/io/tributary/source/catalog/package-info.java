/**
 * What the source database holds, read from {@code pg_catalog}: tables, their columns in ordinal order, key
 * columns, replica identity and size estimates ({@link io.tributary.source.catalog.SourceCatalog},
 * {@link io.tributary.source.catalog.TableSchema}); and the typed errors that stop a table from being replicated
 * (no key, unsupported column type, missing table).
 */
package io.tributary.source.catalog;
