/**
 * Not API: the worker loops over {@code snapshot-tasks}: priority gating, claiming chunks in storage, the
 * read/publish pipeline and in-order offset commits.
 */
package io.tributary.snapshot.queue;
