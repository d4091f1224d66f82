#!/bin/sh
# Runs once, when the source database is first initialised (docker-entrypoint-initdb.d): loads the sample todo
# dataset of the embedded default (launcher/src/main/resources/io/tributary/launcher/sample/schema.sql, whose
# :users, :lists and :todos are psql variables). Sizes: SAMPLE_USERS, SAMPLE_LISTS, SAMPLE_TODOS.
set -e
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
    -v users="${SAMPLE_USERS:-1000}" -v lists="${SAMPLE_LISTS:-10000}" -v todos="${SAMPLE_TODOS:-200000}" \
    -f /sample/schema.sql
