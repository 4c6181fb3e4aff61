// Short, readable, collision-safe ids for project rows ("t-4f9k2c1x").
import crypto from 'node:crypto';

export function newId(prefix: string): string {
  return `${prefix}-${crypto.randomBytes(6).toString('base64url').toLowerCase().replace(/[^a-z0-9]/g, 'x')}`;
}

export const now = (): string => new Date().toISOString();
