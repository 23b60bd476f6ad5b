import { describe, expect, it } from 'vitest';
import {
  DELIVERY_PROFILES,
  attemptOffsetsSeconds,
  classifyError,
  classifyStatus,
  nextStep,
  scheduleMs,
} from '../../../domain/webhooks.js';

describe('delivery schedules', () => {
  it('/v1 makes up to 6 attempts, waiting 60, 120, 240, 480, 960 s', () => {
    const p = DELIVERY_PROFILES.v1;
    expect(p.maxAttempts).toBe(6);
    expect(scheduleMs(p)).toEqual([60_000, 120_000, 240_000, 480_000, 960_000]);
    expect(attemptOffsetsSeconds(p)).toEqual([0, 60, 180, 420, 900, 1860]);
  });

  it('/proof/v1 makes up to 5 attempts, waiting 1, 5, 20, 60 min', () => {
    const p = DELIVERY_PROFILES.proof;
    expect(p.maxAttempts).toBe(5);
    expect(scheduleMs(p)).toEqual([60_000, 300_000, 1_200_000, 3_600_000]);
    expect(attemptOffsetsSeconds(p)).toEqual([0, 60, 360, 1560, 5160]);
  });

  it('every profile has exactly one wait between consecutive attempts', () => {
    for (const p of Object.values(DELIVERY_PROFILES)) expect(p.delaysSeconds).toHaveLength(p.maxAttempts - 1);
  });

  it('a scale shrinks the schedule proportionally and never to zero', () => {
    expect(scheduleMs(DELIVERY_PROFILES.proof, 0.001)).toEqual([60, 300, 1200, 3600]);
    expect(scheduleMs(DELIVERY_PROFILES.v1, 0)).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('attempt verdicts', () => {
  it.each([
    [200, 'delivered'],
    [201, 'delivered'],
    [204, 'delivered'],
    [299, 'delivered'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [502, 'retry'],
    [503, 'retry'],
    [599, 'retry'],
    [100, 'terminal'],
    [301, 'terminal'],
    [302, 'terminal'],
    [307, 'terminal'],
    [308, 'terminal'],
    [400, 'terminal'],
    [401, 'terminal'],
    [403, 'terminal'],
    [404, 'terminal'],
    [409, 'terminal'],
    [410, 'terminal'],
    [422, 'terminal'],
    [600, 'terminal'],
  ] as const)('status %i is %s', (status, verdict) => {
    expect(classifyStatus(status)).toBe(verdict);
  });

  it.each([
    ['connect_timeout', 'retry'],
    ['socket_timeout', 'retry'],
    ['connection_refused', 'retry'],
    ['connection_reset', 'retry'],
    ['dns_timeout', 'retry'],
    ['dns_temporary', 'retry'],
    ['network_error', 'retry'],
    ['policy_rejected', 'terminal'],
    ['policy_dns_non_public', 'terminal'],
    ['dns_not_found', 'terminal'],
    ['tls_error', 'terminal'],
    ['endpoint_disabled', 'terminal'],
  ] as const)('error %s is %s', (errorClass, verdict) => {
    expect(classifyError(errorClass)).toBe(verdict);
  });

  it('retries until the budget is spent, then fails', () => {
    const p = DELIVERY_PROFILES.proof;
    expect(nextStep('retry', 1, p)).toEqual({ state: 'retrying', waitSeconds: 60 });
    expect(nextStep('retry', 4, p)).toEqual({ state: 'retrying', waitSeconds: 3600 });
    expect(nextStep('retry', 5, p)).toEqual({ state: 'failed' });
    expect(nextStep('terminal', 1, p)).toEqual({ state: 'failed' });
    expect(nextStep('delivered', 5, p)).toEqual({ state: 'delivered' });
    expect(nextStep('retry', 5, DELIVERY_PROFILES.v1)).toEqual({ state: 'retrying', waitSeconds: 960 });
    expect(nextStep('retry', 6, DELIVERY_PROFILES.v1)).toEqual({ state: 'failed' });
  });
});
