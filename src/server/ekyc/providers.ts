import type { BankConfig } from '../../domain/bank/types.js';
import { isProviderMethod, methodsOfferedAt, VERIFICATION_METHODS, type ProviderMethod } from '../../domain/identity-check-methods.js';
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

/**
 * Whether the bank takes a child's document images at `instant`: a child application's uploads
 * and its parent's check need it, since the child's record is made of those images (ADR 0037).
 */
export function childDocumentImagesOffered(bank: BankConfig | undefined, instant: Date): boolean {
  return bank !== undefined && methodsOfferedAt(bank.identityCheckMethods, instant).includes(VERIFICATION_METHODS.CHILD_DOCUMENT_IMAGES);
}

/** The methods `bank` offers at `instant` that an applicant starts at a provider, in the bank's order. */
export function providerMethodsOffered(bank: BankConfig, instant: Date): ProviderMethod[] {
  return methodsOfferedAt(bank.identityCheckMethods, instant).filter(isProviderMethod);
}
