/**
 * The lifecycle every pipeline stage shares ({@link io.tributary.topics.lifecycle.Stage}): how a running stage
 * reports the failure that stopped it and how it is closed.
 */
package io.tributary.topics.lifecycle;
