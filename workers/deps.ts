import type { Config } from '../config/schema.js';
import { configuredSecretBox } from '../adapters/crypto/secrets-key-file.js';
import { createSystemResolver } from '../adapters/webhooks/http-delivery.js';
import type { Logger } from '../adapters/logging/logger.js';
import type { PlatformMetrics } from '../adapters/metrics/metrics.js';
import type { Db } from '../db/connection.js';
import type { WebhookActivityDeps } from '../activities/webhooks.activities.js';
import type { X402ActivityDeps } from '../activities/x402.activities.js';
import { createAuthorizationStateReader } from '../adapters/x402/authorization-state.js';
import { createFileStore } from '../adapters/storage/file-store.js';
import { createFileOperationRunners } from '../adapters/media/operation-runners.js';
import { createTranscriptionProvider } from '../adapters/providers/transcription/create-transcription-provider.js';
import { OfflineWhisperProvider } from '../adapters/providers/transcription/offline-whisper.provider.js';
import { createMeetingSummarizer } from '../adapters/providers/llm/create-meeting-summarizer.js';
import { createExtractionProvider } from '../adapters/extraction/create-extraction-provider.js';
import { OfflineExtractionEngine } from '../adapters/extraction/offline-engine.js';
import { createSmtpMailer } from '../adapters/mail/smtp-mailer.js';
import type { MailWorkerDeps, ProcessingWorkerDeps } from './worker.js';
import { createEvmTransferScanner, type EvmTransferScanner } from '../adapters/chains/evm/evm-transfer-scanner.js';
import {
  createSolanaTransferScanner,
  type SolanaTransferScanner,
} from '../adapters/chains/solana/solana-transfer-scanner.js';

/** Composition root of the activities: real adapters wired from the validated config. */
export function buildActivityDeps(
  config: Config,
  db: Db,
  logger: Logger,
  metrics?: PlatformMetrics,
): WebhookActivityDeps &
  Pick<X402ActivityDeps, 'authorizationState'> & {
    processing: ProcessingWorkerDeps;
    mail: MailWorkerDeps;
    watcher: { evm: EvmTransferScanner; solana: SolanaTransferScanner };
  } {
  const store = createFileStore(config.storage.dir);
  const provider = createTranscriptionProvider(config.transcription, { logger, ffmpegPath: config.media.ffmpegPath });
  // Speakers always come from the offline engine: the same worker processes when it also transcribes.
  const speakers = provider instanceof OfflineWhisperProvider ? provider : offlineSpeakerEngine(config, logger);
  return {
    processing: {
      store,
      runners: createFileOperationRunners(
        { qpdfPath: config.media.qpdfPath, timeoutMs: config.media.qpdfTimeoutMs },
        {
          tesseractPath: config.media.ocr.tesseractPath,
          ocrmypdfPath: config.media.ocr.ocrmypdfPath,
          pageTimeoutMs: config.media.ocr.pageTimeoutMs,
          concurrency: config.media.ocr.concurrency,
          defaultLanguage: config.media.ocr.languages[0]!,
          onResume: (info) => logger.info(info, 'OCR resumed from its checkpoint'),
        },
        {
          ffmpegPath: config.media.ffmpegPath,
          ffprobePath: config.media.ffprobePath,
          timeoutMs: config.media.ffmpegTimeoutMs,
        },
        {
          provider: createExtractionProvider(config.extraction, {
            logger,
            offline: () => new OfflineExtractionEngine(),
          }),
        },
      ),
      // The engine starts on its first job (the offline engine's worker process loads the model then).
      speech: {
        provider,
        speakers,
        media: {
          ffmpegPath: config.media.ffmpegPath,
          ffprobePath: config.media.ffprobePath,
          timeoutMs: config.media.ffmpegTimeoutMs,
        },
        chunkSeconds: config.transcription.chunkSeconds,
        chunksAtOnce: config.transcription.chunksAtOnce,
        summarizer: createMeetingSummarizer(config.llm, { logger }),
      },
    },
    mail: buildMailDeps(config, store),
    watcher: {
      evm: createEvmTransferScanner({
        rpcUrls: config.chains.rpcUrls,
        requiredConfirmations: config.chains.requiredConfirmations,
        timeoutMs: config.chains.rpcTimeoutMs,
        retries: config.chains.rpcRetries,
      }),
      // The RPC_URL_SOLANA endpoints of the /x402 Solana reader, with the same timeout and retries.
      solana: createSolanaTransferScanner({
        endpoints: config.chains.rpcUrls.solana,
        timeoutMs: config.chains.rpcTimeoutMs,
        retries: config.chains.rpcRetries,
      }),
    },
    authorizationState:
      config.x402.facilitator.kind === 'none'
        ? null
        : createAuthorizationStateReader({
            rpcUrls: config.chains.rpcUrls.base,
            timeoutMs: config.chains.rpcTimeoutMs,
          }),
    db,
    logger,
    secretBox: configuredSecretBox(config),
    resolver: createSystemResolver(),
    allowLoopbackForTests: config.webhooks.allowLoopbackForTests,
    privateDestinations: config.webhooks.privateDestinations,
    ...(metrics ? { metrics } : {}),
  };
}

/**
 * The invoice mail sender from SMTP_URL / MAIL_FROM / SMTP_TIMEOUT_MS: a null mailer when SMTP_URL is unset
 * (the API then starts no mail workflow and the reconciler restarts none; mail stays queued).
 */
export function buildMailDeps(
  config: Pick<Config, 'mail' | 'http' | 'storage'>,
  store = createFileStore(config.storage.dir),
): MailWorkerDeps {
  const mail = config.mail;
  return {
    store,
    mailer: mail
      ? createSmtpMailer({
          host: mail.host,
          port: mail.port,
          secure: mail.secure,
          user: mail.user,
          password: mail.password,
          timeoutMs: mail.timeoutMs,
        })
      : null,
    from: mail?.from ?? null,
    publicBaseUrl: config.http.publicBaseUrl ?? null,
  };
}

/** The offline engine for speakers only (no Whisper model loaded), when an HTTP provider transcribes. */
function offlineSpeakerEngine(config: Config, logger: Logger): OfflineWhisperProvider {
  const t = config.transcription;
  return new OfflineWhisperProvider({
    python: t.python,
    modelDir: t.modelDir,
    speakerModel: t.speakerModel,
    concurrency: t.concurrency,
    timeoutMs: t.timeoutMs,
    cpuThreads: t.cpuThreads,
    cpuKernels: t.cpuKernels,
    ffmpegPath: config.media.ffmpegPath,
    logger,
    transcription: false,
  });
}
