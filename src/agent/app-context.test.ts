// The app's context of a run (agent.run({ context }), streamText({ context })): given as is to every
// tool's execute and needsApproval and to prepareStep, typed by the agent; never stored, never in a
// model request, an event, a span or a context report.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InMemoryStore } from "../stores/in-memory-store";
import { streamText } from "../streaming/stream-text";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import type { AgentEventName } from "./agent-events";
import { Agent } from "./agent";
import { createAgent } from "./create-agent";
import { recorder } from "./telemetry/__fixtures__/span-recorder";

interface AppContext {
  marker: string;
  db: { account(): string };
}
const SECRET = "ctx-secret-7f3a91";
const appContext = (): AppContext => ({ marker: SECRET, db: { account: () => "acct-1" } });

const EVENTS: AgentEventName[] = [
  "run:start",
  "run:end",
  "step:start",
  "step:end",
  "tool:call",
  "tool:result",
  "tool:approval-request",
  "memory:read",
  "memory:write",
  "memory:error",
  "context:trimmed",
];

describe("the app context", () => {
  it("reaches execute, needsApproval and prepareStep, and is in no store, model request, event, span or report", async () => {
    const received: Array<[string, unknown]> = [];
    const account = tool({
      parameters: z.object({}),
      execute: async (_input, { context }: { context: AppContext }) => {
        received.push(["execute", context]);
        return context.db.account();
      },
    });
    const transfer = tool({
      parameters: z.object({ amount: z.number() }),
      needsApproval: (_input, { context }: { context: AppContext }) => {
        received.push(["needsApproval", context]);
        return context.marker === SECRET;
      },
      execute: async ({ amount }, { context }) => {
        received.push(["transfer", context]);
        return `sent ${amount}`;
      },
    });
    const { tracer, spans } = recorder();
    const memoryStore = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "c1", name: "account", arguments: {} }] },
        { toolCalls: [{ id: "c2", name: "transfer", arguments: { amount: 5 } }] },
        { text: "Sent." },
      ],
    });
    const agent = new Agent<AppContext>({
      model,
      memoryStore,
      sessionId: "s",
      recordContext: true,
      telemetry: { tracer, recordInputs: true, recordOutputs: true },
      tools: { account, transfer },
      prepareStep: ({ context }) => {
        received.push(["prepareStep", context]);
        return undefined;
      },
    });
    const told: unknown[] = [];
    for (const name of EVENTS) agent.on(name, (payload) => told.push(payload));

    const context = appContext();
    const first = await agent.run({ input: "Pay my bill", context });
    expect(first.finishReason).toBe("tool-approval");
    const other = appContext();
    const second = await agent.run({
      approvals: [{ toolCallId: "c2", approved: true }],
      context: other,
    });
    expect(second.text).toBe("Sent.");
    expect(received.map(([where]) => where)).toEqual([
      "prepareStep",
      "execute",
      "prepareStep",
      "needsApproval",
      "transfer",
      "prepareStep",
    ]);
    // The very object each run was given.
    expect(received.slice(0, 4).every(([, given]) => given === context)).toBe(true);
    expect(received.slice(4).every(([, given]) => given === other)).toBe(true);

    const everywhere = JSON.stringify({
      stored: await memoryStore.getMessages("s"),
      reports: await memoryStore.getContextReports("s"),
      requests: model.calls,
      events: told,
      results: [first, second],
      spans: spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })),
    });
    expect(everywhere).toContain("acct-1"); // the tool's result is stored, sent and traced
    expect(everywhere).not.toContain(SECRET);
    expect((await memoryStore.getContextReports("s")).length).toBeGreaterThan(0);
    expect(spans().length).toBeGreaterThan(0);
  });

  it("reaches the tools of a streamText run", async () => {
    let seen: unknown;
    const whoAmI = tool({
      parameters: z.object({}),
      execute: async (_input, { context }: { context: { userName: string } }) => {
        seen = context;
        return context.userName;
      },
    });
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "c1", name: "who_am_i", arguments: {} }] }, { text: "Ada." }],
    });
    const context = { userName: "Ada" };
    const result = streamText({
      model,
      messages: [{ role: "user", content: "Who am I?" }],
      tools: { who_am_i: whoAmI },
      context,
    });
    expect(await result.text).toBe("Ada.");
    expect(seen).toBe(context);
    expect(JSON.stringify(model.calls)).not.toContain('"userName"');
  });

  it("is undefined for a run given none", async () => {
    let seen: unknown = "unset";
    const probe = tool({
      parameters: z.object({}),
      execute: async (_input, { context }) => {
        seen = context;
        return "ok";
      },
    });
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "c1", name: "probe", arguments: {} }] }, { text: "done" }],
    });
    await new Agent({ model, tools: { probe } }).run("Go");
    expect(seen).toBeUndefined();
  });

  it("is typed: an agent whose tools read a context needs one on every run", () => {
    const model = new MockLanguageModel({ responses: [] });
    const typed = tool({
      parameters: z.object({}),
      execute: async (_input, { context }: { context: AppContext }) => context.db.account(),
    });
    const plain = tool({ parameters: z.object({ q: z.string() }), execute: async ({ q }) => q });
    // Inferred from the tools; a tool that reads no context fits any agent.
    const inferred = new Agent({ model, tools: { typed, plain } });
    const explicit = new Agent<AppContext>({
      model,
      tools: {
        plain,
        inline: tool({ parameters: z.object({}), execute: async (_input, { context }) => context.marker }),
      },
      prepareStep: ({ context }) => (context.marker ? undefined : { tools: ["plain"] }),
    });
    const builder = createAgent<AppContext>({ model, tools: { typed } });
    const runs = () => {
      // @ts-expect-error a run of an agent typed with a context must give it
      void inferred.run({ input: "x" });
      // @ts-expect-error the string form gives none
      void explicit.run("x");
      // @ts-expect-error a context of another type
      void builder.run({ input: "x", context: { marker: 1 } });
      void inferred.run({ input: "x", context: appContext() });
      // @ts-expect-error a tool that reads a context in an agent typed with another
      new Agent<{ other: true }>({ model, tools: { typed } });
      // @ts-expect-error streamText with such tools needs the context too
      streamText({ model, messages: [], tools: { typed } });
      // An agent without a context type takes any context, and the string form.
      void new Agent({ model, tools: { plain } }).run("x");
    };
    expect(typeof runs).toBe("function");
  });
});
