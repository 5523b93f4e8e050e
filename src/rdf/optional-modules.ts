import { LedgerError } from '../errors.js';

/**
 * n3 and Comunica are optional peer dependencies: the core bundle never imports them, and
 * `context-ledger/rdf` loads them on first use. The specifiers stay literal so bundlers (Vite,
 * esbuild, wrangler) can find and split them; a missing package becomes a coded error that names it.
 */
export type N3Module = typeof import('n3');
export type ComunicaModule = typeof import('@comunica/query-sparql-rdfjs-lite');

let n3: Promise<N3Module> | null = null;
let comunica: Promise<ComunicaModule> | null = null;

function missing(pkg: string, feature: string) {
  return (cause: unknown): never => {
    throw new LedgerError(
      'DEPENDENCY_MISSING',
      { package: pkg, reason: `${feature} needs the optional package ${pkg}: npm install ${pkg}` },
      cause,
    );
  };
}

/** n3 (Turtle / N-Quads writer, the store Comunica queries). */
export function loadN3(feature: string): Promise<N3Module> {
  n3 ??= import('n3').then((m) => ((m as { default?: N3Module }).default ?? m) as N3Module);
  return n3.catch((e: unknown) => {
    n3 = null;
    return missing('n3', feature)(e);
  });
}

/** Comunica's SPARQL engine for RDF/JS sources (the lite build). */
export function loadComunica(): Promise<ComunicaModule> {
  comunica ??= import('@comunica/query-sparql-rdfjs-lite').then(
    (m) => ((m as { default?: ComunicaModule }).default ?? m) as ComunicaModule,
  );
  return comunica.catch((e: unknown) => {
    comunica = null;
    return missing('@comunica/query-sparql-rdfjs-lite', 'SPARQL')(e);
  });
}
