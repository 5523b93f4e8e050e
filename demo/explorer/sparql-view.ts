import type { SparqlResult } from '../../src/rdf/sparql.js';
import { $, h } from './dom.js';

/** Draws a SPARQL answer (or its error) in the SPARQL tab. */
export function drawSparqlResult(result: SparqlResult, epoch: number, ms: number): void {
  const box = $('sparql-results');
  if (result.type === 'boolean') {
    $('sparql-summary').textContent = `ASK at epoch ${epoch} in ${ms} ms`;
    box.replaceChildren(h('p', { class: 'verdict' }, String(result.value)));
    return;
  }
  const rows =
    result.type === 'bindings'
      ? result.rows.map((r) => result.variables.map((v) => r[v]?.value ?? ''))
      : result.quads.map((q) => [q.subject.value, q.predicate.value, q.object.value]);
  const head = result.type === 'bindings' ? result.variables : ['subject', 'predicate', 'object'];
  $('sparql-summary').textContent = `${rows.length} rows at epoch ${epoch} in ${ms} ms`;
  box.replaceChildren(
    h(
      'table',
      { class: 'sparql' },
      h('thead', {}, h('tr', {}, ...head.map((v) => h('th', {}, v)))),
      h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((v) => h('td', {}, h('code', {}, shorten(v))))))),
    ),
  );
}

export function drawSparqlError(e: unknown): void {
  $('sparql-summary').textContent = '';
  $('sparql-results').replaceChildren(h('p', { class: 'verdict abstain' }, `⚠ ${(e as Error).message}`));
}

/** Node IRIs back to ids, vocabulary IRIs to prefixed names: the table stays readable. */
function shorten(value: string): string {
  if (value.startsWith('urn:context-ledger:node:')) return decodeURIComponent(value.slice(24));
  return value
    .replace('https://w3id.org/context-ledger/vocab#', 'cl:')
    .replace('http://www.w3.org/ns/prov#', 'prov:')
    .replace('http://www.w3.org/1999/02/22-rdf-syntax-ns#', 'rdf:');
}
