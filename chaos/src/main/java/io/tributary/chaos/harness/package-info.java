/**
 * The pipeline as separate processes: {@link io.tributary.chaos.harness.ProcessPipeline} starts
 * {@code java -jar launcher/target/tributary.jar run --role <role>} children configured only by environment
 * variables ({@link io.tributary.chaos.harness.PipelineSettings}), kills them with {@code SIGKILL}, stops them with
 * {@code SIGTERM} and restarts them, and notices children that exit on their own.
 */
package io.tributary.chaos.harness;
