import { InvalidMessageError } from "./invalid-message-error";

const marker = "agentcore.error.UnsupportedPartError";
const symbol = Symbol.for(marker);

/**
 * A new user message has an image or file part the run's model does not take (its
 * `supportsPart`): a media type the provider has no input for, or a remote URL where it takes
 * only the bytes. Refused before anything is stored or sent: the session is unchanged. A part
 * already stored is never refused: it is sent as a text placeholder (docs/messages.md). An
 * `InvalidMessageError` too (`issues` names the part); `partIndex`, `partType`, `mediaType`,
 * `remote` and `provider` / `modelId` say which part and which model.
 */
export class UnsupportedPartError extends InvalidMessageError {
  private readonly [symbol] = true;
  /** Index of the part in the user message's content. */
  readonly partIndex: number;
  readonly partType: "image" | "file";
  /** The part's media type (an image's as sent, when the part names none). */
  readonly mediaType: string;
  /** Whether the part is given by remote URL (not its bytes, base64 or a `data:` URL). */
  readonly remote: boolean;
  readonly provider: string;
  readonly modelId: string;

  constructor(options: {
    partIndex: number;
    partType: "image" | "file";
    mediaType: string;
    remote: boolean;
    provider: string;
    modelId: string;
    /** Whether the model would take the same part given inline (the message then says to send its bytes). */
    takesInline?: boolean;
  }) {
    const model = `${options.provider}/${options.modelId}`;
    const what = `${options.partType} part (${options.mediaType}${options.remote ? ", given by remote URL" : ""})`;
    const fix =
      options.remote && options.takesInline
        ? "give its bytes, base64 or a data: URL instead of the URL"
        : "leave it out or use a model that takes it";
    const detail = `${model} does not take this ${what}: ${fix}`;
    super({
      issues: [{ index: 0, path: String(options.partIndex), message: detail }],
      message: `Input part ${options.partIndex}: ${detail}. Nothing was stored.`,
    });
    this.name = "UnsupportedPartError";
    this.partIndex = options.partIndex;
    this.partType = options.partType;
    this.mediaType = options.mediaType;
    this.remote = options.remote;
    this.provider = options.provider;
    this.modelId = options.modelId;
  }

  static override isInstance(error: unknown): error is UnsupportedPartError {
    return InvalidMessageError.hasMarker(error, marker);
  }
}
