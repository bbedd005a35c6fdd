import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { assertValidFilter, type Filter } from '@receipts/core';
import { ATTR, DATE_TAG } from './key-layout';
import { propertyAttribute, toAttributeValue } from './marshal';

/**
 * Collects the placeholders of one request's expressions. Placeholders are short base-36 counters
 * (`#0`, `:1a`) so that an update of 252 properties stays within DynamoDB's 4 KB expression limit,
 * and only placeholders actually used are sent (DynamoDB refuses unused ones).
 */
export class ExpressionBuilder {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, AttributeValue> = {};
  private counter = 0;

  /** The placeholder of an attribute name (one per name). */
  name(attribute: string): string {
    let placeholder = this.names.get(attribute);
    if (!placeholder) {
      placeholder = `#${(this.counter++).toString(36)}`;
      this.names.set(attribute, placeholder);
    }
    return placeholder;
  }

  /** A new placeholder for a value. */
  value(value: AttributeValue): string {
    const placeholder = `:${(this.counter++).toString(36)}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** `ExpressionAttributeNames` / `ExpressionAttributeValues`, omitted when empty. */
  attributes(): {
    ExpressionAttributeNames?: Record<string, string>;
    ExpressionAttributeValues?: Record<string, AttributeValue>;
  } {
    const names = Object.fromEntries(
      [...this.names].map(([attribute, placeholder]) => [placeholder, attribute]),
    );
    return {
      ...(this.names.size > 0 ? { ExpressionAttributeNames: names } : {}),
      ...(Object.keys(this.values).length > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

const COMPARATORS = { eq: '=', gt: '>', ge: '>=', lt: '<', le: '<=' } as const;

/**
 * Translates a typed filter into a FilterExpression. `ne` is written `NOT (a = v)` so that an item
 * without the attribute (or with null) matches it, as the port's rules say; a Date compares the
 * ISO string inside its tagged map, so it never equals a plain string.
 * @param filter - the typed filter (checked first)
 * @param expression - the request's placeholders
 * @throws ValidationError when the filter is malformed
 */
export function toFilterExpression(filter: Filter, expression: ExpressionBuilder): string {
  assertValidFilter(filter);
  return translate(filter, expression);
}

function translate(filter: Filter, expression: ExpressionBuilder): string {
  if ('filters' in filter) {
    const joiner = filter.op === 'and' ? ' AND ' : ' OR ';
    return filter.filters.map((part) => `(${translate(part, expression)})`).join(joiner);
  }
  const attribute =
    filter.property === 'partitionKey' || filter.property === 'rowKey'
      ? ATTR[filter.property]
      : propertyAttribute(filter.property);
  let path = expression.name(attribute);
  let value: string;
  if (filter.value instanceof Date) {
    path = `${path}.${expression.name(DATE_TAG)}`;
    value = expression.value({ S: filter.value.toISOString() });
  } else {
    value = expression.value(toAttributeValue(filter.value));
  }
  return filter.op === 'ne' ? `NOT (${path} = ${value})` : `${path} ${COMPARATORS[filter.op]} ${value}`;
}
