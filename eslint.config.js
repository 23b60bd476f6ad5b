// Lint: TypeScript recommended rules plus the architecture guide's import rules (../shared/ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const layer = (name) => [`**/${name}/**`, `../${name}/*`, `../../${name}/*`, `../../../${name}/*`];
const NODE_BUILTINS = [
  'node:*',
  'fs',
  'fs/*',
  'path',
  'crypto',
  'http',
  'https',
  'net',
  'dns',
  'dns/*',
  'os',
  'child_process',
  'stream',
  'url',
  'util',
  'events',
  'buffer',
  'zlib',
  'tls',
];

/** Config is read by entry points only; a type from config/ is fine anywhere (rule 6). */
const CONFIG_TYPES_ONLY = {
  group: ['**/config/schema*', '../config/*', '../../config/*'],
  allowTypeImports: true,
  message: 'only entry points read config (import type is fine)',
};
/** What no application-layer module imports: HTTP, the interfaces, the worker side, the CLI. */
const NOT_FROM_SERVICES = [
  'koa',
  '@koa/*',
  ...layer('api'),
  ...layer('activities'),
  ...layer('workers'),
  ...layer('cli'),
];

/** The layers above adapters/ and db/. */
const ABOVE_ADAPTERS = [
  ...layer('api'),
  ...layer('services'),
  ...layer('activities'),
  ...layer('workflows'),
  ...layer('workers'),
  ...layer('config'),
  ...layer('cli'),
];

/** Rule 4: adapters/ and db/ never import Temporal, Koa or the layers above them. */
const BELOW_SERVICES = {
  group: ['@temporalio/*', 'koa', '@koa/*', ...ABOVE_ADAPTERS],
  message: 'adapters/ and db/ never import Temporal, Koa or higher layers',
};

/**
 * Rule 5: no interface folder of api/ imports another's. Every folder directly under api/ is an interface folder
 * (processing/ for /v1, proof/, x402/, mcp/, integrations/, company/, dashboard/, and any added later) except the two
 * every interface may use: http/ (the plumbing: errors, auth, idempotency, rate limits, pagination) and shared/ (what
 * two interfaces serve alike: route sets mounted at two bases, serialisers, contract schemas and examples; see
 * api/shared/README.md). Neither of those two imports an interface folder either. The files directly in api/ (server.ts,
 * deps.ts, openapi-documents.ts, main.ts) compose the interfaces and are not checked. Specifiers are resolved against
 * the importing file, so a `../proof/` inside api/shared/ (api/shared/proof/) is told apart from api/proof/.
 * A glob of no-restricted-imports cannot make that distinction (and one for every `proof` folder would catch services/proof/).
 */
const REPO_ROOT = path.dirname(fileURLToPath(import.meta.url));
const API_COMMON_FOLDERS = new Set(['http', 'shared']);
const apiFolderOf = (file) => {
  const parts = path.relative(REPO_ROOT, file).split(path.sep);
  return parts[0] === 'api' && parts.length > 2 ? parts[1] : null;
};
const noCrossInterfaceImports = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      cross:
        'api/{{from}}/ must not import api/{{to}}/ (another interface): put what both serve in services/ (the rule) or api/shared/ (routes, serialisers, schemas, examples)',
    },
  },
  create(context) {
    const from = apiFolderOf(context.filename);
    if (!from) return {};
    const check = (source) => {
      if (!source || typeof source.value !== 'string' || !source.value.startsWith('.')) return;
      const to = apiFolderOf(path.resolve(path.dirname(context.filename), source.value));
      if (to && to !== from && !API_COMMON_FOLDERS.has(to))
        context.report({ node: source, messageId: 'cross', data: { from, to } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source.type === 'Literal' ? node.source : null),
    };
  },
};

const restrict = (patterns, extra = {}) => ({
  'no-restricted-imports': ['error', { patterns, ...extra }],
});

export default tseslint.config(
  // var-*: the per-run DATA_DIR folders of test and bench runs in a clone (.gitignore).
  { ignores: ['node_modules/**', 'dist/**', 'var/**', 'var-*/**', 'coverage/**', 'web/dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', process: 'readonly', setInterval: 'readonly' },
    },
  },
  // 1. domain/ is pure: only domain/ and zod. No I/O, no env, no clock.
  {
    files: ['domain/**/*.ts'],
    rules: {
      ...restrict([
        { regex: '^(?!zod$)(?!\\.{1,2}/)', message: 'domain/ imports only domain/ and zod' },
        {
          group: [
            ...layer('adapters'),
            ...layer('db'),
            ...layer('activities'),
            ...layer('workflows'),
            ...layer('api'),
            ...layer('workers'),
            ...layer('config'),
            ...layer('cli'),
          ],
          message: 'domain/ imports only domain/ and zod',
        },
      ]),
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'domain/ reads no environment' },
        { name: 'fetch', message: 'domain/ does no I/O' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'domain/ has no clock: pass `now` in',
        },
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'domain/ has no clock: pass `now` in',
        },
      ],
    },
  },
  // The audit's domain rule needs the Public Suffix List: tldts is that list compiled into code (pure, no I/O).
  {
    files: ['domain/validation/audit-domain.ts'],
    rules: restrict([
      { regex: '^(?!zod$)(?!tldts$)(?!\\.{1,2}/)', message: 'domain/ imports only domain/ and zod (and tldts here)' },
      {
        group: [
          ...layer('adapters'),
          ...layer('db'),
          ...layer('activities'),
          ...layer('workflows'),
          ...layer('api'),
          ...layer('workers'),
          ...layer('config'),
          ...layer('cli'),
        ],
        message: 'domain/ imports only domain/ and zod',
      },
    ]),
  },
  // 2. workflows/ import @temporalio/workflow, domain/ and (type-only) activities/. Nothing from Node.
  {
    files: ['workflows/**/*.ts'],
    rules: restrict([
      {
        regex: '^(?!@temporalio/workflow$)(?!\\.{1,2}/)',
        message: 'workflows/ import only @temporalio/workflow, domain/ and types of activities/',
      },
      {
        group: [
          ...layer('adapters'),
          ...layer('db'),
          ...layer('api'),
          ...layer('workers'),
          ...layer('config'),
          ...layer('cli'),
          ...NODE_BUILTINS,
        ],
        message: 'workflows/ import only @temporalio/workflow, domain/ and types of activities/',
      },
      {
        group: layer('activities'),
        allowTypeImports: true,
        message: 'workflows/ may only `import type` from activities/',
      },
    ]),
  },
  // 3. activities/ use domain/, adapters/, db/ (never the API).
  {
    files: ['activities/**/*.ts'],
    rules: restrict([
      {
        group: [
          ...layer('api'),
          ...layer('workflows'),
          ...layer('workers'),
          ...layer('config'),
          ...layer('cli'),
          'koa',
          '@koa/*',
        ],
        message: 'activities/ use domain/, adapters/ and db/ only',
      },
    ]),
  },
  // 4. adapters/ and db/ never import Temporal or Koa (nor the layers above them).
  {
    files: ['adapters/**/*.ts', 'db/**/*.ts'],
    ignores: ['adapters/infra/temporal-dev-server.ts'],
    rules: restrict([BELOW_SERVICES]),
  },
  // Repositories do data access only (rule 5b): a business refusal (a limit, a state rule, a conflict a user can act on,
  // the not-found of a row a caller asked for) is decided in services/ from what the repository returns. A guard that
  // must be atomic stays in the repository's statement and comes back as data: the wallet's reservation moves the
  // balances only when `available` covers them and answers whether it did, which services/processing/credits.ts turns
  // into `insufficient_credits`. No file is exempt.
  {
    files: ['db/repositories/**/*.ts'],
    rules: restrict([
      BELOW_SERVICES,
      {
        group: ['**/domain/errors.js'],
        message: 'repositories return data (null, a count, a marker such as "taken"); services/ decide and throw',
      },
    ]),
  },
  // The dev-server launcher checks readiness with the Temporal client's health service; it is still no Koa.
  {
    files: ['adapters/infra/temporal-dev-server.ts'],
    rules: restrict([
      {
        group: [
          '@temporalio/workflow',
          '@temporalio/activity',
          '@temporalio/worker',
          'koa',
          '@koa/*',
          ...ABOVE_ADAPTERS,
        ],
        message: 'infrastructure launchers use only the Temporal client',
      },
    ]),
  },
  // 5. api/ never imports activities/; it calls services/, which start and query workflows through one client module
  //    (services/workflows/workflow-client.ts).
  {
    files: ['api/**/*.ts'],
    ignores: ['api/main.ts'],
    rules: restrict([
      {
        group: [
          ...layer('activities'),
          ...layer('workers'),
          ...layer('cli'),
          '@temporalio/worker',
          '@temporalio/activity',
          '@temporalio/client',
        ],
        message:
          'api/ reaches Temporal only through services/ (services/workflows/workflow-client.ts) and never imports activities/',
      },
      CONFIG_TYPES_ONLY,
    ]),
  },
  // services/ is the application layer: plain functions over domain/, adapters/ and db/, no HTTP (no Koa, no api/),
  // no activities; only its one client module (services/workflows/) talks to Temporal.
  {
    files: ['services/**/*.ts'],
    ignores: ['services/workflows/**/*.ts'],
    rules: restrict([
      {
        group: [...NOT_FROM_SERVICES, '@temporalio/*'],
        message: 'services/ do no HTTP and reach Temporal only through services/workflows/',
      },
      CONFIG_TYPES_ONLY,
    ]),
  },
  {
    files: ['services/workflows/**/*.ts'],
    rules: restrict([
      {
        group: [...NOT_FROM_SERVICES, '@temporalio/worker', '@temporalio/activity'],
        message: 'the workflow client module uses the Temporal client only',
      },
      CONFIG_TYPES_ONLY,
    ]),
  },
  // 5a. cli/ and workers/ call services/, never api/ (the all-in-one entry point starts the API: it composes, it
  //     calls no handler).
  {
    files: ['cli/**/*.ts', 'workers/**/*.ts'],
    ignores: ['cli/all-in-one.ts'],
    rules: restrict([{ group: layer('api'), message: 'cli/ and workers/ call services/, never api/' }]),
  },
  // 5a. bench/ never imports test/ (nor does support/, which both use): what both need lives in support/ (sample
  //     material, accuracy measures, local chains and harnesses).
  //     bench/ reaches api/ through ONE module, bench/lib/http-stack.ts: the HTTP benches measure the app's own HTTP
  //     stack (issue 31 item 5's baseline is that stack, with the same authentication and idempotency middleware,
  //     doing one INSERT), so building the app and mounting a route behind its guards is what they need of api/ and
  //     all they get; a business operation (a job, a workflow start, a worker) comes from services/ or workers/.
  //     support/ imports no api/ at all: it is shared by test/ and bench/, and an HTTP app composed there would be a
  //     second door into api/; what composes api/ for tests (the paid test route) is in test/helpers/.
  {
    files: ['bench/**/*.ts'],
    ignores: ['bench/lib/http-stack.ts'],
    rules: restrict([
      {
        group: layer('test'),
        message: 'bench/ and support/ never import test/: move what both need into support/',
      },
      {
        group: layer('api'),
        message:
          'bench/ reaches api/ only through bench/lib/http-stack.ts (the app and its middleware); business operations come from services/ or workers/',
      },
    ]),
  },
  {
    files: ['bench/lib/http-stack.ts'],
    rules: restrict([
      {
        group: layer('test'),
        message: 'bench/ and support/ never import test/: move what both need into support/',
      },
    ]),
  },
  {
    files: ['support/**/*.ts'],
    rules: restrict([
      {
        group: layer('test'),
        message: 'bench/ and support/ never import test/: move what both need into support/',
      },
      {
        group: layer('api'),
        message:
          'support/ (shared by test/ and bench/) composes no HTTP app: bench/ uses bench/lib/http-stack.ts, tests test/helpers/',
      },
    ]),
  },
  // 6. Only entry points (api/main.ts, workers/main.ts, cli/*) read config and build deps.
  {
    files: [
      'workers/**/*.ts',
      'activities/**/*.ts',
      'adapters/**/*.ts',
      'db/**/*.ts',
      'domain/**/*.ts',
      'workflows/**/*.ts',
    ],
    ignores: ['workers/main.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'only entry points read the environment (config/schema.ts loadConfig)',
        },
      ],
    },
  },
  // 5. No interface folder of api/ imports another's (noCrossInterfaceImports above).
  {
    files: ['api/**/*.ts'],
    plugins: { paycore: { rules: { 'no-cross-interface-imports': noCrossInterfaceImports } } },
    rules: { 'paycore/no-cross-interface-imports': 'error' },
  },
  // Every router of the app comes from api/http/router.ts (case-sensitive matching, ids checked where parsed):
  // a router made with `new Router` would let a case-changed path skip the guards mounted before its routes.
  {
    files: ['api/**/*.ts', 'test/**/*.ts'],
    ignores: ['api/http/router.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Router']",
          message: 'make routers with createRouter() from api/http/router.ts',
        },
      ],
    },
  },
  {
    files: ['adapters/infra/temporal-cli.ts'],
    rules: { 'no-restricted-properties': 'off' }, // PATH, HOME and XDG_CACHE_HOME locate tools, they are not config
  },
  {
    files: ['test/**/*.ts', 'support/**/*.ts', 'bench/**/*.ts', 'cli/**/*.ts', 'examples/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  // 7. web/ (the dashboard, a browser app) imports nothing from the server folders nor Node; it talks to the session
  //    routes over HTTP only. React's rules of hooks apply. Its build config runs in Node and may use it.
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...restrict([
        {
          group: [
            ...layer('domain'),
            ...layer('adapters'),
            ...layer('db'),
            ...layer('activities'),
            ...layer('workflows'),
            ...layer('api'),
            ...layer('workers'),
            ...layer('config'),
            ...layer('cli'),
            ...NODE_BUILTINS,
          ],
          message: 'web/ talks to the server over HTTP only (and runs in the browser)',
        },
      ]),
    },
  },
  {
    files: ['web/vite.config.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
