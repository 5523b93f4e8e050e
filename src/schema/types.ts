import type { EdgeKind, NodeKind, Status } from './kinds.js';

/** An inclusive line range `[first, last]`, 1-based. */
export type LineRange = readonly [number, number];

/** A node as a transaction writes it. Field names are part of the public contract. */
export interface NodeInput {
  /** Stable, caller-chosen id; unique for the ledger's whole life. */
  id: string;
  kind: NodeKind;
  /** Defaults by kind (see STATUS_RULES); required for `verifier_outcome`. */
  status?: Status;
  /** Scope the record belongs to (e.g. `user`, `agent`, `repo:acme/app`, `tool:web`). Default `agent`. */
  authority?: string;
  /** Text of the record; stored once per distinct content and token-counted at write time. */
  body?: string;
  /** Artifact path (evidence, artifact_revision; optional elsewhere). */
  path?: string;
  /** Content hash / revision id of the artifact the record was cut from or produced. */
  revision?: string;
  /** Exact line range within `path` at `revision`. */
  range?: LineRange;
  /** For `artifact_revision`: the line ranges (of the previous revision) this revision changed.
   * When given, only evidence overlapping them is superseded; when absent, all evidence cut
   * from earlier revisions of the path is. */
  changed?: readonly LineRange[];
  /** For `verifier_outcome`: the name of the check, e.g. `pytest tests/test_can.py`. A newer
   * outcome of the same verifier supersedes the older. */
  verifier?: string;
  /** For `tool_call`: the tool's name. */
  tool?: string;
  /** For `message`: who spoke. */
  role?: 'user' | 'assistant' | 'system' | 'tool';
  /** Small scalar annotations kept verbatim (not indexed). */
  meta?: Readonly<Record<string, string | number | boolean | null>>;
}

/** An edge as a transaction writes it: `from` and `to` ids and a kind. */
export interface EdgeInput {
  from: string;
  to: string;
  kind: EdgeKind;
}

/** A status change of an existing node: recorded as a new version valid from the epoch. */
export interface TransitionInput {
  id: string;
  status: Status;
}

/** What `ledger.commit` applies whole or not at all: nodes, edges and status transitions at one epoch. */
export interface Transaction {
  /** The agent's logical step counter; never smaller than the last committed epoch. */
  epoch: number;
  nodes?: readonly NodeInput[];
  edges?: readonly EdgeInput[];
  transitions?: readonly TransitionInput[];
}

/** What a commit (or an archive) did: its transaction number, counts, supersessions and contradictions. */
export interface Receipt {
  /** Transaction number (recording order), starting at 1. */
  tx: number;
  epoch: number;
  counts: { nodes: number; edges: number; bodies: number; transitions: number };
  /** Ids whose validity this commit closed (older revisions, stale evidence, older outcomes). */
  superseded: string[];
  /** Contradiction pairs this commit recorded, surfaced rather than resolved. */
  contradictions: Array<{ from: string; to: string }>;
}

/** A node as the as-of view returns it: the commit shape plus validity. */
export interface NodeRecord extends NodeInput {
  authority: string;
  status?: Status;
  /** Transaction that wrote this version. */
  tx: number;
  validFrom: number;
  /** Epoch at which the record stopped being valid; absent while valid. */
  validTo?: number;
  /** Token count of the body in the ledger's encoding (0 without a body). */
  tokens: number;
  /** Content hash of the body (sha-256, hex), absent without a body. */
  bodyHash?: string;
}

/** An edge as `asOf` reads it: the input plus its transaction and validity. */
export interface EdgeRecord extends EdgeInput {
  tx: number;
  validFrom: number;
  validTo?: number;
}

/** The nodes and edges valid at one epoch, in recording order. */
export interface GraphView {
  nodes: NodeRecord[];
  edges: EdgeRecord[];
}
