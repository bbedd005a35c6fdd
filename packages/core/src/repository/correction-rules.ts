import { MAX_CORRECTION_RULES, type CorrectionRule } from '../contract/corrections';
import { correctionKey, itemRuleId, merchantRuleId, shopKey } from '../corrections';
import { TABLES } from '../entities';
import { NotFoundError } from '../errors';
import { deleteRows } from './table-rows';
import { listAllEntities, type StoredEntity, type TableEntity, type TableStore } from '../table-store';
import { KEY_SEPARATOR } from './keys';
import { str } from './rows';

/**
 * The partition of the Users table holding one user's correction rules: `<user_id>~rules`. User ids
 * never contain `~`, so it is nobody else's, and every read or delete of it names the user's id.
 */
export function correctionRulesPartition(userId: string): string {
  return `${userId}${KEY_SEPARATOR}rules`;
}

/** A correction a person made, before it is keyed and stored as a rule. */
export type LearntCorrection =
  | {
      kind: 'item';
      /** The item's text before the correction (as the analysis read it). */
      text: string;
      /** The receipt's merchant, and the group owning its chain. */
      shop: string;
      chain: string | null;
      /** Set when the person changed the brand (null: they removed it). */
      brand?: { name: string | null; owner: string | null };
      /** Set when the person changed the description. */
      description?: string;
    }
  | { kind: 'merchant'; text: string; merchantName: string };

function ruleToRow(userId: string, rule: CorrectionRule): TableEntity {
  const { id, ...fields } = rule;
  return { partitionKey: correctionRulesPartition(userId), rowKey: id, ...fields };
}

function rowToRule(row: StoredEntity): CorrectionRule {
  return {
    id: row.rowKey,
    kind: str(row, 'kind') === 'merchant' ? 'merchant' : 'item',
    text: str(row, 'text') ?? '',
    shop: str(row, 'shop'),
    chain: str(row, 'chain'),
    sets_brand: row.sets_brand === true,
    brand: str(row, 'brand'),
    owner: str(row, 'owner'),
    description: str(row, 'description'),
    merchant_name: str(row, 'merchant_name'),
    updated_at: str(row, 'updated_at') ?? '',
  };
}

/**
 * The rule a correction makes, merged with the one the same text at the same shop already had (a
 * brand set before stays when only the description is corrected now); null when there is nothing
 * to key it by (no text, an unread shop).
 */
export function ruleOf(
  correction: LearntCorrection,
  before: CorrectionRule | null,
  now: Date,
): CorrectionRule | null {
  const text = correctionKey(correction.text);
  if (!text) return null;
  const updated_at = now.toISOString();
  if (correction.kind === 'merchant') {
    if (correctionKey(correction.merchantName) === text) return null;
    return {
      id: merchantRuleId(text),
      kind: 'merchant',
      text: correction.text,
      shop: null,
      chain: null,
      sets_brand: false,
      brand: null,
      owner: null,
      description: null,
      merchant_name: correction.merchantName,
      updated_at,
    };
  }
  const shop = shopKey(correction.shop);
  if (!shop || (!correction.brand && correction.description === undefined)) return null;
  const description =
    correction.description !== undefined && correctionKey(correction.description) !== text
      ? correction.description
      : correction.description !== undefined
        ? null
        : (before?.description ?? null);
  const setsBrand = correction.brand !== undefined || (before?.sets_brand ?? false);
  const brand = correction.brand ?? (before?.sets_brand ? { name: before.brand, owner: before.owner } : null);
  if (!setsBrand && description === null) return null;
  return {
    id: itemRuleId(shop, text),
    kind: 'item',
    text: correction.text,
    shop: correction.shop,
    chain: correction.chain,
    sets_brand: setsBrand,
    brand: brand?.name ?? null,
    owner: brand?.name ? brand.owner : null,
    description,
    merchant_name: null,
    updated_at,
  };
}

/**
 * One user's correction rules in the table store: rows of the user's own partition of Users (see
 * correctionRulesPartition), so listing them is one partition read whatever the size of the account
 * or of other users' data.
 */
export class CorrectionRuleStore {
  constructor(private readonly store: TableStore) {}

  /** The user's rules, most recently set first. */
  async list(userId: string): Promise<CorrectionRule[]> {
    const rows = await listAllEntities(this.store, TABLES.users, {
      partitionKey: correctionRulesPartition(userId),
    });
    return rows.map(rowToRule).sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  }

  /**
   * Records what the corrections teach: each becomes a rule (or updates the one of the same text at
   * the same shop, or the same merchant spelling). Past MAX_CORRECTION_RULES, the least recently set
   * rules go.
   * @returns the rules written
   */
  async learn(
    userId: string,
    corrections: readonly LearntCorrection[],
    now: Date,
  ): Promise<CorrectionRule[]> {
    if (corrections.length === 0) return [];
    const existing = await this.list(userId);
    const byId = new Map(existing.map((r) => [r.id, r]));
    const written: CorrectionRule[] = [];
    for (const correction of corrections) {
      // Keyed first, then merged with the rule of that key the person already has.
      const id = ruleOf(correction, null, now)?.id;
      if (!id) continue;
      const rule = ruleOf(correction, byId.get(id) ?? null, now);
      if (!rule) continue;
      await this.store.upsertEntity(TABLES.users, ruleToRow(userId, rule), 'Replace');
      byId.set(rule.id, rule);
      written.push(rule);
    }
    const all = [...byId.values()].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
    for (const old of all.slice(MAX_CORRECTION_RULES)) await this.delete(userId, old.id);
    return written;
  }

  /**
   * Removes one of the user's rules.
   * @throws NotFoundError when the user has no such rule
   */
  async remove(userId: string, ruleId: string): Promise<void> {
    const row = await this.store.getEntity(TABLES.users, correctionRulesPartition(userId), ruleId);
    if (!row) {
      throw new NotFoundError('This rule does not exist any more; reload the list of your rules.', {
        code: 'RuleNotFound',
      });
    }
    await this.delete(userId, ruleId);
  }

  /**
   * Deletes all of the user's rules (the account is deleted).
   * @returns how many were deleted
   */
  async removeAll(userId: string): Promise<number> {
    const rows = await listAllEntities(this.store, TABLES.users, {
      partitionKey: correctionRulesPartition(userId),
    });
    return deleteRows(this.store, TABLES.users, rows);
  }

  private async delete(userId: string, ruleId: string): Promise<void> {
    try {
      await this.store.deleteEntity(TABLES.users, correctionRulesPartition(userId), ruleId);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
    }
  }
}
