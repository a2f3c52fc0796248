/**
 * Issue 33's headline protocol, the user's path with defaults: per LoCoMo conversation one
 * `provider.write` of every turn as `{ id: dia_id, role: "user", content: "<speaker>: <text>",
 * timestamp: <session date> }`, per question `read({ sessionId, query, limit: 50 })`, fractional
 * R@10. Reported in-sample next to leave-one-conversation-out, per category, with the generated
 * date → event questions (bench/data/locomo-dev-date-questions.json) as a category of their own.
 */
import { readFileSync } from "node:fs";
import { SemanticMemoryProvider, type SemanticMemoryProviderOptions } from "agentcore";
import { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "agentcore/semantic";
import { userPathMessages, type LocomoConversation } from "./locomo";
import { add, evaluate, KS, type Evaluation, type Recall } from "./recall-eval";
import { DATE_QUESTIONS_PATH, type GeneratedQuestion } from "./generate-date-questions";

/** The category the generated date → event questions are reported under. */
export const GENERATED = 6;

/** The dev conversations with their generated date → event questions added (category `GENERATED`). */
export function withGenerated(conversations: LocomoConversation[]): LocomoConversation[] {
  const generated = JSON.parse(readFileSync(DATE_QUESTIONS_PATH, "utf8")) as GeneratedQuestion[];
  return conversations.map((conversation) => ({
    ...conversation,
    questions: [
      ...conversation.questions,
      ...generated
        .filter((question) => question.sampleId === conversation.sampleId)
        .map(({ question, evidence }) => ({ question, evidence, category: GENERATED })),
    ],
  }));
}

/** A provider setting of the grid, named for the report. */
export interface ProtocolSetting {
  name: string;
  provider: SemanticMemoryProviderOptions;
  index?: InMemorySemanticIndexOptions;
}

/** The user's path, defaults first: the time weights the protocol validates leave-one-out. */
export const PROTOCOL_GRID: ProtocolSetting[] = [{ name: "defaults", provider: {} }];
for (const periodWeight of [0, 0.25, 0.5, 1]) {
  for (const timeWeight of [1, 1.5, 2]) {
    if (periodWeight === 1 && timeWeight === 1.5) continue;
    PROTOCOL_GRID.push({
      name: `periodWeight ${periodWeight}, timeWeight ${timeWeight}`,
      provider: { periodWeight },
      index: { timeWeight },
    });
  }
}

export const providerOf = (setting: ProtocolSetting) => () =>
  new SemanticMemoryProvider({
    ...setting.provider,
    ...(setting.index ? { index: new InMemorySemanticIndex(setting.index) } : {}),
  });

/** The protocol on the given conversations with one setting. */
export const evaluateUserPath = (conversations: LocomoConversation[], setting: ProtocolSetting = PROTOCOL_GRID[0]!) =>
  evaluate(conversations, providerOf(setting), userPathMessages);

export interface ProtocolLeaveOneOut {
  folds: { sampleId: string; chosen: string; recall: Recall }[];
  overall: Recall;
  perCategory: Map<number, Recall>;
}

/** Each setting's evaluation of each conversation alone, by sample id: what `chooseLeaveOneOut` chooses from. */
export type GridRuns = Map<ProtocolSetting, Map<string, Evaluation>>;

/** Evaluates every setting of the grid on each conversation alone. */
export async function runGrid(
  conversations: LocomoConversation[],
  grid: ProtocolSetting[] = PROTOCOL_GRID,
): Promise<GridRuns> {
  const runs: GridRuns = new Map();
  for (const setting of grid) {
    const byConversation = new Map<string, Evaluation>();
    for (const conversation of conversations)
      byConversation.set(conversation.sampleId, await evaluateUserPath([conversation], setting));
    runs.set(setting, byConversation);
  }
  return runs;
}

/**
 * Leave-one-conversation-out on the user's path: for each conversation, the setting with the best
 * R@10 on the other conversations' questions (LoCoMo's and the generated ones together, never the
 * generated alone) is scored on it. Ties go to the earlier setting (the defaults first).
 */
export async function protocolLeaveOneOut(
  conversations: LocomoConversation[],
  grid: ProtocolSetting[] = PROTOCOL_GRID,
): Promise<ProtocolLeaveOneOut> {
  return chooseLeaveOneOut(conversations, grid, await runGrid(conversations, grid));
}

/** The leave-one-conversation-out choice over runs already made (see `protocolLeaveOneOut`). */
export function chooseLeaveOneOut(
  conversations: LocomoConversation[],
  grid: ProtocolSetting[],
  runs: GridRuns,
): ProtocolLeaveOneOut {
  const r10 = KS.indexOf(10);
  const empty = (): Recall => ({ questions: 0, sums: KS.map(() => 0) });
  const result: ProtocolLeaveOneOut = { folds: [], overall: empty(), perCategory: new Map() };
  for (const held of conversations) {
    let best = grid[0]!;
    let bestScore = -1;
    for (const setting of grid) {
      const others = empty();
      for (const other of conversations)
        if (other !== held) add(others, runs.get(setting)!.get(other.sampleId)!.overall);
      const score = others.questions ? others.sums[r10]! / others.questions : 0;
      if (score > bestScore) [best, bestScore] = [setting, score];
    }
    const evaluation = runs.get(best)!.get(held.sampleId)!;
    result.folds.push({ sampleId: held.sampleId, chosen: best.name, recall: evaluation.overall });
    add(result.overall, evaluation.overall);
    for (const [category, recall] of evaluation.perCategory) {
      const target = result.perCategory.get(category) ?? empty();
      result.perCategory.set(category, target);
      add(target, recall);
    }
  }
  return result;
}
