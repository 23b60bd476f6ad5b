import { traceHeaders } from '../adapters/tracing/tracing.js';
import { ApplicationFailure } from '@temporalio/activity';
import { heartbeatWhileWaiting } from './heartbeat.js';
import {
  classifyError,
  classifyStatus,
  DELIVERY_PROFILES,
  nextStep,
  type AttemptVerdict,
  type WebhookInterface,
} from '../domain/webhooks.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import type { SecretBox } from '../adapters/crypto/secret-box.js';
import { postWithPolicy, type DeliveryTimeouts, type DnsResolver } from '../adapters/webhooks/http-delivery.js';
import { signBody, standardWebhookHeaders } from '../adapters/webhooks/sign.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { Db } from '../db/connection.js';
import * as webhooks from '../db/repositories/webhooks.repo.js';
import type { WebhookDelivery, WebhookEndpoint } from '../db/repositories/webhooks.repo.js';

export interface WebhookActivityDeps {
  db: Db;
  secretBox: SecretBox;
  resolver: DnsResolver;
  logger: Logger;
  allowLoopbackForTests: boolean;
  /** WEBHOOK_PRIVATE_DESTINATIONS (config.webhooks.privateDestinations). */
  privateDestinations?: readonly string[] | undefined;
  timeouts?: DeliveryTimeouts;
  now?: () => Date;
  /** This process's metrics: attempts sent and deliveries ended (adapters/metrics/metrics.ts). */
  metrics?: PlatformMetrics;
}

/**
 * Counts a delivery that this attempt ended (delivered, or failed: terminal or out of attempts), by the interface's
 * profile: the rule the workflow and the dispatcher decide by (`nextStep`).
 */
export function countIfEnded(
  metrics: PlatformMetrics | undefined,
  iface: WebhookInterface,
  verdict: AttemptVerdict,
  attemptsMade: number,
): void {
  const { state } = nextStep(verdict, attemptsMade, DELIVERY_PROFILES[iface]);
  if (state !== 'retrying') metrics?.webhookDeliveries.inc({ interface: iface, outcome: state });
}

export interface SendAttemptResult {
  verdict: AttemptVerdict;
  statusCode: number | null;
  errorClass: string | null;
}

export interface SentAttempt {
  verdict: AttemptVerdict;
  statusCode: number | null;
  errorClass: string | null;
  durationMs: number;
}

/**
 * One attempt on the wire: the stored body bytes, signed now with the endpoint's current secret (the X-Service
 * headers and the Standard Webhooks ones, both under that secret), POSTed under the destination policy; the answer
 * classified. Shared by the delivery workflow's attempt and the dispatcher.
 */
export async function signAndSend(
  deps: Pick<
    WebhookActivityDeps,
    'secretBox' | 'resolver' | 'allowLoopbackForTests' | 'privateDestinations' | 'timeouts' | 'now' | 'metrics'
  >,
  input: { delivery: WebhookDelivery; endpoint: WebhookEndpoint; body: Buffer },
): Promise<SentAttempt> {
  const { delivery, endpoint, body } = input;
  const timestamp = Math.floor((deps.now ?? (() => new Date()))().getTime() / 1000);
  const secret = deps.secretBox.open(endpoint.secretSealed);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'x-service-timestamp': String(timestamp),
    'x-service-signature': signBody(secret, timestamp, body),
    'x-service-event-id': delivery.eventId,
    // Standard Webhooks under the same secret; its id is the event id, stable across attempts like X-Service-Event-Id.
    ...standardWebhookHeaders(secret, delivery.eventId, timestamp, body),
    // The W3C trace context of this attempt's span (`traceparent`), while tracing is on.
    ...traceHeaders(),
  };
  if (DELIVERY_PROFILES[delivery.interface].sendsDeliveryHeaders) {
    headers['x-service-delivery-id'] = delivery.id;
    headers['x-service-key-version'] = String(endpoint.keyVersion);
  }
  const result = await postWithPolicy(endpoint.url, headers, body, {
    resolver: deps.resolver,
    allowLoopbackForTests: deps.allowLoopbackForTests,
    privateDestinations: deps.privateDestinations,
    ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
  });
  const verdict = result.statusCode !== null ? classifyStatus(result.statusCode) : classifyError(result.errorClass!);
  deps.metrics?.webhookAttempts.inc({ interface: delivery.interface, outcome: verdict });
  return { verdict, statusCode: result.statusCode, errorClass: result.errorClass, durationMs: result.durationMs };
}

export function createWebhookActivities(deps: WebhookActivityDeps) {
  const now = deps.now ?? (() => new Date());
  return {
    /**
     * Sends one attempt: the stored body bytes, signed now with the endpoint's current secret, under the
     * destination policy. Records the attempt (status, error class, duration; never the response body).
     */
    async sendAttempt(input: { deliveryId: string; attemptNo: number }): Promise<SendAttemptResult> {
      const loaded = await webhooks.loadDeliveryForSend(deps.db, input.deliveryId);
      if (!loaded)
        throw ApplicationFailure.nonRetryable(`delivery ${input.deliveryId} not found`, 'delivery_not_found');
      const { delivery, endpoint, body } = loaded;
      if (delivery.status === 'delivered')
        return { verdict: 'delivered', statusCode: delivery.lastStatusCode, errorClass: null };
      if (delivery.status === 'failed')
        return { verdict: 'terminal', statusCode: delivery.lastStatusCode, errorClass: delivery.lastErrorClass };

      await webhooks.interruptInFlightAttempts(deps.db, delivery.id);
      const attemptId = await webhooks.startAttempt(deps.db, delivery.id, input.attemptNo, endpoint.keyVersion);
      if (endpoint.status !== 'enabled') {
        await webhooks.finishAttempt(deps.db, attemptId, {
          outcome: 'terminal',
          statusCode: null,
          errorClass: 'endpoint_disabled',
          durationMs: 0,
        });
        countIfEnded(deps.metrics, delivery.interface, 'terminal', input.attemptNo);
        return { verdict: 'terminal', statusCode: null, errorClass: 'endpoint_disabled' };
      }

      const result = await heartbeatWhileWaiting(signAndSend(deps, { delivery, endpoint, body }));
      const { verdict } = result;
      await webhooks.finishAttempt(deps.db, attemptId, {
        outcome: verdict,
        statusCode: result.statusCode,
        errorClass: result.errorClass,
        durationMs: result.durationMs,
      });
      countIfEnded(deps.metrics, delivery.interface, verdict, input.attemptNo);
      deps.logger.info(
        {
          deliveryId: delivery.id,
          attempt: input.attemptNo,
          status: result.statusCode,
          errorClass: result.errorClass,
          ms: result.durationMs,
          verdict,
        },
        'webhook attempt',
      );
      return { verdict, statusCode: result.statusCode, errorClass: result.errorClass };
    },

    /** Applies the workflow's decision after an attempt to the delivery record. */
    async settleDelivery(input: {
      deliveryId: string;
      attemptNo: number;
      state: 'delivered' | 'failed' | 'retrying';
      waitMs: number;
    }): Promise<void> {
      await webhooks.settleDelivery(deps.db, {
        deliveryId: input.deliveryId,
        attemptNo: input.attemptNo,
        state: input.state,
        nextAttemptAt: input.state === 'retrying' ? new Date(now().getTime() + input.waitMs) : null,
      });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
