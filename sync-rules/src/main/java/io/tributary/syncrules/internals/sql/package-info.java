/** The SQL subset of sync rules: tokens, a recursive-descent parser and the syntax tree. Not API. */
package io.tributary.syncrules.internals.sql;
