/**
 * What the model is told of a tool call the user denied (docs/approvals.md): the user's reason,
 * worded as the AI SDK's `convertToModelMessages` words an `output-denied` call, so a denial reads
 * the same whether the server or the client recorded it. Without a reason it says only that the
 * call was denied: never a reason the user did not give.
 */
export function deniedToolContent(reason: string | undefined): string {
  return `Error: ${reason ?? "Tool call execution denied."}`;
}
