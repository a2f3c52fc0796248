// agentcore/inspector: what a model call received, turn by turn, in a web page (docs/inspector.md).
export { createInspectorHandler, type InspectorHandlerOptions } from "./create-inspector-handler";
export { newInspectorToken } from "./inspector-auth";
export type {
  ContextLeftOut,
  ContextLeftOutReason,
  ContextRecalledMemory,
  ContextReport,
  ContextReportReadOptions,
  ContextTokens,
} from "../stores/context-report";
