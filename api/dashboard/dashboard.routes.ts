import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import type { AppContext, AppState } from '../http/context.js';
import { createRouter } from '../http/router.js';

/**
 * `/dashboard`: the web app (web/, docs/dashboard.md) built by Vite into web/dist and served from memory. Same origin
 * as the session routes it calls (`/api/integrations`, `/api/company`), so the cookie, CSRF token and Origin checks
 * stay as they are. Files under `assets/` carry a content hash in their names and are cached for a year
 * (`immutable`); every other path under /dashboard that is not a file of the build (a client-side route such as
 * `/dashboard/company/keys`) gets index.html, which is never cached, so a new build is picked up on the next load.
 * A missing asset is a 404, never index.html. Only files the build wrote are ever read: a request path is looked
 * up in a map made at load time, never joined to a folder.
 */

/** Where `vite build --config web/vite.config.ts` writes (from api/dashboard/ in the source tree and in dist/). */
export const DEFAULT_DASHBOARD_DIR = fileURLToPath(new URL('../../web/dist/', import.meta.url));

/**
 * The app's Content-Security-Policy: its own scripts, styles and fetches only (no inline script or style, no eval,
 * nothing from another origin), no plugins, no `<base>`, no native form submission (every form is handled by the
 * app; a form that somehow submitted natively would put a password in the URL), no framing.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

interface BuiltFile {
  body: Buffer;
  type: string;
  immutable: boolean;
}

/** Every file of a build, by its URL path under /dashboard (`/assets/index-3f2a1b.js`); null without a build. */
function loadBuild(dir: string): Map<string, BuiltFile> | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, BuiltFile>();
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (name.startsWith('.')) continue; // the build stamp (.source-hash)
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const url = `/${relative(dir, path).split(sep).join('/')}`;
        if (url.endsWith('.map')) continue; // source maps are not published
        files.set(url, {
          body: readFileSync(path),
          type: TYPES[extname(name)] ?? 'application/octet-stream',
          immutable: url.startsWith('/assets/'),
        });
      }
    }
  };
  walk(dir);
  return files;
}

function setPageHeaders(ctx: AppContext): void {
  ctx.set({
    'Content-Security-Policy': DASHBOARD_CSP,
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'same-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
  });
}

export function dashboardRouter(opts: { dir?: string } = {}): Router<AppState> {
  const dir = opts.dir ?? DEFAULT_DASHBOARD_DIR;
  let build: Map<string, BuiltFile> | null = null;
  const current = () => (build ??= loadBuild(dir)); // loaded once; looked for again on each request until it exists

  const serve = (ctx: AppContext) => {
    const files = current();
    if (!files)
      throw new DomainError(
        'service_unavailable',
        'The dashboard is not built: run scripts/setup.sh (or npm run build:web)',
      );
    const rest = ctx.path === '/dashboard' ? '/' : ctx.path.slice('/dashboard'.length);
    const file = files.get(rest);
    if (file && rest !== '/index.html') {
      ctx.set('Cache-Control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      ctx.type = file.type;
      ctx.body = file.body;
      return;
    }
    // A file the build does not have, under assets/ or with an extension: missing, not a page of the app.
    if (rest.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(rest)) throw new DomainError('not_found', 'Not found');
    setPageHeaders(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = files.get('/index.html')!.body;
  };

  const router = createRouter();
  router.get('/dashboard', serve);
  router.get('/dashboard/{*rest}', serve);
  return router;
}
