import { LedgerError } from '../errors.js';
import type { Ledger } from '../ledger/ledger.js';
import { LIMITS } from '../schema/limits.js';
import { loadComunica, loadN3 } from './optional-modules.js';
import { type RdfViewOptions, rdfView } from './view.js';

/** Options of `sparql`: the view's epoch and authority scopes, as `rdfView` takes them. */
export type SparqlOptions = RdfViewOptions;

/** A result term as plain data (JSON-safe, the same in every runtime). */
export interface SparqlTerm {
  termType: 'NamedNode' | 'BlankNode' | 'Literal' | 'DefaultGraph' | 'Variable' | 'Quad';
  value: string;
  /** Literals: the datatype IRI. */
  datatype?: string;
  /** Literals: the language tag, when there is one. */
  language?: string;
}

/** A SPARQL result as plain JSON terms: bindings (SELECT), a boolean (ASK) or quads (CONSTRUCT, DESCRIBE). */
export type SparqlResult =
  | { type: 'bindings'; variables: string[]; rows: Array<Record<string, SparqlTerm>> }
  | { type: 'boolean'; value: boolean }
  | { type: 'quads'; quads: Array<{ subject: SparqlTerm; predicate: SparqlTerm; object: SparqlTerm }> };

interface RdfJsTerm {
  termType: string;
  value: string;
  datatype?: { value: string };
  language?: string;
}

function plainTerm(t: RdfJsTerm): SparqlTerm {
  const out: SparqlTerm = { termType: t.termType as SparqlTerm['termType'], value: t.value };
  if (t.termType === 'Literal') {
    if (t.datatype) out.datatype = t.datatype.value;
    if (t.language) out.language = t.language;
  }
  return out;
}

type Engine = InstanceType<Awaited<ReturnType<typeof loadComunica>>['QueryEngine']>;
/** Building Comunica's actor graph costs tens of milliseconds: one engine per process. */
let engine: Promise<Engine> | null = null;

/**
 * Runs a SPARQL 1.1 query (SELECT, ASK, CONSTRUCT, DESCRIBE) through Comunica over the RDF view
 * as of `options.epoch` within `options.authority`. The view is built first and only its quads
 * are the query's source, so no pattern can reach outside the scopes. A malformed query, or an
 * update, is `INVALID_QUERY`; a missing optional package is `DEPENDENCY_MISSING`.
 *
 * @example
 * const r = await sparql(ledger, 'SELECT ?c WHERE { ?c a <https://w3id.org/context-ledger/vocab#Claim> }', { epoch: 5 });
 * if (r.type === 'bindings') console.log(r.rows.map((row) => row.c?.value));
 */
export async function sparql(ledger: Ledger, query: string, options: SparqlOptions = {}): Promise<SparqlResult> {
  if (typeof query !== 'string' || query.trim() === '')
    throw new LedgerError('INVALID_REQUEST', { field: 'query', reason: 'a non-empty SPARQL string' });
  if (query.length > LIMITS.maxBodyChars)
    throw new LedgerError('INVALID_REQUEST', { field: 'query', reason: `at most ${LIMITS.maxBodyChars} characters` });
  const [{ Store }, quads] = await Promise.all([loadN3('SPARQL'), rdfView(ledger, options)]);
  engine ??= loadComunica().then(({ QueryEngine }) => new QueryEngine());
  const comunica = await engine.catch((e: unknown) => {
    engine = null;
    throw e;
  });
  const store = new Store();
  store.addQuads(quads as unknown as Parameters<typeof store.addQuads>[0]);
  try {
    const result = await comunica.query(query, { sources: [store] });
    switch (result.resultType) {
      case 'bindings': {
        const { variables } = await result.metadata();
        // Comunica's typings and versions disagree on the shape: `{ variable }` or the Variable itself.
        const names = (variables as unknown as Array<{ value?: string; variable?: { value: string } }>).map(
          (v) => v.variable?.value ?? v.value ?? '',
        );
        const bindings = await (await result.execute()).toArray();
        const rows = bindings.map((b) => {
          const row: Record<string, SparqlTerm> = {};
          for (const name of names) {
            const term = b.get(name);
            if (term) row[name] = plainTerm(term as RdfJsTerm);
          }
          return row;
        });
        return { type: 'bindings', variables: names, rows };
      }
      case 'boolean':
        return { type: 'boolean', value: await result.execute() };
      case 'quads': {
        const out = await (await result.execute()).toArray();
        return {
          type: 'quads',
          quads: out.map((q) => ({
            subject: plainTerm(q.subject as RdfJsTerm),
            predicate: plainTerm(q.predicate as RdfJsTerm),
            object: plainTerm(q.object as RdfJsTerm),
          })),
        };
      }
      default:
        throw new LedgerError('INVALID_QUERY', {
          field: 'query',
          reason: 'updates are refused: the ledger changes only through commit',
        });
    }
  } catch (e) {
    if (e instanceof LedgerError) throw e;
    throw new LedgerError('INVALID_QUERY', { field: 'query', reason: (e as Error).message }, e);
  }
}
