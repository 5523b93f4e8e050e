import { TIERS } from '../../src/working-set/types.js';

/** The page's small DOM helpers and the tier palette every view shares. */

/** Tier colours, highest priority first (the budget bar, its legend and the working-set list). */
export const TIER_COLOURS = ['#2f5dd0', '#7c4dcc', '#d9822b', '#1f9e89', '#5aa02c', '#c2497a', '#8a93a3'];
export const tierName = (tier: number | undefined): string =>
  tier === undefined ? '–' : (TIERS[tier] ?? String(tier));

export const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** Builds an element; text goes in as text, never as HTML (transcripts are untrusted). */
export function h(tag: string, attrs: Record<string, string> = {}, ...children: Array<Node | string>): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.append(...children);
  return el;
}

export function where(item: { path?: string; range?: readonly [number, number]; revision?: string }): string {
  if (!item.path) return '';
  const range = item.range ? `:${item.range[0]}–${item.range[1]}` : '';
  return `${item.path}${range}${item.revision ? ` @${item.revision}` : ''}`;
}
