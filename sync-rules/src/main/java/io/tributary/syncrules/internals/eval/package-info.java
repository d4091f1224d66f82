/** Compiled sync rules: conditions, bucket bindings, output rows, table patterns and canonical JSON. Not API. */
package io.tributary.syncrules.internals.eval;
