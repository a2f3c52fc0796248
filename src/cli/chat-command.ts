import { describeContent } from "../messages/content-text";
import { errorText } from "../errors/error-text";
import { createInterface } from "node:readline";
import pc from "picocolors";
import { Agent } from "../agent/agent";
import { AbortError } from "../errors/abort-error";
import { AgentCoreError } from "../errors/agent-core-error";
import type { AgentMessage } from "../messages/agent-message";
import type { UserContentPart } from "../messages/content-parts";
import type { MemoryStrategyName } from "../strategies/memory-strategy";
import { factScopeId } from "../stores/fact-scope";
import { backendOf } from "../stores/backend-of";
import { ordinaryFacts } from "../stores/working-memory-keys";
import { validateSessionId } from "../messages/session-id";
import { chooseModel } from "./choose-model";
import { CliError } from "./cli-error";
import { openStore } from "./open-store";
import { readAttachment } from "./read-attachment";
import { formatTime } from "./output";

export interface ChatOptions {
  model?: string;
  session?: string;
  user?: string;
  store: string;
  memory: string;
  memoryTools?: boolean;
  system?: string;
  /** Files (images, PDFs) sent as parts of the first message. */
  attach?: string[];
}

const strategies: MemoryStrategyName[] = ["sliding_window", "token_window", "summary", "full"];
const commands = "/attach FILE, /facts, /history, /clear, /session, /help, /exit";

/**
 * `agentcore chat`: a conversation in the terminal whose history lives in the store, so a later
 * `agentcore chat --session ID` continues it. Answers stream as they come; Ctrl-C stops the
 * current answer (the conversation stays valid), and Ctrl-C at the prompt (or /exit) quits.
 */
export async function chatCommand(
  options: ChatOptions,
  io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream } = {
    input: process.stdin,
    output: process.stdout,
  },
): Promise<void> {
  if (!strategies.includes(options.memory as MemoryStrategyName)) {
    throw new CliError(`--memory ${options.memory}: use one of ${strategies.join(", ")}`);
  }
  const sessionId = validateId(
    options.session ?? `chat-${new Date().toISOString().slice(0, 10)}-${globalThis.crypto.randomUUID().slice(0, 8)}`,
    "--session",
  );
  const userId = options.user === undefined ? undefined : validateId(options.user, "--user");
  // Attachments are read before anything opens: a missing or unsupported file fails at once.
  let attachments: UserContentPart[] = (options.attach ?? []).map((path) => readAttachment(path));
  const { model, note } = chooseModel(options.model);
  const opened = await openStore(options.store);
  const write = (text: string) => io.output.write(text);

  let agent: Agent;
  try {
    agent = new Agent({
      name: "agentcore-cli",
      model,
      memory: options.memory as MemoryStrategyName,
      memoryStore: opened.store,
      enableMemoryTools: Boolean(options.memoryTools),
      factScope: userId === undefined ? "session" : "user",
      sessionId,
      ...(options.system ? { systemPrompt: options.system } : {}),
    });
  } catch (error) {
    await opened.close();
    throw AgentCoreError.isInstance(error) ? new CliError(error.message) : error;
  }

  if (note) write(`${pc.dim(note)}\n`);
  write(
    pc.dim(
      `Session ${sessionId} in ${opened.label} · model ${agent.model.provider}/${agent.model.modelId}. Continue it later with --session ${sessionId}. ${commands}\n`,
    ),
  );

  const interactive = Boolean((io.input as NodeJS.ReadStream).isTTY);
  const lines = createInterface({
    input: io.input,
    output: interactive ? io.output : undefined,
    terminal: interactive,
  });
  let running: AbortController | undefined;
  let closing = false;
  const onInterrupt = () => {
    if (running) {
      running.abort();
    } else {
      closing = true;
      lines.close();
    }
  };
  lines.on("SIGINT", onInterrupt);
  process.on("SIGINT", onInterrupt);
  const prompt = () => interactive && !closing && lines.prompt();
  lines.setPrompt(pc.cyan("you> "));
  prompt();

  try {
    for await (const raw of lines) {
      const line = raw.trim();
      if (line.length === 0) {
        prompt();
        continue;
      }
      if (line.startsWith("/attach")) {
        const path = line.slice("/attach".length).trim();
        try {
          attachments = [...attachments, readAttachment(path, "/attach")];
          write(`Attached ${path}; it goes with your next message.\n`);
        } catch (error) {
          write(`${pc.red(`error: ${errorText(error)}`)}\n`);
        }
        prompt();
        continue;
      }
      if (line.startsWith("/")) {
        const done = await slashCommand(line, { agent, sessionId, userId, label: opened.label, write });
        if (done) break;
        prompt();
        continue;
      }
      running = new AbortController();
      write(pc.green("assistant> "));
      try {
        const input: string | UserContentPart[] =
          attachments.length === 0 ? line : [{ type: "text", text: line }, ...attachments];
        attachments = [];
        const stream = agent.stream({
          input,
          sessionId,
          ...(userId === undefined ? {} : { userId }),
          signal: running.signal,
        });
        for await (const delta of stream.textStream) write(delta);
        await stream.response;
        write("\n");
      } catch (error) {
        if (AbortError.isInstance(error)) write(pc.yellow(" [stopped]\n"));
        else write(`\n${pc.red(`error: ${errorText(error)}`)}\n`);
      } finally {
        running = undefined;
      }
      prompt();
    }
  } finally {
    process.off("SIGINT", onInterrupt);
    lines.close();
    await opened.close();
  }
}

async function slashCommand(
  line: string,
  context: {
    agent: Agent;
    sessionId: string;
    userId: string | undefined;
    label: string;
    write: (text: string) => void;
  },
): Promise<boolean> {
  const { agent, sessionId, userId, write } = context;
  const [command] = line.split(/\s+/);
  switch (command) {
    case "/exit":
    case "/quit":
      return true;
    case "/help":
      write(`${commands}\n`);
      return false;
    case "/session":
      write(
        `session ${sessionId}${userId ? ` · user ${userId}` : ""} · store ${context.label} · model ${agent.model.provider}/${agent.model.modelId} · memory ${agent.strategy.name}\n`,
      );
      return false;
    case "/facts": {
      const scope = factScopeId(userId === undefined ? "session" : "user", {
        sessionId,
        ...(userId === undefined ? {} : { userId }),
      });
      const facts = ordinaryFacts(await backendOf(agent.memoryStore).getFacts(scope));
      if (facts.length === 0) write("No facts saved.\n");
      for (const fact of [...facts].sort((a, b) => a.key.localeCompare(b.key)))
        write(`${pc.bold(fact.key)}: ${fact.value}  ${pc.dim(formatTime(fact.updatedAt))}\n`);
      return false;
    }
    case "/history": {
      const messages = await backendOf(agent.memoryStore).getMessages(sessionId);
      if (messages.length === 0) write("No messages yet.\n");
      for (const message of messages) write(`${describe(message)}\n`);
      return false;
    }
    case "/clear":
      await backendOf(agent.memoryStore).clearMessages(sessionId);
      write(`History of session ${sessionId} cleared.\n`);
      return false;
    default:
      write(`Unknown command ${command}. Commands: ${commands}\n`);
      return false;
  }
}

function describe(message: AgentMessage): string {
  const time = pc.dim(formatTime(message.timestamp));
  if (message.role === "tool")
    return `${time} ${pc.magenta(`tool ${message.name}`)}: ${describeContent(message.content)}`;
  if (message.role === "assistant" && message.toolCalls?.length) {
    const calls = message.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join(", ");
    const text = describeContent(message.content);
    return `${time} ${pc.green("assistant")}: ${text}${text ? " " : ""}${pc.magenta(`→ ${calls}`)}`;
  }
  return `${time} ${message.role === "user" ? pc.cyan("user") : pc.green(message.role)}: ${describeContent(message.content)}`;
}

function validateId(id: string, flag: string): string {
  try {
    return validateSessionId(id, flag);
  } catch (error) {
    throw new CliError(errorText(error));
  }
}
