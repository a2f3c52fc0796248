// The request → run mapping of streamText: one row per kind of run, then the requests it refuses.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { InMemoryStore } from "../stores/in-memory-store";
import { type RequestRun, type RunRequest, requestToRun } from "./request-to-run";

const store = new InMemoryStore();
const question: AgentMessage = { id: "u-1", role: "user", content: "What is agentcore?" };
const answer: AgentMessage = { id: "a-1", role: "assistant", content: "An SDK." };
const edited: AgentMessage = { id: "u-1", role: "user", content: "What is agentcore, briefly?" };
const next: AgentMessage = { id: "u-2", role: "user", content: "And its stores?" };
/** `useChat`'s message after `addToolApprovalResponse`, as `convertToModelMessages` gives it. */
const answered: AgentMessage = {
  id: "a-2",
  role: "assistant",
  content: "",
  toolCalls: [{ id: "c-1", name: "send_mail", arguments: { to: "a@b.c" }, approval: { id: "ap-1", approved: true } }],
};
const anyId = expect.any(String) as unknown as string;

const rows: [string, RunRequest, Partial<RequestRun> & { runOptions: object }][] = [
  [
    "stateless: no sessionId, the run goes on the client's history in a session of its own",
    { messages: [{ role: "system", content: "Be brief." }, question, answer, next], allowSystemMessages: true },
    {
      kind: "stateless",
      runOptions: { input: "And its stores?", sessionId: expect.stringMatching(/^request-/) as unknown as string },
      history: [question, answer],
      assistantMessageId: anyId,
      continues: false,
      clientSystem: ["Be brief."],
    },
  ],
  [
    "stateless regenerate: a run on the messages as sent",
    { messages: [question], trigger: "regenerate-message", messageId: "a-1" },
    {
      kind: "stateless",
      runOptions: { input: "What is agentcore?", sessionId: expect.stringMatching(/^request-/) as unknown as string },
      history: [],
      assistantMessageId: anyId,
      continues: false,
    },
  ],
  [
    "session: the new user message under the client's id",
    { messages: [question, answer, next], sessionId: "s", memoryStore: store, userId: "user-7" },
    {
      kind: "session",
      runOptions: { input: "And its stores?", sessionId: "s", userId: "user-7" },
      userMessageId: "u-2",
      assistantMessageId: anyId,
      continues: false,
      clientSystem: [],
    },
  ],
  [
    "session: a client id that is no message id (a control character) is not kept",
    { messages: [{ id: "line\nbreak", role: "user", content: "Hi" }], sessionId: "s" },
    { kind: "session", runOptions: { input: "Hi", sessionId: "s" }, assistantMessageId: anyId, continues: false },
  ],
  [
    "regenerate: the stored turn answered again, from the message named",
    { messages: [question], sessionId: "s", memoryStore: store, trigger: "regenerate-message", messageId: "a-1" },
    {
      kind: "regenerate",
      runOptions: { regenerate: true, sessionId: "s" },
      regenerateFrom: "a-1",
      assistantMessageId: anyId,
      continues: false,
    },
  ],
  [
    "regenerate without a messageId: the last user message",
    { messages: [question], sessionId: "s", trigger: "regenerate-message" },
    { kind: "regenerate", runOptions: { regenerate: true, sessionId: "s" }, assistantMessageId: anyId },
  ],
  [
    "approval: the stored turn goes on with the user's answers, continuing the message shown",
    { messages: [question, answered], sessionId: "s", memoryStore: store },
    {
      kind: "approval",
      runOptions: {
        approvals: [{ toolCallId: "c-1", approvalId: "ap-1", approved: true }],
        sessionId: "s",
      },
      continues: true,
    },
  ],
  [
    "edit: the last user message carries the messageId it replaces",
    { messages: [edited], sessionId: "s", memoryStore: store, messageId: "u-1" },
    {
      kind: "edit",
      runOptions: { input: "What is agentcore, briefly?", replaceFrom: "u-1", sessionId: "s" },
      userMessageId: "u-1",
      assistantMessageId: anyId,
      continues: false,
    },
  ],
];

describe("requestToRun", () => {
  it.each(rows)("%s", (_name, request, expected) => {
    const run = requestToRun(request);
    expect(run).toEqual({ clientSystem: [], continues: false, ...expected });
  });

  it("gives each request its own session and assistant id when stateless", () => {
    const [a, b] = [requestToRun({ messages: [question] }), requestToRun({ messages: [question] })];
    expect(a.runOptions.sessionId).not.toBe(b.runOptions.sessionId);
    expect(a.assistantMessageId).not.toBe(b.assistantMessageId);
  });

  it.each<[string, RunRequest, string]>([
    ["an unknown trigger", { messages: [question], trigger: "resume" as "submit-message" }, "trigger"],
    ["a malformed messageId", { messages: [question], messageId: "" }, "messageId"],
    ["a conversation that ends with an answer", { messages: [question, answer], sessionId: "s" }, "messages"],
    ["approvals without a session", { messages: [question, answered], memoryStore: store }, "sessionId"],
    ["approvals without a store", { messages: [question, answered], sessionId: "s" }, "sessionId"],
  ])("refuses %s with an InvalidArgumentError naming it", (_name, request, argument) => {
    let thrown: unknown;
    try {
      requestToRun(request);
    } catch (error) {
      thrown = error;
    }
    expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidArgumentError).argument).toBe(argument);
  });
});
