-- Parameter lookups, per sync rules group (docs/decisions.md, Parameter queries that read tables): what each source
-- row of a table a parameter query reads stores under each lookup, versioned by op_id like bucket_data. A row's
-- new state appends one version per lookup it now makes (parameters: the JSON object of the bucket parameters it
-- selects) and one with parameters NULL per lookup it made before and no longer makes. A client's lookup at
-- checkpoint C reads, per source row, the newest version with op_id <= C, and ignores it when it is NULL: exactly
-- the source state at C, since the versions take op ids from the same sequence, in the same transactions and
-- under the same seals as the ops. Partitioned by group like bucket_data, so a cleared group is a DROP.
CREATE TABLE tributary.bucket_parameters (
    group_id          bigint  NOT NULL,
    lookup            text    NOT NULL,  -- canonical JSON: ["<definition>",<query index>,<value>...]
    source_key        bytea   NOT NULL,  -- the record key of the source row in the rows topic
    op_id             bigint  NOT NULL,
    source_partition  integer NOT NULL,  -- the partition of rows the source row lives in
    parameters        text,              -- JSON object of bucket parameter texts; NULL = no longer under lookup
    PRIMARY KEY (group_id, lookup, source_key, op_id)
) PARTITION BY LIST (group_id);

-- A source row's current lookups (a writer reads them to retire those a change drops) and a truncated table's.
CREATE INDEX bucket_parameters_by_source ON tributary.bucket_parameters (group_id, source_key, lookup, op_id);

-- Groups that exist already get their partition now.
DO $$
DECLARE
    g bigint;
BEGIN
    FOR g IN SELECT group_id FROM tributary.sync_rules WHERE cleared_at IS NULL LOOP
        EXECUTE format('CREATE TABLE tributary.bucket_parameters_g%s PARTITION OF tributary.bucket_parameters'
            || ' FOR VALUES IN (%s)', g, g);
    END LOOP;
END $$;
