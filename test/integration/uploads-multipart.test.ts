import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { startTestApp, testConfig } from '../helpers/app.js';
import { capturingLogger } from '../helpers/logs.js';
import { Conformance, obj, type Obj } from '../helpers/openapi-conformance.js';
import { createCompany, issueCompanyKey } from '../../services/company/memberships.js';

/**
 * Every shape a multipart upload can take on the wire, sent as raw bytes so the shape is exactly what the test
 * says: each is answered promptly (the answer is awaited with a generous deadline, never timed), in the /v1
 * error shape of the OpenAPI document, and stores nothing (no upload row, no stored file, no temporary file).
 */

type App = Awaited<ReturnType<typeof startTestApp>>;
interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

let tdb: TestDatabase;
let app: App;
let c: Conformance;
const logs = capturingLogger();
const storageDir = mkdtempSync(join(tmpdir(), 'uploads-mp-'));
const keys = { bad: '', good: '' };
const companies = { bad: '', good: '' };
let seq = 0;

const LIMITS = { UPLOAD_MAX_FILES: '3', UPLOAD_MAX_REQUEST_MB: '1', COMPANY_STORAGE_MB: '20' };
/** Long enough for any loaded machine; a request that is never answered fails here instead of hanging the run. */
const DEADLINE_MS = 60_000;

async function company(): Promise<{ id: string; key: string }> {
  const { company: co, owner } = await createCompany(tdb.db, {
    name: `Multipart${++seq}`,
    ownerEmail: `mp${seq}@example.com`,
  });
  const key = (
    await issueCompanyKey(
      tdb.db,
      { companyId: co.id, memberId: owner.id, name: 'k', scopes: ['read', 'write'] },
      new Date(),
    )
  ).secret;
  return { id: co.id, key };
}

beforeAll(async () => {
  tdb = await createTestDatabase();
  app = await startTestApp({
    db: tdb.db,
    logger: logs.logger,
    config: testConfig({ STORAGE_DIR: storageDir, ...LIMITS }),
  });
  const bad = await company();
  const good = await company();
  Object.assign(keys, { bad: bad.key, good: good.key });
  Object.assign(companies, { bad: bad.id, good: good.id });
  c = new Conformance((await (await fetch(`${app.url}/v1/openapi.json`)).json()) as Obj);
});
afterAll(async () => {
  await app?.close();
  await tdb?.drop();
});

// ---- the wire ----------------------------------------------------------------------------------------------

const BOUNDARY = 'paycoreTestBoundary7MA4YWxkTrZu0gW';

/** One part: its Content-Disposition (and Content-Type, if any), then its bytes. */
function part(disposition: string, content: Buffer | string, type?: string): Buffer {
  const head = `Content-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`;
  return Buffer.concat([Buffer.from(head), Buffer.from(content)]);
}
const file = (name: string, content: Buffer | string, field = 'files') =>
  part(`form-data; name="${field}"; filename="${name}"`, content, 'application/octet-stream');
const field = (name: string, value: string) => part(`form-data; name="${name}"`, value);
function multipart(parts: Buffer[], boundary = BOUNDARY): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) chunks.push(Buffer.from(`--${boundary}\r\n`), p, Buffer.from('\r\n'));
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
const MULTIPART = `multipart/form-data; boundary=${BOUNDARY}`;

/** Reads one HTTP/1.1 answer off a socket: resolves when its body is complete, or with what came when it closes. */
function readAnswer(socket: Socket): Promise<Answer | null> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    let head: { status: number; headers: Record<string, string>; bodyAt: number } | null = null;
    const done = () => {
      socket.off('data', onData);
      if (!head) return resolve(null);
      const length = head.headers['content-length'];
      const body = buf.subarray(head.bodyAt, length === undefined ? undefined : head.bodyAt + Number(length));
      resolve({ status: head.status, headers: head.headers, body });
    };
    const onData = (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (!head) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const [statusLine, ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
        const headers: Record<string, string> = {};
        for (const line of lines) {
          const i = line.indexOf(':');
          headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
        }
        head = { status: Number(statusLine!.split(' ')[1]), headers, bodyAt: end + 4 };
      }
      const length = head.headers['content-length'];
      if (length !== undefined && buf.length - head.bodyAt >= Number(length)) done();
    };
    socket.on('data', onData);
    socket.once('close', done);
    socket.on('error', () => undefined); // a reset after the answer is read is not the test's concern
  });
}

/** Awaits `p`, failing with a clear message if the server has not answered within the deadline. */
async function promptly<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${DEADLINE_MS / 1000} s`)), DEADLINE_MS);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` until it holds, with the same generous deadline. */
async function eventually(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const until = Date.now() + DEADLINE_MS;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: not reached within ${DEADLINE_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Send {
  body: Buffer;
  contentType?: string | null;
  /** Defaults to the body's length; null sends the body chunked. */
  contentLength?: number | null;
  headers?: Record<string, string>;
  key?: string;
  /** 'wait' keeps the connection open for the answer; 'half-close' ends the client's side after the body. */
  then?: 'wait' | 'half-close';
  target?: App;
}

/** Opens a connection, writes the request head and body as given, and returns the socket and its answer. */
async function send(s: Send): Promise<{ socket: Socket; answer: Promise<Answer | null> }> {
  const target = s.target ?? app;
  const socket = connect(target.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const answer = readAnswer(socket);
  const chunked = s.contentLength === null;
  const head = [
    'POST /v1/uploads HTTP/1.1',
    `Host: 127.0.0.1:${target.port}`,
    `Authorization: Bearer ${s.key ?? keys.bad}`,
    ...(s.contentType === null ? [] : [`Content-Type: ${s.contentType ?? MULTIPART}`]),
    chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${s.contentLength ?? s.body.length}`,
    ...Object.entries(s.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
  socket.write(`${head}\r\n\r\n`);
  if (chunked) {
    if (s.body.length)
      socket.write(Buffer.concat([Buffer.from(`${s.body.length.toString(16)}\r\n`), s.body, Buffer.from('\r\n')]));
    if (s.then !== 'half-close') socket.write('0\r\n\r\n');
  } else {
    socket.write(s.body);
  }
  if (s.then === 'half-close') socket.end();
  return { socket, answer };
}

/** Sends, waits for the answer, closes, and checks the answer against the document. */
async function exchange(s: Send, what: string): Promise<Answer & { json: Obj }> {
  const { socket, answer } = await send(s);
  const got = await promptly(answer, what);
  socket.destroy();
  expect(got, `${what}: the connection closed without an answer`).not.toBeNull();
  const { status, headers, body } = got!;
  const checked = await c.check('POST /v1/uploads', new Response(new Uint8Array(body), { status, headers }));
  return { status, headers, body, json: obj(checked) };
}

// ---- what is stored ----------------------------------------------------------------------------------------

const tmpDir = join(storageDir, 'tmp');
const tempFiles = () => (existsSync(tmpDir) ? readdirSync(tmpDir) : []);
const storedFiles = () =>
  readdirSync(storageDir, { recursive: true, withFileTypes: true }).filter(
    (d) => d.isFile() && !d.parentPath.endsWith('tmp'),
  ).length;
const uploadRows = async (companyId = companies.bad) =>
  Number(
    (await tdb.db('uploads').where({ company_id: companyId }).count<Array<{ count: string }>>('* as count'))[0]!.count,
  );

async function expectNothingStored(storedBefore: number): Promise<void> {
  expect(await uploadRows()).toBe(0);
  expect(storedFiles()).toBe(storedBefore);
  expect(tempFiles()).toEqual([]);
}

/** How many POST /v1/uploads the app has finished handling (its request log line is written when it settles). */
const handled = (target = logs) =>
  target.lines.filter((l) => {
    const line = JSON.parse(l) as { msg?: string; path?: string; method?: string };
    return line.msg === 'request' && line.path === '/v1/uploads' && line.method === 'POST';
  }).length;

/** A 422 that names `name` in its detail and carries the /v1 error body. */
function expect422Naming(a: Answer & { json: Obj }, name: string, what: string): void {
  expect(a.status, `${what}: ${a.body.toString()}`).toBe(422);
  expect(a.json, what).toMatchObject({
    code: 'validation_failed',
    detail: expect.stringContaining(`"${name}"`),
    request_id: expect.any(String),
  });
}

describe('POST /v1/uploads: a part that is not a file in "files"', () => {
  it('a form field before the file is refused with 422 naming the field, promptly, storing nothing', async () => {
    const before = storedFiles();
    const a = await exchange({ body: multipart([field('x', 'hello'), file('a.txt', 'some text')]) }, 'field first');
    expect422Naming(a, 'x', 'field first');
    const after = await exchange(
      { body: multipart([file('a.txt', 'some text'), field('note', 'later')]) },
      'field after a file',
    );
    expect422Naming(after, 'note', 'field after a file');
    await expectNothingStored(before);
  });

  it('an empty-named field, or a part with no name at all, is refused with 422', async () => {
    const before = storedFiles();
    const empty = await exchange(
      { body: multipart([field('', 'hello'), file('a.txt', 'some text')]) },
      'empty-named field',
    );
    expect422Naming(empty, '', 'empty-named field');
    const nameless = await exchange(
      { body: multipart([part('form-data', 'hello'), file('a.txt', 'some text')]) },
      'nameless part',
    );
    expect422Naming(nameless, '', 'nameless part');
    await expectNothingStored(before);
  });

  it('a file under another field name is refused with 422 naming that field, also after a good file', async () => {
    const before = storedFiles();
    const alone = await exchange({ body: multipart([file('a.txt', 'some text', 'doc')]) }, 'file under "doc"');
    expect422Naming(alone, 'doc', 'file under "doc"');
    const second = await exchange(
      { body: multipart([file('a.txt', 'some text'), file('b.txt', 'more text', 'attachment')]) },
      'second file misnamed',
    );
    expect422Naming(second, 'attachment', 'second file misnamed');
    await expectNothingStored(before);
  });

  it('a plain "files" form field (no filename) is not a file: 422 naming "files"', async () => {
    const before = storedFiles();
    for (const [what, p] of [
      ['plain field', part('form-data; name="files"', 'just text')],
      ['plain field typed as octet-stream', part('form-data; name="files"', 'just text', 'application/octet-stream')],
      ['empty filename', part('form-data; name="files"; filename=""', 'just text', 'application/octet-stream')],
    ] as const) {
      const a = await exchange({ body: multipart([p]) }, what);
      expect422Naming(a, 'files', what);
      expect(String(a.json['detail']), what).toMatch(/filename/);
    }
    await expectNothingStored(before);
  });
});

describe('POST /v1/uploads: bodies that are not well-formed multipart', () => {
  it('a body cut short (shorter than its Content-Length, or chunked without its end), then the client ends its side: answered, nothing stored', async () => {
    const before = storedFiles();
    const body = multipart([file('a.txt', 'some text '.repeat(200))]);
    const cut = body.subarray(0, body.length - 300);
    for (const [what, contentLength] of [
      ['shorter than its Content-Length', body.length],
      ['chunked, without its last chunk', null],
    ] as const) {
      const handledBefore = handled();
      const { socket, answer } = await send({ body: cut, contentLength, then: 'half-close' });
      const got = await promptly(answer, what);
      socket.destroy();
      // The HTTP server sees the message end early and answers it itself (400, no body, connection closed) before
      // the app can; the upload handler, its request aborted, stops and cleans up.
      expect(got, what).toMatchObject({ status: 400, headers: { connection: 'close' } });
      await eventually(() => handled() > handledBefore, `${what}: the upload handler settled`);
      await expectNothingStored(before);
    }
  });

  it('no boundary, a malformed Content-Type or none at all is refused with 415', async () => {
    const before = storedFiles();
    const body = multipart([file('a.txt', 'some text')]);
    for (const contentType of [
      'multipart/form-data',
      'multipart/form-data; boundary=',
      'multipart/form-data; boundary="unterminated',
      'multipart/form-data; charset=utf-8',
      'multipart',
      'text/plain',
      null,
    ]) {
      const a = await exchange({ body, contentType }, `Content-Type ${contentType}`);
      expect(a.status, `${contentType}: ${a.body.toString()}`).toBe(415);
      expect(a.json).toMatchObject({
        code: 'unsupported_media_type',
        detail: expect.stringContaining('multipart/form-data'),
      });
    }
    await expectNothingStored(before);
  });

  it('garbage instead of multipart, or a broken part header, is refused with 422', async () => {
    const before = storedFiles();
    const cases: Array<[string, Buffer]> = [
      ['random bytes', randomBytes(4096)],
      ['text without the boundary', Buffer.from('hello world\r\n'.repeat(50))],
      ['empty body', Buffer.alloc(0)],
      ['only the closing delimiter', Buffer.from(`--${BOUNDARY}--\r\n`)],
      [
        'a part header without a colon',
        Buffer.from(`--${BOUNDARY}\r\nthis is not a header\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`),
      ],
      ['a part with no headers', Buffer.from(`--${BOUNDARY}\r\n\r\nabc\r\n--${BOUNDARY}--\r\n`)],
    ];
    for (const [what, body] of cases) {
      const a = await exchange({ body }, what);
      expect(a.status, `${what}: ${a.body.toString()}`).toBe(422);
      expect(a.json, what).toMatchObject({ code: 'validation_failed', detail: expect.any(String) });
    }
    const chunked = await exchange({ body: randomBytes(70_000), contentLength: null }, 'chunked garbage');
    expect(chunked.status).toBe(422);
    await expectNothingStored(before);
  });

  it('a client that aborts mid-file leaves no temporary file and no pending handler', async () => {
    const before = storedFiles();
    const handledBefore = handled();
    const body = multipart([file('big.txt', Buffer.alloc(900_000, 'z'))]);
    const { socket } = await send({ body: body.subarray(0, 200_000), contentLength: body.length });
    await eventually(() => tempFiles().length === 1, 'the file is being received');
    socket.destroy();
    await eventually(() => tempFiles().length === 0, 'the temporary file is removed');
    await eventually(() => handled() > handledBefore, 'the upload handler settled');
    await expectNothingStored(before);
  });
});

describe('POST /v1/uploads: limits', () => {
  it('too many files: 413, promptly, storing nothing', async () => {
    const before = storedFiles();
    const a = await exchange(
      { body: multipart(['a', 'b', 'c', 'd'].map((n) => file(`${n}.txt`, `file ${n}`))) },
      'four files',
    );
    expect(a.status).toBe(413);
    expect(a.json).toMatchObject({ code: 'payload_too_large', detail: expect.stringContaining('3 files') });
    await expectNothingStored(before);
  });

  it('over the request size, declared or streamed, in a file or in a form field: 413 (or the connection closed), storing nothing', async () => {
    const before = storedFiles();
    const big = multipart([file('big.txt', Buffer.alloc(1_100_000, 'a'))]);
    for (const [what, s] of [
      ['a file over the limit', { body: big }],
      ['a file over the limit, chunked', { body: big, contentLength: null }],
      ['a declared length far over the limit', { body: Buffer.alloc(0), contentLength: 50_000_000 }],
      [
        'a form field over the request limit, chunked',
        { body: multipart([field('x', 'b'.repeat(2_500_000))]), contentLength: null },
      ],
    ] as Array<[string, Send]>) {
      const { socket, answer } = await send(s);
      const got = await promptly(answer, what);
      socket.destroy();
      // The server stops reading once past a limit; a client still writing may see the connection close first.
      if (got) {
        expect(got.status, `${what}: ${got.body.toString()}`).toBe(413);
        expect(JSON.parse(got.body.toString())).toMatchObject({
          code: 'payload_too_large',
          detail: expect.any(String),
        });
      }
      await eventually(() => tempFiles().length === 0, `${what}: no temporary file`);
    }
    await expectNothingStored(before);
  });
});

describe('POST /v1/uploads: Content-Encoding', () => {
  it('a content-encoded body is refused with 415, whether its bytes decode or not; identity is accepted', async () => {
    const before = storedFiles();
    const body = multipart([file('a.txt', 'some text')]);
    for (const [what, encoding, bytes] of [
      ['valid gzip', 'gzip', gzipSync(body)],
      ['corrupt gzip', 'gzip', Buffer.concat([gzipSync(body).subarray(0, 20), randomBytes(40)])],
      ['not gzip at all', 'gzip', body],
      ['deflate', 'deflate', randomBytes(64)],
      ['br', 'br', randomBytes(64)],
      ['an unknown coding', 'x-paycore', body],
    ] as const) {
      const a = await exchange({ body: bytes, headers: { 'Content-Encoding': encoding } }, what);
      expect(a.status, `${what}: ${a.body.toString()}`).toBe(415);
      expect(a.json).toMatchObject({
        code: 'unsupported_media_type',
        detail: expect.stringContaining('Content-Encoding'),
      });
    }
    await expectNothingStored(before);

    const identity = await exchange({ body, headers: { 'Content-Encoding': 'identity' }, key: keys.good }, 'identity');
    expect(identity.status).toBe(201);
    expect(await uploadRows(companies.good)).toBe(1);
  });
});

describe('POST /v1/uploads: the raw client itself', () => {
  it('a well-formed body of two files, sent the same way, is stored (201)', async () => {
    const a = await exchange(
      { body: multipart([file('one.txt', 'first file'), file('two.txt', 'second file')]), key: keys.good },
      'two files',
    );
    expect(a.status).toBe(201);
    expect((a.json['uploads'] as Array<{ filename: string }>).map((u) => u.filename)).toEqual(['one.txt', 'two.txt']);
  });
});

describe('graceful shutdown and uploads', () => {
  it('an upload with a field before its file is answered and does not hold a drain', async () => {
    const own = await startTestApp({
      db: tdb.db,
      logger: capturingLogger().logger,
      config: testConfig({ STORAGE_DIR: mkdtempSync(join(tmpdir(), 'uploads-drain-')), ...LIMITS }),
    });
    try {
      const received = new Promise((resolve) => own.server.once('request', resolve));
      const { socket, answer } = await send({
        body: multipart([field('x', 'hello'), file('a.txt', 'some text')]),
        target: own,
      });
      await promptly(received, 'the request reaching the server');
      // A grace far longer than the test may run: the drain ends only because the request is answered.
      const drained = own.drain(600_000);
      const got = await promptly(answer, 'field first while draining');
      socket.destroy();
      expect(got?.status).toBe(422);
      await promptly(drained, 'the drain');
    } finally {
      await own.close();
    }
  });

  it('an upload stalled mid-file is cut at the end of the grace, and its temporary file removed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'uploads-drain-'));
    const ownLogs = capturingLogger();
    const own = await startTestApp({
      db: tdb.db,
      logger: ownLogs.logger,
      config: testConfig({ STORAGE_DIR: dir, ...LIMITS }),
    });
    const temps = () => (existsSync(join(dir, 'tmp')) ? readdirSync(join(dir, 'tmp')) : []);
    try {
      const body = multipart([file('big.txt', Buffer.alloc(900_000, 'z'))]);
      const { socket } = await send({ body: body.subarray(0, 200_000), contentLength: body.length, target: own });
      await eventually(() => temps().length === 1, 'the file is being received');
      // The client stays silent forever: whatever the grace, the drain ends by closing its connection.
      await promptly(own.drain(100), 'the drain');
      socket.destroy();
      await eventually(() => temps().length === 0, 'the temporary file is removed');
      await eventually(() => handled(ownLogs) === 1, 'the upload handler settled');
      expect(await uploadRows()).toBe(0);
    } finally {
      await own.close();
    }
  });
});
