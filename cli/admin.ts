// Operator CLI: `npm run admin -- <command> [--flag value ...]`. See README "Operator commands".
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/schema.js';
import { DomainError } from '../domain/errors.js';
import { configuredSecretBox } from '../adapters/crypto/secrets-key-file.js';
import { startEmbeddedPostgres } from '../adapters/infra/embedded-postgres.js';
import { silentProgress } from '../adapters/infra/progress.js';
import { createDb } from '../db/connection.js';
import { migrateLatest } from '../db/migrate.js';
import { getDelivery, listAttempts } from '../db/repositories/webhooks.repo.js';
import { connectWorkflowGateway } from '../services/workflows/workflow-client.js';
import {
  companiesCreate,
  companiesShow,
  creditsGrant,
  keysCreate,
  keysList,
  keysRevoke,
  membersAdd,
  membersRemove,
  webhooksSendTest,
  waitForFirstAttempt,
} from './admin-commands.js';
import {
  invoicesVoid,
  merchantsCreate,
  merchantsPlan,
  merchantsShow,
  merchantsSuspend,
  walletsAdd,
  walletsDuplicates,
  walletsRelease,
} from './merchant-commands.js';
import { companyAdminsCreate, readStdin, usersCreate, usersPassword } from './user-commands.js';
import { secretsReseal, secretsStatus } from './secrets-commands.js';
import { batchesRetryFailed, batchesShow } from './batch-commands.js';
import { createFileStore } from '../adapters/storage/file-store.js';
import { qpdfOptions, videoWorkPolicy } from '../services/processing/estimate.js';

const USAGE = `usage: npm run admin -- <command> [flags]

  companies:create  --name <name> --owner-email <email>     (owner is a billing administrator; 1,000 trial credits)
  companies:show    --company <id>                          (balance, members, recent ledger)
  members:add       --company <id> --email <email> [--role member|billing_admin]
  members:remove    --company <id> --member <member id>     (revokes the member's keys and open invitations)
  company-admins:create --company <id> --email <email> [--password-stdin]   (billing administrator who signs in at /api/company/session; without --password-stdin a password is generated and shown once)
  credits:grant     --company <id> --amount <credits> [--reason <text>]
  merchants:create  --name <name> [--trial false]             (/proof merchant; its 7-day trial starts now unless --trial false)
  merchants:show    --merchant <id>                         (plan, limits, wallets, keys)
  merchants:plan    --merchant <id> --plan starter|business|pro [--days 30]   (records a paid plan period)
  merchants:suspend --merchant <id>    merchants:activate --merchant <id>
  wallets:add       --merchant <id> --network <network> --address <address> [--label <text>]   (a verified receiving wallet; refused when another account receives at the address)
  wallets:duplicates                                        (wallets on hold because several shared one address; docs/operations.md)
  wallets:release   --wallet <wallet id>                    (the one wallet that receives at its address again; refused while another does)
  users:create      --merchant <id> --email <email> [--password-stdin]   (dashboard user; without --password-stdin a password is generated and shown once)
  users:password    --email <email> [--password-stdin]      (new password; ends the user's sessions)
  invoices:void     <invoice id> [--reason <text>]          (voids an issued invoice through invoice:<id>; exit 1 if not found or already paid)
  keys:create   --interface v1|proof --tenant <company or merchant id> --name <name> [--scopes read,write] [--expires-at <unix s>] [--owner <member id, required for v1>]
  keys:list     --interface v1|proof --tenant <id>
  keys:revoke   --interface v1|proof --tenant <id> --id <key id>
  webhooks:send-test --url <https url> [--interface proof|v1] [--tenant <id>] [--wait]
  deliveries:show --id <delivery id>
  batches:show <batch id>                                   (/v1 batch: progress, credits, every child, retries; its workflow id)
  batches:retry-failed <batch id> [--again]                 (new batch of the failed items, retry_of the original; --again if already retried)
  secrets:status                                            (key ids of SECRETS_KEY / SECRETS_KEYS_PREVIOUS, stored sealed values per key id)
  secrets:reseal                                            (seals every stored secret again under SECRETS_KEY; safe while the platform runs; exit 1 if a value opens with no configured key)

Uses DATABASE_URL / TEMPORAL_ADDRESS when set, else the embedded PostgreSQL and the Temporal dev server of a
running \`bash scripts/start.sh\`.`;

const STRING_FLAGS = [
  'merchant',
  'plan',
  'days',
  'trial',
  'network',
  'address',
  'label',
  'interface',
  'tenant',
  'name',
  'scopes',
  'expires-at',
  'owner',
  'id',
  'url',
  'owner-email',
  'company',
  'email',
  'role',
  'member',
  'amount',
  'reason',
  'wallet',
];
const [command, ...rest] = process.argv.slice(2);
/** Commands that take one positional argument (the rest take flags only). */
const POSITIONAL: Readonly<Record<string, string>> = {
  'invoices:void': 'invoice',
  'batches:show': 'batch',
  'batches:retry-failed': 'batch',
};
let values: Record<string, string | boolean | undefined>;
try {
  let positionals: string[];
  ({ values, positionals } = parseArgs({
    args: rest,
    options: {
      ...Object.fromEntries(STRING_FLAGS.map((k) => [k, { type: 'string' as const }])),
      wait: { type: 'boolean' as const },
      again: { type: 'boolean' as const },
      'password-stdin': { type: 'boolean' as const },
    },
    strict: true,
    allowPositionals: true,
  }));
  const positional = command ? POSITIONAL[command] : undefined;
  if (positionals.length > (positional ? 1 : 0)) throw new Error(`unexpected argument '${positionals.at(-1)}'`);
  if (positional && positionals[0]) values[positional] = positionals[0];
} catch (e) {
  process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
  process.exit(2);
}
const flags = Object.fromEntries(
  Object.entries(values).map(([k, v]) => [k, typeof v === 'string' ? v : v ? 'true' : undefined]),
);

const config = loadConfig();
const pg = config.database.url
  ? null
  : await startEmbeddedPostgres({
      dataDir: join(config.dataDir, 'postgres'),
      port: config.database.embeddedPort,
      database: 'paycore',
      progress: silentProgress,
    });
const db = createDb(config.database.url ?? pg!.url, {
  poolMax: 4,
  applicationName: 'paycore-admin',
  timeouts: config.database.timeouts,
});
const print = (v: unknown) => process.stdout.write(`${JSON.stringify(v, null, 2)}\n`);
let exitCode = 0;
try {
  await migrateLatest(db);
  const now = new Date();
  switch (command) {
    case 'keys:create':
      print(await keysCreate(db, flags, now));
      break;
    case 'companies:create':
      print(await companiesCreate(db, flags));
      break;
    case 'companies:show':
      print(await companiesShow(db, flags));
      break;
    case 'members:add':
      print(await membersAdd(db, flags));
      break;
    case 'members:remove':
      print(await membersRemove(db, flags, now));
      break;
    case 'credits:grant':
      print(await creditsGrant(db, flags));
      break;
    case 'merchants:create':
      print(await merchantsCreate(db, flags, now));
      break;
    case 'merchants:show':
      print(await merchantsShow(db, flags, now));
      break;
    case 'merchants:plan':
      print(await merchantsPlan(db, flags, now));
      break;
    case 'merchants:suspend':
    case 'merchants:activate':
      print(await merchantsSuspend(db, flags, command === 'merchants:suspend' ? 'suspended' : 'active'));
      break;
    case 'wallets:add':
      print(await walletsAdd(db, flags, now));
      break;
    case 'wallets:duplicates':
      print(await walletsDuplicates(db));
      break;
    case 'wallets:release':
      print(await walletsRelease(db, flags));
      break;
    case 'users:create':
      print(await usersCreate(db, flags, now, readStdin));
      break;
    case 'company-admins:create':
      print(await companyAdminsCreate(db, flags, now, readStdin));
      break;
    case 'users:password':
      print(await usersPassword(db, flags, now, readStdin));
      break;
    case 'keys:list':
      print(await keysList(db, flags));
      break;
    case 'keys:revoke':
      print(await keysRevoke(db, flags, now));
      break;
    case 'webhooks:send-test': {
      const secretBox = configuredSecretBox(config);
      const result = await webhooksSendTest(db, secretBox, flags, now, {
        allowLoopbackForTests: config.webhooks.allowLoopbackForTests,
        privateDestinations: config.webhooks.privateDestinations,
      });
      print({ ...result, notice: 'The signing secret is shown once.' });
      if (flags['wait']) print(await waitForFirstAttempt(db, result.delivery_id));
      break;
    }
    case 'invoices:void': {
      const address = config.temporal.address ?? `127.0.0.1:${config.temporal.devPort}`;
      const gw = await connectWorkflowGateway({
        address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
      });
      try {
        const outcome = await invoicesVoid(db, gw, flags);
        print(outcome);
        if (outcome.outcome === 'already_paid' || outcome.outcome === 'not_found') exitCode = 1;
      } finally {
        await gw.close();
      }
      break;
    }
    case 'secrets:status':
      print(await secretsStatus(db, configuredSecretBox(config)));
      break;
    case 'secrets:reseal': {
      const report = await secretsReseal(db, configuredSecretBox(config));
      print(report);
      if (report.unreadable > 0) exitCode = 1;
      break;
    }
    case 'batches:show':
      print(await batchesShow(db, flags));
      break;
    case 'batches:retry-failed': {
      const address = config.temporal.address ?? `127.0.0.1:${config.temporal.devPort}`;
      const gw = await connectWorkflowGateway({
        address,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.taskQueue,
      });
      try {
        print(
          await batchesRetryFailed(
            {
              db,
              store: createFileStore(config.storage.dir),
              qpdf: qpdfOptions(config.media),
              ocrLanguages: config.media.ocr.languages,
              video: videoWorkPolicy(config.media),
              secretBox: configuredSecretBox(config),
              workflows: gw,
            },
            flags,
          ),
        );
      } finally {
        await gw.close();
      }
      break;
    }
    case 'deliveries:show': {
      const id = flags['id'];
      const delivery = id ? await getDelivery(db, id) : null;
      if (!delivery) throw new DomainError('not_found', 'no such delivery');
      print({ delivery, attempts: await listAttempts(db, delivery.id) });
      break;
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      exitCode = command ? 2 : 0;
  }
} catch (e) {
  process.stderr.write(`error: ${e instanceof DomainError ? e.message : e instanceof Error ? e.message : String(e)}\n`);
  exitCode = 1;
} finally {
  await db.destroy();
  await pg?.stop();
}
process.exit(exitCode);
