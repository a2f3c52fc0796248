import { z } from "zod";
import { type ContentPart, type DataContent, isBytes, isUrl, partTypesByRole } from "./content-parts";
import { dataContentBytes, dataContentProblem } from "./data-content";
import type { ResolvedMessageLimits } from "./message-limits";
import { utf8ByteLength } from "./utf8-byte-length";

const providerOptionsSchema = z.record(z.string(), z.unknown());
const mediaTypeSchema = z.string().min(1).max(255);

/** Bytes (a `Buffer` or an `ArrayBuffer` becomes a plain `Uint8Array`), a `URL`, or a string; then checked. */
const dataContentSchema = z
  .custom<DataContent | ArrayBuffer>(
    (value) => typeof value === "string" || isBytes(value) || isUrl(value) || value instanceof ArrayBuffer,
    { message: "expected bytes (Uint8Array), a URL, or a string (base64, a data: URL or an http(s) URL)" },
  )
  .transform((value, context): DataContent => {
    const content = value instanceof ArrayBuffer ? new Uint8Array(value) : value;
    const problem = dataContentProblem(content);
    if (problem !== undefined) {
      context.addIssue({ code: "custom", message: problem });
      return z.NEVER;
    }
    return content;
  });

const partSchemas = {
  text: z.object({
    type: z.literal("text"),
    text: z.string(),
    providerOptions: providerOptionsSchema.optional(),
  }),
  image: z.object({
    type: z.literal("image"),
    image: dataContentSchema,
    mediaType: mediaTypeSchema.optional(),
    filename: z.string().max(1024).optional(),
    providerOptions: providerOptionsSchema.optional(),
  }),
  file: z.object({
    type: z.literal("file"),
    data: dataContentSchema,
    mediaType: mediaTypeSchema,
    filename: z.string().max(1024).optional(),
    providerOptions: providerOptionsSchema.optional(),
  }),
  reasoning: z.object({
    type: z.literal("reasoning"),
    text: z.string(),
    providerOptions: providerOptionsSchema.optional(),
  }),
} satisfies Record<ContentPart["type"], z.ZodType>;

type PartRole = keyof typeof partTypesByRole;

/**
 * The content of a message of `role`: a string, or an array of the parts that role may hold. An
 * unknown or misplaced part type is an issue at `content.<index>.type` that lists what is allowed.
 */
export function contentSchema(role: PartRole) {
  const allowed: readonly string[] = partTypesByRole[role];
  const list = allowed.join(", ");
  return z.unknown().transform((value, context) => {
    if (typeof value === "string") return value;
    if (!Array.isArray(value)) {
      context.addIssue({
        code: "custom",
        message: `expected a string or an array of content parts, got ${describe(value)}`,
      });
      return z.NEVER;
    }
    const parts: ContentPart[] = [];
    value.forEach((part: unknown, index) => {
      const type = typeof part === "object" && part !== null ? (part as { type?: unknown }).type : undefined;
      if (typeof type !== "string" || !allowed.includes(type)) {
        const got = typeof type === "string" ? `part type ${JSON.stringify(type.slice(0, 80))}` : describe(part);
        context.addIssue({
          code: "custom",
          path: typeof type === "string" ? [index, "type"] : [index],
          message: `${got} is not allowed in a${role === "assistant" ? "n" : ""} ${role} message (expected one of: ${list})`,
        });
        return;
      }
      const result = partSchemas[type as ContentPart["type"]].safeParse(part);
      if (result.success) parts.push(result.data as ContentPart);
      else {
        for (const issue of result.error.issues) {
          context.addIssue({ code: "custom", path: [index, ...issue.path] as PropertyKey[], message: issue.message });
        }
      }
    });
    return parts.length === value.length ? parts : z.NEVER;
  });
}

/**
 * Where `content` (already parsed) is over the limits: the path of each part over `maxPartBytes`
 * and, at `content`, a message over `maxMessageBytes`.
 */
export function contentLimitIssues(
  content: string | readonly ContentPart[],
  limits: ResolvedMessageLimits,
): { path: string; message: string }[] {
  if (typeof content === "string") {
    // UTF-8 takes at most 3 bytes per UTF-16 unit: count only when that bound is over the limit.
    if (content.length * 3 <= limits.maxMessageBytes) return [];
    const bytes = utf8ByteLength(content);
    return bytes > limits.maxMessageBytes
      ? [
          {
            path: "content",
            message: `is ${bytes} bytes, over the message limit of ${limits.maxMessageBytes} bytes (maxMessageBytes)`,
          },
        ]
      : [];
  }
  const issues: { path: string; message: string }[] = [];
  let total = 0;
  content.forEach((part, index) => {
    const bytes = partBytes(part);
    total += bytes;
    if (bytes > limits.maxPartBytes) {
      const field = part.type === "image" ? "image" : part.type === "file" ? "data" : "text";
      issues.push({
        path: `content.${index}.${field}`,
        message: `is ${bytes} bytes, over the part limit of ${limits.maxPartBytes} bytes (maxPartBytes)`,
      });
    }
  });
  if (total > limits.maxMessageBytes) {
    issues.push({
      path: "content",
      message: `is ${total} bytes, over the message limit of ${limits.maxMessageBytes} bytes (maxMessageBytes)`,
    });
  }
  return issues;
}

/** Bytes of one part as the limits count them (docs/messages.md, "Limits"). */
export function partBytes(part: ContentPart): number {
  switch (part.type) {
    case "image":
      return dataContentBytes(part.image);
    case "file":
      return dataContentBytes(part.data);
    default:
      return utf8ByteLength(part.text);
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
