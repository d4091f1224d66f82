package io.tributary.chaos.run;

/** When in a run a fault is meant to hit. */
public enum Phase {
    /** While the newest group's initial snapshot runs (the group is PROCESSING). */
    SNAPSHOT,
    /** After the group became ACTIVE: streaming. */
    STREAMING
}
