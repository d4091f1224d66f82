/**
 * Compaction of bucket storage ({@link io.tributary.storage.compact.BucketCompactor}): superseded ops become MOVEs
 * and a bucket's leading MOVE and REMOVE ops fold into one CLEAR, at or below the published checkpoint, with every
 * bucket checksum at every checkpoint unchanged.
 */
package io.tributary.storage.compact;
