import type { SpeechCpuKernels } from '../../adapters/providers/transcription/whisper-worker-process.js';

/**
 * How the tests run the offline speech engine: the same on every machine, so a figure measured on one machine holds on
 * another. Portable CPU kernels (oneDNN capped at AVX2, never Intel MKL: on Intel and AMD CPUs alike) and a fixed thread
 * count; the compute type (int8) is the adapter's own. engines/transcription/README.md ("Same audio, same transcript")
 * has what differs between kernel families and thread counts.
 *
 * To measure the spread on your machine, run a speech test with PAYCORE_TEST_SPEECH_KERNELS=native (and
 * CT2_USE_MKL=1 for Intel MKL) or PAYCORE_TEST_SPEECH_THREADS=1; the figures the tests assert are the portable ones.
 */
export const TEST_SPEECH_ENGINE: { cpuThreads: number; cpuKernels: SpeechCpuKernels } = {
  cpuThreads: Number(process.env['PAYCORE_TEST_SPEECH_THREADS'] ?? 2),
  cpuKernels: process.env['PAYCORE_TEST_SPEECH_KERNELS'] === 'native' ? 'native' : 'portable',
};

/** The same as environment variables, for a worker process started from its configuration. */
export const TEST_SPEECH_ENGINE_ENV = {
  TRANSCRIPTION_CPU_THREADS: String(TEST_SPEECH_ENGINE.cpuThreads),
  TRANSCRIPTION_CPU_KERNELS: TEST_SPEECH_ENGINE.cpuKernels,
};
