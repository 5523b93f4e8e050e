/**
 * Progress on stderr for long work: a redrawn bar on a terminal; on a pipe or a log file, one line
 * per tenth of the run, so logs stay readable. Short runs (under `quietBelow` steps) print nothing.
 */
export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
}

export function progressBar(
  sink: ProgressSink,
  label: string,
  total: number,
  quietBelow = 20,
): (done: number, note?: string) => void {
  let lastTenth = 0;
  return (done, note = '') => {
    if (total < quietBelow) return;
    const status = `${label}: ${done}/${total}${note ? ` ${note}` : ''}`;
    if (sink.isTTY) {
      const width = 30;
      const filled = Math.round((width * done) / Math.max(1, total));
      sink.write(
        `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${status.padEnd(60)}${done === total ? '\n' : ''}`,
      );
      return;
    }
    const tenth = Math.floor((10 * done) / Math.max(1, total));
    if (tenth > lastTenth || done === total) {
      lastTenth = tenth;
      sink.write(`${status}\n`);
    }
  };
}
