import cytoscape from 'cytoscape';
import type { GraphEdge, GraphNode, NodeState } from './view-model.js';

/**
 * The closure graph, drawn by Cytoscape.js on a canvas (see README for why this library). The
 * layout is preset — a lane per kind, recording order downwards — so it costs O(n), never
 * moves between epochs, and stays readable at hundreds of nodes.
 */

const KIND_SHAPES: Record<string, cytoscape.Css.NodeShape> = {
  steering: 'star',
  task: 'round-rectangle',
  claim: 'diamond',
  evidence: 'rectangle',
  message: 'round-tag',
  action: 'ellipse',
  tool_call: 'triangle',
  tool_result: 'round-triangle',
  artifact_revision: 'hexagon',
  verifier_outcome: 'octagon',
};

const LANE_WIDTH = 120;
const ROW_HEIGHT = 44;

const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(id)',
      'font-size': 11,
      'text-valign': 'bottom',
      'text-margin-y': 2,
      'text-max-width': '112px',
      'text-wrap': 'ellipsis',
      width: 22,
      height: 22,
      'border-width': 2,
    },
  },
  { selector: 'node[state = "included"]', style: { 'background-color': '#2e9e62', 'border-color': '#1f7a4d' } },
  {
    selector: 'node[state = "excluded"]',
    style: { 'background-color': '#ffffff', 'border-color': '#b3261e', 'border-style': 'dashed' },
  },
  {
    selector: 'node[state = "superseded"]',
    style: { 'background-color': '#c9ced8', 'border-color': '#8a93a3', opacity: 0.6, color: '#6b7383' },
  },
  { selector: 'node:selected', style: { 'border-color': '#2f5dd0', 'border-width': 4 } },
  {
    selector: 'edge',
    style: {
      width: 1,
      'line-color': '#b8bfcc',
      'target-arrow-color': '#b8bfcc',
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.7,
      'curve-style': 'bezier',
    },
  },
  {
    selector: 'edge[kind = "supersedes"]',
    style: { 'line-style': 'dotted', width: 2, 'line-color': '#6b7383', 'target-arrow-color': '#6b7383' },
  },
  {
    selector: 'edge[kind = "contradicts"]',
    style: { 'line-style': 'dashed', width: 2.5, 'line-color': '#d33f2f', 'target-arrow-color': '#d33f2f' },
  },
];

for (const [kind, shape] of Object.entries(KIND_SHAPES))
  STYLE.push({ selector: `node[kind = "${kind}"]`, style: { shape } });

export interface DrawnGraph {
  /** `x`, `y`: where the node is drawn, in pixels from the canvas's top left corner. */
  nodes: Array<{ id: string; kind: string; state: NodeState; x: number; y: number }>;
  edges: Array<{ source: string; target: string; kind: string }>;
}

export class GraphView {
  private readonly cy: cytoscape.Core;
  private drawnKey = '';

  constructor(container: HTMLElement, onSelect: (id: string | null) => void) {
    this.cy = cytoscape({
      container,
      style: STYLE,
      layout: { name: 'preset' },
      minZoom: 0.1,
      maxZoom: 3,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    this.cy.on('tap', 'node', (e) => onSelect((e.target as cytoscape.NodeSingular).id()));
    this.cy.on('tap', (e) => {
      if (e.target === this.cy) onSelect(null);
    });
  }

  /** Replaces the drawing; refits only when the node set changed (scrubbing keeps the view steady). */
  draw(nodes: readonly GraphNode[], edges: readonly GraphEdge[], selected: string | null): void {
    const key = nodes.map((n) => n.id).join('\n');
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add([
        ...nodes.map((n) => ({
          group: 'nodes' as const,
          data: { id: n.id, kind: n.kind, state: n.state },
          position: { x: n.lane * LANE_WIDTH, y: n.row * ROW_HEIGHT },
          selected: n.id === selected,
        })),
        ...edges.map((e) => ({ group: 'edges' as const, data: { ...e } })),
      ]);
    });
    if (key !== this.drawnKey) {
      this.cy.resize();
      this.cy.fit(undefined, 24);
      this.drawnKey = key;
    }
  }

  /** The canvas is sized by CSS; a tab switch must tell Cytoscape to measure again. */
  resize(): void {
    this.cy.resize();
    this.cy.fit(undefined, 24);
  }

  /** What is on the canvas now (the e2e suite asserts on it). */
  drawn(): DrawnGraph {
    return {
      nodes: this.cy.nodes().map((n) => ({
        id: n.id(),
        kind: n.data('kind'),
        state: n.data('state'),
        x: n.renderedPosition().x,
        y: n.renderedPosition().y,
      })),
      edges: this.cy.edges().map((e) => ({ source: e.source().id(), target: e.target().id(), kind: e.data('kind') })),
    };
  }
}
