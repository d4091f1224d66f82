/** Not API: failure classification, retry pacing and progress lines of the snapshot workers. */
package io.tributary.snapshot.internals;
