-- Op ids are allocated in blocks: each nextval of op_id_seq hands out the 1,000 ids from the value it returns, so
-- a storage writer's batch takes its ids with one nextval per 1,000 ops (not one per op). Values still only grow,
-- so every id allocated after this step is above every id allocated before it; an id is still used at most once.
-- The storage writer checks the increment at each allocation and refuses to allocate if it is not 1,000.
ALTER SEQUENCE tributary.op_id_seq INCREMENT BY 1000;
