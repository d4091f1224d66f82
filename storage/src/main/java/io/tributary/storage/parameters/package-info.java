/**
 * Reading parameter lookups ({@code tributary.bucket_parameters}) at a checkpoint: what a client's parameter
 * queries with FROM find, exactly as the source was at that checkpoint.
 */
package io.tributary.storage.parameters;
