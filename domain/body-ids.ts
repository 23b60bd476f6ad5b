import { DomainError } from './errors.js';

/**
 * The one rule for ids in request bodies, on every interface (docs/platform.md, "Ids"): a well-formed id that
 * names nothing of the caller's tenant — unknown, deleted, or another tenant's — is 404 `not_found` naming the
 * field (in the message and in `issues`). The answer is the same whatever the reason, so it reveals nothing about
 * other tenants; the id is not echoed. A malformed id is an invalid field (422), checked with the rest of the body.
 */
export function bodyIdNotFound(path: string, message: string): DomainError {
  return new DomainError('not_found', `${path}: ${message}`, { issues: [{ path, message }] });
}
