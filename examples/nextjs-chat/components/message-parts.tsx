"use client";

import { getToolName, isToolUIPart, type FileUIPart, type UIMessage } from "ai";
import { useState, type ReactNode } from "react";

type Part = UIMessage["parts"][number];
type ToolPart = Extract<Part, { toolCallId: string }>;

/** What a tool card's buttons do: answer an approval request (a denial may carry a reason). */
export type ApprovalHandler = (approvalId: string, approved: boolean, reason?: string) => void;

/** One part of a message: text, reasoning folded, an attachment as a thumbnail, a tool call as a card. */
export function MessagePart({ part, onApproval }: { part: Part; onApproval?: ApprovalHandler }): ReactNode {
  if (part.type === "text") {
    return (
      <p className="text" data-part="text">
        {part.text}
      </p>
    );
  }
  if (part.type === "reasoning") {
    if (!part.text) return null;
    return (
      <details className="reasoning" data-part="reasoning">
        <summary>{part.state === "streaming" ? "Thinking…" : "Thought process"}</summary>
        <p>{part.text}</p>
      </details>
    );
  }
  if (part.type === "file") return <Attachment file={part} />;
  if (isToolUIPart(part)) return <ToolCard part={part} onApproval={onApproval} />;
  return null;
}

/** An image as a thumbnail (opens full size), any other file as a labelled tile. */
export function Attachment({ file }: { file: Pick<FileUIPart, "mediaType" | "url" | "filename"> }): ReactNode {
  if (file.mediaType.startsWith("image/")) {
    return (
      <a className="attachment image" data-part="file" href={file.url} target="_blank" rel="noreferrer">
        {/* biome-ignore lint/performance/noImgElement: a data: URL from the store, no optimisation to do */}
        <img src={file.url} alt={file.filename ?? "attached image"} />
      </a>
    );
  }
  return (
    <a className="attachment file" data-part="file" href={file.url} download={file.filename ?? "attachment"}>
      <span className="file-icon" aria-hidden>
        {file.mediaType === "application/pdf" ? "PDF" : "FILE"}
      </span>
      <span className="file-name">{file.filename ?? file.mediaType}</span>
    </a>
  );
}

const stateLabels: Record<ToolPart["state"], string> = {
  "input-streaming": "preparing",
  "input-available": "running",
  "approval-requested": "needs approval",
  "approval-responded": "answered",
  "output-available": "done",
  "output-error": "failed",
  "output-denied": "denied",
};

/** A tool call: its name, its input and output as fields, its state; approve / deny when asked. */
function ToolCard({ part, onApproval }: { part: ToolPart; onApproval?: ApprovalHandler }): ReactNode {
  const name = getToolName(part);
  return (
    <section className="tool-card" data-tool={name} data-state={part.state}>
      <header>
        <span className="tool-icon" aria-hidden>
          ⚙
        </span>
        <span className="tool-name">{name.replace(/_/g, " ")}</span>
        <span className={`tool-state state-${part.state}`}>{stateLabels[part.state]}</span>
      </header>
      {part.input !== undefined && <Fields label="Input" value={part.input} />}
      {part.state === "output-available" && <Fields label="Output" value={part.output} />}
      {part.state === "output-error" && <p className="tool-error">{part.errorText}</p>}
      {part.state === "output-denied" && (
        <p className="tool-denied">Denied{part.approval.reason ? `: ${part.approval.reason}` : ""}</p>
      )}
      {part.state === "approval-requested" && onApproval && (
        <ApprovalButtons approvalId={part.approval.id} onApproval={onApproval} />
      )}
    </section>
  );
}

/** Approve, or deny with an optional reason the model gets. */
function ApprovalButtons({ approvalId, onApproval }: { approvalId: string; onApproval: ApprovalHandler }) {
  const [reason, setReason] = useState("");
  return (
    <div className="approval">
      <input
        className="deny-reason"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
        placeholder="Reason (if you deny)"
      />
      <button type="button" className="deny" onClick={() => onApproval(approvalId, false, reason.trim() || undefined)}>
        Deny
      </button>
      <button type="button" className="approve" onClick={() => onApproval(approvalId, true)}>
        Approve
      </button>
    </div>
  );
}

/** An object as a list of fields (nested values as compact JSON), anything else as text. */
function Fields({ label, value }: { label: string; value: unknown }): ReactNode {
  const entries =
    value !== null && typeof value === "object" && !Array.isArray(value) ? Object.entries(value) : undefined;
  return (
    <div className="tool-fields" data-fields={label.toLowerCase()}>
      <span className="fields-label">{label}</span>
      {entries ? (
        <dl>
          {entries.map(([key, field]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{typeof field === "string" ? field : JSON.stringify(field)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p>{typeof value === "string" ? value : JSON.stringify(value)}</p>
      )}
    </div>
  );
}

/** The usage agentcore stores on an assistant message (docs/messages.md, "Message metadata"). */
interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/**
 * What an answer cost, in tokens: `metadata.agentcore.usage`, summed over the answer's model calls.
 * It comes with the stream's message-metadata parts, and from the store after a reload.
 */
export function UsageLine({ metadata }: { metadata: unknown }): ReactNode {
  const usage = (metadata as { agentcore?: { usage?: Usage } } | undefined)?.agentcore?.usage;
  if (!usage) return null;
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return (
    <p className="usage" data-part="usage" title="Tokens this answer cost">
      {usage.totalTokens ?? input + output} tokens · {input} in · {output} out
    </p>
  );
}
