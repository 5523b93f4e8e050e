import {
  type AdaptedTrace,
  detectFormat as detectTranscriptFormat,
  TRANSCRIPT_ADAPTERS,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from '../../src/adapters/index.js';

export { TRANSCRIPT_FORMATS, type TranscriptFormat };

/** A dropped file's format, by the library's own detection (the CLI's `ingest` uses the same). */
export function detectFormat(json: unknown): TranscriptFormat {
  const format = detectTranscriptFormat(json);
  if (format === null)
    throw new TypeError('not a transcript: expected a message list, a mini-swe-agent or a SWE-agent trajectory object');
  return format;
}

export function adaptTranscript(
  json: unknown,
  format: TranscriptFormat | 'auto',
): AdaptedTrace & { format: TranscriptFormat } {
  const chosen = format === 'auto' ? detectFormat(json) : format;
  return { ...TRANSCRIPT_ADAPTERS[chosen](json), format: chosen };
}
