/**
 * The messages of the Tributary topics and the values they are made of: immutable records whose constructors
 * check their invariants.
 *
 * <p>Per topic, a sealed interface lists what may appear on it, so consumers switch exhaustively:
 * {@link io.tributary.topics.messages.ChangesMessage}, {@link io.tributary.topics.messages.SnapshotTaskMessage},
 * {@link io.tributary.topics.messages.SnapshotRowsMessage}, {@link io.tributary.topics.messages.RowsMessage}.
 * Across topics, a message is {@link io.tributary.topics.messages.RowKeyed} (about one source row, keyed by
 * {@link io.tributary.topics.messages.RowKey}), a {@link io.tributary.topics.messages.Marker} (keyed by
 * {@link io.tributary.topics.messages.MarkerKey}, sent to explicit partitions) or a
 * {@link io.tributary.topics.messages.ChunkTask}.
 *
 * <p>Value types: {@link io.tributary.topics.messages.TableId}, {@link io.tributary.topics.messages.KeyValues} and
 * {@link io.tributary.topics.messages.RowJson} (canonical JSON text from the source module, never re-formatted),
 * {@link io.tributary.topics.messages.Lsn}, {@link io.tributary.topics.messages.PgSnapshot} (with the visibility
 * rule of the merge), {@link io.tributary.topics.messages.ChunkRange},
 * {@link io.tributary.topics.messages.SourcePosition}. All are immutable and thread-safe.
 */
package io.tributary.topics.messages;
