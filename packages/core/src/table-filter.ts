/*
 * The typed filter of a listing: its expression types, the builders callers write filters with, and
 * its evaluation on a plain entity with the comparison rules both adapters follow. The checks of a
 * filter are in `table-checks.ts`; each adapter translates it (OData on Azure, a FilterExpression on
 * DynamoDB).
 */

export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type FilterValue = string | number | boolean | Date;

/**
 * A typed filter expression. Property names are entity property names, including `partitionKey`
 * and `rowKey`. Both adapters translate it; neither accepts a raw string.
 */
export type Filter =
  { op: ComparisonOperator; property: string; value: FilterValue } | { op: 'and' | 'or'; filters: Filter[] };

const compare =
  (op: ComparisonOperator) =>
  (property: string, value: FilterValue): Filter => ({ op, property, value });

/** Filter builders: `and(eq('user_id', id), ge('total_amount', 10))`. */
export const eq = compare('eq');
export const ne = compare('ne');
export const gt = compare('gt');
export const ge = compare('ge');
export const lt = compare('lt');
export const le = compare('le');
export const and = (...filters: Filter[]): Filter => ({ op: 'and', filters });
export const or = (...filters: Filter[]): Filter => ({ op: 'or', filters });

/** Evaluates a filter against an entity, with the comparison rules both adapters follow. */
export function matchesFilter(entity: Record<string, unknown>, filter: Filter): boolean {
  if ('filters' in filter) {
    return filter.op === 'and'
      ? filter.filters.every((f) => matchesFilter(entity, f))
      : filter.filters.some((f) => matchesFilter(entity, f));
  }
  return compareValue(entity[filter.property], filter.op, filter.value);
}

function compareValue(actual: unknown, op: ComparisonOperator, expected: FilterValue): boolean {
  if (actual === undefined || actual === null) return op === 'ne';
  const a = actual instanceof Date ? actual.getTime() : actual;
  const b = expected instanceof Date ? expected.getTime() : expected;
  if (typeof a !== typeof b) return op === 'ne';
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'gt':
      return (a as never) > (b as never);
    case 'ge':
      return (a as never) >= (b as never);
    case 'lt':
      return (a as never) < (b as never);
    case 'le':
      return (a as never) <= (b as never);
  }
}
