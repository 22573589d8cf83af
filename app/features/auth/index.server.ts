// What other areas use of auth on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { changePassword } from './auth.server.ts';
export { generateTemporaryPassword, hashPassword } from './passwords.server.ts';
export { LoginAnswer, LogoutAnswer, SIGNED_IN_USER_EXAMPLE, SignedInUserAnswer } from './answers.ts';
