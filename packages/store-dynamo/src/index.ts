export { DynamoTableStore, type DynamoTableStoreOptions } from './dynamo-table-store';
export { createStoreTable, STORE_TABLE_SCHEMA } from './create-store-table';
export {
  ATTR,
  GSI1,
  PROPERTY_PREFIX,
  REGISTRY_PK,
  entityKey,
  entityKeyAttributes,
  registryKey,
} from './key-layout';
export { fromAttributeValue, fromItem, toAttributeValue, toItem } from './marshal';
export { toFilterExpression } from './expressions';
export { isSdkError, toStoreError } from './errors';
