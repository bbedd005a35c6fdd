import type { LoginAnswer, LoginBody } from '../contract/requests';
import type { Identity } from '../ports';
import { repositories } from '../repository/repositories';
import { assertOwnUserId, type AppDeps } from './context';

/**
 * Records the signed-in user's profile (spec §7 POST /api/login). The e-mail comes from the verified
 * token when it has one; the body's only fills in what the token lacks.
 */
export async function loginUser(
  deps: Pick<AppDeps, 'store'>,
  identity: Identity,
  body: LoginBody,
): Promise<LoginAnswer> {
  assertOwnUserId(identity, body.user_id);
  const user = {
    user_id: identity.uid,
    user_email: identity.email ?? body.user_email,
    user_name: body.user_name || identity.name || '',
  };
  await repositories(deps.store).users.saveUserProfile(user);
  return { user_id: user.user_id, user_email: user.user_email };
}
