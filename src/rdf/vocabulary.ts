import type { EdgeKind, NodeKind } from '../schema/kinds.js';
import { type NamedNode, namedNode } from './terms.js';

/**
 * The ledger's vocabulary (prefix `cl:`) and the PROV-O terms the view uses. Node kinds become
 * classes (`task` → `cl:Task`), edge kinds properties (`supported_by` → `cl:supportedBy`); every
 * node is also a `prov:Activity` or a `prov:Entity` (tasks a `prov:Plan`) so PROV-aware tools
 * read the graph without knowing `cl:`.
 */
export const CL = 'https://w3id.org/context-ledger/vocab#';
/** The PROV-O namespace. */
export const PROV = 'http://www.w3.org/ns/prov#';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const XSD = 'http://www.w3.org/2001/XMLSchema#';
/** Node IRIs: this prefix plus the percent-encoded node id (`act:2` → `…node:act%3A2`). */
export const NODE_BASE = 'urn:context-ledger:node:';
/** Transaction IRIs, the activities that invalidated superseded views. */
export const TX_BASE = 'urn:context-ledger:tx:';

/** Prefixes the Turtle and JSON-LD exports declare. */
export const PREFIXES: Readonly<Record<string, string>> = { cl: CL, prov: PROV, rdf: RDF, xsd: XSD, node: NODE_BASE };

const camel = (s: string): string => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const pascal = (s: string): string => camel(s).replace(/^[a-z]/, (c) => c.toUpperCase());

export const cl = (local: string): NamedNode => namedNode(CL + local);
export const prov = (local: string): NamedNode => namedNode(PROV + local);
export const xsd = (local: string): NamedNode => namedNode(XSD + local);
export const RDF_TYPE = namedNode(`${RDF}type`);

/** The IRI of a ledger node: `urn:context-ledger:node:` and the percent-encoded id. */
export const nodeIri = (id: string): NamedNode => namedNode(NODE_BASE + encodeURIComponent(id));
export const txIri = (tx: number): NamedNode => namedNode(TX_BASE + tx);
export const classOf = (kind: NodeKind): NamedNode => cl(pascal(kind));
export const propertyOf = (kind: EdgeKind): NamedNode => cl(camel(kind));

/** Actions, tool calls and verifier runs happen; everything else is a thing they use or make. */
export const ACTIVITY_KINDS: ReadonlySet<NodeKind> = new Set<NodeKind>(['action', 'tool_call', 'verifier_outcome']);
