import type { ChatTurn } from '../adapters/chat/chat-turns.js';
import { isRecord, sameJson } from '../adapters/content.js';

/**
 * The messages a recorder has recorded. A message is known by its `id` when it has one, else by
 * its position in the session and what it says (its turns, so a tool call's input given as an
 * object and as JSON text is one message). Frameworks resend the whole history every call: a
 * resent message is compared with the turns kept for its position, with no hashing or
 * serialising, so checking the history costs little beside the new messages.
 */
export class RecordedMessages {
  private readonly ids = new Set<string>();
  /** Per position, the turns of each distinct message recorded there (one, unless history was edited). */
  private readonly byPosition = new Map<number, ChatTurn[][]>();

  /** The message's turns when it was not recorded yet (it is now), else undefined. */
  record(message: unknown, position: number, turnsOf: (message: unknown) => ChatTurn[]): ChatTurn[] | undefined {
    if (isRecord(message) && typeof message.id === 'string' && message.id.length > 0) {
      if (this.ids.has(message.id)) return undefined;
      this.ids.add(message.id);
      return turnsOf(message);
    }
    const turns = turnsOf(message);
    const versions = this.byPosition.get(position);
    if (!versions) this.byPosition.set(position, [turns]);
    else if (versions.some((v) => sameJson(v, turns))) return undefined;
    else versions.push(turns);
    return turns;
  }
}
