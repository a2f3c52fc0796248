// agentcore/tuning: the types of options that tune limits and behaviour, nested inside the options
// the root exports (`new SlidingWindowMemory({ stablePrefix })`, `factLimits`, `payloadLimits`).
// Few programs name them; they are here for those that do. Types only.
export type { WindowBehaviourOptions } from "./strategies/window-options";
export type { PayloadLimits } from "./ui/guard-payload";
export type { FactLimits } from "./tools/memory-tools";
