import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DeleteCorrectionRuleAnswer,
  ListCorrectionRulesAnswer,
} from '@receipts/core/contract/corrections';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/listCorrectionRules: the rules learnt from the person's corrections. */
export function listCorrectionRules(
  userId: string,
  signal?: AbortSignal,
): Promise<ListCorrectionRulesAnswer> {
  return apiRequest('listCorrectionRules', { query: { userId }, signal });
}

export const correctionRulesQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['correctionRules', userId] as const,
    queryFn: ({ signal }) => listCorrectionRules(userId, signal),
  });

/** The person's correction rules. */
export function useCorrectionRules(userId: string) {
  return useQuery(correctionRulesQueryOptions(userId));
}

/** DELETE /api/deleteCorrectionRule: one rule; receipts analysed from now on no longer get it. */
export function deleteCorrectionRule(input: {
  userId: string;
  ruleId: string;
}): Promise<DeleteCorrectionRuleAnswer> {
  return apiRequest('deleteCorrectionRule', { query: input });
}

/** Removes a rule, then reads the list again. */
export function useDeleteCorrectionRule(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ruleId: string) => deleteCorrectionRule({ userId, ruleId }),
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: correctionRulesQueryOptions(userId).queryKey }),
  });
}
