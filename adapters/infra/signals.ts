/**
 * Runs `shutdown` once on the first SIGTERM or SIGINT. Launchers (npm, tsx, a terminal's process group) often
 * deliver the same signal twice at once, so only a repeat more than 2 s later forces an immediate exit.
 */
export function onShutdownSignal(shutdown: (signal: string) => Promise<void>): void {
  let firstAt: number | null = null;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (firstAt !== null) {
        if (Date.now() - firstAt > 2000) process.exit(130);
        return;
      }
      firstAt = Date.now();
      shutdown(signal).then(
        () => process.exit(0),
        (e: unknown) => {
          process.stderr.write(`shutdown failed: ${String(e)}\n`);
          process.exit(1);
        },
      );
    });
  }
}
