/** Not API: failure classification and progress lines of the snapshot workers. */
package io.tributary.snapshot.internals;
