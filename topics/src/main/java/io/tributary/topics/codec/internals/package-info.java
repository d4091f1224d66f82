/**
 * Not API: the JSON reading and writing behind {@link io.tributary.topics.codec.TopicCodec} and
 * {@link io.tributary.topics.codec.RecordKeys}. May change without notice; use the {@code codec} package.
 */
package io.tributary.topics.codec.internals;
