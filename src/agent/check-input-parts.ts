import { UnsupportedPartError } from "../errors/unsupported-part-error";
import type { UserMessage } from "../messages/agent-message";
import { isInlineData } from "../messages/data-content";
import type { LanguageModel } from "../models/language-model";
import { wireImageMediaType } from "../models/wire-content";

/**
 * Refuses a new user message whose image or file part the model does not take (its
 * `supportsPart`), before the run reads or stores anything: an `UnsupportedPartError` naming the
 * first such part and the model. Text and models that declare nothing pass.
 */
export async function checkInputParts(model: LanguageModel, input: UserMessage["content"] | undefined): Promise<void> {
  if (model.supportsPart === undefined || input === undefined || typeof input === "string") return;
  for (const [partIndex, part] of input.entries()) {
    if (part.type === "text" || (await model.supportsPart(part))) continue;
    const data = part.type === "image" ? part.image : part.data;
    const remote = !isInlineData(data);
    // The same part as bytes: whether sending its content instead of its URL would do.
    const inline = part.type === "image" ? { ...part, image: new Uint8Array(0) } : { ...part, data: new Uint8Array(0) };
    throw new UnsupportedPartError({
      partIndex,
      partType: part.type,
      mediaType: part.type === "image" ? wireImageMediaType(part) : part.mediaType,
      remote,
      provider: model.provider,
      modelId: model.modelId,
      takesInline: remote && (await model.supportsPart(inline)),
    });
  }
}
