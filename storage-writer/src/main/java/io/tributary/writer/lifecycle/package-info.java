/**
 * The lifecycle of sync rules groups: deployed groups become ACTIVE, superseded ones STOP and are TERMINATED
 * ({@link io.tributary.writer.lifecycle.GroupLifecycle}). It sits with the storage writer, whose consumer groups
 * it starts and stops, so an embedder that runs writers finds it here.
 */
package io.tributary.writer.lifecycle;
