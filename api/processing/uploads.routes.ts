import { setMaxListeners } from 'node:events';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import type { MediaToolOptions } from '../../adapters/media/av/media-process.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import { uploadJson } from '../../services/processing/records.js';
import { companyUpload, deleteUpload, storeUploads } from '../../services/processing/uploads.js';
import type { AppContext, AppState } from '../http/context.js';
import { keyOf } from '../http/context.js';
import { mountUploadList } from '../shared/processing/upload-list.routes.js';

export interface UploadLimits {
  maxFilesPerUpload: number;
  maxUploadBytes: number;
  companyQuotaBytes: number;
  /** Sources are kept this long. */
  retentionDays: number;
}

interface Received {
  field: string;
  filename: string;
  tempPath: string;
  bytes: number;
  sha256: string;
}

const MULTIPART_OVERHEAD = 1_000_000;

/**
 * Removed from file names: control characters (C0 and C1), the line and paragraph separators, and the bidirectional
 * formatting characters (a right-to-left override can make `invoice\u202Etxt.exe` look like `invoiceexe.txt`).
 */
const UNSAFE_IN_NAME = /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The client's file name for display: decoded as UTF-8 by busboy (RFC 7578; `filename*=UTF-8''…` of RFC 5987 too),
 * in Unicode normal form C, without unsafe characters and without directories (`/` and `\` separate them), at most
 * 255 characters.
 */
function displayName(raw: string | undefined): string {
  const name = basename((raw ?? '').normalize('NFC').replace(UNSAFE_IN_NAME, '').replace(/\\/g, '/')).trim();
  const safe = name === '.' || name === '..' ? '' : name;
  return Array.from(safe).slice(0, 255).join('').trim() || 'upload';
}

/** An upload request over its size bound, declared or streamed. */
const uploadTooLarge = (limits: UploadLimits) =>
  new DomainError('payload_too_large', `An upload request holds at most ${limits.maxUploadBytes / 1_000_000} MB`);

const NOT_MULTIPART = 'Uploads must be multipart/form-data (with a boundary), files in the field "files"';

/**
 * Receives the parts of a multipart body into temporary files, enforcing the rules while streaming: only file parts
 * (with a filename) in the field `files`, at most `maxFilesPerUpload` of them, at most `maxUploadBytes` of files and
 * that plus `MULTIPART_OVERHEAD` of body in all.
 *
 * Every way the body can end settles the request exactly once, in `settle`: busboy's close (complete), its error
 * (malformed), a limit, a form field, a file under another name or without a filename, a write that fails, and the
 * request itself aborted or closed early. On a failure nothing more is parsed: the request is unpiped (what is left
 * of it is read and discarded while the answer goes out), the part streams and busboy are destroyed, the writes
 * are aborted, and every temporary file is removed before the promise rejects.
 */
function receive(ctx: AppContext, store: FileStore, limits: UploadLimits): Promise<Received[]> {
  const req = ctx.req;
  let bb: busboy.Busboy;
  try {
    // File names are UTF-8 (RFC 7578), as every browser sends them; busboy's default would read them as Latin-1.
    // fieldSize 0: a form field's value is never buffered; the field is refused when it ends (naming it).
    bb = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      limits: { files: limits.maxFilesPerUpload, fileSize: limits.maxUploadBytes + 1, fieldSize: 0 },
    });
  } catch {
    return Promise.reject(new DomainError('unsupported_media_type', NOT_MULTIPART));
  }
  const maxBodyBytes = limits.maxUploadBytes + MULTIPART_OVERHEAD;
  const tooLarge = () => uploadTooLarge(limits);
  // A part that is not a file in `files`: a form field (any name, `files` included: busboy also reports a part typed
  // application/octet-stream as a file, so one without a filename is a field too) or a file under another name.
  const notAFile = (field: string | undefined, isFile: boolean) => {
    const name = field ?? '';
    if (name === 'files' && !isFile) {
      return new DomainError(
        'validation_failed',
        'A part "files" has no filename: each part of "files" must be a file (its Content-Disposition carries a filename)',
        {
          issues: [{ path: 'files', message: 'a form field, not a file (no filename)' }],
        },
      );
    }
    return new DomainError(
      'validation_failed',
      `Unexpected multipart ${isFile ? 'file field' : 'form field'} "${name}": send only files, in the field "files"`,
      {
        issues: [
          {
            path: name,
            message: isFile ? 'a file outside the field "files"' : 'a form field; only files are accepted',
          },
        ],
      },
    );
  };

  return new Promise((resolve, reject) => {
    const stop = new AbortController();
    // Each file's write listens on this signal until it ends; a request may hold up to maxFilesPerUpload of them.
    setMaxListeners(2 * limits.maxFilesPerUpload + 10, stop.signal);
    const writes: Array<Promise<Received>> = [];
    const parts: Readable[] = [];
    let bodyBytes = 0;
    let total = 0;
    let settled = false;

    const onData = (chunk: Buffer) => {
      bodyBytes += chunk.length;
      if (bodyBytes > maxBodyBytes) settle(tooLarge());
    };
    const onAbort = () =>
      settle(new DomainError('validation_failed', 'The request was aborted before its body was complete'));
    const onClose = () => {
      if (!req.readableEnded) onAbort();
    };

    function settle(outcome: DomainError | 'complete'): void {
      if (settled) return;
      settled = true;
      req.off('data', onData).off('error', onAbort).off('close', onClose);
      req.unpipe(bb);
      if (outcome !== 'complete') {
        stop.abort();
        for (const part of parts) part.destroy();
        bb.destroy();
        req.resume();
      }
      void Promise.allSettled(writes).then(async (results) => {
        const ok = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const broken = results.some((r) => r.status === 'rejected');
        if (outcome === 'complete' && !broken) {
          resolve(ok);
          return;
        }
        await Promise.all(ok.map((r) => store.remove(r.tempPath)));
        reject(outcome === 'complete' ? new DomainError('validation_failed', 'A file could not be received') : outcome);
      });
    }

    bb.on('file', (field: string | undefined, stream: Readable, info: busboy.FileInfo) => {
      // busboy may destroy a part's stream again after its pipeline settled (a truncated body): that error is
      // already reflected in the request's outcome, so it must not escape as an uncaught exception.
      stream.on('error', () => undefined);
      parts.push(stream);
      if (settled) {
        stream.destroy();
        return;
      }
      if (field !== 'files' || info.filename === undefined) {
        settle(notAFile(field, info.filename !== undefined));
        return;
      }
      const write = store.writeTemp(
        stream,
        (n) => {
          total += n;
          if (total > limits.maxUploadBytes) {
            const e = tooLarge();
            settle(e);
            throw e;
          }
        },
        stop.signal,
      );
      writes.push(write.then((r) => ({ field, filename: displayName(info.filename), ...r })));
    });
    bb.on('field', (field: string | undefined) => settle(notAFile(field, false)));
    bb.on('filesLimit', () =>
      settle(new DomainError('payload_too_large', `An upload request holds at most ${limits.maxFilesPerUpload} files`)),
    );
    bb.on('error', () => settle(new DomainError('validation_failed', 'The multipart body is malformed or incomplete')));
    bb.on('close', () => settle('complete'));
    req.on('data', onData).on('error', onAbort).on('close', onClose);
    // The request may have been cut while the guards ran (the client went away, or Node's HTTP parser answered a
    // body shorter than declared): its events are over, so settle now rather than wait for them.
    if (req.destroyed) onAbort();
    else req.pipe(bb);
  });
}

export function mountUploads(
  router: Router<AppState>,
  deps: { db: Db; store: FileStore; limits: UploadLimits; media?: MediaToolOptions; now?: () => Date },
): void {
  const now = deps.now ?? (() => new Date());
  mountUploadList(router, { db: deps.db, companyOf: (ctx) => keyOf(ctx).tenantId });

  /** POST /v1/uploads: multipart field `files`, one or more files; all stored, or none. */
  router.post('/uploads', async (ctx) => {
    let received: Received[];
    try {
      if (!ctx.is('multipart/form-data')) throw new DomainError('unsupported_media_type', NOT_MULTIPART);
      // A coded body is refused, never decoded: the sources are mostly compressed already, and decoding would add a
      // decompression bomb and a corrupt stream to the shapes to defend against, for no benefit.
      const coding = (ctx.get('Content-Encoding') || 'identity').trim().toLowerCase();
      if (coding !== 'identity') {
        throw new DomainError(
          'unsupported_media_type',
          `Uploads are not accepted with Content-Encoding "${coding.slice(0, 40)}"; send the files uncompressed (identity)`,
        );
      }
      const declared = ctx.request.length;
      if (declared !== undefined && declared > deps.limits.maxUploadBytes + MULTIPART_OVERHEAD) {
        throw uploadTooLarge(deps.limits);
      }
      received = await receive(ctx, deps.store, deps.limits);
    } catch (e) {
      // Refused before the whole body arrived: answer at once and close, rather than read (or wait for) the rest.
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      throw e;
    }
    const uploads = await storeUploads({ ...deps, now }, keyOf(ctx).tenantId, received);
    ctx.status = 201;
    ctx.body = { uploads: uploads.map(uploadJson) };
  });

  /**
   * GET /v1/uploads/{id}: the upload record, as POST /v1/uploads returned it. Unknown, deleted or another company's
   * → 404; past its retention (`expires_at`, or its bytes purged) → 410, as using it in an estimate or job is.
   */
  router.get('/uploads/:id', async (ctx) => {
    const upload = await companyUpload({ ...deps, now }, keyOf(ctx).tenantId, ctx.params['id'] ?? '');
    ctx.body = uploadJson(upload);
  });

  /**
   * DELETE /v1/uploads/{id}: removes an unused source. A source read by a queued or processing job is kept
   * (409); the check and the deletion hold the company lock that job submission takes too.
   */
  router.delete('/uploads/:id', async (ctx) => {
    await deleteUpload({ ...deps, now }, keyOf(ctx).tenantId, ctx.params['id'] ?? '');
    ctx.status = 204;
  });
}
