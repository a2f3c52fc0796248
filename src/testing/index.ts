export { MockLanguageModel, type MockCall, type MockLanguageModelOptions, type MockResponse } from "./mock-language-model";
