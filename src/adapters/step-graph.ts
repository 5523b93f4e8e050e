import type { EdgeInput, NodeInput } from '../schema/types.js';
import type { KnownFiles } from './known-files.js';
import type { PreImage } from './types.js';

/** The nodes and edges of one step's transaction; an edge given twice is written once. */
export class StepGraph {
  readonly nodes: NodeInput[] = [];
  readonly edges: EdgeInput[] = [];
  private readonly edgeKeys = new Set<string>();

  node(node: NodeInput): void {
    this.nodes.push(node);
  }

  edge(from: string, to: string, kind: EdgeInput['kind']): void {
    const key = `${from}\u0000${to}\u0000${kind}`;
    if (this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    this.edges.push({ from, to, kind });
  }
}

/** What the emitters of one step write to and read from. */
export interface StepContext {
  readonly epoch: number;
  readonly graph: StepGraph;
  readonly files: KnownFiles;
  /** The trace's pre-images, in write order. */
  readonly preImages: PreImage[];
  /** A unique id for a local name (see TraceBuilder). */
  id(local: string): string;
  count(category: string, n?: number): void;
  warn(step: number, reason: string): void;
}
