export { AgentCoreError } from "./agent-core-error";
export { AbortError } from "./abort-error";
export { InvalidArgumentError } from "./invalid-argument-error";
export { InvalidMessageError, type MessageIssue } from "./invalid-message-error";
export { NoSuchProviderError } from "./no-such-provider-error";
export { StoreError } from "./store-error";
export { UnsupportedFeatureError } from "./unsupported-feature-error";
export { SessionBusyError } from "./session-busy-error";
export { SummarizationError, type SummarizationFailure } from "./summarization-error";
