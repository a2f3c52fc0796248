// A session's title, generated in the background during its first turn (`generateTitle`,
// docs/threads.md): asked of the title model as soon as the user message is stored, written only
// once the turn completed, never over a title already there.
import { errorText } from "../errors/error-text";
import { TitleGenerationError } from "../errors/title-generation-error";
import { MAX_TITLE_LENGTH } from "../stores/session-metadata";
import type { UsageTotals } from "../stores/usage-totals";
import type { AgentConfig } from "./agent-config";
import { ledgerTotals } from "./model-pricing";
import type { PendingTitle } from "./pending-title";
import type { LoadedHistory } from "./session-history";
import type { ResolvedTitling } from "./title-options";
import type { TurnRun } from "./turn-run";

/** Longest title kept from a model's answer, in characters (cut at a word). */
const TITLE_LENGTH = 80;
/** Characters of the first message given to the title model. */
const TITLE_INPUT_LENGTH = 2000;

/**
 * Starts titling the run's session when the agent generates titles and this is the session's first
 * turn (no answer in its history: a new session, one created before its first message, or one whose
 * first turn failed), on a store that keeps titles. The title model is asked at once, beside the
 * answer, so the title can be ready when the answer ends; nothing is written before `commit`.
 */
export function startTitle(config: AgentConfig, run: TurnRun, history: LoadedHistory): PendingTitle | undefined {
  const titling = config.titling;
  const { store } = config;
  if (
    !titling ||
    run.input === undefined ||
    run.history !== undefined ||
    config.historyProvider !== undefined ||
    !store.capabilities.getSession ||
    !store.capabilities.updateSession ||
    history.offset > 0 ||
    history.messages.some((message) => message.role === "assistant")
  )
    return undefined;
  const controller = new AbortController();
  let decide!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (decide = resolve));
  let generated: string | undefined;
  const generation = (async () => {
    // A session titled already (by hand, before its first message) costs no model call.
    if ((await store.getSession(run.sessionId))?.title !== undefined) return undefined;
    const answer = await askTitle(titling, run, controller.signal);
    generated = answer.title;
    return answer;
  })();
  const written = (async (): Promise<string | undefined> => {
    try {
      const answer = await generation;
      if (!answer || !(await decided)) return undefined;
      if (!(await store.titleSession(run.sessionId, answer.title, answer.usage))) return undefined;
      run.notifier.notify({ type: "title:set", title: answer.title, usage: answer.usage });
      return answer.title;
    } catch (error) {
      if (!controller.signal.aborted) run.notifier.notify({ type: "title:error", error });
      return undefined;
    }
  })();
  return {
    get generated() {
      return generated;
    },
    written,
    commit: () => decide(true),
    abandon: () => {
      decide(false);
      controller.abort();
    },
  };

  /** One call of the title model on the run's first message; its usage priced for the ledger. */
  async function askTitle(
    { model, prompt }: ResolvedTitling,
    { sessionId, inputText }: TurnRun,
    abortSignal: AbortSignal,
  ): Promise<{ title: string; usage: UsageTotals }> {
    const modelName = `${model.provider}/${model.modelId}`;
    let text: string;
    let usage: UsageTotals;
    try {
      const result = await model.doGenerate({
        system: prompt,
        messages: [{ role: "user", content: inputText.slice(0, TITLE_INPUT_LENGTH) || "(an attachment)" }],
        tools: [],
        maxOutputTokens: 60,
        abortSignal,
      });
      text = result.text;
      usage = ledgerTotals(result.usage, model, config.pricing);
    } catch (cause) {
      throw new TitleGenerationError({
        reason: "failed",
        sessionId,
        model: modelName,
        message: `The title model (${modelName}) failed: ${errorText(cause)}.`,
        cause,
      });
    }
    const title = cleanTitle(text);
    if (title === undefined)
      throw new TitleGenerationError({
        reason: "empty",
        sessionId,
        model: modelName,
        message: `The title model (${modelName}) answered no title.`,
      });
    return { title, usage };
  }
}

/** A model's answer made a title: its first line, without quotes, a "Title:" prefix or a final period, cut at a word. */
export function cleanTitle(text: string): string | undefined {
  const line = text
    .split("\n")
    .map((candidate) => candidate.trim())
    .find((candidate) => candidate !== "");
  if (line === undefined) return undefined;
  let title = line
    .replace(/^(?:#+\s*)?(?:\*\*)?title\s*:\s*/i, "")
    .replace(/^["'“”‘’*_`]+|["'“”‘’*_`]+$/g, "")
    .replace(/[.。!！]+$/u, "")
    .replace(/\s+/g, " ")
    .trim();
  if (title.length > TITLE_LENGTH) {
    const cut = title.slice(0, TITLE_LENGTH);
    const space = cut.lastIndexOf(" ");
    title = `${(space > TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
  }
  return title === "" ? undefined : title.slice(0, MAX_TITLE_LENGTH);
}
