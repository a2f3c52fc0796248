// A page reloaded while the answer streams (issue 42.3), with the AI SDK's own chat (`AbstractChat`,
// what `useChat` runs) and `DefaultChatTransport` on a route that answers POST with
// `streamText({ resumable: true })` and the reconnect's GET with `resumeStream`: the reloaded page
// shows the stored user message and reattaches to the answer, which ends once, equal to the stored
// message (not duplicated as in vercel/ai #18457, no replay over text already shown as in
// cloudflare/agents #1733); a reload after the end shows it once too, the replay replacing it.
import { AbstractChat, type ChatState, type ChatStatus, DefaultChatTransport, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { MemoryStore } from "../src/stores/memory-store";
import { InMemoryStore } from "../src/stores/in-memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { resumeStream } from "../src/streaming/resume-stream";
import { streamText } from "../src/streaming/stream-text";
import { convertToModelMessages } from "../src/ui/convert-to-model-messages";
import { convertToUIMessages } from "../src/ui/convert-to-ui-messages";
import type { UIMessage as AgentUIMessage } from "../src/ui/ui-message";
import { ANSWER, gatedModel } from "./helpers/resumable-turns";
import { openStoreServers } from "./helpers/store-servers";

const { redisPrefix, schema, postgres, redis } = await openStoreServers("agentcore-resumable-chat", {
  postgresConnections: 4,
});

/** A page's chat: the AI SDK's own logic, its state a plain array, with a wait for a condition on it. */
class PageChat extends AbstractChat<UIMessage> {
  private readonly watchers = new Set<() => void>();

  constructor(id: string, messages: UIMessage[], transport: DefaultChatTransport<UIMessage>) {
    const watchers = new Set<() => void>();
    const changed = () => {
      for (const watcher of [...watchers]) watcher();
    };
    const state: ChatState<UIMessage> = {
      status: "ready" as ChatStatus,
      error: undefined,
      messages: [...messages],
      pushMessage: (message) => {
        state.messages = [...state.messages, message];
        changed();
      },
      popMessage: () => {
        state.messages = state.messages.slice(0, -1);
        changed();
      },
      replaceMessage: (index, message) => {
        state.messages = state.messages.map((existing, at) => (at === index ? message : existing));
        changed();
      },
      snapshot: (thing) => structuredClone(thing),
    };
    super({ id, messages, transport, state } as never);
    this.watchers = watchers;
  }

  get shown(): UIMessage[] {
    return this.state.messages;
  }

  /** Resolves once `condition` holds on the page's messages. */
  until(condition: (messages: UIMessage[]) => boolean): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!condition(this.state.messages)) return;
        this.watchers.delete(check);
        resolve();
      };
      this.watchers.add(check);
      check();
    });
  }
}

const textOf = (message: UIMessage | undefined) =>
  (message?.parts ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
const answering = (messages: UIMessage[]) =>
  messages.at(-1)?.role === "assistant" && textOf(messages.at(-1)).length > 0;

type Pair = () => { first: MemoryStore; second: MemoryStore };
let counter = 0;
const stores: [string, Pair | undefined][] = [
  [
    "InMemoryStore",
    () => {
      const store = new InMemoryStore();
      return { first: store, second: store };
    },
  ],
  [
    "RedisMemoryStore",
    redis &&
      (() => {
        const prefix = `${redisPrefix}${counter++}:`;
        return {
          first: new RedisMemoryStore({ client: redis, prefix }),
          second: new RedisMemoryStore({ client: redis, prefix }),
        };
      }),
  ],
  [
    "PostgresMemoryStore",
    postgres &&
      (() => {
        const tablePrefix = `p${counter++}_`;
        return {
          first: new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
          second: new PostgresMemoryStore({ pool: postgres, schema, tablePrefix }),
        };
      }),
  ],
];

describe.each(stores)("a page reloaded mid-answer on %s", (_name, pair) => {
  it.skipIf(!pair)("reattaches: the stored user message, then the answer once, equal to the stored one", async () => {
    const { first, second } = pair!();
    const { model, open } = gatedModel(3);
    let finished: Promise<unknown> = Promise.resolve();
    // App server 1 runs the turn; app server 2 (another store object) answers the reconnect.
    const transport = new DefaultChatTransport<UIMessage>({
      api: "http://app.test/api/chat",
      fetch: async (_url, init) => {
        if (init?.method === "GET") return resumeStream({ sessionId: "chat", memoryStore: second });
        const body = JSON.parse(String(init?.body)) as { messages: AgentUIMessage[] };
        const result = streamText({
          model,
          messages: convertToModelMessages(body.messages),
          sessionId: "chat",
          memoryStore: first,
          resumable: true,
        });
        finished = result.response;
        return result.toUIMessageStreamResponse();
      },
    });

    const page1 = new PageChat("chat", [], transport);
    void page1.sendMessage({ text: "Hi" });
    await page1.until(answering);
    await page1.stop(); // the reload: this page goes away mid-answer

    const loaded = convertToUIMessages(await second.getMessages("chat")) as UIMessage[];
    expect(loaded.map((message) => message.role)).toEqual(["user"]);
    const page2 = new PageChat("chat", loaded, transport);
    const resuming = page2.resumeStream();
    await page2.until(answering);
    open();
    await resuming;
    await finished;

    const stored = convertToUIMessages(await second.getMessages("chat")) as UIMessage[];
    const withoutMetadata = stored.map(({ metadata: _metadata, ...message }) => message);
    expect(page2.shown.map(({ metadata: _metadata, ...message }) => message)).toEqual(withoutMetadata);
    expect(page2.shown).toHaveLength(2);
    expect(textOf(page2.shown[1])).toBe(ANSWER);

    // A reload after the end, within the TTL: the stored answer, replayed over itself once.
    const page3 = new PageChat("chat", stored, transport);
    await page3.resumeStream();
    expect(page3.shown.map(({ metadata: _metadata, ...message }) => message)).toEqual(withoutMetadata);
  });
});
