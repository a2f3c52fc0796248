export {
  MockLanguageModel,
  type MockCall,
  type MockLanguageModelOptions,
  type MockResponse,
} from "./mock-language-model";
export { MockEmbeddingModel, type MockEmbeddingModelOptions } from "./mock-embedding-model";
export { testMemoryStore, type TestMemoryStoreOptions } from "./test-memory-store";
export { testMemoryProvider, type TestMemoryProviderOptions } from "./test-memory-provider";
