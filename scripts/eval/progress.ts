/**
 * Progress on stderr for long replays: a redrawn bar on a terminal; on a pipe or a log file, one
 * line per tenth of the run so the log stays readable.
 */
import type { ReplayProgress } from './replay.js';

export interface ProgressSink {
  write(text: string): void;
  isTTY: boolean;
}

export function progressBar(sink: ProgressSink, now: () => number = () => Date.now()): (p: ReplayProgress) => void {
  const start = now();
  let lastTenth = 0;
  return (p) => {
    const seconds = ((now() - start) / 1000).toFixed(0);
    const status = `${p.done}/${p.total} trajectories, ${p.events} events, ${seconds} s`;
    if (sink.isTTY) {
      const width = 30;
      const filled = Math.round((width * p.done) / Math.max(1, p.total));
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
      sink.write(`\r${bar} ${status} ${p.name.slice(0, 40).padEnd(40)}${p.done === p.total ? '\n' : ''}`);
      return;
    }
    const tenth = Math.floor((10 * p.done) / Math.max(1, p.total));
    if (tenth > lastTenth || p.done === p.total) {
      lastTenth = tenth;
      sink.write(`replay: ${status}\n`);
    }
  };
}
