package io.tributary.topics.codec;

/**
 * A record's key or value is not a valid Tributary message: malformed bytes, an unknown format version, a type
 * that does not belong on the topic, a missing field or a value breaking an invariant. Carries where the record
 * is, so a consumer can dead-letter it ({@link DeadLetters}) and move on instead of failing in a loop.
 *
 * <p>Message form: {@code Malformed record at changes-3@1234: unknown version 7 (expected 1)}.
 */
public class MessageFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient RecordPosition position;
    private final String reason;

    /** The record at {@code position} is malformed for {@code reason}. */
    public MessageFormatException(RecordPosition position, String reason, Throwable cause) {
        super("Malformed record at " + position + ": " + reason, cause);
        this.position = position;
        this.reason = reason;
    }

    /** Where the record is. */
    public RecordPosition position() {
        return position;
    }

    /** The record's topic. */
    public String topic() {
        return position.topic();
    }

    /** The record's partition, {@code -1} if unknown. */
    public int partition() {
        return position.partition();
    }

    /** The record's offset, {@code -1} if unknown. */
    public long offset() {
        return position.offset();
    }

    /** What is wrong, without the position. */
    public String reason() {
        return reason;
    }
}
