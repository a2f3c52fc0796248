import { Command, CommanderError, Option } from "commander";
import pc from "picocolors";
import { AgentCoreError } from "../errors/agent-core-error";
import { chatCommand } from "./chat-command";
import { CliError } from "./cli-error";
import {
  clearSession,
  exportSessions,
  importSessions,
  listSessions,
  pruneSessions,
  showFacts,
  showSession,
  withStore,
} from "./memory-command";
import { DEFAULT_STORE_URL } from "./open-store";
import { inspectCommand } from "./inspect-command";
import { deleteUser, listUserSessions, showUserUsage } from "./users-command";

const storeOption = () =>
  new Option(
    "--store <url>",
    "memory:, file:./path.json, sqlite:./path.db, redis://host:6379, postgres://user@host/db",
  ).default(DEFAULT_STORE_URL);
const jsonOption = () => new Option("--json", "output for programs: JSON (JSON lines for export)");

export function createProgram(): Command {
  const program = new Command("agentcore")
    .description("Chat with persistent memory, and inspect, export, import and prune any agentcore store.")
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  program
    .command("chat")
    .description("chat in the terminal; the history stays in the store, so --session ID continues it")
    .option(
      "--model <provider/model>",
      'e.g. openai/gpt-4o-mini, anthropic/claude-3-5-haiku, ollama/llama3.1; "mock" for the offline scripted model',
    )
    .option("--session <id>", "the session to continue (a new one when omitted)")
    .option("--user <id>", "who is chatting: facts are then kept per user, across sessions")
    .addOption(storeOption())
    .addOption(
      new Option("--memory <strategy>", "what the model sees of the history")
        .choices(["sliding_window", "token_window", "summary", "full"])
        .default("sliding_window"),
    )
    .option("--memory-tools", "let the model keep facts with remember_fact / recall_fact / forget_fact")
    .option("--system <text>", "the system prompt")
    .option(
      "--attach <file>",
      "an image (PNG, JPEG, GIF, WebP) or PDF sent with your first message; repeat for more",
      (file: string, files: string[] = []) => [...files, file],
    )
    .action(async (options) => chatCommand(options));

  program
    .command("inspect")
    .description("see what the model saw, turn by turn, in a web page on 127.0.0.1 (needs recordContext: true)")
    .addOption(storeOption())
    .option("--port <number>", "the port (a random free one when omitted)")
    .option("--host <address>", "the address to listen on; anything but loopback lets other machines in", "127.0.0.1")
    .option("--open", "open the page in the browser")
    .option("--allow-delete", "let the page delete sessions (it asks first)")
    .option(
      "--provider <module>",
      "a module exporting the recall provider the query box asks (default export or `provider`)",
    )
    .action(async (options) => inspectCommand(options));

  const memory = program.command("memory").description("inspect and manage a store");
  memory
    .command("sessions")
    .description("list the sessions, most recently used first")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (options) => withStore(options, (opened, output) => listSessions(opened, output)));
  memory
    .command("show <sessionId>")
    .description("print a session's working memory and messages")
    .option("--user <id>", "print this user's working memory too")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (sessionId: string, options) =>
      withStore(options, (opened, output) => showSession(opened, output, sessionId, options.user)),
    );
  memory
    .command("facts <sessionId>")
    .description("print the facts of a session (or of a user, with --user)")
    .option("--user <id>", "show the facts kept for this user instead")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (sessionId: string, options) =>
      withStore(options, (opened, output) => showFacts(opened, output, sessionId, options.user)),
    );
  memory
    .command("export")
    .description("write sessions as JSON lines, one session a line")
    .option("--session <id>", "only this session")
    .option("--out <file>", "write to a file instead of stdout")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (options) => withStore(options, (opened, output) => exportSessions(opened, output, options)));
  memory
    .command("import <file>")
    .description("read an export into the store (idempotent)")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (file: string, options) =>
      withStore(options, (opened, output) => importSessions(opened, output, file)),
    );
  memory
    .command("clear <sessionId>")
    .description("delete a session's messages and facts")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (sessionId: string, options) =>
      withStore(options, (opened, output) => clearSession(opened, output, sessionId)),
    );
  memory
    .command("prune")
    .description("delete sessions not used for a while")
    .requiredOption("--older-than <age>", "e.g. 30m, 12h, 7d, 2w")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (options) =>
      withStore(options, (opened, output) => pruneSessions(opened, output, options.olderThan)),
    );
  const users = program.command("users").description("a user's chats and usage, and deleting a user's data");
  users
    .command("sessions <userId>")
    .description("list the user's sessions, newest first, with titles and tokens spent")
    .option("--limit <number>", "sessions per page (1 to 1000)", "20")
    .option("--cursor <cursor>", "the next page, as printed after the previous one")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (userId: string, options) =>
      withStore(options, (opened, output) => listUserSessions(opened, output, userId, options)),
    );
  users
    .command("usage <userId>")
    .description("the tokens and cost the user's sessions spent")
    .option("--since <date>", "only from this UTC day on, e.g. 2026-12-01")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (userId: string, options) =>
      withStore(options, (opened, output) => showUserUsage(opened, output, userId, options)),
    );
  users
    .command("delete <userId>")
    .description("delete every session the user owns and the user's facts (safe to repeat)")
    .option("--yes", "confirm the deletion")
    .addOption(storeOption())
    .addOption(jsonOption())
    .action(async (userId: string, options) =>
      withStore(options, (opened, output) => deleteUser(opened, output, userId, options)),
    );
  return program;
}

/** Runs the command; resolves to the exit code. Every failure is one line on stderr. */
export async function main(argv: string[]): Promise<number> {
  try {
    await createProgram().parseAsync(argv, { from: "user" });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has printed its one line already; help and version exit cleanly.
      return error.exitCode === 0 || error.code === "commander.helpDisplayed" || error.code === "commander.help"
        ? 0
        : 2;
    }
    const text = error instanceof Error ? error.message.split("\n")[0] : String(error);
    process.stderr.write(`${pc.red("agentcore: error:")} ${text}\n`);
    if (error instanceof CliError) return error.exitCode;
    return AgentCoreError.isInstance(error) ? 2 : 1;
  }
}
