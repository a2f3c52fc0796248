// LangGraph's PostgreSQL checkpointer in bench/load.bench.ts: a one-node graph invoked per turn.
import pg from "pg";
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from "@langchain/core/messages";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { cloneRows } from "./clone-rows";
import {
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

function langgraphGraph(saver: PostgresSaver) {
  return new StateGraph(MessagesAnnotation)
    .addNode("model", async (state) => {
      const window = await trimMessages(state.messages, {
        maxTokens: WINDOW + 1,
        tokenCounter: (messages) => messages.length,
        strategy: "last",
      });
      if (window.length !== WINDOW + 1)
        throw new Error(`LangGraph's window held ${window.length} messages, expected ${WINDOW + 1}`);
      return { messages: [new AIMessage(REPLY)] };
    })
    .addEdge(START, "model")
    .addEdge("model", END)
    .compile({ checkpointer: saver });
}

function langgraphSaver(config: CellConfig): { saver: PostgresSaver; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: config.postgresUrl, max: config.poolSize });
  pool.on("error", () => {});
  return { saver: new PostgresSaver(pool, undefined, { schema: config.namespace }), pool };
}

export const langgraph: ContenderImplementation = {
  async seed(config: CellConfig, active: string[], filler: string[], pool: pg.Pool): Promise<void> {
    const { saver, pool: own } = langgraphSaver(config);
    try {
      await pool.query(`CREATE SCHEMA IF NOT EXISTS "${config.namespace}"`);
      await saver.setup();
      const graph = langgraphGraph(saver);
      for (const [template, size] of [
        ["active-template", config.history],
        ["filler-template", FILLER_MESSAGES],
      ] as const) {
        const seed: BaseMessage[] = Array.from({ length: size }, (_, index) =>
          seedRole(index) === "user"
            ? new HumanMessage({ id: `m${index}`, content: seedText(index) })
            : new AIMessage({ id: `m${index}`, content: seedText(index) }),
        );
        await graph.updateState({ configurable: { thread_id: template } }, { messages: seed }, "model");
      }
      const schema = `"${config.namespace}"`;
      for (const [template, ids] of [
        ["active-template", active],
        ["filler-template", filler],
      ] as const) {
        for (const table of ["checkpoints", "checkpoint_blobs", "checkpoint_writes"]) {
          await cloneRows(pool, `${schema}."${table}"`, "thread_id", template, ids);
          await pool.query(`DELETE FROM ${schema}."${table}" WHERE thread_id = $1`, [template]);
        }
      }
    } finally {
      await own.end();
    }
  },
  async open(config: CellConfig): Promise<OpenContender> {
    const { saver, pool } = langgraphSaver(config);
    const graph = langgraphGraph(saver);
    return {
      async turn(sessionId, turn) {
        await graph.invoke(
          { messages: [new HumanMessage(turnText(sessionId, turn))] },
          { configurable: { thread_id: sessionId } },
        );
      },
      close: () => pool.end(),
    };
  },
  async read(config: CellConfig, sessionId: string): Promise<StoredTranscript> {
    const { saver, pool } = langgraphSaver(config);
    try {
      const state = await langgraphGraph(saver).getState({ configurable: { thread_id: sessionId } });
      return (state.values.messages as BaseMessage[]).map((message) => ({
        role: message.getType() === "human" ? "user" : "assistant",
        text: String(message.content),
      }));
    } finally {
      await pool.end();
    }
  },
};
