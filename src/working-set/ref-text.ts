/** How a repeated body is referenced when rendered (materialize counts its tokens up front). */
export const refText = (id: string): string => `[same content as ${id}]`;

/** How an elided run of a body's lines is rendered: which lines, and where the whole body is. */
const elidedText = (from: number, to: number, of: number, id: string): string =>
  `[lines ${from}-${to} of ${of} elided; whole body: ${id}]`;

/**
 * How an excerpt renders (materialize counts its tokens on this text): the kept lines in order
 * (`body`, the lines of `ranges` joined by newlines), each elided run between them a marker line
 * naming the lines and the node whose stored body holds them.
 */
export function excerptText(
  id: string,
  body: string,
  ranges: readonly (readonly [number, number])[],
  of: number,
): string {
  const kept = body === '' && ranges.length === 0 ? [] : body.split('\n');
  const out: string[] = [];
  let next = 1;
  let at = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push(elidedText(next, from - 1, of, id));
    for (let l = from; l <= to; l++) out.push(kept[at++]!);
    next = to + 1;
  }
  if (next <= of) out.push(elidedText(next, of, of, id));
  return out.join('\n');
}
