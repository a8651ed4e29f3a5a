import { and, eq, gte, isNull, or, type SQL } from 'drizzle-orm';
import { japanIsoDate } from '../../domain/rules/index.js';
import type { Database } from '../db/index.js';
import { invitationCodes, workplaces } from '../db/schema.js';
import type { Invitation, Workplace } from './types.js';

/**
 * The workplaces and invitation codes, read from the database by their routes
 * (routes/master-data.ts) and by the form steps' derivations (forms/derivations.ts).
 */

const workplaceColumns = {
  id: workplaces.id,
  code: workplaces.code,
  name: workplaces.name,
  phoneNumber: workplaces.phoneNumber,
  multipleAccounts: workplaces.multipleAccounts,
};

/** The bank's workplace that `match` finds. */
async function workplaceWhere(db: Database, bankCode: string, match: SQL): Promise<Workplace | undefined> {
  const [row] = await db
    .select(workplaceColumns)
    .from(workplaces)
    .where(and(eq(workplaces.bankCode, bankCode), match))
    .limit(1);
  return row;
}

export function workplaceByCode(db: Database, bankCode: string, code: string): Promise<Workplace | undefined> {
  return workplaceWhere(db, bankCode, eq(workplaces.code, code));
}

export function workplaceById(db: Database, bankCode: string, id: number): Promise<Workplace | undefined> {
  return workplaceWhere(db, bankCode, eq(workplaces.id, id));
}

/**
 * An invitation code accepted today: known to the bank, enabled, and not past its last day
 * (Japan time). A disabled or expired code answers exactly like an unknown one.
 */
export async function validInvitation(db: Database, bankCode: string, code: string, now: Date): Promise<Invitation | undefined> {
  const [row] = await db
    .select({ code: invitationCodes.code, name: invitationCodes.name, enabled: invitationCodes.enabled, validUntil: invitationCodes.validUntil })
    .from(invitationCodes)
    .where(
      and(
        eq(invitationCodes.bankCode, bankCode),
        eq(invitationCodes.code, code),
        eq(invitationCodes.enabled, true),
        or(isNull(invitationCodes.validUntil), gte(invitationCodes.validUntil, japanIsoDate(now))),
      ),
    )
    .limit(1);
  return row;
}

