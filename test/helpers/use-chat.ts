// The AI SDK's own chat client, without React: `AbstractChat` (what `useChat` wraps) with a plain
// state, and `DefaultChatTransport` posting to a route handler in process; ai 6's, and ai 7's
// (`ai-v7`, what `@ai-sdk/react` 4 wraps) as `PageChat7`. The request bodies are
// exactly those `useChat` sends (`messages`, `trigger`, `messageId`), and the page's messages are
// exactly those `useChat` would show, ids included.
import {
  AbstractChat,
  type ChatState,
  type ChatStatus,
  DefaultChatTransport,
  readUIMessageStream,
  type UIMessage,
} from "ai";
import {
  AbstractChat as AbstractChat7,
  DefaultChatTransport as DefaultChatTransport7,
  type UIMessage as UIMessage7,
} from "ai-v7";
import type { MemoryStore } from "../../src/stores/memory-store";
import type { StreamTextOptions } from "../../src/streaming/stream-text";
import type { MockLanguageModel } from "../../src/testing/mock-language-model";
import { streamText } from "../../src/streaming/stream-text";
import { convertToModelMessages } from "../../src/ui/convert-to-model-messages";

/** The route of README.md and docs/regenerate.md: the session from the server's own knowledge, trigger and messageId from the body. */
export function chatRoute(
  store: MemoryStore,
  model: MockLanguageModel,
  {
    sessionId = "user-42",
    tools,
    memory,
  }: { sessionId?: string; tools?: StreamTextOptions["tools"]; memory?: StreamTextOptions["memory"] } = {},
) {
  return async (request: Request): Promise<Response> => {
    const body = (await request.json()) as {
      messages: UIMessage[];
      trigger?: "submit-message" | "regenerate-message";
      messageId?: string;
    };
    const result = streamText({
      model,
      messages: convertToModelMessages(body.messages),
      sessionId,
      memoryStore: store,
      ...(tools === undefined ? {} : { tools }),
      ...(memory === undefined ? {} : { memory }),
      ...(body.trigger === undefined ? {} : { trigger: body.trigger }),
      ...(body.messageId === undefined ? {} : { messageId: body.messageId }),
    });
    return result.toUIMessageStreamResponse({ onError: (error) => (error as Error).name });
  };
}

/** `useChat`'s transport, posting to the route in process. */
export function transport(route: (request: Request) => Promise<Response>) {
  return new DefaultChatTransport<UIMessage>({
    api: "http://localhost/api/chat",
    fetch: async (input, init) => route(new Request(input as string, init as RequestInit)),
  });
}

/** Sends one request the way useChat does and reads the streamed answer to its end. */
export async function send(
  chat: DefaultChatTransport<UIMessage>,
  messages: UIMessage[],
  trigger: "submit-message" | "regenerate-message",
  messageId?: string,
): Promise<UIMessage> {
  const stream = await chat.sendMessages({ chatId: "chat-1", messages, trigger, messageId, abortSignal: undefined });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

class PlainChatState implements ChatState<UIMessage> {
  status: ChatStatus = "ready";
  error: Error | undefined = undefined;
  constructor(public messages: UIMessage[]) {}
  pushMessage = (message: UIMessage) => {
    this.messages = [...this.messages, message];
  };
  popMessage = () => {
    this.messages = this.messages.slice(0, -1);
  };
  replaceMessage = (index: number, message: UIMessage) => {
    this.messages = [...this.messages.slice(0, index), message, ...this.messages.slice(index + 1)];
  };
  snapshot = <T>(thing: T): T => structuredClone(thing);
}

/**
 * A page with `useChat` on it: `sendMessage`, `regenerate` and `messages` as the hook has them
 * (AI SDK 6's `AbstractChat`). `messages`: the history the page was loaded with (a reload).
 */
export class PageChat extends AbstractChat<UIMessage> {
  constructor(route: (request: Request) => Promise<Response>, messages: UIMessage[] = []) {
    super({ id: "chat-1", transport: transport(route), state: new PlainChatState(messages) });
  }
}

/** The same page on AI SDK 7's `AbstractChat` and `DefaultChatTransport` (what `@ai-sdk/react` 4's `useChat` wraps). */
class PageChat7 extends AbstractChat7<UIMessage7> {
  constructor(route: (request: Request) => Promise<Response>, messages: UIMessage[] = []) {
    super({
      id: "chat-1",
      transport: new DefaultChatTransport7({
        api: "http://localhost/api/chat",
        fetch: async (input, init) => route(new Request(input as string, init as RequestInit)),
      }),
      state: new PlainChatState(messages) as never,
    });
  }
}

/** The page on each `ai` line, for tests that run on both: ai 6's `PageChat`, and ai 7's. */
export const pageChats: readonly (readonly [line: string, page: typeof PageChat])[] = [
  ["ai 6", PageChat],
  ["ai 7", PageChat7 as unknown as typeof PageChat],
];
