import type { ChatTurn } from '../adapters/chat/chat-turns.js';
import { isRecord, sameJson } from '../adapters/content.js';
import { plainCopy, samePlain } from './plain-json.js';

/** What was recorded at one position: each distinct message's turns, and copies of the forms it came in. */
/** Forms kept per position: the model's output and its resent form, and a little slack. */
const MAX_FORMS = 4;

interface Recorded {
  turns: ChatTurn[][];
  forms: unknown[];
}

/**
 * The messages a recorder has recorded. A message is known by its `id` when it has one, else by
 * its position in the session and what it says (its turns, so a tool call's input given as an
 * object and as JSON text is one message). Frameworks resend the whole history every call, so a
 * resent message is first compared, as it is, with copies of the forms recorded at its position
 * (plain-json.ts: no parsing, hashing or serialising); only a message that differs is parsed and
 * its turns compared. Checking a resent history thus costs little beside its new messages.
 */
export class RecordedMessages {
  private readonly ids = new Set<string>();
  private readonly byPosition = new Map<number, Recorded>();

  /** Marks the message recorded; returns its turns, or undefined when it was recorded before. */
  record(message: unknown, position: number, turnsOf: (message: unknown) => ChatTurn[]): ChatTurn[] | undefined {
    if (isRecord(message) && typeof message.id === 'string' && message.id.length > 0) {
      if (this.ids.has(message.id)) return undefined;
      this.ids.add(message.id);
      return turnsOf(message);
    }
    const known = this.byPosition.get(position);
    if (known && this.resent(message, known.forms)) return undefined;
    const turns = turnsOf(message);
    const form = safely(() => plainCopy(message));
    if (!known) {
      this.byPosition.set(position, { turns: [turns], forms: form === undefined ? [] : [form] });
      return turns;
    }
    // Another form of a message already recorded (the model's output, resent in the next prompt):
    // kept, so that later resends of this form are recognised without parsing. Only the latest
    // few: a field that changes every call would otherwise grow the list without end.
    if (form !== undefined && known.forms.push(form) > MAX_FORMS) known.forms.shift();
    if (known.turns.some((t) => sameJson(t, turns))) return undefined;
    known.turns.push(turns);
    return turns;
  }

  private resent(message: unknown, forms: readonly unknown[]): boolean {
    return safely(() => forms.some((f) => samePlain(message, f))) === true;
  }
}

/** A message may carry a getter that throws: it is then parsed (and recorded as unparseable). */
function safely<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
