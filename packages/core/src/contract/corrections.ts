/**
 * Request schemas and answer types of the routes of a person's correction rules: what the app learnt
 * from their corrections (GET /api/listCorrectionRules) and removing one (DELETE
 * /api/deleteCorrectionRule). No Node APIs here; the web app imports these for its calls.
 */
import * as z from 'zod';
import { idSchema } from './ids';

/** The most rules one person keeps: a new rule past it replaces their least recently set one. */
export const MAX_CORRECTION_RULES = 2000;

/**
 * A rule learnt from a person's correction. `item`: the item printed `text` at the shop `shop` (or
 * another shop of the chain owned by `chain`) gets `brand` (when `sets_brand`) and `description`
 * (when not null). `merchant`: a merchant read as `text` is the person's merchant `merchant_name`.
 */
export interface CorrectionRule {
  /** Names the rule in DELETE /api/deleteCorrectionRule. */
  id: string;
  kind: 'item' | 'merchant';
  /** The item's text or the merchant's name as the analysis read it. */
  text: string;
  /** Item rules: the shop the correction was made at, and the group owning its chain, if known. */
  shop: string | null;
  chain: string | null;
  /** Whether the rule sets the brand (to `brand`; null: no brand). */
  sets_brand: boolean;
  brand: string | null;
  /** The brand's owning corporation, when the brand dataset knows it. */
  owner: string | null;
  /** The description the item gets, or null to keep the one read. */
  description: string | null;
  /** Merchant rules: the name the merchant gets. */
  merchant_name: string | null;
  /** When the person last made this correction (ISO 8601). */
  updated_at: string;
}

/** GET /api/listCorrectionRules's answer: the rules, most recently set first. */
export interface ListCorrectionRulesAnswer {
  rules: CorrectionRule[];
  /** The most rules one person keeps (MAX_CORRECTION_RULES). */
  limit: number;
}

/** A rule's id: its kind, then its normalised keys (letters and digits) separated by '~'. */
export const correctionRuleIdSchema = z
  .string({ error: 'ruleId is required.' })
  .min(1, 'ruleId is required.')
  .max(500, 'ruleId is too long.')
  .regex(
    /^(item~[a-z0-9]+~[a-z0-9]+|merchant~[a-z0-9]+)$/,
    'ruleId is not the id of a correction rule; reload the list of your rules.',
  );

/** DELETE /api/deleteCorrectionRule?userId=&ruleId= */
export const deleteCorrectionRuleQuery = z.object({
  userId: idSchema('userId'),
  ruleId: correctionRuleIdSchema,
});
export type DeleteCorrectionRuleQuery = z.output<typeof deleteCorrectionRuleQuery>;

export interface DeleteCorrectionRuleAnswer {
  deleted: true;
}
