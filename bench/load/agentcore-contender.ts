// agentcore in bench/load.bench.ts: the store written straight to for seeding, `agent.run()` per turn.
import { Cluster, Redis } from "ioredis";
import pg from "pg";
import {
  Agent,
  SlidingWindowMemory,
  type AgentMessage,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type MemoryStore,
} from "agentcore";
import { PostgresMemoryStore } from "agentcore/postgres";
import { RedisMemoryStore } from "agentcore/redis";
import { cloneRows } from "./clone-rows";
import {
  BASE_TIME,
  eachLimited,
  FILLER_MESSAGES,
  REPLY,
  seedRole,
  seedText,
  turnText,
  WINDOW,
  type CellConfig,
  type ContenderImplementation,
  type OpenContender,
  type StoredTranscript,
} from "./contenders";

/** A model that answers at once, and checks it was sent the window. */
const instantModel: LanguageModel = {
  provider: "bench",
  modelId: "instant",
  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    if (call.messages.length !== WINDOW + 1)
      throw new Error(`the model was sent ${call.messages.length} messages, expected ${WINDOW + 1}`);
    return {
      text: REPLY,
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    };
  },
  async *doStream() {
    throw new Error("not used");
  },
};

interface AgentcoreStore {
  store: MemoryStore & {
    appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
    getMessages(sessionId: string): Promise<AgentMessage[]>;
  };
  close(): Promise<void>;
}

function agentcoreStore(config: CellConfig): AgentcoreStore {
  switch (config.contender) {
    case "agentcore-redis":
    case "agentcore-redis-unfolded": {
      const client = new Redis(config.redisUrl);
      return {
        store: unfoldedIf(config, new RedisMemoryStore({ client, prefix: config.namespace })),
        close: async () => void (await client.quit()),
      };
    }
    case "agentcore-redis-cluster":
    case "agentcore-redis-cluster-unfolded":
    case "agentcore-redis-cluster-wait": {
      const client = new Cluster(config.clusterNodes);
      const wait =
        config.contender === "agentcore-redis-cluster-wait"
          ? { waitForReplicas: { replicas: 1, timeoutMs: 2_000 } }
          : {};
      return {
        store: unfoldedIf(config, new RedisMemoryStore({ client, prefix: config.namespace, ...wait })),
        close: async () => void (await client.quit()),
      };
    }
    case "agentcore-postgres": {
      const pool = new pg.Pool({ connectionString: config.postgresUrl, max: config.poolSize });
      pool.on("error", () => {});
      return { store: new PostgresMemoryStore({ pool, schema: config.namespace }), close: () => pool.end() };
    }
    default:
      throw new Error(`${config.contender} is not an agentcore contender`);
  }
}

/** The `*-unfolded` contenders: the store with its folded turn (an internal symbol-keyed property) hidden, so a run makes the separate calls. */
function unfoldedIf<Store extends object>(config: CellConfig, store: Store): Store {
  if (config.contender.endsWith("-unfolded"))
    Object.defineProperty(store, Symbol.for("agentcore.turnFolding"), { value: undefined });
  return store;
}

const seedMessage = (index: number): AgentMessage => ({
  id: `m${index}`,
  role: seedRole(index),
  content: seedText(index),
  timestamp: BASE_TIME + index,
});

export const agentcore: ContenderImplementation = {
  async seed(config: CellConfig, active: string[], filler: string[], pool: pg.Pool): Promise<void> {
    const { store, close } = agentcoreStore(config);
    try {
      await eachLimited(active, 4, async (id) => {
        for (let start = 0; start < config.history; start += 500) {
          await store.appendMessages(
            id,
            Array.from({ length: Math.min(500, config.history - start) }, (_, offset) => seedMessage(start + offset)),
          );
        }
      });
      if (config.contender === "agentcore-postgres" && filler.length > 0) {
        // The filler sessions are copies of one seeded session, made in SQL (the message-count trigger counts them).
        await store.appendMessages(
          "filler-template",
          Array.from({ length: FILLER_MESSAGES }, (_, index) => seedMessage(index)),
        );
        const schema = `"${config.namespace}"`;
        await cloneRows(pool, `${schema}."agentcore_sessions"`, "session_id", "filler-template", filler, {
          message_count: "0",
        });
        await cloneRows(pool, `${schema}."agentcore_messages"`, "session_id", "filler-template", filler);
        await pool.query(`DELETE FROM ${schema}."agentcore_sessions" WHERE session_id = 'filler-template'`);
        await pool.query(`DELETE FROM ${schema}."agentcore_messages" WHERE session_id = 'filler-template'`);
      } else {
        await eachLimited(filler, 64, (id) =>
          store.appendMessages(
            id,
            Array.from({ length: FILLER_MESSAGES }, (_, index) => seedMessage(index)),
          ),
        );
      }
    } finally {
      await close();
    }
  },
  async open(config: CellConfig): Promise<OpenContender> {
    const { store, close } = agentcoreStore(config);
    // As an app server writes it: one agent, the session of each request passed to run().
    const agent = new Agent({
      model: instantModel,
      memory: new SlidingWindowMemory({ maxTurns: WINDOW / 2 + 1, stablePrefix: false }),
      memoryStore: store,
    });
    return {
      async turn(sessionId, turn) {
        const result = await agent.run({ input: turnText(sessionId, turn), sessionId });
        if (result.text !== REPLY) throw new Error("unexpected answer");
      },
      close,
    };
  },
  async read(config: CellConfig, sessionId: string): Promise<StoredTranscript> {
    const { store, close } = agentcoreStore(config);
    try {
      return (await store.getMessages(sessionId)).map((message) => ({
        role: message.role,
        text: message.content as string,
      }));
    } finally {
      await close();
    }
  },
};
