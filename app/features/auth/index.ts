// What other areas use of auth in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export {
  ChangePasswordSchema,
  EMAIL_MESSAGE,
  EMAIL_PATTERN,
  LoginSchema,
  MAX_PASSWORD,
  MIN_PASSWORD,
  PasswordChangeBody,
  TwoFactorSignInSchema,
} from './schemas.ts';
