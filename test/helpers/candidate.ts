import type { Candidate } from '../../src/working-set/types.js';

/**
 * A working-set candidate for the unit tests of ranking, packing, excerpts and explanations: an
 * agent's node with no path, tool, role or meta, reached at hop 1 in the transaction of its nid,
 * unless the test says otherwise. One place for the row's shape, so a new column is added once.
 */
export function candidate(fields: Pick<Candidate, 'nid' | 'kind'> & Partial<Candidate>): Candidate {
  return {
    id: `n${fields.nid}`,
    status: null,
    authority: 'agent',
    path: null,
    revision: null,
    range: null,
    verifier: null,
    tool: null,
    role: null,
    meta: null,
    tx: fields.nid,
    validFrom: fields.nid,
    bodyHash: `h${fields.nid}`,
    body: null,
    tokens: 1,
    hop: 1,
    ...fields,
  };
}
