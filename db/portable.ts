// Makes SQLite speak the same shapes as PostgreSQL: booleans and Dates are bound as SQLite
// values on the way in; 0/1 and JSON text come back as booleans and objects on the way out.
import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely';
import { BOOLEAN_COLUMNS, JSON_COLUMNS } from './types.ts';

function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  return value;
}

class SqliteValueTransformer extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    return { ...super.transformValue(node), value: toSqliteValue(node.value) };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...super.transformPrimitiveValueList(node), values: node.values.map(toSqliteValue) };
  }
}

export class SqlitePortablePlugin implements KyselyPlugin {
  readonly #transformer = new SqliteValueTransformer();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const { rows } = args.result;
    if (rows.length === 0) return args.result;
    // Every row of one result has the same columns: find the ones to convert once.
    const booleans: string[] = [];
    const json: string[] = [];
    for (const key of Object.keys(rows[0])) {
      if (BOOLEAN_COLUMNS.has(key)) booleans.push(key);
      else if (JSON_COLUMNS.has(key)) json.push(key);
    }
    if (booleans.length === 0 && json.length === 0) return args.result;
    for (const row of rows) {
      for (const key of booleans) if (typeof row[key] === 'number') row[key] = row[key] !== 0;
      for (const key of json) if (typeof row[key] === 'string') row[key] = JSON.parse(row[key] as string);
    }
    return args.result;
  }
}
