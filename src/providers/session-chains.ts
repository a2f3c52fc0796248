import type { DocumentColumns } from "./document-columns";
import { NO_NEIGHBOUR as NONE } from "./lexical-scoring";

/**
 * The write order of each session's documents in `InMemorySemanticIndex` (a chain: `""` for
 * documents without a session): linked through the `previous` and `next` columns, with each
 * chain's first and last document, and its documents by message id, so a document written again
 * under the same message id takes the old one's place.
 */
export class SessionChains {
  private readonly columns: DocumentColumns;
  /** Session → message id → ordinal (the keys are the documents' own strings). */
  private readonly ordinalByMessage = new Map<string, Map<string, number>>();
  private readonly tails = new Map<string, number>();
  private readonly heads = new Map<string, number>();

  constructor(columns: DocumentColumns) {
    this.columns = columns;
  }

  /** The document of `chain` written under `messageId`, if any. */
  holding(chain: string, messageId: string | undefined): number | undefined {
    return messageId === undefined ? undefined : this.ordinalByMessage.get(chain)?.get(messageId);
  }

  /** Puts `ordinal` (not linked yet) in `replaced`'s place in `chain`, leaving `replaced` unlinked. */
  replace(ordinal: number, replaced: number, chain: string): void {
    const { previous, next } = this.columns;
    previous[ordinal] = previous[replaced]!;
    next[ordinal] = next[replaced]!;
    previous[replaced] = NONE;
    next[replaced] = NONE;
    if (previous[ordinal] !== NONE) next[previous[ordinal]!] = ordinal;
    else this.heads.set(chain, ordinal);
    if (next[ordinal] !== NONE) previous[next[ordinal]!] = ordinal;
    else this.tails.set(chain, ordinal);
  }

  /** Links `ordinal` (not linked yet) at the end of `chain`. */
  append(ordinal: number, chain: string): void {
    const { previous, next } = this.columns;
    const tail = this.tails.get(chain);
    if (tail === undefined) this.heads.set(chain, ordinal);
    else {
      previous[ordinal] = tail;
      next[tail] = ordinal;
    }
    this.tails.set(chain, ordinal);
  }

  /** Takes `ordinal` out of `chain`, linking its neighbours to each other. */
  unlink(ordinal: number, chain: string): void {
    const { previous, next } = this.columns;
    const before = previous[ordinal]!;
    const after = next[ordinal]!;
    if (before !== NONE) next[before] = after;
    else if (after !== NONE) this.heads.set(chain, after);
    else this.heads.delete(chain);
    if (after !== NONE) previous[after] = before;
    else if (before !== NONE) this.tails.set(chain, before);
    else this.tails.delete(chain);
  }

  /** Records `ordinal` as the document of `chain` written under `messageId`. */
  setMessage(chain: string, messageId: string, ordinal: number): void {
    let messages = this.ordinalByMessage.get(chain);
    if (!messages) this.ordinalByMessage.set(chain, (messages = new Map()));
    messages.set(messageId, ordinal);
  }

  /** Forgets `messageId` of `chain` if it is still `ordinal`'s. */
  deleteMessage(chain: string, messageId: string | undefined, ordinal: number): void {
    const messages = messageId === undefined ? undefined : this.ordinalByMessage.get(chain);
    if (messages?.get(messageId!) === ordinal) {
      messages.delete(messageId!);
      if (messages.size === 0) this.ordinalByMessage.delete(chain);
    }
  }

  /** Rewrites every ordinal held through `map` (the columns renumber their own links). */
  renumber(map: (ordinal: number) => number): void {
    for (const table of [...this.ordinalByMessage.values(), this.heads, this.tails])
      for (const [key, ordinal] of table) table.set(key, map(ordinal));
  }
}
