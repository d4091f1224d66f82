/** Scenario P: the roles as separate processes, their CPU per row and the capacity model fed by it. */
package io.tributary.bench.processes;
