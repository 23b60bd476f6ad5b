import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import type Router from '@koa/router';
import { DomainError } from '../../domain/errors.js';
import { newId } from '../../adapters/crypto/tokens.js';
import { measureSource, UnreadableSource, type MeasuredSource } from '../../adapters/media/measure.js';
import type { FileStore } from '../../adapters/storage/file-store.js';
import type { Db } from '../../db/connection.js';
import { companyStoredBytes, getUpload, insertUploads, markUploadDeleted, type Upload } from '../../db/repositories/uploads.repo.js';
import type { AppContext, AppState } from '../http/context.js';
import { lockCompany } from '../../db/repositories/companies.repo.js';
import { uploadInUse } from '../../db/repositories/jobs.repo.js';

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

/** The client's file name for display: no directories, no control characters, at most 255 characters. */
function displayName(raw: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const name = basename((raw ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (name || 'upload').slice(0, 255);
}

export function uploadJson(u: Upload) {
  return {
    id: u.id,
    filename: u.filename,
    kind: u.kind,
    mime_type: u.mimeType,
    bytes: u.bytes,
    pages: u.pages,
    duration_seconds: u.durationSeconds,
    encrypted: u.encrypted,
    sha256: u.sha256,
    created_at: u.createdAt.toISOString(),
    expires_at: u.expiresAt.toISOString(),
  };
}

/** Receives every part of a multipart body into temporary files, enforcing the limits while streaming. */
function receive(ctx: AppContext, store: FileStore, limits: UploadLimits): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: ctx.req.headers, limits: { files: limits.maxFilesPerUpload, fields: 0, fileSize: limits.maxUploadBytes + 1 } });
    } catch {
      reject(new DomainError('unsupported_media_type', 'Uploads must be multipart/form-data with the field "files"'));
      return;
    }
    let settled = false;
    const aborted = new AbortController();
    const writes: Array<Promise<Received>> = [];
    const parts: Readable[] = [];
    let total = 0;
    let failure: DomainError | null = null;
    // Past a size or count limit nothing more is read: the parts are destroyed (their writes reject at once) and
    // the request settles without waiting for busboy, which may never finish once a part stream is gone.
    const abort = () => {
      ctx.req.unpipe(bb);
      aborted.abort();
      for (const part of parts) part.destroy();
      finish();
    };
    const fail = (e: DomainError) => {
      failure ??= e;
      if (e.code === 'payload_too_large') abort();
    };
    bb.on('file', (field, stream, info) => {
      // busboy may destroy a part's stream again after its pipeline settled (a truncated body): that error is
      // already reflected in the request's outcome, so it must not escape as an uncaught exception.
      stream.on('error', () => undefined);
      parts.push(stream);
      if (failure) {
        stream.destroy();
        return;
      }
      if (field !== 'files') {
        fail(new DomainError('validation_failed', `Unknown multipart field "${field}"; send files in the field "files"`));
        stream.resume();
        return;
      }
      const write = store.writeTemp(stream, (n) => {
        total += n;
        if (total > limits.maxUploadBytes) {
          const e = new DomainError('payload_too_large', `An upload request holds at most ${limits.maxUploadBytes / 1_000_000} MB`);
          fail(e);
          throw e;
        }
      }, aborted.signal);
      writes.push(write.then((r) => ({ field, filename: displayName(info.filename), ...r })));
    });
    bb.on('filesLimit', () => fail(new DomainError('payload_too_large', `An upload request holds at most ${limits.maxFilesPerUpload} files`)));
    bb.on('fieldsLimit', () => fail(new DomainError('validation_failed', 'Only the file field "files" is accepted')));
    // busboy ends with 'close', or with 'error' and no 'close' (a malformed body): either settles the request.
    function finish() {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(bb);
      void Promise.allSettled(writes).then(async (results) => {
        const ok = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
        const broken = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failure || broken) {
          await Promise.all(ok.map((r) => store.remove(r.tempPath)));
          reject(failure ?? new DomainError('validation_failed', 'A file could not be received'));
          return;
        }
        resolve(ok);
      });
    }
    bb.on('error', () => {
      fail(new DomainError('validation_failed', 'The multipart body is malformed'));
      finish();
    });
    bb.on('close', finish);
    ctx.req.pipe(bb);
  });
}

export function mountUploads(router: Router<AppState>, deps: { db: Db; store: FileStore; limits: UploadLimits; ffprobePath?: string; now?: () => Date }): void {
  const now = deps.now ?? (() => new Date());

  /** POST /v1/uploads: multipart field `files`, one or more files; all stored, or none. */
  router.post('/uploads', async (ctx) => {
    if (!ctx.is('multipart/form-data')) throw new DomainError('unsupported_media_type', 'Uploads must be multipart/form-data with the field "files"');
    const declared = ctx.request.length;
    if (declared !== undefined && declared > deps.limits.maxUploadBytes + MULTIPART_OVERHEAD) {
      ctx.set('Connection', 'close');
      throw new DomainError('payload_too_large', `An upload request holds at most ${deps.limits.maxUploadBytes / 1_000_000} MB`);
    }
    const companyId = ctx.state.apiKey!.tenantId;
    let received: Received[];
    try {
      received = await receive(ctx, deps.store, deps.limits);
    } catch (e) {
      if (e instanceof DomainError && e.code === 'payload_too_large') ctx.set('Connection', 'close');
      throw e;
    }
    const cleanup = () => Promise.all(received.map((r) => deps.store.remove(r.tempPath)));
    try {
      if (received.length === 0) throw new DomainError('validation_failed', 'No file received; send one or more files in the field "files"');
      const issues: Array<{ path: string; message: string }> = [];
      const measured: MeasuredSource[] = [];
      for (const [i, r] of received.entries()) {
        try {
          measured.push(await measureSource(r.tempPath, r.bytes, deps.ffprobePath ? { ffprobePath: deps.ffprobePath } : {}));
        } catch (e) {
          if (!(e instanceof UnreadableSource)) throw e;
          issues.push({ path: `files.${i}`, message: `${r.filename}: ${e.reason}` });
        }
      }
      if (issues.length) {
        throw new DomainError('validation_failed', `Unreadable upload: ${issues.map((x) => x.message).join('; ')}`, { issues });
      }
      const at = now();
      const uploads: Upload[] = received.map((r, i) => ({
        ...measured[i]!,
        id: newId('upl'),
        companyId,
        filename: r.filename,
        sha256: r.sha256,
        createdAt: at,
        expiresAt: new Date(at.getTime() + deps.limits.retentionDays * 86_400_000),
        purgedAt: null,
      }));
      const incoming = received.reduce((sum, r) => sum + r.bytes, 0);
      await deps.db.transaction(async (trx) => {
        const stored = await companyStoredBytes(trx, companyId, { lock: true });
        if (stored + incoming > deps.limits.companyQuotaBytes) {
          throw new DomainError('payload_too_large', `Company source storage is limited to ${deps.limits.companyQuotaBytes / 1_000_000} MB; delete unused uploads first`);
        }
        await insertUploads(trx, uploads);
        for (const [i, u] of uploads.entries()) await deps.store.commit(received[i]!.tempPath, u.id);
      });
      ctx.status = 201;
      ctx.body = { uploads: uploads.map(uploadJson) };
    } catch (e) {
      await cleanup();
      throw e;
    }
  });

  /**
   * DELETE /v1/uploads/{id}: removes an unused source. A source read by a queued or processing job is kept
   * (409); the check and the deletion hold the company lock that job submission takes too.
   */
  router.delete('/uploads/:id', async (ctx) => {
    const companyId = ctx.state.apiKey!.tenantId;
    const upload = await deps.db.transaction(async (trx) => {
      await lockCompany(trx, companyId);
      const found = await getUpload(trx, companyId, ctx.params['id'] ?? '');
      if (!found) throw new DomainError('not_found', 'Upload not found');
      if (await uploadInUse(trx, companyId, found.id)) {
        throw new DomainError('conflict', 'This upload is a source of an unfinished job; delete it after the job has ended');
      }
      await markUploadDeleted(trx, companyId, found.id, now());
      return found;
    });
    await deps.store.remove(upload.id);
    ctx.status = 204;
  });
}
