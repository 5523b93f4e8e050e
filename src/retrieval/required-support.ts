import type { MissingEvidence } from './exact-channel.js';
import type { VisibleSet } from './retrieval-index.js';

export interface RequiredSupport {
  /** The claims that need support: those the caller named and the open ones the task requires. */
  claims: Set<number>;
  /** Each required claim's `supported_by` targets within the walked neighbourhood. */
  targets: Map<number, number[]>;
}

/**
 * Required support from the graph channel's neighbourhood: each given claim (and each claim the
 * task requires while it is open) needs a valid `supported_by` target. The task's requirements
 * count while unresolved: a resolved claim whose evidence a fix has since superseded is history,
 * not a gap.
 */
export function requiredSupport(
  edges: ReadonlyArray<{ src: number; dst: number; kind: string }>,
  visible: VisibleSet,
  task: number | undefined,
  claims: readonly number[],
  statusAt: (nid: number) => string | null,
): RequiredSupport {
  const required = new Set(claims);
  for (const e of edges)
    if (e.src === task && e.kind === 'requires' && visible.nodes[e.dst] === 1 && statusAt(e.dst) === 'open')
      required.add(e.dst);
  const targets = new Map<number, number[]>();
  for (const e of edges)
    if (e.kind === 'supported_by' && required.has(e.src)) targets.set(e.src, [...(targets.get(e.src) ?? []), e.dst]);
  return { claims: required, targets };
}

/**
 * The required claims left without support among the candidates (`known`: the records fusion
 * saw), and the claims the caller named that are not visible at all.
 */
export function missingSupport(
  req: RequiredSupport,
  visible: VisibleSet,
  known: (nid: number) => boolean,
  namedClaims: ReadonlyArray<{ id: string; nid: number }>,
  idOf: (nid: number) => string | undefined,
): MissingEvidence[] {
  const missing: MissingEvidence[] = [];
  for (const claim of req.claims) {
    if (visible.nodes[claim] !== 1) continue;
    if ((req.targets.get(claim) ?? []).filter(known).length === 0)
      missing.push({
        claim: idOf(claim) ?? String(claim),
        reason: 'no valid supporting evidence within the authority scopes',
      });
  }
  for (const { id, nid } of namedClaims)
    if (visible.nodes[nid] !== 1)
      missing.push({ claim: id, reason: 'the claim is not valid at this epoch or outside the authority scopes' });
  return missing;
}
