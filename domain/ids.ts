/**
 * Object ids: a lowercase prefix naming the kind (`job`, `req`, `whe`, …), an underscore and 20 random letters
 * or digits (adapters/crypto/tokens.ts makes them). Anything else cannot be an id of this platform.
 */
export const ID_BODY_LENGTH = 20;

const ANY_ID = /^[a-z]{2,5}_[A-Za-z0-9]{20}$/;

/** True for a string of the id grammar, of any kind. */
export const isObjectId = (value: string): boolean => ANY_ID.test(value);

/** The pattern of one kind's ids, e.g. `^job_[A-Za-z0-9]{20}$` (also the OpenAPI pattern). */
export const idPattern = (prefix: string): string => `^${prefix}_[A-Za-z0-9]{${ID_BODY_LENGTH}}$`;

export const idRegex = (prefix: string): RegExp => new RegExp(idPattern(prefix));
