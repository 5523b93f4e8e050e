import type { NodeInput, Transaction } from '../../schema/types.js';
import { wellFormedTransaction } from '../well-formed.js';
import { DEFAULT_MAX_ENTITY_DF, type DocumentLink, documentLinks, type LinkedDocument } from './document-links.js';

/** A titled document of a corpus (a wiki page, a passage, a note). */
export type DocumentInput = LinkedDocument;

/** What a reader sees of a document: the title (it names what the document is about), then the text. */
export const documentBody = (d: LinkedDocument): string => `${d.title}\n${d.text}`;

/** Options of `fromDocuments`: ids, authority, paths, the epoch, and which links to draw. */
export interface DocumentOptions {
  /** Prepended to every node id. Default ''. */
  idPrefix?: string;
  /** Authority scope of every document. Default `documents`. */
  authority?: string;
  /** Prepended to the title to give each node's `path` (what exact lookup matches). Default `doc/`. */
  pathPrefix?: string;
  /** Epoch the corpus is valid from. Default 1. */
  epoch?: number;
  /** Draw the `cites` links between documents (see `documentLinks`). Default true. */
  links?: boolean;
  /** An entity named by more documents than this links none of them. Default 8. */
  maxEntityDf?: number;
}

/** What `fromDocuments` returns: one transaction, and why each link was drawn. */
export interface AdaptedDocuments {
  transactions: Transaction[];
  /** The links drawn (ids as given, without `idPrefix`), each with why. */
  links: DocumentLink[];
  /** Links by reason: `title`, `same-title`, `entity`. */
  linkCounts: Record<string, number>;
}

/**
 * A corpus of titled documents as one transaction, written the way multi-hop retrieval reads it:
 * each document an `evidence` node whose body is `<title>\n<text>` (the title is part of what a
 * reader sees and names what the document is about) and whose path is `<pathPrefix><title>`, and
 * `cites` edges between documents that name each other's titles or share a rare named entity, so
 * the graph channel's walk (personalized PageRank from the question's seeds) can reach the bridge
 * document of a two- or three-hop question that shares no word with it. Pure and deterministic.
 */
export function fromDocuments(documents: readonly DocumentInput[], options: DocumentOptions = {}): AdaptedDocuments {
  if (!Array.isArray(documents)) throw new TypeError('fromDocuments: expected an array of documents');
  const seen = new Set<string>();
  documents.forEach((d, i) => {
    for (const field of ['id', 'title', 'text'] as const) {
      if (typeof d?.[field] !== 'string')
        throw new TypeError(`fromDocuments: documents[${i}].${field} must be a string`);
    }
    if (d.id.length === 0) throw new TypeError(`fromDocuments: documents[${i}].id is empty`);
    if (seen.has(d.id)) throw new TypeError(`fromDocuments: documents[${i}].id repeats ${JSON.stringify(d.id)}`);
    seen.add(d.id);
  });
  const prefix = options.idPrefix ?? '';
  const authority = options.authority ?? 'documents';
  const pathPrefix = options.pathPrefix ?? 'doc/';
  const links = options.links === false ? [] : documentLinks(documents, options.maxEntityDf ?? DEFAULT_MAX_ENTITY_DF);
  const nodes: NodeInput[] = documents.map((d) => ({
    id: `${prefix}${d.id}`,
    kind: 'evidence',
    path: `${pathPrefix}${d.title}`,
    authority,
    body: documentBody(d),
  }));
  const edges = links.map(({ from, to, kind }) => ({ from: `${prefix}${from}`, to: `${prefix}${to}`, kind }));
  const linkCounts: Record<string, number> = {};
  for (const l of links) {
    const why = l.why.split(':')[0]!;
    linkCounts[why] = (linkCounts[why] ?? 0) + 1;
  }
  // Lone surrogates and a leading BOM (which the ledger refuses) made well-formed, as every adapter does.
  const tx = wellFormedTransaction({ epoch: options.epoch ?? 1, nodes, edges });
  return { transactions: [tx], links, linkCounts };
}
