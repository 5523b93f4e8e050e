import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { loadN3 } from './optional-modules.js';
import type { Literal, NamedNode, Quad } from './terms.js';
import { type RdfViewOptions, rdfView } from './view.js';
import { PREFIXES, RDF, XSD } from './vocabulary.js';

export const RDF_FORMATS = ['turtle', 'n-quads', 'json-ld'] as const;
export type RdfFormat = (typeof RDF_FORMATS)[number];

export interface RdfExportOptions extends RdfViewOptions {
  /** Default `turtle`. */
  format?: RdfFormat;
}

/**
 * The view as text: Turtle or N-Quads through n3's writer (optional dependency), JSON-LD
 * written here (flattened, one object per subject, compacted with the `cl:`/`prov:` prefixes).
 */
export async function toRdf(ledger: Ledger, options: RdfExportOptions = {}): Promise<string> {
  const format = options.format ?? 'turtle';
  if (!RDF_FORMATS.includes(format))
    throw new LedgerError('INVALID_OPTION', { field: 'format', value: format, reason: RDF_FORMATS.join(', ') });
  const quads = await rdfView(ledger, options);
  return format === 'json-ld' ? quadsToJsonLd(quads) : writeWithN3(quads, format);
}

/** Serialises quads with n3's Writer (`turtle` or `n-quads`). */
async function writeWithN3(quads: readonly Quad[], format: 'turtle' | 'n-quads'): Promise<string> {
  const { Writer } = await loadN3(`RDF export to ${format}`);
  const writer =
    format === 'turtle'
      ? new Writer({ prefixes: { ...PREFIXES }, format: 'Turtle' })
      : new Writer({ format: 'N-Quads' });
  // n3 reads RDF/JS terms structurally; its typings want its own classes.
  writer.addQuads(quads as unknown as Parameters<typeof writer.addQuads>[0]);
  return new Promise((resolve, reject) => writer.end((error, text) => (error ? reject(error) : resolve(text))));
}

type JsonLdValue = string | { '@id': string } | { '@value': string; '@type': string };

const compact = (iri: string): string => {
  for (const [prefix, ns] of Object.entries(PREFIXES))
    if (prefix !== 'node' && iri.startsWith(ns) && /^[A-Za-z][\w-]*$/.test(iri.slice(ns.length)))
      return `${prefix}:${iri.slice(ns.length)}`;
  return iri;
};

function jsonLdValue(o: NamedNode | Literal): JsonLdValue {
  if (o.termType === 'NamedNode') return { '@id': o.value };
  return o.datatype.value === `${XSD}string` ? o.value : { '@value': o.value, '@type': compact(o.datatype.value) };
}

/** Flattened JSON-LD: a `@graph` of node objects in the order their subjects first appear. */
export function quadsToJsonLd(quads: readonly Quad[]): string {
  const subjects = new Map<string, Record<string, unknown>>();
  for (const q of quads) {
    let node = subjects.get(q.subject.value);
    if (!node) {
      node = { '@id': q.subject.value };
      subjects.set(q.subject.value, node);
    }
    const key = q.predicate.value === `${RDF}type` ? '@type' : compact(q.predicate.value);
    const value = key === '@type' ? compact(q.object.value) : jsonLdValue(q.object);
    const list = (node[key] as unknown[] | undefined) ?? [];
    list.push(value);
    node[key] = list;
  }
  const context = Object.fromEntries(Object.entries(PREFIXES).filter(([p]) => p !== 'node'));
  return JSON.stringify({ '@context': context, '@graph': [...subjects.values()] }, null, 2);
}
