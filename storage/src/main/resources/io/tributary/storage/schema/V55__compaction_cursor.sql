-- Where the bucket_data compaction of a group resumes (docs/decisions/api.md, Compaction): a pass bounded to a
-- number of ops stops between buckets or inside one and the next pass goes on from there.
--
-- bucket_cursor: every bucket at or before it, in the database's name order, was compacted in the current round;
--   '' = the round starts at the first bucket. A pass that reaches the last bucket sets it back to ''.
ALTER TABLE tributary.compaction_state ADD COLUMN bucket_cursor text NOT NULL DEFAULT '';
