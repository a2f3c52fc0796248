/**
 * An AI SDK model's `supportedUrls`: for each media type pattern (`"image/*"`, `"application/pdf"`,
 * `"*"`), the URLs its provider takes as they are. A URL part outside them is one the model cannot
 * take: the AI SDK's `generateText` would download it, agentcore never fetches a URL.
 */
export type AISDKSupportedUrls = Record<string, RegExp[]>;

/** Whether `supportedUrls` lists `url` for `mediaType` (the AI SDK's own `isUrlSupported` rule). */
export function isAISDKUrlSupported(supportedUrls: AISDKSupportedUrls, mediaType: string, url: string): boolean {
  const type = mediaType.toLowerCase();
  return Object.entries(supportedUrls).some(([pattern, expressions]) => {
    const key = pattern.toLowerCase();
    const prefix = key === "*" || key === "*/*" ? "" : key.replace(/\*/, "");
    const matches = prefix === "" || prefix.endsWith("/") ? type.startsWith(prefix) : type === prefix;
    return matches && Array.isArray(expressions) && expressions.some((expression) => expression.test(url));
  });
}
