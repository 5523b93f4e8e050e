import { rowsOf } from '../engine/rows.js';
import { LedgerError } from '../errors.js';
import { toNodeRecord } from '../ledger/graph-view.js';
import { type Ledger, lastEpochOf, readLedger } from '../ledger/ledger.js';
import type { EdgeKind, NodeKind } from '../schema/kinds.js';
import { checkListLength, scopeSetField } from '../schema/request-checks.js';
import type { BodyColumns, NodeRow } from '../schema/rows.js';
import type { NodeRecord } from '../schema/types.js';
import { assertEpoch, nodesAsOfSql } from '../sql/as-of.js';
import { supersededAsOfSql, viewEdgesSql } from '../sql/rdf-view.js';
import { type Literal, literal, type NamedNode, type Quad, quad } from './terms.js';
import { ACTIVITY_KINDS, cl, classOf, nodeIri, propertyOf, prov, RDF_TYPE, txIri, xsd } from './vocabulary.js';

/** Which view `rdfView`, `toRdf` and `sparql` read: the epoch, the authority scopes, whether to carry bodies, and how epochs map to times. */
export interface RdfViewOptions {
  /** Task epoch the view is taken at; default the ledger's last epoch. */
  epoch?: number;
  /** Authority scopes the view may hold; default every scope. Nothing outside them becomes a quad. */
  authority?: readonly string[];
  /** Emit `cl:body` literals (default true); without them the view carries only the graph. */
  bodies?: boolean;
  /**
   * Epochs are logical steps, PROV times are `xsd:dateTime`: this maps an epoch to the ISO time
   * written as `prov:invalidatedAtTime`. Default: the epoch as seconds after 1970-01-01T00:00:00Z,
   * which keeps the order; the exact epoch is also given as `cl:validTo`.
   */
  epochTime?: (epoch: number) => string;
}

/** A node that had a version by the epoch but none valid at it, with the closure that ended it. */
export interface SupersededRecord extends NodeRecord {
  validTo: number;
  /** Transaction that closed it. */
  closedTx: number;
  /** `newer-revision`, `stale-evidence`, `newer-outcome`, `superseded` or `archived`. */
  reason: string;
  /** The node whose arrival closed it, when one did. */
  supersededBy?: string;
}

/** What the view is built from: everything the ledger knew at the epoch, any scope. */
export interface RdfSource {
  epoch: number;
  nodes: readonly NodeRecord[];
  superseded: readonly SupersededRecord[];
  edges: ReadonlyArray<{ from: string; to: string; kind: EdgeKind; tx: number; validFrom: number }>;
}

interface ResolvedViewOptions {
  epoch: number;
  authority: ReadonlySet<string> | null;
  bodies: boolean;
  epochTime: (epoch: number) => string;
}

const defaultEpochTime = (epoch: number): string => new Date(epoch * 1000).toISOString();

/** Checks the options once and fills in the defaults. */
function resolveViewOptions(options: RdfViewOptions, lastEpoch: number): ResolvedViewOptions {
  if (typeof options !== 'object' || options === null) throw new LedgerError('INVALID_OPTION', { field: 'options' });
  const epoch = options.epoch ?? lastEpoch;
  assertEpoch(epoch);
  checkListLength(options.authority, 'authority', 'maxAuthorityScopes');
  const authority = scopeSetField(options.authority, 'authority');
  if (options.bodies !== undefined && typeof options.bodies !== 'boolean')
    throw new LedgerError('INVALID_OPTION', { field: 'bodies' });
  if (options.epochTime !== undefined && typeof options.epochTime !== 'function')
    throw new LedgerError('INVALID_OPTION', { field: 'epochTime' });
  return {
    epoch,
    authority: authority === null ? null : new Set(authority),
    bodies: options.bodies ?? true,
    epochTime: options.epochTime ?? defaultEpochTime,
  };
}

/** Reads what the view needs from the ledger, in one exclusive turn (never half a commit). */
export function readRdfSource(ledger: Ledger, epoch: number): Promise<RdfSource> {
  return readLedger(ledger, async ({ engine }) => {
    const nodes = rowsOf<NodeRow & BodyColumns>(await engine.query(nodesAsOfSql(epoch))).map(toNodeRecord);
    const superseded = rowsOf<
      NodeRow &
        BodyColumns & { closed_tx: number; closed_epoch: number; closed_reason: string; closed_by: string | null }
    >(await engine.query(supersededAsOfSql(epoch))).map((r): SupersededRecord => {
      const rec = toNodeRecord(r) as SupersededRecord;
      rec.validTo = r.closed_epoch;
      rec.closedTx = r.closed_tx;
      rec.reason = r.closed_reason;
      if (r.closed_by !== null) rec.supersededBy = r.closed_by;
      return rec;
    });
    const edges = rowsOf<{ kind: EdgeKind; tx: number; valid_from: number; from_id: string; to_id: string }>(
      await engine.query(viewEdgesSql(epoch)),
    ).map((e) => ({ from: e.from_id, to: e.to_id, kind: e.kind, tx: e.tx, validFrom: e.valid_from }));
    return { epoch, nodes, superseded, edges };
  });
}

/**
 * The RDF/JS quads of the ledger as of `options.epoch` within `options.authority`. The scope
 * filter runs first, on the nodes: an edge, a supersession link or a transaction appears only
 * when every node it names is inside the scopes, so nothing outside them is ever a quad.
 */
export async function rdfView(ledger: Ledger, options: RdfViewOptions = {}): Promise<Quad[]> {
  const resolved = resolveViewOptions(options, lastEpochOf(ledger));
  return toQuads(await readRdfSource(ledger, resolved.epoch), resolved);
}

const INTEGER = xsd('integer');
const int = (n: number): Literal => literal(String(n), INTEGER);
const str = (s: string): Literal => literal(s);

/** What a PROV edge means for each ledger edge, given whether its ends are activities. */
function provLinks(
  kind: EdgeKind,
  fromActivity: boolean,
  toActivity: boolean,
): Array<{ subject: 'from' | 'to'; predicate: string }> {
  switch (kind) {
    case 'produces': // a call generated its result
      return [{ subject: 'to', predicate: 'wasGeneratedBy' }];
    case 'mutates': // an action or call generated the new revision
      return [{ subject: 'to', predicate: 'wasGeneratedBy' }];
    case 'invokes':
      return [{ subject: 'to', predicate: 'wasInformedBy' }];
    case 'verified_by': // the verifier run used what it checked
      return [{ subject: 'to', predicate: fromActivity ? 'wasInformedBy' : 'used' }];
    case 'supported_by':
    case 'requires':
    case 'cites':
      if (toActivity) return fromActivity ? [{ subject: 'from', predicate: 'wasInformedBy' }] : [];
      if (fromActivity) return [{ subject: 'from', predicate: 'used' }];
      return kind === 'supported_by' ? [{ subject: 'from', predicate: 'wasDerivedFrom' }] : [];
    case 'supersedes':
      return !fromActivity && !toActivity ? [{ subject: 'from', predicate: 'wasRevisionOf' }] : [];
    default:
      return [];
  }
}

/** Pure: the quads of `source` under resolved options, in a fixed order (nodes, then edges). */
function toQuads(source: RdfSource, options: ResolvedViewOptions): Quad[] {
  const inScope = (n: NodeRecord) => options.authority === null || options.authority.has(n.authority);
  const nodes = source.nodes.filter(inScope);
  const superseded = source.superseded.filter(inScope);
  const kinds = new Map<string, NodeKind>();
  for (const n of [...nodes, ...superseded]) kinds.set(n.id, n.kind);

  const out: Quad[] = [];
  const seen = new Set<string>();
  const add = (s: NamedNode, p: NamedNode, o: NamedNode | Literal): void => {
    const key = `${s.value}\u0000${p.value}\u0000${o.termType}\u0000${o.value}\u0000${o.termType === 'Literal' ? o.datatype.value : ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(quad(s, p, o));
  };

  const revisions = new Map<string, string>();
  for (const n of [...nodes, ...superseded])
    if (n.kind === 'artifact_revision' && n.path !== undefined && n.revision !== undefined)
      revisions.set(`${n.path}\u0000${n.revision}`, n.id);

  const describe = (n: NodeRecord): NamedNode => {
    const s = nodeIri(n.id);
    add(s, RDF_TYPE, classOf(n.kind));
    if (ACTIVITY_KINDS.has(n.kind)) add(s, RDF_TYPE, prov('Activity'));
    else {
      add(s, RDF_TYPE, prov('Entity'));
      if (n.kind === 'task') add(s, RDF_TYPE, prov('Plan'));
    }
    add(s, cl('id'), str(n.id));
    add(s, cl('kind'), str(n.kind));
    if (n.status !== undefined) add(s, cl('status'), str(n.status));
    add(s, cl('authority'), str(n.authority));
    if (options.bodies && n.body !== undefined) add(s, cl('body'), str(n.body));
    if (n.bodyHash !== undefined) add(s, cl('bodyHash'), str(n.bodyHash));
    add(s, cl('tokens'), int(n.tokens));
    if (n.path !== undefined) add(s, cl('path'), str(n.path));
    if (n.revision !== undefined) add(s, cl('revision'), str(n.revision));
    if (n.range) {
      add(s, cl('rangeStart'), int(n.range[0]));
      add(s, cl('rangeEnd'), int(n.range[1]));
    }
    if (n.verifier !== undefined) add(s, cl('verifier'), str(n.verifier));
    if (n.tool !== undefined) add(s, cl('tool'), str(n.tool));
    if (n.role !== undefined) add(s, cl('role'), str(n.role));
    add(s, cl('tx'), int(n.tx));
    add(s, cl('validFrom'), int(n.validFrom));
    if (n.kind === 'evidence' && n.path !== undefined && n.revision !== undefined) {
      const rev = revisions.get(`${n.path}\u0000${n.revision}`);
      if (rev !== undefined) add(s, prov('wasDerivedFrom'), nodeIri(rev));
    }
    return s;
  };

  for (const n of nodes) describe(n);
  for (const n of superseded) {
    const s = describe(n);
    add(s, cl('validTo'), int(n.validTo));
    add(s, cl('invalidationReason'), str(n.reason));
    const by = n.supersededBy !== undefined && kinds.has(n.supersededBy) ? n.supersededBy : undefined;
    // The closing transaction is named only when whatever closed it is in scope too.
    if (n.supersededBy === undefined || by !== undefined) {
      const t = txIri(n.closedTx);
      add(t, RDF_TYPE, prov('Activity'));
      add(t, RDF_TYPE, cl('Transaction'));
      add(t, cl('tx'), int(n.closedTx));
      add(s, cl('closedBy'), t);
      if (!ACTIVITY_KINDS.has(n.kind)) {
        add(s, prov('wasInvalidatedBy'), t);
        add(s, prov('invalidatedAtTime'), literal(options.epochTime(n.validTo), xsd('dateTime')));
      }
    }
    if (by !== undefined) {
      add(s, cl('supersededBy'), nodeIri(by));
      const byKind = kinds.get(by) as NodeKind;
      if (
        (n.reason === 'newer-revision' || n.reason === 'superseded') &&
        !ACTIVITY_KINDS.has(n.kind) &&
        !ACTIVITY_KINDS.has(byKind)
      )
        add(nodeIri(by), prov('wasRevisionOf'), s);
    }
  }

  for (const e of source.edges) {
    const fromKind = kinds.get(e.from);
    const toKind = kinds.get(e.to);
    if (fromKind === undefined || toKind === undefined) continue;
    const from = nodeIri(e.from);
    const to = nodeIri(e.to);
    add(from, propertyOf(e.kind), to);
    for (const link of provLinks(e.kind, ACTIVITY_KINDS.has(fromKind), ACTIVITY_KINDS.has(toKind)))
      link.subject === 'from' ? add(from, prov(link.predicate), to) : add(to, prov(link.predicate), from);
  }
  return out;
}
