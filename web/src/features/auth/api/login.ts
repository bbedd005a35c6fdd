import { useMutation } from '@tanstack/react-query';
import type { LoginAnswer, LoginBody } from '@receipts/core/contract/requests';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/login with the user object; a non-OK status is an error (spec §7). */
export function login(user: LoginBody): Promise<LoginAnswer> {
  return apiRequest('login', { body: user });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
