/** Progress lines for slow start-up steps (stderr, so they never mix with JSON logs on stdout). */
export type Progress = (message: string) => void;
export const stderrProgress: Progress = (message) => process.stderr.write(`[paycore] ${message}\n`);
export const silentProgress: Progress = () => undefined;
