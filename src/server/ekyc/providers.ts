import type { BankConfig } from '../../domain/bank/types.js';
import { isProviderMethod, methodsOfferedAt, VERIFICATION_METHODS, type ProviderMethod, type VerificationMethod } from '../../domain/identity-check-methods.js';
import type { Today } from '../../domain/rules/dates.js';
import type { ServerConfig } from '../config.js';
import type { EkycProvider } from './adapter.js';

/**
 * The identity-check providers of this server, one per method it can start (ADR 0037): the
 * photo-ID method through EKYC_PROVIDER's provider (the simulator), JPKI through the OpenID
 * Connect relying party. Which of them an applicant may use on a day is the bank's
 * configuration (bank.json identityCheckMethods), read at every start.
 */
export class EkycProviders {
  readonly #byMethod = new Map<ProviderMethod, EkycProvider>();

  constructor(providers: readonly EkycProvider[]) {
    for (const provider of providers) {
      if (isProviderMethod(provider.method)) this.#byMethod.set(provider.method, provider);
    }
  }

  /** The provider of `method`, undefined when this server has none (IC_CHIP_AND_FACE today). */
  forMethod(method: ProviderMethod): EkycProvider | undefined {
    return this.#byMethod.get(method);
  }

  /** The provider that made a stored session (ekyc_sessions.provider). */
  named(name: string): EkycProvider | undefined {
    return [...this.#byMethod.values()].find((provider) => provider.name === name);
  }

  /**
   * What a bank's configuration asks that this server cannot give: a method without a provider,
   * on any day of its window (a future window too, so the day itself needs no one awake).
   */
  problemsWith(bank: BankConfig): string[] {
    return bank.identityCheckMethods
      .map((window) => window.method)
      .filter((method) => isProviderMethod(method) && !this.#byMethod.has(method))
      .map((method) => `banks/${bank.code}/bank.json offers ${method} (identityCheckMethods), for which this server has no provider`);
  }
}

/** What decides the day of the methods: the server's configuration and its clock (a FastifyInstance is one). */
export interface MethodsClock {
  config: Pick<ServerConfig, 'identityCheckMethodsDay'>;
  now(): Date;
}

/**
 * The day whose windows decide which identity-check methods are offered (ADR 0043):
 * IDENTITY_CHECK_METHODS_DAY when set (a staging system rehearsing a switch, the tests), else the
 * app clock's now. Only the methods follow it; every time limit keeps app.now().
 */
export function identityCheckDay(clock: MethodsClock): Today {
  return clock.config.identityCheckMethodsDay ?? clock.now();
}

/** The methods `bank` offers on the identity-check day, in the bank's order (the page's settings). */
export function methodsOffered(clock: MethodsClock, bank: BankConfig): VerificationMethod[] {
  return methodsOfferedAt(bank.identityCheckMethods, identityCheckDay(clock));
}

/**
 * Whether the bank takes a child's document images on the identity-check day: a child
 * application's uploads and its parent's check need it, since the child's record is made of
 * those images (ADR 0037).
 */
export function childDocumentImagesOffered(clock: MethodsClock, bank: BankConfig | undefined): boolean {
  return bank !== undefined && methodsOffered(clock, bank).includes(VERIFICATION_METHODS.CHILD_DOCUMENT_IMAGES);
}

/** The methods `bank` offers on the identity-check day that an applicant starts at a provider, in the bank's order. */
export function providerMethodsOffered(clock: MethodsClock, bank: BankConfig): ProviderMethod[] {
  return methodsOffered(clock, bank).filter(isProviderMethod);
}
