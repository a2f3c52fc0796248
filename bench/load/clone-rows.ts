import type pg from "pg";

/**
 * Copies the rows of `table` whose `keyColumn` is `template` once per id in `ids`, with
 * `keyColumn` set to that id: a fast way to fill a store with many sessions shaped like one
 * written through the library's own API. `overrides` sets columns to SQL expressions;
 * `prefixed` columns (ids unique across the whole table) become `<new id>:<old value>`.
 */
export async function cloneRows(
  pool: pg.Pool,
  table: string,
  keyColumn: string,
  template: string,
  ids: string[],
  overrides: Record<string, string> = {},
  prefixed: string[] = [],
): Promise<void> {
  if (ids.length === 0) return;
  const [schema, name] = table.split(".").map((part) => part.slice(1, -1)) as [string, string];
  const { rows } = await pool.query<{ column_name: string; is_generated: string; identity_generation: string | null }>(
    `SELECT column_name, is_generated, identity_generation FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position`,
    [schema, name],
  );
  // Generated and identity columns get their own values.
  const columns = rows
    .filter((row) => row.is_generated === "NEVER" && row.identity_generation === null)
    .map((row) => row.column_name);
  const quoted = (column: string) => `"${column}"`;
  const value = (column: string) =>
    column === keyColumn
      ? "clone.new_id"
      : column in overrides
        ? overrides[column]!
        : prefixed.includes(column)
          ? `clone.new_id || ':' || t.${quoted(column)}`
          : `t.${quoted(column)}`;
  for (let start = 0; start < ids.length; start += 20_000) {
    await pool.query(
      `INSERT INTO ${table} (${columns.map(quoted).join(", ")})
       SELECT ${columns.map(value).join(", ")} FROM ${table} t, unnest($2::text[]) AS clone(new_id) WHERE t.${quoted(keyColumn)} = $1`,
      [template, ids.slice(start, start + 20_000)],
    );
  }
}
