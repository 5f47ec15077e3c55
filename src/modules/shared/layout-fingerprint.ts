import { badInput } from '../../core/errors';

/** A layout fingerprint as the learning loop writes it: a SHA-256 in 64 lower-case hex characters. */
const FINGERPRINT = /^[0-9a-f]{64}$/;

/** The fingerprint of `field`, or BAD_USER_INPUT naming the field when it is not one. */
export function checkFingerprint(field: string, value: string): string {
  if (!FINGERPRINT.test(value)) throw badInput(field, `${field} must be 64 lower-case hex characters`);
  return value;
}
