/** Reading sync rules YAML with positions, and mapping offsets in SQL scalars to lines and columns. Not API. */
package io.tributary.syncrules.internals.yaml;
