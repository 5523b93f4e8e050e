import cytoscape from 'cytoscape';
import type { GraphEdge, GraphNode, NodeState } from './view-model.js';

/**
 * The closure graph, drawn by Cytoscape.js on a canvas (see README for why this library). The
 * layout is preset — a lane per kind, one row per step downwards — so it costs O(n) and never
 * moves between epochs. The view is fitted once per trace: scrubbing keeps the reader's zoom and
 * pan. Labels appear only at a readable zoom; a task's edges (it links to nearly everything)
 * only when the task or the node at their other end is selected.
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

const LANE_WIDTH = 150;
const ROW_HEIGHT = 40;
const SLOT_WIDTH = 26;

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
      // Below this on-screen size a label is noise: it is not drawn.
      'min-zoomed-font-size': 8,
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
  { selector: 'node:selected', style: { 'border-color': '#2f5dd0', 'border-width': 5, 'z-index': 10 } },
  { selector: 'edge[?hub]', style: { display: 'none' } },
  { selector: 'edge.shown', style: { display: 'element', 'line-color': '#7c4dcc', 'target-arrow-color': '#7c4dcc' } },
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
  zoom: number;
  /** `x`, `y`: where the node is drawn, in pixels from the canvas's top left corner. */
  nodes: Array<{ id: string; kind: string; state: NodeState; x: number; y: number }>;
  edges: Array<{ source: string; target: string; kind: string }>;
}

export class GraphView {
  private readonly cy: cytoscape.Core;
  private fittedTrace = '';
  private drawnTrace = '';
  private lanes: readonly string[] = [];

  constructor(
    container: HTMLElement,
    private readonly headers: HTMLElement,
    onSelect: (id: string | null) => void,
  ) {
    this.cy = cytoscape({
      container,
      style: STYLE,
      layout: { name: 'preset' },
      minZoom: 0.05,
      maxZoom: 3,
      boxSelectionEnabled: false,
      autoungrabify: true,
    });
    this.cy.on('tap', 'node', (e) => onSelect((e.target as cytoscape.NodeSingular).id()));
    this.cy.on('tap', (e) => {
      if (e.target === this.cy) onSelect(null);
    });
    this.cy.on('viewport', () => this.placeHeaders());
  }

  /**
   * Replaces the drawing. The view is fitted the first time a trace is drawn (`trace` names it)
   * and never again for it, so scrubbing keeps the zoom and pan the reader chose.
   */
  draw(
    nodes: readonly GraphNode[],
    edges: readonly GraphEdge[],
    lanes: readonly string[],
    selected: string | null,
    trace: string,
  ): void {
    this.lanes = lanes;
    this.drawnTrace = trace;
    this.cy.batch(() => {
      this.cy.elements().remove();
      this.cy.add([
        ...nodes.map((n) => ({
          group: 'nodes' as const,
          data: { id: n.id, kind: n.kind, state: n.state },
          position: { x: n.lane * LANE_WIDTH + n.slot * SLOT_WIDTH, y: n.row * ROW_HEIGHT },
          selected: n.id === selected,
        })),
        ...edges.map((e) => ({
          group: 'edges' as const,
          data: { ...e },
          classes: e.hub && (e.source === selected || e.target === selected) ? 'shown' : '',
        })),
      ]);
    });
    if (trace !== this.fittedTrace && nodes.length > 0 && this.cy.container()?.offsetParent) {
      this.fit();
      this.fittedTrace = trace;
    }
    this.reveal();
    this.placeHeaders();
  }

  /** Pans (never zooms) to the selected node when it is out of view. */
  private reveal(): void {
    const node = this.cy.nodes(':selected').first();
    const box = this.cy.container();
    if (node.length === 0 || !box) return;
    const { x, y } = node.renderedPosition();
    if (x < 20 || y < 30 || x > box.clientWidth - 20 || y > box.clientHeight - 20) this.cy.center(node);
  }

  fit(): void {
    this.cy.resize();
    this.cy.fit(undefined, 30);
    // Fitting hundreds of rows would shrink them to dots: keep rows readable, start at the top.
    if (this.cy.zoom() < 0.35) {
      this.cy.zoom(0.35);
      const box = this.cy.elements().boundingBox();
      this.cy.pan({ x: 30 - box.x1 * 0.35 + 40, y: 40 - box.y1 * 0.35 });
      const selected = this.cy.nodes(':selected').first();
      if (selected.length > 0) this.cy.center(selected);
    }
    this.placeHeaders();
  }

  /** The canvas is sized by CSS; a tab switch must tell Cytoscape to measure again. */
  shown(): void {
    this.cy.resize();
    if (this.drawnTrace !== this.fittedTrace && this.cy.nodes().length > 0) {
      this.fit();
      this.fittedTrace = this.drawnTrace;
    }
    this.placeHeaders();
  }

  /** Lane names above their lanes, following pan and zoom. */
  private placeHeaders(): void {
    const zoom = this.cy.zoom();
    const pan = this.cy.pan();
    this.headers.replaceChildren(
      ...this.lanes.map((kind, lane) => {
        const el = document.createElement('span');
        el.textContent = kind.replace('_', ' ');
        el.style.left = `${pan.x + lane * LANE_WIDTH * zoom - 10}px`;
        el.style.maxWidth = `${Math.max(24, LANE_WIDTH * zoom - 4)}px`;
        el.title = kind;
        return el;
      }),
    );
  }

  /** What is on the canvas now (the e2e suite asserts on it). */
  drawn(): DrawnGraph {
    return {
      zoom: this.cy.zoom(),
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
