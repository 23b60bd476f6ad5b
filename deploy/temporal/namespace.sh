#!/bin/sh
# Registers the `default` namespace and the search attributes the workers check at start (docs/operations.md), once
# the server answers. Run by docker-compose.yml's temporal-namespace service and by scripts/topology/run.ts.
# Each step waits for what it needs (retrying until NAMESPACE_WAIT_SECONDS, default 180) and fails loudly after:
# a search attribute created right after the namespace is refused for a few seconds while the namespace propagates.
# Needs: the `temporal` CLI on PATH and TEMPORAL_ADDRESS.
set -eu
namespace=${TEMPORAL_NAMESPACE:-default}
deadline=$(($(date +%s) + ${NAMESPACE_WAIT_SECONDS:-180}))
# retry <what> <command...>: runs the command until it succeeds; after the deadline prints its last error and fails.
retry() {
  what=$1
  shift
  while :; do
    if out=$("$@" 2>&1); then return 0; fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "gave up waiting for $what:" >&2
      echo "$out" >&2
      exit 1
    fi
    sleep 2
  done
}
retry "the Temporal server" temporal operator cluster health
if temporal operator namespace describe --namespace "$namespace" >/dev/null 2>&1; then
  echo "namespace $namespace exists"
else
  retry "namespace $namespace" temporal operator namespace create --namespace "$namespace" --retention 72h
  echo "created namespace $namespace"
fi
retry "namespace $namespace to be served" temporal operator namespace describe --namespace "$namespace"
# has_attribute <name>: the namespace lists the attribute (as Keyword).
has_attribute() {
  temporal operator search-attribute list --namespace "$namespace" | grep -Eq "^[[:space:]]*$1[[:space:]]+Keyword"
}
# create_attribute <name>: creates it unless listed; the creation is retried until the list shows it.
create_attribute() {
  has_attribute "$1" && return 0
  temporal operator search-attribute create --namespace "$namespace" --name "$1" --type Keyword && has_attribute "$1"
}
for name in PaycoreCompany PaycoreOperation PaycoreStatus PaycoreBatch; do
  retry "search attribute $name" create_attribute "$name"
  echo "search attribute $name present"
done
