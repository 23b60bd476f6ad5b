#!/bin/sh
# Creates Temporal's two databases (temporal, temporal_visibility) and brings their schemas to the version the server
# needs, with temporal-sql-tool. Run by docker-compose.yml's temporal-schema service and by scripts/topology/run.ts
# (the production topology check), so both describe the same steps. Idempotent: a database that already exists is
# the only failure it accepts, by its message; any other failure stops it with the tool's own error.
# Needs: temporal-sql-tool on PATH; SQL_PLUGIN, SQL_HOST, SQL_PORT, SQL_USER, SQL_PASSWORD (read by the tool);
# TEMPORAL_SCHEMA_DIR (default: where the admin-tools image keeps the schemas); SCHEMA_WAIT_SECONDS (default 120).
set -eu
schema_dir=${TEMPORAL_SCHEMA_DIR:-/etc/temporal/schema/postgresql/v12}
deadline=$(($(date +%s) + ${SCHEMA_WAIT_SECONDS:-120}))
# create-database is retried until the deadline while PostgreSQL may still be starting (connection refused).
for db in temporal temporal_visibility; do
  dir=temporal
  [ "$db" = temporal_visibility ] && dir=visibility
  while :; do
    if out=$(temporal-sql-tool --db "$db" create-database --defaultdb postgres 2>&1); then
      echo "created database $db"
      break
    fi
    case "$out" in
    *"already exists"*)
      echo "database $db already exists"
      break
      ;;
    esac
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "could not create database $db:" >&2
      echo "$out" >&2
      exit 1
    fi
    sleep 2
  done
  temporal-sql-tool --db "$db" setup-schema -v 0.0
  temporal-sql-tool --db "$db" update-schema -d "$schema_dir/$dir/versioned"
done
