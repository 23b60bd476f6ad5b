import type { PlanLimits } from '../../../domain/proof/plans.js';

/** A plan's (or trial's) limits as /v1/me and the dashboard show them; `null` means no cap. */
export function limitsJson(limits: PlanLimits, proPerHour: number) {
  return {
    requests_per_period: limits.requestsPerPeriod,
    invoices_per_period: limits.invoicesPerPeriod,
    keys: limits.keys,
    destinations: limits.destinations,
    max_valid_hours: limits.maxValidHours,
    requests_per_hour: limits.requestsPerHour === null ? null : proPerHour,
  };
}
