/**
 * `context-ledger/rdf`: the ledger as RDF/JS quads (its own vocabulary plus PROV-O), exported to
 * Turtle / N-Quads / JSON-LD, and queried with SPARQL through Comunica. n3 and
 * `@comunica/query-sparql-rdfjs-lite` are optional peer dependencies, loaded on first use; the
 * core `context-ledger` entry never imports this module.
 */
export { quadsToJsonLd, RDF_FORMATS, type RdfExportOptions, type RdfFormat, toRdf } from './export.js';
export { type SparqlOptions, type SparqlResult, type SparqlTerm, sparql } from './sparql.js';
export type { DefaultGraph, Literal, NamedNode, Quad, Term } from './terms.js';
export { type RdfSource, type RdfViewOptions, rdfView, type SupersededRecord } from './view.js';
export { CL, NODE_BASE, nodeIri, PREFIXES, PROV, TX_BASE } from './vocabulary.js';
