// agentcore/semantic: where SemanticMemoryProvider keeps its documents (the indexes, and the
// interface to write another), and the types of VectorMemoryProvider's callbacks. The providers
// themselves are exported by the root. No optional peer: PgVectorSemanticIndex takes your client.
export type { ScoredDocument, SemanticDocument, SemanticFilter, SemanticIndex } from "../semantic-index";
export { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "../in-memory-semantic-index";
export { PgVectorSemanticIndex, type PgVectorSemanticIndexOptions, type SqlClient } from "../pgvector-semantic-index";
export type { MemoryFilter, MemoryItemMetadata } from "../memory-metadata";
export type {
  VectorInsertOptions,
  VectorMemoryHit,
  VectorMemoryItem,
  VectorMemoryMetadata,
  VectorMemoryQuery,
  VectorSearchOptions,
} from "../vector-memory-provider";
