// A Next.js-style chat route with memory, as a user would write it for the edge. The edge runtime
// tests (test/edge-runtimes.test.ts) bundle it with esbuild under the edge conditions and serve it
// from Vercel's edge-runtime VM and from workerd: it must run on Web APIs alone.
import {
  convertToModelMessages,
  estimateTokens,
  FileMemoryStore,
  InMemoryStore,
  provideTokenizer,
  streamText,
  TokenizerNotLoadedError,
  UnsupportedRuntimeError,
} from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

// The edge build imports no tokenizer table: the app hands it the one its models count with
// (docs: "On the edge"), loaded at the first run that has to count.
provideTokenizer({ o200k_base: () => import("gpt-tokenizer/encoding/o200k_base") });

// Module-level, as in a route file: one store and one model per isolate.
const memoryStore = new InMemoryStore();
const model = new MockLanguageModel({
  responses: (call) => ({
    text:
      call.messages.length === 1 ? "Nice to meet you, Ada." : `You told me ${call.messages.length - 1} messages ago.`,
    usage: { inputTokens: 40, outputTokens: 8 },
  }),
});

/** POST /chat: one turn of the session named by the x-session-id header (an app takes it from its auth session, never the body). */
export async function POST(request: Request): Promise<Response> {
  const sessionId = request.headers.get("x-session-id");
  if (!sessionId) return new Response("No session.", { status: 401 });
  const body = (await request.json()) as { messages?: unknown };
  const result = streamText({
    model,
    system: "You are a helpful assistant.",
    messages: convertToModelMessages(body.messages),
    sessionId,
    memoryStore,
    // A token budget: the second turn's long message makes the window count with the tokenizer.
    memory: "token_window",
    maxTokens: 300,
    abortSignal: request.signal,
  });
  return result.toUIMessageStreamResponse();
}

/** GET /calls: what the model received; GET /probe: how the edge build behaves in this runtime. */
export async function GET(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname === "/calls")
    return Response.json(model.calls.map((call) => ({ system: call.system, messages: call.messages })));
  let fileStore: unknown;
  try {
    new FileMemoryStore("./sessions.json");
    fileStore = "constructed";
  } catch (error) {
    fileStore = UnsupportedRuntimeError.isInstance(error)
      ? { name: error.name, feature: error.feature, message: error.message }
      : String(error);
  }
  let tokens: unknown;
  try {
    tokens = estimateTokens("hello world");
  } catch (error) {
    tokens = TokenizerNotLoadedError.isInstance(error) ? { name: error.name, encoding: error.encoding } : String(error);
  }
  return Response.json({
    fileStore,
    tokens,
    hasProcess: typeof (globalThis as { process?: unknown }).process !== "undefined",
  });
}

export async function handle(request: Request): Promise<Response> {
  try {
    return request.method === "POST" ? await POST(request) : await GET(request);
  } catch (error) {
    return Response.json(
      { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) },
      { status: 500 },
    );
  }
}
