import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { messages } from '../../domain/messages.js';
import {
  OTHER_OCCUPATION_NAME,
  parentRuleErrors,
  workplaceRuleErrors,
  type FieldError,
  isOccupationOffered,
} from '../../domain/rules/index.js';
import { applicationParents, applications, type ParentRelationship, type ProxyApplicationReason } from '../db/schema.js';
import { storedAnswersOf } from '../forms/answers.js';
import { formSchemaOf } from '../forms/catalogue.js';
import { applicationOf } from '../plugins/auth.js';
import { check, normalizedAsTheForm } from '../validation.js';
import { badRequest } from './step-bodies.js';
import { occupationOf } from './master-data.js';
import { stepEditHooks } from './step-lock.js';

/** Body of POST /api/applications/personal/parent, once schemas/parent.schema.json accepted it. */
interface ParentBody {
  bankCode: string;
  lastName: string;
  firstName: string;
  kanaLastName: string;
  kanaFirstName: string;
  birthday: string;
  relationship: ParentRelationship;
  mobilePhoneNumber: string;
  phoneNumber?: string | null;
  proxyApplicationReason: ProxyApplicationReason;
}

/**
 * Body of POST /api/applications/workplace/parent, once schemas/parent-workplace.schema.json
 * accepted it: the spec's four fields. Anything else is ignored, as by every step POST; the
 * child flow's invitation code goes with the child's POST /api/applications/workplace.
 */
interface ParentWorkplaceBody {
  occupationId: number;
  occupationOther?: string | null;
  workplaceName?: string | null;
  workplacePhoneNumber?: string | null;
}


// The /child/parent form's field order: the 400's `message` is the first field's, as the page focuses it.
const PARENT_FIELDS = [
  'bankCode',
  'lastName',
  'firstName',
  'kanaLastName',
  'kanaFirstName',
  'birthday',
  'relationship',
  'mobilePhoneNumber',
  'phoneNumber',
  'proxyApplicationReason',
];
const PARENT_WORKPLACE_FIELDS = ['occupationId', 'occupationOther', 'workplaceName', 'workplacePhoneNumber'];

function conflict(reply: FastifyReply, message: string) {
  return reply.code(409).send({ message });
}

/** 409 texts: the steps were called out of order or by a general application. */
const notChild = '親権者さまの情報はお子さまのお申込みでのみ登録できます。';
const childFirst = 'お子さまの情報を先に登録してください。';
const parentFirst = '親権者さまの情報を先に登録してください。';

/**
 * The child flow's parent step (spec sections 3, 5 and 7): POST /api/applications/personal/parent
 * and POST /api/applications/workplace/parent, posted in that order by /child/parent. Both are
 * for CHILD applications only (409 otherwise) and need the step before saved (409). The body is
 * checked whole (JSON Schema, then the shared rules with what needs our data: the child's
 * surnames, the occupation master) before one statement writes, so a refused request leaves
 * what was saved before unchanged. 200 {} or 400 { message, errors } with the Japanese
 * messages of spec section 5.
 *
 * The 409 checks come before the body's: the schema is run in the handler (not preValidation)
 * so a general application is told it is in the wrong flow whatever it sends; and once the
 * PIN is set, both answer 409 before anything else (step-lock.ts).
 */
/** The child's stored surnames, once the child's personal step is stored (it has a birthday then). */
function childSurnamesOf(application: Record<string, unknown> | undefined): { lastName: string; kanaLastName: string } | undefined {
  const { lastName, kanaLastName, birthday } = application ?? {};
  if (typeof lastName !== 'string' || typeof kanaLastName !== 'string' || typeof birthday !== 'string') return undefined;
  return { lastName, kanaLastName };
}

const parentRoutes: FastifyPluginAsync = async (app) => {
  app.post('/applications/personal/parent', { onRequest: stepEditHooks }, async (request, reply) => {
    const { id, bankCode, applicationType } = applicationOf(request);
    if (applicationType !== 'CHILD') return conflict(reply, notChild);
    const child = childSurnamesOf((await storedAnswersOf(app.db, app.forms, id))?.application);
    if (!child) return conflict(reply, childFirst);

    // As the page sends it: trimmed, each field's x-normalize (kana, an empty phone), empty answers left out.
    const normalized = normalizedAsTheForm(formSchemaOf(app.forms, 'parent'), request.body);
    const invalid = check('parent.schema.json', normalized, app.config.schemasDir);
    if (invalid) return badRequest(reply, invalid.errors, PARENT_FIELDS);
    // The schema has accepted the body: every required field is there with its type.
    const body = normalized as ParentBody;

    const now = app.now();
    const errors: FieldError[] = [];
    if (body.bankCode !== bankCode) errors.push({ field: 'bankCode', message: messages.badRequest });
    errors.push(...parentRuleErrors(body, { child: { lastName: child.lastName, kanaLastName: child.kanaLastName }, today: now }));
    if (errors.length > 0) return badRequest(reply, errors, PARENT_FIELDS);

    const personal = {
      lastName: body.lastName,
      firstName: body.firstName,
      kanaLastName: body.kanaLastName,
      kanaFirstName: body.kanaFirstName,
      birthday: body.birthday,
      relationship: body.relationship,
      mobilePhoneNumber: body.mobilePhoneNumber,
      phoneNumber: body.phoneNumber ?? null,
      proxyApplicationReason: body.proxyApplicationReason,
      updatedAt: now,
    };
    // One statement: the workplace columns of an earlier save are kept.
    await app.db
      .insert(applicationParents)
      .values({ applicationId: id, ...personal })
      .onConflictDoUpdate({ target: applicationParents.applicationId, set: personal });
    return {};
  });

  app.post('/applications/workplace/parent', { onRequest: stepEditHooks }, async (request, reply) => {
    const { id, bankCode, applicationType } = applicationOf(request);
    if (applicationType !== 'CHILD') return conflict(reply, notChild);
    const [parent] = await app.db
      .select({ applicationId: applicationParents.applicationId })
      .from(applicationParents)
      .where(eq(applicationParents.applicationId, id))
      .limit(1);
    if (!parent) return conflict(reply, parentFirst);

    const normalizedWorkplace = normalizedAsTheForm(formSchemaOf(app.forms, 'parent-workplace'), request.body);
    const invalid = check('parent-workplace.schema.json', normalizedWorkplace, app.config.schemasDir);
    if (invalid) return badRequest(reply, invalid.errors, PARENT_WORKPLACE_FIELDS);
    // The schema has accepted the body: occupationId is an integer, the rest strings or absent.
    const body = normalizedWorkplace as ParentWorkplaceBody;

    // The parent is an adult: the general flow's list applies.
    const found = await occupationOf(app.db, bankCode, body.occupationId);
    const occupation = found && isOccupationOffered(found, { kind: 'adult' }) ? found : undefined;
    const errors: FieldError[] = [];
    if (!occupation) errors.push({ field: 'occupationId', message: messages.selectRequired });
    else errors.push(...workplaceRuleErrors(body, { occupation }));
    if (errors.length > 0 || !occupation) return badRequest(reply, errors, PARENT_WORKPLACE_FIELDS);

    await app.db
      .update(applicationParents)
      .set({
        occupationId: occupation.id,
        occupationName: occupation.name,
        occupationOther: occupation.name === OTHER_OCCUPATION_NAME ? (body.occupationOther ?? null) : null,
        workplaceName: body.workplaceName ?? null,
        workplacePhoneNumber: body.workplacePhoneNumber ?? null,
        updatedAt: app.now(),
      })
      .where(eq(applicationParents.applicationId, id));
    return {};
  });
};

export default parentRoutes;
