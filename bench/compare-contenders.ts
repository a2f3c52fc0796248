/**
 * The rows of bench/compare.bench.ts: agentcore and the libraries users would pick instead (Mastra,
 * LangChain, LangGraph, the AI SDK guide's JSON file), each opening a session of N seeded messages
 * and running one turn: load the history, apply a last-20-messages window, persist two messages.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import {
  Agent,
  FileMemoryStore,
  InMemoryStore,
  SlidingWindowMemory,
  type AgentMessage,
  type MemoryStore,
} from "agentcore";
import { SqliteMemoryStore } from "agentcore/sqlite";
import { MockLanguageModel } from "agentcore/testing";
import { InMemoryChatMessageHistory } from "@langchain/core/chat_history";
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import {
  END,
  MemorySaver,
  MessagesAnnotation,
  START,
  StateGraph,
  type BaseCheckpointSaver,
} from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { Memory } from "@mastra/memory";
import { InMemoryStore as MastraInMemoryStore } from "@mastra/core/storage";
import { LibSQLStore } from "@mastra/libsql";

/** The window: the last 20 messages (10 user/assistant turns). */
export const WINDOW = 20;
const REPLY = "ok, noted: a short scripted answer of ordinary length for the benchmark.";
const SESSION = "bench";
const RESOURCE = "bench-user";

const text = (index: number) =>
  `message number ${index}: a sentence or two of ordinary chat text, about the length of a real turn.`;
const role = (index: number): "user" | "assistant" => (index % 2 === 0 ? "user" : "assistant");

/** A row: opens a session holding `size` seeded messages, returns the turn function and a closer. */
export interface Contender {
  name: string;
  /** The comparable storage kind, for the ratio table. */
  kind: "memory" | "file" | "sqlite";
  /** agentcore rows: `builtin` (the shipped `sliding_window`, default durability) is the ratio baseline. */
  agentcore?: "builtin" | "variant";
  /** Largest size run in full mode (LangGraph at 100k would take minutes per turn). */
  maxSize?: number;
  open(size: number, directory: string): Promise<{ turn(index: number): Promise<void>; close(): Promise<void> }>;
}

// ---------------------------------------------------------------- agentcore

function agentMessage(index: number): AgentMessage {
  return { id: `m${index}`, role: role(index), content: text(index), timestamp: 1_700_000_000_000 + index };
}

function agentcore(
  name: string,
  kind: Contender["kind"],
  role: "builtin" | "variant",
  makeStore: (directory: string) => { store: MemoryStore; close(): void },
): Contender {
  return {
    name,
    kind,
    agentcore: role,
    async open(size, directory) {
      const { store, close } = makeStore(directory);
      for (let start = 0; start < size; start += 1_000) {
        await store.appendMessages!(
          SESSION,
          Array.from({ length: Math.min(1_000, size - start) }, (_, index) => agentMessage(start + index)),
        );
      }
      const model = new MockLanguageModel({ responses: () => ({ text: REPLY }) });
      // The window counts the current turn: 10 earlier user/assistant turns (20 messages) + the new one; stablePrefix off so it is cut exactly.
      const options = { maxTurns: WINDOW / 2 + 1, stablePrefix: false } as const;
      const agent = new Agent({
        model,
        memory: new SlidingWindowMemory(options),
        memoryStore: store,
        sessionId: SESSION,
      });
      return {
        async turn(index) {
          const result = await agent.run(`next question ${index}`);
          if (result.text !== REPLY) throw new Error(`${name}: unexpected answer`);
          const sent = model.calls.at(-1)!.messages.length;
          if (sent !== WINDOW + 1) throw new Error(`${name}: the model saw ${sent} messages, expected ${WINDOW + 1}`);
          model.calls.length = 0; // the mock records every call; do not let that grow
        },
        close: async () => close(),
      };
    },
  };
}

// ---------------------------------------------------------------- Mastra

function mastra(
  name: string,
  kind: Contender["kind"],
  makeStorage: (directory: string) => MastraInMemoryStore | LibSQLStore,
): Contender {
  return {
    name,
    kind,
    async open(size, directory) {
      const storage = makeStorage(directory);
      await storage.init();
      const memory = new Memory({
        storage,
        options: {
          lastMessages: WINDOW,
          semanticRecall: false,
          workingMemory: { enabled: false },
          threads: { generateTitle: false },
        },
      });
      const thread = await memory.createThread({ threadId: SESSION, resourceId: RESOURCE });
      const v2 = (id: string, index: number, r: "user" | "assistant", content: string) => ({
        id,
        threadId: thread.id,
        resourceId: RESOURCE,
        role: r,
        type: "text",
        createdAt: new Date(1_700_000_000_000 + index),
        content: { format: 2 as const, parts: [{ type: "text" as const, text: content }] },
      });
      for (let start = 0; start < size; start += 1_000) {
        const batch = Array.from({ length: Math.min(1_000, size - start) }, (_, offset) =>
          v2(`m${start + offset}`, start + offset, role(start + offset), text(start + offset)),
        );
        await memory.saveMessages({ messages: batch, format: "v2" });
      }
      let clock = size;
      return {
        async turn(index) {
          // As Mastra's Agent does per turn: the last N messages, then save the new user message and the answer.
          const { messagesV2 } = await memory.rememberMessages({
            threadId: thread.id,
            resourceId: RESOURCE,
            config: { lastMessages: WINDOW },
          });
          if (messagesV2.length !== WINDOW)
            throw new Error(`${name}: remembered ${messagesV2.length} messages, expected ${WINDOW}`);
          const user = v2(`t${index}u`, clock++, "user", `next question ${index}`);
          const answer = v2(`t${index}a`, clock++, "assistant", REPLY);
          await memory.saveMessages({ messages: [user, answer], format: "v2" });
        },
        close: async () => {
          await (storage as { close?: () => Promise<void> }).close?.();
        },
      };
    },
  };
}

// ---------------------------------------------------------------- LangChain

/** LangChain's chat message history with `trimMessages` (what `RunnableWithMessageHistory` plus a trimmer does per turn). */
const langchainHistory: Contender = {
  name: "LangChain InMemoryChatMessageHistory + trimMessages",
  kind: "memory",
  async open(size) {
    const history = new InMemoryChatMessageHistory();
    await history.addMessages(
      Array.from({ length: size }, (_, index) =>
        role(index) === "user"
          ? new HumanMessage({ id: `m${index}`, content: text(index) })
          : new AIMessage({ id: `m${index}`, content: text(index) }),
      ),
    );
    return {
      async turn(index) {
        const human = new HumanMessage({ id: `t${index}u`, content: `next question ${index}` });
        const window = await trimMessages([...(await history.getMessages()), human], {
          maxTokens: WINDOW + 1,
          tokenCounter: (messages) => messages.length,
          strategy: "last",
        });
        if (window.length !== WINDOW + 1)
          throw new Error(`LangChain: the window held ${window.length} messages, expected ${WINDOW + 1}`);
        await history.addMessages([human, new AIMessage({ id: `t${index}a`, content: REPLY })]);
      },
      close: async () => {},
    };
  },
};

// ---------------------------------------------------------------- LangGraph

function langgraph(
  name: string,
  kind: Contender["kind"],
  makeSaver: (directory: string) => BaseCheckpointSaver & { db?: { close(): void } },
): Contender {
  return {
    name,
    kind,
    maxSize: 10_000,
    async open(size, directory) {
      const checkpointer = makeSaver(directory);
      let seen = 0;
      const graph = new StateGraph(MessagesAnnotation)
        .addNode("model", async (state) => {
          const window = await trimMessages(state.messages, {
            maxTokens: WINDOW + 1,
            tokenCounter: (messages) => messages.length,
            strategy: "last",
          });
          seen = window.length;
          return { messages: [new AIMessage(REPLY)] };
        })
        .addEdge(START, "model")
        .addEdge("model", END)
        .compile({ checkpointer });
      const config = { configurable: { thread_id: SESSION } };
      const seed: BaseMessage[] = Array.from({ length: size }, (_, index) =>
        role(index) === "user"
          ? new HumanMessage({ id: `m${index}`, content: text(index) })
          : new AIMessage({ id: `m${index}`, content: text(index) }),
      );
      if (size > 0) await graph.updateState(config, { messages: seed }, "model");
      return {
        async turn(index) {
          await graph.invoke({ messages: [new HumanMessage(`next question ${index}`)] }, config);
          if (seen !== WINDOW + 1) throw new Error(`${name}: the window held ${seen} messages, expected ${WINDOW + 1}`);
        },
        close: async () => checkpointer.db?.close(),
      };
    },
  };
}

// ---------------------------------------------------------------- AI SDK persistence guide

/** The AI SDK chatbot-persistence guide's pattern: read the chat's whole JSON file, append, rewrite the file. */
const jsonFilePattern: Contender = {
  name: "AI SDK guide pattern: whole JSON file rewritten per turn",
  kind: "file",
  async open(size, directory) {
    const path = join(directory, `chat-${Math.random().toString(36).slice(2)}.json`);
    const message = (id: string, r: "user" | "assistant", content: string) => ({
      id,
      role: r,
      parts: [{ type: "text", text: content }],
    });
    await writeFile(
      path,
      JSON.stringify(
        Array.from({ length: size }, (_, index) => message(`m${index}`, role(index), text(index))),
        null,
        2,
      ),
    );
    return {
      async turn(index) {
        const messages = JSON.parse(await readFile(path, "utf8")) as ReturnType<typeof message>[];
        messages.push(message(`t${index}u`, "user", `next question ${index}`));
        const window = messages.slice(-(WINDOW + 1));
        if (window.length !== WINDOW + 1) throw new Error("JSON pattern: short window");
        messages.push(message(`t${index}a`, "assistant", REPLY));
        await writeFile(path, JSON.stringify(messages, null, 2));
      },
      close: async () => {},
    };
  },
};

// ---------------------------------------------------------------- the run

const sqliteStore = (synchronous?: "normal") => (directory: string) => {
  const store = new SqliteMemoryStore({
    database: new BetterSqlite3(join(directory, `agentcore-${Math.random().toString(36).slice(2)}.db`)),
    ...(synchronous ? { synchronous } : {}),
  });
  return { store, close: () => store.database.close() };
};

export const contenders: Contender[] = [
  agentcore("agentcore InMemoryStore", "memory", "builtin", () => ({ store: new InMemoryStore(), close: () => {} })),
  mastra("Mastra Memory, InMemoryStore", "memory", () => new MastraInMemoryStore()),
  langchainHistory,
  langgraph("LangGraph MemorySaver + trimMessages", "memory", () => new MemorySaver()),
  agentcore("agentcore FileMemoryStore", "file", "builtin", (directory) => ({
    store: new FileMemoryStore(join(directory, `agentcore-${Math.random().toString(36).slice(2)}.json`)),
    close: () => {},
  })),
  agentcore("agentcore FileMemoryStore, fsync off", "file", "variant", (directory) => ({
    store: new FileMemoryStore({
      path: join(directory, `agentcore-${Math.random().toString(36).slice(2)}.json`),
      fsync: false,
    }),
    close: () => {},
  })),
  jsonFilePattern,
  agentcore("agentcore SqliteMemoryStore", "sqlite", "builtin", sqliteStore()),
  agentcore("agentcore SqliteMemoryStore, synchronous normal", "sqlite", "variant", sqliteStore("normal")),
  mastra(
    "Mastra Memory, LibSQLStore (file)",
    "sqlite",
    (directory) =>
      new LibSQLStore({ url: `file:${join(directory, `mastra-${Math.random().toString(36).slice(2)}.db`)}` }),
  ),
  langgraph("LangGraph SqliteSaver + trimMessages", "sqlite", (directory) =>
    SqliteSaver.fromConnString(join(directory, `langgraph-${Math.random().toString(36).slice(2)}.db`)),
  ),
];
