/**
 * The few RDF/JS terms the view builds (https://rdf.js.org/data-model-spec/), written here so the
 * view itself needs no package: Comunica, n3 and any other RDF/JS library accept them as they
 * are (they read `termType`/`value`, and call `equals`).
 */

export interface NamedNode {
  readonly termType: 'NamedNode';
  readonly value: string;
  /** RDF/JS term equality. */
  equals(other: Term | null | undefined): boolean;
}

/** An RDF/JS literal. */
export interface Literal {
  readonly termType: 'Literal';
  readonly value: string;
  readonly language: string;
  readonly datatype: NamedNode;
  /** RDF/JS term equality. */
  equals(other: Term | null | undefined): boolean;
}

/** The RDF/JS default graph. */
export interface DefaultGraph {
  readonly termType: 'DefaultGraph';
  readonly value: '';
  /** RDF/JS term equality. */
  equals(other: Term | null | undefined): boolean;
}

/** A term of the view: a named node, a literal or the default graph. */
export type Term = NamedNode | Literal | DefaultGraph;

/** An RDF/JS quad (always in the default graph). */
export interface Quad {
  readonly termType: 'Quad';
  readonly value: '';
  readonly subject: NamedNode;
  readonly predicate: NamedNode;
  readonly object: NamedNode | Literal;
  readonly graph: DefaultGraph;
  /** RDF/JS quad equality. */
  equals(other: Quad | null | undefined): boolean;
}

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

function sameTerm(a: Term, b: Term | null | undefined): boolean {
  if (!b || a.termType !== b.termType || a.value !== b.value) return false;
  if (a.termType !== 'Literal') return true;
  const l = b as Literal;
  return a.language === l.language && a.datatype.value === l.datatype.value;
}

export function namedNode(value: string): NamedNode {
  const term: NamedNode = { termType: 'NamedNode', value, equals: (o) => sameTerm(term, o) };
  return term;
}

/** A typed literal (xsd:string when no datatype is given). */
export function literal(value: string, datatype: NamedNode = namedNode(XSD_STRING)): Literal {
  const term: Literal = { termType: 'Literal', value, language: '', datatype, equals: (o) => sameTerm(term, o) };
  return term;
}

const DEFAULT_GRAPH: DefaultGraph = {
  termType: 'DefaultGraph',
  value: '',
  equals: (o) => o?.termType === 'DefaultGraph',
};

export function quad(subject: NamedNode, predicate: NamedNode, object: NamedNode | Literal): Quad {
  const q: Quad = {
    termType: 'Quad',
    value: '',
    subject,
    predicate,
    object,
    graph: DEFAULT_GRAPH,
    equals: (o) =>
      !!o &&
      sameTerm(subject, o.subject) &&
      sameTerm(predicate, o.predicate) &&
      sameTerm(object, o.object) &&
      sameTerm(DEFAULT_GRAPH, o.graph),
  };
  return q;
}
