/** One channel's finding for a record: its score and why. */
interface ChannelHit {
  score: number;
  reason: string;
}
export type ChannelHits = Map<number, ChannelHit>;

/** Keeps the best hit per record. */
export function addHit(hits: ChannelHits, nid: number, score: number, reason: string): void {
  const had = hits.get(nid);
  if (!had || score > had.score) hits.set(nid, { score, reason });
}
