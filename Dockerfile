# syntax=docker/dockerfile:1
#
# One image for both processes:
#   api    (default):  node dist/api/main.js
#   worker (override): node dist/workers/main.js
# Both run compiled JavaScript from dist/ (tsx is a dependency for `npm start` in development only).

# ---- build: compile TypeScript and prebuild the Temporal workflow bundle ----
FROM node:20-bookworm-slim AS build
WORKDIR /app

# npm 10 (shipped with node 20) runs install scripts; package.json's allowScripts is for npm 11.
# `npm install` rather than `npm ci`: the lockfile omits other platforms' optional @swc/core binaries, which
# `npm ci` reports as out of sync; `npm install` honours the locked versions and fetches the platform's one.
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

COPY . .
RUN npm run build \
 && node dist/cli/build-workflows.js dist/workflow-bundle.js

# ---- runtime: production dependencies, compiled code, media tools ----
FROM node:20-bookworm-slim AS runtime

# ffmpeg and qpdf are used by the media adapters, the fonts by the PDF watermark (adapters/media/pdf/watermark-fonts.ts),
# Tesseract, ocrmypdf and poppler-utils by OCR (adapters/media/ocr; more languages: tesseract-ocr-<code> + OCR_LANGUAGES);
# ca-certificates for outbound TLS from child tools.
RUN apt-get update \
 && apt-get install -y --no-install-recommends ffmpeg qpdf fonts-dejavu-core fonts-droid-fallback \
      tesseract-ocr tesseract-ocr-eng ocrmypdf poppler-utils ca-certificates \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
ENV NODE_ENV=production \
    TEMPORAL_WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js

COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund \
 && npm cache clean --force

COPY --from=build /app/dist ./dist

# DATA_DIR defaults to ./var (relative to /app); make it writable for the unprivileged user.
RUN mkdir -p /app/var && chown node:node /app/var

USER node
EXPOSE 8080

# API health; the worker has no HTTP server, so its service disables this healthcheck (see docker-compose.yml).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/x402/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]

CMD ["node", "dist/api/main.js"]
