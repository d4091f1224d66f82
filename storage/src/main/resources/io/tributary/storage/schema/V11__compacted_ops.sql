-- Compaction rewrites ops at or below a group's published checkpoint (docs/decisions.md, Compaction):
-- a PUT or REMOVE superseded by a later op of the same row becomes a MOVE (3) that keeps its op_id and checksum,
-- data cleared; a bucket's leading MOVE / REMOVE ops fold into one CLEAR (4) whose checksum is their wrapping
-- 32-bit sum. Every bucket's checksum at every checkpoint stays what it was. A CLEAR names no row: its
-- source_table and row_id are empty.
ALTER TABLE tributary.bucket_data DROP CONSTRAINT bucket_data_op_check;
ALTER TABLE tributary.bucket_data ADD CONSTRAINT bucket_data_op_check CHECK (op IN (1, 2, 3, 4));
