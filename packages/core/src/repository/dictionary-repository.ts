import { TABLES } from '../entities';
import type { TableEntity, TableStore } from '../table-store';
import { BRAND_PARTITION, CORPORATION_PARTITION, dictionaryKey } from './keys';
import { str } from './rows';

/**
 * The shared dictionaries: brands with their owning corporation (Brands) and corporations
 * (Corporations). They hold no user data, are shared by every user, and stay when an account goes.
 */
export class DictionaryRepository {
  constructor(private readonly store: TableStore) {}

  /** Records a brand and its owner in the shared dictionary (an unknown owner does not erase a known one). */
  async saveBrand(name: string, owningCorporation: string | null): Promise<void> {
    const entity: TableEntity = { partitionKey: BRAND_PARTITION, rowKey: dictionaryKey(name), name };
    if (owningCorporation) entity.owning_corporation = owningCorporation;
    await this.store.upsertEntity(TABLES.brands, entity, 'Merge');
  }

  async saveCorporation(name: string): Promise<void> {
    await this.store.upsertEntity(
      TABLES.corporations,
      { partitionKey: CORPORATION_PARTITION, rowKey: dictionaryKey(name), name },
      'Merge',
    );
  }

  async getBrand(name: string): Promise<{ name: string; owning_corporation: string | null } | null> {
    const row = await this.store.getEntity(TABLES.brands, BRAND_PARTITION, dictionaryKey(name));
    return row
      ? { name: str(row, 'name') ?? name, owning_corporation: str(row, 'owning_corporation') }
      : null;
  }
}
