/** Storage connections and counters of the storage writer. Not API. */
package io.tributary.writer.internals;
