-- The embedded default's sample dataset: a small todo app, generated inside Postgres.
CREATE TABLE IF NOT EXISTS public.users (
    id          uuid PRIMARY KEY,
    name        text NOT NULL,
    email       text NOT NULL
);
CREATE TABLE IF NOT EXISTS public.lists (
    id          bigint PRIMARY KEY,
    owner_id    uuid NOT NULL,
    name        text NOT NULL,
    created_at  timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS public.todos (
    id          bigint PRIMARY KEY,
    list_id     bigint NOT NULL,
    owner_id    uuid NOT NULL,
    description text NOT NULL,
    completed   boolean NOT NULL,
    priority    integer,
    created_at  timestamptz NOT NULL
);
INSERT INTO public.users
SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(u), 12, '0'))::uuid, 'User ' || u, 'user' || u || '@example.com'
FROM generate_series(1, :users) AS u;
INSERT INTO public.lists
SELECT l, ('00000000-0000-4000-8000-' || lpad(to_hex(1 + l % :users), 12, '0'))::uuid, 'List ' || l,
       timestamptz '2026-01-01 00:00:00+00' + l * interval '1 minute'
FROM generate_series(1, :lists) AS l;
INSERT INTO public.todos
SELECT t, 1 + t % :lists, ('00000000-0000-4000-8000-' || lpad(to_hex(1 + (1 + t % :lists) % :users), 12, '0'))::uuid,
       'Todo ' || t || ' ' || md5(t::text), t % 3 = 0, CASE WHEN t % 5 = 0 THEN NULL ELSE t % 4 END,
       timestamptz '2026-01-01 00:00:00+00' + t * interval '1 second'
FROM generate_series(1, :todos) AS t;
ANALYZE public.users;
ANALYZE public.lists;
ANALYZE public.todos;
