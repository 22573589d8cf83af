// What other areas use of auth on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { changePassword } from './auth.server.ts';
export { generateTemporaryPassword, hashPassword } from './passwords.server.ts';
export {
  LoginAnswer,
  LoginStepAnswer,
  LogoutAnswer,
  SIGNED_IN_USER_EXAMPLE,
  SignedInUserAnswer,
  TwoFactorSignedInAnswer,
} from './answers.ts';
export {
  resealTwoFactorSecrets,
  resetTwoFactor,
  twoFactorStatus,
  usersWithTwoFactor,
} from './two-factor-state.server.ts';
export { twoFactorPolicy, setTwoFactorPolicy, TwoFactorPolicySchema } from './two-factor-policy.server.ts';
