-- Per-group planning state (the checkpoint gate of docs/design.md: a group reads the tables its rules match,
-- and source_tables lists a table only once the snapshot planner opened a window for it).
--
-- planned_at is set by the snapshot planner at the end of the first planning round that saw the group live at
-- its start and stored a window (PLANNING with its chunks, SNAPSHOTTING, DONE or FAILED) for every table the
-- group's rules matched then. It is never reset. Until it is set the group's checkpoints are held: before it,
-- a table without a window would not hold them. Groups deployed before this step start unplanned and are
-- planned by the next round.
ALTER TABLE tributary.sync_rules ADD COLUMN planned_at timestamptz;
