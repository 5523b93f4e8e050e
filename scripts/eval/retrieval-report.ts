/**
 * The retrieval evaluation as Markdown and as deterministic JSON (keys sorted at every level, so
 * two runs differ only where a measurement did).
 */
import { CATEGORY_NAMES } from './locomo.js';
import {
  type LocomoReport,
  type MusiqueReport,
  type RetrievalReport,
  SYSTEMS,
  type SystemName,
} from './retrieval-eval.js';

const pct = (x: number | undefined): string => (x === undefined ? '–' : (100 * x).toFixed(1));
const ms = (x: number | undefined): string => (x === undefined ? '–' : x.toFixed(1));

const LABELS: Record<string, string> = {
  ledger: 'ledger',
  ledgerGraph: 'ledger + graph',
  ledgerSemantic: 'ledger + semantic',
  ledgerSemanticGraph: 'ledger + semantic + graph',
  plainBm25: 'plain BM25',
  oramaBm25: 'Orama BM25',
  oramaHybrid: 'Orama hybrid',
};

function locomoMarkdown(r: LocomoReport): string[] {
  // A fixed order: the JSON report sorts its keys, and the table must render the same from it.
  const systems = SYSTEMS.filter((s) => s in r.recall) as Array<Exclude<SystemName, 'ledgerSemantic'>>;
  const rows = ['overall', ...([1, 2, 3, 4, 5] as const).map((c) => `${c}-${CATEGORY_NAMES[c]}`)];
  const out = [
    `## LoCoMo (${r.data.conversations} conversations, ${r.data.turns} turns, ${r.data.questions} questions)`,
    '',
    `Recall@5 / @10 (%) of the evidence turns; "overall" = categories 1–4. Turns through \`fromConversation\`, asked with a user's default call (\`authority: ['user']\`, no scoping, no extra records); every system indexes the same bodies; ${r.config.k} results per query; graph hops ${r.config.hops ?? 'default'}; embedder ${r.config.embedder}${r.config.semantic ? `; "semantic" and Orama hybrid: ${r.config.semantic}` : ''}; Orama terms: \`${r.config.oramaTokenizer}\`.`,
    '',
    `| category | questions | ${systems.map((s) => `${LABELS[s]} @5 | ${LABELS[s]} @10`).join(' | ')} |`,
    `|---|---:|${systems.map(() => '---:|---:').join('|')}|`,
  ];
  for (const row of rows) {
    const n = r.recall[systems[0]!][row]?.questions ?? 0;
    out.push(
      `| ${row} | ${n} | ${systems.map((s) => `${pct(r.recall[s][row]?.at['5'])} | ${pct(r.recall[s][row]?.at['10'])}`).join(' | ')} |`,
    );
  }
  out.push(
    '',
    `| latency (ms) | ${systems.map((s) => LABELS[s]).join(' | ')} |`,
    `|---|${systems.map(() => '---:').join('|')}|`,
    `| p50 | ${systems.map((s) => ms(r.latency[s].p50)).join(' | ')} |`,
    `| p95 | ${systems.map((s) => ms(r.latency[s].p95)).join(' | ')} |`,
    `| index build, total | ${systems.map((s) => ms(r.latency[s].buildMs)).join(' | ')} |`,
    '',
    `Abstention (ledger \`status\`, default threshold ${r.config.supportThreshold}): ${pct(r.abstention.category5)}% of category-5 questions, ${pct(r.abstention.falseAbstention)}% false abstentions on categories 1–4.`,
    '',
    '| support threshold | abstains on category 5 (%) | false abstentions, categories 1–4 (%) |',
    '|---:|---:|---:|',
    ...r.abstention.curve.map((c) => `| ${c.threshold} | ${pct(c.category5)} | ${pct(c.falseAbstention)} |`),
    '',
    `Evidence ids: ${r.data.repairs.repaired} malformed ids repaired, ${r.data.repairs.dropped} unrecoverable dropped, ${r.data.repairs.dangling} naming no turn dropped; ${r.data.repairs.withoutGold} questions without any gold turn are left out of recall.`,
  );
  return out;
}

function musiqueMarkdown(r: MusiqueReport): string[] {
  const systems = Object.keys(r.recall);
  const hopRows = Object.keys(r.byHops[systems[0]!] ?? {});
  const links = Object.entries(r.data.links)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  return [
    `## MuSiQue (${r.data.questions} questions, ${r.data.passages} passages)`,
    '',
    `Recall@2 / @5 (%) of the supporting passages. "ledger" = no graph expansion (hops 0); "ledger + graph" = hops ${r.config.hops} over passage links (${links}; entity df cap ${r.config.maxEntityDf})${r.config.semantic ? `; "semantic" and Orama hybrid: ${r.config.semantic}` : ''}. Orama terms: \`${r.config.oramaTokenizer}\`.`,
    '',
    `| questions | n | ${systems.map((s) => `${LABELS[s] ?? s} @2 | ${LABELS[s] ?? s} @5`).join(' | ')} |`,
    `|---|---:|${systems.map(() => '---:|---:').join('|')}|`,
    `| all | ${r.recall[systems[0]!]!.questions} | ${systems.map((s) => `${pct(r.recall[s]!.at['2'])} | ${pct(r.recall[s]!.at['5'])}`).join(' | ')} |`,
    ...hopRows.map(
      (h) =>
        `| ${h} | ${r.byHops[systems[0]!]![h]!.questions} | ${systems.map((s) => `${pct(r.byHops[s]![h]!.at['2'])} | ${pct(r.byHops[s]![h]!.at['5'])}`).join(' | ')} |`,
    ),
    '',
    `| latency (ms) | ${systems.map((s) => LABELS[s] ?? s).join(' | ')} |`,
    `|---|${systems.map(() => '---:').join('|')}|`,
    `| p50 | ${systems.map((s) => ms(r.latency[s]!.p50)).join(' | ')} |`,
    `| p95 | ${systems.map((s) => ms(r.latency[s]!.p95)).join(' | ')} |`,
    `| index build | ${systems.map((s) => ms(r.latency[s]!.buildMs)).join(' | ')} |`,
  ];
}

export function renderRetrievalMarkdown(report: RetrievalReport): string {
  const parts = ['# Retrieval evaluation', ''];
  if (report.locomo) parts.push(...locomoMarkdown(report.locomo), '');
  if (report.musique) parts.push(...musiqueMarkdown(report.musique), '');
  if (report.vectorCache) {
    const c = report.vectorCache;
    parts.push(
      `Semantic vectors: ${c.corpusEmbedded} corpus texts embedded in this run, ${c.corpusHits} read from the evaluation's vector cache (index builds are lower by that much embedding time); ${c.queriesEmbedded} query embeddings, all live (in the latencies).`,
      '',
    );
  }
  parts.push(
    `Run time: ${report.seconds.toFixed(0)} s. Latencies are wall times on a shared machine: compare systems within one run, not across runs.`,
    '',
  );
  return parts.join('\n');
}

/** JSON with keys sorted at every level (arrays keep their order). */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v !== null && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}
