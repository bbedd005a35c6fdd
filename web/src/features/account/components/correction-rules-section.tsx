import { Body1, Button, makeStyles, tokens } from '@fluentui/react-components';
import type { CorrectionRule } from '@receipts/core/contract/corrections';
import { PageSection } from '../../../components/page';
import { errorMessage } from '../../../lib/api-client';
import { useCorrectionRules, useDeleteCorrectionRule } from '../api/correction-rules';

const useStyles = makeStyles({
  list: { margin: 0, padding: 0, listStyle: 'none', display: 'grid', gap: tokens.spacingVerticalS },
  rule: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalM,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    paddingBlock: tokens.spacingVerticalXS,
  },
  error: { color: tokens.colorPaletteRedForeground1, margin: 0 },
});

/** A rule in words: what is recognised, and what it gets. */
export function ruleText(rule: CorrectionRule): string {
  if (rule.kind === 'merchant') return `The merchant read as “${rule.text}” is ${rule.merchant_name ?? ''}`;
  const sets: string[] = [];
  if (rule.description) sets.push(`is “${rule.description}”`);
  if (rule.sets_brand) sets.push(rule.brand ? `has the brand ${rule.brand}` : 'has no brand');
  const where = rule.shop ? ` at ${rule.shop}${rule.chain ? ` (and other shops of ${rule.chain})` : ''}` : '';
  return `“${rule.text}”${where} ${sets.join(' and ')}`;
}

/**
 * The rules learnt from the person's corrections, each with Remove: a removed rule no longer
 * applies to receipts analysed from then on.
 */
export function CorrectionRulesSection({ userId }: { userId: string }) {
  const styles = useStyles();
  const rules = useCorrectionRules(userId);
  const remove = useDeleteCorrectionRule(userId);
  const list = rules.data?.rules ?? [];
  return (
    <PageSection id="learnt-from-corrections" title="Learnt from your corrections">
      <Body1 as="p">
        When you correct an item&apos;s brand or description, or rename or merge merchants, the app remembers
        it: the same item at the same shop (or chain), or the same merchant spelling, on receipts you add
        later gets your correction, marked “from your corrections”. Up to {rules.data?.limit ?? 2000} are
        kept; past that, the oldest go.
      </Body1>
      {rules.isPending && <Body1 as="p">Loading your rules…</Body1>}
      {rules.isError && <p className={styles.error}>{errorMessage(rules.error)}</p>}
      {rules.isSuccess && list.length === 0 && <Body1 as="p">Nothing learnt yet.</Body1>}
      {list.length > 0 && (
        <ul className={styles.list} aria-label="Your correction rules">
          {list.map((rule) => (
            <li key={rule.id} className={styles.rule}>
              <Body1>{ruleText(rule)}</Body1>
              <Button
                size="small"
                aria-label={`Remove the rule for ${rule.text}`}
                disabled={remove.isPending && remove.variables === rule.id}
                onClick={() => remove.mutate(rule.id)}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p role="alert" className={styles.error} hidden={!remove.isError}>
        {remove.isError ? errorMessage(remove.error) : null}
      </p>
    </PageSection>
  );
}
