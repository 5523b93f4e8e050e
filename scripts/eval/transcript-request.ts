/**
 * A baseline's selection as the request an agent CLI sends: the conversation in order, in the
 * Anthropic message shape the ledger's `toMessages('anthropic')` uses (text, tool_use and
 * tool_result blocks, consecutive turns of one role merged with tool results first), so the cache
 * comparison between the ledger and the baselines is made on the same kind of blocks.
 */
import type { AnthropicBlock, AnthropicMessage } from '../../src/working-set/render-messages.js';
import { toolIdMapper } from '../../src/working-set/tool-ids.js';
import type { Selection } from './baselines.js';
import { MASK_PLACEHOLDER, type Transcript } from './transcript.js';

export function transcriptRequest(transcript: Transcript, selection: Selection): AnthropicMessage[] {
  const masked = new Set(selection.masked ?? []);
  const picked = new Set([...selection.messages, ...masked]);
  // A selection lists its masked messages apart: the transcript's order puts them back in place.
  const shown = transcript.messages.filter((m) => picked.has(m));
  const toolId = toolIdMapper();
  const asked = new Set<string>();
  const out: AnthropicMessage[] = [];
  const push = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
    const last = out[out.length - 1];
    if (last && last.role === role) {
      const all = [...last.content, ...blocks];
      last.content =
        role === 'user'
          ? [...all.filter((b) => b.type === 'tool_result'), ...all.filter((b) => b.type !== 'tool_result')]
          : all;
    } else out.push({ role, content: blocks });
  };
  for (const m of shown) {
    if (m.role === 'assistant' && m.turn !== undefined) {
      const blocks: AnthropicBlock[] = m.turn.thought ? [{ type: 'text', text: m.turn.thought }] : [];
      for (const c of m.turn.calls) {
        asked.add(c.id);
        blocks.push({ type: 'tool_use', id: toolId(c.id), name: c.tool, input: { command: c.body } });
      }
      if (blocks.length === 0) blocks.push({ type: 'text', text: '(action)' });
      push('assistant', blocks);
    } else if (m.role === 'observation') {
      const content = masked.has(m) ? MASK_PLACEHOLDER : m.text;
      // A result whose call the window cut off cannot be a tool_result: it is shown as text.
      if (m.call !== undefined && asked.has(m.call))
        push('user', [{ type: 'tool_result', tool_use_id: toolId(m.call), content }]);
      else push('user', [{ type: 'text', text: content }]);
    } else push(m.role === 'assistant' ? 'assistant' : 'user', [{ type: 'text', text: m.text }]);
  }
  return out;
}
